"""Learning a calibration from two frames: the empty table, and the six Qwixx dice lying apart on it.

The reader (passed in, so that this package needs nothing of vision's) runs without a calibration to
find the dice; their colours, size and pip contrast are then measured from the pixels. Where the
reader's own colour names do not make the Qwixx set (a warm lamp can make the yellow die look white),
the dice are named by what stays true under any lamp: the two white dice are the least coloured,
and red, yellow, green and blue follow one another round the hue circle.
"""
from __future__ import annotations

import datetime
import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from calibration.model import (Calibration, CalibrationError, DieColour, Exposure, delta_e, in_polygon, smoothed_lab,
                               to_lab, where_changed)

QWIXX_SET = ("white", "white", "red", "yellow", "green", "blue")
# Typical hue angles (degrees, CIELAB) of Qwixx's coloured dice under neutral light.
TYPICAL_HUE = {"red": 35.0, "yellow": 90.0, "green": 150.0, "blue": 270.0}
# Named by hue, a die further than this (degrees) from its colour's typical hue means the faces were not measured
# right (a die found where the table changed, measured half on its shadow): better no calibration than one that
# names every roll's dice wrong.
HUE_SLACK = 60.0
# Under a warm lamp the yellow die can look lighter than a white one: the white pair is sought among this many of
# the lightest faces (bench/table.py's tables 19 and 46, whose calibration a yellow face lighter than a white had
# refused).
LIGHTEST_FACES = 3
# A coloured die shows at least this chroma once the light's cast is taken away; a top washed out to white by
# over-exposure (lightness WASHED_OUT or more) shows none, and its hue is noise: no calibration rather than a wrong
# one (bench/table.py's dark table 41, whose green and blue tops measure L* 99 and chroma 2).
LEAST_CHROMA = 6.0
# Nor may a white die keep more than this chroma once the cast is taken away (a yellow die taken for white leaves
# the other white die blue).
MOST_WHITE_CHROMA = 15.0
WASHED_OUT = 95.0
# Two colours closer than this (Delta E) get a warning: the reader may mistake one for the other.
CLOSE_COLOURS = 15.0
# A coloured die learned this light and this dull (PALE_LIGHTNESS, PALE_CHROMA) has had its top bleached, most often by
# a lamp beside the camera that the top mirrors (rendered: bench/table.py's tables 3, 5 and 10 under such a lamp
# learned a red top of L* 93 and chroma 9, a yellow one of 99 and 17, a blue one of 82 and 10, each warned as like the
# white dice), where on tables 0-39 under their own lamps every coloured die learned L* 80 or more showed chroma 26
# or more (scripts outside the repository).
PALE_LIGHTNESS = 80.0
PALE_CHROMA = 20.0
FRAMES_AVERAGED = 8  # a camera's noise averaged away
# The reader's detector misses a die now and then (a dark die under a warm lamp); against the empty table
# every die stands out, so up to this many missing dice are looked for where the table changed.
MOST_MISSED = 2


@dataclass(frozen=True)
class FoundDie:
    """A die found where the table changed, for a die the reader missed: where it lies, nothing read."""
    center: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    colour: str = "other"
    confidence: float = 0.0


class WashedOut(CalibrationError):
    """The coloured dice came out white: the camera must take less light (or the dice lie on a lighter cloth)."""


def average(images: Sequence[np.ndarray]) -> np.ndarray:
    """One frame from a few of a still scene: the camera's noise averaged away."""
    return np.mean([image.astype(np.float32) for image in images], axis=0).round().astype(np.uint8)


