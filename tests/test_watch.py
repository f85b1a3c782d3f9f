"""`qwixx-table watch`: the camera and the tracker without the web app, one line per event."""
import json
from pathlib import Path

import pytest

import camera
from vision.tracker import RollTracker
from web import cli

FILM = Path(__file__).parent / "data" / "films" / "rolls-1.mp4"


def tracker_events(**kwargs):
    tracker = RollTracker(**kwargs)
    with camera.open_source(str(FILM)) as source:
        return [event.to_json() for t, image in source for event in tracker.feed(t, image)]


def test_watch_prints_each_tracker_event_as_one_json_line(capsys):
    assert cli.main(["watch", "--source", str(FILM), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == tracker_events()
    assert any(line["event"] == "roll-started" for line in lines)
    duration = json.loads(FILM.with_suffix(".json").read_text())["duration"]
    for line in lines:
        assert list(line) == ["event", "t", "dice", "white", "colours", "problems"]
        assert line["event"] in ("roll-started", "roll-settled", "problem")
        assert 0 < line["t"] <= duration  # the video's own time
    for line in lines:
        for die in line["dice"]:
            assert set(die) == {"colour", "value", "confidence", "center", "corners", "problem"}
        for problem in line["problems"]:
            assert set(problem) == {"colour", "problem", "center", "reason"}


def test_watch_with_colours_closed_leaves_their_dice_out(capsys):
    assert cli.main(["watch", "--source", str(FILM), "--json", "--colours", "red,yellow,green"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == tracker_events(colours_in_play=("red", "yellow", "green"))
    for line in lines:
        assert "blue" not in line["colours"]
        assert all(d["colour"] != "blue" for d in line["dice"])


def test_a_closed_colours_die_left_unread_on_the_table_is_not_taken_for_a_die_in_play(capsys):
    # At 6.4 s the film's yellow die shows no pips. With yellow closed, it was named a third white die (the roll
    # holds no yellow one), and the roll sent back for a white die too many: it is left out, and the roll stands.
    assert cli.main(["watch", "--source", str(FILM), "--json", "--colours", "red,green,blue"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    [at_rest] = [line for line in lines if line["event"] != "roll-started" and 6.3 < line["t"] < 6.5]
    assert at_rest["event"] == "roll-settled" and at_rest["white"] == [2, 3]
    assert at_rest["colours"] == {"red": 1, "green": 2, "blue": 1}


def test_watch_prints_readable_lines_without_json(capsys):
    assert cli.main(["watch", "--source", str(FILM)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(tracker_events())
    assert all(" s  " in line for line in out) and any("rolling" in line for line in out)


def test_watch_refuses_unknown_colours(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["watch", "--colours", "red,purple"])
    assert exit_info.value.code == 2
    assert "purple" in capsys.readouterr().err


def test_watch_names_a_missing_source(tmp_path, capsys):
    assert cli.main(["watch", "--source", str(tmp_path / "nothing.mp4")]) == 1
    assert "no such source" in capsys.readouterr().err


def test_watch_names_a_damaged_calibration(tmp_path, capsys):
    bad = tmp_path / "calibration.json"
    bad.write_text("{")
    assert cli.main(["watch", "--source", str(FILM), "--calibration", str(bad)]) == 1
    assert "damaged calibration" in capsys.readouterr().err
