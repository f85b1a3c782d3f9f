"""Rolls as films: dice thrown onto the table, tumbling in and settling, hands reaching in, with the truth.

A `Film` is a timeline of scenes at a frame rate, built step by step (`hold`, `throw`, `pick_up`,
`hand_over`), and the rolls a tracker should report (`RollTruth`). Rendering is separate:
`frames(film, render)` renders the film's frames, each with sensor noise of its own as a camera's are (or each
distinct scene once, held for as many frames as the film says). `score` compares a tracker's events with the truth;
`perfect_readings` is what a perfect reader would say of a scene, and `ScriptedReader` says it of a film's frames, or
of any image like one of them; `seen_as_recorded(film, render)` is the truth as the frames show it (a die whose pips
do not show is for no reader to read, so its roll must be sent back).

The motion is made up, not simulated: each die flies in from one side along a decelerating path,
bouncing lower and lower and spinning about a random axis, and its spin runs out exactly at its
resting pose. Good enough to look like a throw at 15-30 frames per second, and the truth is exact.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator, Mapping, Sequence

import cv2
import numpy as np

from synth.dice import DIE_MM
from synth.generate import lean_against
from synth.geometry import Camera, Pose, quat_from_axis_angle, quat_mul
from synth.render import still_frame
from synth.scene import TABLE_KINDS, Clutter, Die, Effects, Light, Scene, Table, Tray

QWIXX_SIX = ("white", "white", "red", "yellow", "green", "blue")


# Where the dice of table_scene's rolls land, mm (inside the tray when there is one).
TABLE_AREA = (-100.0, -60.0, 100.0, 60.0)


@dataclass(frozen=True)
class RollTruth:
    """What the tracker should report for one physical roll (and its re-rolls of single dice)."""

    last_motion: float  # seconds: the first frame with every die at rest
    dice: tuple[tuple[str, int | None], ...]  # (colour, value) of each die in play; None: cocked
    event: str  # "roll-settled", or "problem" when a die rests cocked or its pips cannot be seen
    hidden: tuple[str, ...] = ()  # colours of the flat dice whose pips do not show in the frame (seen_as_recorded)

    @property
    def white(self) -> tuple[int, int]:
        return tuple(sorted(v for c, v in self.dice if c == "white"))

    @property
    def colours(self) -> dict[str, int]:
        return {c: v for c, v in self.dice if c != "white" and v is not None}

    @property
    def colours_in_play(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c for c, _ in self.dice if c != "white"))

    def to_json(self) -> dict:
        out = {"last_motion": round(self.last_motion, 3), "event": self.event, "dice": [[c, v] for c, v in self.dice]}
        return out | {"hidden": list(self.hidden)} if self.hidden else out

    @classmethod
    def from_json(cls, data: dict) -> "RollTruth":
        return cls(float(data["last_motion"]), tuple((c, v) for c, v in data["dice"]), data["event"],
                   tuple(data.get("hidden", ())))


@dataclass
class Film:
    base: Scene  # camera, light, table, effects; its dice and clutter are replaced
    fps: float = 15.0
    seed: int = 0
    shots: list[tuple[float, Scene]] = field(default_factory=list)  # (time, scene) of every frame
    rolls: list[RollTruth] = field(default_factory=list)
    on_table: tuple[Die, ...] = ()

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    @property
    def t(self) -> float:
        return len(self.shots) / self.fps

    def _shoot(self, dice, clutter=()) -> None:
        self.shots.append((self.t, replace(self.base, dice=tuple(dice), clutter=tuple(clutter))))

    def hold(self, seconds: float) -> None:
        """Nothing moves."""
        still = replace(self.base, dice=tuple(self.on_table), clutter=())
        for _ in range(round(seconds * self.fps)):
            self.shots.append((self.t, still))

    def resting_dice(self, values, colours=QWIXX_SIX, area=(-110, -70, 110, 70), apart=1.9,
                     clear_of: tuple[Die, ...] = ()) -> list[Die]:
        """Dice lying flat at random places in `area` (x0, y0, x1, y1 mm), at least `apart` dice apart, and none with
        its centre within an edge of a die `clear_of` (one still on the table where some are re-rolled), which it
        would pass through."""
        placed: list[Die] = []
        for colour, value in zip(colours, values):
            for _ in range(500):
                x, y = self.rng.uniform(area[0], area[2]), self.rng.uniform(area[1], area[3])
                if (all(math.dist((x, y), d.pose.position[:2]) > apart * DIE_MM for d in placed)
                        and all(math.dist((x, y), d.pose.position[:2]) > DIE_MM for d in clear_of)):
                    break
            placed.append(Die.resting(colour, x, y, int(value), float(self.rng.uniform(0, 90)), seed=len(placed)))
        return placed

    def throw(self, landing: list[Die], from_side: str = "left") -> RollTruth:
        """The `landing` dice fly in and come to rest where they are given; dice already on the table
        that are not thrown stay put. Records and returns the roll's truth."""
        starts, durations, spins = [], [], []
        direction = {"left": (-1, 0), "right": (1, 0), "near": (0, -1), "far": (0, 1)}[from_side]
        for die in landing:
            distance = self.rng.uniform(160, 260)
            x, y, _ = die.pose.position
            starts.append((x + direction[0] * distance + self.rng.uniform(-30, 30),
                           y + direction[1] * distance + self.rng.uniform(-30, 30), 45.0))
            durations.append(self.rng.uniform(0.7, 1.3))
            axis = self.rng.normal(size=3)
            spins.append((axis / np.linalg.norm(axis), self.rng.uniform(540, 1080)))
        thrown_ids = {id(d) for d in landing}
        staying = [d for d in self.on_table if id(d) not in thrown_ids]
        steps = math.ceil(max(durations) * self.fps)
        for step in range(1, steps + 1):
            moving = [
                _in_flight(die, start, min(1.0, step / (duration * self.fps)), spin, 1 / (duration * self.fps), self.fps)
                for die, start, duration, spin in zip(landing, starts, durations, spins)
            ]
            self._shoot(staying + moving)
        self.on_table = tuple(staying + list(landing))
        truth = RollTruth(
            last_motion=self.t - 1 / self.fps,
            dice=tuple((d.colour, d.value) for d in self.on_table),
            event="problem" if any(d.value is None for d in self.on_table) else "roll-settled",
        )
        self.rolls.append(truth)
        return truth

    def hand_over(self, seconds: float = 1.0, from_side: str = "near", take: tuple[Die, ...] = ()) -> None:
        """A hand reaches in over the tray and back out; dice in `take` are gone when it leaves.

        The hand moves at half the frame rate (each pose shown twice): a hand is by far the dearest
        thing to render, and a camera blurs it anyway."""
        yaw = {"near": 90.0, "far": -90.0, "left": 0.0, "right": 180.0}[from_side]
        reach = np.array([math.cos(math.radians(yaw)), math.sin(math.radians(yaw))])
        target = np.mean([d.pose.position[:2] for d in take], axis=0) if take else self.rng.uniform(-60, 60, 2)
        poses = max(2, round(seconds * self.fps / 2))
        look = int(self.rng.integers(1 << 16))
        remaining = list(self.on_table)
        previous = None
        for step in range(poses + 1):
            phase = step / poses
            out = 1 - math.sin(math.pi * phase)  # 1 outside the frame, 0 at the target
            palm = target - reach * out * 420
            velocity = (0.0, 0.0, 0.0) if previous is None else (*((palm - previous) * self.fps / 2), 0.0)
            previous = palm
            fingers = palm + reach * 60
            taken = {id(d) for d in take if phase >= 0.5 or math.dist(d.pose.position[:2], fingers) < 70}
            remaining = [d for d in remaining if id(d) not in taken]
            hand = Clutter("hand", Pose.at(palm[0], palm[1], 70.0 - 40 * (1 - out), yaw), velocity=velocity, seed=look)
            scene = replace(self.base, dice=tuple(remaining), clutter=(hand,))
            for _ in range(2):
                self.shots.append((self.t, scene))
        self.on_table = tuple(remaining)

    def pick_up(self, seconds: float = 0.8) -> None:
        """The roller gathers every die off the table."""
        self.hand_over(seconds, from_side=str(self.rng.choice(["near", "left", "right"])), take=self.on_table)

    def cocked_against(self, die: Die, colour: str, tilt_deg: float = 28.0, seed: int = 0, face: int = 1) -> Die:
        """A die of `colour` resting tilted against `die`'s side (its top leaning away from it), `face` nearest the
        camera: a cocked die has no value, but a reader must not take that face for one."""
        x, y, _ = die.pose.position
        return lean_against(Die.resting(colour, x + 1.3 * DIE_MM, y, face, seed=seed), die, tilt_deg)


