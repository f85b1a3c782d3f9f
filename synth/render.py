"""render(scene) -> (BGR frame, Truth).

The table is drawn as a texture seen through the camera and lit per pixel (shadows and contact darkening are
traced against every solid). Dice and clutter are sphere-traced in small screen regions ("layers"),
supersampled so that a die gets at least about 40 samples across, then merged over the table by depth.
Dice whose regions overlap share a layer, so that touching dice hide each other exactly. A moving object's
layer is smeared along its path during the exposure.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from synth.dice import FACE_NORMALS
from synth.geometry import Camera
from synth.raymarch import HIT_MM, Room, Solid, Surface, ambient_occlusion, lamp_irradiance, march, shade, soft_shadow
from synth.scene import COCKED_TILT_DEG, Scene
from synth.sensor import develop, line_kernel
from synth.solids import solid_for, tray_walls
from synth.table import pad_corners, table_albedo, table_gloss, tray_floor_corners
from synth.truth import (BLUR_DEFOCUS_SHARE, BLUR_MOTION_SHARE, FACE_PIXEL, PIP_PERCENTILE, PIP_PIXEL,
                         PIPS_SEEN_DELTA_E, SMALL_DIE_PX, TOP_FACE_VISIBLE, ClutterTruth, DieTruth, Truth)

SAMPLES_ACROSS_DIE = 40
MAX_SUPERSAMPLING = 4
LIGHTING_GRID_PX = 8


@dataclass
class Layer:
    """A rendered screen region: premultiplied colour, coverage and camera depth, and per object its share."""

    x0: int
    y0: int
    colour: np.ndarray  # (h, w, 3)
    alpha: np.ndarray  # (h, w)
    depth: np.ndarray  # (h, w), inf where empty
    objects: list[int]  # indices into the scene's things (dice first, then clutter)
    coverage: list[np.ndarray]  # per object: its share of each pixel, after the layer's own occlusion
    top_coverage: list[np.ndarray]  # per die: the same for its top face
    top_pip_coverage: list[np.ndarray]  # per die: the same for the pips on its top face
    full_area: list[float] = field(default_factory=list)  # per object: pixels it covers when nothing hides it
    full_top_area: list[float] = field(default_factory=list)

    @property
    def box(self) -> tuple[int, int, int, int]:
        h, w = self.alpha.shape
        return (self.x0, self.y0, self.x0 + w, self.y0 + h)


@dataclass
class DieGeometry:
    value: int
    tilt_deg: float
    corners: np.ndarray  # (4, 2) pixels
    center: np.ndarray  # (2,)
    size_px: float
    top_normal: np.ndarray  # (3,) in die coordinates
    blur: tuple[float, float]


def _die_geometry(die, camera: Camera, exposure_s: float) -> DieGeometry:
    value, tilt = die.top
    corners = camera.project(die.pose.to_world(die.shape.face_corners(value)))
    normal = np.array(FACE_NORMALS[value], dtype=float)
    center = camera.project(die.pose.to_world(normal * die.shape.half))
    edges = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return DieGeometry(value, tilt, corners, center, float(edges.mean()), normal,
                       _motion_px(die.pose.position, die.velocity, camera, exposure_s))


def _motion_px(position, velocity, camera: Camera, exposure_s: float) -> tuple[float, float]:
    start = np.asarray(position, dtype=float)
    end = start + np.asarray(velocity, dtype=float) * exposure_s
    shift = camera.project(end) - camera.project(start)
    return float(shift[0]), float(shift[1])


def _bounds_points(solid: Solid) -> np.ndarray:
    """Points in the table frame whose hull holds the solid."""
    lo, hi = solid.local_box
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    return solid.pose.to_world(corners)


def _screen_box(camera: Camera, points: np.ndarray, margin: int) -> tuple[int, int, int, int] | None:
    if np.any(camera.depth(points) <= 1):
        return (0, 0, camera.width, camera.height)
    xy = camera.project(points)
    x0, y0 = np.floor(xy.min(axis=0)).astype(int) - margin
    x1, y1 = np.ceil(xy.max(axis=0)).astype(int) + margin
    return int(x0), int(y0), int(x1), int(y1)


def _clip(box, limit):
    x0, y0, x1, y1 = box
    lx0, ly0, lx1, ly1 = limit
    clipped = (max(x0, lx0), max(y0, ly0), min(x1, lx1), min(y1, ly1))
    return clipped if clipped[2] > clipped[0] and clipped[3] > clipped[1] else None


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _sample_grid(box, samples_per_px: float):
    """Sample positions (x and y grids) over a box: n x n per pixel, or one every 1/density pixels."""
    x0, y0, x1, y1 = box
    if samples_per_px >= 1:
        n = int(samples_per_px)
        xs = x0 + (np.arange((x1 - x0) * n) + 0.5) / n
        ys = y0 + (np.arange((y1 - y0) * n) + 0.5) / n
    else:
        step = int(round(1 / samples_per_px))
        xs = x0 + (np.arange(math.ceil((x1 - x0) / step)) + 0.5) * step
        ys = y0 + (np.arange(math.ceil((y1 - y0) / step)) + 0.5) * step
    grid_x, grid_y = np.meshgrid(xs, ys)
    return grid_x, grid_y


def _to_pixels(samples: np.ndarray, box, samples_per_px: float, reduce: str = "mean") -> np.ndarray:
    """Samples on a _sample_grid back to one value per pixel of the box."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if samples_per_px >= 1:
        n = int(samples_per_px)
        blocks = samples.reshape(h, n, w, n, *samples.shape[2:])
        return blocks.min(axis=(1, 3)) if reduce == "min" else blocks.mean(axis=(1, 3))
    step = int(round(1 / samples_per_px))
    big = samples.astype(np.float32)
    if reduce == "min":
        big = np.where(np.isfinite(big), big, 1e9).astype(np.float32)
        big = cv2.resize(big, (big.shape[1] * step, big.shape[0] * step), interpolation=cv2.INTER_NEAREST)
        big = np.where(big >= 1e9, np.inf, big)
    else:
        big = cv2.resize(big, (big.shape[1] * step, big.shape[0] * step), interpolation=cv2.INTER_LINEAR)
    return big[:h, :w]


