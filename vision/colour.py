"""A die's colour from its face: robust statistics in CIELAB, named by hue or by a calibration.

Lab values here are true CIELAB (L* 0..100, a*, b* signed), computed as calibration.to_lab does, so
that measured faces and calibrated colours compare directly.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Sequence

import cv2
import numpy as np

from calibration.model import to_lab

# Each Qwixx colour: hue range (degrees of atan2(b*, a*)), least chroma, least L*. Saturated dice measure
# red 20-45 degrees, yellow 83-106, green 140-150, blue 290-300, purple 310-340 (CIELAB coordinates of the dice colours, and
# the dev photos' colour-labelled dice). A face of a Qwixx hue that is too dull or too dark is one of the
# marbled, translucent, gold, brown, teal or maroon dice Qwixx does not use: "other". A pale blue die under a cool
# lamp measures 233 degrees (the tracker film rolls-1, uncalibrated): blue starts at 228 rather than 235. The dev
# photos' colour-labelled dice are named as before, and of 200 generated scenes read one die at a time 866 dice
# rather than 864, 56 wrong rather than 58; bench/table.py without a calibration, one die at a time, 64 rolls of 100
# announced rather than 61 (its other ways, and tables 20-39 calibrated, the same; scripts outside the repository).
# Under a cool lamp a red die turns magenta, 2-12 degrees in generated scenes, and stays light and colourful: from
# 345 degrees a face with L* 60 and chroma 30 or more is red too, where the colour-labelled dev photos' maroon and
# magenta dice measure L* 40 or less. One die at a time, of the 200 generated scenes bench/vision.py reads, 23 dice
# given a value are named a wrong colour rather than 28 (scenes 200-399: 15 rather than 17); the colour-labelled
# dev photos the same (scripts outside the repository). The first range of each colour is its own (colour_cost).
QWIXX_HUES = (
    ("red", 16, 52, 18, 0),
    ("yellow", 68, 110, 40, 55),
    ("green", 110, 185, 32, 25),
    ("blue", 228, 305, 12, 0),
    ("red", 345, 360, 30, 60),
    ("red", 0, 16, 30, 60),
)
# Purple and magenta dice are dark and dull, yet their hue shows well above the grey of a black die.
PURPLE_HUES = (305, 345)
PURPLE_CHROMA = 6.0
# Below this chroma a face is white or black. Black dice under a warm lamp take a warm tint: between the red
# and the yellow hues (WARM_HUES) the dev photos' colour-labelled black dice reach 16.6 (measured where the
# reader places them), where no die of another colour there measures under 19.9; the bound is
# WARM_ACHROMATIC_CHROMA there.
ACHROMATIC_CHROMA = 16.0
WARM_HUES = (16, 68)
WARM_ACHROMATIC_CHROMA = 18.0
# A black die takes the lamp's tint: warm, or blue under a cool lamp. A dark face tinted otherwise is a die of another
# colour: green to cyan, a teal or dark green die (the dev photos' colour-labelled teal dice measure hue 162-174, chroma
# 12-14); red to magenta, a maroon one (their two dark red marbled dice measure hue 357 and 10, chroma 14-15 at L* 22-31).
# Their black dice measure hue 0-67, chroma 13 or more only at hue 28-44 (the warm tint), under 6 at hue 345-16.
# (first hue, last hue, least chroma)
TINTED_DARK_DICE = ((120, 220, 8.0), (345, 360, 10.0), (0, 16, 10.0))
# Qwixx dice are one colour: a face whose colour wanders over its body (the mean CIELAB a*b* distance of its pixels
# from their median, against its chroma) MARBLED or more is a marbled die, "other". Only in good light (light_gain at
# most MARBLED_GAIN) and between MARBLED_LIGHTNESS: in a dim frame or a dark face, noise scatters a plain face's colour
# as much, and glare bleaches part of it. The dev photos' colour-labelled marbled blue dice measure 0.39-0.61 at
# lightness 26-73 (gain 1.06-1.08), where their plain coloured dice measure at most 0.32; of bench/vision.py's 200
# generated scenes (plain dice only) no die of 1,131 reaches it so (4 with no bound on the gain, 2 of them at 25-75).
MARBLED = 0.38
MARBLED_GAIN = 1.3
MARBLED_LIGHTNESS = (25.0, 75.0)
# A dark face swirled with blue is a marbled die, not a black one, whose pips may be red and whose lamp tints it
# evenly: BLUE_SWIRLS or more (_blue_swirls, over BLUE_SWIRL_REACH extents), in good light (MARBLED_GAIN). The dev
# photos' colour-labelled black dice measure at most 5.5, their three blue-black marbled ones 8.4-19.6. With this rule
# and the maroon dice of TINTED_DARK_DICE, those photos read 184 dice of 198 right rather than 179, 5 wrong rather than
# 10; the dev photos' values, bench/vision.py's generated scenes (--conditions 40 too), bench/table.py --tables 10 and
# bench/tracker.py --films 11 as before.
BLUE_SWIRLS = 7.0
BLUE_SWIRL_REACH = 0.4
BLUE_SWIRL_HUES = (220, 310)
# A face named white this light (BLEACHED_LIGHTNESS) may be a coloured top bleached by glare: where its rim
# (measure_rim) shows red, green or blue with at least BLEACHED_RIM_CHROMA, it is named by its rim. Qwixx white
# dice show no such rim; under a warm lamp theirs is yellowish, so yellow is not taken from a rim. Read one die at a
# time (no set to name together), of the dice given a value bench/vision.py's 200 generated scenes then name 55 a
# wrong colour rather than 64 (nine bleached tops named right, none named wrong), and scenes 200-399 44 rather than 56
# (16 named right; three white dice and a blue one named wrong by a coloured rim); the dev photos' colour-labelled
# part the same (scripts outside the repository). A face this light named "other" (a pale green or blue top, too
# little colour left for its hue's least chroma) is named by its rim the same way: 28 wrong colours rather than 36 of
# the 200 scenes, 17 rather than 27 of scenes 200-399; the colour-labelled dev photos the same, where no "other" die
# is so light (scripts outside the repository). Named together as a roll (name_as_set), a face named white whose rim
# shows red, green or blue so costs the more the more colour it shows (colour_cost), where it had cost nothing: a
# bleached red top and a white die whose rim shows a little red could change places at no cost, so that no naming
# of the set stood out and both stayed white. Of the generated scenes 200-399 read as rolls, 147 dice not read right
# rather than 152 (4 confident-wrong rather than 6); bench/vision.py's 200 as rolls 1,061 read rather than 1,058 (6
# wrong either way), with a die cocked 500 rather than 497 (23 wrong rather than 26); bench/table.py --tables 10 and
# bench/tracker.py --films 11 as before; the generated scenes 9001-9150, looked at only then, 763 read rather than 760,
# 7 wrong rather than 10 (scripts outside the repository).
BLEACHED_LIGHTNESS = 90.0
BLEACHED_RIM_CHROMA = 30.0
# A pale yellow face this light is a white die under a warm lamp.
WARM_WHITE_LIGHTNESS = 60.0
# A face this light with dark pips looks like a white Qwixx die tinted by its lamp: orange under a warm one (ORANGE_HUES,
# below the hues of yellow dice, which measure 83 degrees or more, and under ORANGE_WHITE_CHROMA: the generated scenes
# 200-399 show white dice up to 56 there), purple under a cool one (under ACHROMATIC_CHROMA, yet above PURPLE_CHROMA).
# Named white rather than yellow or other: of bench/vision.py's 200 generated scenes read one die at a time, 37 dice
# given a value are named a wrong colour rather than 55 (scenes 200-399, on which the bounds were chosen: 27 rather
# than 44); the dev photos' colour-labelled ones are named as before, where the orange dice are the darker gold and
# brown ones and the purple ones are dark with light pips (scripts outside the repository).
ORANGE_HUES = (50, 83)
ORANGE_WHITE_CHROMA = 57.0
# White dice are light: a face this dark with dark pips is grey, brown or gold: "other".
DARKEST_WHITE = 45.0
# Without a calibration, faces are judged as if lit so that the frame's bright end (its WHITE_PERCENTILE
# lightness) were WHITE_REFERENCE: a dim room darkens and dulls every die alike. The gain is capped.
WHITE_PERCENTILE = 97
WHITE_REFERENCE = 90.0
MAX_GAIN = 2.5
# With a calibration, a face further than this (Delta E) from every calibrated colour is named by hue.
CALIBRATED_DISTANCE = 25.0
# Naming a roll's faces together (name_as_set): how far a face may fall short of a colour's chroma or
# lightness (units of the squared cost), what pips lighter than the face cost a white die (Qwixx white dice
# have dark pips), and by how much the best way of naming the roll must beat the next best. On 326 generated
# Qwixx rolls of the training scenes (faces at the true boxes), margin 2 named 288 rolls right, 3 wrong
# and flagged 35; margin 0 named 302 right and 24 wrong; the rules alone 186 right, none wrong.
SHORTFALL_SCALE = 10.0
LIGHT_PIPS_ON_WHITE = 8.0
SET_MARGIN = 2.0
# A face named alone a colour of the set other than white, which it fits this well (colour_cost), keeps that name
# when the roll is named together; the others share the rest.
PLAINLY_NAMED = 1.0
# Dice of one colour in a roll (Qwixx's two white dice) are one material under one light: named together, each pair of
# faces given one colour costs their distance in CIELAB a*b* in ALIKE_SCALEs, squared. Lightness is left out: shade
# darkens one die and not the other. In bench/vision.py's 200 generated scenes read as rolls the two white dice measure
# 2.7 apart (median; 7.6 the 95th percentile, 10.6 the most), a coloured die 17 or more from the nearer white one in 95
# rolls of 100; in the 90 Cycles frames of bench/photoreal.py 1.0 (5.1, 7.6).
ALIKE_SCALE = 8.0
# A photo's dice, named one at a time, are taken for one roll of a set and named together (name_photo_as_set) when they
# are as many as its dice and all but LIKE_A_SET_SLACK of them are named as its dice are. A face named alone as none of
# the set's colours (another die, a black one) takes the set's colour for it only where it fits it PLAINLY_NAMED.
# Against naming a photo's dice one at a time: bench/vision.py's 200 generated scenes read one at a time 1,008 dice of
# 1,200 read rather than 992, 10 wrong rather than 25 (colours wrong on 20 of the 1,148 dice found rather than 39);
# with a die cocked 431 rather than 424, 40 wrong rather than 44 (cocked dice given a value 32 either way); with
# --conditions 40 each condition as well or better, 79 dice more read and 67 fewer wrong in all; bench/table.py
# --tables 10 one die at a time, calibrated, 42 rolls of 50 announced rather than 41 (uncalibrated 37 either way, none
# wrong); the colour-labelled photos and the reading of a roll as before. Where a die named as none of the set's
# colours takes the set's colour whatever it fits, 1,012 read and 6 wrong, but --conditions 40's scenes of other dice
# beside the Qwixx ones 2 more wrong (a black die named blue where the blue one was missed). A slack of 1 read fewer.
# 1.5% more time per 1280x720 frame read one at a time, 0.9% at 640x480 (medians of the per-frame ratios, the two
# ways in turn on 40 generated frames; scripts outside the repository).
LIKE_A_SET_SLACK = 2
# With a calibration, a face costs its distance (Delta E) from the colour learned, in SET_DISTANCEs, squared. By hue,
# an overexposed table's roll (bench/table.py's table 4) cost less named with its pale blue die green and a white
# die blue than named right: with a glare-bleached green top to fill the set, the hue naming announced that roll
# wrong. On bench/table.py's tables 0-39, calibrated and read as rolls (190 rolls; scripts outside the repository),
# SET_DISTANCE 25, 15 and 10 announced 145, 147 and 148 rolls right with the classifier of then (hue costs: 147), and
# 158, 159, 161 and 162 at 25, 15, 10 and 7 with the one retrained on table rolls (hue costs: 160, and one wrong);
# none wrong. 10 leaves the names alone unless the best naming beats the next by about 14 Delta E.
SET_DISTANCE = 10.0
# The top face's border band measure_rim looks at: from RIM[0] to RIM[1] of an edge in from its outline. On the 200
# generated scenes bench/vision.py scores, read as rolls, its colour (measure_rim) has a chroma of 6 (median) and 30
# (95th percentile) on white dice named white, and 5-76 on the 32 coloured dice named white, 27 of them in their
# colour's hue range (scripts outside the repository). It lets colour_cost see such a die's colour.
RIM = (0.02, 0.14)


@dataclass(frozen=True)
class Face:
    lab: tuple[float, float, float]  # the face colour without its pips
    pip_contrast: float  # L* of the pips minus L* of the face; 0 when no pips were seen
    rim: tuple[float, float, float] | None = None  # the colour the face's rounded border shows most (measure_rim)
    marbling: float = 0.0  # how far the face's colour wanders over its body, against its chroma (MARBLED)
    blue_swirls: float = 0.0  # how much blue a dark face shows in places beyond its own (BLUE_SWIRLS)


def measure_face(frame: np.ndarray, x: float, y: float, extent: float) -> Face:
    """The colour of the die face around (x, y), separated from its pips by Otsu's threshold on L*."""
    lab = _lab_patch(frame, x, y, extent * 0.3)
    body, pips = _body_and_pips(lab)
    face = np.median(body, axis=0)
    wander = float(np.mean(np.hypot(body[:, 1] - face[1], body[:, 2] - face[2])))
    contrast = 0.0
    # Pips are small dark (or light) spots: only a clear, minority second class counts as pips.
    if 0.02 * len(lab) <= len(pips) <= 0.45 * len(lab):
        difference = float(np.median(pips[:, 0]) - face[0])
        if abs(difference) > 12:
            contrast = difference
    chroma = float(math.hypot(face[1], face[2]))
    dark = face[0] < DARKEST_WHITE and chroma < WARM_ACHROMATIC_CHROMA  # a black die's face, or one like it
    return Face((float(face[0]), float(face[1]), float(face[2])), contrast, marbling=wander / max(chroma, 1.0),
                blue_swirls=_blue_swirls(frame, x, y, extent) if dark else 0.0)