def table_scene(seed: int, size: tuple[int, int] = (1280, 720)) -> Scene:
    """A table as a Pi camera above it sees it, drawn from `seed`: its kind, the lamp's colour and place, the camera's
    height (dice of 22-30 pixels at 1280x720), tilt and white balance; no dice. bench/table.py's tables."""
    rng = np.random.default_rng([seed, 7])
    azimuth = rng.uniform(0, 2 * np.pi)
    kelvin = float(rng.uniform(2300, 6500))
    light = Light(
        position=(float(900 * np.cos(azimuth)), float(900 * np.sin(azimuth)), float(rng.uniform(900, 1800))),
        kelvin=kelvin, size_mm=float(rng.uniform(20, 300)), ambient=float(rng.uniform(0.2, 0.6)),
        ambient_kelvin=kelvin + float(rng.uniform(0, 1500)), level=float(rng.choice([1.0, 0.6, 0.25])),
    )
    tray = Tray(size_mm=(300.0, 210.0)) if rng.random() < 0.4 else None
    camera = Camera(*size, height_mm=Camera.height_for_die_px(float(rng.uniform(22, 30)), *size),
                    tilt_deg=float(rng.uniform(0, 10)), azimuth_deg=float(rng.uniform(0, 360)))
    return Scene(camera=camera, light=light, table=Table(str(rng.choice(TABLE_KINDS)), seed=seed, tray=tray),
                 effects=Effects(seed=seed, auto_white_balance=float(rng.uniform(0.1, 0.9))))


