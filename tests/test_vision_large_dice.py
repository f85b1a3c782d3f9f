"""A large die and its pips: the detector finds a pip as a small die of its own, often more strongly than the
die around it. The pip must not hide the die before both are read, and the die read wins."""
import numpy as np
import pytest

from vision import reader as R
from vision.reader import Candidate, _gives_way, _suppress_duplicates
from vision.readings import DieReading

DIE = Candidate(500.0, 500.0, 150.0, 0.4)
PIP = Candidate(530.0, 470.0, 30.0, 0.6)  # stronger than its die


def test_a_pip_smaller_than_any_die_looked_for_does_not_hide_its_die():
    assert set(_suppress_duplicates([DIE, PIP], smallest=40.0)) == {DIE, PIP}


def test_a_stronger_candidate_of_a_size_looked_for_hides_a_weaker_one_around_it_as_before():
    assert _suppress_duplicates([DIE, PIP], smallest=20.0) == [PIP]
    twin = Candidate(505.0, 495.0, 140.0, 0.3)
    assert _suppress_duplicates([DIE, twin], smallest=40.0) == [DIE]


def found(candidate, value):
    reading = DieReading("white", value, 0.95 if value else 0.3, (candidate.x, candidate.y),
                         ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)), None if value else "occluded")
    return candidate, None, reading, None


@pytest.mark.parametrize("die_value, pip_value, kept", [
    (5, None, "die"),  # the die read: its pip is not a die of its own
    (5, 1, "die"),  # a pip read as a black die showing 1 gives way to the die read around it
    (None, None, "die"),  # neither read: one die, the larger, is reported
    (None, 3, "pip"),  # a small die read within a large thing that is not: a heap of dice taken for one
])
def test_of_a_die_and_a_pip_found_on_it_the_one_read_is_kept(die_value, pip_value, kept):
    both = [found(DIE, die_value), found(PIP, pip_value)]
    remaining = ["die", "pip"]
    assert [name for name, one in zip(remaining, both) if not _gives_way(one, both)] == [kept]


def test_the_reader_reports_the_die_not_its_pip(monkeypatch):
    """Through `read`: the detector finds a 150 px die and, more strongly, a pip on it; the classifier reads
    the die as a five and the pip as a one."""
    reader = R.DiceReader()
    monkeypatch.setattr(reader, "levels", lambda shape, calibration: [1.0])
    monkeypatch.setattr(reader, "_peaks", lambda level: (
        np.array([PIP.x, DIE.x]), np.array([PIP.y, DIE.y]), np.array([PIP.extent, DIE.extent]),
        np.array([PIP.score, DIE.score])))

    def classify(frame, candidates, turns=range(R.VIEWS)):
        probs = np.zeros((len(candidates), len(turns), R.CLASS_COUNT))
        for index, candidate in enumerate(candidates):
            probs[index, :, 5 if candidate.extent > 100 else 1] = 1.0
        return probs

    monkeypatch.setattr(reader, "classify", classify)
    frame = np.full((1500, 3000, 3), 200, np.uint8)  # the smallest die looked for: 37.5 px, over the pip's 30
    frame[470:530, 440:560] = 40  # something darker on the face, so that it shows pips
    readings = reader.read(frame)
    assert [(r.value, r.center) for r in readings] == [(5, (DIE.x, DIE.y))]
