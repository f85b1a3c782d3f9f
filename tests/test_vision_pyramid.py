"""The detector's pyramid: each level, however many halvings and resizes made it, maps back onto the frame where the
frame shows what the level shows (a die placed half a pixel off on a low level is a pixel or more off in the frame),
what the detector finds in a level's mirror image or in a sampling of a small frame maps back onto the frame, and a
roll is searched thoroughly (in the mirror, a small frame at full size) only when it is short of dice."""
import cv2
import numpy as np
import pytest

from synth import random_scene, render
from vision import QWIXX_ROLL
from vision.reader import TINY_FRAME, TINY_SAMPLINGS, DiceReader, _pyramid


def spot(width: int, height: int, x: float, y: float, sigma: float = 9.0) -> np.ndarray:
    """A grey frame with a bright Gaussian spot centred on (x, y)."""
    xs, ys = np.meshgrid(np.arange(width), np.arange(height))
    bright = 60 + 180 * np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * sigma**2))
    return cv2.merge([bright.round().astype(np.uint8)] * 3)


def centroid(level: np.ndarray) -> tuple[float, float]:
    weight = level[..., 0].astype(np.float64) - 60
    weight[weight < 0] = 0
    ys, xs = np.indices(weight.shape)
    return float((xs * weight).sum() / weight.sum()), float((ys * weight).sum() / weight.sum())


@pytest.mark.parametrize("width, height", [(1280, 720), (1001, 667), (640, 640)])
def test_every_level_maps_back_onto_the_spot_it_shows(width, height):
    x, y = 0.43 * width + 0.3, 0.57 * height + 0.8
    scales = [0.47, 0.47 / 2.8, 0.47 / 2.8**2]
    for level, (ax, bx, ay, by) in _pyramid(spot(width, height, x, y), scales):
        cx, cy = centroid(level)
        # A quarter of a frame pixel, or a tenth of a level pixel on a level too small to place the spot closer.
        assert abs(cx * ax + bx - x) < max(0.25, 0.1 * ax), (level.shape, cx * ax + bx, x)
        assert abs(cy * ay + by - y) < max(0.25, 0.1 * ay), (level.shape, cy * ay + by, y)


class LeftHandedDetector:
    """Stands in for the detector network: finds the bright spot of each input (a heat peak at its centroid, in the
    network's output at a quarter of the input's resolution) only when it lies in the input's left half, and (if
    `only_width` is given) only in inputs of that width."""

    def __init__(self, only_width: int | None = None):
        self.only_width = only_width

    def setInput(self, blob):  # noqa: N802 (cv2.dnn's name)
        self.blob = blob

    def forward(self):
        count, _, height, width = self.blob.shape
        out = np.zeros((count, 4, height // 4, width // 4), np.float32)
        out[:, 0] = -10.0
        if self.only_width not in (None, width):
            return out
        for index, image in enumerate(self.blob):
            brightness = image[0] - image[0].min()
            rows, columns = np.indices(brightness.shape)
            cx, cy = (columns * brightness).sum() / brightness.sum(), (rows * brightness).sum() / brightness.sum()
            if cx < width / 2:
                i, j = int(cy // 4), int(cx // 4)
                out[index, :, i, j] = (5.0, 0.0, (cx - (j * 4 + 1.5)) / 4, (cy - (i * 4 + 1.5)) / 4)
        return out


@pytest.mark.parametrize("x", [101.3, 297.6])
def test_a_die_the_detector_finds_only_in_the_mirror_image_is_placed_where_it_lies(x):
    reader = DiceReader.__new__(DiceReader)  # the other networks are not needed
    reader.detector = LeftHandedDetector()
    xs, ys, _, _ = reader._peaks(spot(400, 240, x, 131.7))
    assert len(xs) == 1 and abs(xs[0] - x) < 0.25 and abs(ys[0] - 131.7) < 0.25, (xs, ys)


@pytest.mark.parametrize("zoom, cut", [sampling for sampling in TINY_SAMPLINGS if sampling != (1.0, 0)])
@pytest.mark.parametrize("x", [101.3, 297.6])
def test_a_die_found_only_in_one_sampling_of_a_small_frame_is_placed_where_it_lies(x, zoom, cut):
    width, height = 400, 240
    assert width * height <= TINY_FRAME
    reader = DiceReader.__new__(DiceReader)
    reader.detector = LeftHandedDetector(only_width=round((width - cut) * zoom))
    found = reader._peaks_and_changes(spot(width, height, x, 131.7, sigma=3.0))
    # Within a twentieth of a pixel: mapped back without the half-pixel terms or the cut, it would lie a tenth or more
    # off.
    assert found and all(c.tiny and abs(c.x - x) < 0.05 and abs(c.y - 131.7) < 0.05 for c in found), found


class RecordingDetector:
    """The reader's detector, keeping the shape of each batch it is given ((2, 3, height, width) when it is asked to
    look at a mirror image too); if `blind_right`, blind to the right half of every image (no heat there)."""

    def __init__(self, detector, blind_right: bool = False):
        self.detector, self.blind_right, self.batches = detector, blind_right, []

    def setInput(self, blob):  # noqa: N802 (cv2.dnn's name)
        self.batches.append(blob.shape)
        self.detector.setInput(blob)

    def forward(self):
        out = self.detector.forward().copy()
        if self.blind_right:
            out[:, 0, :, out.shape[3] // 2:] = -10.0
        return out


ROLL_SEED = 9026  # a felt table in neutral light: two dice in the frame's left half, four in its right, all read


def roll(size=(1280, 720)):
    frame, truth = render(random_scene(ROLL_SEED, table="felt", light="neutral", size=size))
    return frame, sorted((die.colour, die.value) for die in truth.in_frame())


@pytest.mark.parametrize("size", [(1280, 720), (640, 480)])
def test_a_roll_read_as_the_set_is_searched_quickly(size):
    """Neither in the mirror nor, in a small frame (TINY_FRAME), at full size."""
    frame, dice = roll(size)
    reader = DiceReader()
    reader.detector = RecordingDetector(reader.detector)
    readings = reader.read(frame, dice_set=QWIXX_ROLL)
    assert sorted((r.colour, r.value) for r in readings) == dice
    assert {shape[0] for shape in reader.detector.batches} == {1}
    assert all(shape[2:] != frame.shape[:2] for shape in reader.detector.batches)
    reader.read(frame)  # not a roll: searched thoroughly, always
    assert {shape[0] for shape in reader.detector.batches} == {1, 2}
    small = frame.shape[0] * frame.shape[1] <= TINY_FRAME
    assert any(shape[2:] == frame.shape[:2] for shape in reader.detector.batches) == small


def test_a_roll_short_of_dice_is_read_again_with_the_mirror():
    frame, dice = roll()
    reader = DiceReader()
    reader.detector = RecordingDetector(reader.detector, blind_right=True)
    # Without the mirror a detector blind to the right half finds only the two dice on the left.
    assert len(reader._read(frame, None, QWIXX_ROLL, thorough=False)) == 2
    readings = reader.read(frame, dice_set=QWIXX_ROLL)
    assert sorted((r.colour, r.value) for r in readings) == dice
    assert 2 in {shape[0] for shape in reader.detector.batches}