def laid_apart(base: Scene, table: int) -> Scene:
    """`base` (table_scene(table)) with the six dice lying apart, as calibration asks for them."""
    return replace(base, dice=tuple(Film(base, seed=table).resting_dice([6, 5, 4, 3, 2, 1], area=TABLE_AREA,
                                                                         apart=2.5)))


def table_roll(base: Scene, table: int, index: int) -> Scene:
    """bench/table.py's roll `index` on `base` (table_scene(table)): the six dice resting where they fell, touching
    allowed."""
    film = Film(base, seed=table * 1000 + index)
    values = [int(v) for v in film.rng.integers(1, 7, 6)]
    return replace(base, dice=tuple(film.resting_dice(values, area=TABLE_AREA, apart=1.05)))


def cocked_table_roll(base: Scene, table: int, index: int) -> Scene:
    """bench/table.py's roll `index` with a die cocked on `base` (table_scene(table)): one coloured die (red, yellow,
    green, blue in turn) rests cocked against another, any face up. No announcement of such a roll is right."""
    film = Film(base, seed=table * 1000 + 500 + index)
    dice = film.resting_dice([int(v) for v in film.rng.integers(1, 7, 6)], area=TABLE_AREA, apart=1.9)
    lean = 2 + (table + index) % 4  # QWIXX_SIX's order: white, white, red, yellow, green, blue
    support = (lean + 1 + index % 5) % 6  # any other die: never the leaning one itself
    dice[lean] = film.cocked_against(dice[support], dice[lean].colour, float(film.rng.uniform(15, 40)),
                                     seed=table * 10 + index, face=int(film.rng.integers(1, 7)))
    return replace(base, dice=tuple(dice))


