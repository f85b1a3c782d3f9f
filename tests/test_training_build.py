"""The training samples (vision.training.build) do not depend on how many workers cut them, and hold what
each kind of scene gives. Offline tooling, but the networks in vision/models are made from these samples."""
import argparse
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.reader import MODELS
from vision.training import build, devset

PHOTOS = Path(__file__).parent / "data" / "photos"


@pytest.fixture(scope="module")
def dev_folder(tmp_path_factory):
    """Two of the test photos as a dev folder whose split puts them in the training part."""
    folder = tmp_path_factory.mktemp("dev")
    entries = []
    for photo in json.loads((PHOTOS / "labels.json").read_text())[:2]:
        name = next(f"train-{k}-{photo['file']}" for k in range(100)
                    if devset.split_of(f"train-{k}-{photo['file']}") == "train")
        shutil.copy(PHOTOS / photo["file"], folder / name)
        entries.append({"file": name, "dice": [{"value": d["value"], "bbox": d["bbox"]} for d in photo["dice"]]})
    (folder / "values.json").write_text(json.dumps(entries))
    (folder / "labels.json").write_text("[]")
    return folder


def built(dev_folder: Path, workers: int) -> build.Samples:
    args = argparse.Namespace(dev=dev_folder, synth=[], synth_limit=None, render=1, tables=1, render_minutes=None,
                              views_per_photo=3, views_per_scene=2, mine=MODELS,
                              workers=workers, seed=0)
    return build.build(args, "train", log=lambda message: None)


@pytest.fixture(scope="module")
def samples_by_workers(dev_folder):
    return {workers: built(dev_folder, workers) for workers in (1, 2)}


def test_the_samples_do_not_depend_on_the_number_of_workers(samples_by_workers):
    one, two = samples_by_workers[1], samples_by_workers[2]
    assert len(one.views) == len(two.views) and len(one.patches) == len(two.patches)
    assert all(np.array_equal(a, b) for a, b in zip(one.views, two.views))
    assert all(np.array_equal(a, b) for a, b in zip(one.patches, two.patches))
    assert one.view_dice == two.view_dice and one.info == two.info
    assert all(np.array_equal(a, b) for a, b in zip(one.mined, two.mined)) and one.mined_info == two.mined_info


def test_photos_a_rendered_scene_and_a_table_roll_each_give_their_views_and_patches(samples_by_workers):
    samples = samples_by_workers[1]
    assert len(samples.views) == 2 * 3 + 2 * 2  # views per photo, then per generated scene and table roll
    domains = {row[2] for row in samples.info}
    assert domains == {build.DOMAINS.index("dev"), build.DOMAINS.index("synth")}
    dice_of_first_view = [row for row in samples.view_dice if row[0] == 0]
    assert dice_of_first_view  # a view is drawn around a die


def test_a_table_roll_shows_the_six_qwixx_dice_each_with_its_class():
    from vision.training.scenes import UNREADABLE

    scene = build.table_roll_scene(build.TABLE_ROLL_SEEDS)
    assert scene.image.shape == (720, 1280, 3) and scene.domain == "synth"
    assert len(scene.dice) == 6 and all(die.findable and 1 <= die.label <= UNREADABLE for die in scene.dice)


class FindsThese:
    """A stand-in for the reader's detector: finds the candidates it is given."""

    def __init__(self, *candidates):
        self.candidates = candidates

    def find(self, image):
        return list(self.candidates)


def test_what_is_found_on_a_die_but_much_smaller_than_it_is_mined_as_not_a_die():
    from vision.reader import LARGER_DIE, Candidate
    from vision.training.scenes import Scene, SceneDie

    scene = Scene(np.zeros((600, 600, 3), np.uint8), [SceneDie(300.0, 300.0, 150.0, 5, True)], "synth")
    die = Candidate(305.0, 298.0, 140.0, 0.9)
    pip = Candidate(330.0, 270.0, 150.0 / LARGER_DIE - 5, 0.8)
    patch_of_the_die = Candidate(300.0, 300.0, 150.0 / LARGER_DIE + 5, 0.5)
    elsewhere = Candidate(80.0, 80.0, 140.0, 0.4)
    mined = build.false_candidates(scene, FindsThese(die, pip, patch_of_the_die, elsewhere))
    assert mined == [(pip.x, pip.y, pip.extent), (elsewhere.x, elsewhere.y, elsewhere.extent)]
