"""The reader's contract at its edges: bad frames get a clear error, empty tables give no dice."""
import numpy as np
import pytest

from vision import DiceReader, FrameError, read_dice


@pytest.fixture(scope="module")
def reader():
    return DiceReader()


@pytest.mark.parametrize(
    "frame, message",
    [
        ("photo.jpg", "numpy array"),
        (np.zeros((0, 0, 3), np.uint8), "empty"),
        (np.zeros((480, 640), np.uint8), "single-channel"),
        (np.zeros((480, 640, 1), np.uint8), "single-channel"),
        (np.zeros((480, 640, 4), np.uint8), "(height, width, 3)"),
        (np.zeros((480, 640, 3), np.float32), "uint8"),
        (np.zeros((480, 640, 3), np.uint16), "uint8"),
        (np.zeros((10, 640, 3), np.uint8), "too small"),
    ],
)
def test_a_frame_the_reader_cannot_use_gets_a_clear_error(reader, frame, message):
    with pytest.raises(FrameError, match=message.replace("(", r"\(").replace(")", r"\)")):
        reader.read(frame)


def test_frame_errors_are_value_errors():
    with pytest.raises(ValueError):
        read_dice(np.zeros((5, 5), np.uint8))


@pytest.mark.parametrize("shape", [(480, 640), (720, 1280), (1296, 2304)])
def test_an_empty_table_has_no_dice(reader, shape):
    rng = np.random.default_rng(1)
    table = np.full(shape + (3,), (150, 170, 190), np.uint8)
    table = np.clip(table + rng.normal(0, 4, table.shape), 0, 255).astype(np.uint8)
    assert reader.read(table) == []


def test_the_reader_does_not_change_the_frame(reader):
    frame = np.full((480, 640, 3), 120, np.uint8)
    frame[200:240, 300:340] = 250
    before = frame.copy()
    reader.read(frame)
    assert np.array_equal(frame, before)
