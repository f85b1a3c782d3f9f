"""The things the ray marcher draws: dice and the clutter that stands or lies on the table."""
from __future__ import annotations

import math

import numpy as np

from synth.dice import DieShape, srgb_to_linear
from synth.geometry import Pose
from synth.raymarch import Solid, Surface
from synth.scene import Clutter, Die


def _roughness(gloss: float) -> float:
    """Spread of a plastic's mirror lobe in radians: polished dice about 2 degrees, matte ones 8."""
    return 0.03 + (1 - gloss) * 0.12


class DieSolid(Solid):
    self_shadow_mm = 3.0  # the pips' dimples

    def __init__(self, die: Die):
        self.die = die
        self.pose = die.pose
        self.shape: DieShape = die.shape
        self.look = die.resolved_look
        self.set_box(np.full(3, -self.shape.half - 0.05), np.full(3, self.shape.half + 0.05))
        rng = np.random.default_rng([die.seed, 11])
        # No two dice of one colour are quite alike, and no photo shows the exact catalogue colour.
        self.body = np.clip(np.array(self.look.body) * rng.normal(1, 0.04, 3), 0, 1)
        self.second = np.array(self.look.second)
        self.pips = np.array(self.look.pips)
        self.marble_axes = rng.normal(0, 1, (3, 3)) / self.shape.size_mm * np.array([[3.0], [6.0], [11.0]])
        self.marble_phase = rng.uniform(0, 2 * np.pi, 3)

    def distance(self, p):
        return self.shape.distance(p)

    def coarse_distance(self, p):
        return self.shape._box_distance(p)

    def surface(self, p) -> Surface:
        normal, in_pip, depth = self.shape.surface(p)
        albedo = np.broadcast_to(self.body, p.shape).copy()
        if self.look.finish == "marbled":
            waves = p @ self.marble_axes.T + self.marble_phase
            swirl = np.sin(waves[:, 0] + 2.5 * np.sin(waves[:, 1]) + 1.5 * np.sin(waves[:, 2]))
            amount = np.clip(swirl * 1.5, -1, 1) * 0.5 + 0.5
            albedo = albedo * (1 - amount[:, None]) + self.second * amount[:, None]
        albedo[in_pip] = self.pips
        max_depth = self.shape.pip_depth * self.shape.size_mm
        cavity = np.clip(depth / max_depth, 0, 1) * 0.45
        translucency = 0.45 if self.look.finish == "translucent" else 0.0
        # Pips are filled with paint, duller than the polished plastic round them.
        reflectance = np.where(in_pip, 0.015, 0.045)
        return Surface(normal, albedo, _roughness(self.look.gloss), reflectance, False, translucency, cavity)


# --- clutter ------------------------------------------------------------------------------------------------


def _capsule(p, a, b, radius):
    """Distance to the segment a-b thickened by radius; also how far along it (0..1) each point lies."""
    ab = np.asarray(b, float) - a
    along = np.clip(((p - a) @ ab) / (ab @ ab), 0, 1)
    offset = p - a - along[:, None] * ab
    return np.sqrt(np.einsum("ij,ij->i", offset, offset)) - radius, along


def _rounded_box(p, half_size, radius):
    q = np.abs(p) - (np.asarray(half_size) - radius)
    return np.linalg.norm(np.maximum(q, 0), axis=1) + np.minimum(q.max(axis=1), 0) - radius


def _smooth_min(a, b, k):
    h = np.clip(0.5 + 0.5 * (b - a) / k, 0, 1)
    return b * (1 - h) + a * h - k * h * (1 - h)


def _numeric_normal(distance, p, step=0.05):
    offsets = np.array([[1, -1, -1], [-1, -1, 1], [-1, 1, -1], [1, 1, 1]], float) * step
    total = np.zeros_like(p)
    for offset in offsets:
        total += offset * distance(p + offset)[:, None]
    return total / np.maximum(np.linalg.norm(total, axis=1, keepdims=True), 1e-12)


