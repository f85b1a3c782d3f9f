"""Poses, rotations and the pinhole camera. World units are millimetres; the table is the plane z = 0, z up."""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

# Raspberry Pi camera module 3 (standard lens): 66 degrees across its 16:9 sensor. Frames of a narrower
# aspect are crops of the full sensor height, as the Pi's ISP makes them.
PI_CAMERA_HFOV_DEG = 66.0
SENSOR_ASPECT = 16 / 9


def quat_from_axis_angle(axis, angle_deg: float) -> tuple[float, float, float, float]:
    axis = np.asarray(axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    half = math.radians(angle_deg) / 2
    s = math.sin(half)
    return (math.cos(half), axis[0] * s, axis[1] * s, axis[2] * s)


def quat_mul(a, b) -> tuple[float, float, float, float]:
    """The rotation b followed by a."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def quat_to_matrix(q) -> np.ndarray:
    w, x, y, z = np.asarray(q, dtype=float) / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def slerp(a, b, t: float) -> tuple[float, float, float, float]:
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    dot = float(a @ b)
    if dot < 0:  # the short way round
        b, dot = -b, -dot
    if dot > 0.9995:
        q = a + t * (b - a)
    else:
        theta = math.acos(dot)
        q = (math.sin((1 - t) * theta) * a + math.sin(t * theta) * b) / math.sin(theta)
    q = q / np.linalg.norm(q)
    return tuple(float(v) for v in q)


IDENTITY = (1.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Pose:
    """Where a rigid object is: its centre in table millimetres and its rotation (a unit quaternion w, x, y, z
    taking the object's own axes to the table's)."""

    position: tuple[float, float, float]
    rotation: tuple[float, float, float, float] = IDENTITY

    @staticmethod
    def at(x: float, y: float, z: float = 0.0, yaw_deg: float = 0.0) -> "Pose":
        return Pose((float(x), float(y), float(z)), quat_from_axis_angle((0, 0, 1), yaw_deg))

    @cached_property
    def matrix(self) -> np.ndarray:
        return quat_to_matrix(self.rotation)

    def rotated(self, axis, angle_deg: float) -> "Pose":
        """This pose turned about a table axis through its own centre."""
        return Pose(self.position, quat_mul(quat_from_axis_angle(axis, angle_deg), self.rotation))

    def moved(self, dx: float = 0.0, dy: float = 0.0, dz: float = 0.0) -> "Pose":
        x, y, z = self.position
        return Pose((x + dx, y + dy, z + dz), self.rotation)

    def lerp(self, other: "Pose", t: float) -> "Pose":
        """The pose a fraction t of the way to other (straight line, shortest rotation)."""
        position = tuple(float(a + t * (b - a)) for a, b in zip(self.position, other.position))
        return Pose(position, slerp(self.rotation, other.rotation, t))

    def to_local(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points) - np.asarray(self.position)) @ self.matrix

    def to_world(self, points: np.ndarray) -> np.ndarray:
        return np.asarray(points) @ self.matrix.T + np.asarray(self.position)


@dataclass(frozen=True)
class Camera:
    """A Pi camera above the table, looking at `target` on the table from `height_mm` above it, its axis
    `tilt_deg` from vertical, leaning from the side given by `azimuth_deg` (0: the camera stands at -y and
    looks towards +y). Image x runs along table +x for a top-down camera with no roll."""

    width: int = 1280
    height: int = 720
    height_mm: float = 700.0
    tilt_deg: float = 0.0
    azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    hfov_deg: float = PI_CAMERA_HFOV_DEG
    target: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if self.width < 16 or self.height < 16:
            raise ValueError(f"frame size {self.width}x{self.height} is too small")
        if not 0 <= self.tilt_deg < 80:
            raise ValueError(f"tilt {self.tilt_deg} degrees is outside 0-80")
        if self.height_mm <= 0:
            raise ValueError(f"camera height {self.height_mm} mm must be above the table")

    @cached_property
    def focal_px(self) -> float:
        sensor_width_px = max(self.width, self.height * SENSOR_ASPECT)
        return sensor_width_px / 2 / math.tan(math.radians(self.hfov_deg) / 2)

    @cached_property
    def position(self) -> np.ndarray:
        az = math.radians(self.azimuth_deg)
        towards_far_side = np.array([math.sin(az), math.cos(az), 0.0])
        offset = self.height_mm * math.tan(math.radians(self.tilt_deg))
        return np.array([self.target[0], self.target[1], 0.0]) - offset * towards_far_side + [0, 0, self.height_mm]

    @cached_property
    def world_to_camera(self) -> np.ndarray:
        """Rows are the camera's x (image right), y (image down) and z (forward) axes in table coordinates."""
        az = math.radians(self.azimuth_deg)
        towards_far_side = np.array([math.sin(az), math.cos(az), 0.0])
        forward = np.array([self.target[0], self.target[1], 0.0]) - self.position
        forward /= np.linalg.norm(forward)
        down = -towards_far_side - (-towards_far_side @ forward) * forward
        down /= np.linalg.norm(down)
        right = np.cross(down, forward)
        roll = math.radians(self.roll_deg)
        right, down = (
            math.cos(roll) * right + math.sin(roll) * down,
            -math.sin(roll) * right + math.cos(roll) * down,
        )
        return np.stack([right, down, forward])

    @property
    def principal_point(self) -> tuple[float, float]:
        return (self.width / 2, self.height / 2)

    def project(self, points) -> np.ndarray:
        """Table points (..., 3) to pixel coordinates (..., 2); pixel (0, 0) is the top-left pixel's centre's
        top-left corner, so the image spans [0, width] x [0, height]."""
        cam = (np.asarray(points, dtype=float) - self.position) @ self.world_to_camera.T
        z = np.maximum(cam[..., 2:3], 1e-6)
        cx, cy = self.principal_point
        return cam[..., :2] / z * self.focal_px + [cx, cy]

    def depth(self, points) -> np.ndarray:
        return (np.asarray(points, dtype=float) - self.position) @ self.world_to_camera[2]

    def rays(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Unit ray directions in table coordinates through the image points (xs, ys), shape (..., 3)."""
        cx, cy = self.principal_point
        cam = np.stack([(xs - cx) / self.focal_px, (ys - cy) / self.focal_px, np.ones_like(xs)], axis=-1)
        world = cam @ self.world_to_camera
        return world / np.linalg.norm(world, axis=-1, keepdims=True)

    def table_point(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Where the rays through image points meet the table plane; NaN where they miss it."""
        directions = self.rays(np.asarray(xs, dtype=float), np.asarray(ys, dtype=float))
        dz = directions[..., 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(dz < -1e-6, -self.position[2] / dz, np.nan)
        return self.position + directions * t[..., None]

    def table_to_image_homography(self) -> np.ndarray:
        """3x3 homography taking table (x, y) millimetres to pixels."""
        rot = self.world_to_camera
        t = -rot @ self.position
        k = np.array([[self.focal_px, 0, self.width / 2], [0, self.focal_px, self.height / 2], [0, 0, 1]])
        return k @ np.column_stack([rot[:, 0], rot[:, 1], t])

    def pixels_per_mm_at(self, point) -> float:
        return self.focal_px / float(self.depth(point))

    @staticmethod
    def height_for_die_px(die_px: float, width: int, height: int, die_mm: float = 16.0,
                          hfov_deg: float = PI_CAMERA_HFOV_DEG) -> float:
        """The camera height at which a die on the table at the image centre looks die_px across (top-down)."""
        focal = Camera(width, height, hfov_deg=hfov_deg).focal_px
        return focal * die_mm / die_px + die_mm


def rotation_between(a, b) -> tuple[float, float, float, float]:
    """The shortest rotation taking unit vector a to unit vector b."""
    a = np.asarray(a, dtype=float) / np.linalg.norm(a)
    b = np.asarray(b, dtype=float) / np.linalg.norm(b)
    axis = np.cross(a, b)
    s = np.linalg.norm(axis)
    c = float(a @ b)
    if s < 1e-9:
        if c > 0:
            return IDENTITY
        perpendicular = np.cross(a, [1, 0, 0] if abs(a[0]) < 0.9 else [0, 1, 0])
        return quat_from_axis_angle(perpendicular, 180)
    return quat_from_axis_angle(axis, math.degrees(math.atan2(s, c)))

