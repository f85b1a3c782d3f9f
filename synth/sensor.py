"""What the camera does to the light reaching it: white balance, exposure, lens, motion, sensor noise, the
ISP's tone curve, denoising and sharpening, and JPEG compression."""
from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from synth.scene import Effects, Light

LUMA = np.array([0.2126, 0.7152, 0.0722], np.float32)
# The Pi's auto exposure targets (linear luminance), from libcamera's imx708.json "rpi.agc".
Y_TARGET = 0.16
HIGHLIGHT_LOWER = 0.2
HIGHLIGHT_UPPER = 0.8
# Sensor noise at unit gain, as fractions of full scale: shot noise (times sqrt(signal)) and read noise.
SHOT_NOISE = 0.012
READ_NOISE = 0.002
MAX_GAIN = 12.0


def camera_gain(light: Light) -> float:
    """Analogue gain the camera needs: 1 in a bright room, more as the room gets dimmer."""
    return float(np.clip(0.35 / max(light.level, 1e-3), 1.0, MAX_GAIN))


def white_balance_gains(light: Light, effects: Effects) -> np.ndarray:
    """Per-channel gains: the camera's white balance removes most of the light's colour, and what
    `effects.white_balance` adds on top stays."""
    share = 1 / (1 + light.ambient)
    illuminant = light.colour * share + light.ambient_colour * (1 - share)
    gains = (illuminant / illuminant[1]) ** -effects.auto_white_balance
    return (gains * np.asarray(effects.white_balance)).astype(np.float32)


def line_kernel(shift_px: tuple[float, float]) -> np.ndarray | None:
    """A normalised kernel that smears an image along a straight move of shift_px; None for no move."""
    dx, dy = shift_px
    length = math.hypot(dx, dy)
    if length < 0.5:
        return None
    half = int(math.ceil(length / 2)) + 1
    size = 2 * half + 1
    kernel = np.zeros((size * 4, size * 4), np.float32)
    steps = max(2, int(length * 4))
    for t in np.linspace(-0.5, 0.5, steps):
        x = (half + 0.5 + t * dx) * 4
        y = (half + 0.5 + t * dy) * 4
        kernel[int(y), int(x)] += 1
    kernel = cv2.resize(kernel, (size, size), interpolation=cv2.INTER_AREA)
    return kernel / kernel.sum()


@lru_cache(maxsize=8)
def _radius_cubed(width: int, height: int) -> np.ndarray:
    x = (np.arange(width, dtype=np.float32) + 0.5 - width / 2) / np.float32(width / 2)
    y = (np.arange(height, dtype=np.float32) + 0.5 - height / 2) / np.float32(height / 2)
    aspect = np.float32(width * width / (width * width + height * height))
    r2 = (x * x)[None, :] * aspect + (y * y)[:, None] * (1 - aspect)
    return r2 * np.sqrt(r2)


def vignette(width: int, height: int, strength: float) -> np.ndarray:
    """Share of light reaching each pixel: 1 in the middle, 1 - strength in the corners."""
    return cv2.addWeighted(_radius_cubed(width, height), -float(strength), _radius_cubed(width, height), 0, 1.0)


# The Pi camera module 3's default gamma curve, (linear in, display out) in 16-bit units: "rpi.contrast" in
# libcamera's src/ipa/rpi/vc4/data/imx708.json (raspberrypi/libcamera, BSD-2-Clause).
PI_GAMMA = (
    (0, 0), (1024, 5040), (2048, 9338), (3072, 12356), (4096, 15312), (5120, 18051), (6144, 20790), (7168, 23193),
    (8192, 25744), (9216, 27942), (10240, 30035), (11264, 32005), (12288, 33975), (13312, 35815), (14336, 37600),
    (15360, 39168), (16384, 40642), (18432, 43379), (20480, 45749), (22528, 47753), (24576, 49621), (26624, 51253),
    (28672, 52698), (30720, 53796), (32768, 54876), (36864, 57012), (40960, 58656), (45056, 59954), (49152, 61183),
    (53248, 62355), (57344, 63419), (61440, 64476), (65535, 65535),
)


def _tone_curve() -> np.ndarray:
    """12-bit linear codes (0..1 full scale) to 8-bit, by the Pi's gamma curve."""
    points = np.array(PI_GAMMA, dtype=float) / 65535
    out = np.interp(np.linspace(0, 1, 4096), points[:, 0], points[:, 1])
    return np.clip(np.round(out * 255), 0, 255).astype(np.uint8)


TONE_CURVE = _tone_curve()