def _colour(clutter: Clutter, choices) -> np.ndarray:
    if clutter.colour is not None:
        return np.array(clutter.colour, float)
    rng = np.random.default_rng([clutter.seed, 5])
    return np.array(srgb_to_linear(choices[rng.integers(len(choices))]))


class PenSolid(Solid):
    """A ballpoint pen lying on the table along its own x axis (140 mm, 10 mm thick)."""

    def __init__(self, clutter: Clutter):
        self.pose = clutter.pose
        self.scale = clutter.size
        self.length = 140 * self.scale
        self.radius = 5 * self.scale
        self.set_box([-self.length / 2 - 4 * self.scale, -self.radius - 0.5, -0.5],
                     [self.length / 2 + 0.5, self.radius + 0.5, 2 * self.radius + 0.5])
        self.lift = np.array([0, 0, self.radius])
        self.body = _colour(clutter, [(30, 50, 160), (20, 20, 24), (200, 30, 30), (235, 235, 230), (30, 120, 60)])
        self.cap = _colour(Clutter("pen", clutter.pose, None, seed=clutter.seed + 1), [(20, 20, 24), (230, 230, 225)])

    def distance(self, p):
        p = p - self.lift
        half = self.length / 2 - self.radius
        body, _ = _capsule(p, np.array([-half + 8 * self.scale, 0, 0]), np.array([half, 0, 0]), self.radius)
        tip, _ = _capsule(p, np.array([-half - 3 * self.scale, 0, 0]), np.array([-half + 8 * self.scale, 0, 0]),
                          self.radius * 0.45)
        return _smooth_min(body, tip, 3 * self.scale)

    def surface(self, p):
        normal = _numeric_normal(self.distance, p)
        x = p[:, 0] / self.length + 0.5
        albedo = np.where((x > 0.72)[:, None], self.cap, self.body)
        albedo = np.where((x < 0.08)[:, None], np.array([0.5, 0.5, 0.52]), albedo)
        return Surface(normal, albedo, 0.08, 0.05)


class PencilSolid(Solid):
    """A hexagonal pencil lying on the table along its own x axis (175 mm, 7 mm across the flats)."""

    def __init__(self, clutter: Clutter):
        self.pose = clutter.pose
        self.scale = clutter.size
        self.length = 175 * self.scale
        self.apothem = 3.5 * self.scale
        reach = self.apothem * 1.1548 + 0.5
        self.set_box([-self.length / 2 - 0.5, -reach, -0.5], [self.length / 2 + 0.5, reach, 2 * reach])
        self.lift = np.array([0, 0, self.apothem])
        self.paint = _colour(clutter, [(240, 190, 30), (30, 90, 40), (180, 30, 30), (40, 40, 45)])

    def distance(self, p):
        p = p - self.lift
        yz = np.abs(p[:, 1:3])
        k = np.array([-0.8660254, 0.5])
        # Hexagonal prism along x (Inigo Quilez's hexagon distance, folded by symmetry).
        fold = np.minimum(yz @ k, 0)[:, None] * k * 2
        yz = yz - fold
        clamp = np.clip(yz[:, 0], -0.57735 * self.apothem, 0.57735 * self.apothem)
        hexagon = np.linalg.norm(yz - np.column_stack([clamp, np.full(len(p), self.apothem)]), axis=1) * np.sign(
            yz[:, 1] - self.apothem)
        shaft_half = self.length / 2 - 18 * self.scale
        shaft = np.maximum(hexagon, np.abs(p[:, 0] - 9 * self.scale) - shaft_half)
        # The sharpened end: a cone from the shaft to the point.
        tip_start = 9 * self.scale - shaft_half
        along = np.clip((tip_start - p[:, 0]) / (18 * self.scale), 0, 1)
        cone = np.linalg.norm(p[:, 1:3], axis=1) - self.apothem * (1 - along)
        cone = np.maximum(cone, np.maximum(p[:, 0] - tip_start, tip_start - 18 * self.scale - p[:, 0]))
        return np.minimum(shaft, cone * 0.8)

    def surface(self, p):
        normal = _numeric_normal(self.distance, p)
        tip_start = 9 * self.scale - (self.length / 2 - 18 * self.scale)
        wood = np.array(srgb_to_linear((222, 180, 130)))
        graphite = np.array(srgb_to_linear((50, 50, 55)))
        albedo = np.where((p[:, 0] < tip_start)[:, None], wood, self.paint)
        albedo = np.where((p[:, 0] < tip_start - 13 * self.scale)[:, None], graphite, albedo)
        return Surface(normal, albedo, 0.12, 0.04)


