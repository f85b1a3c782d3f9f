"""Scenes drawn at random from a seed and a few condition knobs, and the helpers that place dice: touching
another, cocked against one, cut off by the frame."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

import cv2
import numpy as np

from synth.dice import DIE_MM, LOOKS, DieShape, pip_kind
from synth.geometry import Camera, Pose
from synth.raymarch import Solid
from synth.scene import (CLUTTER_KINDS, TABLE_KINDS, Clutter, Die, Effects, Light, Scene, Table, Tray,
                         resting_pose)
from synth.solids import DieSolid, solid_for
from synth.table import tray_floor_corners
from vision.readings import QWIXX_COLOURS

PLACEMENT_ATTEMPTS = 200
QWIXX_SET = ("white", "white", "red", "yellow", "green", "blue")
LIGHTS = ("neutral", "warm", "cool", "dim", "hard", "soft", "glare")
BLURS = ("none", "motion", "defocus", "shake")
PIPS = ("standard", "dark", "coloured", "mixed")
FRAME_SIZES = ((1280, 720), (640, 480), (1920, 1080), (2304, 1296), (1640, 1232), (800, 600))

# Named conditions: the knobs of random_scene that show each condition the reader must handle.
CONDITIONS: dict[str, dict] = {
    "plain": dict(light="neutral", table="cloth", tilt_deg=0, clutter="none"),
    "oblique": dict(tilt_deg=30),
    "small": dict(die_px=16),
    "large": dict(die_px=110),
    "close": dict(die_px=200, size=(2304, 1296), dice=("white", "red", "blue")),
    "warm": dict(light="warm"),
    "cool": dict(light="cool"),
    "dim": dict(light="dim"),
    "hard-shadows": dict(light="hard"),
    "soft-light": dict(light="soft"),
    "glare": dict(light="glare"),
    "wood": dict(table="wood"),
    "felt": dict(table="felt"),
    "cloth": dict(table="cloth"),
    "paper": dict(table="paper"),
    "white-table": dict(table="white"),
    "dark-table": dict(table="dark"),
    "patterned": dict(table="patterned"),
    "tray": dict(table="tray"),
    "clusters": dict(touching=0.9),
    "cocked": dict(cocked=1),
    "edge": dict(edge=2),
    "hand": dict(hand=True),
    "clutter": dict(clutter=("pen", "pencil", "coin", "cup", "lid", "pad")),
    "motion-blur": dict(blur="motion"),
    "defocus": dict(blur="defocus"),
    "camera-shake": dict(blur="shake"),
    "dark-pips": dict(pips="dark"),
    "coloured-pips": dict(pips="coloured"),
    "other-dice": dict(dice="qwixx+others"),
    "vga": dict(size=(640, 480)),
}


def _check(name: str, value, allowed) -> None:
    if value is not None and value not in allowed:
        raise ValueError(f"unknown {name} {value!r}; expected one of {tuple(allowed)} or None")


def random_scene(
    seed: int,
    *,
    dice: str | Sequence[str] = "qwixx",
    light: str | None = None,
    table: str | None = None,
    tilt_deg: float | None = None,
    height_mm: float | None = None,
    die_px: float | None = None,
    size: tuple[int, int] | None = (1280, 720),
    clutter: str | Sequence[str] | None = None,
    hand: bool = False,
    cocked: int = 0,
    edge: int = 0,
    touching: float | None = None,
    blur: str | None = None,
    pips: str | None = None,
) -> Scene:
    """A scene drawn from `seed`; each knob left as None is drawn too.

    dice: "qwixx" (the six), "qwixx+others" (and 1-3 black or other dice), "others", or a list of colours.
    light: one of LIGHTS. table: one of synth.TABLE_KINDS or "tray". tilt_deg: the camera's lean from vertical.
    height_mm or die_px (the dice' size in the image) place the camera; size is the frame (None: drawn).
    clutter: "none", "some", or a list of kinds (synth.CLUTTER_KINDS except "hand"). hand: an arm reaching in.
    cocked: how many dice rest tilted against another. edge: how many dice the frame cuts.
    touching: chance that a die lands against another. blur: one of BLURS. pips: one of PIPS.
    """
    _check("light", light, LIGHTS)
    _check("table", table, TABLE_KINDS + ("tray",))
    _check("blur", blur, BLURS)
    _check("pips", pips, PIPS)
    rng = np.random.default_rng([int(seed), 2024])
    if size is None:
        size = FRAME_SIZES[rng.choice(len(FRAME_SIZES), p=[0.45, 0.15, 0.15, 0.1, 0.1, 0.05])]
    width, height = size
    camera = _camera(rng, width, height, tilt_deg, height_mm, die_px)
    colours = _dice_colours(rng, dice)
    if cocked > len(colours) - 1 or edge > len(colours) - cocked:
        raise ValueError(f"cannot cock {cocked} and cut {edge} of {len(colours)} dice")
    table_value = _table(rng, table, camera)
    pips = pips or "mixed"
    looks = [_look(rng, colour, pips) for colour in colours]
    if touching is None:
        touching = float(rng.choice([0.0, 0.2, 0.5], p=[0.4, 0.4, 0.2]))
    placed = _place_dice(rng, camera, colours, looks, touching, cocked, edge, table_value.tray)
    light_kind = light or str(rng.choice(LIGHTS[:-1], p=[0.35, 0.2, 0.15, 0.1, 0.1, 0.1]))
    light_value = _light(rng, light_kind, camera, placed)
    clutter_items = _clutter(rng, camera, clutter, placed, table_value.tray)
    if hand:
        clutter_items.append(_hand(rng, camera, placed))
    effects = _effects(rng, light_value, blur, camera)
    if blur == "motion":
        placed = _set_moving(rng, placed)
    return Scene(camera, light_value, table_value, tuple(placed), tuple(clutter_items), effects)


# --- camera, light, table, effects ----------------------------------------------------------------------------


def _camera(rng, width, height, tilt_deg, height_mm, die_px) -> Camera:
    if tilt_deg is None:
        tilt_deg = float(rng.choice([0.0, rng.uniform(0, 15), rng.uniform(15, 30)], p=[0.4, 0.35, 0.25]))
    if height_mm is None:
        if die_px is not None:
            height_mm = Camera.height_for_die_px(die_px, width, height) * math.cos(math.radians(tilt_deg))
        else:
            height_mm = float(rng.uniform(600, 800))
    return Camera(width, height, height_mm=float(height_mm), tilt_deg=float(tilt_deg),
                  azimuth_deg=float(rng.uniform(-180, 180)) if tilt_deg else 0.0,
                  roll_deg=float(rng.uniform(-180, 180)) if tilt_deg == 0 else float(rng.normal(0, 3)))


def _light(rng, kind: str, camera: Camera, dice: list[Die]) -> Light:
    azimuth = rng.uniform(0, 2 * np.pi)
    elevation = math.radians(rng.uniform(45, 80))
    distance = rng.uniform(1200, 2500)
    kelvin, ambient_kelvin = rng.uniform(4000, 5500), rng.uniform(4500, 6500)
    size, ambient, level = rng.uniform(30, 150), rng.uniform(0.25, 0.5), rng.uniform(0.6, 1.0)
    if kind == "warm":
        kelvin, ambient_kelvin = rng.uniform(2500, 3200), rng.uniform(2700, 3600)
    elif kind == "cool":
        kelvin, ambient_kelvin = rng.uniform(6000, 7500), rng.uniform(6500, 9000)
    elif kind == "dim":
        level = rng.uniform(0.03, 0.12)
        kelvin, ambient_kelvin = rng.uniform(2700, 4500), rng.uniform(3000, 5000)
        ambient = rng.uniform(0.15, 0.4)
    elif kind == "hard":
        size, ambient = rng.uniform(3, 15), rng.uniform(0.08, 0.2)
        elevation = math.radians(rng.uniform(30, 60))
    elif kind == "soft":
        size, ambient = rng.uniform(300, 900), rng.uniform(0.5, 0.9)
    position = np.array([math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation),
                         math.sin(elevation)]) * distance
    if kind == "glare":
        # A lamp at the camera's height placed so that the dice' top faces mirror it into the lens.
        camera_at = camera.position
        middle = np.mean([d.pose.position for d in dice], axis=0)[:2] if dice else np.array(camera.target)
        position = np.array([2 * middle[0] - camera_at[0], 2 * middle[1] - camera_at[1], camera_at[2]])
        position[:2] += rng.normal(0, 40, 2)
        size = rng.uniform(60, 200)
    return Light(tuple(float(v) for v in position), float(kelvin), float(size), float(ambient), float(ambient_kelvin),
                 float(level))


def _table(rng, kind, camera: Camera) -> Table:
    tray = None
    if kind is None:
        kind = str(rng.choice(TABLE_KINDS + ("tray",), p=[0.2, 0.15, 0.15, 0.1, 0.12, 0.1, 0.1, 0.08]))
    if kind == "tray":
        kind = str(rng.choice(["wood", "white", "dark", "cloth"]))
        seen = _visible_table_size(camera)
        inner = np.minimum(seen * rng.uniform(0.55, 0.8, 2), [380, 280])
        floor = [(0.02, 0.02, 0.025), (0.12, 0.01, 0.015), (0.01, 0.06, 0.03), (0.01, 0.02, 0.08), (0.2, 0.2, 0.2)]
        tray = Tray(center=(float(camera.target[0]), float(camera.target[1])), size_mm=tuple(float(v) for v in inner),
                    yaw_deg=float(rng.normal(0, 8)), wall_height_mm=float(rng.uniform(20, 40)),
                    floor=floor[rng.integers(len(floor))], rim=(0.015, 0.015, 0.015) if rng.random() < 0.6 else
                    (0.25, 0.14, 0.07))
    return Table(kind, seed=int(rng.integers(1 << 30)), tray=tray)


def _visible_table_size(camera: Camera) -> np.ndarray:
    corners = camera.table_point(np.array([0.0, camera.width, camera.width, 0.0]),
                                 np.array([0.0, 0.0, camera.height, camera.height]))[:, :2]
    return np.ptp(corners, axis=0)


def _effects(rng, light: Light, blur: str | None, camera: Camera) -> Effects:
    die_px = camera.focal_px * DIE_MM / camera.height_mm
    defocus = float(rng.uniform(0, 0.6))
    shake = (0.0, 0.0)
    if blur == "defocus":
        defocus = float(die_px * rng.uniform(0.06, 0.18))
    elif blur == "shake":
        angle = rng.uniform(0, 2 * np.pi)
        length = die_px * rng.uniform(0.2, 0.6)
        shake = (float(length * math.cos(angle)), float(length * math.sin(angle)))
    awb = float(rng.uniform(0.4, 0.75)) if light.kelvin < 3500 or light.kelvin > 6000 else float(rng.uniform(0.7, 1))
    return Effects(
        exposure_ev=float(rng.normal(0, 0.25)),
        metering="highlight" if rng.random() < 0.3 else "normal",
        white_balance=tuple(float(v) for v in rng.normal(1, 0.04, 3)),
        auto_white_balance=awb,
        vignetting=float(rng.uniform(0.05, 0.35)),
        defocus_px=defocus,
        shake_px=shake,
        exposure_s=float(rng.choice([1 / 30, 1 / 60, 1 / 120])),
        noise=float(rng.uniform(0.7, 1.4)),
        sharpen=float(rng.uniform(0.2, 1.0)),
        jpeg_quality=int(rng.integers(70, 96)),
        seed=int(rng.integers(1 << 30)),
    )


# --- dice ---------------------------------------------------------------------------------------------------


def _dice_colours(rng, dice) -> list[str]:
    if isinstance(dice, str):
        others = list(rng.choice(["black", "other"], size=int(rng.integers(1, 4))))
        choices = {"qwixx": list(QWIXX_SET), "qwixx+others": list(QWIXX_SET) + others,
                   "others": others + list(rng.choice(["black", "other"], size=2))}
        if dice not in choices:
            raise ValueError(f"unknown dice set {dice!r}; expected one of {tuple(choices)} or a list of colours")
        return [str(c) for c in choices[dice]]
    return list(dice)


def _look(rng, colour: str, pips: str):
    looks = LOOKS[colour]
    if pips == "standard":
        return looks[0]
    if pips == "mixed":
        return looks[0] if rng.random() < 0.75 else looks[rng.integers(len(looks))]
    usual = pip_kind(looks[0])
    wanted = [look for look in looks if pip_kind(look) == pips and (pips != "coloured" or usual != "coloured")]
    if pips == "dark" and colour == "white":
        wanted = [looks[0]]
    return wanted[rng.integers(len(wanted))] if wanted else looks[0]


def world_distance(solids: list[Solid], points: np.ndarray) -> np.ndarray:
    """Distance from table points (N, 3) to the nearest of the solids."""
    nearest = np.full(len(points), np.inf)
    for solid in solids:
        nearest = np.minimum(nearest, solid.distance(solid.pose.to_local(points)))
    return nearest


def clearance(die: Die, obstacles: list[Solid]) -> float:
    """How far the die's surface is from the nearest obstacle (negative: they overlap), sampled both ways
    where the obstacle is a die: the edge of either can reach between the other's samples."""
    centre = np.asarray(die.pose.position)
    reach = die.shape.half * math.sqrt(3)
    obstacles = [o for o in obstacles if np.linalg.norm(np.asarray(o.pose.position) - centre) < reach + o.bound_radius]
    if not obstacles:
        return np.inf
    gap = float(world_distance(obstacles, die.pose.to_world(die.shape.surface_samples(9))).min())
    own = solid_for(die)
    for obstacle in obstacles:
        if isinstance(obstacle, DieSolid):
            samples = obstacle.pose.to_world(obstacle.shape.surface_samples(9))
            gap = min(gap, float(world_distance([own], samples).min()))
    return gap


def slide_into_contact(die: Die, towards_xy, obstacles: list[Solid], gap_mm: float = 0.1) -> Die:
    """The die moved along the table in direction towards_xy until it just touches an obstacle (it starts
    clear of them; if it never meets one, it is returned where it started)."""
    direction = np.array([towards_xy[0], towards_xy[1], 0.0])
    direction /= np.linalg.norm(direction)
    far = 3 * DIE_MM + max((o.bound_radius for o in obstacles), default=0)
    if clearance(die, obstacles) < gap_mm:
        raise ValueError("the die already overlaps an obstacle")
    low, high = 0.0, 0.0
    step = DIE_MM / 4
    while high < far:  # march until overlap, then bisect
        moved = replace(die, pose=die.pose.moved(*(direction * (high + step))))
        if clearance(moved, obstacles) < gap_mm:
            high += step
            break
        low = high = high + step
    else:
        return die
    for _ in range(14):
        middle = (low + high) / 2
        if clearance(replace(die, pose=die.pose.moved(*(direction * middle))), obstacles) < gap_mm:
            high = middle
        else:
            low = middle
    return replace(die, pose=die.pose.moved(*(direction * low)))


def lean_against(die: Die, other: Die, tilt_deg: float) -> Die:
    """`die` resting cocked against `other`: tipped tilt_deg away from it about its far bottom edge, that edge on
    the table and its lifted edge propped against `other`'s side."""
    away = np.array(die.pose.position[:2]) - np.array(other.pose.position[:2])
    away = np.append(away / np.linalg.norm(away), 0.0)
    # Turning about (z x away) tips the top towards `away`.
    axis = np.cross([0.0, 0.0, 1.0], away)
    pose = die.pose.rotated(axis, tilt_deg)
    lowest = pose.to_world(die.shape.surface_samples())[:, 2].min()
    pose = pose.moved(dz=-lowest)
    # Start well clear, then come back in until the lifted edge meets the other die.
    start = replace(die, pose=Pose((other.pose.position[0] + away[0] * 3 * DIE_MM,
                                    other.pose.position[1] + away[1] * 3 * DIE_MM, pose.position[2]), pose.rotation))
    return slide_into_contact(start, -away[:2], [solid_for(other)], gap_mm=0.05)


def _image_point_on_table(camera: Camera, x: float, y: float) -> np.ndarray:
    return camera.table_point(np.array([x]), np.array([y]))[0]


def _place_dice(rng, camera: Camera, colours, looks, touching, cocked, edge, tray) -> list[Die]:
    die_px = camera.focal_px * DIE_MM / camera.height_mm
    margin = 1.4 * die_px
    # Dice land in one area of a real roll: a patch of the frame, not spread evenly.
    spread = rng.uniform(0.3, 0.9)
    centre = np.array([camera.width, camera.height]) * (0.5 + rng.uniform(-0.5, 0.5, 2) * (1 - spread) * 0.8)
    half_span = np.array([camera.width, camera.height]) * spread / 2
    box_low = np.maximum(centre - half_span, margin)
    box_high = np.minimum(centre + half_span, [camera.width - margin, camera.height - margin])
    tray_limit = None if tray is None else tray_floor_corners(tray)
    frame_low = np.array([margin, margin])
    frame_high = np.array([camera.width - margin, camera.height - margin])
    placed: list[Die] = []
    obstacles: list[Solid] = []
    supports: list[Die] = []  # flat dice well inside the frame, for a cocked die to lean on
    # The dice placed last are cocked (they need dice to lean on), those before them cut by the frame. Which dice they
    # are is drawn: when they were always the last colours, every cocked die was Qwixx's blue one, and a network
    # trained on such scenes took flat blue dice for leaning ones.
    order = [int(k) for k in rng.permutation(len(colours))] if cocked or edge else list(range(len(colours)))
    cocked_set = set(order[len(order) - cocked:]) if cocked else set()
    edge_set = set(order[len(order) - cocked - edge:len(order) - cocked]) if edge else set()
    placed_index: list[int] = []
    for index in order:
        colour, look = colours[index], looks[index]
        seed = int(rng.integers(1 << 30))
        shape = _shape(rng, colour)
        for attempt in range(PLACEMENT_ATTEMPTS):
            value, yaw = int(rng.integers(1, 7)), float(rng.uniform(0, 360))
            if index in edge_set:
                xy = _edge_point(rng, camera, die_px)
            else:
                # Within the roll's patch at first; anywhere in the frame if the patch is too crowded.
                low, high = (box_low, box_high) if attempt < PLACEMENT_ATTEMPTS // 2 else (frame_low, frame_high)
                xy = _image_point_on_table(camera, *rng.uniform(low, np.maximum(high, low + 1)))[:2]
            die = Die(colour, resting_pose(xy[0], xy[1], value, yaw, shape.size_mm), look, shape, seed=seed)
            try:
                if index in cocked_set:
                    other = supports[rng.integers(len(supports))]
                    die = lean_against(_beside(die, other, rng), other, float(rng.uniform(12, 35)))
                elif placed and index not in edge_set and rng.random() < touching:
                    other = placed[rng.integers(len(placed))]
                    start = _beside(die, other, rng)
                    towards = np.array(other.pose.position[:2]) - np.array(start.pose.position[:2])
                    die = slide_into_contact(start, towards, [solid_for(other)], gap_mm=0.1)
            except ValueError:
                continue
            if tray_limit is not None and attempt < PLACEMENT_ATTEMPTS // 2 and not _inside(
                    tray_limit, die.pose.position[:2], DIE_MM * 0.8):
                continue
            if index not in edge_set and not _in_frame(camera, die, 2):
                continue
            if clearance(die, obstacles) < 0.05:
                continue
            placed.append(die)
            placed_index.append(index)
            obstacles.append(solid_for(die))
            if index not in edge_set and index not in cocked_set:
                supports.append(die)
            break
        else:
            raise RuntimeError(f"could not find room for a {colour} die in this frame; use fewer dice or a wider view")
    return [die for _, die in sorted(zip(placed_index, placed), key=lambda pair: pair[0])]


