"""A die touching another may rest cocked against it: it must be surer to be given a value, and look flat in
each of its quarter turns."""
import numpy as np
import pytest

from synth import CONDITIONS, random_scene, render

from vision import reader as R
from vision.reader import LEANING_SHARE, TOUCHING_CONFIDENCE, _doubt_if_leaning, _touching
from vision.readings import DieReading
from vision.training.leaning import touches_another


def die(x, confidence, value=4):
    corners = ((x - 10, 40.0), (x + 10, 40.0), (x + 10, 60.0), (x - 10, 60.0))  # 20 px edges
    return DieReading("green", value, confidence, (x, 50.0), corners)


def test_only_a_die_within_touching_distance_of_another_touches_it():
    one, neighbour, far = die(100, 0.99), die(122, 0.99), die(200, 0.99)
    assert _touching(one, neighbour) and not _touching(one, far) and not _touching(one, one)


def test_a_touching_die_unsure_or_tilted_in_a_turn_is_reported_as_perhaps_cocked():
    unsure = die(100, TOUCHING_CONFIDENCE - 0.02)
    for doubted in (_doubt_if_leaning(unsure, 0.0), _doubt_if_leaning(die(100, 0.99), LEANING_SHARE + 0.05)):
        assert (doubted.value, doubted.problem) == (None, "cocked")
        assert doubted.center == unsure.center and doubted.colour == unsure.colour


def test_a_touching_die_sure_and_flat_in_every_turn_keeps_its_value():
    sure = die(100, 0.99)
    assert _doubt_if_leaning(sure, LEANING_SHARE - 0.05) == sure
    declined = die(100, 0.3, value=None)
    assert _doubt_if_leaning(declined, 1.0) == declined


class TiltedInOneTurn:
    """A four, 0.97 sure in every quarter turn but the first, which moves `tilted` of that to "unreadable"."""

    def __init__(self, tilted):
        self.tilted = tilted

    def __call__(self, frame, candidates, turns=range(R.VIEWS), networks=(), recolour=None):
        probs = np.zeros((len(candidates), len(turns), R.CLASS_COUNT))
        for index, turn in enumerate(turns):
            tilted = self.tilted if turn == 1 else 0.0
            probs[:, index, 4], probs[:, index, R.UNREADABLE] = 0.97 - tilted, 0.03 + tilted
        return probs


FLAT = R.FLAT_LEANING - 0.05


@pytest.mark.parametrize("apart, tilted, leaning, cocked", [
    (32.0, 0.2, (0.5, 0.5), True), (32.0, 0.0, (0.5, 0.5), False), (100.0, 0.2, (0.5, 0.5), False),
    (32.0, 0.2, (FLAT, FLAT), False),  # the leaning network finds both flat
    (32.0, 0.2, (FLAT, 0.5), True),  # one may lean on the other: neither is cleared
])
def test_the_reader_looks_at_the_turns_of_touching_dice_only(monkeypatch, apart, tilted, leaning, cocked):
    readings = read_two(monkeypatch, apart, tilted, leaning)
    assert all((r.value, r.problem) == ((None, "cocked") if cocked else (4, None)) for r in readings)


@pytest.mark.parametrize("dice_set, values", [(None, [4, 4]), ({"white": 2}, [None, 4])])
def test_in_a_roll_a_die_the_leaning_network_finds_leaning_is_not_read(monkeypatch, dice_set, values):
    # Both dice flat and sure in every turn; the network finds the first leaning, the second neither leaning nor
    # flat. Only a roll of a known set (as the tracker reads one) lets it add that doubt.
    leaning = (R.ROLL_LEANING + 0.05, R.FLAT_LEANING + 0.05)
    readings = read_two(monkeypatch, 32.0, 0.0, leaning, dice_set)
    assert [r.value for r in readings] == values
    assert [r.problem for r in readings] == [None if value else "cocked" for value in values]


