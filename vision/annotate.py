"""Readings drawn on a copy of the frame, for a person to check what the reader saw."""
from __future__ import annotations

import cv2
import numpy as np

from vision.readings import DieReading

# BGR colours to draw each die colour in; an unreadable die is outlined in UNREADABLE_COLOUR.
DRAW_COLOURS = {
    "white": (255, 255, 255), "red": (40, 40, 230), "yellow": (0, 220, 255), "green": (60, 200, 60),
    "blue": (230, 120, 30), "black": (40, 40, 40), "other": (200, 200, 200),
}
UNREADABLE_COLOUR = (255, 0, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def annotate(frame: np.ndarray, readings: list[DieReading]) -> np.ndarray:
    """A copy of the frame with each die's outline and a label (colour and value, or "?" and why not) in a box of
    its colour beside it, covering no die and no other label where the frame has room."""
    out = frame.copy()
    height, width = frame.shape[:2]
    thickness = max(1, round(min(height, width) / 400))
    scale = max(0.4, min(height, width) / 900)
    colours = [DRAW_COLOURS[r.colour] if r.value is not None else UNREADABLE_COLOUR for r in readings]
    for reading, colour in zip(readings, colours):
        outline = np.round(np.array(reading.corners, np.float32)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [outline], True, _contrasting(colour), thickness + 2, cv2.LINE_AA)
        cv2.polylines(out, [outline], True, colour, thickness, cv2.LINE_AA)
    taken = [_bounds(reading.corners) for reading in readings]
    for reading, colour, die in zip(readings, colours, list(taken)):
        text = f"{reading.colour} {reading.value if reading.value is not None else '?'}"
        if reading.value is None and reading.problem:
            text += f" ({reading.problem})"
        (text_width, text_height), baseline = cv2.getTextSize(text, FONT, scale, thickness)
        pad = thickness + 1
        x0, y0, x1, y1 = label = label_place(die, (text_width + 2 * pad, text_height + baseline + 2 * pad),
                                             taken, (width, height))
        taken.append(label)
        cv2.rectangle(out, (x0, y0), (x1 - 1, y1 - 1), colour, cv2.FILLED)
        cv2.putText(out, text, (x0 + pad, y1 - pad - baseline), FONT, scale, _contrasting(colour), thickness,
                    cv2.LINE_AA)
    return out


def label_place(die: tuple[int, int, int, int], size: tuple[int, int], taken: list[tuple[int, int, int, int]],
                frame_size: tuple[int, int]) -> tuple[int, int, int, int]:
    """Where a label of `size` (width, height) goes for a die whose bounds are `die` (x0, y0, x1, y1; x1 and y1 past
    the last pixel): above it, below, right or left, then the same a label's height further out, each kept inside the
    frame. The first that overlaps nothing `taken` (the dice, the labels placed so far), else the one that overlaps
    them least."""
    x0, y0, x1, y1 = die
    width, height = size
    frame_width, frame_height = frame_size
    gap = 2
    places = []
    for away in (0, height, 2 * height):
        places += [(x0, y0 - gap - away - height), (x0, y1 + gap + away), (x1 + gap + away, (y0 + y1 - height) // 2),
                   (x0 - gap - away - width, (y0 + y1 - height) // 2)]
    boxes = []
    for x, y in places:
        x, y = min(max(x, 0), max(frame_width - width, 0)), min(max(y, 0), max(frame_height - height, 0))
        boxes.append((x, y, x + width, y + height))
    return min(boxes, key=lambda box: sum(_overlap(box, other) for other in taken))


def _bounds(corners) -> tuple[int, int, int, int]:
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return int(np.floor(min(xs))), int(np.floor(min(ys))), int(np.ceil(max(xs))) + 1, int(np.ceil(max(ys))) + 1


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def _contrasting(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black on a light colour, white on a dark one (BGR, by its luma)."""
    blue, green, red = colour
    return (0, 0, 0) if 0.114 * blue + 0.587 * green + 0.299 * red >= 128 else (255, 255, 255)
