"""Scoring readings against labelled dice, as ../shared/dice-photos/README.md defines it.

Each labelled die is matched to the nearest reported die whose centre lies inside its box (one reported
die per labelled die); a labelled die without a box (labels.json leaves some dice without one) is matched by colour
and value among the reported dice left. A die is read when its value matches, and its colour too where the label
names one.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from vision.readings import DieReading

OUTCOMES = ("correct", "confident-wrong", "unreadable", "missed")


@dataclass(frozen=True)
class TruthDie:
    value: int | None
    bbox: tuple[float, float, float, float] | None  # x0, y0, x1, y1
    colour: str | None = None
    # Generated scenes say why a die may rightly go unread; the value is still given where it is known.
    problem: str | None = None
    size_px: float | None = None  # generated scenes: the mean length of the top face's edges in the image


def score(truth: list[TruthDie], readings: list[DieReading]) -> Counter:
    """Counts of OUTCOMES over the labelled dice, plus 'false' for reported dice that match none."""
    counts = Counter({outcome: 0 for outcome in OUTCOMES + ("false",)})
    counts.update(outcomes(truth, readings))
    counts["false"] = len(readings) - (len(truth) - counts["missed"])
    return counts


def outcomes(truth: list[TruthDie], readings: list[DieReading]) -> list[str]:
    """The outcome (one of OUTCOMES) of each labelled die, in order."""
    return [_outcome(die, reading) for die, reading in zip(truth, matched(truth, readings))]


def matched(truth: list[TruthDie], readings: list[DieReading]) -> list[DieReading | None]:
    """The reported die matched to each labelled die, in order (None where it was missed): the dice with a box by
    box, then those without one by label among the readings left."""
    boxed = [index for index, die in enumerate(truth) if die.bbox]
    unboxed = [index for index, die in enumerate(truth) if not die.bbox]
    by_box = _match_by_box([truth[i] for i in boxed], readings)
    matches = {boxed[i]: reading for i, reading in by_box.items()}
    left = [r for r in readings if not any(r is taken for taken in matches.values())]
    by_label = _match_by_label([truth[i] for i in unboxed], left)
    matches.update({unboxed[i]: reading for i, reading in by_label.items()})
    return [matches.get(index) for index in range(len(truth))]


def cocked_given_a_value(truth: list[TruthDie], readings: list[DieReading]) -> tuple[int, int]:
    """How many of the labelled dice resting cocked were given a value (ruling 9 has them re-rolled, so
    each is a wrong announcement), and how many rest cocked."""
    cocked = [outcome for die, outcome in zip(truth, outcomes(truth, readings)) if die.problem == "cocked"]
    return cocked.count("confident-wrong"), len(cocked)


def read_beside(truth: list[TruthDie], readings: list[DieReading]) -> Counter:
    """Of the labelled dice missed, those with a reading matched to no labelled die centred just outside their box
    (within half the die's size of it): 'other value', 'same value' or 'no value'. On an oblique photo a label's box
    holds the top face alone, and a reading of the die centred on a side face falls beside it: missed and false by
    the rules above, though a reading with another value there is most likely the die read wrong."""
    return Counter("no value" if reading.value is None else "same value" if reading.value == die.value
                   else "other value" for die, reading in readings_beside(truth, readings))


def readings_beside(truth: list[TruthDie], readings: list[DieReading]) -> list[tuple[TruthDie, DieReading]]:
    """Each labelled die missed with the reading read_beside finds beside its box, the nearest first taken."""
    matches = matched(truth, readings)
    free = [reading for reading in readings if not any(reading is match for match in matches)]
    pairs = []
    for die, match in zip(truth, matches):
        if match is not None or die.bbox is None or not free:
            continue
        x0, y0, x1, y1 = die.bbox
        margin = max(x1 - x0, y1 - y0) / 2
        center = ((x0 + x1) / 2, (y0 + y1) / 2)
        near = [r for r in free
                if x0 - margin <= r.center[0] <= x1 + margin and y0 - margin <= r.center[1] <= y1 + margin]
        if near:
            reading = min(near, key=lambda r: math.dist(r.center, center))
            free = [r for r in free if r is not reading]
            pairs.append((die, reading))
    return pairs


def full_set_named_wrong(truth: list[TruthDie], readings: list[DieReading], dice_set: dict[str, int]) -> bool:
    """Whether the readings name exactly the colours of `dice_set` (one roll of a known set, as the tracker reads it)
    while a labelled die among them is named another colour: once its values are all read, a roll announced wrong."""
    if Counter(reading.colour for reading in readings) != Counter(dice_set):
        return False
    return any(reading is not None and die.colour is not None and reading.colour != die.colour
               for die, reading in zip(truth, matched(truth, readings)))


def _outcome(die: TruthDie, reading: DieReading | None) -> str:
    """A die with a problem (cocked, cut off, ...) is read correctly when declined; one that is not
    cocked may also be read correctly by its true value."""
    if reading is None:
        return "missed"
    colour_right = die.colour is None or die.colour == reading.colour
    if reading.value is None:
        declined_rightly = die.value is None or die.problem is not None
        return "correct" if declined_rightly and colour_right else "unreadable"
    return "correct" if reading.value == die.value and colour_right and die.problem != "cocked" else "confident-wrong"


def _match_by_box(truth: list[TruthDie], readings: list[DieReading]) -> dict[int, DieReading]:
    pairs = []
    for t_index, die in enumerate(truth):
        x0, y0, x1, y1 = die.bbox
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for r_index, reading in enumerate(readings):
            x, y = reading.center
            if x0 <= x <= x1 and y0 <= y <= y1:
                pairs.append((math.hypot(x - cx, y - cy), t_index, r_index))
    return _greedy(pairs, readings)


def _match_by_label(truth: list[TruthDie], readings: list[DieReading]) -> dict[int, DieReading]:
    """Without boxes: pair equal (colour, value) first, then equal colour, then whatever is left."""
    pairs = []
    for t_index, die in enumerate(truth):
        for r_index, reading in enumerate(readings):
            same_colour = die.colour is None or die.colour == reading.colour
            cost = 0 if same_colour and die.value == reading.value else 1 if same_colour else 2
            pairs.append((cost, t_index, r_index))
    return _greedy(pairs, readings)


def _greedy(pairs, readings) -> dict[int, DieReading]:
    matches: dict[int, DieReading] = {}
    used: set[int] = set()
    for _, t_index, r_index in sorted(pairs):
        if t_index not in matches and r_index not in used:
            matches[t_index] = readings[r_index]
            used.add(r_index)
    return matches