@pytest.mark.parametrize("dice_set, values", [(None, [None, None]), ({"white": 2}, [4, 4])])
def test_in_a_roll_a_die_the_network_finds_flat_enough_may_be_a_little_tilted_in_a_turn(monkeypatch, dice_set, values):
    # Both dice sure, "unreadable" between LEANING_SHARE and ROLL_LEANING_SHARE in one turn, under ROLL_LEANING
    # leaning: doubted in a photo, read in a roll, where the leaning network is trusted more than the turns.
    tilted = (R.LEANING_SHARE + R.ROLL_LEANING_SHARE) / 2 - 0.03  # TiltedInOneTurn leaves 0.03 "unreadable" in each turn
    leaning = (R.ROLL_LEANING - 0.05, R.ROLL_LEANING - 0.05)
    readings = read_two(monkeypatch, 32.0, tilted, leaning, dice_set)
    assert [r.value for r in readings] == values


def test_the_turns_of_touching_dice_are_taken_by_the_classifiers_of_their_first_look(monkeypatch):
    turns_taken_by = []

    class Recording(TiltedInOneTurn):
        def __call__(self, frame, candidates, turns=range(R.VIEWS), networks=(), recolour=None):
            if turns.start == R.VIEWS:
                turns_taken_by.append(networks)
            return super().__call__(frame, candidates, turns, networks)

    readings = read_two(monkeypatch, 32.0, 0.0, (0.5, 0.5), classifier=Recording(0.0))
    assert [r.value for r in readings] == [4, 4]
    (networks,) = turns_taken_by  # both dice in one pass, without a calibration by both classifiers
    assert len(networks) == 2 and networks[0] is not networks[1]


LARGE = R.LARGE_DIE_EXTENT


@pytest.mark.parametrize("extent, dice_set, values", [
    (30.0, None, [None, None]), (LARGE, None, [4, None]), (30.0, {"white": 2}, [4, None])])
def test_a_die_the_leaning_network_finds_flat_is_read_however_tilted_its_turns_if_large_or_in_a_roll(
        monkeypatch, extent, dice_set, values):
    # Both tilted in a turn; the network finds the first flat, the second not: the first of two small dice in a
    # photo is not cleared (its neighbour may lean on it), the first of two large ones is, and so is the first in a
    # roll.
    readings = read_two(monkeypatch, 1.1 * extent, 0.2, (FLAT, 0.5), dice_set, extent=extent)
    assert [r.value for r in readings] == values


@pytest.mark.parametrize("extent, values", [(30.0, [4, 4]), (LARGE, [None, 4])])
def test_a_large_die_the_leaning_network_finds_leaning_is_doubted_in_a_photo(monkeypatch, extent, values):
    # Both flat and sure in every turn; the network finds the first LARGE_LEANING, the second a little less.
    leaning = (R.LARGE_LEANING + 0.05, R.LARGE_LEANING - 0.05)
    readings = read_two(monkeypatch, 1.1 * extent, 0.0, leaning, extent=extent)
    assert [r.value for r in readings] == values
    assert [r.problem for r in readings] == [None if value else "cocked" for value in values]


@pytest.mark.parametrize("extent, dice_set, cleared", [
    (30.0, None, set()), (LARGE, None, set()), (30.0, {"white": 2}, {0}), (LARGE, {"white": 2}, {0})])
def test_in_a_roll_the_dice_the_leaning_network_clears_alone_are_looked_at_by_chroma_as_dice_touching_none(
        monkeypatch, extent, dice_set, cleared):
    looked_at = []

    def read_lone_dice(self, frame, candidates, readings, cleared=frozenset()):
        looked_at.append(cleared)
        return readings

    monkeypatch.setattr(R.DiceReader, "_read_lone_dice", read_lone_dice)
    read_two(monkeypatch, 1.1 * extent, 0.0, (FLAT, 0.5), dice_set, extent=extent)
    assert looked_at == [cleared]


def test_large_touching_dice_flat_ones_read_and_cocked_ones_not_given_a_value():
    """synth's "close" scenes (200-pixel dice, a die cocked against another) where the classifier's turns had
    doubted flat dice and missed cocked ones."""
    reader = R.DiceReader()
    flat_read, flat, cocked_given = 0, 0, []
    for seed in (900000, 900005, 900007, 900009, 900022):
        frame, truth = render(random_scene(seed, **CONDITIONS["close"], cocked=1))
        readings = reader.read(frame)
        for die in truth.in_frame():
            reading = min(readings, key=lambda r: np.hypot(r.center[0] - die.center[0], r.center[1] - die.center[1]))
            if die.problem == "cocked" and reading.value is not None:
                cocked_given.append((seed, die.colour, reading.value))
            elif die.problem is None:
                flat += 1
                flat_read += reading.value == die.value
    assert not cocked_given and flat_read == flat == 10, (cocked_given, flat_read, flat)


