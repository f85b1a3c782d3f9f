"""bench/vision.py renders its generated scenes once into a cache, and again when the generator changes; its mistakes
file says what became of each labelled die."""
import json
import runpy
from pathlib import Path

import cv2
import numpy as np

BENCH = Path(__file__).resolve().parents[1] / "bench" / "vision.py"


def test_generated_scenes_come_from_the_cache_until_the_generator_describes_them_differently(tmp_path):
    generated_scenes = runpy.run_path(str(BENCH))["generated_scenes"]
    [(frame, truth)] = generated_scenes(1, (640, 480), tmp_path)
    image, record = tmp_path / "640x480-00000.png", tmp_path / "640x480-00000.json"

    cv2.imwrite(str(image), np.zeros_like(frame))  # the cache is what is read while the scene is the same
    [(cached, _)] = generated_scenes(1, (640, 480), tmp_path)
    assert not cached.any()

    stored = json.loads(record.read_text())
    record.write_text(json.dumps({**stored, "scene": "described by an older generator", "dice": []}))
    [(again, truth_again)] = generated_scenes(1, (640, 480), tmp_path)
    assert truth_again == truth and np.array_equal(again, frame)


def test_a_tilted_camera_s_scenes_are_drawn_and_cached_apart(tmp_path):
    generated_scenes = runpy.run_path(str(BENCH))["generated_scenes"]
    [(upright, _)] = generated_scenes(1, (640, 480), tmp_path, tilt=0)
    [(tilted, _)] = generated_scenes(1, (640, 480), tmp_path, tilt=55)
    assert not np.array_equal(tilted, upright)
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["tilt0-640x480-00000.png", "tilt55-640x480-00000.png"]


def test_a_light_and_a_mean_of_still_frames_are_drawn_and_cached_apart(tmp_path):
    from dataclasses import replace

    from synth import random_scene, render

    generated_scenes = runpy.run_path(str(BENCH))["generated_scenes"]
    [(single, truth)] = generated_scenes(1, (640, 480), tmp_path, light="dim")
    [(mean, truth_of_mean)] = generated_scenes(1, (640, 480), tmp_path, light="dim", still_frames=4)
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["dim-640x480-00000.png", "dim-mean4-640x480-00000.png"]
    assert truth_of_mean == truth
    scene = random_scene(0, size=(640, 480), light="dim")
    noiseless = render(replace(scene, effects=replace(scene.effects, noise=0.0)))[0].astype(np.float32)
    # The mean of four frames of fresh sensor noise holds about half the noise of one.
    assert np.std(mean - noiseless) < 0.7 * np.std(single - noiseless)


class ReadsThese:
    """A stand-in reader that reports the same dice for every image."""

    def __init__(self, *readings):
        self.readings = list(readings)

    def read(self, image, dice_set=None):
        return self.readings


def test_the_mistakes_file_gives_each_labelled_die_its_outcome_and_the_reading_matched_to_it(tmp_path, capsys):
    from vision.readings import DieReading
    from vision.training.devset import LabelledDie, LabelledPhoto

    bench = runpy.run_path(str(BENCH))
    cv2.imwrite(str(tmp_path / "table.png"), np.zeros((100, 100, 3), np.uint8))
    photo = LabelledPhoto(tmp_path / "table.png", "table.png", (LabelledDie(3, (10, 10, 30, 30)),
                                                              LabelledDie(5, (60, 60, 80, 80))), "tune")
    wrong = DieReading("white", 2, 0.95, (20.0, 20.0), ((10.0, 10.0), (30.0, 10.0), (30.0, 30.0), (10.0, 30.0)))
    bench["score_photos"](ReadsThese(wrong), [photo], tmp_path / "mistakes.json")
    [line] = (tmp_path / "mistakes.json").read_text().splitlines()
    mistake = json.loads(line)
    assert mistake["file"] == "table.png" and mistake["dice"] == [wrong.to_json()]
    assert [(label["value"], label["outcome"], label["read"]) for label in mistake["labels"]] == [
        (3, "confident-wrong", ["white", 2]), (5, "missed", None)]