def training_roll(seed: int, rng) -> Scene:
    """A roll for the networks to learn from: the six dice as bench/table.py rolls them (flat, touching allowed) on
    table_scene(seed), in half of them one leaning on another where it touches no third die."""
    base = table_scene(seed)
    film = Film(base, seed=seed)
    dice = film.resting_dice([int(v) for v in rng.integers(1, 7, 6)], area=TABLE_AREA, apart=1.05)
    if rng.random() < 0.5:
        support, lean = (int(k) for k in rng.choice(6, 2, replace=False))
        leaning = film.cocked_against(dice[support], dice[lean].colour, float(rng.uniform(15, 40)), seed=lean,
                                      face=int(rng.integers(1, 7)))
        if all(math.dist(leaning.pose.position[:2], die.pose.position[:2]) > 1.2 * DIE_MM
               for k, die in enumerate(dice) if k not in (support, lean)):
            dice[lean] = leaning
    return replace(base, dice=tuple(dice))


def _in_flight(die: Die, start, progress: float, spin, step: float, fps: float) -> Die:
    """`die` on its way from `start` to its resting pose, `progress` 0..1 of its flight."""
    def place(p: float):
        eased = 1 - (1 - p) ** 3
        end = np.array(die.pose.position)
        position = np.array(start) + (end - np.array(start)) * eased
        position[2] = end[2] + 30 * abs(math.sin(math.pi * 2.5 * p)) * (1 - p) ** 2
        return position, eased

    if progress >= 1:
        return die
    position, eased = place(progress)
    before, _ = place(max(0.0, progress - step))
    axis, total = spin
    rotation = quat_mul(quat_from_axis_angle(axis, total * (1 - eased)), die.pose.rotation)
    velocity = tuple(float(v) for v in (position - before) * fps)
    return replace(die, pose=Pose(tuple(float(v) for v in position), rotation), velocity=velocity)


def frames(film: Film, render: Callable[[Scene], np.ndarray],
           sensor_noise: bool = True) -> Iterator[tuple[float, np.ndarray]]:
    """(t, BGR frame) for every frame of the film, `render` drawing a scene. With `sensor_noise` every frame has sensor
    noise of its own, as a camera's frames have (synth.render.still_frame); without, each distinct scene is drawn once
    and held (for a recording: H.264 then stores a still stretch at almost no cost)."""
    last_scene, last_image = None, None
    for index, (t, scene) in enumerate(film.shots):
        if sensor_noise:
            yield t, render(still_frame(scene, index))
            continue
        if scene is not last_scene and scene != last_scene:
            last_scene, last_image = scene, render(scene)
        yield t, last_image


@dataclass
class Score:
    rolls: int = 0  # rolls in the truth
    correct: int = 0  # reported once, on time, with the right event and values
    wrong: int = 0  # reported with other values or the wrong event
    announced_wrong: int = 0  # of those, values announced that are not the dice's: the worst outcome
    missed: int = 0
    extra: int = 0  # settled or problem events that match no roll
    latencies: list[float] = field(default_factory=list)  # seconds from last motion to the event
    # the same, to when the tracker had the event out, a live camera's frames taken in turn (see `score`)
    live_latencies: list[float] = field(default_factory=list)

    def __str__(self) -> str:
        latency = f"median {np.median(self.latencies):.2f} s, max {max(self.latencies):.2f} s" if self.latencies else "none"
        live = f" ({max(self.live_latencies):.2f} s at most counting the tracker's time)" if self.live_latencies else ""
        return (f"{self.correct}/{self.rolls} rolls correct, {self.wrong} wrong ({self.announced_wrong} announced "
                f"with wrong values), {self.missed} missed, "
                f"{self.extra} extra; last motion to event: {latency}{live}")