def _shape(rng, colour: str) -> DieShape:
    """Dice differ: rounder or sharper corners, bigger or smaller pips; dice not of the Qwixx set differ in
    size too."""
    corner = float(rng.uniform(0.09, 0.17))
    pip = float(rng.uniform(0.075, 0.1))
    spacing = float(min(rng.uniform(0.25, 0.28), 0.49 - corner - pip))
    size = DIE_MM if colour in QWIXX_COLOURS else float(rng.choice([12.0, 14.0, 16.0, 16.0, 19.0]))
    return DieShape(size, corner, pip, spacing, float(rng.uniform(0.03, 0.05)))


def _beside(die: Die, other: Die, rng) -> Die:
    angle = rng.uniform(0, 2 * np.pi)
    x, y = np.array(other.pose.position[:2]) + np.array([math.cos(angle), math.sin(angle)]) * DIE_MM * 2.2
    return replace(die, pose=Pose((float(x), float(y), die.pose.position[2]), die.pose.rotation))


def _edge_point(rng, camera: Camera, die_px: float) -> np.ndarray:
    side = rng.integers(4)
    along = rng.uniform(0.15, 0.85)
    # The die's centre lands within half a die of the border, inside or out.
    depth = rng.uniform(-0.35, 0.35) * die_px
    x, y = {0: (along * camera.width, depth), 1: (camera.width - depth, along * camera.height),
            2: (along * camera.width, camera.height - depth), 3: (depth, along * camera.height)}[int(side)]
    return _image_point_on_table(camera, x, y)[:2]


