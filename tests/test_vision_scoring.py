"""The benchmark's scoring rules (../shared/dice-photos/README.md)."""
from vision import DieReading
from vision.scoring import TruthDie, cocked_given_a_value, full_set_named_wrong, outcomes, read_beside, score


def reading(x, y, value, colour="white"):
    return DieReading(colour, value, 0.9 if value else 0.2, (x, y), (), None if value else "cocked")


def test_each_outcome_is_counted():
    truth = [
        TruthDie(3, (0, 0, 10, 10)),
        TruthDie(5, (20, 0, 30, 10)),
        TruthDie(2, (40, 0, 50, 10)),
        TruthDie(6, (60, 0, 70, 10)),
    ]
    readings = [reading(5, 5, 3), reading(25, 5, 4), reading(45, 5, None), reading(100, 100, 1)]
    assert outcomes(truth, readings) == ["correct", "confident-wrong", "unreadable", "missed"]
    counts = score(truth, readings)
    assert (counts["correct"], counts["confident-wrong"], counts["unreadable"], counts["missed"], counts["false"]) == (
        1, 1, 1, 1, 1)


def test_one_reading_matches_one_die_and_the_nearest_wins():
    truth = [TruthDie(4, (0, 0, 20, 20))]
    counts = score(truth, [reading(3, 3, 1), reading(10, 11, 4)])
    assert counts["correct"] == 1 and counts["false"] == 1


def test_a_wrong_colour_is_a_wrong_reading():
    truth = [TruthDie(4, (0, 0, 20, 20), "red")]
    assert score(truth, [reading(10, 10, 4, "yellow")])["confident-wrong"] == 1


def test_without_boxes_dice_match_by_colour_and_value():
    truth = [TruthDie(1, None, "white"), TruthDie(2, None, "white")]
    counts = score(truth, [reading(0, 0, 2), reading(50, 50, 1)])
    assert counts["correct"] == 2 and counts["false"] == 0


def test_a_die_with_a_problem_is_right_when_declined_and_a_cocked_die_is_wrong_when_read():
    cut_off = TruthDie(4, (0, 0, 10, 10), problem="edge")
    cocked = TruthDie(None, (20, 0, 30, 10), problem="cocked")
    assert score([cut_off], [reading(5, 5, None)])["correct"] == 1
    assert score([cut_off], [reading(5, 5, 4)])["correct"] == 1
    assert score([cocked], [reading(25, 5, None)])["correct"] == 1
    assert score([cocked], [reading(25, 5, 3)])["confident-wrong"] == 1
    assert cocked_given_a_value([cut_off, cocked], [reading(5, 5, 4), reading(25, 5, 3)]) == (1, 1)
    assert cocked_given_a_value([cut_off, cocked], [reading(5, 5, 4), reading(25, 5, None)]) == (0, 1)


def test_a_roll_named_as_the_full_set_with_a_colour_wrong_is_told_apart():
    truth = [TruthDie(4, (0, 0, 20, 20), "white"), TruthDie(2, (40, 0, 60, 20), "red")]
    roll = {"white": 1, "red": 1}
    swapped = [reading(10, 10, 4, "red"), reading(50, 10, 2, "white")]
    assert full_set_named_wrong(truth, swapped, roll)
    assert not full_set_named_wrong(truth, [reading(10, 10, 4, "white"), reading(50, 10, 2, "red")], roll)
    # Two whites are not the set: the table asks rather than announces.
    assert not full_set_named_wrong(truth, [reading(10, 10, 4, "white"), reading(50, 10, 2, "white")], roll)


def test_a_die_read_beside_its_box_is_counted_by_the_value_given():
    # Boxes of top faces only, as on an oblique photo: the readings lie on the side faces below them.
    truth = [TruthDie(4, (0, 0, 20, 10)), TruthDie(2, (100, 0, 120, 10)), TruthDie(6, (200, 0, 220, 10)),
             TruthDie(5, (300, 0, 320, 10))]
    readings = [reading(10, 14, 1), reading(110, 15, 2), reading(210, 16, None), reading(310, 40, 3)]
    counts = score(truth, readings)
    assert counts["missed"] == 4 and counts["false"] == 4
    # The last lies further than half a die beyond its box: another die, not this one.
    assert read_beside(truth, readings) == {"other value": 1, "same value": 1, "no value": 1}


def test_a_reading_matched_to_a_die_is_not_also_beside_another():
    truth = [TruthDie(4, (0, 0, 20, 20)), TruthDie(3, (0, 25, 20, 45))]
    assert read_beside(truth, [reading(10, 18, 4)]) == {}


def test_a_die_without_a_box_leaves_the_others_matched_by_their_boxes():
    # Two red twos, one named red by its label and one "other": each box keeps the reading inside it.
    truth = [TruthDie(2, (0, 0, 20, 20), "other"), TruthDie(2, (100, 0, 120, 20), "red"), TruthDie(5, None, "green")]
    readings = [reading(10, 10, 2, "red"), reading(110, 10, 2, "other"), reading(300, 300, 5, "green")]
    assert outcomes(truth, readings) == ["confident-wrong", "confident-wrong", "correct"]
    assert score(truth, readings)["false"] == 0
