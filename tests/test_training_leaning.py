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


def test_the_dev_photos_give_their_training_parts_dice_read_right_beside_another_as_flat(tmp_path):
    import json

    import cv2
    from synth import random_scene, render
    from vision.training import devset

    names = {}
    for number in range(100):
        names.setdefault(devset.split_of(f"photo-{number}.png"), f"photo-{number}.png")
    entries = []
    for seed, part in ((7, "train"), (8, "validation")):  # the validation photo gives nothing
        frame, truth = render(random_scene(seed, size=(960, 540), light="neutral", table="wood", tilt_deg=0, die_px=48,
                                           clutter="none", touching=1.0, blur="none"))
        cv2.imwrite(str(tmp_path / names[part]), frame)
        entries.append({"file": names[part], "dice": [{"value": die.value, "bbox": _box(die.corners)}
                                                      for die in truth.in_frame()]})
    (tmp_path / "values.json").write_text(json.dumps(entries))
    (tmp_path / "labels.json").write_text("[]")

    crops, labels, seeds = leaning.cut_dev(tmp_path, log=lambda message: None)
    assert crops.shape[1:] == (geometry.LEANING_SIZE, geometry.LEANING_SIZE, 3) and crops.dtype == np.uint8
    assert len(labels) >= 2 * leaning.JITTER and len(labels) % leaning.JITTER == 0 and not labels.any()
    train_place = [photo.name for photo in devset.dev_photos(tmp_path)].index(names["train"])
    assert set(seeds.tolist()) == {leaning.DEV_SEEDS + train_place}


def _box(corners) -> list[int]:
    xs, ys = zip(*corners)
    return [round(min(xs)), round(min(ys)), round(max(xs)), round(max(ys))]
