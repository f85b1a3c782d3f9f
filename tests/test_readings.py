import pytest

from vision import DieReading


def test_reading_round_trips_through_json():
    reading = DieReading("red", 5, 0.93, (10.0, 20.5), ((1, 2), (3, 4), (5, 6), (7, 8)))
    assert DieReading.from_json(reading.to_json()) == reading


@pytest.mark.parametrize(
    "kwargs",
    [dict(colour="purple"), dict(value=7), dict(value=0), dict(problem="tipsy"), dict(confidence=1.5)],
)
def test_reading_rejects_impossible_values(kwargs):
    fields = dict(colour="white", value=3, confidence=0.5, center=(0, 0), corners=(), problem=None)
    fields.update(kwargs)
    with pytest.raises(ValueError):
        DieReading(**fields)
