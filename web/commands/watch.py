"""`qwixx-table watch`: the camera and the roll tracker without the web app; prints each event."""
from __future__ import annotations

import argparse
import json
import logging
import sys

from web.commands.camera_options import add_camera_options, colours_option, open_camera


def configure(parser: argparse.ArgumentParser) -> None:
    add_camera_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per event and line")
    parser.add_argument(
        "--colours",
        type=colours_option,
        default=None,
        metavar="red,yellow,green,blue",
        help="the coloured dice still in play (default: all four); a closed colour's die is ignored",
    )


def run(args: argparse.Namespace) -> int:
    from vision.tracker import COLOURED, RollTracker

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s", stream=sys.stderr)
    opened = open_camera(args)
    if opened is None:
        return 1
    source, calibration = opened
    tracker = RollTracker(calibration=calibration, colours_in_play=COLOURED if args.colours is None else args.colours)
    with source:
        for t, image in source:
            for event in tracker.feed(t, image):
                print(json.dumps(event.to_json()) if args.json else describe(event), flush=True)
    return 0


def describe(event) -> str:
    """One line for a person watching the table."""
    if event.event == "roll-started":
        return f"{event.t:8.2f} s  rolling..."
    dice = " ".join(
        f"{d.colour} {d.value if d.value is not None else '?'}" for d in event.dice
    )
    if event.event == "problem":
        return f"{event.t:8.2f} s  problem: " + " ".join(p.describe() for p in event.problems) + f"  [{dice}]"
    white = event.white
    total = f"white {white[0]}+{white[1]} = {sum(white)}" if white else "white ?"
    colours = "  ".join(f"{name} {value}" for name, value in event.colours.items())
    return f"{event.t:8.2f} s  settled: {total}  {colours}"
