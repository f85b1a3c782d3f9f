"""`qwixx-table serve` whose reader is the demo recording's own truth, the recording played eight times as fast:
the browser game on the demo's dice runs it, in a process of its own, so that restarting the table mid-game
leaves nothing of the old server behind. The reader's quality is issue 3's; that test is about the table.

    python -m tests.serve_demo_truth serve --source demo [serve's other options]
"""
from __future__ import annotations

import functools
import sys

import camera
from synth.demo import film_script
from synth.rolls import ScriptedReader
from web import cli
from web.commands import serve


def film_reader(name: str) -> ScriptedReader:
    """A reader that knows each frame of a recording made by synth.demo from the film's script."""
    with camera.open_source(str(camera.DEMO_VIDEO)) as source:
        return ScriptedReader(source, [scene for _, scene in film_script(name).shots])


if __name__ == "__main__":
    serve.start_camera = functools.partial(serve.start_camera, read_dice=film_reader("demo"), speed=8.0)
    sys.exit(cli.main(sys.argv[1:]))