def read_two(monkeypatch, apart, tilted, leaning, dice_set=None, classifier=None, extent=30.0):
    """The readings of two dice `extent` pixels across and `apart` pixels apart that the classifier reads as fours
    (TiltedInOneTurn with `tilted`, or `classifier`) and the leaning network finds `leaning`."""
    reader = R.DiceReader(doubt_side_faces=False)  # the frames hold nothing for it to look at
    candidates = [R.Candidate(100.0, 100.0, extent, 0.9), R.Candidate(100.0 + apart, 100.0, extent, 0.9)]
    monkeypatch.setattr(reader, "places", lambda frame, *_, **__: (candidates, []))
    monkeypatch.setattr(reader, "centre", lambda frame, found: list(found))
    monkeypatch.setattr(reader, "classify", classifier or TiltedInOneTurn(tilted))
    monkeypatch.setattr(reader, "leaning_probability", lambda frame, dice: [leaning[candidates.index(d)] for d in dice])
    readings = reader.read(np.full((200, 240, 3), 128, np.uint8), dice_set=dice_set)
    assert len(readings) == 2
    return readings


@pytest.mark.xfail(reason="the leaning network, last trained on table rolls alone, finds one of these scenes' cocked "
                          "dice flat (issue 3; vision/training/leaning.py)", strict=True)
def test_the_leaning_network_never_finds_a_cocked_die_flat():
    """On generated scenes with a die cocked against another (the benchmark's, never trained on), the leaning
    network gives each cocked die at least FLAT_LEANING, so it never clears the reader's doubt about one; and it
    finds the flat dice touching another flat more often than not."""
    reader = R.DiceReader(doubt_side_faces=False)  # the frames hold nothing for it to look at
    cocked, flat = [], []
    for seed in range(6):
        frame, truth = render(random_scene(seed, **CONDITIONS["cocked"]))
        dice = truth.in_frame()
        for die in dice:
            [probability] = reader.leaning_probability(frame, [R.Candidate(*die.center, die.extent, 1.0)])
            if die.problem == "cocked":
                cocked.append(probability)
            elif die.problem is None and touches_another(die, dice):
                flat.append(probability)
    assert len(cocked) == 6 and min(cocked) >= R.FLAT_LEANING, cocked
    assert flat and sum(p < R.FLAT_LEANING for p in flat) > len(flat) / 2, flat


@pytest.mark.parametrize("dice_set, cocked_at", [
    (None, []),  # a photo: no set says a die is missing
    ({"white": 1}, []),  # the roll lacks no die
    ({"white": 3}, [132.0]),  # short of two: the near miss touching the die, not the one far from it
])
def test_in_a_roll_short_of_a_die_a_near_miss_touching_a_die_is_read_as_cocked(monkeypatch, dice_set, cocked_at):
    reader = R.DiceReader(doubt_side_faces=False)  # the frames hold nothing for it to look at
    candidates = [R.Candidate(100.0, 100.0, 30.0, 0.9), R.Candidate(132.0, 100.0, 30.0, 0.4),
                  R.Candidate(220.0, 100.0, 30.0, 0.4)]
    die_probability = {100.0: 0.99, 132.0: R.NEAR_MISS + 0.05, 220.0: R.NEAR_MISS + 0.05}

    def classify(frame, found, turns=range(R.VIEWS), networks=(), recolour=None):
        probs = np.zeros((len(found), len(turns), R.CLASS_COUNT))
        for index, candidate in enumerate(found):
            probs[index, :, R.NOT_A_DIE] = 1.0 - die_probability[candidate.x]
            probs[index, :, 4] = die_probability[candidate.x]
        return probs

    monkeypatch.setattr(reader, "places", lambda frame, *_, **__: (candidates, []))
    monkeypatch.setattr(reader, "centre", lambda frame, found: list(found))
    monkeypatch.setattr(reader, "classify", classify)
    monkeypatch.setattr(reader, "leaning_probability", lambda frame, dice: [0.0] * len(dice))
    readings = reader.read(np.full((200, 300, 3), 128, np.uint8), dice_set=dice_set)
    assert [r.center[0] for r in readings if r.problem == "cocked"] == cocked_at
    assert [(r.center[0], r.value) for r in readings if r.problem is None] == [(100.0, 4)]