def learn(
    empty_table: np.ndarray,
    dice: np.ndarray,
    read_dice: Callable[..., Sequence],
    exposure: Exposure | None = None,
    play_area: Sequence[tuple[float, float]] | None = None,
) -> Calibration:
    """A calibration from a frame of the empty table and one of the six dice apart on it.

    `exposure` is what the camera was locked at (None for cameras that cannot be set); `play_area`
    overrides the tray found on the empty table. Raises CalibrationError when the dice cannot be
    found; the returned calibration's `notes` hold warnings a person should see.
    """
    if empty_table.shape != dice.shape:
        raise CalibrationError("the empty-table and dice frames are of different sizes")
    height, width = dice.shape[:2]
    notes = []
    left_out = [r for r in read_dice(empty_table, None) if r.value is not None]
    if left_out:  # a note, not a refusal: a busy cloth can look like a die now and then
        notes.append(f"The empty table seemed to show {len(left_out)} {'die' if len(left_out) == 1 else 'dice'} "
                     f"({', '.join(f'{r.colour} {r.value}' for r in left_out)}): if dice were left on it, calibrate "
                     "again with the table clear for the first step.")
    found = [r for r in read_dice(dice, None) if len(r.corners) >= 3]
    if len(found) < 6:
        again = _read_with_the_empty_table(empty_table, dice, found, read_dice)
        if len(again) > len(found):
            notes.append(f"The reader found {len(again)} of the six dice only with the empty table to compare with "
                         f"({len(found)} without): a plainer cloth makes every roll easier to read.")
            found = again
    found = sorted(found, key=lambda r: -r.confidence)
    missed: list[FoundDie] = []
    if MOST_MISSED >= 6 - len(found) > 0:
        missed = _dice_the_reader_missed(empty_table, dice, found, 6 - len(found))
        if missed:
            notes.append(f"The reader found {len(found)} of the six dice; {len(missed)} more "
                         f"{'was' if len(missed) == 1 else 'were'} found where the table changed.")
        found += missed
    if len(found) < 6:
        raise CalibrationError(
            f"found {len(found)} dice, not 6: lay the two white dice and the red, yellow, green and "
            "blue ones apart from one another on the tray, top faces up"
        )
    found = found[:6] if len(found) == 6 else _most_die_like(found)
    looks = [_measure(dice, r.corners) for r in found]
    names = _completed_set([r.colour for r in found], [any(r is m for m in missed) for r in found])
    # The reader names a top washed out to white by its rim (vision.colour.name_by_rim), but a calibration needs the
    # tops' colours: a coloured die named right with a white top is measured again by hue, which refuses it.
    washed_out = any(name != "white" and face[0] >= WASHED_OUT and math.hypot(face[1], face[2]) < LEAST_CHROMA
                     for (face, _, _), name in zip(looks, names))
    if sorted(names) != sorted(QWIXX_SET) or washed_out:
        # What the reader took the dice for, should they be other dice than the Qwixx set (a colour twice, one lacking).
        order = list(dict.fromkeys(QWIXX_SET))
        seen = ", ".join(sorted(names, key=lambda name: order.index(name) if name in order else len(order)))
        try:
            names = _name_by_hue([face for face, _, _ in looks])
        except CalibrationError as error:
            raise type(error)(f"{error}. The reader took the dice for {seen}: the Qwixx dice are two white ones and "
                              "one each of red, yellow, green and blue") from None
        notes.append(
            "Without calibration the reader could not tell the dice colours apart under this light; "
            f"they were named by hue instead (the reader took them for {seen}: check that they are the Qwixx dice)."
        )
    colours = {}
    for name in dict.fromkeys(QWIXX_SET):
        measured = [look for look, n in zip(looks, names) if n == name]
        faces = np.array([m[0] for m in measured])
        spreads = np.array([m[1] for m in measured])
        # Spread over the faces of this colour: each face's own spread, and how far the faces differ.
        spread = np.sqrt((spreads**2).mean(axis=0) + faces.var(axis=0))
        colours[name] = DieColour(
            face=tuple(float(v) for v in faces.mean(axis=0)),
            spread=tuple(float(v) for v in spread),
            pip_contrast=float(np.mean([m[2] for m in measured])),
        )
    notes += close_colour_warnings(colours)
    # The top faces the reader outlines (its centring network's) are the dice's size: on bench/table.py's tables
    # 0-39, 0.97-1.05 of the true edge. Measured against the empty table instead, as before that network, a shadow
    # cast across a corner lengthened both sides: 1.0-1.43 of it, most on dark and felt tables.
    sizes = [_edge(r.corners) for r in found]
    if max(sizes) > 1.8 * min(sizes):
        notes.append("The dice look of very different sizes: check that all six are lying flat.")
    if play_area:
        problem = play_area_problem(play_area, (width, height), [(r.colour, r.center) for r in found])
        if problem:
            raise CalibrationError(problem)
    area = tuple(play_area) if play_area else find_play_area(empty_table, [r.center for r in found])
    return Calibration(
        resolution=(width, height),
        die_size=float(np.median(sizes)),
        colours=colours,
        play_area=tuple((float(x), float(y)) for x, y in area),
        empty_table=Calibration.encode_image(empty_table),
        exposure=exposure,
        created=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        notes=tuple(notes),
    )


