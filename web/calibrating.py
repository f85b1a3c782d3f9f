"""Calibrating from the table screen: the host clears the table, then lays the six dice apart; the camera loop's
frames are learned from as `qwixx-table calibrate` learns from a camera's (calibration.learn), and only when the host
saves is the file written and the camera loop reading with it, at once. Cancelling changes nothing.

One calibration at a time (there is one camera). While it goes on, the camera loop reads no roll: the dice being
cleared away and laid out are not a roll.
"""
from __future__ import annotations

import contextlib
import threading
from dataclasses import replace
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

import calibration
from calibration.learn import FRAMES_AVERAGED, average, check, learn, play_area_problem
from vision import QWIXX_COLOURS, read_dice
from web.validate import ApiError


class Calibrating:
    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path is not None else calibration.default_path()
        self._busy = threading.Lock()  # one step at a time: learning takes a moment
        self._loop = None  # the camera loop being calibrated, None when no calibration goes on
        self._empty: np.ndarray | None = None
        self._dice: np.ndarray | None = None
        self._learned: calibration.Calibration | None = None
        self._seen: list = []

    @property
    def step(self) -> str | None:
        """What the host does next: "empty" (clear the table), "dice" (lay them out), "learned" (save or not)."""
        if self._loop is None:
            return None
        return "empty" if self._empty is None else "dice" if self._learned is None else "learned"

    def to_json(self, loop) -> dict:
        """Where things stand: the step, the file, what the camera reads with now, and the result to look at."""
        in_use = loop.calibration if loop is not None else None
        return {
            "step": self.step,
            "file": str(self.path),
            "camera": loop is not None,
            "in_use": None if in_use is None else {"created": in_use.created, "resolution": list(in_use.resolution)},
            "result": None if self._learned is None else result_json(self._learned, self._seen),
        }

    # ----- the steps, each refused with nothing changed when it cannot be done -----------------------------------

    def start(self, loop, camera_state: str) -> None:
        with self._step():
            if loop is None:
                raise ApiError(409, "no-camera", "There is no camera to calibrate: start the table with one "
                                                 "(settings key `source`).")
            if loop.demo:
                raise ApiError(409, "demo", "The demo recording is not your table: start the table with the camera "
                                            "that watches it (settings key `source`), then calibrate.")
            if camera_state == "moving":
                raise ApiError(409, "dice-rolling", "The camera is reading a roll: calibrate once the dice rest and "
                                                    "the roll is entered.")
            if loop.jpeg() is None:
                raise ApiError(409, "no-picture", "The camera has sent no picture yet: check it, then try again.")
            if self._loop is None:
                loop.pause_reading()
            self._loop, self._empty, self._dice, self._learned, self._seen = loop, None, None, None, []

    def capture_empty(self) -> None:
        with self._step("empty", "dice", "learned"):
            self._empty, self._dice, self._learned, self._seen = self._still_frame(), None, None, []

    def capture_dice(self) -> None:
        with self._step("dice", "learned"):
            dice = self._still_frame()
            if dice.shape != self._empty.shape:
                raise ApiError(409, "size-changed", "The camera's picture size changed since the empty table was "
                                                    "taken: take the empty table again.")
            exposure = calibration.Exposure.from_controls(self._loop.locked_controls())
            try:
                learned = learn(self._empty, dice, read_dice, exposure=exposure)
            except calibration.CalibrationError as error:
                raise ApiError(422, "not-learned", f"Not calibrated: {error}.") from None
            seen, warning = check(dice, learned, read_dice)
            if warning:
                learned = replace(learned, notes=(*learned.notes, warning))
            self._dice, self._learned, self._seen = dice, learned, seen

    def set_play_area(self, corners: list[list[float]]) -> None:
        """The host's own play area for the calibration being made: the tray's corners in the picture, in order
        round it. Refused, with the learned one kept, unless it lies in the picture, its edges do not cross and it
        holds the dice laid out for it."""
        with self._step("learned"):
            laid_out = [(die.colour, die.center) for die in self._seen if die.colour in QWIXX_COLOURS]
            problem = play_area_problem(corners, self._learned.resolution, laid_out)
            if problem:
                raise ApiError(422, "bad-play-area", f"Not changed: {problem}.")
            self._learned = replace(self._learned, play_area=tuple((x, y) for x, y in corners))

    def picture(self) -> bytes:
        """The dice as the camera saw them for the result, full size (the result's outlines are in its pixels)."""
        if self._dice is None:
            raise ApiError(404, "no-picture", "Nothing has been learned yet: lay out the dice first.")
        _, encoded = cv2.imencode(".jpg", self._dice, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return encoded.tobytes()

    def save(self) -> None:
        with self._step("learned"):
            try:
                self._learned.save(self.path)
            except OSError as error:
                raise ApiError(503, "not-saved", f"The calibration could not be written to {self.path}: "
                                                 f"{error.strerror or error}. Nothing was changed.") from None
            self._loop.resume_reading(self._learned)
            self._finish()

    def cancel(self) -> None:
        with self._step():
            if self._loop is not None:
                self._loop.resume_reading()
            self._finish()

    # ----- helpers -----------------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _step(self, *allowed: str):
        """One step at a time, refused where it does not follow (`allowed`: the steps it may be taken at)."""
        if not self._busy.acquire(blocking=False):
            raise ApiError(409, "busy", "The camera is still taking the last step: wait a moment.")
        try:
            if allowed and self.step not in allowed:
                raise ApiError(409, "wrong-step", _NOT_NOW[self.step])
            yield
        finally:
            self._busy.release()

    def _still_frame(self) -> np.ndarray:
        frames = self._loop.next_frames(FRAMES_AVERAGED)
        if not frames:
            raise ApiError(409, "no-picture", "The camera has sent no picture: check it, then try again.")
        return average(frames)

    def _finish(self) -> None:
        self._loop, self._empty, self._dice, self._learned, self._seen = None, None, None, None, []


_NOT_NOW = {
    None: "No calibration is going on: start one first.",
    "empty": "Take the empty table first.",
    "dice": "Lay out the six dice and learn them first.",
    "learned": "Save or cancel the calibration first.",
}


def result_json(learned: calibration.Calibration, seen: Sequence) -> dict:
    """What the host looks at before saving: the dice the reader sees with it, the play area and the warnings."""
    return {
        "resolution": list(learned.resolution),
        "die_size": round(learned.die_size, 1),
        "play_area": [[round(x, 1), round(y, 1)] for x, y in learned.play_area],
        "dice": [{"colour": r.colour, "value": r.value, "corners": [[round(x, 1), round(y, 1)] for x, y in r.corners]}
                 for r in seen],
        "colours": {name: {"face": [round(v, 1) for v in colour.face], "pip_contrast": round(colour.pip_contrast, 1)}
                    for name, colour in learned.colours.items()},
        "exposure_locked": learned.exposure is not None,
        "warnings": list(learned.notes),
    }


