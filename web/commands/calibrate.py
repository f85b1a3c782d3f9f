"""`qwixx-table calibrate`: learn what this camera sees of this table and save it for the reader.

With a camera it asks for the empty table, then the six dice lying apart, and takes a few frames of
each. With a recording, its first frame is the empty table and its last the six dice.
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path

from web.commands.camera_options import add_camera_options, camera_settings

FIRST_FRAME_S = 10.0  # how long a camera may take to send its first picture


def configure(parser: argparse.ArgumentParser) -> None:
    add_camera_options(parser)
    parser.add_argument(
        "--play-area",
        type=polygon_option,
        default=None,
        metavar="X,Y,X,Y,...",
        help="the tray or play area's corners in pixels, in order round it (default: found on the empty table)",
    )


def polygon_option(text: str) -> tuple[tuple[float, float], ...]:
    try:
        numbers = [float(v) for v in text.replace(" ", ",").split(",") if v]
    except ValueError:
        raise argparse.ArgumentTypeError("give the corners as numbers: X,Y,X,Y,...") from None
    if len(numbers) < 6 or len(numbers) % 2:
        raise argparse.ArgumentTypeError("give at least three corners, each as X,Y")
    return tuple(zip(numbers[::2], numbers[1::2]))


def run(args: argparse.Namespace) -> int:
    import calibration
    import camera
    from calibration.learn import FRAMES_AVERAGED, average, check, learn
    from vision import read_dice

    settings = camera_settings(args)
    if settings.source == "demo":
        print("qwixx-table: the demo recording is not your table: calibrate with the camera that watches it "
              "(--source picamera or a webcam index), or a recording of it (its first frame the empty table, its last "
              "the six dice apart). Without --source it is the demo when no Pi camera is found.", file=sys.stderr)
        return 1
    path = settings.calibration_file()
    unwritable = why_not_writable(path)
    if unwritable:  # said before the person lays anything out, not after
        print(f"qwixx-table: the calibration cannot be saved to {path}: {unwritable}. Name another file with "
              "--calibration FILE.", file=sys.stderr)
        return 1
    try:
        source = camera.open_source(settings.source, size=settings.size, exposure_ev=settings.exposure)
    except camera.SourceError as error:
        print(f"qwixx-table: {error}", file=sys.stderr)
        return 1
    with source:
        if source.live:
            frames = iter(source)
            if first_frame(source, frames) is None:
                print(f"qwixx-table: {source.description} sent no picture in {FIRST_FRAME_S:g} s ({source.status})",
                      file=sys.stderr)
                return 1
            ask("Take every die off the table, then press Enter.")
            empty = average([next(frames).image for _ in range(FRAMES_AVERAGED)])
            ask("Lay the six dice (two white, red, yellow, green, blue) apart on the tray, top faces up, "
                "then press Enter.")
            dice = average([next(frames).image for _ in range(FRAMES_AVERAGED)])
        else:
            images = [image for _, image in source]
            if len(images) < 2:
                print("qwixx-table: a recording for calibration needs the empty table first and the dice last",
                      file=sys.stderr)
                return 1
            empty, dice = images[0], images[-1]
        exposure = calibration.Exposure.from_controls(getattr(source, "locked_controls", None))
    try:
        learned = learn(empty, dice, read_dice, exposure=exposure, play_area=args.play_area)
    except calibration.CalibrationError as error:
        backwards = not source.live and len(read_dice(empty)) > len(read_dice(dice))
        print(f"qwixx-table: {error}" + (" (the recording's first frame shows more dice than its last: it must begin "
                                         "with the empty table and end with the dice)" if backwards else ""),
              file=sys.stderr)
        return 1
    report(learned)
    seen, warning = check(dice, learned, read_dice)
    print(f"With this calibration the reader sees: {', '.join(sorted(f'{r.colour} {r.value}' for r in seen)) or 'nothing'}")
    if warning:
        print(f"warning: {warning}")
    try:
        learned.save(path)
    except OSError as error:
        print(f"qwixx-table: the calibration could not be written to {path}: {error.strerror or error}. Nothing was "
              "saved.", file=sys.stderr)
        return 1
    print(f"Saved to {path}")
    return 0


def first_frame(source, frames):
    """The camera's first frame, or None when it sends none within FIRST_FRAME_S (it is closed then): a camera that is
    not there is said before the person is asked to do anything, rather than retried for ever."""
    closer = threading.Timer(FIRST_FRAME_S, source.close)
    closer.start()
    try:
        return next(frames, None)
    finally:
        closer.cancel()


def why_not_writable(path: Path) -> str | None:
    """Why a file cannot be written at `path` (its folder made as needed), or None when it can."""
    if path.is_dir():
        return "that is a folder"
    folder = path.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if not os.access(path if path.exists() else folder, os.W_OK):
        return "no permission to write there (or a read-only disk)"
    return None


def ask(prompt: str) -> None:
    print(prompt, end=" ", flush=True)
    if sys.stdin.readline() == "":
        raise SystemExit("qwixx-table: no answer on standard input")


def report(learned) -> None:
    width, height = learned.resolution
    print(f"Calibrated at {width}x{height}: a die is {learned.die_size:.0f} px across.")
    for name, colour in learned.colours.items():
        L, a, b = colour.face
        print(f"  {name:<7} L*{L:5.1f} a*{a:6.1f} b*{b:6.1f}   pips {colour.pip_contrast:+.0f} L*")
    corners = " ".join(f"{x:.0f},{y:.0f}" for x, y in learned.play_area)
    print(f"  play area: {corners}")
    if learned.exposure is not None:
        e = learned.exposure
        focus = "" if e.lens_position is None else (
            f", focus locked at {100 / e.lens_position:.0f} cm" if e.lens_position > 0 else ", focus locked at infinity")
        print(f"  exposure locked: {e.exposure_time} us, gain {e.analogue_gain:.2f}, "
              f"colour gains {e.colour_gains[0]:.2f}/{e.colour_gains[1]:.2f}{focus}")
    for note in learned.notes:
        print(f"warning: {note}")
