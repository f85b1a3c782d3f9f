"""The reader on generated scenes of every condition the issue names, scored against synth's exact truth.

The bounds are floors well under what the reader does on these seeds (over every condition 58% of the dice
read and 3 in a hundred confident-wrong, most of those a colour named wrong under coloured light; on each
plain table two thirds or more read, hardly one wrong), with room for the generator's pixels to move a die
or two: they catch a reader that gets worse, far from the issue's goals (99% read, no confident-wrong
value). bench/vision.py gives the figures on 200 scenes.
"""
import math
from collections import Counter

import pytest

from synth import CONDITIONS, random_scene, render
from vision import QWIXX_ROLL, DiceReader
from vision.colour import light_gain, measure_face, name_colour
from vision.scoring import TruthDie, cocked_given_a_value, matched, score

SEEDS = (9001, 9002)  # far from the training seeds (vision.training.synth_scenes) and bench's 0-199
CONFIDENT_WRONG_AT_MOST = 0.06
MISSED_AT_MOST = 0.12
CORRECT_AT_LEAST = 0.4
# A die resting cocked on each of these seeds. Read as a photo the reader gives a value to 6 of the 20 (11 before a
# photo whose dice look like one Qwixx roll was read as one, where the leaning network may doubt a die), read as a
# Qwixx roll (the tracker's way) to 4 (issue 3: it must give none); the bounds catch it getting worse. It gave 2 of
# 20 as a roll while synth always cocked the blue die and the networks had learned the colour
# (vision/training/leaning.py).
COCKED_SEEDS = tuple(range(9101, 9121))
COCKED_GIVEN_AT_MOST = {"alone": 8, "roll": 6}
# Coloured light: of these seeds' 143 dice, 13 are named wrong one at a time, 1 in the reader's reading of the
# photo and 3 in its reading as a Qwixx roll (14, 2 and 1 with Bookworm's OpenCV 4.6 and numpy 1.24), and neither
# way makes a full set with a colour wrong.
COLOURED_LIGHT = ("warm", "cool", "dim", "glare")
COLOURED_LIGHT_SEEDS = tuple(range(9001, 9007))
NAMED_TOGETHER_WRONG_AT_MOST = 0.75  # of those named wrong one at a time
# Plain tables in neutral light: a wrong value there is a bug, not a hard case.
PLAIN = ("plain", "cloth", "felt", "wood", "tray")
PLAIN_CORRECT_AT_LEAST = 0.5
PLAIN_CONFIDENT_WRONG_AT_MOST = 1


@pytest.fixture(scope="module")
def reader():
    return DiceReader()


def truth_dice(truth):
    dice = []
    for die in truth.in_frame():
        xs = [p[0] for p in die.corners]
        ys = [p[1] for p in die.corners]
        dice.append(TruthDie(die.value, (min(xs), min(ys), max(xs), max(ys)), die.colour, die.problem))
    return dice


@pytest.fixture(scope="module")
def results(reader):
    """Counts per condition over SEEDS."""
    counts = {}
    for condition in sorted(CONDITIONS):
        totals = Counter()
        for seed in SEEDS:
            frame, truth = render(random_scene(seed, **CONDITIONS[condition]))
            totals += score(truth_dice(truth), reader.read(frame))
        counts[condition] = totals
    return counts


def shares(counts: Counter) -> dict:
    dice = sum(counts[k] for k in ("correct", "confident-wrong", "unreadable", "missed"))
    return {k: counts[k] / dice for k in ("correct", "confident-wrong", "unreadable", "missed")}


def test_over_all_conditions_few_values_are_wrong_and_most_dice_are_found(results):
    overall = shares(sum(results.values(), Counter()))
    assert overall["confident-wrong"] <= CONFIDENT_WRONG_AT_MOST, overall
    assert overall["missed"] <= MISSED_AT_MOST, overall
    assert overall["correct"] >= CORRECT_AT_LEAST, overall