def check(dice: np.ndarray, learned: Calibration, read_dice: Callable[..., Sequence]) -> tuple[list, str | None]:
    """What the reader sees of the six dice with the new calibration, and a warning when it does not read all
    six cleanly: a person should check the light and the camera before relying on it."""
    seen = list(read_dice(dice, learned))
    if sorted(r.colour for r in seen if r.value is not None) == sorted(QWIXX_SET):
        return seen, None
    blurred = sum(r.problem == "blurred" for r in seen)
    if blurred:
        return seen, (f"The reader does not yet read all six dice cleanly with it: {blurred} of them "
                      f"look{'s' * (blurred == 1)} blurred. Check that the camera is steady and focused on the table, "
                      "and that its lens is clean.")
    return seen, "The reader does not yet read all six dice cleanly with it: check the light and the camera."


def close_colour_warnings(colours: dict[str, DieColour]) -> list[str]:
    warnings = []
    for (a, first), (b, second) in itertools.combinations(colours.items(), 2):
        distance = delta_e(first.face, second.face)
        if distance < CLOSE_COLOURS:
            pale = [name for name, colour in ((a, first), (b, second)) if name != "white" and _pale(colour.face)]
            advice = (f"the {pale[0]} die's top came out nearly white: move a lamp beside the camera, which its top "
                      "mirrors, off to the side, or lower the camera's exposure (the setting `exposure`)" if pale else
                      "a whiter, brighter lamp will make them easier to tell apart")
            warnings.append(
                f"{a.capitalize()} and {b} dice look alike under this light (colour difference {distance:.0f}, "
                f"below {CLOSE_COLOURS:.0f}): {advice}."
            )
    return warnings


def _pale(face: tuple[float, float, float]) -> bool:
    return face[0] >= PALE_LIGHTNESS and math.hypot(face[1], face[2]) < PALE_CHROMA


def play_area_problem(corners: Sequence[Sequence[float]], resolution: tuple[int, int],
                      dice: Sequence[tuple[str, tuple[float, float]]]) -> str | None:
    """Why `corners` (in order round it, pixels) cannot be the play area of a picture of `resolution` in which
    `dice` (colour, centre) were laid out, or None when they can."""
    width, height = resolution
    if not all(0 <= x <= width and 0 <= y <= height for x, y in corners):
        return f"every corner of the play area must lie in the picture (0 to {width} across, 0 to {height} down)"
    if _edges_cross(corners):
        return "the play area's edges cross: put its corners in order round the tray"
    left_out = [colour for colour, centre in dice if not in_polygon(corners, centre)]
    if left_out:
        return f"the play area must hold the dice laid out for it: the {left_out[0]} die lies outside it"
    return None


def _edges_cross(corners: Sequence[Sequence[float]]) -> bool:
    """Whether two edges of the polygon that do not share a corner cross or touch."""
    edges = [(corners[k], corners[(k + 1) % len(corners)]) for k in range(len(corners))]

    def side(a, b, c) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    for i, j in itertools.combinations(range(len(edges)), 2):
        if j == i + 1 or (i == 0 and j == len(edges) - 1):
            continue  # neighbours share a corner
        (a, b), (c, d) = edges[i], edges[j]
        if side(a, b, c) * side(a, b, d) <= 0 and side(c, d, a) * side(c, d, b) <= 0:
            return True
    return False


