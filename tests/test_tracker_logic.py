"""The tracker's state machine with its real motion detection and a reader that knows each frame's dice.

The reader here is told what each drawn frame shows, so that these tests pin down the tracker alone;
tests/test_tracker_scenes.py runs the real reader on rendered rolls.
"""
import numpy as np
import pytest

from vision import DieReading
from vision.tracker import Problem, RollEvent, RollTracker

FPS = 20
SIZE = (640, 360)
DIE = 18
BGR = {"white": (235, 235, 235), "red": (40, 40, 200), "yellow": (40, 210, 230), "green": (60, 160, 40),
       "blue": (180, 80, 30)}
ALL_SIX = ["white", "white", "red", "yellow", "green", "blue"]


class Table:
    """Draws frames of dice as squares on a felt table and remembers what each frame shows."""

    def __init__(self):
        self.truth = {}
        self.t = 0.0
        self.frames = []
        self.showing = []  # what the frame last fed shows

    def draw(self, dice, hand=None, problems=None):
        image = np.full((SIZE[1], SIZE[0], 3), (50, 110, 40), np.uint8)
        image[::2, ::3] += 3  # some texture
        readings = []
        for colour, value, (x, y) in dice:
            x0, y0 = int(x - DIE / 2), int(y - DIE / 2)
            image[y0:y0 + DIE, x0:x0 + DIE] = BGR[colour]
            for k in range(value):
                image[y0 + 3 + 2 * k: y0 + 4 + 2 * k, x0 + 4: x0 + 6] = 20 if colour == "white" else 250
            problem = (problems or {}).get(colour)
            corners = ((x0, y0), (x0 + DIE, y0), (x0 + DIE, y0 + DIE), (x0, y0 + DIE))
            readings.append(DieReading(colour, None if problem else value, 0.9, (float(x), float(y)), corners, problem))
        if hand is not None:
            hx, hy = hand
            image[max(0, hy - 60):hy + 60, max(0, hx - 45):hx + 45] = (120, 150, 210)
            readings = [r for r in readings if not (abs(r.center[0] - hx) < 55 and abs(r.center[1] - hy) < 70)]
        self.truth[id(image)] = readings
        return image

    def hold(self, seconds, dice, **kwargs):
        image = self.draw(dice, **kwargs)
        for _ in range(round(seconds * FPS)):
            self.frames.append((self.t, image))
            self.t += 1 / FPS

    def roll(self, values, seconds=1.0, colours=ALL_SIX, seed=0, problems=None):
        """Dice fly in from the left edge and stop at random places; returns the time motion ended."""
        rng = np.random.default_rng(seed)
        ends = [(rng.uniform(150, 560), rng.uniform(60, 300)) for _ in colours]
        steps = round(seconds * FPS)
        for step in range(steps):
            f = (step + 1) / steps
            spin = rng.integers(1, 7, len(colours))
            dice = [(c, int(s), (30 + (ex - 30) * f, ey + 20 * (1 - f) * np.sin(9 * f)))
                    for c, s, (ex, ey) in zip(colours, spin, ends)]
            self.hold(1 / FPS, dice)
        last_motion = self.t  # the first frame with the dice in their final places
        final = [(c, v, e) for c, v, e in zip(colours, values, ends)]
        self.hold(1.5, final, problems=problems)
        return last_motion, final

    def reader(self, image, calibration=None, dice_set=None):
        # The tracker reads the mean of the still frames, a new image that shows what the last of them shows.
        return self.showing

    def run(self, tracker=None, **kwargs):
        tracker = tracker or RollTracker(read_dice=self.reader, **kwargs)
        events = []
        for t, image in self.frames:
            self.showing = self.truth.get(id(image), [])
            events += tracker.feed(t, image)
        return tracker, events


def settled(events):
    return [e for e in events if e.event == "roll-settled"]


def test_each_roll_settles_once_with_its_values_within_the_latency_goal():
    table = Table()
    table.hold(1.0, [])
    ends, values = [], [(1, 2, 3, 4, 5, 6), (6, 6, 1, 1, 2, 3), (3, 4, 5, 6, 1, 2)]
    for seed, roll in enumerate(values):
        table.hold(0.5, [])  # the dice are picked up
        ends.append(table.roll(roll, seed=seed)[0])
    tracker, events = table.run()
    assert [e.event for e in events] == ["roll-started", "roll-settled"] * 3
    for event, roll, end in zip(settled(events), values, ends):
        assert event.white == tuple(sorted(roll[:2]))
        assert event.colours == dict(zip(["red", "yellow", "green", "blue"], roll[2:]))
        assert 0 < event.t - end <= 0.6
    assert tracker.frames_read <= 4 * 4  # the reader runs only on still frames
    assert tracker.state == "settled"


