"""The side-face network's crops (vision.training.sideface): the reader's readings of generated scenes, labelled top
face or side face by the scene's truth."""
from types import SimpleNamespace

import numpy as np

from vision import geometry
from vision.readings import DieReading
from vision.training import sideface


def reading_at(x, y, value=3, edge=20.0):
    corners = ((x - edge / 2, y - edge / 2), (x + edge / 2, y - edge / 2), (x + edge / 2, y + edge / 2),
               (x - edge / 2, y + edge / 2))
    return DieReading("red", value, 0.9 if value else 0.4, (x, y), corners, None if value else "occluded")


def die_at(x, y, value=3, problem=None):
    return SimpleNamespace(center=(x, y), value=value, problem=problem, size_px=20.0)


def test_a_reading_on_the_top_face_is_a_top_and_one_a_face_off_with_another_value_a_side():
    dice = [die_at(100, 100, value=3), die_at(300, 100, value=5)]
    assert sideface.side_face_label(reading_at(102, 101), dice) == 0
    assert sideface.side_face_label(reading_at(100, 112, value=6), dice) == 1  # 0.6 of an edge below its top
    assert sideface.side_face_label(reading_at(300, 112, value=6), dice) == 1


def test_readings_neither_plainly_top_nor_side_are_not_cut():
    dice = [die_at(100, 100, value=3), die_at(300, 100, value=2, problem="cocked")]
    assert sideface.side_face_label(reading_at(100, 105), dice) is None  # a quarter edge off: in between
    assert sideface.side_face_label(reading_at(100, 112, value=3), dice) is None  # off, but its own value
    assert sideface.side_face_label(reading_at(100, 100, value=None), dice) is None  # no value
    assert sideface.side_face_label(reading_at(300, 100), dice) is None  # cocked: the leaning network's matter
    assert sideface.side_face_label(reading_at(200, 300), dice) is None  # no die near
    assert sideface.side_face_label(reading_at(100, 100), []) is None


def test_the_crop_is_upright_and_three_edges_across():
    frame = np.zeros((200, 200, 3), np.uint8)
    frame[70:90, 90:110] = 255  # a light square 20 px across, an edge above the reading's centre
    crop = geometry.side_face_crop(frame, (100.0, 100.0), 20.0)
    size = geometry.SIDE_FACE_SIZE
    assert crop.shape == (size, size, 3)
    # 60 px (three 20 px edges) round (100, 100): the square fills the crop's top third, its middle third across.
    light = np.argwhere(crop[..., 0] > 128)
    rows, columns = light[:, 0], light[:, 1]
    assert rows.min() == 0 and rows.max() < size / 3 + 1
    assert size / 3 - 1 <= columns.min() and columns.max() < 2 * size / 3 + 1


def test_cut_gives_labelled_crops_of_generated_scenes():
    crops, labels, seeds = sideface.cut(sideface.SEEDS, 2, log=lambda message: None)
    size = geometry.SIDE_FACE_SIZE
    assert crops.shape == (len(labels), size, size, 3) and crops.dtype == np.uint8 and len(labels) > 0
    assert set(labels.tolist()) <= {0, 1} and 0 in labels
    assert set(seeds.tolist()) <= {sideface.SEEDS, sideface.SEEDS + 1}
