"""The camera side of the table: tracker events become rolls, problems ask for a re-roll, and the camera loop
(fed by a small fake of the source and the tracker) holds a recording between rolls and survives failures."""
from __future__ import annotations

import time

import numpy as np

from camera import Frame
from tests.web_helpers import ROLL, phone, start_game
from vision import DieReading
from vision.tracker import Problem, RollEvent
from web.camera_loop import CameraLoop, event_json

COLOURS = ("red", "yellow", "green", "blue")


def readings(white=(2, 4), **coloured) -> tuple[DieReading, ...]:
    """Dice lying in a row, left to right: the two white ones first."""
    values = [("white", white[0]), ("white", white[1])] + [(c, coloured.get(c, ROLL[c])) for c in COLOURS if coloured.get(c, ROLL[c])]
    return tuple(DieReading(colour, value, 0.95, (100.0 + 60 * index, 200.0),
                            ((90.0 + 60 * index, 190.0), (110.0 + 60 * index, 190.0), (110.0 + 60 * index, 210.0), (90.0 + 60 * index, 210.0)))
                 for index, (colour, value) in enumerate(values))


def settled(white=(2, 4), **coloured) -> RollEvent:
    return RollEvent("roll-settled", 1.0, readings(white, **coloured))


def test_a_settled_roll_becomes_the_turns_roll(app, host, table):
    start_game(host)
    table.camera_event(event_json(RollEvent("roll-started", 0.5)))
    assert table.state()["camera"]["state"] == "moving"
    table.camera_event(event_json(settled()))
    state = table.state()
    assert state["game"]["dice"] == ROLL and state["game"]["phase"] == "white"
    assert table.session.log[-1] == {"type": "act", "action": {"action": "roll", **ROLL}, "by": "camera"}
    assert [die["colour"] for die in state["camera"]["dice"]] == ["white", "white", *COLOURS]


def test_a_problem_asks_for_a_re_roll_and_records_nothing_until_the_dice_are_clean(app, host, table):
    start_game(host)
    cocked = RollEvent("problem", 1.0, readings(), (Problem("red", "cocked", (160.0, 200.0)),))
    table.camera_event(event_json(cocked))
    state = table.state()
    assert state["pending_roll"]["problems"] == ["Re-roll the red die: it seems to rest tilted."]
    assert state["game"]["phase"] == "roll" and table.session.log == []
    table.camera_event(event_json(settled(red=3)))
    state = table.state()
    assert state["pending_roll"] is None and state["game"]["dice"]["red"] == 3


def test_a_die_rolled_again_before_anyone_decided_is_a_re_roll(app, host, table):
    start_game(host)
    table.camera_event(event_json(settled()))
    table.camera_event(event_json(settled(white=(5, 4))))
    assert table.session.game.white_sum == 9
    assert table.session.log[-1]["action"]["action"] == "reroll"


def test_dice_moved_while_players_decide_are_ignored(app, host, table):
    start_game(host)
    table.camera_event(event_json(settled()))
    phone(app, 1).post("/api/act", json={"seat": 1, "action": "pass"})
    log = list(table.session.log)
    table.camera_event(event_json(settled(white=(6, 6))))
    assert table.session.log == log
    assert "ignored" in table.state()["camera"]["message"]


def test_the_roll_off_reads_the_left_white_die(app, host, table):
    start_game(host, starter=None)
    assert table.state()["game"]["phase"] == "roll-off"
    table.camera_event(event_json(settled(white=(3, 6))))  # the 3 lies left of the 6
    table.camera_event(event_json(RollEvent("problem", 2.0, readings(white=(6, 1))[:1], (Problem("white", "missing"),))))
    game = table.state()["game"]
    assert game["rolloff"] == [{"name": "Ann", "value": 3}, {"name": "Bob", "value": 6}]
    # The referee lists the starter first; seating order is kept.
    assert game["phase"] == "roll" and game["seats"] == ["Bob", "Cy", "Ann"] and game["roller"] == 0


def test_with_no_game_the_camera_still_shows_each_roll(app, table):
    table.camera_event(event_json(settled()))
    state = table.state()
    assert state["game"] is None and state["camera"]["state"] == "settled" and len(state["camera"]["dice"]) == 6


# ----- the camera loop, fed by fakes of the source and the tracker ----------------------------------------------

class Recording:
    """A recorded source: `frames` frames 0.01 s apart."""

    live = False
    description = "a fake recording"

    def __init__(self, frames: int) -> None:
        self.frames = frames

    def __iter__(self):
        image = np.zeros((72, 128, 3), np.uint8)
        for index in range(self.frames):
            image[:] = index % 256
            yield Frame(index * 0.01, image.copy())

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def close(self):
        pass


class ScriptedTracker:
    """Gives the scripted events at the given frame numbers; counts the frames it was fed."""

    state = "waiting"
    on_table = ()

    def __init__(self, script: dict[int, list[RollEvent]]) -> None:
        self.script = script
        self.fed = 0
        self.colours_in_play = COLOURS

    def feed(self, t, image):
        self.fed += 1
        return self.script.get(self.fed, [])