def test_plain_tables_are_read_with_hardly_a_wrong_value(results):
    counts = sum((results[condition] for condition in PLAIN), Counter())
    assert counts["confident-wrong"] <= PLAIN_CONFIDENT_WRONG_AT_MOST, counts
    assert shares(counts)["correct"] >= PLAIN_CORRECT_AT_LEAST, counts
    assert shares(counts)["missed"] <= MISSED_AT_MOST, counts


def test_clutter_is_seldom_taken_for_a_die(results):
    """Pens, pencils, coins, cups, lids and pads beside the six dice (the first reader took about four a
    scene for dice). On these seeds 1 false die and 2 dice read wrong (a red four named white, a two read as
    a one); over seeds 9001-9012, 2 of 72 dice read wrong (1 before the classifier learnt pips as not dice)."""
    counts = results["clutter"]
    assert counts["false"] <= 3 * len(SEEDS) and counts["confident-wrong"] <= 2, counts


def test_a_die_resting_cocked_against_another_is_seldom_given_a_value(reader):
    """Ruling 9: a tilted die is re-rolled, so any value read off it is wrong. One scene per cocked die
    (random_scene never leans one by itself)."""
    given, cocked = Counter(), Counter()
    for seed in COCKED_SEEDS:
        frame, truth = render(random_scene(seed, **CONDITIONS["cocked"]))
        for way, readings in (("alone", reader.read(frame)), ("roll", reader.read(frame, dice_set=QWIXX_ROLL))):
            given_here, cocked_here = cocked_given_a_value(truth_dice(truth), readings)
            given[way], cocked[way] = given[way] + given_here, cocked[way] + cocked_here
    assert cocked == {"alone": len(COCKED_SEEDS), "roll": len(COCKED_SEEDS)}
    assert all(given[way] <= COCKED_GIVEN_AT_MOST[way] for way in given), f"{given} of {cocked} cocked dice given a value"


def test_a_roll_named_as_a_set_told_so_or_not_has_fewer_colours_wrong_and_no_wrong_full_set(reader):
    """Under a coloured lamp a white die can look yellow and glare can bleach a blue top: named one at a time
    (vision.colour.name_colour) many dice take another colour. The tracker reads each roll as the Qwixx set
    (vision.colour.name_as_set), and a photo whose six dice look like one roll is named as one too
    (name_photo_as_set). A roll named as the full set with a colour wrong would be announced wrong, where a roll with
    a colour too many is only flagged."""
    wrong = Counter()
    for condition in COLOURED_LIGHT:
        for seed in COLOURED_LIGHT_SEEDS:
            frame, truth = render(random_scene(seed, **CONDITIONS[condition]))
            dice = truth_dice(truth)
            photo = reader.read(frame)
            gain = light_gain(frame)
            wrong["one at a time"] += sum(
                r is not None and name_colour(measure_face(frame, *r.center, r.edge), None, gain) != die.colour
                for die, r in zip(dice, matched(dice, photo)))
            for way, readings in (("photo", photo), ("roll", reader.read(frame, dice_set=QWIXX_ROLL))):
                named_wrong = sum(r is not None and r.colour != die.colour
                                  for die, r in zip(dice, matched(dice, readings)))
                wrong[way] += named_wrong
                full_set = Counter(r.colour for r in readings) == Counter(QWIXX_ROLL)
                wrong[way + " full set"] += full_set and named_wrong > 0
    assert wrong["one at a time"] >= 6, wrong  # the scenes still show the problem
    assert wrong["photo"] <= NAMED_TOGETHER_WRONG_AT_MOST * wrong["one at a time"], wrong
    assert wrong["roll"] <= NAMED_TOGETHER_WRONG_AT_MOST * wrong["one at a time"], wrong
    assert wrong["photo full set"] == 0 and wrong["roll full set"] == 0, wrong