def _inside(polygon: np.ndarray, point, margin: float) -> bool:
    return cv2.pointPolygonTest(polygon.astype(np.float32), (float(point[0]), float(point[1])), True) > margin


def _in_frame(camera: Camera, die: Die, margin_px: float) -> bool:
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * die.shape.half
    xy = camera.project(die.pose.to_world(corners))
    return bool((xy.min(axis=0) >= margin_px).all() and (xy[:, 0].max() <= camera.width - margin_px)
                and (xy[:, 1].max() <= camera.height - margin_px))


def _set_moving(rng, dice: list[Die]) -> list[Die]:
    moving = rng.choice(len(dice), size=max(1, len(dice) // 2), replace=False)
    result = list(dice)
    for index in moving:
        angle = rng.uniform(0, 2 * np.pi)
        speed = rng.uniform(150, 900)
        result[index] = replace(dice[index], velocity=(float(speed * math.cos(angle)), float(speed * math.sin(angle)),
                                                       0.0))
    return result


# --- clutter ------------------------------------------------------------------------------------------------

CLUTTER_REACH_MM = {"pen": 75, "pencil": 90, "coin": 13, "cup": 75, "lid": 75, "pad": 95}


def _clutter(rng, camera: Camera, wanted, dice: list[Die], tray) -> list[Clutter]:
    if wanted is None:
        wanted = "some" if rng.random() < 0.5 else "none"
    if isinstance(wanted, str):
        if wanted == "none":
            return []
        if wanted != "some":
            raise ValueError(f"unknown clutter {wanted!r}; expected 'none', 'some' or a list of kinds")
        kinds = [k for k in CLUTTER_KINDS if k != "hand"]
        wanted = list(rng.choice(kinds, size=int(rng.integers(1, 4)), replace=False))
    items = []
    for kind in wanted:
        if kind not in CLUTTER_KINDS or kind == "hand":
            raise ValueError(f"unknown clutter kind {kind!r}; expected one of {CLUTTER_KINDS[:-1]}")
        reach = CLUTTER_REACH_MM[kind]
        for _ in range(100):
            pixel = rng.uniform([0, 0], [camera.width, camera.height])
            xy = _image_point_on_table(camera, *pixel)[:2]
            near_dice = [np.linalg.norm(xy - np.array(d.pose.position[:2])) for d in dice]
            near_items = [np.linalg.norm(xy - np.array(c.pose.position[:2])) - CLUTTER_REACH_MM[c.kind]
                          for c in items]
            room = reach + (0 if kind == "pad" else DIE_MM)
            # Clear of the tray's walls, inside or out.
            off_walls = tray is None or abs(cv2.pointPolygonTest(
                tray_floor_corners(tray).astype(np.float32), (float(xy[0]), float(xy[1])), True)) > reach + tray.wall_mm
            if min(near_dice, default=1e9) > room and min(near_items, default=1e9) > reach and off_walls:
                break
        items.append(Clutter(str(kind), Pose.at(xy[0], xy[1], 0, float(rng.uniform(0, 360))),
                             size=float(rng.uniform(0.9, 1.1)), seed=int(rng.integers(1 << 30))))
    return items


def _hand(rng, camera: Camera, dice: list[Die]) -> Clutter:
    """An arm reaching in from a side of the frame towards the dice, the hand hovering over them."""
    target = np.mean([d.pose.position for d in dice], axis=0)[:2] if dice else np.array(camera.target)
    target = target + rng.normal(0, 30, 2)
    along = rng.uniform(0.2, 0.8)
    edge_pixel = [(along * camera.width, 0), (camera.width, along * camera.height),
                  (along * camera.width, camera.height), (0, along * camera.height)][int(rng.integers(4))]
    from_xy = _image_point_on_table(camera, *edge_pixel)[:2]
    direction = target - from_xy
    yaw = math.degrees(math.atan2(direction[1], direction[0]))
    height = float(rng.uniform(45, 130))
    moving = rng.random() < 0.5
    velocity = (0.0, 0.0, 0.0)
    if moving:
        speed = rng.uniform(100, 500)
        unit = direction / max(np.linalg.norm(direction), 1e-9)
        velocity = (float(unit[0] * speed), float(unit[1] * speed), float(rng.normal(0, 50)))
    pose = Pose.at(target[0], target[1], height, yaw)
    return Clutter("hand", pose, velocity=velocity, seed=int(rng.integers(1 << 30)), size=float(rng.uniform(0.9, 1.1)))