def score(events, rolls: list[RollTruth], window: float = 2.0, lags: Mapping[float, float] | None = None) -> Score:
    """Compare a tracker's events with a film's truth. Each roll must be answered by exactly one
    settled or problem event within `window` seconds after its last motion. `lags` (see `live_lags`), when given, adds
    to each latency how long after its frame was taken a live tracker had the event out (`live_latencies`)."""
    result = Score(rolls=len(rolls))
    answers = [e for e in events if e.event in ("roll-settled", "problem")]
    used = set()
    for truth in rolls:
        matching = [i for i, e in enumerate(answers)
                    if i not in used and truth.last_motion - 0.05 <= e.t <= truth.last_motion + window]
        if not matching:
            result.missed += 1
            continue
        index = matching[0]
        used.add(index)
        event = answers[index]
        result.latencies.append(event.t - truth.last_motion)
        if lags is not None:
            result.live_latencies.append(event.t - truth.last_motion + lags[event.t])
        right = event.event == truth.event and (
            (event.white == truth.white and event.colours == truth.colours)
            if truth.event == "roll-settled"
            else _problems_right(event, truth)
        )
        result.correct += right
        result.wrong += not right
        result.announced_wrong += not right and event.event == "roll-settled"
    result.extra = len(answers) - len(used)
    return result


def _problems_right(event, truth: RollTruth) -> bool:
    """Whether a problem event sends back the roll's cocked dice as cocked, and its dice whose pips do not show
    (whatever it takes them for), and calls no other die cocked."""
    hidden = set(truth.hidden)
    cocked = {p.colour for p in event.problems if p.kind == "cocked"} - hidden
    return cocked == {c for c, v in truth.dice if v is None} and hidden <= {p.colour for p in event.problems}


def seen_as_recorded(film: Film, render: Callable[[Scene], tuple]) -> list[RollTruth]:
    """The film's rolls as its frames show them (`render`: synth.render): a roll with a flat die whose pips do not
    stand out from its top in the frame of its last motion (synth's truth calls it "occluded") is a problem too,
    since no reader could tell that die's value."""
    rolls = []
    for roll in film.rolls:
        scene = next(scene for t, scene in film.shots if t >= roll.last_motion - 1e-6)
        hidden = tuple(d.colour for d in render(scene)[1].in_frame() if d.problem == "occluded")
        rolls.append(replace(roll, hidden=hidden, event="problem") if hidden else roll)
    return rolls


def varied_film(seed: int, width: int = 960, height: int = 540, fps: float = 15.0, light_level: float = 1.0) -> Film:
    """A film for tests and benchmarks: a table, light and camera drawn from `seed`; three throws
    (the second with the same values as the first), a hand passing over still dice, a cocked die
    and its re-roll. `light_level` is the room's (Light.level: synth's "dim" light draws 0.03-0.12)."""
    from synth.geometry import Camera
    from synth.scene import Effects, Light, Table, Tray

    rng = np.random.default_rng([seed, 4])
    kind = str(rng.choice(["wood", "felt", "cloth", "dark", "white", "paper"]))
    tray = Tray(size_mm=(320.0, 230.0)) if rng.random() < 0.5 else None
    base = Scene(
        camera=Camera(width, height, height_mm=Camera.height_for_die_px(float(rng.uniform(22, 30)), width, height),
                      tilt_deg=float(rng.uniform(0, 12)), azimuth_deg=float(rng.uniform(0, 360))),
        light=Light(kelvin=float(rng.uniform(3200, 6000)), size_mm=float(rng.uniform(40, 200)),
                    ambient=float(rng.uniform(0.3, 0.6)), level=light_level),
        table=Table(kind, seed=seed, tray=tray),
        effects=Effects(seed=seed),
    )
    film = Film(base, fps=fps, seed=seed)
    film.hold(1.0)
    values = [int(v) for v in rng.integers(1, 7, 6)]
    film.throw(film.resting_dice(values), from_side="left")
    film.hold(1.5)
    film.pick_up()
    film.hold(0.3)
    film.throw(film.resting_dice(values), from_side="near")  # the same values again: still a new roll
    film.hold(1.2)
    film.hand_over(0.8, from_side="right")
    film.hold(1.2)
    film.pick_up()
    landing = film.resting_dice([int(v) for v in rng.integers(1, 7, 6)], apart=2.6)
    red = next(d for d in landing if d.colour == "red")
    landing = [film.cocked_against(red, "yellow", seed=9) if d.colour == "yellow" else d for d in landing]
    film.throw(landing, from_side="right")
    film.hold(1.5)
    cocked = next(d for d in film.on_table if d.colour == "yellow")
    film.hand_over(0.8, from_side="near", take=(cocked,))
    again = film.resting_dice([int(rng.integers(1, 7))], ["yellow"], area=(-90, -60, 90, 60), clear_of=film.on_table)
    film.throw(again, from_side="near")
    film.hold(1.2)
    return film