def test_generated_sets_are_also_scored_on_their_dice_of_the_issue_s_sizes(capsys):
    from vision.readings import DieReading
    from vision.scoring import TruthDie

    bench = runpy.run_path(str(BENCH))
    small = TruthDie(3, (10, 10, 26, 26), "red", None, 16.0)
    large = TruthDie(5, (60, 60, 84, 84), "blue", None, 24.0)
    read_small = DieReading("red", 3, 0.95, (18.0, 18.0), ((10.0, 10.0), (26.0, 10.0), (26.0, 26.0), (10.0, 26.0)))
    bench["score_generated"](ReadsThese(read_small), [(np.zeros((100, 100, 3), np.uint8), [small, large])],
                             "generated")
    printed = capsys.readouterr().out
    assert "read correctly       1 ( 50.0%)" in printed
    assert "of the 1 dice 20 px or larger (the issue's range) 0 read correctly (0.0%), 0 confident-wrong" in printed


def test_photos_are_also_scored_on_the_dice_whose_labelled_box_is_of_the_issue_s_sizes(tmp_path, capsys):
    from vision.readings import DieReading
    from vision.training.devset import LabelledDie, LabelledPhoto

    bench = runpy.run_path(str(BENCH))
    cv2.imwrite(str(tmp_path / "table.png"), np.zeros((100, 100, 3), np.uint8))
    # A box 24 px wide but 16 high is too small on its short side; one with no box cannot be sized.
    photo = LabelledPhoto(tmp_path / "table.png", "table.png", (
        LabelledDie(3, (10, 10, 34, 26)), LabelledDie(5, (60, 60, 82, 82)), LabelledDie(2, None)), "validation")
    read_large = DieReading("white", 5, 0.95, (71.0, 71.0), ((60.0, 60.0), (82.0, 60.0), (82.0, 82.0), (60.0, 82.0)))
    bench["score_photos"](ReadsThese(read_large), [photo], None)
    printed = capsys.readouterr().out
    assert "read correctly       1 ( 33.3%)" in printed
    assert ("of the 1 dice whose box is 20 px or more on its short side (the issue's range) 1 read correctly (100.0%), "
            "0 confident-wrong") in printed


def test_each_condition_is_scored_on_its_own_line_at_its_own_size_and_as_a_roll_where_it_holds_the_qwixx_dice(
        tmp_path, capsys):
    bench = runpy.run_path(str(BENCH))
    bench["score_conditions"](ReadsThese(), 1, tmp_path, ("plain", "close"))
    lines = capsys.readouterr().out.splitlines()
    # The stand-in reader finds nothing: every die missed, one die at a time and, for the Qwixx scene, as a roll.
    assert lines[1].split() == ["plain", "6", "dice:", "0", "0", "0", "(0/0)", "6", "0", "|", "0", "0", "0", "(0/0)",
                                "6", "0"]
    assert lines[2].split() == ["close", "3", "dice:", "0", "0", "0", "(0/0)", "3", "0"]  # not the Qwixx set
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["close-2304x1296-00000.png", "plain-1280x720-00000.png"]


def test_a_conditions_unread_dice_are_counted_by_why_cocked_or_blurred(tmp_path, capsys):
    from vision.readings import DieReading

    bench = runpy.run_path(str(BENCH))
    [(_, truth)] = bench["generated_scenes"](1, (1280, 720), tmp_path, "camera-shake")

    def unread(die, problem):
        x0, y0, x1, y1 = die.bbox
        return DieReading(die.colour, None, 0.5, ((x0 + x1) / 2, (y0 + y1) / 2),
                          ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), problem)

    # A die the truth says the shake blurred past reading is right unread, so only the others are left unread here.
    clear = [die for die in truth if die.problem is None]
    readings = [unread(clear[0], "blurred"), unread(clear[1], "blurred"), unread(clear[2], "cocked")]
    bench["score_conditions"](ReadsThese(*readings), 1, tmp_path, ("camera-shake",))
    line = capsys.readouterr().out.splitlines()[1].split()
    assert line[:9] == ["camera-shake", "6", "dice:", "0", "0", "3", "(1/2)", "3", "0"], line
