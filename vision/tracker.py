"""The roll tracker: timestamped frames in, one event per physical roll out.

States: `waiting` (no dice in play on the table), `moving` (dice or a hand in motion), `settled`
(dice at rest, read). Events (`RollEvent`):

- `roll-started`: motion began in the play area. It can come to nothing (a hand passing over dice
  that stay where they were, dice being picked up); then no other event follows and the tracker goes
  back to the dice it had.
- `roll-settled`: once per physical roll, when the dice have been still for `settle_time` and two
  readings of the still dice agree, with every die in play read cleanly. A roll is a die lying where
  none lay before (whatever the reader makes of it, so that a reading that wavers between frames is
  not a roll); a roll of the same values lands elsewhere, so it is still a new roll.
- `problem`: the dice came to rest but cannot all be read: a die cocked, off the tray, missing,
  unreadable, or one too many of a colour. The table re-rolls just those dice (ruling 9); when they
  settle, the whole roll is judged again, and `roll-settled` follows once it is clean.

Motion is judged on a small grey copy of each frame; the reader runs only once the dice are still, on the mean of
the frames since they came to rest: those differ only in the camera's sensor noise, which the mean lowers (see
_add_still).
When the tracker starts, the dice already on the table are taken as they are (no event): a restart
must not announce the last roll again.
"""
from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import cv2
import numpy as np

from calibration import Calibration, CalibrationError
from vision.reader import FrameError, check_frame
from vision.readings import QWIXX_COLOURS, QWIXX_ROLL, DieReading

log = logging.getLogger(__name__)

STATES = ("waiting", "moving", "settled")
EVENTS = ("roll-started", "roll-settled", "problem")
PROBLEM_KINDS = ("cocked", "off-tray", "missing", "unreadable", "extra")
# The reader's reasons for an unreadable die (vision.readings.PROBLEMS), as the table is told them.
REASONS_IN_WORDS = {
    "occluded": "its top is hidden or seen too much from the side, or too bright or too dark to show its pips",
    # The tracker reads dice at rest, so their blur is the camera's: a re-roll alone does not mend it.
    "blurred": "it looks blurred (is the camera steady and in focus?)",
    "small": "it looks too small",
    "edge": "the picture cuts it off",
}
COLOURED = tuple(c for c in QWIXX_COLOURS if c != "white")
# When the still dice are read, as shares of the tracker's settle_time (see RollTracker._settle).
FIRST_READ = 0.5
READ_AGAIN = 0.75

ReadDice = Callable[..., Sequence[DieReading]]


@dataclass(frozen=True)
class Problem:
    """What stops a clean reading of one die; `center` is None for a missing die."""

    colour: str
    kind: str  # one of PROBLEM_KINDS
    center: tuple[float, float] | None = None
    reason: str | None = None  # the reader's reason, for an unreadable die

    def __post_init__(self) -> None:
        if self.kind not in PROBLEM_KINDS:
            raise ValueError(f"unknown problem {self.kind!r}")

    def to_json(self) -> dict:
        center = None if self.center is None else [round(self.center[0], 1), round(self.center[1], 1)]
        return {"colour": self.colour, "problem": self.kind, "center": center, "reason": self.reason}

    def describe(self) -> str:
        """One sentence for the table, e.g. "Re-roll the red die: it seems to rest tilted."."""
        die = "a white die" if self.colour == "white" else f"the {self.colour} die"
        return {
            "cocked": f"Re-roll {die}: it seems to rest tilted.",
            "off-tray": f"Re-roll {die}: it is off the tray.",
            "missing": f"Cannot find {die}: roll it onto the tray.",
            "unreadable": f"Cannot read {die}"
                          + (f": {REASONS_IN_WORDS.get(self.reason, self.reason)}" if self.reason else "")
                          + ". Re-roll it.",
            "extra": f"One {self.colour} die too many: take the extra off the tray.",
        }[self.kind]


@dataclass(frozen=True)
class RollEvent:
    event: str  # one of EVENTS
    t: float  # the source's time of the frame that decided it
    dice: tuple[DieReading, ...] = ()  # the dice in play, white first, then in colour order
    problems: tuple[Problem, ...] = ()

    @property
    def white(self) -> tuple[int, int] | None:
        values = sorted(d.value for d in self.dice if d.colour == "white" and d.value is not None)
        return (values[0], values[1]) if len(values) == 2 else None

    @property
    def colours(self) -> dict[str, int]:
        return {d.colour: d.value for d in self.dice if d.colour != "white" and d.value is not None}

    def to_json(self) -> dict:
        """The line `qwixx-table watch --json` prints."""
        white = self.white
        return {
            "event": self.event,
            "t": round(self.t, 3),
            "dice": [d.to_json() for d in self.dice],
            "white": None if white is None else list(white),
            "colours": self.colours,
            "problems": [p.to_json() for p in self.problems],
        }


