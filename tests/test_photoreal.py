"""synth.cycles sets Blender's scene up as the generator's (its camera sees what Camera sees, its dice are carved as
DieShape's), bench/photoreal.py compares the two drawings die by die, and the reader reads a few of its frames.
Blender itself is not installed for the tests: what needs it runs offline."""
import json
import math
import runpy
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from synth.cycles import camera_frame, frame_name, photoreal_scene, pip_centres, scene_named
from synth.dice import PIP_LAYOUT, DieShape
from synth.geometry import Camera
from synth.render import render
from vision import DiceReader
from vision.readings import QWIXX_ROLL
from vision.scoring import score

BENCH = Path(__file__).resolve().parents[1] / "bench" / "photoreal.py"


@pytest.mark.parametrize("camera", [Camera(), Camera(640, 480, 600, tilt_deg=25, azimuth_deg=40, roll_deg=10,
                                                     target=(30, -20))])
def test_blender_s_camera_sees_every_table_point_where_the_generator_s_camera_does(camera):
    location, rotation, angle = camera_frame(camera)
    points = np.random.default_rng(1).uniform([-200, -150, 0], [200, 150, 40], (50, 3))
    # Blender's camera looks down its own -z with +y up in the image, the principal point in the middle.
    local = (points - location) @ rotation
    focal = camera.width / 2 / math.tan(angle / 2)
    seen = np.column_stack([camera.width / 2 + focal * local[:, 0] / -local[:, 2],
                            camera.height / 2 - focal * local[:, 1] / -local[:, 2]])
    assert np.allclose(seen, camera.project(points), atol=1e-6)


def test_each_pip_is_carved_as_wide_and_as_deep_as_the_generator_draws_it():
    shape = DieShape()
    centres = pip_centres(shape)
    assert len(centres) == sum(len(layout) for layout in PIP_LAYOUT.values())
    for centre in centres:
        beyond_face = np.abs(centre).max() - shape.half  # the carving sphere's centre lies outside its face
        assert math.isclose(shape.dimple_radius - beyond_face, shape.pip_depth * shape.size_mm)
        assert math.isclose(math.sqrt(shape.dimple_radius ** 2 - beyond_face ** 2), shape.pip_radius * shape.size_mm)


def test_a_photoreal_scene_holds_the_six_qwixx_dice_at_rest_and_nothing_else():
    scene = photoreal_scene(9_000_003)
    assert sorted(die.colour for die in scene.dice) == sorted(["white", "white", "red", "yellow", "green", "blue"])
    assert not scene.clutter and scene.table.tray is None and not any(die.moving for die in scene.dice)
    assert (scene.camera.width, scene.camera.height) == (1280, 720)
    assert scene == photoreal_scene(9_000_003) != photoreal_scene(9_000_004)


def test_a_frame_s_name_gives_back_its_scene_with_or_without_a_die_cocked():
    for cocked in (0, 1):
        scene = scene_named(frame_name(9_000_005, cocked))
        assert scene == photoreal_scene(9_000_005, cocked)
        assert sum(die.value is None for die in scene.dice) == cocked
    with pytest.raises(ValueError, match="not a frame name"):
        scene_named("photo-9000005")


def _photoreal_folder(folder: Path, seed: int, scene_seed: int | None = None) -> None:
    """A folder as synth.cycles writes it, its frame drawn by synth.render as a stand-in for Cycles; `scene_seed`, when
    given, draws it from another scene than the generator now makes of `seed`."""
    frame, truth = render(photoreal_scene(seed if scene_seed is None else scene_seed))
    cv2.imwrite(str(folder / f"scene-{seed}.jpg"), frame)
    (folder / f"scene-{seed}.json").write_text(json.dumps(truth.to_json()))


def test_frames_of_scenes_the_generator_now_draws_otherwise_are_left_out(tmp_path, capsys):
    drawn_twice = runpy.run_path(str(BENCH))["drawn_twice"]
    _photoreal_folder(tmp_path, 9_000_000)
    _photoreal_folder(tmp_path, 9_000_001, scene_seed=9_000_002)
    cycles, ours = drawn_twice(tmp_path)
    assert len(cycles) == len(ours) == 1
    assert [die.colour for die in cycles[0][1]] == [die.colour for die in ours[0][1]]
    assert cycles[0][0].shape == ours[0][0].shape == (720, 1280, 3)
    assert "scene-9000001: drawn from another generator's scene, left out" in capsys.readouterr().err


def test_dice_are_compared_die_by_die_between_the_two_drawings(tmp_path):
    bench = runpy.run_path(str(BENCH))
    _photoreal_folder(tmp_path, 9_000_000)
    cycles, ours = bench["drawn_twice"](tmp_path)
    truth = render(photoreal_scene(9_000_000))[1]

    class ReadsOneDrawing:
        """Reads every die right in the frame saved as the Cycles one, none in synth.render's (which differs from it
        by the JPEG saving)."""

        def read(self, frame, calibration=None, dice_set=None):
            return truth.readings() if np.array_equal(frame, cycles[0][0]) else []

    counts = bench["paired"](ReadsOneDrawing(), cycles, ours, None)
    assert counts[(True, False)] == len(truth.in_frame()) > 0
    assert counts[(False, True)] == counts[(True, True)] == counts["cycles wrong"] == 0


PHOTOREAL = Path(__file__).parent / "data" / "photoreal"


def _truth(record: Path) -> list:
    truth_dice = runpy.run_path(str(BENCH.parent / "vision.py"))["truth_dice"]
    return truth_dice(json.loads(record.read_text()))


def test_the_reader_reads_frames_of_another_renderer_without_a_wrong_announcement():
    """Five of synth.cycles' frames (tests/data/photoreal, saved again at JPEG quality 90, with their truth: seeds
    9,000,000-9,000,003 as they came, and 9,000,025, once announced with its red and blue dice swapped), read as
    Qwixx rolls: no die gets a wrong value or colour, and at least two dice in three are read (the reader reads 22
    of the 30; of the dim, patterned 9,000,001 none)."""
    reader = DiceReader()
    totals = Counter()
    for record in sorted(PHOTOREAL.glob("scene-*.json")):
        counts = score(_truth(record), reader.read(cv2.imread(str(record.with_suffix(".jpg"))), dice_set=QWIXX_ROLL))
        assert counts["confident-wrong"] == 0, record.stem
        totals += counts
    assert totals["correct"] >= 20
    swapped_once = PHOTOREAL / "scene-9000025.json"
    frame = cv2.imread(str(swapped_once.with_suffix(".jpg")))
    assert score(_truth(swapped_once), reader.read(frame, dice_set=QWIXX_ROLL))["correct"] == 6
