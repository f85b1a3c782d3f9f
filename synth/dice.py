"""A six-sided die as a solid: a rounded cube with spherical dimples for pips, and how it looks.

In the die's own frame the faces are: 1 on +z, 6 on -z, 2 on +x, 5 on -x, 3 on +y, 4 on -y. Opposite faces
sum to 7 and 1, 2, 3 run counterclockwise round the corner they share (a right-handed, Western die).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

DIE_MM = 16.0

FACE_NORMALS = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0)}
# Two axes in each face with u x v = the outward normal, so that the pip layouts have one handedness.
FACE_AXES = {
    1: ((1, 0, 0), (0, 1, 0)),
    6: ((0, 1, 0), (1, 0, 0)),
    2: ((0, 1, 0), (0, 0, 1)),
    5: ((0, 0, 1), (0, 1, 0)),
    3: ((0, 0, 1), (1, 0, 0)),
    4: ((1, 0, 0), (0, 0, 1)),
}
# Pip positions on the face's 3x3 grid, (u, v) in {-1, 0, 1}.
PIP_LAYOUT = {
    1: ((0, 0),),
    2: ((-1, 1), (1, -1)),
    3: ((-1, 1), (0, 0), (1, -1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
# Corner order round a face: counterclockwise seen from outside the die (clockwise in an image seen from above).
FACE_CORNERS = ((-1, -1), (1, -1), (1, 1), (-1, 1))

# The face looked up by the axis of largest |coordinate| and its sign: index = 2 * axis + (coordinate < 0).
_FACE_BY_INDEX = (2, 5, 3, 4, 1, 6)


def face_index_of(points: np.ndarray) -> np.ndarray:
    """For each point in die coordinates, the index (into _FACE_BY_INDEX) of the face it is nearest."""
    axis = np.argmax(np.abs(points), axis=1)
    negative = points[np.arange(len(points)), axis] < 0
    return 2 * axis + negative


@dataclass(frozen=True)
class DieShape:
    """Proportions of a die, as fractions of its edge length. Defaults match common 16 mm rounded-corner dice:
    about 2 mm corner radius, 3 mm pips 4.3 mm apart, dimples 0.6 mm deep."""

    size_mm: float = DIE_MM
    corner_radius: float = 0.13
    pip_radius: float = 0.09
    pip_spacing: float = 0.27
    pip_depth: float = 0.04

    def __post_init__(self) -> None:
        if self.pip_spacing + self.pip_radius > 0.5 - self.corner_radius:
            raise ValueError("pips would run into the rounded edges")

    @cached_property
    def half(self) -> float:
        return self.size_mm / 2

    @cached_property
    def dimple_radius(self) -> float:
        """Radius of the sphere carved out of the face for each pip."""
        a = self.pip_radius * self.size_mm
        d = self.pip_depth * self.size_mm
        return (a * a + d * d) / (2 * d)

    @cached_property
    def _pip_grid(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per face index: outward normal, u and v axes (each (6, 3)), and which cells of the 3x3 grid hold a
        pip ((6, 3, 3) booleans)."""
        normals = np.array([FACE_NORMALS[v] for v in _FACE_BY_INDEX], dtype=float)
        us = np.array([FACE_AXES[v][0] for v in _FACE_BY_INDEX], dtype=float)
        vs = np.array([FACE_AXES[v][1] for v in _FACE_BY_INDEX], dtype=float)
        cells = np.zeros((6, 3, 3), bool)
        for index, value in enumerate(_FACE_BY_INDEX):
            for pu, pv in PIP_LAYOUT[value]:
                cells[index, pu + 1, pv + 1] = True
        return normals, us, vs, cells

    def distance(self, p: np.ndarray) -> np.ndarray:
        """Signed distance from points in die coordinates (N, 3) to the die's surface, in mm."""
        d_box = self._box_distance(p)
        # The dimples only matter within their depth of the surface; further out the box is the distance.
        near = np.nonzero(d_box < self.pip_depth * self.size_mm + 0.05)[0]
        if len(near):
            d_box[near] = np.maximum(d_box[near], -self._pip_distance(p[near])[0])
        return d_box

    def _box_distance(self, p: np.ndarray) -> np.ndarray:
        r = self.corner_radius * self.size_mm
        q = np.abs(p) - (self.half - r)
        outside = np.maximum(q, 0)
        inside = np.minimum(np.maximum(np.maximum(q[:, 0], q[:, 1]), q[:, 2]), 0)
        return np.sqrt(np.einsum("ij,ij->i", outside, outside)) + inside - r

    def _pip_distance(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Distance to the nearest dimple sphere (negative inside it; inf where the nearest grid cell of the
        nearest face has no pip) and that sphere's centre. Only the nearest cell's sphere can hold the point:
        the spheres are narrower than the gap between cells."""
        normals, us, vs, cells = self._pip_grid
        face = face_index_of(p)
        u_axis, v_axis = us[face], vs[face]
        spacing = self.pip_spacing * self.size_mm
        i = np.clip(np.rint(np.einsum("ij,ij->i", p, u_axis) / spacing), -1, 1).astype(int)
        j = np.clip(np.rint(np.einsum("ij,ij->i", p, v_axis) / spacing), -1, 1).astype(int)
        lift = self.half + self.dimple_radius - self.pip_depth * self.size_mm
        centre = normals[face] * lift + (u_axis * i[:, None] + v_axis * j[:, None]) * spacing
        offset = p - centre
        gap = np.sqrt(np.einsum("ij,ij->i", offset, offset)) - self.dimple_radius
        gap[~cells[face, i + 1, j + 1]] = np.inf
        return gap, centre

    def surface(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """At surface points: outward normals (N, 3), whether each lies in a pip, and how deep in it (mm)."""
        r = self.corner_radius * self.size_mm
        q = np.abs(p) - (self.half - r)
        normal = np.sign(p) * np.maximum(q, 0)
        length = np.linalg.norm(normal, axis=1, keepdims=True)
        flat = length[:, 0] < 1e-9
        if flat.any():  # only points inside the core box, which a surface point never is; kept for safety
            normal[flat] = np.eye(3)[np.argmax(q[flat], axis=1)] * np.sign(p[flat])
            length[flat] = 1
        normal = normal / length
        pip_gap, centre = self._pip_distance(p)
        in_pip = pip_gap < 0.02
        towards_centre = centre[in_pip] - p[in_pip]
        normal[in_pip] = towards_centre / np.linalg.norm(towards_centre, axis=1, keepdims=True)
        depth = np.zeros(len(p))
        depth[in_pip] = np.maximum(self.half - np.abs(p[in_pip]).max(axis=1), 0)
        return normal, in_pip, depth

    def top_face(self, rotation: np.ndarray) -> tuple[int, float]:
        """The face most nearly facing up for a die turned by `rotation` (die to table), and its tilt in degrees."""
        up_in_die = rotation.T @ np.array([0.0, 0.0, 1.0])
        value = max(FACE_NORMALS, key=lambda v: float(np.dot(FACE_NORMALS[v], up_in_die)))
        cosine = float(np.clip(np.dot(FACE_NORMALS[value], up_in_die), -1, 1))
        return value, float(np.degrees(np.arccos(cosine)))

    def face_corners(self, value: int) -> np.ndarray:
        """The 4 corners of a face, in die coordinates, in FACE_CORNERS order."""
        n = np.array(FACE_NORMALS[value], dtype=float)
        u, v = (np.array(axis, dtype=float) for axis in FACE_AXES[value])
        return np.array([(n + a * u + b * v) * self.half for a, b in FACE_CORNERS])

    @lru_cache(maxsize=64)
    def surface_samples(self, per_edge: int = 7) -> np.ndarray:
        """Points spread over the die's rounded surface, in die coordinates: for contact tests."""
        grid = np.linspace(-1, 1, per_edge)
        uu, vv = np.meshgrid(grid, grid)
        points = []
        for value in FACE_NORMALS:
            n = np.array(FACE_NORMALS[value], dtype=float)
            u, v = (np.array(axis, dtype=float) for axis in FACE_AXES[value])
            points.append(n + uu.reshape(-1, 1) * u + vv.reshape(-1, 1) * v)
        cube = np.concatenate(points) * self.half
        # Pull the cube's points onto the rounded surface along the direction from the core box.
        r = self.corner_radius * self.size_mm
        core = np.clip(cube, -(self.half - r), self.half - r)
        offset = cube - core
        length = np.linalg.norm(offset, axis=1, keepdims=True)
        samples = core + offset / np.maximum(length, 1e-9) * r
        samples.setflags(write=False)
        return samples


@dataclass(frozen=True)
class DieLook:
    """How a die's plastic looks: colours are linear RGB albedos in 0..1."""

    body: tuple[float, float, float]
    pips: tuple[float, float, float]
    finish: str = "solid"  # "solid", "marbled" (body swirled with `second`), "translucent"
    second: tuple[float, float, float] = (0.5, 0.5, 0.5)
    gloss: float = 0.5  # 0 matte .. 1 polished

    def __post_init__(self) -> None:
        if self.finish not in FINISHES:
            raise ValueError(f"unknown die finish {self.finish!r}; expected one of {FINISHES}")


FINISHES = ("solid", "marbled", "translucent")


def srgb_to_linear(rgb) -> tuple[float, float, float]:
    c = np.asarray(rgb, dtype=float) / 255.0
    return tuple(float(v) for v in np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4))


