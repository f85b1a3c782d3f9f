"""The leaning network's crops (vision.training.leaning): cocked dice and flat dice touching another, from generated
scenes far from the benchmarks' seeds."""
import numpy as np

from vision import geometry
from vision.training import leaning


def test_the_crops_are_of_cocked_dice_and_of_flat_dice_touching_another():
    crops, labels, seeds = leaning.cut(leaning.SEEDS, 3, log=lambda message: None)
    side = geometry.LEANING_SIZE
    assert crops.shape == (len(labels), side, side, 3) and crops.dtype == np.uint8
    assert set(labels.tolist()) == {0, 1} and len(labels) % leaning.JITTER == 0
    assert set(seeds.tolist()) <= set(range(leaning.SEEDS, leaning.SEEDS + 3))
    # Each die gives JITTER crops in a row, all of one label and one scene.
    for first in range(0, len(labels), leaning.JITTER):
        assert len(set(labels[first:first + leaning.JITTER])) == 1 and len(set(seeds[first:first + leaning.JITTER])) == 1


def test_a_table_roll_has_the_six_dice_flat_or_one_leaning_on_another():
    from synth import render
    from synth.rolls import training_roll

    problems = []
    for seed in range(leaning.TABLE_SEEDS, leaning.TABLE_SEEDS + 8):
        frame, truth = render(training_roll(seed, np.random.default_rng(seed)))
        dice = truth.in_frame()
        assert sorted(die.colour for die in dice) == ["blue", "green", "red", "white", "white", "yellow"]
        problems.append(sorted(str(die.problem) for die in dice))
    assert ["None"] * 6 in problems and ["None"] * 5 + ["cocked"] in problems
    assert all(kinds in (["None"] * 6, ["None"] * 5 + ["cocked"]) for kinds in problems), problems