def auto_exposure(radiance: np.ndarray, gains: np.ndarray, metering: str) -> float:
    """The exposure the Pi's AGC settles on: the centre-weighted mean luminance at Y_TARGET, raised until the
    brightest 2% reach at least HIGHLIGHT_LOWER ("normal" metering), and for "highlight" metering also held
    down until they are at most HIGHLIGHT_UPPER (libcamera's imx708.json "rpi.agc" targets)."""
    fine = (cv2.resize(radiance, (256, 144), interpolation=cv2.INTER_AREA) * gains) @ LUMA
    weights = vignette(256, 144, 0.8)
    exposure = Y_TARGET / max(float((fine * weights).sum() / weights.sum()), 1e-6)
    top = np.sort(fine.ravel())[int(fine.size * 0.98):]
    brightest = max(float(top.mean()), 1e-6)
    exposure = max(exposure, HIGHLIGHT_LOWER / brightest)
    if metering == "highlight":
        exposure = min(exposure, HIGHLIGHT_UPPER / brightest)
    return exposure


NOISE_BANK = (1024, 1536)
NOISE_TILE = (768, 1152)


@lru_cache(maxsize=2)
def _noise_bank(channels: int) -> np.ndarray:
    """A fixed field of sensor grain: unit Gaussian noise as demosaicing leaves it, spread a little over
    neighbouring pixels and mixed between channels. Frames take pieces of it at random offsets and flips:
    drawing fresh normals for every pixel of every frame would cost more than the rest of the rendering."""
    rng = np.random.default_rng(20240601)
    grain = rng.standard_normal(NOISE_BANK + (3,), dtype=np.float32)
    grain = cv2.GaussianBlur(grain, (0, 0), 0.6)
    # The ISP's colour denoiser removes most of the noise's colour: what is left is mostly brightness.
    brightness = grain.mean(axis=2, keepdims=True)
    grain = grain * 0.4 + brightness / brightness.std() * grain.std() * 0.9
    grain /= grain.std()
    return grain if channels == 3 else np.ascontiguousarray(grain[..., 0])


def grain(height: int, width: int, rng: np.random.Generator, channels: int = 3) -> np.ndarray:
    """Unit sensor grain (height, width, channels) cut from the fixed noise field at offsets drawn from rng;
    (height, width) for one channel."""
    bank = _noise_bank(channels)
    out = np.empty((height, width) + bank.shape[2:], np.float32)
    for y in range(0, height, NOISE_TILE[0]):
        for x in range(0, width, NOISE_TILE[1]):
            h, w = min(NOISE_TILE[0], height - y), min(NOISE_TILE[1], width - x)
            oy = int(rng.integers(0, NOISE_BANK[0] - h + 1))
            ox = int(rng.integers(0, NOISE_BANK[1] - w + 1))
            flip_y, flip_x = (1 - 2 * rng.integers(0, 2, 2)).tolist()
            out[y:y + h, x:x + w] = bank[oy:oy + h, ox:ox + w][::flip_y, ::flip_x]
    return out


def develop(radiance: np.ndarray, light: Light, effects: Effects) -> np.ndarray:
    """Linear RGB radiance (H, W, 3) float32 to the camera's 8-bit BGR frame."""
    height, width = radiance.shape[:2]
    rng = np.random.default_rng([effects.seed, 17])
    gains = white_balance_gains(light, effects)
    exposure = auto_exposure(radiance, gains, effects.metering) * 2.0 ** effects.exposure_ev
    gains = (gains * exposure).astype(np.float32)
    falloff = vignette(width, height, effects.vignetting)
    image = cv2.merge([cv2.multiply(channel, falloff, scale=float(gain_c))
                       for channel, gain_c in zip(cv2.split(radiance), gains)])
    if effects.defocus_px > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), effects.defocus_px)
    kernel = line_kernel(effects.shake_px)
    if kernel is not None:
        image = cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT)
    # Optics and the Bayer filter's demosaicing never give a perfectly sharp pixel.
    image = cv2.GaussianBlur(image, (0, 0), 0.55)
    gain = camera_gain(light)
    if effects.noise > 0:
        # (OpenCV's arithmetic with a plain number touches only the first channel: numpy here.)
        variance = np.maximum(image, 0) * np.float32(SHOT_NOISE ** 2 * gain) + np.float32((READ_NOISE * gain) ** 2)
        sigma = cv2.sqrt(variance) * np.float32(effects.noise)
        image = cv2.add(image, cv2.multiply(grain(height, width, rng), sigma))
    image *= np.float32(4095)
    codes = np.clip(image, 0, 4095, out=image).astype(np.uint16)
    frame = TONE_CURVE[codes]
    frame = cv2.cvtColor(frame, cv2.COLOR_RGB2BGR)
    if gain > 2:
        # The ISP's denoiser smears fine detail in dim light.
        frame = cv2.bilateralFilter(frame, 5, 8 * math.sqrt(gain), 3)
    if effects.sharpen > 0:
        soft = cv2.GaussianBlur(frame, (0, 0), 1.2)
        frame = cv2.addWeighted(frame, 1 + effects.sharpen, soft, -effects.sharpen, 0)
    if effects.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(effects.jpeg_quality)])
        if not ok:
            raise RuntimeError("OpenCV could not encode the frame as JPEG")
        frame = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return frame