def _lab_patch(frame: np.ndarray, x: float, y: float, half: float) -> np.ndarray:
    """The CIELAB pixels (n, 3) of the square reaching `half` from (x, y), at most 24 x 24."""
    half = max(1, int(round(half)))
    height, width = frame.shape[:2]
    x0, x1 = max(0, int(x) - half), min(width, int(x) + half + 1)
    y0, y1 = max(0, int(y) - half), min(height, int(y) + half + 1)
    patch = frame[y0:y1, x0:x1]
    if patch.shape[0] > 24 or patch.shape[1] > 24:
        patch = cv2.resize(patch, (24, 24), interpolation=cv2.INTER_AREA)
    return to_lab(patch).reshape(-1, 3)


def _body_and_pips(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A face's pixels split by Otsu's threshold on L*: the larger class (its body) and the other (its pips)."""
    lightness = np.clip(lab[:, 0] * 2.55, 0, 255).astype(np.uint8).reshape(-1, 1)
    threshold, _ = cv2.threshold(lightness, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    bright = lightness[:, 0] > threshold
    body_is_bright = bright.sum() >= (~bright).sum()
    return lab[bright == body_is_bright], lab[bright != body_is_bright]


def _blue_swirls(frame: np.ndarray, x: float, y: float, extent: float) -> float:
    """How much bluer than its median the bluest tenth of the face's body is (chroma in BLUE_SWIRL_HUES), over the
    square reaching BLUE_SWIRL_REACH extents from (x, y)."""
    body, _ = _body_and_pips(_lab_patch(frame, x, y, extent * BLUE_SWIRL_REACH))
    hue = np.degrees(np.arctan2(body[:, 2], body[:, 1])) % 360
    blue = np.where((hue >= BLUE_SWIRL_HUES[0]) & (hue < BLUE_SWIRL_HUES[1]), np.hypot(body[:, 1], body[:, 2]), 0.0)
    return float(np.percentile(blue, 90) - np.median(blue))


def measure_rim(frame: np.ndarray, center: tuple[float, float],
                corners: Sequence[tuple[float, float]]) -> tuple[float, float, float] | None:
    """The most coloured quarter of the band RIM of the top face's edge in from its outline (CIELAB, median), or
    None for a die too small to show one.

    Light glancing off a flat top can wash its colour out to white while the rounded border, turned away from the
    lamp, still shows the die's colour."""
    x, y = center
    edge = math.dist(corners[0], corners[1])
    if edge < 4:
        return None
    along = ((corners[1][0] - corners[0][0]) / edge, (corners[1][1] - corners[0][1]) / edge)
    reach = int(edge / 2) + 1
    x0, y0 = max(0, int(x) - reach), max(0, int(y) - reach)
    patch = frame[y0:int(y) + reach + 1, x0:int(x) + reach + 1]
    rows, columns = np.mgrid[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]]
    u = (columns - x) * along[0] + (rows - y) * along[1]
    v = (rows - y) * along[0] - (columns - x) * along[1]
    out = np.maximum(np.abs(u), np.abs(v)) / edge  # 0.5 on the outline
    band = patch[(out > 0.5 - RIM[1]) & (out < 0.5 - RIM[0])]
    if len(band) < 8:
        return None
    lab = to_lab(band)
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    return tuple(float(v) for v in np.median(lab[chroma >= np.percentile(chroma, 75)], axis=0))