class CoinSolid(Solid):
    """A coin lying flat: a short cylinder, 23 mm across, with a raised rim; metallic."""

    def __init__(self, clutter: Clutter):
        self.pose = clutter.pose
        self.radius = 11.5 * clutter.size
        self.half_thick = 1.0 * clutter.size
        self.set_box([-self.radius - 0.5, -self.radius - 0.5, -0.5], [self.radius + 0.5, self.radius + 0.5,
                                                                   2 * self.half_thick + 0.5])
        self.metal = _colour(clutter, [(200, 160, 100), (190, 190, 195), (180, 110, 70)])
        rng = np.random.default_rng([clutter.seed, 9])
        self.relief_phase = rng.uniform(0, 2 * np.pi, 2)

    def distance(self, p):
        radial = np.linalg.norm(p[:, :2], axis=1) - (self.radius - 0.4)
        height = np.abs(p[:, 2] - self.half_thick) - self.half_thick + 0.4
        outside = np.linalg.norm(np.maximum(np.column_stack([radial, height]), 0), axis=1)
        return outside + np.minimum(np.maximum(radial, height), 0) - 0.4

    def surface(self, p):
        normal = _numeric_normal(self.distance, p)
        r = np.linalg.norm(p[:, :2], axis=1) / self.radius
        # Embossing on the face: a pattern of bumps the light picks out.
        relief = np.sin(p[:, 0] * 1.3 + self.relief_phase[0]) * np.sin(p[:, 1] * 1.1 + self.relief_phase[1])
        shade = np.where(r < 0.8, 0.8 + 0.2 * relief, 1.0)
        albedo = self.metal * shade[:, None]
        return Surface(normal, albedo, 0.18, 0.0, metal=True)


class CupSolid(Solid):
    """A mug standing on the table: 80 mm across, 95 mm tall, with coffee in it and a handle on its +x side."""

    self_shadow_mm = 150.0

    def __init__(self, clutter: Clutter):
        self.pose = clutter.pose
        s = clutter.size
        self.radius, self.height, self.wall = 40 * s, 95 * s, 4 * s
        self.set_box([-self.radius - 1, -self.radius - 1, -1], [self.radius + 36 * s, self.radius + 1, self.height + 1])
        self.glaze = _colour(clutter, [(240, 240, 236), (30, 60, 130), (190, 40, 40), (40, 40, 44), (230, 190, 60)])
        self.scale = s

    def distance(self, p):
        radial = np.linalg.norm(p[:, :2], axis=1)
        shell = np.abs(radial - self.radius + self.wall / 2) - self.wall / 2
        body = np.maximum(shell, np.abs(p[:, 2] - self.height / 2) - self.height / 2)
        base = np.maximum(radial - self.radius, np.abs(p[:, 2] - 4 * self.scale) - 4 * self.scale)
        coffee = np.maximum(radial - self.radius + self.wall, np.abs(p[:, 2] - 40 * self.scale) - 40 * self.scale)
        # A handle: a torus standing in the xz plane beside the mug.
        q = p - np.array([self.radius + 8 * self.scale, 0, self.height * 0.55])
        ring = np.linalg.norm(np.column_stack([np.linalg.norm(q[:, [0, 2]], axis=1) - 22 * self.scale, q[:, 1]]),
                              axis=1) - 5 * self.scale
        ring = np.maximum(ring, self.radius - 2 * self.scale - np.linalg.norm(p[:, :2], axis=1))
        return np.minimum(np.minimum(np.minimum(body, base), coffee), ring)

    def surface(self, p):
        normal = _numeric_normal(self.distance, p)
        radial = np.linalg.norm(p[:, :2], axis=1)
        coffee = (radial < self.radius - self.wall + 0.3) & (p[:, 2] < 81 * self.scale)
        albedo = np.where(coffee[:, None], np.array(srgb_to_linear((45, 25, 12))), self.glaze)
        return Surface(normal, albedo, 0.06, 0.05)


