"""Benchmark of the reader as the table uses it: calibrated as a user would, rolls judged by the tracker.

    python bench/table.py [--tables N] [--rolls R] [--cocked C]

For each of N generated tables (seeds 0..N-1 draw the table, the lamp's colour, the camera's white balance, height
and tilt), renders the empty table and the six dice lying apart, and learns a calibration from them with the real
reader (calibration.learn, as `qwixx-table calibrate` does; where it finds the coloured dice washed out, the table
is shown again with the camera's exposure LOWER_EXPOSURE stops lower, as its message advises, for the calibration
and every roll). Then R rolls (the six dice resting where they fell, touching allowed) are shown to
vision.RollTracker between frames of the empty table, each frame with sensor noise of its own (NOISE_DRAWS), four
ways: without and with the calibration, each with the reader naming a roll's colours together (as the tracker asks)
or one die at a time. Prints per way how many rolls were announced right, announced wrong (the worst outcome),
answered with a request to re-roll some dice, or missed, what the dice behind those requests were (cocked, missing,
unreadable and why, one too many), and the reader's median time per read of dice at rest. Then C rolls per table in
which one coloured die rests cocked against another, any face up: each of those must be sent back, and one announced
is announced wrong.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration import CalibrationError  # noqa: E402
from calibration.learn import WashedOut, learn  # noqa: E402
from synth.render import render, still_frame  # noqa: E402
from synth.rolls import cocked_table_roll, laid_apart, table_roll, table_scene  # noqa: E402
from synth.scene import Scene  # noqa: E402
from synth.truth import Truth  # noqa: E402
from vision import RollTracker, read_dice  # noqa: E402

FPS = 15.0
# What a user does when calibration finds the coloured dice washed out, as its message advises: set the camera's
# `exposure` this many stops lower (synth's Effects.exposure_ev is the same compensation of auto exposure).
LOWER_EXPOSURE = -2.0
OUTCOMES = ("announced right", "announced wrong", "re-roll asked", "missed")
# A camera's frames of a still table differ in their sensor noise, and the tracker reads their mean: each roll (and
# the empty table) is shown as this many frames of noise of its own, in turn.
NOISE_DRAWS = 8


def frames_of(scene: Scene) -> tuple[list[np.ndarray], Truth]:
    """NOISE_DRAWS frames of the still scene, and its truth."""
    shots = [render(still_frame(scene, index)) for index in range(NOISE_DRAWS)]
    return [frame for frame, _ in shots], shots[0][1]


def rolls_on(base: Scene, table: int, count: int):
    """(frames, {colour: sorted values}) of the table's first `count` rolls (synth.rolls.table_roll)."""
    rolls = []
    for index in range(count):
        images, truth = frames_of(table_roll(base, table, index))
        dice = truth.in_frame()
        rolls.append((images, {colour: sorted(d.value for d in dice if d.colour == colour) for colour in
                               {d.colour for d in dice}}))
    return rolls


def cocked_rolls_on(base: Scene, table: int, count: int):
    """(frames, None) of the table's first `count` rolls with a die cocked (synth.rolls.cocked_table_roll)."""
    return [(frames_of(cocked_table_roll(base, table, index))[0], None) for index in range(count)]


def judge(empty: list[np.ndarray], rolls, reader, calibration, read_times: list[float]) -> tuple[Counter, Counter]:
    """Each roll shown to a fresh tracker after the empty table (frames_of each), as a camera at FPS would show it:
    the count of each of OUTCOMES, and of the problems behind the re-roll requests. Adds to `read_times` the processor
    seconds of each read that found dice."""
    counts = Counter({outcome: 0 for outcome in OUTCOMES})
    problems = Counter()

    def timed_reader(image, calibration=None, dice_set=None):
        start = time.process_time()
        readings = reader(image, calibration, dice_set)
        if readings:
            read_times.append(time.process_time() - start)
        return readings

    tracker = RollTracker(read_dice=timed_reader, calibration=calibration)
    t = 0.0
    for images, truth in rolls:
        answers = []
        for frames, seconds in ((empty, 0.6), (images, 1.8)):
            for index in range(round(seconds * FPS)):
                answers += [e for e in tracker.feed(t, frames[index % len(frames)])
                            if e.event in ("roll-settled", "problem")]
                t += 1 / FPS
        if not answers:
            counts["missed"] += 1
        elif answers[0].event == "problem":
            counts["re-roll asked"] += 1
            problems.update(p.kind + (f" ({p.reason})" if p.reason else "") for p in answers[0].problems)
        else:
            event = answers[0]
            announced = {"white": sorted(event.white)} | {colour: [value] for colour, value in event.colours.items()}
            counts["announced right" if announced == truth else "announced wrong"] += 1
    return counts, problems


