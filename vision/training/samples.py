"""Training samples for the two networks, cut from labelled scenes, and the augmentation applied to them.

Made once (vision.training.build), used for many epochs (vision.training.train):
- detector views: VIEW x VIEW squares of a scene at a random scale, rotation and mirror image, with the
  dice inside them; the heat-map targets are made when a view is used, after a random crop and quarter turn;
- classifier patches: PATCH x PATCH squares around a die (or around something that is not one), scaled so
  that the die's extent is PATCH_EXTENT pixels; the crop the reader would cut (geometry.CROP_SIZE, the
  extent times geometry.CROP_MARGIN) is taken from it when used, turned, shifted and rescaled at random.
Then light and camera are changed at random: white balance, exposure, contrast, gamma, hue, blur, noise,
JPEG, lower resolution, so that what the networks learn is the shape of a die and its pips.
No torch here: plain numpy arrays, so the same code can be checked without the training stack.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision import geometry
from vision.training.scenes import NOT_A_DIE, Scene

GREY = (128, 128, 128)  # outside the frame, as the reader's crops and the networks' zero padding see it

# ---- geometry -------------------------------------------------------------------------------------


def pyramid(image: np.ndarray) -> list[np.ndarray]:
    """The image and its successive halvings, for warping down by large factors without aliasing."""
    levels = [image]
    while min(levels[-1].shape[:2]) > 32:
        levels.append(cv2.pyrDown(levels[-1]))
    return levels


def warp_view(levels: list[np.ndarray], center, scale: float, angle: float, flip: bool, size: int):
    """A size x size view around `center` (full-resolution pixels), zoomed by `scale`, turned by `angle`
    degrees, mirrored if `flip`. Returns the view and the 2x3 matrix from full-resolution pixels into it."""
    level = 0
    while level + 1 < len(levels) and scale * 2 ** (level + 1) <= 1.0:
        level += 1
    matrix = cv2.getRotationMatrix2D((0.0, 0.0), angle, scale * 2**level)
    if flip:
        matrix[0, :] *= -1
    # cv2.pyrDown centres a level's pixel i on pixel 2i of the level below.
    factor = 2.0**level
    matrix[:, 2] = (size - 1) / 2 - matrix[:, :2] @ (np.asarray(center, np.float64) / factor)
    view = cv2.warpAffine(levels[level], matrix, (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=GREY)
    full = matrix.copy()
    full[:, :2] /= factor
    return view, full


def log_uniform(rng, low: float, high: float) -> float:
    return math.exp(rng.uniform(math.log(low), math.log(high)))


# ---- detector -------------------------------------------------------------------------------------

VIEW = 112  # stored views; training crops DETECTOR_INPUT of them
DETECTOR_INPUT = 96
DETECTOR_STRIDE = 4
# Each pyramid level answers for dice whose extent at that level lies in geometry.DETECTOR_BAND; training
# teaches a band wider by TRAIN_SLACK so that neighbouring levels overlap, and ignores dice just beyond it.
TRAIN_SLACK = 1.3
IGNORE_SLACK = 1.9
VIEW_EXTENTS = (2.5, 40.0)  # the chosen die's extent in a view


def band(slack: float) -> tuple[float, float]:
    low, high = geometry.DETECTOR_BAND
    return low / slack, high * slack


def detector_view(scene: Scene, levels, rng) -> tuple[np.ndarray, np.ndarray]:
    """A VIEW x VIEW view of the scene and its dice as rows (x, y, extent, findable), view pixels.

    Mostly around a die at a random size; otherwise around clutter or anywhere."""
    height, width = scene.image.shape[:2]
    dice = scene.dice
    mode = rng.random()
    if dice and mode < 0.8:
        die = dice[rng.integers(len(dice))]
        scale = log_uniform(rng, *VIEW_EXTENTS) / die.extent
        center = np.array([die.x, die.y]) + rng.uniform(-0.45, 0.45, 2) * VIEW / scale
    else:
        scale = log_uniform(rng, *VIEW_EXTENTS) / scene.median_extent
        if scene.clutter and mode < 0.9:
            x0, y0, x1, y1 = scene.clutter[rng.integers(len(scene.clutter))]
            center = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
        else:
            center = np.array([rng.uniform(0, width), rng.uniform(0, height)])
    view, matrix = warp_view(levels, center, scale, rng.uniform(0, 360), rng.random() < 0.5, VIEW)
    rows = []
    for die in dice:
        x, y = matrix @ np.array([die.x, die.y, 1.0])
        extent = die.extent * scale
        if -extent <= x < VIEW + extent and -extent <= y < VIEW + extent:
            rows.append((x, y, extent, float(die.findable)))
    return view, np.array(rows, np.float32).reshape(-1, 4)


def detector_crop(view: np.ndarray, dice: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
    """A random DETECTOR_INPUT square of a stored view, turned by a random quarter and maybe mirrored."""
    margin = VIEW - DETECTOR_INPUT
    ox, oy = rng.integers(0, margin + 1, 2)
    crop = view[oy:oy + DETECTOR_INPUT, ox:ox + DETECTOR_INPUT]
    dice = dice.copy()
    dice[:, 0] -= ox
    dice[:, 1] -= oy
    last = DETECTOR_INPUT - 1
    for _ in range(int(rng.integers(4))):  # a quarter turn counterclockwise: (x, y) -> (y, last - x)
        crop = np.rot90(crop)
        dice[:, [0, 1]] = np.stack([dice[:, 1], last - dice[:, 0]], axis=1)
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
        dice[:, 0] = last - dice[:, 0]
    return np.ascontiguousarray(crop), dice


def detector_targets(dice: np.ndarray, size: int = DETECTOR_INPUT):
    """Targets at 1/DETECTOR_STRIDE resolution for dice rows (x, y, extent, findable):
    heat (1 at die centres, Gaussian around), mask (0 where the loss is ignored: dice just outside the band,
    dice not to be found), size (log2 of extent / geometry.DETECTOR_EXTENT), offset (sub-cell position of
    the centre) and peak (1 at the cells of die centres)."""
    cells = size // DETECTOR_STRIDE
    heat = np.zeros((cells, cells), np.float32)
    mask = np.ones((cells, cells), np.float32)
    size_target = np.zeros((cells, cells), np.float32)
    offset = np.zeros((2, cells, cells), np.float32)
    peak = np.zeros((cells, cells), np.float32)
    centres = np.arange(cells, dtype=np.float32) * DETECTOR_STRIDE + (DETECTOR_STRIDE - 1) / 2
    low, high = band(TRAIN_SLACK)
    ignore_low, ignore_high = band(IGNORE_SLACK)
    for x, y, extent, findable in dice:
        dx2 = (centres[None, :] - x) ** 2
        dy2 = (centres[:, None] - y) ** 2
        radius2 = dx2 + dy2
        if findable and low <= extent <= high:
            sigma = max(extent / 6.0, 1.5)
            heat = np.maximum(heat, np.exp(-radius2 / (2 * sigma**2)))
            j, i = int(x // DETECTOR_STRIDE), int(y // DETECTOR_STRIDE)
            if 0 <= i < cells and 0 <= j < cells:
                heat[i, j] = peak[i, j] = 1.0
                size_target[i, j] = math.log2(extent / geometry.DETECTOR_EXTENT)
                offset[0, i, j] = (x - centres[j]) / DETECTOR_STRIDE
                offset[1, i, j] = (y - centres[i]) / DETECTOR_STRIDE
        elif ignore_low <= extent and (not findable or extent <= ignore_high):
            mask[radius2 <= max(extent / 2, DETECTOR_STRIDE) ** 2] = 0.0
    return heat, mask, size_target, offset, peak


# ---- classifier -----------------------------------------------------------------------------------

PATCH = 64
PATCH_EXTENT = 32.0
# Kinds of classifier samples (what a not-a-die sample shows), for weighting and reports.
KINDS = ("die", "beside", "pip", "background", "clutter", "mined")


def patch(levels, x: float, y: float, extent: float) -> np.ndarray:
    """The PATCH x PATCH square around (x, y) with `extent` scaled to PATCH_EXTENT pixels, upright."""
    view, _ = warp_view(levels, (x, y), PATCH_EXTENT / extent, 0.0, False, PATCH)
    return view


def classifier_patches(scene: Scene, levels, rng):
    """(patch, label, extent, kind) for each die of the scene and for things that are not dice centred
    where the detector may look: beside a die or between two, a pip of a large die, the table, clutter."""
    out = []
    height, width = scene.image.shape[:2]
    centres = np.array([(d.x, d.y) for d in scene.dice], np.float64).reshape(-1, 2)
    extents = np.array([d.extent for d in scene.dice], np.float64)

    def clear_of_dice(x, y, extent) -> bool:
        if not len(centres):
            return True
        distance = np.hypot(centres[:, 0] - x, centres[:, 1] - y)
        return bool(np.all(distance > 0.45 * np.maximum(extents, extent)))

    for die in scene.dice:
        if die.findable:
            out.append((patch(levels, die.x, die.y, die.extent), die.label, die.extent, "die"))
        angle = rng.uniform(0, 2 * math.pi)
        distance = rng.uniform(0.5, 1.0) * die.extent
        x, y = die.x + distance * math.cos(angle), die.y + distance * math.sin(angle)
        extent = die.extent * math.exp(rng.normal(0, 0.25))
        if clear_of_dice(x, y, extent):
            out.append((patch(levels, x, y, extent), NOT_A_DIE, extent, "beside"))
        if die.extent >= 28 and rng.random() < 0.4:
            x, y = np.array([die.x, die.y]) + rng.uniform(-0.3, 0.3, 2) * die.extent
            extent = die.extent * rng.uniform(0.15, 0.45)
            out.append((patch(levels, x, y, extent), NOT_A_DIE, extent, "pip"))
    typical = scene.median_extent
    for _ in range(3):
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        extent = typical * math.exp(rng.normal(0, 0.5))
        if clear_of_dice(x, y, extent):
            out.append((patch(levels, x, y, extent), NOT_A_DIE, extent, "background"))
    for x0, y0, x1, y1 in scene.clutter:
        for _ in range(3):
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
            extent = typical * math.exp(rng.normal(0, 0.35))
            if clear_of_dice(x, y, extent):
                out.append((patch(levels, x, y, extent), NOT_A_DIE, extent, "clutter"))
    return out


def classifier_crop(source: np.ndarray, extent: float, rng, jitter: bool = True) -> np.ndarray:
    """The crop the reader would cut (geometry.CROP_SIZE square) from a stored patch: turned at random,
    mirrored, a little off centre and off scale as the detector places it, sometimes at the resolution
    of a smaller die (`extent`: the die's extent in the photo it came from)."""
    size = geometry.CROP_SIZE
    scale = math.exp(rng.normal(0, 0.2)) if jitter else 1.0
    shift = rng.normal(0, 0.15, 2) * PATCH_EXTENT if jitter else np.zeros(2)
    angle = rng.uniform(0, 360) if jitter else 0.0
    side = geometry.CROP_MARGIN * PATCH_EXTENT * scale
    matrix = cv2.getRotationMatrix2D((0.0, 0.0), angle, size / side)
    if jitter and rng.random() < 0.5:
        matrix[0, :] *= -1
    centre = np.array([(PATCH - 1) / 2, (PATCH - 1) / 2]) + shift
    matrix[:, 2] = (size - 1) / 2 - matrix[:, :2] @ centre
    crop = cv2.warpAffine(source, matrix, (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=GREY)
    # The reader upsamples the crop of a die smaller than CROP_SIZE / CROP_MARGIN: show some dice so.
    native = size / geometry.CROP_MARGIN
    if jitter and rng.random() < 0.4:
        smaller = log_uniform(rng, 8.0, 30.0)
        if smaller < min(extent, native):
            side = max(4, int(round(size * smaller / native)))
            crop = cv2.resize(cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA), (size, size),
                              interpolation=cv2.INTER_LINEAR)
    return crop


# ---- light and camera -----------------------------------------------------------------------------


# Sensor noise is cut from one bank of Gaussian samples (drawing fresh ones costs more than the rest).
NOISE_BANK = np.random.default_rng(12345).standard_normal(1 << 20).astype(np.float32)


def photometric(image: np.ndarray, rng) -> np.ndarray:
    """Random light and camera: hue turns, saturation, white balance, exposure, contrast, gamma, inversion,
    greyscale, blur, noise, JPEG."""
    out = image
    if rng.random() < 0.35:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV)  # hue 0-179
        hsv[..., 0] = (hsv[..., 0].astype(np.int16) + int(rng.integers(180))) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.3, 1.5), 0, 255)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    # White balance, exposure, contrast and gamma are one table per channel.
    levels = np.arange(256, dtype=np.float64)[:, None]
    balance = rng.uniform(0.75, 1.25, 3)
    table = (levels * balance - 128) * rng.uniform(0.55, 1.35) + 128 + rng.uniform(-45, 35)
    table = 255.0 * (np.clip(table, 0, 255) / 255.0) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.05:
        table = 255.0 - table
    out = cv2.LUT(out, np.clip(table, 0, 255).astype(np.uint8).reshape(1, 256, 3))
    if rng.random() < 0.05:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.25:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3))
    if rng.random() < 0.5:
        start = int(rng.integers(len(NOISE_BANK) - out.size))
        noise = NOISE_BANK[start:start + out.size].reshape(out.shape) * rng.uniform(1, 10)
        out = np.clip(out + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.25:
        quality = int(rng.integers(30, 90))
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    return np.ascontiguousarray(out)
