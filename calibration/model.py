"""The calibration value: what this camera sees of this table, and the file it is kept in.

Colours are CIELAB (L* 0..100, a* and b* signed, D65), as OpenCV computes them from a float32 BGR
image scaled to 0..1 (`cv2.cvtColor(bgr.astype(np.float32) / 255, cv2.COLOR_BGR2Lab)`); `to_lab`
does exactly that. Unlike OpenCV's 8-bit Lab (L scaled to 0..255, a and b offset by 128), these are
true CIELAB units, so a Euclidean distance is a colour difference (Delta E 1976): about 2 is just
noticeable, above 20 is a different colour.
"""
from __future__ import annotations

import base64
import json
import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

FORMAT = "qwixx-table calibration"
VERSION = 1

Lab = tuple[float, float, float]
Point = tuple[float, float]

# Against the empty table, a die changes the table's colour or lightens it; a shadow only darkens it (CIELAB units).
CHANGED_CHROMA = 12.0
CHANGED_LIGHTNESS = 12.0
EMPTY_TABLE_WIDTH = 320  # the empty table is kept this wide at most
# A white die measured this far from grey is a measuring error, not the light: no channel is scaled further.
WHITE_BALANCE_LIMITS = (0.5, 2.0)


def in_polygon(corners: Sequence[Point], point: Point) -> bool:
    """Whether `point` lies in the polygon of `corners` (in order round it) or on its outline."""
    contour = np.array(corners, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


class CalibrationError(ValueError):
    """A calibration file that cannot be used: says which file and what is wrong with it."""


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """8-bit BGR pixels (any shape ending in 3) to float32 CIELAB in the units documented above."""
    # One row of pixels, not one column: OpenCV converts row by row, and a column of N one-pixel rows took six times
    # as long (3.1 ms rather than 0.5 for a 320x180 image, one core).
    pixels = np.asarray(bgr, dtype=np.float32).reshape(1, -1, 3) / 255.0
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab).reshape(np.shape(bgr))


def smoothed_lab(image: np.ndarray) -> np.ndarray:
    """CIELAB of a BGR image as where_changed compares it: smoothed a little, so that a camera's noise is no change."""
    return to_lab(cv2.GaussianBlur(image, (3, 3), 0))


