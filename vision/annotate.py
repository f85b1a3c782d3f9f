"""Readings drawn on a copy of the frame, for a person to check what the reader saw."""
from __future__ import annotations

import cv2
import numpy as np

from vision.readings import DieReading

# BGR colours to draw each die colour in; unreadable dice get a dashed look via a magenta outline.
DRAW_COLOURS = {
    "white": (255, 255, 255), "red": (40, 40, 230), "yellow": (0, 220, 255), "green": (60, 200, 60),
    "blue": (230, 120, 30), "black": (40, 40, 40), "other": (200, 200, 200),
}
UNREADABLE_COLOUR = (255, 0, 255)


def annotate(frame: np.ndarray, readings: list[DieReading]) -> np.ndarray:
    out = frame.copy()
    thickness = max(1, round(min(frame.shape[:2]) / 400))
    scale = max(0.4, min(frame.shape[:2]) / 900)
    for reading in readings:
        outline = np.round(np.array(reading.corners, np.float32)).astype(np.int32).reshape(-1, 1, 2)
        colour = DRAW_COLOURS[reading.colour] if reading.value is not None else UNREADABLE_COLOUR
        cv2.polylines(out, [outline], True, (0, 0, 0), thickness + 2, cv2.LINE_AA)
        cv2.polylines(out, [outline], True, colour, thickness, cv2.LINE_AA)
        text = f"{reading.colour} {reading.value if reading.value is not None else '?' + (reading.problem or '')}"
        x = int(min(p[0] for p in reading.corners))
        y = int(min(p[1] for p in reading.corners)) - 4
        cv2.putText(out, text, (x, max(y, 12)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 2, cv2.LINE_AA)
        cv2.putText(out, text, (x, max(y, 12)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
    return out
