"""Training samples for the two networks, cut from labelled scenes with random geometry and light.

A scene is an image with its dice (centre, extent in pixels, value or None). Both networks are trained
on views warped straight out of the scene (any rotation, a wide range of scales), then recoloured, so
that what they learn is the shape of a die and its pips, not the colours or tables of the dev photos.
No torch here: plain numpy arrays, so the same code can be checked without the training stack.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import geometry

# Classifier classes: 0 is "not a die centred here", 1-6 the value on top, 7 a die whose top cannot be read.
NOT_A_DIE = 0
UNREADABLE = 7
CLASS_COUNT = 8


@dataclass
class Scene:
    pyramid: list[np.ndarray]  # the image and its successive halvings (cv2.pyrDown)
    centers: np.ndarray  # (n, 2) die centres, full-resolution pixels
    extents: np.ndarray  # (n,) die extents (largest side of the die's box), pixels
    values: np.ndarray  # (n,) 1-6, or 0 where the top cannot be read (cocked, hidden)

    @classmethod
    def from_image(cls, image: np.ndarray, centers, extents, values) -> "Scene":
        pyramid = [image]
        while min(pyramid[-1].shape[:2]) > 64:
            pyramid.append(cv2.pyrDown(pyramid[-1]))
        return cls(
            pyramid,
            np.asarray(centers, np.float32).reshape(-1, 2),
            np.asarray(extents, np.float32).reshape(-1),
            np.asarray(values, np.int64).reshape(-1),
        )


def warp_view(scene: Scene, center, scale: float, angle: float, flip: bool, size: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """A size x size view of the scene around `center`, zoomed by `scale`, rotated by `angle` degrees.

    Returns the view and the 2x3 matrix that maps full-resolution scene pixels into it.
    """
    level = 0
    while level + 1 < len(scene.pyramid) and scale * 2 ** (level + 1) <= 1.0:
        level += 1
    source = scene.pyramid[level]
    level_scale = scale * 2**level
    matrix = cv2.getRotationMatrix2D((0.0, 0.0), angle, level_scale)
    if flip:
        matrix[0, :] *= -1
    cx, cy = center[0] / 2**level, center[1] / 2**level
    matrix[:, 2] = (size - 1) / 2 - matrix[:, :2] @ np.array([cx, cy])
    border = tuple(int(v) for v in rng.integers(0, 256, 3))
    view = cv2.warpAffine(source, matrix, (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    full_matrix = matrix.copy()
    full_matrix[:, :2] /= 2**level
    return view, full_matrix


def recolour(image: np.ndarray, rng) -> np.ndarray:
    """Random light and colour: hue turns, white balance, exposure, contrast, blur, noise, inversion."""
    out = image.astype(np.float32)
    if rng.random() < 0.4:
        hsv = cv2.cvtColor(out / 255.0, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(0, 360)) % 360
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.4, 1.5), 0, 1)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR) * 255.0
    out *= rng.uniform(0.8, 1.2, 3).astype(np.float32)  # white balance
    out = (out - 128) * rng.uniform(0.6, 1.3) + 128 + rng.uniform(-40, 30)
    gamma = rng.uniform(0.7, 1.4)
    out = 255.0 * (np.clip(out, 0, 255) / 255.0) ** gamma
    if rng.random() < 0.05:
        out = 255.0 - out
    if rng.random() < 0.05:
        out[:] = out.mean(axis=2, keepdims=True)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.5:
        out += rng.normal(0, rng.uniform(1, 8), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


# ---- detector -------------------------------------------------------------------------------------

DETECTOR_STRIDE = 4
# Each pyramid level answers for dice whose extent at that level lies in this band (network pixels);
# the training band is wider so that neighbouring levels overlap.
TRAIN_BAND = (5.0, 22.0)
IGNORE_BAND = (3.5, 30.0)


def detector_sample(scene: Scene, size: int, rng):
    """A training view for the centre heat-map network and its targets at 1/DETECTOR_STRIDE resolution.

    Targets: heat (peaks of 1 at die centres, Gaussian around), mask (0 where the loss is ignored:
    dice just outside the band), size (log2 of extent / geometry.DETECTOR_EXTENT at the peak cells),
    offset (sub-cell position of the centre at the peak cells), peak (1 at the peak cells).
    """
    n = len(scene.extents)
    if n and rng.random() < 0.85:
        die = rng.integers(n)
        target = math.exp(rng.uniform(math.log(3.5), math.log(36)))
        scale = target / scene.extents[die]
        center = scene.centers[die] + rng.uniform(-0.4, 0.4, 2) * size / scale
    else:
        height, width = scene.pyramid[0].shape[:2]
        typical = float(np.median(scene.extents)) if n else 30.0
        scale = math.exp(rng.uniform(math.log(3.5), math.log(36))) / typical
        center = np.array([rng.uniform(0, width), rng.uniform(0, height)])
    view, matrix = warp_view(scene, center, scale, rng.uniform(0, 360), rng.random() < 0.5, size, rng)
    view = recolour(view, rng)

    cells = size // DETECTOR_STRIDE
    heat = np.zeros((cells, cells), np.float32)
    mask = np.ones((cells, cells), np.float32)
    size_target = np.zeros((cells, cells), np.float32)
    offset = np.zeros((2, cells, cells), np.float32)
    peak = np.zeros((cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32)
    cell_centers_x = xs * DETECTOR_STRIDE + (DETECTOR_STRIDE - 1) / 2
    cell_centers_y = ys * DETECTOR_STRIDE + (DETECTOR_STRIDE - 1) / 2
    for (x, y), extent in zip(scene.centers, scene.extents):
        px, py = matrix @ np.array([x, y, 1.0])
        e = extent * scale
        if not (-e <= px < size + e and -e <= py < size + e):
            continue
        radius2 = ((cell_centers_x - px) ** 2 + (cell_centers_y - py) ** 2)
        if TRAIN_BAND[0] <= e <= TRAIN_BAND[1]:
            sigma = max(e / 6.0, 1.5)
            heat = np.maximum(heat, np.exp(-radius2 / (2 * sigma**2)))
            j = int(px // DETECTOR_STRIDE)
            i = int(py // DETECTOR_STRIDE)
            if 0 <= i < cells and 0 <= j < cells:
                heat[i, j] = 1.0
                peak[i, j] = 1.0
                size_target[i, j] = math.log2(e / geometry.DETECTOR_EXTENT)
                offset[0, i, j] = (px - cell_centers_x[i, j]) / DETECTOR_STRIDE
                offset[1, i, j] = (py - cell_centers_y[i, j]) / DETECTOR_STRIDE
        elif IGNORE_BAND[0] <= e <= IGNORE_BAND[1]:
            mask[radius2 <= (e / 2) ** 2] = 0.0
    return view, heat, mask, size_target, offset, peak


# ---- classifier -----------------------------------------------------------------------------------

def classifier_sample(scene: Scene, rng):
    """A crop as the reader cuts it (geometry.CROP_SIZE square, die extent = 1/CROP_MARGIN of it) and its class."""
    n = len(scene.extents)
    die = rng.integers(n)
    extent = scene.extents[die]
    kind = rng.random()
    center = scene.centers[die].astype(np.float64)
    label = int(scene.values[die]) if scene.values[die] > 0 else UNREADABLE
    if kind < 0.62:  # a die, as the detector would place it: a little off centre, a little off scale
        center = center + rng.normal(0, 0.07, 2) * extent
        extent = extent * math.exp(rng.normal(0, 0.12))
    elif kind < 0.8:  # half a die, or the gap between two: not a die centred here
        direction = rng.uniform(0, 2 * math.pi)
        center = center + rng.uniform(0.5, 0.9) * extent * np.array([math.cos(direction), math.sin(direction)])
        label = NOT_A_DIE
        extent = extent * math.exp(rng.normal(0, 0.2))
    elif kind < 0.86:  # a pip or two of a large die: a die's detail is not a die
        center = center + rng.uniform(-0.3, 0.3, 2) * extent
        extent = extent * rng.uniform(0.2, 0.45)
        label = NOT_A_DIE
    else:  # anywhere else in the scene
        height, width = scene.pyramid[0].shape[:2]
        for _ in range(20):
            center = np.array([rng.uniform(0, width), rng.uniform(0, height)])
            if n == 0 or np.min(np.hypot(*(scene.centers - center).T) / scene.extents) > 0.8:
                break
        label = NOT_A_DIE
        extent = extent * math.exp(rng.normal(0, 0.35))
    crop_side = extent * geometry.CROP_MARGIN
    scale = geometry.CROP_SIZE / crop_side
    crop, _ = warp_view(scene, center, scale, rng.uniform(0, 360), rng.random() < 0.5, geometry.CROP_SIZE, rng)
    crop = recolour(crop, rng)
    if label != NOT_A_DIE and rng.random() < 0.06:
        crop = _occlude(crop, rng)
        label = UNREADABLE
    return crop, label


def _occlude(crop: np.ndarray, rng) -> np.ndarray:
    """Cover most of the die with something (a finger, another object): its top cannot be read."""
    out = crop.copy()
    side = crop.shape[0]
    center = (int(rng.uniform(0.3, 0.7) * side), int(rng.uniform(0.3, 0.7) * side))
    axes = (int(rng.uniform(0.3, 0.5) * side), int(rng.uniform(0.3, 0.5) * side))
    colour = tuple(int(v) for v in rng.integers(0, 256, 3))
    cv2.ellipse(out, center, axes, rng.uniform(0, 180), 0, 360, colour, -1)
    return out
