"""Sphere tracing of signed-distance solids in numpy, and their lighting (lamp, room light, shadows, occlusion).

A solid has a pose, a bounding sphere and box in its own frame, `distance(points)` in its own frame (mm, negative
inside), `coarse_distance` (a cheaper likeness used for shadows and occlusion: a die without its pips, a hand
as a blob) and `surface(points)` giving what the lighting needs there.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from synth.geometry import Pose
from synth.scene import Light

MAX_STEPS = 24
HIT_MM = 0.015


@dataclass
class Surface:
    normal: np.ndarray  # (N, 3) outward, in the solid's frame
    albedo: np.ndarray  # (N, 3) linear RGB
    roughness: float  # spread of the mirror lobe, radians
    reflectance: float | np.ndarray = 0.04  # at normal incidence, or (N,) (plastic 0.04; metals use albedo)
    metal: bool = False
    translucency: float = 0.0  # light that passes through and glows back out (translucent dice)
    cavity: np.ndarray | None = None  # (N,) 0..1 light lost in hollows the occlusion samples miss (pips)


class Solid:
    pose: Pose
    bound_radius: float  # every point of the solid lies within this distance of its frame's origin
    local_box: tuple[np.ndarray, np.ndarray]  # and within this box (low corner, high corner) of its frame
    self_shadow_mm = 0.0  # how far its hollows can shade its own surface (0: convex, no self-shadow)

    def set_box(self, low, high) -> None:
        low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
        self.local_box = (low, high)
        self.bound_radius = float(np.linalg.norm(np.maximum(np.abs(low), np.abs(high))))

    def distance(self, p: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def coarse_distance(self, p: np.ndarray) -> np.ndarray:
        return self.distance(p)

    def surface(self, p: np.ndarray) -> Surface:
        raise NotImplementedError


def _span(solid: Solid, origins: np.ndarray, directions: np.ndarray):
    """Local ray origins/directions and the t range inside the solid's local bounding box (t_out is -inf where
    the ray misses it)."""
    rotation = solid.pose.matrix
    local_origins = (origins - np.asarray(solid.pose.position)) @ rotation
    local_directions = directions @ rotation
    lo, hi = solid.local_box
    # A direction exactly along an axis would divide by zero: nudge it.
    inverse = 1.0 / np.where(np.abs(local_directions) < 1e-12, 1e-12, local_directions)
    t_lo = (lo - local_origins) * inverse
    t_hi = (hi - local_origins) * inverse
    near, far = np.minimum(t_lo, t_hi), np.maximum(t_lo, t_hi)
    t_in = np.maximum(np.maximum(near[:, 0], near[:, 1]), near[:, 2])
    t_out = np.minimum(np.minimum(far[:, 0], far[:, 1]), far[:, 2])
    t_out[t_out < t_in] = -np.inf
    return local_origins, local_directions, t_in, t_out


def march(solid: Solid, origin: np.ndarray, directions: np.ndarray, hit_mm: float = HIT_MM) -> np.ndarray:
    """Distance along each ray (from one origin) to the solid's surface; inf where it misses. A ray that comes
    within hit_mm of the surface hits it: half the gap between neighbouring rays is close enough, and rays
    grazing an edge would otherwise creep along it for many steps."""
    origins = np.broadcast_to(origin, directions.shape)
    local_origins, local_directions, t_in, t_out = _span(solid, origins, directions)
    t_hit = np.full(len(directions), np.inf)
    index = np.nonzero(t_out > 0)[0]  # rays that miss the box drop out here
    t = np.maximum(t_in[index], 0.0)
    t_end = t_out[index]
    o = local_origins[index]
    d = local_directions[index]
    for step in range(MAX_STEPS):
        gap = solid.distance(o + d * t[:, None])
        # The last few rays still going skim the outline; those that skim closest count as hits.
        hit = gap < (hit_mm if step < MAX_STEPS - 1 else 4 * hit_mm)
        t_hit[index[hit]] = t[hit]
        t = t + gap
        keep = ~hit & (t < t_end)
        if not keep.any():
            break
        index, t, t_end, o, d = index[keep], t[keep], t_end[keep], o[keep], d[keep]
    return t_hit


def _towards_light(points: np.ndarray, light: Light) -> tuple[np.ndarray, np.ndarray]:
    offset = np.asarray(light.position) - points
    distance = np.linalg.norm(offset, axis=1)
    return offset / distance[:, None], distance


def soft_shadow(points: np.ndarray, casters: list[Solid], light: Light, own: Solid | None = None) -> np.ndarray:
    """How much of the lamp each point sees past the casters, 0..1, with penumbrae that widen with distance
    (the lamp is a disc of light.size_mm). Points on `own` (one of the casters) look for its shadow on itself
    only within its self_shadow_mm, with its full detail."""
    directions, distance = _towards_light(points, light)
    sharpness = distance / max(light.size_mm, 1e-3)  # 1 / tan(the lamp's angular radius)
    lit = np.ones(len(points))
    if not len(points):
        return lit
    for caster in _in_the_way(casters, points, np.asarray(light.position, dtype=float)):
        is_own = caster is own
        if is_own and not caster.self_shadow_mm:
            continue
        local_origins, local_directions, t_in, t_out = _span(caster, points, directions)
        index = np.nonzero(t_out > 0)[0]
        if not len(index):
            continue
        t = np.full(len(index), 0.05) if is_own else np.maximum(t_in[index], 0.05)
        t_end = np.minimum(t_out[index], caster.self_shadow_mm) if is_own else t_out[index]
        o, d, k = local_origins[index], local_directions[index], sharpness[index]
        distance_of = caster.distance if is_own else caster.coarse_distance
        for _ in range(32):
            gap = distance_of(o + d * t[:, None])
            lit[index] = np.minimum(lit[index], k * gap / t)
            # Short steps, or the penumbra shows the steps as bands.
            t = t + np.clip(gap, 0.08, 2.0)
            keep = (t < t_end) & (lit[index] > 0.01)
            if not keep.any():
                break
            index, t, t_end, o, d, k = index[keep], t[keep], t_end[keep], o[keep], d[keep], k[keep]
    lit = np.clip(lit, 0, 1)
    return lit * lit * (3 - 2 * lit)


def _bounding_ball(points: np.ndarray) -> tuple[np.ndarray, float]:
    low, high = points.min(axis=0), points.max(axis=0)
    return (low + high) / 2, float(np.linalg.norm(high - low)) / 2


def _in_the_way(casters: list[Solid], points: np.ndarray, lamp: np.ndarray) -> list[Solid]:
    """The casters whose bounding spheres come near the bundle of rays from the points to the lamp (the
    bundle narrows towards the lamp, so its starting width bounds it)."""
    centre, radius = _bounding_ball(points)
    towards = lamp - centre
    reach = np.linalg.norm(towards)
    towards = towards / reach
    chosen = []
    for caster in casters:
        offset = np.asarray(caster.pose.position) - centre
        along = float(offset @ towards)
        across = float(np.linalg.norm(offset - along * towards))
        margin = caster.bound_radius + radius
        if -margin < along < reach + margin and across < margin:
            chosen.append(caster)
    return chosen


def _nearby(casters: list[Solid], points: np.ndarray, reach: float) -> list[Solid]:
    centre, radius = _bounding_ball(points)
    return [c for c in casters
            if np.linalg.norm(np.asarray(c.pose.position) - centre) < c.bound_radius + radius + reach]


AO_SAMPLES = ((1.5, 0.4), (4.0, 0.35), (9.0, 0.25))  # (mm along the normal, weight)


def ambient_occlusion(points: np.ndarray, normals: np.ndarray, casters: list[Solid], above_table: bool) -> np.ndarray:
    """Share of the room's light that reaches each point, 0..1, from a few distance samples along the normal."""
    occlusion = np.zeros(len(points))
    if not len(points):
        return occlusion + 1
    casters = _nearby(casters, points, AO_SAMPLES[-1][0])
    for step, weight in AO_SAMPLES:
        probes = points + normals * step
        nearest = probes[:, 2].copy() if above_table else np.full(len(points), np.inf)
        for caster in casters:
            centre = np.asarray(caster.pose.position)
            near = np.einsum("ij,ij->i", probes - centre, probes - centre) < (caster.bound_radius + step) ** 2
            if near.any():
                local = (probes[near] - centre) @ caster.pose.matrix
                nearest[near] = np.minimum(nearest[near], caster.coarse_distance(local))
        occlusion += weight * np.clip((step - nearest) / step, 0, 1)
    return np.clip(1 - 1.1 * occlusion, 0, 1)


