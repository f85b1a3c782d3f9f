"""Procedural table tops (wood, felt, cloth, paper, white, dark, patterned), drawn in table millimetres and
seen through the camera, plus what lies flat on them (score pads, the dice tray's floor)."""
from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from synth.dice import srgb_to_linear
from synth.geometry import Camera
from synth.scene import Clutter, Table
from synth.sensor import grain as sensor_grain

MAX_TEXTURE_PX = 2048
MAX_TEXELS = 1.6e6
SRGB_TO_LINEAR = np.array([srgb_to_linear((v, v, v))[0] for v in range(256)], np.float32)
# How far from the camera's target the table is drawn, in mm, for views that reach the horizon.
TABLE_REACH_MM = 2500.0

# The kinds' usual gloss (0 matte .. 1 varnished) and colours to draw from (sRGB, by eye).
USUAL_GLOSS = {"wood": 0.35, "felt": 0.0, "cloth": 0.02, "paper": 0.05, "white": 0.3, "dark": 0.35, "patterned": 0.05}
COLOURS = {
    "wood": [(150, 100, 60), (185, 135, 85), (110, 70, 40), (205, 165, 115), (90, 55, 35)],
    "felt": [(20, 90, 45), (25, 50, 110), (120, 25, 30), (60, 60, 62), (30, 30, 32)],
    "cloth": [(200, 200, 198), (185, 180, 170), (150, 160, 170), (215, 205, 190)],
    "paper": [(235, 235, 228), (245, 243, 238), (190, 150, 105)],
    "white": [(232, 232, 228), (240, 238, 232), (222, 224, 226)],
    "dark": [(30, 30, 32), (40, 32, 26), (22, 26, 40), (45, 45, 45)],
}


def _rng(table: Table, salt: int) -> np.random.Generator:
    return np.random.default_rng([table.seed, salt])