@pytest.mark.parametrize("second, cocked", [(0.75, True), (0.45, False)])
def test_a_near_miss_is_judged_by_both_classifiers_though_the_first_alone_took_its_first_look(monkeypatch, second,
                                                                                                cocked):
    reader = R.DiceReader(doubt_side_faces=False)  # the frames hold nothing for it to look at
    candidates = [R.Candidate(100.0, 100.0, 30.0, 0.9), R.Candidate(132.0, 100.0, 30.0, 0.4)]
    first = R.NEAR_MISS - 0.05  # alone, short of a near miss and far from a die: the second is not asked at first
    die_probability = {(100.0, "first"): 0.99, (100.0, "second"): 0.99, (132.0, "first"): first,
                       (132.0, "second"): second}

    def classify(frame, found, turns=range(R.VIEWS), networks=(), recolour=None):
        names = ["second" if each is reader.second_classifier else "first" for each in networks or (reader.classifier,)]
        probs = np.zeros((len(found), len(turns), R.CLASS_COUNT))
        for index, candidate in enumerate(found):
            probs[index, :, 4] = np.mean([die_probability[candidate.x, name] for name in names])
            probs[index, :, R.NOT_A_DIE] = 1.0 - probs[index, :, 4]
        return probs

    monkeypatch.setattr(reader, "places", lambda frame, *_, **__: (candidates, []))
    monkeypatch.setattr(reader, "centre", lambda frame, found: list(found))
    monkeypatch.setattr(reader, "classify", classify)
    monkeypatch.setattr(reader, "leaning_probability", lambda frame, dice: [0.0] * len(dice))
    readings = reader.read(np.full((200, 300, 3), 128, np.uint8), dice_set={"white": 2})
    assert ((first + second) / 2 >= R.NEAR_MISS) == cocked
    assert [r.center[0] for r in readings if r.problem == "cocked"] == ([132.0] if cocked else [])


@pytest.mark.parametrize("dice_set, leaning, problem", [
    ({"white": 2}, R.ROLL_LEANING + 0.05, "cocked"),  # a roll: the network says why it cannot be read
    ({"white": 2}, R.ROLL_LEANING - 0.05, "occluded"),
    (None, 0.99, "occluded"),  # a photo of other dice: the network, which learned Qwixx rolls, is not asked to say
])
def test_in_a_roll_an_unreadable_die_touching_another_that_leans_is_called_cocked(monkeypatch, dice_set, leaning,
                                                                                   problem):
    reader = R.DiceReader(doubt_side_faces=False)  # the frames hold nothing for it to look at
    sure_four, unsure = R.Candidate(100.0, 100.0, 30.0, 0.9), R.Candidate(132.0, 100.0, 30.0, 0.9)

    def classify(frame, found, turns=range(R.VIEWS), networks=(), recolour=None):
        probs = np.zeros((len(found), len(turns), R.CLASS_COUNT))
        for index, candidate in enumerate(found):
            probs[index, :, 4] = 0.99 if candidate is sure_four else 0.4
            probs[index, :, 2] = 0.01 if candidate is sure_four else 0.35
            probs[index, :, 5] = 0.0 if candidate is sure_four else 0.25
        return probs

    monkeypatch.setattr(reader, "places", lambda frame, *_, **__: ([sure_four, unsure], []))
    monkeypatch.setattr(reader, "centre", lambda frame, found: list(found))
    monkeypatch.setattr(reader, "classify", classify)
    monkeypatch.setattr(reader, "leaning_probability",
                        lambda frame, dice: [leaning if c is unsure else 0.0 for c in dice])
    sharp = np.random.default_rng(3).integers(0, 256, (200, 300, 3), dtype=np.uint8)  # a flat grey one reads blurred
    readings = reader.read(sharp, dice_set=dice_set)
    assert [(r.center[0], r.value, r.problem) for r in readings] == [(100.0, 4, None), (132.0, None, problem)]