def test_the_still_dice_are_read_before_the_settle_time_is_up_so_that_reading_adds_no_delay():
    table = Table()
    table.hold(0.5, [])
    end = table.roll((1, 2, 3, 4, 5, 6))[0]
    read_at = []

    def reader(image, calibration=None, dice_set=None):
        read_at.append(now)
        return table.showing

    tracker = RollTracker(read_dice=reader, settle_time=0.4)
    events = []
    for now, image in table.frames:
        table.showing = table.truth.get(id(image), [])
        events += tracker.feed(now, image)
    (event,) = settled(events)
    # `end` is the time of the last motion, the first frame with the dice in their final places.
    still = [round(t - end, 2) for t in read_at if t > end]
    assert still == [0.2, 0.3]
    assert round(event.t - end, 2) == 0.4


def test_identical_consecutive_rolls_are_two_rolls():
    table = Table()
    table.hold(0.5, [])
    table.roll((2, 3, 4, 5, 6, 1), seed=1)
    table.roll((2, 3, 4, 5, 6, 1), seed=2)  # thrown again without the table being cleared
    _, events = table.run()
    assert [e.event for e in events] == ["roll-started", "roll-settled"] * 2
    assert settled(events)[0].to_json()["colours"] == settled(events)[1].to_json()["colours"]


def test_a_hand_passing_over_still_dice_is_not_a_roll():
    table = Table()
    table.hold(0.5, [])
    _, dice = table.roll((1, 2, 3, 4, 5, 6))
    for x in range(0, 640, 24):
        table.hold(1 / FPS, dice, hand=(x, 180))
    table.hold(1.0, dice)
    tracker, events = table.run()
    assert len(settled(events)) == 1
    assert all(e.event == "roll-started" for e in events[2:])
    assert tracker.state == "settled" and set(tracker.on_table) == set(settled(events)[0].dice)  # as they lay


def test_dice_already_on_the_table_at_start_are_not_announced_again():
    table = Table()
    _, dice = table.roll((1, 2, 3, 4, 5, 6))
    table.frames = table.frames[-20:]  # the tracker starts with the dice at rest
    tracker, events = table.run()
    assert events == [] and tracker.state == "settled"


def test_a_cocked_die_is_a_problem_and_its_reroll_completes_the_roll():
    table = Table()
    table.hold(0.5, [])
    _, dice = table.roll((1, 2, 3, 4, 5, 6), problems={"green": "cocked"})
    rerolled = [(c, 2 if c == "green" else v, (p[0], p[1] + 40) if c == "green" else p) for c, v, p in dice]
    for step in range(8):
        table.hold(1 / FPS, [(c, v, (p[0] + 30 - 4 * step, p[1])) if c == "green" else (c, v, p)
                             for c, v, p in rerolled])
    table.hold(1.0, rerolled)
    _, events = table.run()
    kinds = [e.event for e in events]
    assert kinds == ["roll-started", "problem", "roll-started", "roll-settled"]
    problem = events[1].problems
    assert [(p.colour, p.kind) for p in problem] == [("green", "cocked")]
    assert "green" in problem[0].describe()
    assert events[3].colours == {"red": 3, "yellow": 4, "green": 2, "blue": 6}


def test_an_unreadable_die_is_described_in_words_the_table_understands():
    washed = Problem("blue", "unreadable", (10.0, 20.0), "occluded")
    assert washed.describe() == ("Cannot read the blue die: its top is hidden or seen too much from the side, or too "
                                 "bright or too dark to show its pips. Re-roll it.")
    assert Problem("white", "unreadable", (1.0, 2.0)).describe() == "Cannot read a white die. Re-roll it."
    blurred = Problem("green", "unreadable", (1.0, 2.0), "blurred")
    assert blurred.describe() == ("Cannot read the green die: it looks blurred (is the camera steady and in focus?). "
                                  "Re-roll it.")
    flickering = Problem("red", "unreadable", (1.0, 2.0), "its reading changes from frame to frame")
    assert flickering.describe() == "Cannot read the red die: its reading changes from frame to frame. Re-roll it."


def test_a_closed_colours_die_left_on_the_table_is_ignored():
    table = Table()
    table.hold(0.5, [])
    table.roll((1, 2, 3, 4, 5, 6))
    tracker, events = table.run(colours_in_play=["yellow", "green", "blue"])
    (event,) = settled(events)
    assert "red" not in event.colours and len(event.dice) == 5 and event.problems == ()


def test_only_five_dice_after_a_colour_closed():
    table = Table()
    table.hold(0.5, [])
    table.roll((4, 4, 5, 2, 6), colours=["white", "white", "yellow", "green", "blue"])
    _, events = table.run(colours_in_play=["yellow", "green", "blue"])
    (event,) = settled(events)
    assert event.white == (4, 4) and event.colours == {"yellow": 5, "green": 2, "blue": 6}


def test_the_reader_is_told_which_dice_are_in_play():
    table = Table()
    table.hold(0.5, [])
    table.roll((4, 4, 5, 2, 6), colours=["white", "white", "yellow", "green", "blue"])
    sets = []

    def reader(image, calibration=None, dice_set=None):
        sets.append(dice_set)
        return table.reader(image)

    table.run(RollTracker(read_dice=reader, colours_in_play=["yellow", "green", "blue"]))
    assert sets and all(s == {"white": 2, "yellow": 1, "green": 1, "blue": 1} for s in sets)


