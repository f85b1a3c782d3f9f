"""Make the demo recording that `qwixx-table serve` plays when there is no camera.

    python -m synth.demo [--out camera/demo] [--fps 15] [--cache DIR]
    python -m synth.demo --varied SEED --out tests/data/films     # the tracker's test films

Several rolls of the six Qwixx dice onto a tray on a wooden table, seen by a Pi camera from above:
dice tumbling in and settling, hands gathering them, a hand passing over still dice, a roll with a die
cocked against another and its re-roll, and at the end a roll of five dice after red was closed.
Writes demo.mp4 (H.264; a few MB) and demo.json (every roll's values and the moment its dice stopped).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import time
from pathlib import Path

import cv2
import numpy as np

from synth.rolls import QWIXX_SIX, Film, frames, varied_film
from synth.geometry import Camera
from synth.scene import Effects, Light, Scene, Table, Tray

ROLLS = [  # white, white, red, yellow, green, blue
    (3, 5, 2, 6, 4, 1),
    (6, 6, 5, 3, 2, 4),
    (1, 4, 6, 2, 5, 3),  # green ends up cocked against blue, and is re-rolled alone
    (5, 3, None, 4, 6, 2),  # red is closed
]
COCKED_ROLL = 2


def demo_scene(width: int = 1280, height: int = 720) -> Scene:
    return Scene(
        camera=Camera(width, height, height_mm=Camera.height_for_die_px(27, width, height)),
        # A lamp off to the side: one nearer above the tray mirrored in the dice's tops, and a die whose top
        # is all glare shows no pips to read (the first demo had one in most rolls).
        light=Light(position=(-900.0, -300.0, 900.0), kelvin=3800.0, size_mm=120.0, ambient=0.45),
        table=Table("wood", seed=7, tray=Tray(size_mm=(330.0, 230.0), floor=(0.02, 0.06, 0.03))),
        effects=Effects(seed=3, jpeg_quality=None),
    )


def demo_film(fps: float = 15.0, width: int = 1280, height: int = 720) -> Film:
    film = Film(demo_scene(width, height), fps=fps, seed=11)
    film.hold(1.0)
    for index, values in enumerate(ROLLS):
        colours = [c for c, v in zip(QWIXX_SIX, values) if v is not None]
        landing = film.resting_dice([v for v in values if v is not None], colours,
                                    apart=2.6 if index == COCKED_ROLL else 1.9)
        if index == COCKED_ROLL:
            blue = next(d for d in landing if d.colour == "blue")
            landing = [d if d.colour != "green" else film.cocked_against(blue, "green", seed=4) for d in landing]
        if film.on_table:
            film.pick_up()
            film.hold(0.3)
        film.throw(landing, from_side=["left", "near", "right", "near"][index])
        film.hold(2.5)
        if index == 1:
            film.hand_over(1.0, from_side="right")  # reaches over the dice and takes nothing
            film.hold(1.5)
        if index == COCKED_ROLL:
            cocked = next(d for d in film.on_table if d.colour == "green")
            film.hand_over(0.8, from_side="near", take=(cocked,))
            film.hold(0.3)
            again = film.resting_dice([5], ["green"], area=(-100, -60, 100, 60), clear_of=film.on_table)[0]
            film.throw([again], from_side="near")
            film.hold(2.5)
    return film


def film_script(name: str) -> Film:
    """The film a recording named `name` was made from: "demo", or "rolls-SEED" for a test film."""
    if name == "demo":
        return demo_film()
    if name.startswith("rolls-") and name[6:].isdigit():
        return varied_film(int(name[6:]))
    raise ValueError(f"no film script is called {name!r}")


def cached_render(cache: Path | None):
    """synth.render's image, kept in `cache` (one PNG per distinct scene) so that a re-encode or an
    interrupted run does not render again."""
    from synth.render import render

    def render_image(scene: Scene):
        path = None
        if cache is not None:
            path = cache / (hashlib.sha1(repr(scene).encode()).hexdigest()[:20] + ".png")
            if path.exists():
                return cv2.imread(str(path), cv2.IMREAD_COLOR)
        image = render(scene)[0]
        if path is not None:
            cache.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(path), image)
        return image

    return render_image


def write_film(film: Film, out: Path, name: str, cache: Path | None = None, note: str = "") -> Path:
    """Render `film` to out/NAME.mp4 (H.264) and its truth to out/NAME.json.

    OpenCV's own video writer cannot be told a quality (it wrote 12 MB for this demo), so the
    frames go to the ffmpeg that the imageio-ffmpeg package ships, with x264 at a constant quality:
    still stretches then cost almost nothing. Only making a film needs it; playing one needs OpenCV.
    """
    try:
        import imageio_ffmpeg
    except ImportError:
        raise SystemExit("making a film needs imageio-ffmpeg: pip install imageio-ffmpeg") from None
    cv2.setNumThreads(1)
    out.mkdir(parents=True, exist_ok=True)
    camera = film.base.camera
    video = out / f"{name}.mp4"
    encoder = subprocess.Popen(
        [imageio_ffmpeg.get_ffmpeg_exe(), "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "bgr24",
         "-s", f"{camera.width}x{camera.height}", "-r", f"{film.fps:g}", "-i", "-",
         "-c:v", "libx264", "-preset", "slow", "-crf", "23", "-pix_fmt", "yuv420p", "-threads", "1",
         "-movflags", "+faststart", str(video)],
        stdin=subprocess.PIPE,
    )
    started = time.monotonic()
    for index, (t, image) in enumerate(frames(film, cached_render(cache), sensor_noise=False)):
        encoder.stdin.write(np.ascontiguousarray(image).tobytes())
        if index % 30 == 0:
            print(f"{t:6.1f} s of {film.t:.1f} s  ({time.monotonic() - started:.0f} s)", flush=True)
    encoder.stdin.close()
    if encoder.wait() != 0:
        raise SystemExit("ffmpeg could not write the film")
    truth = {
        "fps": film.fps,
        "size": [camera.width, camera.height],
        "duration": round(film.t, 3),
        "note": note,
        "rolls": [r.to_json() for r in film.rolls],
    }
    (out / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")
    print(f"wrote {video} ({video.stat().st_size / 1e6:.1f} MB) and {name}.json: {len(film.rolls)} rolls")
    return video


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "camera" / "demo")
    parser.add_argument("--fps", type=float, default=15.0)
    parser.add_argument("--cache", type=Path, default=None, help="keep rendered frames here (PNG per scene)")
    parser.add_argument("--varied", type=int, default=None, metavar="SEED",
                        help="instead of the demo, the test film synth.rolls.varied_film(SEED), named rolls-SEED")
    parser.add_argument("--size", default="960x540", help="the test film's frame size (the demo is 1280x720)")
    args = parser.parse_args(argv)
    if args.varied is None:
        write_film(demo_film(args.fps), args.out, "demo", args.cache,
                   note="made by `python -m synth.demo`; red is closed before the last roll (five dice)")
    else:
        width, height = (int(v) for v in args.size.split("x"))
        write_film(varied_film(args.varied, width, height, args.fps), args.out, f"rolls-{args.varied}", args.cache,
                   note=f"made by `python -m synth.demo --varied {args.varied}`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