def _render_layer(solids: list[Solid], objects: list[int], box, samples_per_px: float, camera: Camera,
                  room: Room, casters: list[Solid], top_normals: dict[int, np.ndarray]) -> Layer:
    grid_x, grid_y = _sample_grid(box, samples_per_px)
    shape = grid_x.shape
    directions = camera.rays(grid_x, grid_y).reshape(-1, 3)
    origin = camera.position
    count = len(directions)
    nearest = np.full(count, np.inf)
    owner = np.full(count, -1)
    alone_hits, alone_top = [], []
    for k, solid in enumerate(solids):
        spacing_mm = 1 / (samples_per_px * camera.pixels_per_mm_at(solid.pose.position))
        t = march(solid, origin, directions, max(0.5 * spacing_mm, HIT_MM))
        hit = np.isfinite(t)
        alone_hits.append(hit)
        if k in top_normals:
            on_top = np.zeros(count, bool)
            local = solid.pose.to_local(origin + directions[hit] * t[hit, None])
            on_top[hit] = local @ top_normals[k] > solid.shape.half * (1 - 2 * solid.shape.corner_radius)
            alone_top.append(on_top)
        closer = t < nearest
        owner[closer] = k
        nearest[closer] = t[closer]
    # Shadows and occlusion change little within a pixel: work them out for one sample of each object in each
    # pixel and share them with its other samples there.
    if samples_per_px > 1:
        n = int(samples_per_px)
        rows, cols = shape
        pixel_of = ((np.arange(rows) // n)[:, None] * (cols // n) + (np.arange(cols) // n)[None, :]).ravel()
    else:
        pixel_of = np.arange(count)
    colour = np.zeros((count, 3), np.float32)
    in_pip = np.zeros(count, bool)
    for k, solid in enumerate(solids):
        mine = np.nonzero(owner == k)[0]
        if not len(mine):
            continue
        points = origin + directions[mine] * nearest[mine, None]
        surface: Surface = solid.surface(solid.pose.to_local(points))
        normals = surface.normal @ solid.pose.matrix.T
        _, first, share = np.unique(pixel_of[mine], return_index=True, return_inverse=True)
        share = share.ravel()
        lifted = points[first] + normals[first] * 0.03
        lit = soft_shadow(lifted, [c for c in casters if c is not solid], room.light)[share]
        ao = ambient_occlusion(points[first], normals[first], casters, above_table=True)[share]
        hollow = np.ones(len(points), bool) if surface.cavity is None else surface.cavity > 0
        if k in top_normals:
            in_pip[mine] = hollow
        if solid.self_shadow_mm and hollow.any():
            own = soft_shadow(points[hollow] + normals[hollow] * 0.03, [solid], room.light, own=solid)
            lit[hollow] = np.minimum(lit[hollow], own)
        colour[mine] = shade(points, normals, surface, room, lit, ao)
    depth = nearest * (directions @ camera.world_to_camera[2])

    def pixels(values, reduce="mean"):
        return _to_pixels(values.reshape(shape + values.shape[1:]), box, samples_per_px, reduce).astype(np.float32)

    samples_per_pixel = (samples_per_px ** 2) if samples_per_px >= 1 else 1 / round(1 / samples_per_px) ** 2
    layer = Layer(box[0], box[1], pixels(colour), pixels((owner >= 0).astype(np.float32)), pixels(depth, "min"),
                  list(objects), [], [], [])
    for k in range(len(solids)):
        layer.coverage.append(pixels((owner == k).astype(np.float32)))
        layer.full_area.append(float(alone_hits[k].sum()) / samples_per_pixel)
        if k in top_normals:
            layer.top_coverage.append(pixels(((owner == k) & alone_top[k]).astype(np.float32)))
            layer.top_pip_coverage.append(pixels(((owner == k) & alone_top[k] & in_pip).astype(np.float32)))
            layer.full_top_area.append(float(alone_top[k].sum()) / samples_per_pixel)
        else:
            layer.top_coverage.append(None)
            layer.top_pip_coverage.append(None)
            layer.full_top_area.append(0.0)
    return layer


def _smear(layer: Layer, shift: tuple[float, float]) -> None:
    kernel = line_kernel(shift)
    if kernel is None:
        return
    blur = lambda image: cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_CONSTANT)  # noqa: E731
    layer.colour = blur(layer.colour)
    layer.alpha = blur(layer.alpha)
    layer.coverage = [blur(c) for c in layer.coverage]
    layer.top_coverage = [None if c is None else blur(c) for c in layer.top_coverage]
    finite = np.where(np.isfinite(layer.depth), layer.depth, 1e9).astype(np.float32)
    finite = cv2.erode(finite, (kernel > 0).astype(np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=1e9)
    layer.depth = np.where(finite >= 1e9, np.inf, finite)


AO_REACH_MM = 12.0


def _shadow_area(solid: Solid, camera: Camera, light_position: np.ndarray, pad: int):
    """Where on the table a solid can shade: its screen box, and image outlines of the shadow it may cast and
    of the ring round its foot where it darkens the table (None for a solid held above the table)."""
    points = _bounds_points(solid)
    footprint = points.copy()
    footprint[:, 2] = 0
    lifted = points[points[:, 2] < light_position[2] - 1]
    scale = light_position[2] / (light_position[2] - lifted[:, 2])
    cast = light_position + (lifted - light_position) * scale[:, None]
    cast[:, 2] = 0
    shadow = np.concatenate([cast, footprint])
    centre = shadow.mean(axis=0)
    shadow = centre + (shadow - centre) * 1.15  # room for the penumbra
    outline = lambda table_points: cv2.convexHull(camera.project(table_points).astype(np.float32))  # noqa: E731
    if points[:, 2].min() > AO_REACH_MM:
        return _screen_box(camera, shadow, 3 + pad), outline(shadow), None
    low, high = solid.local_box
    ring = np.array([[x, y, 0.0] for x in (low[0] - AO_REACH_MM, high[0] + AO_REACH_MM)
                     for y in (low[1] - AO_REACH_MM, high[1] + AO_REACH_MM)])
    ring = solid.pose.to_world(ring)
    ring[:, 2] = 0
    return _screen_box(camera, np.concatenate([shadow, ring]), 3 + pad), outline(shadow), outline(ring)


# How far from the sample grid's centre an outline's corner may lie: a shadow cast by an arm reaching in from behind
# the camera projects to 1e11 pixels and more, past fillConvexPoly's integers. A corner further out is brought in
# along its line from the centre, which moves the outline's edges over a grid of n samples by under n^2 /
# OUTLINE_REACH samples (a hundredth of one for a 1280x720 frame's grid).
OUTLINE_REACH = 1e7


def _inside_outline(outline: np.ndarray, box, density: float, shape, grow: int) -> np.ndarray:
    """Which samples of a _sample_grid over box fall inside an image outline (grown by `grow` samples)."""
    mask = np.zeros(shape, np.uint8)
    grid = (outline.reshape(-1, 2) - box[:2]) * density - 0.5
    centre = np.array(shape[::-1], np.float64) / 2
    reach = np.abs(grid - centre).max(axis=1, keepdims=True)
    grid = centre + (grid - centre) * np.minimum(1.0, OUTLINE_REACH / np.maximum(reach, 1.0))
    cv2.fillConvexPoly(mask, np.round(grid * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
    if grow:
        mask = cv2.dilate(mask, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    return mask.ravel() > 0


def _table_radiance(albedo: tuple[np.ndarray, ...], scene: Scene, solids: list[Solid], shifts: list[tuple[float, float]],
                    room: Room) -> np.ndarray:
    """The lit table: lamp and room light, the sheen of a glossy top, and the shadows and contact darkening of
    every solid (a moving solid's shadow smeared along its path)."""
    camera, light = scene.camera, scene.light
    width, height = camera.width, camera.height
    # Lamp light and the table's sheen vary slowly: work them out on a coarse grid.
    gw, gh = math.ceil(width / LIGHTING_GRID_PX), math.ceil(height / LIGHTING_GRID_PX)
    gx, gy = np.meshgrid((np.arange(gw) + 0.5) * width / gw, (np.arange(gh) + 0.5) * height / gh)
    points = camera.table_point(gx, gy).reshape(-1, 3)
    points = np.where(np.isfinite(points), points, 0)
    up = np.tile([0.0, 0.0, 1.0], (len(points), 1))
    gloss = table_gloss(scene.table)
    sheen = Surface(up, np.zeros_like(points), 0.08 + (1 - gloss) * 0.4, 0.02 * gloss)
    # The sheen is the lamp's reflection: one brightness, in the lamp's colour.
    specular = shade(points, up, sheen, room, np.ones(len(points)), np.zeros(len(points)))[:, 1] / light.colour[1]
    irradiance = lamp_irradiance(points, up, room)[0]
    resize = lambda a: cv2.resize(a.reshape(gh, gw).astype(np.float32), (width, height),  # noqa: E731
                                  interpolation=cv2.INTER_LINEAR)
    specular, irradiance = resize(specular), resize(irradiance)
    shadow = np.ones((height, width), np.float32)
    occlusion = np.ones((height, width), np.float32)
    frame = (0, 0, width, height)
    # Each solid's shadow and contact darkening is traced in its own region against itself alone; where
    # regions overlap, the darker shadow wins and the occlusions multiply.
    for solid, shift in zip(solids, shifts):
        pad = int(math.ceil(abs(shift[0]) / 2 + abs(shift[1]) / 2))
        area = _shadow_area(solid, camera, np.asarray(light.position, dtype=float), pad)
        box = _clip(area[0], frame)
        if box is None:
            continue
        top = float(_bounds_points(solid)[:, 2].max())
        penumbra_px = top * light.size_mm / np.linalg.norm(light.position) * camera.pixels_per_mm_at(
            solid.pose.position)
        # Sharp shadows are traced at every pixel; soft ones, which change slowly, on a coarser grid.
        density = float(np.clip(4.0 / max(penumbra_px, 1e-3), 0.15, 1.0))
        density = 1.0 if density > 0.45 else 1 / round(1 / density)
        grid_x, grid_y = _sample_grid(box, density)
        receivers = camera.table_point(grid_x, grid_y).reshape(-1, 3)
        lit = np.ones(len(receivers))
        ao = np.ones(len(receivers))
        grow = int(math.ceil(pad * density)) + 2
        shaded = _inside_outline(area[1], box, density, grid_x.shape, grow)
        lit[shaded] = soft_shadow(receivers[shaded], [solid], light)
        if area[2] is not None:
            near = _inside_outline(area[2], box, density, grid_x.shape, grow)
            up = np.zeros((int(near.sum()), 3))
            up[:, 2] = 1
            ao[near] = ambient_occlusion(receivers[near], up, [solid], above_table=False)
        x0, y0, x1, y1 = box
        lit_px = _to_pixels(lit.reshape(grid_x.shape), box, density).astype(np.float32)
        ao_px = _to_pixels(ao.reshape(grid_x.shape), box, density).astype(np.float32)
        kernel = line_kernel(shift)
        if kernel is not None:
            lit_px = cv2.filter2D(lit_px, -1, kernel, borderType=cv2.BORDER_REPLICATE)
            ao_px = cv2.filter2D(ao_px, -1, kernel, borderType=cv2.BORDER_REPLICATE)
        np.minimum(shadow[y0:y1, x0:x1], lit_px, out=shadow[y0:y1, x0:x1])
        occlusion[y0:y1, x0:x1] *= ao_px
    lamp = cv2.multiply(irradiance, shadow)
    gloss_light = cv2.multiply(specular, shadow)
    channels = []
    for c, albedo_c in enumerate(albedo):
        light_c = cv2.addWeighted(lamp, float(light.colour[c]), occlusion,
                                  float(light.ambient_colour[c] * light.ambient), 0)
        channels.append(cv2.scaleAdd(gloss_light, float(light.colour[c]), cv2.multiply(albedo_c, light_c)))
    return cv2.merge(channels)


def _merge(front_colour, front_alpha, front_depth, colour, alpha, depth):
    """Merge a layer into the running foreground by depth, pixel by pixel."""
    layer_in_front = (depth < front_depth)[..., None]
    merged = np.where(layer_in_front, colour + (1 - alpha[..., None]) * front_colour,
                      front_colour + (1 - front_alpha[..., None]) * colour)
    return merged, alpha + front_alpha - alpha * front_alpha, np.minimum(depth, front_depth)


def render(scene: Scene) -> tuple[np.ndarray, Truth]:
    """Draw the scene as the camera would record it: a BGR uint8 frame and the truth about every die.

    The light reaching the camera is kept for the last two scenes, so that frames of a still scene that
    differ only in effects.seed (fresh sensor noise, as a real camera gives) cost only the camera's work."""
    radiance, truth = _light_and_truth(replace(scene, effects=replace(scene.effects, seed=0)))
    return develop(radiance, scene.light, scene.effects), truth


def still_frame(scene: Scene, index: int) -> Scene:
    """The scene as the camera's `index`-th frame of it records it: sensor noise of its own (another effects.seed),
    all else the same; the 0th is the scene itself. render draws the light of a still scene's frames once."""
    if index == 0:
        return scene
    return replace(scene, effects=replace(scene.effects, seed=scene.effects.seed * 100_000 + index))


@lru_cache(maxsize=2)
def _light_and_truth(scene: Scene) -> tuple[np.ndarray, Truth]:
    camera = scene.camera
    width, height = camera.width, camera.height
    frame = (0, 0, width, height)
    flat = tuple(c for c in scene.clutter if c.kind == "pad")
    albedo = table_albedo(scene.table, camera, flat)
    walls = tray_walls(scene.table.tray) if scene.table.tray is not None else []
    things = list(scene.dice) + list(scene.clutter) + walls
    solids = [solid_for(thing) for thing in scene.dice + scene.clutter] + walls
    exposure_s = scene.effects.exposure_s
    geometry = [_die_geometry(die, camera, exposure_s) for die in scene.dice]
    shifts = [g.blur for g in geometry] + [_motion_px(c.pose.position, c.velocity, camera, exposure_s)
                                           for c in scene.clutter] + [(0.0, 0.0)] * len(walls)
    casters = [s for s in solids if s is not None]
    room = Room(scene.light, camera.position, np.array([float(plane[::16, ::16].mean()) for plane in albedo]))
    radiance = _table_radiance(albedo, scene, casters, [shift for shift, s in zip(shifts, solids) if s is not None],
                               room)

    # Plan the layers: still dice whose regions overlap share one.
    plans = []  # (objects, box, samples_per_px, shift)
    still = []
    for index, solid in enumerate(solids):
        if solid is None:
            continue
        is_die = index < len(scene.dice)
        shift = shifts[index]
        if is_die:
            size = geometry[index].size_px
            density = int(np.clip(math.ceil(SAMPLES_ACROSS_DIE / max(size, 1)), 1, MAX_SUPERSAMPLING))
            limit = (-3 * int(size), -3 * int(size), width + 3 * int(size), height + 3 * int(size))
        else:
            kind = getattr(things[index], "kind", "wall")
            # Thin things get supersampled while they are small in the frame; a hand, large and soft-edged, is
            # traced on every other pixel.
            density = {"coin": 2, "pen": 2, "pencil": 2, "hand": 0.5}.get(kind, 1)
            if density > 1 and camera.pixels_per_mm_at(solid.pose.position) > 2:
                density = 1
            limit = frame
        pad = int(math.ceil(abs(shift[0]) / 2 + abs(shift[1]) / 2)) + 2
        box = _screen_box(camera, _bounds_points(solid), pad)
        box = box and _clip(box, limit)
        if box is None:
            continue
        if is_die and not scene.dice[index].moving:
            still.append((index, box, density))
        else:
            plans.append(([index], box, density, shift))
    groups = []  # still dice whose regions overlap, joined
    for index, box, density in still:
        objects = [index]
        for other_objects, other_box, other_density in [g for g in groups if _overlap(g[1], box)]:
            groups.remove((other_objects, other_box, other_density))
            objects = other_objects + objects
            box = (min(box[0], other_box[0]), min(box[1], other_box[1]), max(box[2], other_box[2]),
                   max(box[3], other_box[3]))
            density = max(density, other_density)
        groups.append((objects, box, density))
    plans += [(objects, box, density, (0.0, 0.0)) for objects, box, density in groups]

    layers = []
    for objects, box, density, shift in plans:
        top_normals = {k: geometry[i].top_normal for k, i in enumerate(objects) if i < len(scene.dice)}
        layer = _render_layer([solids[i] for i in objects], objects, box, density, camera, room, casters,
                              top_normals)
        _smear(layer, shift)
        layers.append(layer)

    # Merge the layers by depth within the box that holds them all, then lay them over the table.
    shown = [(layer, box) for layer in layers for box in [_clip(layer.box, frame)] if box is not None]
    if shown:
        ux0, uy0 = min(box[0] for _, box in shown), min(box[1] for _, box in shown)
        ux1, uy1 = max(box[2] for _, box in shown), max(box[3] for _, box in shown)
        front_colour = np.zeros((uy1 - uy0, ux1 - ux0, 3), np.float32)
        front_alpha = np.zeros((uy1 - uy0, ux1 - ux0), np.float32)
        front_depth = np.full((uy1 - uy0, ux1 - ux0), np.inf, np.float32)
        for layer, (x0, y0, x1, y1) in shown:
            part = (slice(y0 - layer.y0, y1 - layer.y0), slice(x0 - layer.x0, x1 - layer.x0))
            window = (slice(y0 - uy0, y1 - uy0), slice(x0 - ux0, x1 - ux0))
            merged = _merge(front_colour[window], front_alpha[window], front_depth[window], layer.colour[part],
                            layer.alpha[part], layer.depth[part])
            front_colour[window], front_alpha[window], front_depth[window] = merged
        table_part = radiance[uy0:uy1, ux0:ux1]
        radiance[uy0:uy1, ux0:ux1] = front_colour + (1 - front_alpha[..., None]) * table_part
    radiance.setflags(write=False)
    noiseless = develop(radiance, scene.light, replace(scene.effects, noise=0.0, jpeg_quality=None))
    return radiance, _truth(scene, things, layers, geometry, noiseless)


def _visible(layer: Layer, map_: np.ndarray, layers: list[Layer], width: int, height: int) -> float:
    """How much of a coverage map shows: inside the frame and not behind another layer."""
    x0, y0, x1, y1 = layer.box
    seen = map_.copy()
    ys, xs = np.mgrid[y0:y1, x0:x1]
    seen[(xs < 0) | (ys < 0) | (xs >= width) | (ys >= height)] = 0
    for other in layers:
        if other is layer or not _overlap(other.box, layer.box):
            continue
        ox0, oy0, ox1, oy1 = _clip(other.box, layer.box)
        mine = (slice(oy0 - y0, oy1 - y0), slice(ox0 - x0, ox1 - x0))
        theirs = (slice(oy0 - other.y0, oy1 - other.y0), slice(ox0 - other.x0, ox1 - other.x0))
        in_front = other.depth[theirs] < layer.depth[mine]
        seen[mine] *= 1 - other.alpha[theirs] * in_front
    return float(seen.sum())


def _pip_contrast(image: np.ndarray, layer: Layer, top: np.ndarray, pips: np.ndarray) -> float | None:
    """How far (CIELAB) the pixels that show pips stand from the median colour of those that show only the top face
    round them, in the frame as the camera records it: the PIP_PERCENTILE of their distances, since a small pip's
    blurred edge pixels hardly differ from the face; None when too few pixels show either."""
    x0, y0, x1, y1 = layer.box
    height, width = image.shape[:2]
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    if cx0 >= cx1 or cy0 >= cy1:
        return None
    part = (slice(cy0 - y0, cy1 - y0), slice(cx0 - x0, cx1 - x0))
    on_pips = pips[part] >= PIP_PIXEL
    on_face = (top[part] - pips[part]) >= FACE_PIXEL
    if on_pips.sum() < 2 or on_face.sum() < 4:
        return None
    lab = cv2.cvtColor(image[cy0:cy1, cx0:cx1].astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    distances = np.linalg.norm(lab[on_pips] - np.median(lab[on_face], axis=0), axis=1)
    return float(np.percentile(distances, PIP_PERCENTILE))


def _truth(scene: Scene, things, layers: list[Layer], geometry: list[DieGeometry], image: np.ndarray) -> Truth:
    """The truth about the scene; `image` is its frame as the camera records it without noise, in which a readable
    die whose pips do not stand out from its top (glare or darkness) is "occluded": no reader could tell its value."""
    camera, effects = scene.camera, scene.effects
    width, height = camera.width, camera.height
    seen = {}
    for layer in layers:
        for k, index in enumerate(layer.objects):
            seen[index] = (layer, k)
    dice = []
    for index, die in enumerate(scene.dice):
        g = geometry[index]
        visible = top_visible = 0.0
        in_frame_share = 0.0
        pip_contrast = None
        if index in seen:
            layer, k = seen[index]
            full, full_top = layer.full_area[k], layer.full_top_area[k]
            if full > 0:
                visible = _visible(layer, layer.coverage[k], layers, width, height) / full
                inside = _visible(layer, layer.coverage[k], [], width, height)
                in_frame_share = inside / max(float(layer.coverage[k].sum()), 1e-9)
            if full_top > 0:
                top_visible = _visible(layer, layer.top_coverage[k], layers, width, height) / full_top
            pip_contrast = _pip_contrast(image, layer, layer.top_coverage[k], layer.top_pip_coverage[k])
        blur_px = math.hypot(*g.blur) + math.hypot(*effects.shake_px)
        cocked = g.tilt_deg > COCKED_TILT_DEG
        if cocked:
            problem = "cocked"
        elif in_frame_share < 0.999:
            problem = "edge"
        elif top_visible < TOP_FACE_VISIBLE:
            problem = "occluded"
        elif blur_px > BLUR_MOTION_SHARE * g.size_px or effects.defocus_px > BLUR_DEFOCUS_SHARE * g.size_px:
            problem = "blurred"
        elif g.size_px < SMALL_DIE_PX:
            problem = "small"
        elif pip_contrast is not None and pip_contrast < PIPS_SEEN_DELTA_E:
            problem = "occluded"
        else:
            problem = None
        dice.append(DieTruth(
            colour=die.colour,
            value=None if cocked else g.value,
            center=(float(g.center[0]), float(g.center[1])),
            corners=tuple((float(x), float(y)) for x, y in g.corners),
            problem=problem,
            visible_fraction=float(np.clip(visible, 0, 1)),
            top_visible_fraction=float(np.clip(top_visible, 0, 1)),
            size_px=g.size_px,
            tilt_deg=g.tilt_deg,
            blur_px=blur_px,
            pip_contrast=pip_contrast,
        ))
    clutter = []
    for index, thing in enumerate(scene.clutter, start=len(scene.dice)):
        box = None
        if thing.kind == "pad":
            corners = camera.project(np.column_stack([pad_corners(thing), np.zeros(4)]))
            box = _clip((int(np.floor(corners[:, 0].min())), int(np.floor(corners[:, 1].min())),
                         int(np.ceil(corners[:, 0].max())), int(np.ceil(corners[:, 1].max()))), (0, 0, width, height))
        elif index in seen:
            layer, k = seen[index]
            ys, xs = np.nonzero(layer.coverage[k] > 0.25)
            if len(xs):
                box = _clip((int(xs.min()) + layer.x0, int(ys.min()) + layer.y0, int(xs.max()) + layer.x0 + 1,
                             int(ys.max()) + layer.y0 + 1), (0, 0, width, height))
        if box is not None:
            clutter.append(ClutterTruth(thing.kind, box))
    tray = None
    if scene.table.tray is not None:
        floor = camera.project(np.column_stack([tray_floor_corners(scene.table.tray), np.zeros(4)]))
        tray = tuple((float(x), float(y)) for x, y in floor)
    return Truth(tuple(dice), tuple(clutter), width, height, tray)
