"""Seen steeply from the side, a die's side face can look squarer than its top and be read as it: the side-face
network (vision/training/sideface.py) takes back the value of a reading it finds on a side face."""
from collections import Counter

import numpy as np

from vision.reader import SIDE_FACE, DiceReader
from vision.readings import DieReading


def reading_at(x, value, confidence=0.95):
    corners = ((x - 10, 40.0), (x + 10, 40.0), (x + 10, 60.0), (x - 10, 60.0))
    return DieReading("white", value, confidence, (x, 50.0), corners, None if value else "occluded")


class SideFaceNetwork:
    """Stands in for cv2.dnn's network: P(side face) `per_crop` for each reading sent, in both of its views."""

    def __init__(self, per_crop):
        self.per_crop, self.sent = per_crop, None

    def setInput(self, blob):  # noqa: N802 (cv2.dnn's name)
        self.sent = blob

    def forward(self):
        assert len(self.sent) == 2 * len(self.per_crop)  # each crop and its mirror image
        probability = np.clip(np.tile(self.per_crop, 2), 1e-6, 1 - 1e-6)
        return np.stack([np.zeros_like(probability), np.log(probability / (1 - probability))], axis=1)


def doubted(per_crop, readings):
    reader = DiceReader.__new__(DiceReader)  # the networks other than this one are not needed
    reader.side_face = SideFaceNetwork(per_crop)
    return reader._doubt_side_faces(np.zeros((100, 400, 3), np.uint8), readings), reader.side_face.sent


def test_a_reading_found_on_a_side_face_loses_its_value_and_says_why():
    readings = [reading_at(50, 4), reading_at(150, 2)]
    surely_side, likely_top = (1 + SIDE_FACE) / 2, SIDE_FACE / 2
    result, _ = doubted([surely_side, likely_top], readings)
    assert (result[0].value, result[0].problem) == (None, "occluded")
    assert result[0].center == readings[0].center and result[0].colour == readings[0].colour
    assert abs(result[0].confidence - surely_side) < 1e-4
    assert result[1] == readings[1]


def test_only_readings_with_a_value_are_looked_at():
    readings = [reading_at(50, None, 0.4), reading_at(150, 5), reading_at(250, None, 0.3)]
    result, sent = doubted([SIDE_FACE / 2], readings)
    assert len(sent) == 2 and result == readings
    assert doubted([], [reading_at(50, None, 0.4)])[1] is None  # nothing read: the network is not run


def labelled_readings(reader, scene):
    """(side_face_label, reading) for each reading of the rendered scene."""
    from synth import render
    from vision.training.sideface import side_face_label

    frame, truth = render(scene)
    dice = [die for die in truth.in_frame() if die.top_visible_fraction > 0]
    return [(side_face_label(reading, dice), reading) for reading in reader.read(frame)]


def test_side_faces_read_as_the_top_from_a_steep_camera_lose_their_value_and_tops_keep_theirs():
    """bench/vision.py --tilt 55's first twelve scenes, which training never saw: the network takes back the value of
    9 of the 10 side faces read (one of seed 5's three keeps it) and of none of 19 tops."""
    from synth import random_scene

    without, reader = DiceReader(doubt_side_faces=False), DiceReader()
    sides, kept = Counter(), Counter()
    for seed in range(12):
        scene = random_scene(seed, size=(1280, 720), tilt_deg=55, die_px=22)
        before, after = labelled_readings(without, scene), labelled_readings(reader, scene)
        assert [r.center for _, r in before] == [r.center for _, r in after]
        for (label, read), (_, checked) in zip(before, after):
            if label == 1:
                sides["side"] += 1
                kept["side"] += (checked.value, checked.problem) != (None, "occluded")
            elif label == 0:
                sides["top"] += 1
                kept["top"] += checked == read
    assert sides["side"] >= 8 and sides["top"] >= 8, sides
    assert kept["side"] <= sides["side"] / 5 and kept["top"] == sides["top"], (kept, sides)


def test_a_top_down_roll_keeps_every_value():
    from synth import random_scene

    scene = random_scene(3, size=(1280, 720), tilt_deg=0)
    readings = labelled_readings(DiceReader(), scene)
    assert sum(label == 0 for label, _ in readings) >= 4
    assert readings == labelled_readings(DiceReader(doubt_side_faces=False), scene)