WHITE_PIPS = srgb_to_linear((238, 238, 232))
DARK_PIPS = srgb_to_linear((22, 22, 26))

def pip_kind(look: "DieLook") -> str:
    """"light", "dark" or "coloured": how a look's pips stand against the usual ones."""
    pips = np.asarray(look.pips)
    if pips.min() > 0.5:
        return "light"
    if pips.max() < 0.05:
        return "dark"
    return "coloured"


# The looks each colour can have: the first is the usual Qwixx die. Colour values are by eye from dice photos.
LOOKS: dict[str, tuple[DieLook, ...]] = {
    "white": (
        DieLook(srgb_to_linear((236, 234, 226)), DARK_PIPS),
        DieLook(srgb_to_linear((242, 240, 236)), srgb_to_linear((150, 24, 28))),
        DieLook(srgb_to_linear((228, 222, 205)), DARK_PIPS, gloss=0.3),
    ),
    "red": (
        DieLook(srgb_to_linear((200, 30, 36)), WHITE_PIPS),
        DieLook(srgb_to_linear((180, 22, 30)), DARK_PIPS),
        DieLook(srgb_to_linear((212, 44, 40)), srgb_to_linear((240, 210, 40))),
        DieLook(srgb_to_linear((190, 28, 40)), WHITE_PIPS, "translucent"),
    ),
    "yellow": (
        DieLook(srgb_to_linear((246, 210, 28)), WHITE_PIPS),
        DieLook(srgb_to_linear((244, 206, 20)), DARK_PIPS),
        DieLook(srgb_to_linear((250, 218, 40)), srgb_to_linear((200, 30, 36))),
    ),
    "green": (
        DieLook(srgb_to_linear((28, 150, 66)), WHITE_PIPS),
        DieLook(srgb_to_linear((20, 130, 60)), DARK_PIPS),
        DieLook(srgb_to_linear((40, 170, 80)), srgb_to_linear((245, 215, 40))),
        DieLook(srgb_to_linear((30, 160, 80)), WHITE_PIPS, "translucent"),
    ),
    "blue": (
        DieLook(srgb_to_linear((24, 70, 170)), WHITE_PIPS),
        DieLook(srgb_to_linear((30, 80, 180)), DARK_PIPS),
        DieLook(srgb_to_linear((20, 60, 160)), srgb_to_linear((245, 215, 40))),
    ),
    "black": (
        DieLook(srgb_to_linear((26, 26, 30)), WHITE_PIPS),
        DieLook(srgb_to_linear((30, 28, 28)), srgb_to_linear((200, 30, 36))),
    ),
    "other": (
        DieLook(srgb_to_linear((96, 36, 130)), WHITE_PIPS),  # purple
        DieLook(srgb_to_linear((240, 110, 30)), WHITE_PIPS),  # orange
        DieLook(srgb_to_linear((30, 110, 110)), srgb_to_linear((240, 210, 40)), "marbled",
                srgb_to_linear((20, 40, 40))),  # teal marbled
        DieLook(srgb_to_linear((150, 110, 50)), DARK_PIPS, "marbled", srgb_to_linear((80, 50, 20))),  # gold-brown
        DieLook(srgb_to_linear((220, 120, 170)), WHITE_PIPS, "translucent"),  # pink translucent
        DieLook(srgb_to_linear((120, 30, 40)), WHITE_PIPS, "marbled", srgb_to_linear((230, 220, 220))),
    ),
}
