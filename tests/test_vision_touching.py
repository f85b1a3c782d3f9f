"""A die touching another may rest cocked against it: it must be surer to be given a value."""
from vision.reader import TOUCHING_CONFIDENCE, _doubt_if_leaning
from vision.readings import DieReading


def die(x, confidence, value=4):
    corners = ((x - 10, 40.0), (x + 10, 40.0), (x + 10, 60.0), (x - 10, 60.0))  # 20 px edges
    return DieReading("green", value, confidence, (x, 50.0), corners)


def test_an_unsure_die_touching_another_is_reported_as_perhaps_cocked():
    unsure, neighbour = die(100, TOUCHING_CONFIDENCE - 0.02), die(122, 0.99)
    doubted = _doubt_if_leaning(unsure, [unsure, neighbour])
    assert (doubted.value, doubted.problem) == (None, "cocked")
    assert doubted.center == unsure.center and doubted.colour == unsure.colour


def test_a_sure_die_or_one_standing_apart_keeps_its_value():
    sure, unsure, neighbour, far = die(100, 0.99), die(100, TOUCHING_CONFIDENCE - 0.02), die(122, 0.99), die(200, 0.99)
    assert _doubt_if_leaning(sure, [sure, neighbour]) == sure
    assert _doubt_if_leaning(unsure, [unsure, far]) == unsure
    declined = die(100, 0.3, value=None)
    assert _doubt_if_leaning(declined, [declined, neighbour]) == declined
