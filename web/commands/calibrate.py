"""`qwixx-table calibrate`: learn what this camera sees of this table and save it for the reader.

With a camera it asks for the empty table, then the six dice lying apart, and takes a few frames of
each. With a recording, its first frame is the empty table and its last the six dice.
"""
from __future__ import annotations

import argparse
import sys

from web.commands.camera_options import add_camera_options, camera_settings


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
    if settings is None:
        return 1
    path = settings.calibration_file()
    try:
        source = camera.open_source(settings.source, size=settings.size, exposure_ev=settings.exposure)
    except camera.SourceError as error:
        print(f"qwixx-table: {error}", file=sys.stderr)
        return 1
    with source:
        if source.live:
            frames = iter(source)
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
        print(f"qwixx-table: {error}", file=sys.stderr)
        return 1
    report(learned)
    seen, warning = check(dice, learned, read_dice)
    print(f"With this calibration the reader sees: {', '.join(sorted(f'{r.colour} {r.value}' for r in seen)) or 'nothing'}")
    if warning:
        print(f"warning: {warning}")
    learned.save(path)
    print(f"Saved to {path}")
    return 0


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
        print(f"  exposure locked: {e.exposure_time} us, gain {e.analogue_gain:.2f}, "
              f"colour gains {e.colour_gains[0]:.2f}/{e.colour_gains[1]:.2f}")
    for note in learned.notes:
        print(f"warning: {note}")
