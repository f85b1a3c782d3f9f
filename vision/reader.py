"""The dice reader: a BGR frame in, one DieReading per die out.

How it works, and why:
1. Find dice. A small fully convolutional network (models/detector.onnx) marks die centres on a
   heat-map at a quarter of its input's resolution and says how large each die is. It answers for dice
   of about 7-18 pixels, so it runs on a pyramid of the frame whose levels together cover every die size
   from the smallest readable one to nearly the whole frame; with a calibration the die size is known
   and one level does. Learned centres separate touching dice and ignore most clutter at a cost of a few
   milliseconds, where colour or edge thresholds would depend on the table.
2. Read each die. A crop around each candidate, cut from the full-resolution frame, goes to a second
   small network (models/classifier.onnx): not a die, 1-6, or a die whose top cannot be read (cocked,
   hidden). A value is reported only when the network is sure of it in two orientations of the crop;
   otherwise the value is None and the reading says why (see `_problem`).
3. Name the colour from robust statistics of the die's face in CIELAB (classical, see vision/colour.py),
   or by the nearest calibrated colour when a calibration is given.
Both networks are trained by vision/training/train.py and run with cv2.dnn: no large framework at run time.
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import colour, geometry
from vision.readings import DieReading

MODELS = Path(__file__).resolve().parent / "models"

# Detector: a peak above HEAT_THRESHOLD is a candidate; each level keeps the dice whose extent falls in
# its band (network pixels), the first level also smaller ones and the last also larger ones.
HEAT_THRESHOLD = 0.3
LEVEL_BAND = (7.0, 18.0)
LEVEL_STEP = 2.2
BAND_SLACK = 1.5
MAX_CANDIDATES = 40
# Without a calibration, the smallest die looked for is this share of the frame's shorter side (and never
# under SMALLEST_DIE pixels), the largest LARGEST_DIE_SHARE of it.
SMALLEST_DIE = 12.0
SMALLEST_DIE_SHARE = 0.02
LARGEST_DIE_SHARE = 0.5
# Reading: the value must have at least this probability (among values) in both orientations.
VALUE_CONFIDENCE = 0.85
DIE_PROBABILITY = 0.5
# Below this extent a die's pips are a pixel or two: its value is never given.
READABLE_EXTENT = 11.0
EDGE_MARGIN = 0.15  # share of the extent that may lie outside the frame before the die counts as cut off
NOT_A_DIE, UNREADABLE = 0, 7


class FrameError(ValueError):
    """The frame is not something the reader can look at: says what is wrong with it."""


@dataclass(frozen=True)
class Candidate:
    x: float
    y: float
    extent: float  # largest side of the die's box, full-resolution pixels
    score: float  # detector heat at the peak


def check_frame(frame) -> np.ndarray:
    """The frame itself when it is an 8-bit BGR image; FrameError saying what is wrong otherwise."""
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy array, not {type(frame).__name__}")
    if frame.size == 0:
        raise FrameError(f"the frame is empty (shape {frame.shape})")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise FrameError(
            f"the frame must be a colour image of shape (height, width, 3) in BGR order, not shape {frame.shape}"
            + (" (a single-channel image: the reader needs colour)" if frame.ndim == 2 or frame.shape[-1] == 1 else "")
        )
    if frame.dtype != np.uint8:
        raise FrameError(f"the frame must be 8-bit (uint8), not {frame.dtype}")
    if min(frame.shape[:2]) < 32:
        raise FrameError(f"the frame is too small to hold a readable die ({frame.shape[1]}x{frame.shape[0]})")
    return frame


class DiceReader:
    """Loads the two networks once; `read` may then be called for every frame (one thread at a time)."""

    def __init__(self, models: Path = MODELS) -> None:
        self.detector = _load(models / "detector.onnx")
        self.classifier = _load(models / "classifier.onnx")

    def read(self, frame: np.ndarray, calibration=None) -> list[DieReading]:
        frame = check_frame(frame)
        height, width = frame.shape[:2]
        if calibration is not None:
            calibration = calibration.scaled_to(width, height)
        candidates = self.find(frame, calibration)
        if not candidates:
            return []
        probabilities = self.classify(frame, candidates)
        readings = []
        for candidate, probs in zip(candidates, probabilities):
            reading = self._reading(frame, candidate, probs, calibration)
            if reading is not None:
                readings.append(reading)
        return readings

    # -- 1. finding dice -------------------------------------------------------------------------

    def levels(self, frame_shape, calibration) -> list[float]:
        """Scales at which to run the detector so that every die size looked for lands in its band."""
        short_side = min(frame_shape[:2])
        if calibration is not None:
            extent = calibration.die_size * 1.2  # a top face's box, a little larger when turned
            return [math.sqrt(LEVEL_BAND[0] * LEVEL_BAND[1]) / extent]
        smallest = max(SMALLEST_DIE, SMALLEST_DIE_SHARE * short_side)
        largest = LARGEST_DIE_SHARE * short_side
        scale = min(8.0 / smallest, 1.5)
        scales = [scale]
        while largest * scales[-1] > LEVEL_BAND[1] and short_side * scales[-1] / LEVEL_STEP >= 24:
            scales.append(scales[-1] / LEVEL_STEP)
        return scales

    def find(self, frame: np.ndarray, calibration=None) -> list[Candidate]:
        height, width = frame.shape[:2]
        scales = self.levels(frame.shape, calibration)
        found: list[Candidate] = []
        for index, scale in enumerate(scales):
            size = (max(8, round(width * scale)), max(8, round(height * scale)))
            interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
            level = cv2.resize(frame, size, interpolation=interpolation)
            sx, sy = width / size[0], height / size[1]
            # The size output is only roughly right: bands overlap by BAND_SLACK, duplicates are merged below.
            low = 0.0 if index == 0 or calibration is not None else LEVEL_BAND[0] / BAND_SLACK
            high = math.inf if index == len(scales) - 1 or calibration is not None else LEVEL_BAND[1] * BAND_SLACK
            for x, y, extent, score in self._peaks(level):
                if low <= extent < high:
                    found.append(Candidate(x * sx, y * sy, extent * math.sqrt(sx * sy), score))
        return _suppress_duplicates(found)[:MAX_CANDIDATES]

    def _peaks(self, level: np.ndarray):
        blob = cv2.dnn.blobFromImage(level, geometry.PIXEL_SCALE, None, (geometry.PIXEL_MEAN,) * 3)
        self.detector.setInput(blob)
        out = self.detector.forward()[0]
        heat = 1 / (1 + np.exp(-out[0]))
        is_peak = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > HEAT_THRESHOLD)
        stride = 4
        for i, j in zip(*np.nonzero(is_peak)):
            x = j * stride + (stride - 1) / 2 + out[2, i, j] * stride
            y = i * stride + (stride - 1) / 2 + out[3, i, j] * stride
            yield x, y, geometry.DETECTOR_EXTENT * 2.0 ** float(out[1, i, j]), float(heat[i, j])

    # -- 2. reading each die ---------------------------------------------------------------------

    def classify(self, frame: np.ndarray, candidates: list[Candidate]) -> np.ndarray:
        """Class probabilities per candidate, the mean over the crop and the crop turned a quarter."""
        crops = [crop_around(frame, c.x, c.y, c.extent * geometry.CROP_MARGIN, geometry.CROP_SIZE) for c in candidates]
        turned = [np.ascontiguousarray(np.rot90(crop)) for crop in crops]
        blob = cv2.dnn.blobFromImages(crops + turned, geometry.PIXEL_SCALE, None, (geometry.PIXEL_MEAN,) * 3)
        self.classifier.setInput(blob)
        logits = self.classifier.forward()
        logits = logits - logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        n = len(candidates)
        return np.stack([probs[:n], probs[n:]], axis=1)  # (n, 2 orientations, classes)

    def _reading(self, frame, candidate: Candidate, probs: np.ndarray, calibration) -> DieReading | None:
        mean = probs.mean(axis=0)
        die_probability = 1.0 - mean[NOT_A_DIE]
        if die_probability < DIE_PROBABILITY:
            return None
        face = colour.measure_face(frame, candidate.x, candidate.y, candidate.extent)
        name = colour.name_colour(face, calibration)
        corners, center = _top_face(frame, candidate)
        # Probabilities of each value given that this is a die, per orientation.
        value_probs = probs[:, 1:7] / np.maximum(1.0 - probs[:, NOT_A_DIE:NOT_A_DIE + 1], 1e-6)
        best = int(np.argmax(value_probs.mean(axis=0)))
        sure = float(np.min(value_probs[:, best]))
        problem = self._problem(frame, candidate, mean, sure)
        if problem is None:
            value, confidence = best + 1, die_probability * sure
        else:
            value, confidence = None, die_probability * (1.0 - sure if problem != "cocked" else mean[UNREADABLE])
        return DieReading(
            colour=name,
            value=value,
            confidence=float(np.clip(confidence, 0.0, 1.0)),
            center=center,
            corners=corners,
            problem=problem,
        )

    def _problem(self, frame, candidate: Candidate, mean: np.ndarray, sure: float) -> str | None:
        """Why the value cannot be given safely, or None when it can."""
        height, width = frame.shape[:2]
        half = candidate.extent / 2 * (1 - 2 * EDGE_MARGIN)
        if (candidate.x - half < 0 or candidate.y - half < 0
                or candidate.x + half > width or candidate.y + half > height):
            return "edge"
        if candidate.extent < READABLE_EXTENT:
            return "small"
        if mean[UNREADABLE] > max(mean[1:7]):
            return "cocked"
        if sure >= VALUE_CONFIDENCE:
            return None
        if _is_blurred(frame, candidate):
            return "blurred"
        return "occluded"


_default_reader: DiceReader | None = None
_default_lock = threading.Lock()


def read_dice(frame_bgr: np.ndarray, calibration=None) -> list[DieReading]:
    """Every die in a BGR frame (8-bit, height x width x 3); `calibration` (calibration.Calibration)
    makes it faster and surer about size and colours. Raises FrameError for a frame it cannot look at."""
    global _default_reader
    with _default_lock:
        if _default_reader is None:
            _default_reader = DiceReader()
        return _default_reader.read(frame_bgr, calibration)


def crop_around(frame: np.ndarray, x: float, y: float, side: float, size: int) -> np.ndarray:
    """A size x size square of the frame centred on (x, y), `side` pixels across; outside is grey."""
    height, width = frame.shape[:2]
    x0, y0 = int(round(x - side / 2)), int(round(y - side / 2))
    x1, y1 = int(round(x + side / 2)), int(round(y + side / 2))
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)
    inside = frame[max(y0, 0):min(y1, height), max(x0, 0):min(x1, width)]
    if inside.size == 0:
        return np.full((size, size, 3), 128, np.uint8)
    if (x0, y0, x1, y1) != (max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)):
        inside = cv2.copyMakeBorder(
            inside, max(0, -y0), max(0, y1 - height), max(0, -x0), max(0, x1 - width),
            cv2.BORDER_CONSTANT, value=(128, 128, 128),
        )
    interpolation = cv2.INTER_AREA if inside.shape[0] > size else cv2.INTER_LINEAR
    return cv2.resize(inside, (size, size), interpolation=interpolation)


def _top_face(frame: np.ndarray, candidate: Candidate):
    """The top face's outline (a square turned to the die's edges) and its centre."""
    side = 24
    patch = crop_around(frame, candidate.x, candidate.y, candidate.extent, side)
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    weight = gx * gx + gy * gy
    direction = np.arctan2(gy, gx) * 4  # a square's edges agree modulo 90 degrees
    angle = math.atan2(float((weight * np.sin(direction)).sum()), float((weight * np.cos(direction)).sum())) / 4
    # The extent is the box of the turned face: edge = extent / (|cos| + |sin|).
    edge = candidate.extent / (abs(math.cos(angle)) + abs(math.sin(angle)))
    half = edge / 2
    c, s = math.cos(angle), math.sin(angle)
    corners = tuple(
        (candidate.x + dx * c - dy * s, candidate.y + dx * s + dy * c)
        for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half))
    )
    return corners, (float(candidate.x), float(candidate.y))


def _is_blurred(frame: np.ndarray, candidate: Candidate) -> bool:
    """Sharpness against contrast: a sharp die has edges about as strong as its contrast allows."""
    patch = crop_around(frame, candidate.x, candidate.y, candidate.extent, 32)
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    contrast = float(np.percentile(grey, 95) - np.percentile(grey, 5))
    if contrast < 1:
        return True
    gradient = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    # A step edge across 32 pixels gives a peak gradient of about 4 x contrast with Sobel; blur spreads it.
    return float(np.percentile(gradient, 99)) < 0.8 * contrast


def _suppress_duplicates(candidates: list[Candidate]) -> list[Candidate]:
    """Strongest first; drop a candidate whose centre lies within half a die of a stronger one."""
    kept: list[Candidate] = []
    for candidate in sorted(candidates, key=lambda c: -c.score):
        if all(math.hypot(candidate.x - k.x, candidate.y - k.y) > 0.5 * max(candidate.extent, k.extent) for k in kept):
            kept.append(candidate)
    return kept


def _load(path: Path):
    if not path.is_file():
        raise FileNotFoundError(f"{path}: the reader's network is missing (train it: python -m vision.training.train)")
    return cv2.dnn.readNetFromONNX(str(path))