def wait_for(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_a_recording_is_held_after_each_roll_until_the_table_wants_the_next(app, host, table):
    start_game(host, players=("Ann", "Bob"))
    tracker = ScriptedTracker({5: [settled()], 10: [settled(white=(5, 5))]})
    loop = CameraLoop(table, lambda: Recording(20), lambda colours: tracker)
    loop.start()
    try:
        assert wait_for(lambda: table.session.game.white_sum == 6)
        time.sleep(0.3)
        assert tracker.fed == 5  # held: the players are deciding
        for seat in (0, 1, 0):
            host.post("/api/act", json={"seat": seat, "action": "pass"})
        assert wait_for(lambda: table.session.game.white_sum == 10)
        assert loop.jpeg()[:2] == b"\xff\xd8"
        assert table.state()["camera"]["size"] == [128, 72]
    finally:
        loop.stop()


def test_a_hand_passing_over_the_dice_leaves_them_shown_as_read(app, table):
    roll = settled()

    class HandOverTheDice(ScriptedTracker):
        """The dice settle at frame 3; a hand passes over them from frame 5 to 9, leaving them where they were."""

        def feed(self, t, image):
            events = super().feed(t, image)
            self.state = "moving" if 5 <= self.fed < 10 else "settled" if self.fed >= 3 else "waiting"
            self.on_table = roll.dice if self.fed >= 3 else ()
            return events

    shown = []
    table.publish = lambda: shown.append(dict(table.camera))
    tracker = HandOverTheDice({3: [roll], 5: [RollEvent("roll-started", 0.05)]})
    loop = CameraLoop(table, lambda: Recording(20), lambda colours: tracker)
    loop.start()
    try:
        assert wait_for(lambda: table.camera["state"] == "off")  # the recording played to its end
    finally:
        loop.stop()
    states = [(camera["state"], camera["message"], len(camera["dice"]), camera["rolls_read"]) for camera in shown]
    states = [state for index, state in enumerate(states) if index == 0 or state != states[index - 1]]
    assert states[-4:] == [("settled", "Dice read.", 6, 1), ("moving", "Dice rolling…", 0, 1),
                           ("settled", "Dice read.", 6, 1), ("off", "The recording has ended: type the dice.", 6, 1)]
    assert shown[-2]["dice"] == [die.to_json() for die in roll.dice]


def test_a_failing_camera_is_reopened_and_the_game_goes_on(app, host, table):
    start_game(host)
    opened = []

    def open_source():
        opened.append(time.monotonic())
        if len(opened) == 1:
            raise OSError("no camera on /dev/video0")
        return Recording(10)

    loop = CameraLoop(table, open_source, lambda colours: ScriptedTracker({}))
    loop.start()
    try:
        assert wait_for(lambda: table.state()["camera"]["state"] == "lost")
        assert "no camera on /dev/video0" in table.state()["camera"]["message"]
        assert host.post("/api/dice", json=ROLL).status_code == 200  # typed dice meanwhile
        for seat in (0, 1, 2, 0):
            assert host.post("/api/act", json={"seat": seat, "action": "pass"}).status_code == 200
        assert wait_for(lambda: len(opened) == 2)
        assert wait_for(lambda: table.state()["camera"]["state"] == "off")  # the recording played to its end
    finally:
        loop.stop()


def test_a_frame_that_breaks_the_tracker_is_skipped(app, host, table):
    start_game(host)

    class Fragile(ScriptedTracker):
        def feed(self, t, image):
            self.fed += 1
            if self.fed == 2:
                raise ValueError("corrupt frame")
            return self.script.get(self.fed, [])

    tracker = Fragile({4: [settled()]})
    loop = CameraLoop(table, lambda: Recording(6), lambda colours: tracker)
    loop.start()
    try:
        assert wait_for(lambda: table.session.game.white_sum == 6)
    finally:
        loop.stop()


# ----- ruling 9: single dice re-rolled before anyone decided ------------------------------------------------------

def cocked(colour: str, white=(2, 4), **coloured) -> RollEvent:
    """The dice at rest with one die cocked (the first of its colour): the reader gives it no value."""
    dice = list(readings(white, **coloured))
    index = next(index for index, die in enumerate(dice) if die.colour == colour)
    center = dice[index].center
    dice[index] = DieReading(colour, None, 0.4, center, dice[index].corners, "cocked")
    return RollEvent("problem", 2.0, tuple(dice), (Problem(colour, "cocked", center),))


def test_a_die_cocked_after_the_roll_is_re_rolled_alone_and_the_others_keep_their_values(app, host, table):
    start_game(host)
    table.camera_event(event_json(settled()))  # recorded: white 2 + 4, red 5, yellow 1, green 3, blue 6
    table.camera_event(event_json(cocked("red")))  # a hand knocked the red die, which rests tilted
    assert table.state()["pending_roll"]["reroll"] == ["red"]
    assert table.wants_roll()  # a recording plays on until the re-rolled die has settled
    # The red die lands on 3; the camera also reads the yellow die as a 2 this time: it keeps its 1.
    table.camera_event(event_json(settled(red=3, yellow=2)))
    state = table.state()
    assert state["game"]["dice"] == {**ROLL, "red": 3}
    assert table.session.log[-1] == {"type": "act", "action": {"action": "reroll", **ROLL, "red": 3}, "by": "camera"}
    assert state["pending_roll"] is None
    assert "Only the red die counted as re-rolled" in state["camera"]["message"]
    assert state["game"]["news"][-1]["text"] == ("Rolled again: red from 5 to 3. Now white 2 and 4, sum 6; "
                                                 "red 3, yellow 1, green 3, blue 6.")


def test_a_white_die_off_the_tray_is_found_among_the_white_dice_by_the_one_that_stayed(app, host, table):
    start_game(host)
    table.camera_event(event_json(settled(white=(2, 4))))
    table.camera_event(event_json(cocked("white", white=(1, 4))))  # the 2 was knocked (cocked); the 4 still reads 4
    assert table.state()["pending_roll"]["reroll"] == ["white1"]
    table.camera_event(event_json(settled(white=(4, 6))))  # sorted by the camera: the re-rolled die shows 6
    assert table.session.game.dice.white == (6, 4)
    assert table.session.game.white_sum == 10


def test_a_die_re_rolled_to_the_same_value_still_ends_the_re_roll(app, host, table):
    start_game(host)
    table.camera_event(event_json(settled()))
    table.camera_event(event_json(cocked("green")))
    table.camera_event(event_json(settled()))  # green lands on 3 again
    assert table.session.log[-1]["action"]["action"] == "reroll" and table.state()["pending_roll"] is None


def test_the_host_names_dice_to_re_roll_and_the_camera_reads_only_those(app, host, table):
    start_game(host)
    table.camera_state("watching", "Watching the table.")
    table.camera_event(event_json(settled()))
    response = host.post("/api/reroll", json={"camera": ["blue", "white2"]})
    assert response.status_code == 200
    assert response.json["pending_roll"]["reroll"] == ["blue", "white2"]
    assert response.json["pending_roll"]["problems"] == ["Roll the blue die and white die 2 again: the camera reads them."]
    table.camera_event(event_json(settled(white=(1, 2), blue=4, red=6)))  # red misread as 6: it keeps its 5
    assert table.state()["game"]["dice"] == {**ROLL, "white": [2, 1], "blue": 4}


def test_a_die_nudged_after_the_host_corrected_a_misread_does_not_undo_the_correction(app, host, table):
    start_game(host)
    table.camera_event(event_json(settled(red=6)))  # the red die shows 5: misread as 6
    assert host.post("/api/dice", json=ROLL).status_code == 200  # the host corrects it
    table.camera_event(event_json(settled(red=6)))  # the yellow die nudged: a new settle, red misread again
    assert table.state()["game"]["dice"] == ROLL
    assert "The host set these dice" in table.state()["camera"]["message"]


def test_a_die_the_host_asked_to_re_roll_still_counts_when_it_knocks_another(app, host, table):
    start_game(host)
    table.camera_state("watching", "Watching the table.")
    table.camera_event(event_json(settled()))
    host.post("/api/reroll", json={"camera": ["blue"]})
    green_cocked = RollEvent("problem", 2.0, readings(blue=2), (Problem("green", "cocked"),))
    table.camera_event(event_json(green_cocked))
    assert table.state()["pending_roll"]["reroll"] == ["blue", "green"]
    table.camera_event(event_json(settled(blue=2, green=4)))
    assert table.state()["game"]["dice"] == {**ROLL, "blue": 2, "green": 4}


def test_a_camera_re_roll_is_refused_without_a_camera_or_after_a_decision(app, host, table):
    start_game(host)
    host.post("/api/dice", json=ROLL)
    response = host.post("/api/reroll", json={"camera": ["red"]})
    assert response.status_code == 409 and response.json["error"] == "no-camera"
    table.camera_state("watching", "Watching the table.")
    phone(app, 1).post("/api/act", json={"seat": 1, "action": "pass"})
    response = host.post("/api/reroll", json={"camera": ["red"]})
    assert response.status_code == 409 and response.json["rule"] == "wrong-phase"
    assert table.state()["pending_roll"] is None


# ----- which camera `serve` starts when none is named ------------------------------------------------------------

def test_without_a_pi_camera_serve_plays_the_demo_and_says_so_but_the_service_waits_for_typed_dice(app, table,
                                                                                                  monkeypatch):
    from camera import picamera
    from web.commands.serve import start_camera

    monkeypatch.setattr(picamera, "why_no_camera", lambda: "picamera2 cannot be imported")
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    loop = start_camera(app, "auto")
    try:
        assert loop.demo
        assert table.state()["camera"]["note"].startswith("The demo recording's dice are not yours.")
        assert wait_for(lambda: table.state()["camera"]["message"] == "Playing the demo recording.")
    finally:
        loop.stop()
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/qwixx-table")  # as systemd starts the service
    assert start_camera(app, "auto") is None