@pytest.mark.parametrize("hidden_by", ["a stronger peak", "the first level"])
@pytest.mark.parametrize("dice_set, read_at", [
    (None, [100.0]),  # a photo: only the peaks find keeps are looked at
    ({"white": 1}, [100.0]),  # the roll lacks no die
    ({"white": 2}, [100.0, 132.0]),  # short of one: the die the first look missed, not a second reading of the first
    ({"white": 3}, [100.0, 132.0]),
])
def test_in_a_roll_short_of_a_die_hidden_peaks_are_looked_at(monkeypatch, hidden_by, dice_set, read_at):
    # Two touching dice, 30 px across, and find kept only the peak on the first. The peaks beside it on the same die
    # and on the second die were left out (within half a die of the stronger first peak, as one on two touching dice
    # hides one), or only the finer level finds them.
    reader = R.DiceReader(doubt_side_faces=False)  # the frames hold nothing for it to look at
    on_first, beside_it, on_second = (R.Candidate(x, 100.0, 30.0, score) for x, score in
                                      ((100.0, 0.9), (104.0, 0.6), (132.0, 0.6)))

    def classify(frame, found, turns=range(R.VIEWS), networks=(), recolour=None):
        probs = np.zeros((len(found), len(turns), R.CLASS_COUNT))
        for index, candidate in enumerate(found):
            on_a_die = min(abs(candidate.x - 100.0), abs(candidate.x - 132.0)) <= 4.0
            probs[index, :, 4 if on_a_die else R.NOT_A_DIE] = 1.0
        return probs

    hidden = [beside_it, on_second]
    suppressed = hidden if hidden_by == "a stronger peak" else []
    monkeypatch.setattr(reader, "places", lambda frame, *_, **__: ([on_first], suppressed))
    monkeypatch.setattr(reader, "_finer_peaks", lambda frame, *_: [] if suppressed else hidden)
    monkeypatch.setattr(reader, "centre", lambda frame, found: list(found))
    monkeypatch.setattr(reader, "classify", classify)
    monkeypatch.setattr(reader, "leaning_probability", lambda frame, dice: [0.0] * len(dice))
    readings = reader.read(np.full((200, 300, 3), 128, np.uint8), dice_set=dice_set)
    assert sorted((r.center[0], r.value) for r in readings) == [(x, 4) for x in read_at]


def test_the_finer_level_is_finer_than_the_first(monkeypatch):
    reader = R.DiceReader(doubt_side_faces=False)  # the frames hold nothing for it to look at
    widths = []
    monkeypatch.setattr(reader, "_peaks", lambda level, *_: widths.append(level.shape[1]) or (np.zeros(0),) * 4)
    frame = np.full((720, 1280, 3), 128, np.uint8)
    assert reader._finer_peaks(frame) == [] and reader.find(frame) == []
    assert widths[0] == round(1280 * R.FINER * reader.levels(frame.shape, None)[0]) and widths[0] > widths[1]


class MirrorLeaningNetwork:
    """Stands in for cv2.dnn's leaning network: sure that a die leans in the mirror images it is sent (the second half
    of the batch, which it checks are the first half's), sure that it lies flat in the others."""

    def setInput(self, blob):  # noqa: N802 (cv2.dnn's name)
        half = len(blob) // 2
        assert np.array_equal(blob[half:], blob[:half][..., ::-1])
        self.half = half

    def forward(self):
        leaning = np.repeat([-20.0, 20.0], self.half)
        return np.stack([np.zeros_like(leaning), leaning], axis=1)


def test_the_leaning_network_sees_each_quarter_turn_and_its_mirror_image():
    reader = R.DiceReader.__new__(R.DiceReader)  # the networks other than this one are not needed
    reader.leaning = MirrorLeaningNetwork()
    frame = np.random.default_rng(1).integers(0, 255, (100, 200, 3), np.uint8)
    dice = [R.Candidate(50.0, 50.0, 20.0, 1.0), R.Candidate(140.0, 40.0, 24.0, 1.0)]
    assert reader.leaning_probability(frame, dice) == pytest.approx([0.5, 0.5])
    assert reader.leaning.half == 4 * len(dice)