def test_a_calibration_gives_the_die_size_and_scales_with_the_frame(reader):
    from calibration import Calibration

    frame, truth = render(random_scene(9003, **CONDITIONS["plain"]))
    dice = truth.in_frame()
    die_size = sum(d.size_px for d in dice) / len(dice)
    height, width = frame.shape[:2]
    calibration = Calibration((width, height), die_size, {}, ((0, 0), (width, 0), (width, height), (0, height)))
    assert len(reader.levels(frame.shape, calibration)) == 1
    counts = score(truth_dice(truth), reader.read(frame, calibration))
    assert counts["confident-wrong"] == 0 and counts["missed"] <= 1, counts
    doubled = Calibration((2 * width, 2 * height), 2 * die_size, {}, ((0, 0), (2 * width, 0), (0, 2 * height)))
    assert reader.levels(frame.shape, doubled) == reader.levels(frame.shape, calibration)


# The seeds of 9001-9040 whose scene the reader misses dice in, read as a photo: 12 dice in all. Read as a roll, the
# peaks a stronger one hid and a finer level are looked at too: 2 missed.
MISSED_ALONE_SEEDS = (9005, 9006, 9025, 9026, 9029, 9036, 9037)


def test_a_roll_short_of_dice_is_searched_again(reader):
    missed = Counter()
    for seed in MISSED_ALONE_SEEDS:
        frame, truth = render(random_scene(seed))
        dice = truth_dice(truth)
        missed["alone"] += score(dice, reader.read(frame))["missed"]
        missed["roll"] += score(dice, reader.read(frame, dice_set=QWIXX_ROLL))["missed"]
    assert missed["alone"] >= 8, missed  # the scenes still show the problem
    assert missed["roll"] <= 4, missed


def test_a_die_bleached_white_by_glare_is_named_by_its_rim_in_a_photo(reader):
    """Scene 175 (bench/vision.py's generated scenes): glare washes the blue six's top out to white; read alone, with no
    set to name its colour against, its rim names it."""
    frame, truth = render(random_scene(175))
    blue = next(die for die in truth_dice(truth) if die.colour == "blue")
    reading = matched([blue], reader.read(frame))[0]
    assert (reading.colour, reading.value) == ("blue", 6)


def test_a_die_the_frame_cuts_is_never_given_a_value(reader):
    """Half outside the frame, a die may show a side face: in these scenes one was read as a 6 (0.98 sure) for its 4."""
    for seed in (2, 22):
        frame, truth = render(random_scene(seed, tilt_deg=0, edge=2, clutter="none", touching=0.0))
        readings = reader.read(frame)
        for die in truth.in_frame():
            if die.problem == "edge":
                near = [r for r in readings if math.dist(r.center, die.center) < die.size_px]
                assert all(r.value is None and r.problem == "edge" for r in near), (seed, die.value, near)


def test_dice_the_camera_blurs_past_reading_are_said_to_be_blurred_and_cocked_ones_cocked(reader):
    """The reason a die is unread tells the table what to do: refocus, or roll it again (ruling 9)."""
    blurred = Counter()
    for seed in range(201, 204):
        frame, _ = render(random_scene(seed, tilt_deg=0, clutter="none", touching=0.0, blur="defocus"))
        blurred.update(reading.problem for reading in reader.read(frame) if reading.value is None)
    cocked = Counter()
    for seed in COCKED_SEEDS[:4]:
        frame, _ = render(random_scene(seed, **CONDITIONS["cocked"]))
        cocked.update(reading.problem for reading in reader.read(frame) if reading.value is None)
    assert blurred["blurred"] >= 3 and blurred["cocked"] == 0, blurred
    assert cocked["cocked"] >= 3 and cocked["blurred"] == 0, cocked


def test_dice_a_shaken_camera_smears_past_reading_are_mostly_said_to_be_blurred(reader):
    """Shake smears a die one way and leaves its edges across the smear sharp: its sharpness is judged along the
    direction where it is weakest (five scenes: 12 of 16 unread dice blurred, 1 cocked; by the gradient's strength
    in any direction 5 were, 4 cocked)."""
    unread = Counter()
    for seed in range(201, 206):
        frame, _ = render(random_scene(seed, tilt_deg=0, clutter="none", touching=0.0, blur="shake"))
        unread.update(reading.problem for reading in reader.read(frame) if reading.value is None)
    assert unread["blurred"] >= 9 and unread["cocked"] <= 2, unread