class LidSolid(Solid):
    """The game box's lid lying upside up: 115 x 90 x 25 mm, printed in the four row colours."""

    def __init__(self, clutter: Clutter):
        self.pose = clutter.pose
        s = clutter.size
        self.half = np.array([57.5, 45, 12.5]) * s
        self.set_box([-self.half[0] - 0.5, -self.half[1] - 0.5, -0.5], self.half * [1, 1, 2] + 0.5)
        self.scale = s

    def distance(self, p):
        return _rounded_box(p - [0, 0, self.half[2]], self.half, 1.5 * self.scale)

    def surface(self, p):
        normal = _numeric_normal(self.distance, p)
        stripes = np.array([srgb_to_linear(c) for c in [(200, 40, 45), (240, 200, 40), (40, 150, 70), (40, 80, 170)]])
        band = np.clip(((p[:, 1] / self.half[1] + 1) / 2 * 4).astype(int), 0, 3)
        albedo = stripes[band]
        title = (np.abs(p[:, 1]) < self.half[1] * 0.18) & (np.abs(p[:, 0]) < self.half[0] * 0.7)
        albedo = np.where(title[:, None], np.array(srgb_to_linear((245, 245, 240))), albedo)
        sides = normal[:, 2] < 0.7
        albedo = np.where(sides[:, None], np.array(srgb_to_linear((35, 35, 40))), albedo)
        return Surface(normal, albedo, 0.2, 0.04)


SKIN = [(224, 172, 140), (198, 134, 100), (141, 85, 60), (90, 56, 40), (240, 200, 175)]
SLEEVES = [(40, 50, 80), (150, 30, 30), (200, 200, 200), (30, 30, 30), (60, 110, 70)]


class HandSolid(Solid):
    """A hand palm-down over the table, fingers along its own +x, the forearm running back along -x out of the
    frame. The pose's origin is the middle of the palm."""

    def __init__(self, clutter: Clutter):
        self.pose = clutter.pose
        s = clutter.size
        rng = np.random.default_rng([clutter.seed, 13])
        self.skin = _colour(clutter, SKIN)
        self.sleeve = np.array(srgb_to_linear(SLEEVES[rng.integers(len(SLEEVES))]))
        self.palm_half = np.array([45, 40, 12]) * s
        curl = rng.uniform(0.1, 0.9)
        spread = rng.uniform(0.0, 0.25)
        self.segments = []
        for i, (offset, length) in enumerate([(-27, 62), (-9, 70), (9, 66), (26, 52)]):
            base = np.array([40 * s, offset * s, 0])
            angle = (i - 1.5) * spread
            direction = np.array([math.cos(angle), math.sin(angle), 0])
            knuckle = base + direction * length * 0.55 * s
            tip = knuckle + (direction * math.cos(curl) - np.array([0, 0, math.sin(curl)])) * length * 0.45 * s
            radius = (9 if i < 3 else 8) * s
            self.segments += [(base, knuckle, radius), (knuckle, tip, radius * 0.92)]
        thumb_base = np.array([5, 42, -4]) * s
        thumb_mid = thumb_base + np.array([28, 18, -8]) * s
        self.segments += [(thumb_base, thumb_mid, 11 * s), (thumb_mid, thumb_mid + np.array([22, 6, -12]) * s, 9 * s)]
        self.arm = (np.array([-40, 0, 2]) * s, np.array([-520, 0, 40]) * s, 34 * s)
        self.hand_centre = np.array([35, 5, -10]) * s
        self.hand_reach = 120 * s
        self.blob = (np.array([-20, 5, 0]) * s, np.array([85, 5, -10]) * s, 40 * s)
        self.set_box(np.array([-570, -75, -70]) * s, np.array([130, 95, 85]) * s)
        self.scale = s

    def _parts(self, p):
        """Distances to the hand and to the arm, and how far along the arm each point lies."""
        s = self.scale
        arm, along = _capsule(p, *self.arm)
        # The fingers matter only near the hand: further off, the distance to its bounding sphere will do.
        offset = p - self.hand_centre
        hand = np.sqrt(np.einsum("ij,ij->i", offset, offset)) - self.hand_reach
        near = np.nonzero(hand < 5 * s)[0]
        if len(near):
            q = p[near]
            detail = _rounded_box(q, self.palm_half, 10 * s)
            for a, b, radius in self.segments:
                detail = _smooth_min(detail, _capsule(q, a, b, radius)[0], 6 * s)
            hand[near] = detail
        return hand, arm, along

    def distance(self, p):
        hand, arm, _ = self._parts(p)
        return _smooth_min(hand, arm, 14 * self.scale)

    def coarse_distance(self, p):
        """Palm and fingers as one capsule, and the arm: enough for the soft shadow a hand casts."""
        blob, _ = _capsule(p, self.blob[0], self.blob[1], self.blob[2])
        return np.minimum(blob, _capsule(p, *self.arm)[0])

    def surface(self, p):
        normal = _numeric_normal(self.distance, p, 0.3)
        hand, arm, along = self._parts(p)
        sleeve = (arm < hand) & (along > 0.18)
        albedo = np.where(sleeve[:, None], self.sleeve, self.skin)
        return Surface(normal, albedo, 0.35, 0.03, translucency=0.15)