def schlick(cosine: np.ndarray, reflectance) -> np.ndarray:
    """Fresnel reflectance; per colour channel when `reflectance` is (N, 3) (metals)."""
    weight = (1 - np.clip(cosine, 0, 1)) ** 5
    if np.ndim(reflectance) == 2:
        weight = weight[:, None]
    return reflectance + (1 - reflectance) * weight


@dataclass
class Room:
    """What lights every surface besides the lamp: precomputed once per scene."""

    light: Light
    camera_position: np.ndarray
    table_albedo: np.ndarray  # (3,) the table's mean colour, which light bounces off onto the dice' sides


def lamp_irradiance(points: np.ndarray, normals: np.ndarray, room: Room):
    """The lamp's irradiance (N,) on surfaces with these normals, its direction (N, 3), its angular radius (N,)
    and its inverse-square falloff (N,), 1 at the distance from the lamp to the table's origin."""
    directions, distance = _towards_light(points, room.light)
    falloff = (np.linalg.norm(room.light.position) / distance) ** 2
    cosine = np.einsum("ij,ij->i", normals, directions)
    return falloff * np.clip(cosine, 0, None), directions, room.light.size_mm / distance, falloff


def shade(points: np.ndarray, normals: np.ndarray, surface: Surface, room: Room, lit: np.ndarray,
          ao: np.ndarray) -> np.ndarray:
    """Radiance (N, 3) leaving each surface point towards the camera, linear RGB (a white level surface
    facing the lamp at the table's origin with no room light is about its albedo)."""
    light = room.light
    irradiance, to_light, lamp_radius, falloff = lamp_irradiance(points, normals, room)
    view = room.camera_position - points
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    n_dot_v = np.einsum("ij,ij->i", normals, view)
    up = normals[:, 2]
    key = light.colour * (irradiance * lit)[:, None]
    if surface.translucency:
        wrap = np.clip((np.einsum("ij,ij->i", normals, to_light) + 0.6) / 1.6, 0, 1)
        key = key * (1 - surface.translucency) + light.colour * (surface.translucency * falloff * wrap)[:, None]
    sky = light.ambient * (0.55 + 0.45 * up) * ao
    if surface.cavity is not None:
        sky = sky * (1 - surface.cavity)
    # Light off the table reaches the lower sides of things: the lamp's share plus the room's.
    bounce = (0.5 - 0.5 * up) * 0.5 * ao
    ambient = light.ambient_colour * sky[:, None] + room.table_albedo * (light.colour * 0.8 + light.ambient_colour
                                                                         * light.ambient) * bounce[:, None]
    diffuse_albedo = surface.albedo * (0.15 if surface.metal else 1.0)
    radiance = diffuse_albedo * (key + ambient)
    # Mirror reflection of the lamp: a lobe as wide as the lamp looks plus the surface's roughness.
    mirrored = 2 * n_dot_v[:, None] * normals - view
    cos_to_lamp = np.clip(np.einsum("ij,ij->i", mirrored, to_light), -1, 1)
    angle = np.arccos(cos_to_lamp)
    spread = lamp_radius ** 2 + surface.roughness ** 2
    lobe = np.exp(-angle ** 2 / (2 * spread)) / (2 * spread)
    half = to_light + view
    half /= np.linalg.norm(half, axis=1, keepdims=True)
    reflectance = surface.albedo if surface.metal else surface.reflectance
    fresnel_lamp = schlick(np.einsum("ij,ij->i", half, view), reflectance)
    facing = (np.einsum("ij,ij->i", normals, to_light) > 0) & (n_dot_v > 0)
    lamp = lobe * falloff * lit * facing
    # The room seen in the surface: brighter towards the ceiling, strongest at grazing angles.
    fresnel_room = schlick(n_dot_v, reflectance)
    room_light = light.ambient * (0.35 + 0.65 * np.clip(mirrored[:, 2], 0, 1)) * ao
    if not surface.metal:
        fresnel_lamp, fresnel_room = fresnel_lamp[:, None], fresnel_room[:, None]
    specular = fresnel_lamp * lamp[:, None] * light.colour + fresnel_room * room_light[:, None] * light.ambient_colour
    return radiance + specular
