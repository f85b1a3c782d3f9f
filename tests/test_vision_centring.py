"""The centring network moves a candidate cut off-centre and at the wrong size onto its die's top face."""
import math

import numpy as np
import pytest

from synth import random_scene, render
from vision import reader as R


@pytest.mark.parametrize("shift, scale", [((0.2, -0.15), 1.3), ((-0.1, 0.2), 0.8)])
def test_a_candidate_off_its_die_is_moved_onto_it(shift, scale):
    """Generated scenes the network never saw (its training seeds start at 6,000,000): each flat die's candidate,
    moved `shift` extents and scaled by `scale` as the detector's often are, comes back within a tenth of an
    extent of the die's centre and within 15% of its extent, for nine dice in ten or more."""
    reader = R.DiceReader()
    before, after = [], []
    for seed in range(3):
        frame, truth = render(random_scene(seed))
        dice = [die for die in truth.in_frame() if die.problem is None]
        off = [R.Candidate(die.center[0] + shift[0] * die.extent, die.center[1] + shift[1] * die.extent,
                           die.extent * scale, 1.0) for die in dice]
        for die, candidate, centred in zip(dice, off, reader.centre(frame, off)):
            for found, into in ((candidate, before), (centred, after)):
                into.append((math.dist((found.x, found.y), die.center) / die.extent, found.extent / die.extent))
    assert len(after) >= 15
    moved_onto = [distance < 0.1 and 0.87 < ratio < 1.15 for distance, ratio in after]
    assert np.mean(moved_onto) >= 0.9, after
    assert np.median([d for d, _ in after]) < np.median([d for d, _ in before]) / 2


def test_no_candidates_need_no_network():
    assert R.DiceReader().centre(np.zeros((64, 64, 3), np.uint8), []) == []


def test_a_missing_network_file_says_which_module_trains_it(tmp_path):
    for name in ("detector.onnx", "classifier.onnx", "second-classifier.onnx", "leaning.onnx"):
        (tmp_path / name).write_bytes((R.MODELS / name).read_bytes())
    with pytest.raises(FileNotFoundError, match=r"centring\.onnx.*python -m vision\.training\.centring"):
        R.DiceReader(tmp_path)
