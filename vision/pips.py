"""A classical pip count, as a second opinion beside the classifier.

The die's face is cut out at a fixed size, pips are the spots of the pips' polarity (dark on light
dice, light on dark ones) inside the face's inner disc, and a spot counts when its area and shape are
those of a pip. It fails quietly (None) rather than guess: on tilted views, marbled dice or glare it
often cannot tell, and then only the classifier speaks.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import crop_around

SIDE = 48  # pixels the die's extent is scaled to
# A pip's area as a share of the extent squared (a 16 mm die's pips are about 3 mm across; a one's pip
# may be larger), and the least fill of its bounding box (a round spot fills about 0.78).
PIP_AREA = (0.006, 0.09)
PIP_FILL = 0.4
FACE_DISTANCE = 22.0  # Delta E within which a pixel counts as the face's colour
FACE_AREA = 0.25  # the face must cover at least this share of the crop


def count_pips(frame: np.ndarray, x: float, y: float, extent: float, face_lab, pip_contrast: float) -> int | None:
    """Pips on the face centred at (x, y), or None when the face does not show a clean count.

    The face is the connected region of the face's colour around the centre; pips are the holes in it.
    """
    if pip_contrast == 0 or extent < 14:
        return None
    crop = crop_around(frame, x, y, extent, SIDE)
    lab = cv2.cvtColor(crop.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    distance = np.linalg.norm(lab - np.asarray(face_lab, np.float32), axis=2)
    face = (distance < FACE_DISTANCE).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(face, connectivity=4)
    if count < 2:
        return None
    # The face: the largest region of its colour touching the crop's middle.
    middle = labels[SIDE // 3:2 * SIDE // 3, SIDE // 3:2 * SIDE // 3]
    candidates = [i for i in np.unique(middle) if i != 0]
    if not candidates:
        return None
    region = max(candidates, key=lambda i: stats[i, cv2.CC_STAT_AREA])
    face = (labels == region).astype(np.uint8)
    if face.sum() < FACE_AREA * SIDE * SIDE:
        return None
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(face)
    cv2.drawContours(filled, contours, -1, 1, -1)
    holes = (filled > 0) & (face == 0)
    count, _, stats, _ = cv2.connectedComponentsWithStats(holes.astype(np.uint8), connectivity=8)
    area_low, area_high = PIP_AREA[0] * SIDE * SIDE, PIP_AREA[1] * SIDE * SIDE
    pips = 0
    for index in range(1, count):
        _, _, width, height, area = stats[index]
        if area < area_low * 0.4:
            continue  # a speck of glare or noise
        if area > area_high or area < area_low or area / (width * height) < PIP_FILL:
            return None  # not a pip: two run together, a scratch, a logo
        pips += 1
    return pips if 1 <= pips <= 6 else None