def where_changed(empty_table: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """uint8 mask, 1 where `frame` differs from `empty_table` (both smoothed_lab, of one size) as a die would change
    it: in colour by CHANGED_CHROMA, or lighter by CHANGED_LIGHTNESS."""
    chroma = np.hypot(frame[..., 1] - empty_table[..., 1], frame[..., 2] - empty_table[..., 2])
    return ((chroma > CHANGED_CHROMA) | (frame[..., 0] - empty_table[..., 0] > CHANGED_LIGHTNESS)).astype(np.uint8)


def delta_e(first: Lab, second: Lab) -> float:
    """Colour difference (CIELAB Delta E 1976) between two Lab colours."""
    return math.dist(first, second)


@dataclass(frozen=True)
class DieColour:
    """How one colour of die looks under this light.

    `face` is the centre of the face colour, `spread` its standard deviation per channel (L*, a*, b*)
    over the faces seen; `pip_contrast` is L* of the pips minus L* of the face: negative for dark pips
    (white dice), positive for light pips.
    """

    face: Lab
    spread: Lab
    pip_contrast: float

    def __post_init__(self) -> None:
        _check_numbers("face", self.face, 3)
        _check_numbers("spread", self.spread, 3)
        if any(s < 0 for s in self.spread):
            raise ValueError(f"colour spread {self.spread} has a negative part")
        if not math.isfinite(self.pip_contrast):
            raise ValueError("pip contrast is not a number")


@dataclass(frozen=True)
class Exposure:
    """Camera settings locked after auto exposure and white balance settled, and autofocus where the camera has it
    (picamera2 control names)."""

    exposure_time: int  # microseconds
    analogue_gain: float
    colour_gains: tuple[float, float]  # red, blue
    compensation: float = 0.0  # stops asked of auto exposure while it settled (ExposureValue)
    lens_position: float | None = None  # dioptres (1 / metres) a movable lens was focused at (LensPosition)

    def __post_init__(self) -> None:
        if self.exposure_time <= 0 or self.analogue_gain <= 0 or min(self.colour_gains) <= 0:
            raise ValueError(f"exposure settings must be positive: {self}")
        if self.lens_position is not None and not 0 <= self.lens_position < math.inf:
            raise ValueError(f"the lens position must be a distance in dioptres, 0 or more: {self.lens_position}")

    @classmethod
    def from_controls(cls, controls: dict | None) -> "Exposure | None":
        """What a camera locked itself at (its source's `locked_controls`), or None for one that cannot be set."""
        if not controls or not all(k in controls for k in ("ExposureTime", "AnalogueGain", "ColourGains")):
            return None
        lens = controls.get("LensPosition")
        return cls(int(controls["ExposureTime"]), float(controls["AnalogueGain"]), tuple(controls["ColourGains"]),
                   float(controls.get("ExposureValue", 0.0)), None if lens is None else float(lens))

    def as_controls(self) -> dict:
        """The picamera2 controls that fix these settings (ExposureValue, which auto exposure alone heeds, says how
        they were found)."""
        controls = {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": int(self.exposure_time),
            "AnalogueGain": float(self.analogue_gain),
            "ColourGains": tuple(float(g) for g in self.colour_gains),
            "ExposureValue": float(self.compensation),
        }
        if self.lens_position is not None:
            controls["LensPosition"] = float(self.lens_position)
        return controls


@dataclass(frozen=True)
class Calibration:
    """What the camera and the table look like, at the capture size it was made at.

    Lengths and the play area are in pixels of `resolution` (width, height); use `scaled_to` for
    frames of another size. `colours` maps a die colour name ("white", "red", ...) to how it looks.
    `empty_table` is a small compressed image (PNG or JPEG bytes) of the table with no dice on it;
    `empty_table_image()` decodes it.
    """

    resolution: tuple[int, int]
    die_size: float  # edge of a die's top face, pixels
    colours: dict[str, DieColour]
    play_area: tuple[Point, ...]  # polygon, pixels, in order around the area
    empty_table: bytes | None = None
    exposure: Exposure | None = None
    created: str = ""  # ISO 8601 time it was made, for people reading the file
    notes: tuple[str, ...] = field(default=())  # warnings found when it was made

    def __post_init__(self) -> None:
        width, height = self.resolution
        if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
            raise ValueError(f"resolution must be two positive whole numbers, not {self.resolution}")
        if not (math.isfinite(self.die_size) and 0 < self.die_size < max(width, height)):
            raise ValueError(f"die size {self.die_size} px does not fit a {width}x{height} frame")
        if len(self.play_area) < 3:
            raise ValueError("the play area needs at least three corners")
        for point in self.play_area:
            _check_numbers("play area corner", point, 2)
        for name, colour in self.colours.items():
            if not isinstance(name, str) or not name:
                raise ValueError(f"bad colour name {name!r}")
            if not isinstance(colour, DieColour):
                raise ValueError(f"colour {name} is not a DieColour")

    @staticmethod
    def encode_image(bgr: np.ndarray, max_width: int = EMPTY_TABLE_WIDTH) -> bytes:
        """A small PNG of `bgr` for `empty_table`: the reader needs the table's look, not its detail. Not a JPEG,
        which keeps colour at half its size: compared with a frame, every coloured edge of a patterned table
        changed (on bench/table.py's tables 20-39, 64 rolls of 95 announced rather than 66; scripts outside the
        repository)."""
        height, width = bgr.shape[:2]
        if width > max_width:
            bgr = cv2.resize(bgr, (max_width, round(height * max_width / width)), interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".png", bgr)
        if not ok:
            raise ValueError("could not encode the empty-table image")
        return data.tobytes()

    def empty_table_image(self, size: tuple[int, int] | None = None) -> np.ndarray | None:
        """The empty table as BGR at `size` (width, height; this calibration's resolution by default), or None
        when there is none."""
        if self.empty_table is None:
            return None
        image = cv2.imdecode(np.frombuffer(self.empty_table, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            raise CalibrationError("the empty-table image in the calibration cannot be decoded")
        return cv2.resize(image, size or self.resolution, interpolation=cv2.INTER_LINEAR)

    def white_balanced(self, frame: np.ndarray) -> np.ndarray:
        """`frame` with each channel scaled so that the white dice look grey (at the lightness they have), as
        under the near-white light the reader's networks learned from; `frame` itself when no white die was
        learned."""
        if "white" not in self.colours:
            return frame
        white = cv2.cvtColor(np.array([[self.colours["white"].face]], np.float32), cv2.COLOR_Lab2BGR).reshape(3)
        gains = np.clip(white.mean() / np.maximum(white, 1e-3), *WHITE_BALANCE_LIMITS)
        return cv2.transform(frame, np.diag(gains))

    def play_area_mask(self) -> np.ndarray:
        """uint8 mask at this resolution: 255 inside the play area."""
        mask = np.zeros(self.resolution[::-1], np.uint8)
        cv2.fillPoly(mask, [np.round(np.array(self.play_area, np.float64)).astype(np.int32)], 255)
        return mask

    def in_play_area(self, point: Point) -> bool:
        return in_polygon(self.play_area, point)

    def scaled_to(self, width: int, height: int) -> "Calibration":
        """This calibration for frames of `width` x `height` from the same camera.

        Only a change of scale can be followed: a different aspect ratio means the camera crops
        differently, and what was learned no longer lines up with the frame.
        """
        if (width, height) == self.resolution:
            return self
        old_width, old_height = self.resolution
        if abs(width / height - old_width / old_height) > 0.01 * old_width / old_height:
            raise CalibrationError(
                f"the calibration was made at {old_width}x{old_height} and cannot be used for "
                f"{width}x{height} frames (another aspect ratio): calibrate again at this size"
            )
        sx, sy = width / old_width, height / old_height
        return replace(
            self,
            resolution=(width, height),
            die_size=self.die_size * math.sqrt(sx * sy),
            play_area=tuple((x * sx, y * sy) for x, y in self.play_area),
        )

    # -- the file --------------------------------------------------------------------------------

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "created": self.created,
            "resolution": list(self.resolution),
            "die_size": self.die_size,
            "colour_space": "CIELAB D65 (L* 0..100, a*, b*) as OpenCV computes it from float32 BGR in 0..1",
            "colours": {
                name: {"face": list(c.face), "spread": list(c.spread), "pip_contrast": c.pip_contrast}
                for name, c in self.colours.items()
            },
            "play_area": [list(p) for p in self.play_area],
            "empty_table": None if self.empty_table is None else base64.b64encode(self.empty_table).decode("ascii"),
            "exposure": None
            if self.exposure is None
            else {
                "ExposureTime": self.exposure.exposure_time,
                "AnalogueGain": self.exposure.analogue_gain,
                "ColourGains": list(self.exposure.colour_gains),
                "ExposureValue": self.exposure.compensation,
                "LensPosition": self.exposure.lens_position,
            },
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: dict) -> "Calibration":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CalibrationError("this is not a qwixx-table calibration file")
        version = data.get("version")
        if version != VERSION:
            raise CalibrationError(
                f"calibration file version {version!r} is not one this program reads (it reads {VERSION}); "
                "calibrate again with `qwixx-table calibrate`"
            )
        try:
            exposure = data.get("exposure")
            empty_table = data.get("empty_table")
            return cls(
                resolution=(int(data["resolution"][0]), int(data["resolution"][1])),
                die_size=float(data["die_size"]),
                colours={
                    str(name): DieColour(
                        face=_triple(c["face"]), spread=_triple(c["spread"]), pip_contrast=float(c["pip_contrast"])
                    )
                    for name, c in data["colours"].items()
                },
                play_area=tuple((float(x), float(y)) for x, y in data["play_area"]),
                empty_table=None if empty_table is None else base64.b64decode(empty_table, validate=True),
                exposure=None
                if exposure is None
                else Exposure(
                    exposure_time=int(exposure["ExposureTime"]),
                    analogue_gain=float(exposure["AnalogueGain"]),
                    colour_gains=(float(exposure["ColourGains"][0]), float(exposure["ColourGains"][1])),
                    compensation=float(exposure.get("ExposureValue", 0.0)),
                    lens_position=None if exposure.get("LensPosition") is None else float(exposure["LensPosition"]),
                ),
                created=str(data.get("created", "")),
                notes=tuple(str(n) for n in data.get("notes", ())),
            )
        except CalibrationError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            raise CalibrationError(f"damaged calibration: {_describe(error)}") from error

    def save(self, path: str | os.PathLike) -> None:
        """Write the file atomically: a crash mid-write leaves the old calibration in place."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, path)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Calibration":
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CalibrationError(f"{path}: no such calibration file (make one with `qwixx-table calibrate`)") from None
        except (OSError, UnicodeDecodeError) as error:
            raise CalibrationError(f"{path}: cannot read the calibration: {error}") from error
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CalibrationError(f"{path}: damaged calibration file (not JSON: {error})") from error
        try:
            return cls.from_json(data)
        except CalibrationError as error:
            raise CalibrationError(f"{path}: {error}") from error


def default_path() -> Path:
    """Where the calibration lives unless `--calibration FILE` says otherwise: the service's state directory
    under systemd (its user has no home), else the XDG config folder."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0]) / "calibration.json"
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config_home) / "qwixx-table" / "calibration.json"


def find(path: str | os.PathLike | None = None) -> Calibration | None:
    """The calibration a command should use: `path` when given (it must load), else the default file
    when there is one, else None (the reader's defaults)."""
    if path is not None:
        return Calibration.load(path)
    default = default_path()
    return Calibration.load(default) if default.exists() else None


def _check_numbers(what: str, values, count: int) -> None:
    if len(values) != count or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in values):
        raise ValueError(f"{what} must be {count} finite numbers, not {values!r}")


def _triple(values) -> Lab:
    if len(values) != 3:
        raise ValueError(f"expected three numbers, got {values!r}")
    return (float(values[0]), float(values[1]), float(values[2]))


def _describe(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"missing field {error.args[0]!r}"
    return str(error) or type(error).__name__
