"""The scene description: plain frozen values that say everything `render` draws."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from synth.dice import DIE_MM, FACE_NORMALS, LOOKS, DieLook, DieShape
from synth.geometry import Camera, Pose, quat_from_axis_angle, quat_mul, rotation_between
from vision.readings import ALL_COLOURS

# A die whose top face leans more than this is resting on something, not flat on the table.
COCKED_TILT_DEG = 8.0


@dataclass(frozen=True)
class Die:
    colour: str  # one of vision.ALL_COLOURS
    pose: Pose  # centre of the die in table mm; rotation from die axes (see synth.dice) to the table's
    look: DieLook | None = None  # None: the colour's usual look (white with dark pips, colours with light pips)
    shape: DieShape = field(default_factory=DieShape)
    velocity: tuple[float, float, float] = (0.0, 0.0, 0.0)  # mm/s, for motion blur
    seed: int = 0  # marbling and the die's small colour differences

    def __post_init__(self) -> None:
        if self.colour not in ALL_COLOURS:
            raise ValueError(f"unknown die colour {self.colour!r}; expected one of {ALL_COLOURS}")

    @staticmethod
    def resting(colour: str, x: float, y: float, value: int, yaw_deg: float = 0.0, **kwargs) -> "Die":
        """A die lying flat on the table at (x, y) mm with `value` on top, turned yaw_deg about the vertical."""
        return Die(colour, resting_pose(x, y, value, yaw_deg, kwargs.get("shape", DieShape()).size_mm), **kwargs)

    @property
    def top(self) -> tuple[int, float]:
        """The face most nearly on top, and how far it leans from level, in degrees."""
        return self.shape.top_face(self.pose.matrix)

    @property
    def value(self) -> int | None:
        """The value on top, or None when the die is cocked."""
        face, tilt = self.top
        return face if tilt <= COCKED_TILT_DEG else None

    @property
    def resolved_look(self) -> DieLook:
        return self.look if self.look is not None else LOOKS[self.colour][0]

    @property
    def moving(self) -> bool:
        return any(abs(v) > 1e-9 for v in self.velocity)


def resting_pose(x: float, y: float, value: int, yaw_deg: float = 0.0, size_mm: float = DIE_MM) -> Pose:
    if value not in FACE_NORMALS:
        raise ValueError(f"die value {value} is outside 1-6")
    up = rotation_between(FACE_NORMALS[value], (0, 0, 1))
    rotation = quat_mul(quat_from_axis_angle((0, 0, 1), yaw_deg), up)
    return Pose((float(x), float(y), size_mm / 2), rotation)


CLUTTER_KINDS = ("pen", "pencil", "coin", "cup", "lid", "pad", "hand")


@dataclass(frozen=True)
class Clutter:
    """Something on (or over) the table that is not a die. `pose` places the object's own frame: for the flat
    and lying things its centre on the table; for a hand, the middle of the palm (z = its height)."""

    kind: str
    pose: Pose
    colour: tuple[float, float, float] | None = None  # linear RGB; None: drawn from seed
    size: float = 1.0  # scale against the usual size
    velocity: tuple[float, float, float] = (0.0, 0.0, 0.0)  # mm/s, for motion blur
    seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in CLUTTER_KINDS:
            raise ValueError(f"unknown clutter kind {self.kind!r}; expected one of {CLUTTER_KINDS}")

    @property
    def moving(self) -> bool:
        return any(abs(v) > 1e-9 for v in self.velocity)


TABLE_KINDS = ("wood", "felt", "cloth", "paper", "white", "dark", "patterned")


@dataclass(frozen=True)
class Tray:
    """A dice tray: a felt floor in a rectangle with walls round it."""

    center: tuple[float, float] = (0.0, 0.0)
    size_mm: tuple[float, float] = (300.0, 220.0)  # inside
    yaw_deg: float = 0.0
    wall_height_mm: float = 30.0
    wall_mm: float = 12.0
    floor: tuple[float, float, float] = (0.03, 0.03, 0.035)
    rim: tuple[float, float, float] = (0.02, 0.02, 0.02)


@dataclass(frozen=True)
class Table:
    kind: str = "wood"
    seed: int = 0
    colour: tuple[float, float, float] | None = None  # main linear RGB colour; None: drawn from seed
    gloss: float | None = None  # 0 matte .. 1 varnished; None: the kind's usual
    tray: Tray | None = None

    def __post_init__(self) -> None:
        if self.kind not in TABLE_KINDS:
            raise ValueError(f"unknown table kind {self.kind!r}; expected one of {TABLE_KINDS}")


@lru_cache(maxsize=256)
def colour_temperature_rgb(kelvin: float) -> tuple[float, float, float]:
    """Linear RGB of a black body at `kelvin`, scaled to unit luminance (approximation by Tanner Helland's
    fit to the CIE tables, converted to linear)."""
    t = kelvin / 100
    r = 255 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * np.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255 if t >= 66 else (0 if t <= 19 else 138.5177312231 * np.log(t - 10) - 305.0447927307)
    srgb = np.clip([r, g, b], 0, 255) / 255
    rgb = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    luminance = rgb @ [0.2126, 0.7152, 0.0722]
    return tuple(float(v) for v in rgb / luminance)


@dataclass(frozen=True)
class Light:
    """One lamp (a disc of radius size_mm at `position`) plus the room's light from all round."""

    position: tuple[float, float, float] = (300.0, 400.0, 1500.0)
    kelvin: float = 4500.0
    size_mm: float = 60.0  # small: hard shadows; large (a window, a softbox): soft ones
    ambient: float = 0.35  # room light against the lamp's, on a level surface
    ambient_kelvin: float = 5500.0
    level: float = 1.0  # how bright the room is: below about 0.3 the camera raises its gain and the noise shows

    @property
    def colour(self) -> np.ndarray:
        return np.array(colour_temperature_rgb(self.kelvin))

    @property
    def ambient_colour(self) -> np.ndarray:
        return np.array(colour_temperature_rgb(self.ambient_kelvin))


@dataclass(frozen=True)
class Effects:
    """What the camera does to the light: exposure, colour, optics, motion, sensor, compression."""

    exposure_ev: float = 0.0  # against the camera's own auto exposure
    metering: str = "normal"  # "normal": bright things may clip; "highlight": the camera holds them back
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # gains left after the camera's white balance
    auto_white_balance: float = 0.8  # how much of the light's colour cast the camera removes (0 none, 1 all)
    vignetting: float = 0.2  # light lost in the corners
    defocus_px: float = 0.0  # blur sigma, pixels
    shake_px: tuple[float, float] = (0.0, 0.0)  # camera moving during the exposure, pixels
    exposure_s: float = 1 / 60  # shutter time, for moving dice and hands
    noise: float = 1.0  # against the sensor's usual noise at the gain the light needs
    sharpen: float = 0.6  # the camera's own sharpening
    jpeg_quality: int | None = 90  # None: no compression
    seed: int = 0  # sensor noise

    def __post_init__(self) -> None:
        if self.metering not in ("normal", "highlight"):
            raise ValueError(f"unknown metering {self.metering!r}; expected 'normal' or 'highlight'")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"jpeg quality {self.jpeg_quality} is outside 1-100")


@dataclass(frozen=True)
class Scene:
    camera: Camera = field(default_factory=Camera)
    light: Light = field(default_factory=Light)
    table: Table = field(default_factory=Table)
    dice: tuple[Die, ...] = ()
    clutter: tuple[Clutter, ...] = ()
    effects: Effects = field(default_factory=Effects)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", tuple(self.dice))
        object.__setattr__(self, "clutter", tuple(self.clutter))