def find_play_area(empty_table: np.ndarray, dice_centres: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The tray or play area: the region of the empty table around the dice that looks like the table
    under them (a tray's floor, a mat, a cloth), as a polygon; the whole frame less a margin when
    the surface under the dice runs to the edges."""
    height, width = empty_table.shape[:2]
    scale = 320 / width
    small = cv2.resize(empty_table, (320, max(1, round(height * scale))), interpolation=cv2.INTER_AREA)
    lab = to_lab(cv2.GaussianBlur(small, (5, 5), 0))
    points = [(min(int(x * scale), small.shape[1] - 1), min(int(y * scale), small.shape[0] - 1)) for x, y in dice_centres]
    samples = np.array([lab[y, x] for x, y in points])
    centre = np.median(samples, axis=0)
    tolerance = max(12.0, 3.0 * float(np.sqrt(((samples - centre) ** 2).sum(axis=1)).max()))
    like = (np.sqrt(((lab - centre) ** 2).sum(axis=2)) < tolerance).astype(np.uint8) * 255
    like = cv2.morphologyEx(like, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    count, labels = cv2.connectedComponents(like)
    keep = {labels[y, x] for x, y in points} - {0}
    region = np.isin(labels, list(keep)).astype(np.uint8) * 255
    margin = 0.02 * width
    whole = [(margin, margin), (width - margin, margin), (width - margin, height - margin), (margin, height - margin)]
    if not keep or region.mean() / 255 > 0.9:
        return whole
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.concatenate(contours))
    polygon = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True).reshape(-1, 2) / scale
    return [(float(x), float(y)) for x, y in polygon]


def _measure(frame: np.ndarray, corners) -> tuple[tuple, tuple, float]:
    """(face Lab, face spread, pip contrast) of one die's top face."""
    outline = np.array(corners, np.float32)
    centre = outline.mean(axis=0)
    inner = (centre + 0.8 * (outline - centre)).round().astype(np.int32)  # clear of the rounded edges
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(mask, [inner], 255)
    lab = to_lab(frame[mask > 0])
    if len(lab) < 9:
        raise CalibrationError("a die is too small to measure: move the camera closer or use a larger capture size")
    median = np.median(lab, axis=0)
    distance = np.sqrt(((lab - median) ** 2).sum(axis=1))
    face = lab[distance < 15]
    pips = lab[distance > 25]
    face_centre = face.mean(axis=0) if len(face) else median
    contrast = float(np.median(pips[:, 0]) - face_centre[0]) if len(pips) >= 3 else 0.0
    return tuple(face_centre), tuple(face.std(axis=0) if len(face) > 1 else np.zeros(3)), contrast


def _read_with_the_empty_table(empty_table: np.ndarray, dice: np.ndarray, found: list,
                               read_dice: Callable[..., Sequence]) -> list:
    """What the reader finds of the dice with a first calibration that holds only the empty table and the dice's
    size (that of the dice `found`, else as the table changed): it then also looks where the table changed, which
    finds dice on a busy cloth where it alone finds few or none."""
    height, width = dice.shape[:2]
    size = float(np.median([_edge(r.corners) for r in found])) if found else _die_size_where_changed(empty_table, dice)
    if size is None:
        return found
    first = Calibration(
        resolution=(width, height),
        die_size=size,
        colours={},
        play_area=((0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height))),
        empty_table=Calibration.encode_image(empty_table),
    )
    return [r for r in read_dice(dice, first) if len(r.corners) >= 3]


def _changed_regions(empty_table: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """uint8 mask of where the dice frame changed the empty table (calibration.where_changed), specks removed."""
    changed = where_changed(smoothed_lab(empty_table), smoothed_lab(dice))
    return cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _die_size_where_changed(empty_table: np.ndarray, dice: np.ndarray) -> float | None:
    """The edge of the six dice lying apart, from the six largest regions where the table changed: the median of
    their smallest rectangles' shorter sides (a shadow lengthens one side only). None without six regions."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(_changed_regions(empty_table, dice))
    largest = sorted(range(1, count), key=lambda region: -stats[region, cv2.CC_STAT_AREA])[:6]
    if len(largest) < 6:
        return None
    return float(np.median([min(_smallest_rectangle(labels, region)[1]) for region in largest]))


def _dice_the_reader_missed(empty_table: np.ndarray, dice: np.ndarray, found: list, wanted: int) -> list[FoundDie]:
    """Up to `wanted` places, away from the dice the reader found, where the table changed over about a
    die's area: the largest first. Each is outlined as a die of the found dice's size."""
    if not found:
        return []
    size = float(np.median([_edge(r.corners) for r in found]))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(_changed_regions(empty_table, dice))
    places = []
    for component in range(1, count):
        if not 0.4 * size**2 <= stats[component, cv2.CC_STAT_AREA] <= 4 * size**2:
            continue  # a speck of noise, or a change far larger than a die
        (x, y), sides, angle = _smallest_rectangle(labels, component)
        if not (0.7 * size <= min(sides) and max(sides) <= 2.0 * size):
            continue  # not a die lying flat (with its shadow)
        if any(math.dist((x, y), r.center) < size for r in found):
            continue
        turn = math.radians(angle)
        c, s = math.cos(turn) * size / 2, math.sin(turn) * size / 2
        corners = ((x - c + s, y - s - c), (x + c + s, y + s - c), (x + c - s, y + s + c), (x - c - s, y - s + c))
        places.append((stats[component, cv2.CC_STAT_AREA], FoundDie((float(x), float(y)), corners)))
    return [die for _, die in sorted(places, key=lambda place: -place[0])[:wanted]]


def _smallest_rectangle(labels: np.ndarray, component: int):
    """cv2.minAreaRect ((x, y), (width, height), angle) round the pixels of one labelled component."""
    points = np.column_stack(np.nonzero(labels == component))[:, ::-1].astype(np.float32)
    return cv2.minAreaRect(points)


def _edge(corners) -> float:
    return float(np.mean([math.dist(a, b) for a, b in zip(corners, tuple(corners[1:]) + tuple(corners[:1]))]))


def _most_die_like(found: list) -> list:
    """Six of more than six candidates: those closest to the common die size, most confident first."""
    sizes = np.array([_edge(r.corners) for r in found])
    typical = np.median(sizes)
    return sorted(found, key=lambda r: abs(_edge(r.corners) - typical) / typical - r.confidence)[:6]


def _completed_set(names: list[str], found_where_changed: list[bool]) -> list[str]:
    """The reader's names, with the dice it missed (found where the table changed) given the colour the others
    leave missing from the Qwixx set, when that is one colour: the reader's own names are surer than hues measured
    under a warm lamp (bench/table.py's table 8, a white die missed on a patterned cloth, had been refused)."""
    named = [name for name, changed in zip(names, found_where_changed) if not changed]
    missing = list((Counter(QWIXX_SET) - Counter(named)).elements())
    if len(set(missing)) != 1 or len(missing) != len(names) - len(named):
        return names
    return [missing[0] if changed else name for name, changed in zip(names, found_where_changed)]


def _name_by_hue(faces: list[tuple]) -> list[str]:
    """Names for six measured faces (CIELAB) under an unknown light.

    Two of the LIGHTEST_FACES are the white dice. Dividing every face by their colour in linear RGB
    (von Kries adaptation) takes the light's cast away; the other four then take red, yellow, green
    and blue in the order that best fits their hues. The pair taken is the one that fits best: its two
    faces made grey (their Lab chroma) and the others' hues off their colours' (degrees) least.
    """
    lab = np.array(faces, np.float32).reshape(-1, 1, 3)
    linear = _srgb_to_linear(cv2.cvtColor(lab, cv2.COLOR_Lab2BGR).reshape(-1, 3))

    def off_hue(hue: float, name: str) -> float:
        return min(abs(hue - TYPICAL_HUE[name]), 360 - abs(hue - TYPICAL_HUE[name]))

    def named_with(whites: tuple[int, int]) -> tuple[float, list[str]]:
        """How badly the faces fit the Qwixx set with `whites` white (inf: they do not), and their names."""
        white = np.maximum(linear[list(whites)].mean(axis=0), 1e-4)
        adapted = _linear_to_srgb(np.clip(linear / white * white.max(), 0, 1)).astype(np.float32)
        adapted_lab = cv2.cvtColor(adapted.reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3)
        chroma = [math.hypot(*adapted_lab[i][1:]) for i in range(6)]
        coloured = [i for i in range(6) if i not in whites]
        hues = [math.degrees(math.atan2(adapted_lab[i][2], adapted_lab[i][1])) % 360 for i in coloured]
        best = min(itertools.permutations(TYPICAL_HUE), key=lambda order: sum(map(off_hue, hues, order)))
        names = ["white"] * 6
        for i, name in zip(coloured, best):
            names[i] = name
        off = list(map(off_hue, hues, best))
        fits = (max(off) <= HUE_SLACK and max(chroma[i] for i in whites) <= MOST_WHITE_CHROMA
                and min(chroma[i] for i in coloured) >= LEAST_CHROMA)
        return (sum(off) + sum(chroma[i] for i in whites) if fits else math.inf), names

    lightest = sorted(range(6), key=lambda i: -faces[i][0])[:LIGHTEST_FACES]
    cost, names = min(named_with(pair) for pair in itertools.combinations(lightest, 2))
    if cost < math.inf:
        return names
    if sum(face[0] >= WASHED_OUT for face in faces) > 2:
        raise WashedOut(
            "some coloured dice look white: their tops are washed out (the camera exposes for a dark table, or a "
            "lamp beside the camera is mirrored in them). Lower the camera's exposure (the setting `exposure`, -2 "
            "stops for a start), move the lamp off to the side, or put a lighter cloth or tray under the dice, and "
            "calibrate again"
        )
    raise CalibrationError(
        "the dice colours could not be told apart under this light: lay the six dice apart from one another, "
        "top faces up, under a whiter, brighter lamp"
    )


def _srgb_to_linear(values: np.ndarray) -> np.ndarray:
    values = np.clip(values, 0, 1)
    return np.where(values <= 0.04045, values / 12.92, ((values + 0.055) / 1.055) ** 2.4)


def _linear_to_srgb(values: np.ndarray) -> np.ndarray:
    return np.where(values <= 0.0031308, values * 12.92, 1.055 * np.power(values, 1 / 2.4) - 0.055)
