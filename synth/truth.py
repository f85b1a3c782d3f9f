"""The exact truth about a rendered frame, in the terms of vision.DieReading."""
from __future__ import annotations

from dataclasses import dataclass

from vision.readings import DieReading

# Below this many pixels across, the pips of a die cannot be told apart.
SMALL_DIE_PX = 12.0
# A die is "blurred" when motion smears it by more than this share of its size, or the lens's blur
# (Gaussian sigma) is more than this other share: then neighbouring pips run together.
BLUR_MOTION_SHARE = 0.3
BLUR_DEFOCUS_SHARE = 0.12
# A die is "occluded" when less than this share of its top face can be seen, or when its pips stand out from its top
# by less than PIPS_SEEN_DELTA_E (CIELAB) as the camera records them (a lamp mirrored in the top, or darkness):
# the PIP_PERCENTILE of the distances of the pixels at least PIP_PIXEL pip from the median of those at least
# FACE_PIXEL bare top. Of the 1,200 dice of bench/vision.py's 200 generated scenes, 24 measure under 10: enlarged,
# 15 tops washed white (under 1.5), coloured tops washed pale and white dice whose pips show at most as a faint
# smudge (3-5), and a dark blue die in dim light (8); the reader read none of them. The least contrast of a die it
# read is 11 (a pale blue one).
TOP_FACE_VISIBLE = 0.9
PIPS_SEEN_DELTA_E = 10.0
PIP_PIXEL = 0.5
PIP_PERCENTILE = 90
FACE_PIXEL = 0.9


@dataclass(frozen=True)
class DieTruth:
    colour: str
    value: int | None  # the face on top; None when the die is cocked
    center: tuple[float, float]  # the top face's centre, pixels
    corners: tuple[tuple[float, float], ...]  # the top face's corners, pixels, clockwise in the image
    problem: str | None  # why a reader may rightly decline to read it: cocked, edge, occluded, blurred, small
    visible_fraction: float  # share of the die's outline that shows in the frame (0..1)
    top_visible_fraction: float  # share of its top face that shows
    size_px: float  # mean length of the top face's edges in the image
    tilt_deg: float  # how far the top face leans from level
    blur_px: float  # how far the die moved during the exposure, pixels
    pip_contrast: float | None = None  # CIELAB distance of its top's pips from the top round them, as recorded

    @property
    def extent(self) -> float:
        """The larger side of the top face's upright box, pixels: what the reader's candidates measure."""
        xs, ys = [x for x, _ in self.corners], [y for _, y in self.corners]
        return max(max(xs) - min(xs), max(ys) - min(ys))

    def to_reading(self) -> DieReading:
        """The reading a perfect reader would give: the value only when nothing stops a safe reading."""
        return DieReading(self.colour, None if self.problem else self.value, 1.0, self.center, self.corners,
                          self.problem)

    def to_json(self) -> dict:
        reading = self.to_reading().to_json()
        reading.update(
            value=self.value,
            visible_fraction=round(self.visible_fraction, 3),
            top_visible_fraction=round(self.top_visible_fraction, 3),
            size_px=round(self.size_px, 1),
            tilt_deg=round(self.tilt_deg, 1),
            blur_px=round(self.blur_px, 1),
            pip_contrast=None if self.pip_contrast is None else round(self.pip_contrast, 1),
        )
        del reading["confidence"]
        return reading


@dataclass(frozen=True)
class ClutterTruth:
    kind: str
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 pixels of what shows in the frame (x1, y1 exclusive)

    def to_json(self) -> dict:
        return {"kind": self.kind, "box": list(self.box)}


@dataclass(frozen=True)
class Truth:
    dice: tuple[DieTruth, ...]  # in the order of scene.dice, including dice wholly outside the frame
    clutter: tuple[ClutterTruth, ...]  # what of the scene's clutter shows in the frame
    width: int
    height: int
    tray: tuple[tuple[float, float], ...] | None = None  # the tray floor's corners, pixels, when there is a tray

    def in_frame(self) -> tuple[DieTruth, ...]:
        """The dice that show at all."""
        return tuple(d for d in self.dice if d.visible_fraction > 0)

    def readings(self) -> list[DieReading]:
        return [d.to_reading() for d in self.in_frame()]

    def to_json(self) -> dict:
        return {
            "width": self.width,
            "height": self.height,
            "dice": [d.to_json() for d in self.in_frame()],
            "clutter": [c.to_json() for c in self.clutter],
            "tray": None if self.tray is None else [[round(x, 1), round(y, 1)] for x, y in self.tray],
        }