class WallSolid(Solid):
    """One wall of a dice tray: a long box standing on the table, rounded along its edges."""

    def __init__(self, pose: Pose, length: float, thickness: float, height: float, colour):
        self.pose = pose
        self.half = np.array([length / 2, thickness / 2, height / 2])
        self.centre = np.array([0.0, 0.0, height / 2])
        self.radius = min(2.0, thickness / 3)
        self.colour = np.asarray(colour, dtype=float)
        self.set_box(-self.half - 0.5 + self.centre, self.half + 0.5 + self.centre)

    def distance(self, p):
        return _rounded_box(p - self.centre, self.half, self.radius)

    def surface(self, p):
        q = p - self.centre
        core = np.abs(q) - (self.half - self.radius)
        normal = np.sign(q) * np.maximum(core, 0)
        length = np.linalg.norm(normal, axis=1, keepdims=True)
        flat = length[:, 0] < 1e-9
        normal[flat] = np.eye(3)[np.argmax(core[flat], axis=1)] * np.sign(q[flat])
        normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-12)
        return Surface(normal, np.broadcast_to(self.colour, p.shape), 0.25, 0.03)


def tray_walls(tray) -> list[WallSolid]:
    """The four walls round a tray's floor."""
    inner_x, inner_y = tray.size_mm
    t, h = tray.wall_mm, tray.wall_height_mm
    base = Pose.at(tray.center[0], tray.center[1], 0, tray.yaw_deg)
    walls = []
    sides = [((0, side * (inner_y + t) / 2), 0, inner_x + 2 * t) for side in (1, -1)]
    sides += [((side * (inner_x + t) / 2, 0), 90, inner_y) for side in (1, -1)]
    for offset, yaw, length in sides:
        centre = base.to_world(np.array([[offset[0], offset[1], 0.0]]))[0]
        pose = Pose.at(centre[0], centre[1], 0, tray.yaw_deg + yaw)
        walls.append(WallSolid(pose, length, t, h, tray.rim))
    return walls


SOLID_KINDS = {"pen": PenSolid, "pencil": PencilSolid, "coin": CoinSolid, "cup": CupSolid, "lid": LidSolid,
               "hand": HandSolid}


def solid_for(thing) -> Solid | None:
    """The solid that draws a die or a piece of clutter; None for flat things drawn into the table."""
    if isinstance(thing, Die):
        return DieSolid(thing)
    kind = SOLID_KINDS.get(thing.kind)
    return kind(thing) if kind else None