def calibrate_like_a_user(base: Scene, table: int):
    """(the table as the camera is set for it, the calibration learned from its empty frame and the dice laid apart or
    None where refused), as a user calibrates: once more with the exposure LOWER_EXPOSURE stops lower when the dice
    come out washed out."""
    try:
        return base, learn(render(base)[0], render(laid_apart(base, table))[0], read_dice)
    except WashedOut as error:
        if base.effects.exposure_ev <= LOWER_EXPOSURE:
            print(f"table {table}: calibration refused: {error}")
            return base, None
        print(f"table {table}: the dice came out washed out: the camera's exposure set {-LOWER_EXPOSURE:g} stops lower")
        return calibrate_like_a_user(replace(base, effects=replace(base.effects, exposure_ev=LOWER_EXPOSURE)), table)
    except CalibrationError as error:
        print(f"table {table}: calibration refused: {error}")
        return base, None


def one_die_at_a_time(image, calibration=None, dice_set=None):
    return read_dice(image, calibration)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rolls", type=int, default=5, help="rolls per table")
    parser.add_argument("--cocked", type=int, default=5, help="rolls per table with a die cocked")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    ways = {
        "no calibration, one die at a time": (one_die_at_a_time, False),
        "no calibration, roll named together": (read_dice, False),
        "calibrated, one die at a time": (one_die_at_a_time, True),
        "calibrated, roll named together": (read_dice, True),
    }
    totals = {way: Counter() for way in ways}
    cocked_totals = {way: Counter() for way in ways}
    problems = {way: Counter() for way in ways}
    read_times: dict[str, list[float]] = {way: [] for way in ways}
    refused = 0
    for seed in range(args.tables):
        base, learned = calibrate_like_a_user(table_scene(seed), seed)
        refused += learned is None
        empty = frames_of(base)[0]
        rolls = rolls_on(base, seed, args.rolls)
        cocked = cocked_rolls_on(base, seed, args.cocked)
        line = []
        for way, (reader, calibrated) in ways.items():
            if calibrated and learned is None:
                continue
            counts, why = judge(empty, rolls, reader, learned if calibrated else None, read_times[way])
            totals[way] += counts
            problems[way] += why
            cocked_totals[way] += judge(empty, cocked, reader, learned if calibrated else None,
                                        read_times[way])[0]
            line.append(f"{counts['announced right']}/{args.rolls}")
        print(f"table {seed} ({base.table.kind}, {base.light.kelvin:.0f} K): right per way {', '.join(line)}", flush=True)
    print(f"\n{args.tables} tables, {args.rolls} rolls each; calibration refused on {refused}")
    for way, counts in totals.items():
        rolls = sum(counts.values())
        print(f"{way}: " + ", ".join(f"{outcome} {counts[outcome]}/{rolls}" for outcome in OUTCOMES))
        print("    dice behind the re-roll requests: "
              + (", ".join(f"{kind} {count}" for kind, count in problems[way].most_common()) or "none"))
        cocked = cocked_totals[way]
        print(f"    rolls with a die cocked: re-roll asked {cocked['re-roll asked']}/{sum(cocked.values())}, announced "
              f"(wrong) {cocked['announced wrong']}, missed {cocked['missed']}")
        if read_times[way]:
            print(f"    the reader: median {1000 * np.median(read_times[way]):.1f} ms processor time, one core, per "
                  f"read of dice at rest ({len(read_times[way])} reads of {base.camera.width}x{base.camera.height} "
                  "frames)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