def track(tracker, frames, truth: list[RollTruth]) -> tuple[list, list[float]]:
    """Feed `frames` ((t, image) pairs) to a roll tracker, telling it the colours in play shortly
    before each roll as the game does when a colour closes. Returns the events and the seconds the
    tracker spent on each frame."""
    import time

    events, spent = [], []
    rolls = iter(truth)
    upcoming = next(rolls, None)
    for t, image in frames:
        if upcoming is not None and t >= upcoming.last_motion - 2.0:
            tracker.colours_in_play = upcoming.colours_in_play
            upcoming = next(rolls, None)
        started = time.perf_counter()
        events += tracker.feed(t, image)
        spent.append(time.perf_counter() - started)
    return events, spent


def live_lags(times: Sequence[float], spent: Sequence[float]) -> dict[float, float]:
    """For each frame time, how long after it was taken a tracker that handles every frame in turn, starting each when
    it is taken or when the one before is done, is done with it (`spent`: the seconds each took, as `track` gives).
    An upper bound for a live camera, which drops the frames that come while the tracker is busy."""
    lags, done = {}, -math.inf
    for t, seconds in zip(times, spent):
        done = max(t, done) + seconds
        lags[t] = done - t
    return lags


def load_truth(path) -> list[RollTruth]:
    import json
    from pathlib import Path

    return [RollTruth.from_json(r) for r in json.loads(Path(path).read_text())["rolls"]]


def perfect_readings(scene: Scene) -> list:
    """What a perfect reader would say of `scene`'s frame, found from the scene alone (no rendering):
    each die's colour, value (None and `cocked` when tilted, `blurred` while it moves) and place.
    Dice under a hand are not seen."""
    from vision.readings import DieReading

    camera = scene.camera
    hands = [c for c in scene.clutter if c.kind == "hand"]
    readings = []
    for die in scene.dice:
        x, y, z = die.pose.position
        if any(math.dist((x, y), hand.pose.position[:2]) < 110 for hand in hands):
            continue
        center = camera.project(np.array([x, y, z + DIE_MM / 2]))
        half = camera.pixels_per_mm_at((x, y, z)) * DIE_MM / 2
        if not (half <= center[0] <= camera.width - half and half <= center[1] <= camera.height - half):
            continue
        corners = tuple((float(center[0] + dx * half), float(center[1] + dy * half))
                        for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))
        problem = "blurred" if die.moving else ("cocked" if die.value is None else None)
        readings.append(DieReading(die.colour, None if problem else die.value, 1.0,
                                   (float(center[0]), float(center[1])), corners, problem))
    return readings


class ScriptedReader:
    """A perfect reader for a film's frames ((t, image) pairs, each showing the scene of `scenes` at its place; it
    keeps a small copy of each): what perfect_readings says of the scene of the frame most like the image it is
    given. The tracker reads the mean of a still roll's frames, an image of its own, as like those frames as they are
    like each other."""

    def __init__(self, frames, scenes) -> None:
        self._looks = np.stack([self._look(image) for _, image in frames])
        self._scenes = list(scenes)
        if len(self._scenes) != len(self._looks):
            raise ValueError(f"{len(self._looks)} frames but {len(self._scenes)} scenes")

    def __call__(self, image, calibration=None, dice_set=None) -> list:
        differences = np.abs(self._looks - self._look(image)).reshape(len(self._looks), -1).sum(axis=1)
        return perfect_readings(self._scenes[int(np.argmin(differences))])

    @staticmethod
    def _look(image: np.ndarray) -> np.ndarray:
        """A grey copy an eighth as large, enough to tell a film's frames apart."""
        height, width = image.shape[:2]
        small = cv2.resize(image, (max(1, width // 8), max(1, height // 8)), interpolation=cv2.INTER_AREA)
        return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.int32)
