"""The centring network's crops (vision.training.centring): dice cut off-centre and at the wrong size, each with
the move that centres it, from generated scenes far from the benchmarks' seeds."""
import numpy as np
import pytest

from vision import geometry
from vision.training import centring


def _square_crop(dx: float, dy: float) -> np.ndarray:
    """A grey crop with a white square whose centre lies (dx, dy) crop sides from the crop's centre."""
    side = geometry.CENTRING_SIZE
    crop = np.full((1, side, side, 3), 60, np.uint8)
    x, y = side / 2 + dx * side, side / 2 + dy * side
    crop[0, int(y) - 3:int(y) + 3, int(x) - 3:int(x) + 3] = 255
    return crop


def _bright_centre(crop: np.ndarray) -> tuple[float, float]:
    """The white square's centre, from the crop's centre, in crop sides."""
    rows, columns = np.nonzero(crop[..., 0] == 255)
    side = crop.shape[0]
    return (columns.mean() + 0.5 - side / 2) / side, (rows.mean() + 0.5 - side / 2) / side


@pytest.mark.parametrize("quarter_turns", range(4))
@pytest.mark.parametrize("mirrored", [False, True])
def test_a_turned_crop_s_target_still_points_at_the_die(quarter_turns, mirrored):
    crop = _square_crop(0.25, -0.125)
    target = np.array([[*_bright_centre(crop[0]), 0.3]], np.float32)
    turned, moved = centring.turned(crop, target, quarter_turns, mirrored)
    assert moved[0, :2] == pytest.approx(_bright_centre(turned[0]), abs=1e-6)
    assert moved[0, 2] == pytest.approx(0.3)  # turning a die does not change its size


def test_the_crops_are_of_dice_moved_and_scaled_at_random_with_the_move_back():
    crops, targets, seeds = centring.cut(centring.SEEDS, 3, log=lambda message: None)
    side = geometry.CENTRING_SIZE
    assert crops.shape == (len(targets), side, side, 3) and crops.dtype == np.uint8
    assert len(targets) > 0 and len(targets) % centring.JITTER == 0
    assert set(seeds.tolist()) <= set(range(centring.SEEDS, centring.SEEDS + 3))
    # Moves of either sign and both sizes, within what the jitter makes.
    assert (targets[:, :2] > 0).any() and (targets[:, :2] < 0).any()
    assert (targets[:, 2] > 0).any() and (targets[:, 2] < 0).any()
    assert np.abs(targets[:, 2]).max() <= 0.7 + 1e-6
