"""bench/table.py judges each roll as the table would, and times the reads that found dice."""
import runpy
from pathlib import Path

import numpy as np

from vision.readings import DieReading

BENCH = Path(__file__).resolve().parents[1] / "bench" / "table.py"
ROLL = [("white", 2), ("white", 5), ("red", 3), ("yellow", 4), ("green", 6), ("blue", 1)]


def roll_reader(image, calibration=None, dice_set=None):
    """A stand-in reader: the six dice of ROLL wherever the frame is not empty."""
    if not image.any():
        return []
    corners = ((-13, -13), (13, -13), (13, 13), (-13, 13))
    return [DieReading(colour, value, 0.99, (100.0 + 60 * k, 300.0),
                       tuple((100.0 + 60 * k + dx, 300.0 + dy) for dx, dy in corners))
            for k, (colour, value) in enumerate(ROLL)]


def test_a_roll_read_right_is_announced_right_and_only_the_reads_that_found_dice_are_timed():
    judge = runpy.run_path(str(BENCH))["judge"]
    empty = np.zeros((720, 1280, 3), np.uint8)
    rolled = empty.copy()
    rolled[250:350, 60:460] = 255
    truth = {"white": [2, 5], "red": [3], "yellow": [4], "green": [6], "blue": [1]}
    wrong = truth | {"red": [4]}
    reads = []

    def counted_reader(image, calibration=None, dice_set=None):
        readings = roll_reader(image, calibration, dice_set)
        reads.append(bool(readings))
        return readings

    read_times = []
    counts, problems = judge([empty], [([rolled], truth), ([rolled[:, ::-1].copy()], wrong)], counted_reader, None,
                             read_times)
    assert counts["announced right"] == 1 and counts["announced wrong"] == 1 and not problems
    # The tracker reads each still roll at least twice (at half and three quarters of its settle time), and the
    # empty table too.
    assert sum(reads) >= 4 and not all(reads)
    assert len(read_times) == sum(reads) and all(seconds >= 0 for seconds in read_times)