def smooth_noise(shape: tuple[int, int], cells: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    """Random field of about unit spread that varies over `cells` (rows, columns) texels."""
    rows = max(2, int(math.ceil(shape[0] / cells[0])) + 2)
    cols = max(2, int(math.ceil(shape[1] / cells[1])) + 2)
    grid = rng.standard_normal((rows, cols)).astype(np.float32)
    big = cv2.resize(grid, (int(cols * cells[1]), int(rows * cells[0])), interpolation=cv2.INTER_CUBIC)
    return big[: shape[0], : shape[1]]


def fractal_noise(shape, cells: float, rng, octaves: int = 4) -> np.ndarray:
    """Octaves of smooth noise from `cells` texels down, summed at the finest octave's scale (its cells span
    at least 4 of those samples) and then stretched to the full shape once."""
    finest = cells / 2 ** (octaves - 1)
    step = max(1, int(finest / 4))
    small = (max(2, math.ceil(shape[0] / step)), max(2, math.ceil(shape[1] / step)))
    total = np.zeros(small, np.float32)
    for octave in range(octaves):
        scale = cells / 2 ** octave / step
        if scale < 1:
            break
        total += smooth_noise(small, (scale, scale), rng) * np.float32(0.55 ** octave)
    total /= np.float32(1.6)
    if step == 1:
        return total
    return cv2.resize(total, (small[1] * step, small[0] * step), interpolation=cv2.INTER_LINEAR)[:shape[0], :shape[1]]


class TextureGrid:
    """A grid of texels over the part of the table the camera sees: texel (i, j) centres in table mm."""

    def __init__(self, camera: Camera):
        edge = np.linspace(0, 1, 33)
        xs = np.concatenate([edge * camera.width, np.full(33, camera.width), edge * camera.width, np.zeros(33)])
        ys = np.concatenate([np.zeros(33), edge * camera.height, np.full(33, camera.height), edge * camera.height])
        points = camera.table_point(xs, ys)
        seen = np.isfinite(points).all(axis=1)
        target = np.array(camera.target, dtype=float)
        # Where the view reaches the horizon, the table is drawn out to TABLE_REACH_MM.
        directions = np.column_stack([xs - camera.width / 2, camera.height / 2 - ys]) @ camera.world_to_camera[:2, :2]
        far = target + directions / np.maximum(np.linalg.norm(directions, axis=1, keepdims=True), 1e-9) * 1e9
        flat = np.where(seen[:, None], points[:, :2], far)
        offset = flat - target
        reach = np.linalg.norm(offset, axis=1, keepdims=True)
        flat = target + offset * np.minimum(1, TABLE_REACH_MM / np.maximum(reach, 1e-9))
        margin = 20.0
        self.x0, self.y0 = (float(v) for v in flat.min(axis=0) - margin)
        x1, y1 = flat.max(axis=0) + margin
        # Texels as fine as the nearest part of the view needs (1/depth is affine over the image, so the
        # nearest table point seen lies on the frame's border).
        nearest = float(camera.depth(points[seen]).min()) if seen.any() else camera.height_mm
        self.mm = max(nearest / camera.focal_px, 0.05, (x1 - self.x0) / MAX_TEXTURE_PX, (y1 - self.y0) / MAX_TEXTURE_PX,
                      math.sqrt((x1 - self.x0) * (y1 - self.y0) / MAX_TEXELS))
        self.cols = int(math.ceil((x1 - self.x0) / self.mm))
        self.rows = int(math.ceil((y1 - self.y0) / self.mm))

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    def coordinates(self) -> tuple[np.ndarray, np.ndarray]:
        x = (self.x0 + (np.arange(self.cols) + 0.5) * self.mm)[None, :]
        y = (self.y0 + (np.arange(self.rows) + 0.5) * self.mm)[:, None]
        return x.astype(np.float32), y.astype(np.float32)

    def texel_to_table(self) -> np.ndarray:
        return np.array([[self.mm, 0, self.x0], [0, self.mm, self.y0], [0, 0, 1]])

    def to_texels(self, points_mm) -> np.ndarray:
        return (np.asarray(points_mm, dtype=np.float64) - [self.x0, self.y0]) / self.mm


def _pick(table: Table, rng) -> np.ndarray:
    if table.colour is not None:
        return np.array(table.colour, dtype=np.float32)
    choices = COLOURS[table.kind]
    return np.array(srgb_to_linear(choices[rng.integers(len(choices))]), dtype=np.float32)


def _sin(angle: np.ndarray) -> np.ndarray:
    """np.sin for big float32 arrays, several times faster through OpenCV."""
    return cv2.polarToCart(np.ones_like(angle), angle)[1]


def _colour_mix(first: np.ndarray, second: np.ndarray, amount: np.ndarray, tone: np.ndarray) -> np.ndarray:
    """(first * (1 - amount) + second * amount) * tone, per pixel, for RGB colours and 2-D fields."""
    a = tone * (1 - amount)
    b = tone * amount
    return cv2.merge([a * float(first[c]) + b * float(second[c]) for c in range(3)])


def _wood(grid: TextureGrid, table: Table, rng) -> np.ndarray:
    """Planks along x: each its own shade and ring phase; rings warped by slow noise, fibres along the grain,
    dark seams between planks."""
    x, y = grid.coordinates()
    base = _pick(table, rng)
    shape = grid.shape
    plank_mm = rng.uniform(80, 180)
    shifted = y - np.float32(rng.uniform(0, plank_mm))
    plank = np.floor(shifted / plank_mm)
    ids, which = np.unique(plank, return_inverse=True)
    which = which.reshape(plank.shape)
    shade = rng.uniform(0.8, 1.2, len(ids)).astype(np.float32)[which]
    phase = rng.uniform(0, 1000, len(ids)).astype(np.float32)[which]
    within = shifted - plank * plank_mm
    seam = np.clip(np.minimum(within, plank_mm - within) / 0.6, 0.35, 1).astype(np.float32)
    stretch = max(1.0, 60 / grid.mm)
    warp = smooth_noise(shape, (max(1.0, 8 / grid.mm), stretch * 4), rng) * np.float32(6)
    ring_mm = rng.uniform(2.5, 6)
    rings = _sin((warp + (y + phase)) * np.float32(2 * np.pi / ring_mm)) * np.float32(0.5) + np.float32(0.5)
    rings = rings * rings * rings
    fibres = cv2.GaussianBlur(_grain(shape, rng), (0, 0), max(0.5, 4 / grid.mm), sigmaY=0.3)
    tone = (rings * np.float32(0.3) + fibres * np.float32(0.05) + np.float32(0.85)) * (shade * seam)
    dark_wood = base * np.array([0.75, 0.7, 0.65], np.float32)
    return _colour_mix(base, dark_wood, rings, tone)


def _fibrous_tone(grid: TextureGrid, rng, fine: float, mottle: float) -> np.ndarray:
    """Brightness about 1 with grain at the texel scale and slow blotches."""
    blotch = fractal_noise(grid.shape, max(2.0, 40 / grid.mm), rng)
    return _grain(grid.shape, rng) * np.float32(fine) + blotch * np.float32(mottle) + np.float32(1)


def _plain(base: np.ndarray, tone: np.ndarray) -> np.ndarray:
    return cv2.merge([tone * float(c) for c in base])


def _grain(shape, rng) -> np.ndarray:
    """Unit noise at the texel scale, cut from the sensor's fixed noise field (drawing fresh normals for a
    million texels costs more than the rest of the table)."""
    return sensor_grain(shape[0], shape[1], rng, channels=1)


def _cloth(grid: TextureGrid, table: Table, rng) -> np.ndarray:
    """Woven cloth: fine grain, the weave where the camera resolves it, and soft folds."""
    base = _pick(table, rng)
    tone = _fibrous_tone(grid, rng, 0.05, 0.015)
    x, y = grid.coordinates()
    weave_mm = rng.uniform(0.5, 1.2)
    if weave_mm / grid.mm > 2.5:
        tone += _sin(np.broadcast_to(x * np.float32(2 * np.pi / weave_mm), grid.shape).copy()) * \
            _sin(np.broadcast_to(y * np.float32(2 * np.pi / weave_mm), grid.shape).copy()) * np.float32(0.06)
    folds = smooth_noise(grid.shape, (max(2.0, 120 / grid.mm), max(2.0, 60 / grid.mm)), rng)
    return _plain(base, tone + folds * np.float32(0.02))


def _paper(grid: TextureGrid, table: Table, rng) -> np.ndarray:
    """Large sheets of paper: faint grain, slow unevenness, and a few folds, each a thin dark line with one side
    a little brighter than the other."""
    base = _pick(table, rng)
    tone = _fibrous_tone(grid, rng, 0.02, 0.01)
    tone += smooth_noise(grid.shape, (max(2.0, 150 / grid.mm),) * 2, rng) * np.float32(0.015)
    x, y = grid.coordinates()
    for _ in range(int(rng.integers(0, 4))):
        angle = rng.uniform(0, np.pi)
        across = (x - rng.uniform(grid.x0, grid.x0 + grid.cols * grid.mm)) * np.float32(math.cos(angle)) + \
            (y - rng.uniform(grid.y0, grid.y0 + grid.rows * grid.mm)) * np.float32(math.sin(angle))
        side = np.float32(rng.uniform(-0.04, 0.04))
        tone += np.where(across > 0, side, -side) - np.float32(0.08) * np.exp(-(across / np.float32(0.6)) ** 2)
    return _plain(base, tone)


PATTERN_COLOURS = [(200, 40, 40), (240, 240, 235), (40, 70, 150), (235, 200, 60), (40, 120, 60), (90, 60, 120),
                   (230, 130, 60), (30, 30, 30), (225, 215, 190), (170, 200, 225)]


def _patterned(grid: TextureGrid, table: Table, rng) -> np.ndarray:
    """Table cloths: gingham, stripes, polka dots (dots much like pips: a hard case), or a printed pattern of
    small motifs on a plain ground."""
    x, y = grid.coordinates()
    picks = rng.choice(len(PATTERN_COLOURS), size=3, replace=False)
    a, b, c = (np.array(srgb_to_linear(PATTERN_COLOURS[i]), np.float32) for i in picks)
    style = int(rng.integers(4))
    angle = rng.uniform(0, np.pi)
    u = x * np.float32(math.cos(angle)) + y * np.float32(math.sin(angle))
    v = y * np.float32(math.cos(angle)) - x * np.float32(math.sin(angle))
    period = np.float32(rng.uniform(12, 40))
    if style == 0:  # gingham: two crossing stripe sets mix into three tones
        amount = (((u // (period / 2)) % 2) + ((v // (period / 2)) % 2)) / 2
    elif style == 1:  # stripes, two wide and one narrow
        phase = (u % period) / period
        amount = np.where(phase < 0.3, 1.0, np.where(phase < 0.4, 0.5, 0.0))
    elif style == 2:  # polka dots
        du, dv = (u % period) - period / 2, (v % period) - period / 2
        amount = (du * du + dv * dv < (period * 0.25) ** 2).astype(np.float32)
    else:
        return _motifs(grid, rng, a, b, c, float(period))
    amount = np.broadcast_to(amount, grid.shape).astype(np.float32)
    # Three tones from one field: b (0), c (0.5), a (1).
    low, high = np.clip(amount * 2, 0, 1), np.clip(amount * 2 - 1, 0, 1)
    albedo = cv2.merge([(b[k] + (c[k] - b[k]) * low) * (1 - high) + a[k] * high for k in range(3)])
    if 0.3 / grid.mm > 0.3:  # printed edges are not razor sharp
        albedo = cv2.GaussianBlur(albedo, (0, 0), 0.3 / grid.mm)
    return albedo * (1 + 0.04 * _grain(grid.shape, rng))[..., None]


def _motifs(grid: TextureGrid, rng, a, b, c, period: float) -> np.ndarray:
    """Small flowers or leaves printed in two colours, softened towards the ground colour, scattered on it."""
    to_srgb = lambda linear: tuple(int(v) for v in np.clip(np.asarray(linear) ** (1 / 2.2) * 255, 0, 255))  # noqa
    ground = to_srgb(b)
    canvas = np.empty(grid.shape + (3,), np.uint8)
    canvas[:] = ground
    count = int(grid.rows * grid.cols * grid.mm ** 2 / period ** 2 * 0.8)
    for _ in range(count):
        centre = (int(rng.uniform(0, grid.cols)), int(rng.uniform(0, grid.rows)))
        ink = np.array(a if rng.random() < 0.6 else c)
        ink = to_srgb(ink * 0.7 + np.asarray(b) * 0.3)
        size = rng.uniform(0.15, 0.4) * period / grid.mm
        axes = (max(1, int(size)), max(1, int(size * rng.uniform(0.3, 1.0))))
        cv2.ellipse(canvas, centre, axes, rng.uniform(0, 180), 0, 360, ink, -1, cv2.LINE_AA)
    return SRGB_TO_LINEAR[canvas] * (1 + 0.04 * _grain(grid.shape, rng))[..., None]


def table_albedo_texture(table: Table, grid: TextureGrid) -> np.ndarray:
    rng = _rng(table, 1)
    if table.kind == "wood":
        albedo = _wood(grid, table, rng)
    elif table.kind in ("felt", "white", "dark"):
        fine, mottle = {"felt": (0.08, 0.03), "white": (0.01, 0.015), "dark": (0.06, 0.04)}[table.kind]
        albedo = _plain(_pick(table, rng), _fibrous_tone(grid, rng, fine, mottle))
    elif table.kind == "cloth":
        albedo = _cloth(grid, table, rng)
    elif table.kind == "paper":
        albedo = _paper(grid, table, rng)
    else:
        albedo = _patterned(grid, table, rng)
    return np.clip(albedo, 0, 1, out=albedo)


def table_gloss(table: Table) -> float:
    return USUAL_GLOSS[table.kind] if table.gloss is None else float(table.gloss)


# --- flat things on the table -------------------------------------------------------------------------------

QWIXX_ROWS = [(200, 40, 45), (240, 200, 40), (40, 150, 70), (40, 80, 170)]
PAD_MM = (150.0, 100.0)


def pad_corners(clutter: Clutter) -> np.ndarray:
    """The score pad's corners on the table, (4, 2) mm."""
    w, h = PAD_MM[0] * clutter.size / 2, PAD_MM[1] * clutter.size / 2
    corners = np.array([[-w, -h, 0], [w, -h, 0], [w, h, 0], [-w, h, 0]])
    return clutter.pose.to_world(corners)[:, :2]


SEGMENTS = {"0": "abcdef", "1": "bc", "2": "abged", "3": "abgcd", "4": "fgbc", "5": "afgcd", "6": "afgedc",
            "7": "abc", "8": "abcdefg", "9": "abcdfg", "L": "fed"}
PAD_PX_PER_MM = 4


def _draw_digits(sheet: np.ndarray, text: str, left: int, top: int, width: int, height: int, colour) -> None:
    """Seven-segment digits from plain rectangles: OpenCV's fonts and anti-aliasing differ between versions,
    and the same scene must give the same pixels."""
    t = max(1, width // 5)
    half = height // 2
    for k, char in enumerate(text):
        x = left + k * (width + t)
        bars = {"a": (x, top, x + width, top + t), "d": (x, top + height - t, x + width, top + height),
                "g": (x, top + half - t // 2, x + width, top + half - t // 2 + t),
                "f": (x, top, x + t, top + half), "b": (x + width - t, top, x + width, top + half),
                "e": (x, top + half, x + t, top + height), "c": (x + width - t, top + half, x + width, top + height)}
        for segment in SEGMENTS[char]:
            x0, y0, x1, y1 = bars[segment]
            sheet[y0:y1, x0:x1] = colour


def _draw_pad(albedo: np.ndarray, grid: TextureGrid, clutter: Clutter) -> None:
    """A Qwixx score sheet: four coloured rows of numbered boxes, a few crosses in pen. Drawn upright in sRGB
    at PAD_PX_PER_MM with exact integer shapes, shrunk to the texture's scale and placed."""
    rng = np.random.default_rng([clutter.seed, 7])
    w, h = PAD_MM[0] * clutter.size, PAD_MM[1] * clutter.size
    mm = lambda v: int(round(v * PAD_PX_PER_MM))  # noqa: E731
    sheet = np.empty((mm(h), mm(w), 3), np.uint8)
    sheet[:] = (244, 242, 236)
    row_h = h * 0.17
    box_w = w * 0.92 / 12.5
    for row, colour in enumerate(QWIXX_ROWS):
        top = h * 0.08 + row * row_h * 1.05
        sheet[mm(top):mm(top + row_h), mm(w * 0.04):mm(w * 0.96)] = colour
        numbers = list(range(2, 13)) if row < 2 else list(range(12, 1, -1))
        for i, number in enumerate(numbers + ["L"]):
            x0, y0 = mm(w * 0.05 + (i + 0.1) * box_w), mm(top + row_h * 0.15)
            x1, y1 = mm(w * 0.05 + (i + 0.9) * box_w), mm(top + row_h * 0.85)
            sheet[y0:y1, x0:x1] = (250, 250, 245)
            text = str(number)
            digit_w = max(2, (x1 - x0) // (2 * len(text) + 1))
            _draw_digits(sheet, text, x0 + digit_w // 2, y0 + (y1 - y0) // 4, digit_w, (y1 - y0) // 2, colour)
            if number != "L" and rng.random() < 0.25:
                stroke = max(1, mm(0.35))
                for a, b in (((x0, y0), (x1, y1)), ((x0, y1), (x1, y0))):
                    normal = np.array([b[1] - a[1], a[0] - b[0]], float)
                    normal *= stroke / np.linalg.norm(normal)
                    quad = np.array([a + normal, b + normal, b - normal, a - normal]).round().astype(np.int32)
                    cv2.fillConvexPoly(sheet, quad, (30, 30, 40), cv2.LINE_8)
    # Shrink close to the texel scale first (warpAffine has no area filter), then place it on the table.
    shrink = min(1.0, 1 / (grid.mm * PAD_PX_PER_MM))
    small = cv2.resize(sheet, (max(2, int(sheet.shape[1] * shrink)), max(2, int(sheet.shape[0] * shrink))),
                       interpolation=cv2.INTER_AREA)
    linear = SRGB_TO_LINEAR[small]
    source = np.float32([[0, 0], [small.shape[1], 0], [small.shape[1], small.shape[0]]])
    target = np.float32(grid.to_texels(pad_corners(clutter))[:3])
    matrix = cv2.getAffineTransform(source, target)
    warped = cv2.warpAffine(linear, matrix, (grid.cols, grid.rows), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.ones(small.shape[:2], np.float32), matrix, (grid.cols, grid.rows))
    albedo[:] = albedo * (1 - mask[..., None]) + warped * mask[..., None]


def tray_floor_corners(tray) -> np.ndarray:
    w, h = tray.size_mm[0] / 2, tray.size_mm[1] / 2
    angle = math.radians(tray.yaw_deg)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    return np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) @ rot.T + tray.center


def _draw_tray_floor(albedo: np.ndarray, grid: TextureGrid, table: Table) -> None:
    tray = table.tray
    corners = grid.to_texels(tray_floor_corners(tray))
    mask = np.zeros(grid.shape, np.float32)
    cv2.fillConvexPoly(mask, np.round(corners * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    felt = _plain(np.asarray(tray.floor, np.float32), _fibrous_tone(grid, _rng(table, 3), 0.08, 0.03))
    albedo[:] = albedo * (1 - mask[..., None]) + felt * mask[..., None]


@lru_cache(maxsize=4)
def table_albedo(table: Table, camera: Camera, flat_clutter: tuple[Clutter, ...]) -> tuple[np.ndarray, ...]:
    """The table's albedo (linear RGB) as the camera sees it: three (height, width) planes, R, G, B. Cached: a
    sequence of frames with the same camera and table draws it once."""
    grid = TextureGrid(camera)
    albedo = table_albedo_texture(table, grid)
    if table.tray is not None:
        _draw_tray_floor(albedo, grid, table)
    for clutter in flat_clutter:
        _draw_pad(albedo, grid, clutter)
    homography = camera.table_to_image_homography() @ grid.texel_to_table()
    # Texel centres sit at +0.5; pixel centres too: shift both so that warpPerspective's integer grid agrees.
    shift_in = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    shift_out = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]])
    matrix = shift_out @ homography @ shift_in
    image = cv2.warpPerspective(albedo, matrix, (camera.width, camera.height), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    planes = tuple(cv2.split(image))
    for plane in planes:
        plane.setflags(write=False)
    return planes
