"""The tracker on generated films (made by `python -m synth.demo`, committed beside their truth),
played through camera/'s video-file source as a camera recording would be.

Each test runs twice: with the real reader (vision.read_dice), and with a perfect reader that knows
each frame's dice from the film's script, which pins down the tracker's own part (motion, settling,
judging rolls) whatever the reader's quality.
"""
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import camera
from synth.demo import film_script
from synth.rolls import RollTruth, load_truth, perfect_readings, score, track
from vision import read_dice
from vision.tracker import RollTracker

FILMS = Path(__file__).parent / "data" / "films"


@lru_cache(maxsize=None)
def film(name: str):
    """(frames, truth, scenes): the decoded frames, the rolls, and the script's scene of each frame."""
    video = camera.DEMO_VIDEO if name == "demo" else FILMS / f"{name}.mp4"
    with camera.open_source(str(video)) as source:
        frames = tuple(source)
    scenes = [scene for _, scene in film_script(name).shots]
    assert len(scenes) == len(frames), "the film's script no longer matches the recording: make it again"
    return frames, load_truth(video.with_suffix(".json")), scenes


def reader(kind: str, name: str):
    if kind == "real":
        return read_dice
    frames, _, scenes = film(name)
    by_image = {id(image): scene for (_, image), scene in zip(frames, scenes)}
    return lambda image, calibration=None, dice_set=None: perfect_readings(by_image[id(image)]) if id(image) in by_image else []


def run(kind, name, frames=None, truth=None, **kwargs):
    film_frames, film_truth, _ = film(name)
    tracker = RollTracker(read_dice=reader(kind, name), **kwargs)
    events, _ = track(tracker, film_frames if frames is None else frames, film_truth if truth is None else truth)
    return tracker, events


# The reader (issue 3) still gets a die wrong in one of rolls-1's rolls: the yellow die's top comes out white
# (clipped, its one pip gone), so it is read as no value (and named yellow only by its border). The tests that need
# every roll of it right say when the reader is good enough, and are expected to fail until then. The demo recording
# it reads right (since the centring network, and a die the leaning network finds leaning in a roll is not read); a
# hand passing over still dice needs no reading, and the real reader passes it.
WEAK_READER = pytest.mark.xfail(reason="the reader gets a die wrong in a few of these films' rolls (issue 3)",
                                strict=False)
READERS = pytest.mark.parametrize("kind", [pytest.param("real", marks=WEAK_READER), "perfect"])
BOTH_READERS = pytest.mark.parametrize("kind", ["real", "perfect"])


@pytest.mark.parametrize("kind, name", [
    ("real", "demo"), pytest.param("real", "rolls-1", marks=WEAK_READER), ("perfect", "demo"), ("perfect", "rolls-1"),
])
def test_every_roll_is_reported_once_correctly_and_soon(kind, name):
    _, truth, _ = film(name)
    _, events = run(kind, name)
    result = score(events, truth)
    assert (result.correct, result.wrong, result.missed, result.extra) == (len(truth), 0, 0, 0), str(result)
    assert max(result.latencies) <= 0.6, str(result)


@READERS
def test_identical_consecutive_rolls_are_two_rolls(kind):
    _, truth, _ = film("rolls-1")
    assert truth[0].dice == truth[1].dice  # the film throws the same values twice
    _, events = run(kind, "rolls-1")
    settled = [e for e in events if e.event == "roll-settled"]
    assert len(settled) >= 2
    assert settled[0].colours == settled[1].colours == truth[0].colours
    assert settled[0].white == settled[1].white == truth[0].white


@BOTH_READERS
def test_a_hand_passing_over_still_dice_announces_nothing(kind):
    # Both films have a hand reaching over a roll's still dice and taking nothing.
    _, truth, _ = film("demo")
    _, events = run(kind, "demo")
    assert len([e for e in events if e.event != "roll-started"]) == len(truth)


@BOTH_READERS
def test_a_cocked_die_is_a_problem_naming_it(kind):
    _, truth, _ = film("rolls-1")
    cocked = next(r for r in truth if r.event == "problem")
    _, events = run(kind, "rolls-1")
    answer = next(e for e in events if e.event in ("roll-settled", "problem") and e.t >= cocked.last_motion)
    assert answer.event == "problem"
    assert [(p.colour, p.kind) for p in answer.problems] == [(c, "cocked") for c, v in cocked.dice if v is None]


def test_a_die_whose_top_comes_out_white_is_asked_for_by_its_colour():
    # rolls-1's second roll: the yellow die's top comes out clipped white, its one pip gone, but its border still
    # shows yellow. The table must be asked to re-roll the yellow die, not told it is missing beside a third white.
    _, truth, _ = film("rolls-1")
    washed = truth[1]
    _, events = run("real", "rolls-1")
    answer = next(e for e in events if e.event in ("roll-settled", "problem") and e.t >= washed.last_motion)
    if answer.event == "problem":
        assert [(p.colour, p.kind) for p in answer.problems] == [("yellow", "unreadable")]
    else:
        assert answer.colours == washed.colours and answer.white == washed.white


@READERS
def test_a_closed_colours_die_left_on_the_table_is_ignored(kind):
    _, truth, _ = film("rolls-1")
    without_blue = [RollTruth(r.last_motion, tuple((c, v) for c, v in r.dice if c != "blue"), r.event) for r in truth]
    _, events = run(kind, "rolls-1", truth=without_blue)
    result = score(events, without_blue)
    assert result.correct == len(truth) and result.extra == 0, str(result)
    for event in events:
        assert all(d.colour != "blue" for d in event.dice)
        assert all(p.colour != "blue" for p in event.problems)


@READERS
def test_dropped_and_corrupt_frames_change_no_roll(kind):
    frames, truth, _ = film("rolls-1")
    rng = np.random.default_rng(5)
    damaged = []
    for index, (t, image) in enumerate(frames):
        if index % 6 == 2:
            continue  # dropped
        if index % 17 == 4:
            damaged.append((t, None))  # not an image at all
        if index % 23 == 11:
            broken = image.copy()
            broken[image.shape[0] // 2:] = 128  # a half-decoded frame
            damaged.append((t, broken))
        if index % 29 == 7:
            damaged.append((t, rng.integers(0, 256, image.shape, dtype=np.uint8)))  # garbage
        damaged.append((t, image))
    tracker, events = run(kind, "rolls-1", frames=damaged)
    result = score(events, truth)
    assert (result.correct, result.extra) == (len(truth), 0), str(result)
    assert tracker.frames_ignored > 0


def test_reader_runs_only_on_still_frames():
    frames, _, _ = film("rolls-1")
    tracker, _ = run("real", "rolls-1")
    assert tracker.frames_read < len(frames) / 4