class RollTracker:
    """Feed it every frame (`feed(t, image)`); it returns the events that frame decided.

    `read_dice(image, calibration, dice_set)` is the reader (vision.read_dice unless another is given);
    `colours_in_play` are the coloured dice still in the game (white is always in play).
    """

    # Motion thresholds on the small copy: a grey-level change that is not noise, and how much of a
    # die must change. Far below a tumbling die, far above sensor noise after averaging down.
    motion_level = 14
    motion_fraction_of_die = 0.2
    # With no agreement after this long still, the roll is decided with the disagreeing dice unreadable.
    give_up_after = 1.0

    def __init__(
        self,
        read_dice: ReadDice | None = None,
        calibration: Calibration | None = None,
        colours_in_play: Iterable[str] = COLOURED,
        settle_time: float = 0.4,
        motion_width: int = 320,
    ) -> None:
        if read_dice is None:
            from vision import read_dice
        self.read_dice = read_dice
        self.calibration = calibration
        self.settle_time = settle_time
        self.motion_width = motion_width
        self.colours_in_play = colours_in_play
        self.state = "waiting"
        self.last_roll: RollEvent | None = None  # the last roll-settled
        self.frames_seen = 0
        self.frames_read = 0  # frames given to the reader
        self.frames_ignored = 0  # frames that were not images, and one-frame glitches
        self._frame_size: tuple[int, int] | None = None
        self._frame_calibration: Calibration | None = None
        self._mask: np.ndarray | None = None
        self._die_size = 0.0
        self._previous: np.ndarray | None = None
        self._reference: np.ndarray | None = None  # the last quiet frame
        self._suspect: float | None = None  # time of motion not yet confirmed by the next frame
        self._settling = True  # since the last motion (or the start), until the dice are judged
        self._judged_once = False
        self._last_motion = 0.0
        self._next_read = FIRST_READ * settle_time  # how long after the last motion the reader runs next
        self._last_read: list[DieReading] | None = None  # the reader's last look at the still dice
        self._agreed = False  # whether the last two looks agree
        self._still_sum: np.ndarray | None = None  # the frames since the last motion, added up
        self._still_frames = 0
        self.on_table: list[DieReading] = []  # the dice in play as last judged, a roll or not

    @property
    def colours_in_play(self) -> tuple[str, ...]:
        return self._colours_in_play

    @colours_in_play.setter
    def colours_in_play(self, colours: Iterable[str]) -> None:
        colours = tuple(colours)
        unknown = [c for c in colours if c not in COLOURED]
        if unknown:
            raise ValueError(f"not a coloured Qwixx die: {', '.join(unknown)} (choose from {', '.join(COLOURED)})")
        self._colours_in_play = tuple(c for c in COLOURED if c in colours)

    def feed(self, t: float, image: np.ndarray) -> list[RollEvent]:
        self.frames_seen += 1
        try:
            check_frame(image)
        except FrameError:
            self.frames_ignored += 1
            return []
        small = self._small(image)
        if self._previous is None or small.shape != self._previous.shape:
            self._previous = self._reference = small
            self._last_motion = t
            return []
        events: list[RollEvent] = []
        moved = self._changed(small, self._previous)
        if self._settling:
            if moved or self._changed(small, self._reference):
                self._moving(t, small)
            else:
                events = self._settle(t, image)
        elif self._suspect is not None:
            # Motion needs a second frame that still differs from the quiet scene: one corrupt or
            # flashed frame is not a roll.
            if self._changed(small, self._reference):
                events.append(RollEvent("roll-started", self._suspect))
                self._moving(t, small)
            else:
                self.frames_ignored += 1
                self._reference = small
            self._suspect = None
        elif moved:
            self._suspect = t
        else:
            self._reference = small  # follows slow changes of light while nothing moves
        self._previous = small
        return events

    # -- motion --------------------------------------------------------------------------------

    def _small(self, image: np.ndarray) -> np.ndarray:
        height, width = image.shape[:2]
        if (width, height) != self._frame_size:
            self._new_frame_size(width, height)
        small_size = (self.motion_width, max(1, round(height * self.motion_width / width)))
        grey = cv2.cvtColor(cv2.resize(image, small_size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(grey, (3, 3), 0)

    def _new_frame_size(self, width: int, height: int) -> None:
        self._frame_size = (width, height)
        self._frame_calibration = None
        self._mask = None
        self._die_size = 26.0 * width / 1280  # a Pi camera 60-80 cm above the table
        if self.calibration is not None:
            try:
                self._frame_calibration = self.calibration.scaled_to(width, height)
            except CalibrationError as error:
                log.warning("calibration not used: %s", error)
        if self._frame_calibration is not None:
            self._die_size = self._frame_calibration.die_size
            small_height = max(1, round(height * self.motion_width / width))
            self._mask = cv2.resize(
                self._frame_calibration.play_area_mask(), (self.motion_width, small_height),
                interpolation=cv2.INTER_NEAREST,
            )

    def _changed(self, small: np.ndarray, other: np.ndarray) -> bool:
        difference = cv2.absdiff(small, other)
        if self._mask is not None:
            difference = cv2.bitwise_and(difference, self._mask)
        changed = cv2.countNonZero(cv2.threshold(difference, self.motion_level, 255, cv2.THRESH_BINARY)[1])
        die_small = self._die_size * self.motion_width / self._frame_size[0]
        return changed >= max(3.0, self.motion_fraction_of_die * die_small * die_small)

    def _moving(self, t: float, small: np.ndarray) -> None:
        if self._judged_once:
            self.state = "moving"
        self._settling = True
        self._last_motion = t
        self._reference = small
        self._next_read = FIRST_READ * self.settle_time
        self._last_read, self._agreed = None, False
        self._still_frames = 0

    # -- settling --------------------------------------------------------------------------------

    def _settle(self, t: float, image: np.ndarray) -> list[RollEvent]:
        """The dice are read at half of `settle_time` and again at three quarters of it, so that the reader's own time
        passes while the tracker waits out the rest; the roll is judged at `settle_time` once two readings in a row
        agree. After a disagreement every frame is read until two agree, or for `give_up_after`. Against the second
        reading at `settle_time`: bench/tracker.py --films 11, the last motion to the event counting the tracker's own
        time at most 0.40 s rather than 0.45 s (0.63 s in a run on a busier machine), 46 rolls of 53 right either way,
        the reader on one more frame per film; with the room dimmed (--films 3 --light-level 0.06) 0.40 s rather than
        0.47 s, 20 rolls of 21 either way; bench/table.py --tables 10, its four ways 38, 44, 45 and 46 rolls of 50
        announced rather than 39, 44, 45 and 45, none wrong (the second reading is the mean of 5 frames at 15
        frames/s rather than 6)."""
        self._add_still(image)
        still_for = t - self._last_motion
        if not self._agreed and still_for >= self._next_read:
            readings = self._read(self._still_mean())
            if readings is None:
                return []
            earlier, self._last_read = self._last_read, readings
            self._next_read = max(still_for, READ_AGAIN * self.settle_time)
            if earlier is not None:
                if not self._unmatched(readings, earlier) and not self._unmatched(earlier, readings):
                    self._agreed = True
                elif still_for >= self.settle_time + self.give_up_after:
                    return self._judge(t, readings, flickering=self._unmatched(readings, earlier))
        if self._agreed and still_for >= self.settle_time:
            return self._judge(t, self._last_read, flickering=[])
        return []

    def _add_still(self, image: np.ndarray) -> None:
        """Adds a frame of the dice at rest to those since the last motion. A still roll's frames differ only in the
        camera's sensor noise, which in dim light hides the pips of small dice; their mean holds 1/sqrt(n) of it.
        bench/vision.py's generated scenes read as rolls, each the mean of 6 frames of fresh noise (--still-frames 6)
        rather than one: in dim light (--light dim, 100 scenes) 522 dice of 600 read rather than 477, 8 wrong either
        way; under every light (200 scenes) 1,064 of 1,200 rather than 1,059, 16 wrong rather than 7, of which 8 are the
        colours of three rolls not named as the set (a die short, one over, a naming in doubt: colour.name_as_set then
        names each die alone, and the table is asked to re-roll); of its 100 scenes with a die cocked, 494 read rather
        than 487, cocked dice given a value 26 rather than 23. The reader's thresholds were set on those scenes' single
        frames: on 100 scenes never tuned on (seeds 200-299) 539 read and 1 wrong against 529.8 and 2.3 for one frame
        (the mean over six frames each), on 100 with a die cocked (seeds 100-199) 505 read rather than 499.8, cocked
        dice given a value 28 either way. bench/tracker.py --films 3: 19 rolls of 21 either way, the last motion to the
        event at most 0.40 s rather than 0.53; with the rendered films' room dimmed (--light-level 0.06) 19 rather than
        18. bench/table.py (every frame with noise of its own): calibrated and named together 91 rolls of 100 either
        way, its cocked rolls announced 2 rather than 1; uncalibrated and named together 89 rather than 90, cocked 0
        rather than 1 (scripts outside the repository). Waiting longer for more frames would not read the films' dice
        left unread: in the four of their rolls held still 24 frames or more, the mean of 24 frames read none of the
        five such dice that the mean of 12 left unread, each as unsure as before (0.39-0.70). Those tops mirror the
        lamp; noise is not what hides their pips."""
        if self._still_frames == 0 or self._still_sum.shape != image.shape:
            self._still_sum, self._still_frames = image.astype(np.float32), 1
        else:
            cv2.accumulate(image, self._still_sum)
            self._still_frames += 1

    def _still_mean(self) -> np.ndarray:
        return cv2.convertScaleAbs(self._still_sum, alpha=1.0 / self._still_frames)

    def _read(self, image: np.ndarray) -> list[DieReading] | None:
        self.frames_read += 1
        # The dice in play are one roll of a known set: the reader names their colours together.
        in_play = {colour: QWIXX_ROLL[colour] for colour in ("white",) + self._colours_in_play}

        def dice_in_play(dice_set: dict[str, int]) -> list[DieReading]:
            return [r for r in self.read_dice(image, self._frame_calibration, dice_set) if r.colour in in_play]

        try:
            readings = dice_in_play(in_play)
            named = Counter(r.colour for r in readings)
            if len(in_play) < len(QWIXX_ROLL) and any(named[colour] > count for colour, count in in_play.items()):
                # A closed colour's die left on the table, named as a colour in play for want of its own (a yellow
                # die unread, taken for a third white one): read as the whole set, it is named and left out.
                readings = dice_in_play(QWIXX_ROLL)
        except Exception as error:  # a broken frame must never stop the table
            log.warning("reader failed on a frame: %s", error)
            return None
        return readings

    def _judge(self, t: float, readings: list[DieReading], flickering: list[DieReading]) -> list[RollEvent]:
        self._settling = False
        self._last_read, self._agreed = None, False
        before, self.on_table = self.on_table, readings
        self._learn_die_size(readings)
        first = not self._judged_once
        self._judged_once = True
        if first or not self._moved(readings, before):
            # The start, a hand over still dice, dice being picked up: no roll.
            self.state = "settled" if readings else "waiting"
            return []
        problems = self._problems(readings, flickering)
        self.state = "settled"
        order = {colour: index for index, colour in enumerate(QWIXX_COLOURS)}
        dice = tuple(sorted(readings, key=lambda r: (order[r.colour], r.center[0], r.center[1])))
        event = RollEvent("problem" if problems else "roll-settled", t, dice, tuple(problems))
        if not problems:
            self.last_roll = event
        return [event]

    def _problems(self, readings: list[DieReading], flickering: list[DieReading]) -> list[Problem]:
        problems = []
        for reading in readings:
            if reading.problem == "cocked":
                problems.append(Problem(reading.colour, "cocked", reading.center))
            elif reading.value is None:
                problems.append(Problem(reading.colour, "unreadable", reading.center, reading.problem))
            elif any(reading is d for d in flickering):
                problems.append(Problem(reading.colour, "unreadable", reading.center,
                                        "its reading changes from frame to frame"))
            elif self._frame_calibration is not None and not self._frame_calibration.in_play_area(reading.center):
                problems.append(Problem(reading.colour, "off-tray", reading.center))
        for colour in ("white",) + self._colours_in_play:
            found = sorted((r for r in readings if r.colour == colour), key=lambda r: -r.confidence)
            expected = QWIXX_ROLL[colour]
            problems += [Problem(colour, "missing")] * max(0, expected - len(found))
            problems += [Problem(colour, "extra", r.center) for r in found[expected:]]
        return problems

    # -- comparing readings ----------------------------------------------------------------------

    def _learn_die_size(self, readings: list[DieReading]) -> None:
        if self._frame_calibration is not None:
            return
        edges = [r.edge for r in readings if r.edge > 0]
        if edges:
            self._die_size = float(np.median(edges))

    def _same_die(self, a: DieReading, b: DieReading) -> bool:
        return (
            a.colour == b.colour
            and a.value == b.value
            and a.problem == b.problem
            and math.dist(a.center, b.center) <= self._same_place()
        )

    def _moved(self, readings: list[DieReading], before: list[DieReading]) -> bool:
        """Whether a die now lies where no die lay `before`."""
        return any(all(math.dist(r.center, b.center) > self._same_place() for b in before) for r in readings)

    def _same_place(self) -> float:
        # Two dice lie at least a die apart, so half a die tells them apart, and it allows for the
        # reader placing a die that touches another a little differently from frame to frame.
        return 0.5 * self._die_size

    def _unmatched(self, readings: list[DieReading], others: list[DieReading]) -> list[DieReading]:
        """The readings with no die of the same colour and face at the same place among `others`."""
        free = list(others)
        unmatched = []
        for reading in readings:
            match = next((o for o in free if self._same_die(reading, o)), None)
            if match is None:
                unmatched.append(reading)
            else:
                free.remove(match)
        return unmatched
