"""The options every camera command shares (--source, --calibration, --resolution over the settings file), and
opening what they name."""
from __future__ import annotations

import argparse
import sys


def add_camera_options(parser: argparse.ArgumentParser) -> None:
    """--source, --calibration and --resolution over the settings file's (--config)."""
    from camera import SOURCE_HELP
    from web.settings import add_config_option, add_flag

    add_config_option(parser)
    add_flag(parser, "source",
             help=f"where frames come from: {SOURCE_HELP} (default: the settings' source; auto, the Pi camera when "
                  "there is one, else demo)")
    add_flag(parser, "calibration", metavar="FILE",
             help="calibration file (default: the settings', else the one `qwixx-table calibrate` saved, if any)")
    add_flag(parser, "resolution", metavar="WIDTHxHEIGHT", help="size the camera is asked for (default: 1280x720)")
    add_flag(parser, "exposure", type=float, metavar="STOPS")


def camera_settings(args: argparse.Namespace):
    """The settings for a camera command, with `source` made concrete (a bad one raises SettingsError, which the
    command line reports with its exit status)."""
    from dataclasses import replace

    import camera
    from web.settings import for_command

    settings = for_command(args)
    return replace(settings, source=camera.default_source()) if settings.source == "auto" else settings


def colours_option(text: str) -> tuple[str, ...]:
    from vision.tracker import COLOURED

    colours = tuple(c.strip().lower() for c in text.split(",") if c.strip())
    unknown = [c for c in colours if c not in COLOURED]
    if unknown:
        raise argparse.ArgumentTypeError(f"not a coloured die: {', '.join(unknown)} (choose from {','.join(COLOURED)})")
    return colours


def locked_controls(found, exposure_ev: float) -> dict | None:
    """The exposure a calibration (or None) fixes the camera at, unless it was found with another `exposure` setting:
    then the camera settles afresh, so that changing the setting and calibrating again takes effect."""
    exposure = found.exposure if found is not None else None
    return exposure.as_controls() if exposure is not None and exposure.compensation == exposure_ev else None


def open_camera(args: argparse.Namespace):
    """(source, calibration) for the command's options and settings, or None after printing why not."""
    import calibration
    import camera

    settings = camera_settings(args)
    try:
        found = calibration.find(settings.calibration_path())
    except calibration.CalibrationError as error:
        print(f"qwixx-table: {error}", file=sys.stderr)
        return None
    locked = locked_controls(found, settings.exposure)
    try:
        source = camera.open_source(settings.source, size=settings.size, locked_controls=locked,
                                    exposure_ev=settings.exposure)
    except camera.SourceError as error:
        print(f"qwixx-table: {error}", file=sys.stderr)
        return None
    return source, found