def light_gain(frame: np.ndarray) -> float:
    """How much brighter the frame would be in good light (1 when its bright end is already white)."""
    step = max(1, min(frame.shape[:2]) // 48)  # every step-th pixel: the bright end needs no averaging
    sample = np.ascontiguousarray(frame[::step, ::step])
    lightness = cv2.cvtColor(sample.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)[..., 0]
    white = float(np.percentile(lightness, WHITE_PERCENTILE))
    return float(np.clip(WHITE_REFERENCE / max(white, 1.0), 1.0, MAX_GAIN))


def nearest_calibrated(face: Face, calibration) -> str | None:
    """The calibrated colour nearest the face, or None when every one is further than CALIBRATED_DISTANCE."""
    distances = {name: math.dist(face.lab, known.face) for name, known in calibration.colours.items()}
    nearest = min(distances, key=distances.get)
    return nearest if distances[nearest] <= CALIBRATED_DISTANCE else None


def name_colour(face: Face, calibration=None, gain: float = 1.0) -> str:
    """white, red, yellow, green, blue, black or other; `gain` from light_gain (without a calibration)."""
    if calibration is not None and calibration.colours:
        nearest = nearest_calibrated(face, calibration)
        if nearest is not None:
            return nearest
    lightness, a, b = face.lab
    # Dim light darkens a face more than it dulls its colour (camera gamma and white balance).
    lightness, chroma = min(100.0, lightness * gain), math.hypot(a, b) * math.sqrt(gain)
    hue = math.degrees(math.atan2(b, a)) % 360
    lamp_tinted_white = face.pip_contrast < 0 and lightness >= WARM_WHITE_LIGHTNESS
    if lamp_tinted_white and ORANGE_HUES[0] <= hue < ORANGE_HUES[1] and chroma < ORANGE_WHITE_CHROMA:
        return "white"
    for name, first, last, least_chroma, least_lightness in QWIXX_HUES:
        if first <= hue < last and chroma >= least_chroma and lightness >= least_lightness:
            marbled = (face.marbling >= MARBLED and gain <= MARBLED_GAIN
                       and MARBLED_LIGHTNESS[0] <= lightness <= MARBLED_LIGHTNESS[1])
            return "other" if marbled else name
    if (PURPLE_HUES[0] <= hue < PURPLE_HUES[1] and chroma >= PURPLE_CHROMA
            and not (lamp_tinted_white and chroma < ACHROMATIC_CHROMA)):
        return "other"
    warm_white = 68 <= hue < 110 and lightness >= WARM_WHITE_LIGHTNESS and face.pip_contrast <= 0
    achromatic = WARM_ACHROMATIC_CHROMA if WARM_HUES[0] <= hue < WARM_HUES[1] else ACHROMATIC_CHROMA
    if chroma < achromatic or warm_white:
        if face.pip_contrast > 0 or (face.pip_contrast == 0 and lightness < DARKEST_WHITE):
            tinted = any(first <= hue < last and chroma >= least for first, last, least in TINTED_DARK_DICE)
            swirled = face.blue_swirls >= BLUE_SWIRLS and gain <= MARBLED_GAIN
            return "other" if tinted or swirled else "black"
        return "white" if lightness >= DARKEST_WHITE else "other"
    return "other"


def may_be_bleached(face: Face, name: str, gain: float = 1.0) -> bool:
    """Whether a face named `name` (by name_colour, without a calibration) white or other is light enough to be a
    bleached top (BLEACHED_LIGHTNESS), so that its rim is worth measuring for name_by_rim."""
    return name in ("white", "other") and face.lab[0] * gain >= BLEACHED_LIGHTNESS


def name_by_rim(rim: tuple[float, float, float] | None, name: str, gain: float = 1.0) -> str:
    """The name of a bleached top (may_be_bleached) given its rim's colour: red, green or blue where the rim shows one
    with BLEACHED_RIM_CHROMA or more, else `name`."""
    return name if rim is None else _rim_colour(rim, gain) or name


def _rim_colour(rim: tuple[float, float, float], gain: float) -> str | None:
    """red, green or blue where the rim shows one with BLEACHED_RIM_CHROMA or more, else None."""
    if _rim_chroma(rim, gain) < BLEACHED_RIM_CHROMA:
        return None
    named = name_colour(Face(rim, 0.0), None, gain)
    return named if named in ("red", "green", "blue") else None


def _rim_chroma(rim: tuple[float, float, float], gain: float) -> float:
    """The rim's chroma as seen in good light (see light_gain)."""
    return math.hypot(rim[1], rim[2]) * math.sqrt(gain)


def _unlike(faces: Sequence[Face], named: Sequence[tuple[int, str]]) -> float:
    """What naming faces (index, name) costs for the faces of one colour that look unlike each other (ALIKE_SCALE)."""
    return sum((math.dist(faces[first].lab[1:], faces[second].lab[1:]) / ALIKE_SCALE) ** 2
               for (first, name), (second, other) in itertools.combinations(named, 2) if name == other)


def colour_cost(face: Face, name: str, gain: float = 1.0, calibration=None) -> float:
    """How unlike a Qwixx die of colour `name` the face looks (0 for a typical one): with a calibration that
    learned the colour, its distance from it in SET_DISTANCEs, squared; otherwise the distance from the
    colour's hue range, weighted by how much colour the face shows, and shortfalls of chroma and lightness. A face
    whose rim (measure_rim) looks more like a colour than its middle does costs what its rim does, by hue; named
    white, one whose rim shows red, green or blue (name_by_rim's rule) costs the more, the more colour beyond
    BLEACHED_RIM_CHROMA it shows."""
    if calibration is not None and name in calibration.colours:
        cost = (math.dist(face.lab, calibration.colours[name].face) / SET_DISTANCE) ** 2
    else:
        cost = _hue_cost(face, name, gain)
    if face.rim is None:
        return cost
    if name != "white":
        return min(cost, _hue_cost(Face(face.rim, face.pip_contrast), name, gain))
    if _rim_colour(face.rim, gain) is None:
        return cost
    return cost + ((_rim_chroma(face.rim, gain) - BLEACHED_RIM_CHROMA) / SHORTFALL_SCALE) ** 2


def _hue_cost(face: Face, name: str, gain: float) -> float:
    lightness, a, b = face.lab
    lightness, chroma = min(100.0, lightness * gain), math.hypot(a, b) * math.sqrt(gain)
    if name == "white":
        dark_by = max(0.0, DARKEST_WHITE - lightness)
        pips = LIGHT_PIPS_ON_WHITE if face.pip_contrast > 0 else 0.0
        return (chroma / ACHROMATIC_CHROMA) ** 2 + (dark_by / SHORTFALL_SCALE) ** 2 + pips
    first, last, least_chroma, least_lightness = next(h[1:] for h in QWIXX_HUES if h[0] == name)
    hue = math.degrees(math.atan2(b, a)) % 360
    half = (last - first) / 2
    off_hue = abs((hue - (first + half) + 180) % 360 - 180) / half
    # A dull face's hue is noise: weigh it by the chroma, and let the shortfall speak instead. The shortfall counts
    # from at least ACHROMATIC_CHROMA: from blue's least chroma (12, for a pale blue die under a cool lamp) a white face
    # cost 1.4 named blue, so that with glare-whitened tops filling the set no naming beat the next by SET_MARGIN and
    # a roll kept its blue die named white (bench/tracker.py's film 102). bench/vision.py's 200 generated scenes as
    # rolls: 1,037 dice read rather than 1,033, 7 wrong rather than 11 (four blue dice named white); with a die
    # cocked, bench/table.py and the rendered films the same (scripts outside the repository).
    return (off_hue ** 2 * min(1.0, chroma / least_chroma)
            + (max(0.0, max(least_chroma, ACHROMATIC_CHROMA) - chroma) / SHORTFALL_SCALE) ** 2
            + (max(0.0, least_lightness - lightness) / SHORTFALL_SCALE) ** 2)


def like_one_set(names: Sequence[str], dice_set: Mapping[str, int]) -> bool:
    """Whether dice named one at a time (`names`) may be one roll of `dice_set` (see LIKE_A_SET_SLACK)."""
    named_as_in_set = sum((Counter(names) & Counter(dice_set)).values())
    return len(names) == sum(dice_set.values()) and named_as_in_set >= len(names) - LIKE_A_SET_SLACK


def name_photo_as_set(faces: Sequence[Face], names: Sequence[str], dice_set: Mapping[str, int], gain: float = 1.0,
                      calibration=None) -> list[str]:
    """name_as_set for the faces of a photo whose dice, named alone (`names`), look like one roll of `dice_set`
    (like_one_set), though no one said it shows one: a face named as none of the set's colours keeps its name unless it
    plainly fits the colour the set gives it (see LIKE_A_SET_SLACK)."""
    named = name_as_set(faces, names, dice_set, gain, calibration)
    return [new if alone in dice_set or new == alone or colour_cost(face, new, gain, calibration) < PLAINLY_NAMED
            else alone
            for face, alone, new in zip(faces, names, named)]


def name_as_set(faces: Sequence[Face], names: Sequence[str], dice_set: Mapping[str, int], gain: float = 1.0,
                calibration=None) -> list[str]:
    """Names for the faces of one roll of a known set of dice (colour: count), such as a Qwixx roll.

    One face at a time, white under a warm lamp looks yellow and glare turns a blue top white; side by
    side, the set has one way of naming them that fits far better than any other, its dice of one colour
    looking alike (ALIKE_SCALE). `names` (one per face, from name_colour) are kept when they already make
    the set; when the faces are not as many as the set's dice (with a die missing, a face could take the
    missing die's colour: a missing or an extra die is for the caller to see); or when the best naming
    beats the next best by less than SET_MARGIN (the table is then asked to look). With a `calibration`,
    faces are weighed against the colours it learned. Calibration, which must name all six dice laid out
    for it and shows them to the user, commits to the best hue order instead (calibration.learn)."""
    if Counter(names) == Counter(dice_set) or len(faces) != sum(dice_set.values()):
        return list(names)
    costs = {(index, name): colour_cost(face, name, gain, calibration)
             for index, face in enumerate(faces) for name in dice_set}
    kept = {index for index, name in enumerate(names)
            if name in dice_set and name != "white" and costs[index, name] < PLAINLY_NAMED}
    left = Counter(dice_set) - Counter(names[index] for index in kept)
    if sum(left.values()) != len(faces) - len(kept):  # more faces plainly of a colour than the set has: none kept
        kept, left = set(), Counter(dice_set)
    free = [index for index in range(len(faces)) if index not in kept]
    slots = [name for name, count in left.items() for _ in range(count)]

    def cost(order: tuple[str, ...]) -> float:
        named = [(index, names[index]) for index in kept] + list(zip(free, order))
        return sum(costs[index, name] for index, name in zip(free, order)) + _unlike(faces, named)

    ranked = sorted((cost(order), order) for order in set(itertools.permutations(slots)))
    if len(ranked) > 1 and ranked[1][0] - ranked[0][0] < SET_MARGIN:
        return list(names)
    named = list(names)
    for index, name in zip(free, ranked[0][1]):
        named[index] = name
    return named
