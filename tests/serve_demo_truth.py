"""`qwixx-table serve` whose reader is the demo recording's own truth, the recording played eight times as fast:
the browser game on the demo's dice runs it, in a process of its own, so that restarting the table mid-game
leaves nothing of the old server behind. The reader's quality is issue 3's; that test is about the table.

    python -m tests.serve_demo_truth serve --source demo [serve's other options]
"""
from __future__ import annotations

import functools
import hashlib
import sys

import camera
from synth.demo import film_script
from synth.rolls import perfect_readings
from web import cli
from web.commands import serve


def film_reader(name: str):
    """A reader that knows each frame of a recording made by synth.demo from the film's script."""
    scenes = [scene for _, scene in film_script(name).shots]
    with camera.open_source(str(camera.DEMO_VIDEO)) as source:
        by_picture = {frame_key(image): scene for (_, image), scene in zip(source, scenes)}
    return lambda image, calibration=None, dice_set=None: perfect_readings(by_picture[frame_key(image)])


def frame_key(image) -> bytes:
    return hashlib.sha1(image[::4, ::4].tobytes()).digest()


if __name__ == "__main__":
    serve.start_camera = functools.partial(serve.start_camera, read_dice=film_reader("demo"), speed=8.0)
    sys.exit(cli.main(sys.argv[1:]))
