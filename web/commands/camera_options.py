"""The options every camera command shares (--source, --calibration), and opening what they name."""
from __future__ import annotations

import argparse
import sys


def add_camera_options(parser: argparse.ArgumentParser) -> None:
    from camera import SOURCE_HELP

    parser.add_argument(
        "--source",
        default=None,
        help=f"where frames come from: {SOURCE_HELP} (default: the Pi camera when there is one, else demo)",
    )
    parser.add_argument(
        "--calibration",
        default=None,
        metavar="FILE",
        help="calibration file (default: the one `qwixx-table calibrate` saved in your config folder, if any)",
    )


def colours_option(text: str) -> tuple[str, ...]:
    from vision.tracker import COLOURED

    colours = tuple(c.strip().lower() for c in text.split(",") if c.strip())
    unknown = [c for c in colours if c not in COLOURED]
    if unknown:
        raise argparse.ArgumentTypeError(f"not a coloured die: {', '.join(unknown)} (choose from {','.join(COLOURED)})")
    return colours


def open_camera(args: argparse.Namespace, size: tuple[int, int] = (1280, 720)):
    """(source, calibration) for the command's options, or None after printing why not."""
    import calibration
    import camera

    try:
        found = calibration.find(args.calibration)
    except calibration.CalibrationError as error:
        print(f"qwixx-table: {error}", file=sys.stderr)
        return None
    locked = found.exposure.as_controls() if found is not None and found.exposure is not None else None
    try:
        source = camera.open_source(args.source or camera.default_source(), size=size, locked_controls=locked)
    except camera.SourceError as error:
        print(f"qwixx-table: {error}", file=sys.stderr)
        return None
    return source, found