def test_a_missing_die_is_reported_not_guessed():
    table = Table()
    table.hold(0.5, [])
    table.roll((1, 2, 3, 4, 5), colours=["white", "white", "red", "yellow", "green"])
    _, events = table.run()
    assert [e.event for e in events] == ["roll-started", "problem"]
    assert [(p.colour, p.kind, p.center) for p in events[1].problems] == [("blue", "missing", None)]


def test_dropped_and_corrupt_frames_change_nothing():
    table = Table()
    table.hold(0.5, [])
    table.roll((1, 2, 3, 4, 5, 6))
    clean_events = table.run()[1]
    frames = []
    rng = np.random.default_rng(3)
    for index, (t, image) in enumerate(table.frames):
        if index % 7 == 3:
            continue  # dropped
        if index % 11 == 5:
            frames.append((t, None))
            frames.append((t, np.zeros((5, 5), np.float32)))
            frames.append((t, np.zeros((0, 0, 3), np.uint8)))  # empty
            frames.append((t, np.zeros((8, 12, 3), np.uint8)))  # too small to hold a die
        if index % 13 == 0 and index > 40:  # a frame of garbage among still ones
            frames.append((t, rng.integers(0, 255, image.shape, dtype=np.uint8)))
        frames.append((t, image))
    table.frames = frames
    tracker, events = table.run()
    assert [e.event for e in events] == [e.event for e in clean_events]
    assert settled(events)[0].colours == settled(clean_events)[0].colours
    assert tracker.frames_ignored >= 4


def test_readings_that_flicker_are_not_announced_until_they_agree():
    table = Table()
    table.hold(0.5, [])
    table.roll((1, 2, 3, 4, 5, 6))
    tracker = RollTracker(read_dice=table.reader)
    flicker = iter([5, 3, 5, 3])

    def unsteady_reader(image, calibration=None, dice_set=None):
        readings = table.reader(image)
        value = next(flicker, 6) if len(readings) == 6 else None
        return [DieReading(r.colour, value, r.confidence, r.center, r.corners) if r.colour == "blue" else r
                for r in readings]

    tracker.read_dice = unsteady_reader
    _, events = table.run(tracker)
    (event,) = settled(events)
    assert event.colours["blue"] == 6


def test_event_json_has_exactly_the_watch_format():
    reading = DieReading("white", 3, 0.9, (1.0, 2.0), ())
    event = RollEvent("roll-settled", 1.23456, (reading, DieReading("white", 5, 0.8, (5.0, 2.0), ()),
                                                 DieReading("red", 2, 0.9, (9.0, 9.0), ())))
    data = event.to_json()
    assert list(data) == ["event", "t", "dice", "white", "colours", "problems"]
    assert data["t"] == 1.235 and data["white"] == [3, 5] and data["colours"] == {"red": 2}
    assert RollEvent("roll-started", 0.5).to_json()["white"] is None


def test_unknown_colours_in_play_are_refused():
    with pytest.raises(ValueError, match="purple"):
        RollTracker(read_dice=lambda image, calibration=None, dice_set=None: [], colours_in_play=["red", "purple"])


def test_the_reader_sees_the_mean_of_the_frames_since_the_dice_came_to_rest():
    # A camera's frames of still dice differ only in sensor noise: the mean of n of them has 1/sqrt(n) of it.
    noise = 8.0
    table = Table()
    table.hold(0.5, [])
    table.roll((1, 2, 3, 4, 5, 6), seed=1)
    table.roll((6, 5, 4, 3, 2, 1), seed=2)  # the mean starts again: nothing of the first roll's dice is in it
    rng = np.random.default_rng(7)
    clean, noisy = {}, []
    for t, image in table.frames:
        frame = np.clip(image + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
        table.truth[id(frame)], clean[id(frame)] = table.truth[id(image)], image
        noisy.append((t, frame))
    table.frames = noisy
    residuals, fed = [], []

    def reader(image, calibration=None, dice_set=None):
        residuals.append(float(np.std(image.astype(np.float32) - clean[id(fed[-1])])))
        return table.showing

    tracker = RollTracker(read_dice=reader)
    events = []
    for t, frame in table.frames:
        fed.append(frame)
        table.showing = table.truth[id(frame)]
        events += tracker.feed(t, frame)
    assert [e.colours for e in settled(events)] == [{"red": 3, "yellow": 4, "green": 5, "blue": 6},
                                                    {"red": 4, "yellow": 3, "green": 2, "blue": 1}]
    single = float(np.std(noisy[-1][1].astype(np.float32) - clean[id(noisy[-1][1])]))
    assert single > 0.9 * noise
    # Two looks each at the empty table and at the two rolls: at half of settle_time (0.2 s still: 4 frames) and
    # at three quarters (6 frames).
    halfway, later = residuals[0::2], residuals[1::2]
    assert len(halfway) == len(later) == 3
    assert max(halfway) < 0.6 * single and max(later) < 0.45 * single
