"""Frames in, dice readings out; and the tracker that decides when a roll has settled. No web, no rules."""
from vision.reader import DiceReader, FrameError, read_dice
from vision.readings import ALL_COLOURS, PROBLEMS, QWIXX_COLOURS, QWIXX_ROLL, DieReading
from vision.tracker import Problem, RollEvent, RollTracker

__all__ = [
    "ALL_COLOURS", "PROBLEMS", "QWIXX_COLOURS", "QWIXX_ROLL", "DiceReader", "DieReading", "FrameError", "Problem",
    "RollEvent", "RollTracker", "read_dice",
]
