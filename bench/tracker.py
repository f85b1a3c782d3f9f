"""Benchmark of the roll tracker: every roll once and right, latency, frame rate.

    python bench/tracker.py [--reader real|perfect] [--films N] [--light-level L] [--models DIR]

Plays the demo recording (camera/demo/demo.mp4, 1280x720) and the committed test films (tests/data/films, 960x540:
another table, light and camera angle) through camera's video-file source, and N more films rendered here (seeds
100, 101, ...; minutes each; every frame with sensor noise of its own, as a camera's; --light-level dims their
room), through vision.RollTracker on one core. The reader is vision.read_dice (with the networks in --models DIR
when given), or with `--reader perfect` one that knows each frame's dice from the film's script (the tracker's own
part, whatever the reader's quality). The real reader is judged by what the frames show: a roll with a die whose
pips do not stand out from its top must be sent back (synth.rolls.seen_as_recorded). Prints for each film: rolls
correct / wrong (and of those, how many were announced with wrong values: the worst outcome) / missed / extra, the
time from the dice's last motion to the event (goal at most 0.6 s) in the film's time and counting the tracker's own
time as with a live camera (synth.rolls.live_lags), and the frames per second the tracker sustains (goal at least 15
at 1280x720), with how many frames it gave the reader.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import camera  # noqa: E402
from synth import render  # noqa: E402
from synth.demo import film_script  # noqa: E402
from synth.rolls import (ScriptedReader, frames as render_frames, live_lags, load_truth, score,  # noqa: E402
                         seen_as_recorded, track, varied_film)
from vision import read_dice  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.tracker import RollTracker  # noqa: E402


def recorded(video: Path):
    """(name, frames, truth, script) of a recording, decoded as the tracker would see it."""
    with camera.open_source(str(video)) as source:
        frames = list(source)
    return video.stem, frames, load_truth(video.with_suffix(".json")), film_script(video.stem)


def rendered(seed: int, light_level: float):
    film = varied_film(seed, light_level=light_level)
    return f"rolls-{seed} (rendered)", list(render_frames(film, lambda scene: render(scene)[0])), film.rolls, film


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reader", choices=("real", "perfect"), default="real")
    parser.add_argument("--films", type=int, default=0, help="films to render and add (minutes each)")
    parser.add_argument("--models", type=Path, help="folder of the reader's networks to measure instead of its own "
                        "(as bench/vision.py's --models)")
    parser.add_argument("--light-level", type=float, default=1.0,
                        help="the rendered films' room light (synth Light.level; a dim room 0.03-0.12)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    real_reader = DiceReader(args.models).read if args.models else read_dice
    videos = [camera.DEMO_VIDEO] + sorted((ROOT / "tests" / "data" / "films").glob("*.mp4"))
    cases = [recorded(video) for video in videos] + [rendered(100 + i, args.light_level) for i in range(args.films)]
    lowest_fps, latencies, live_latencies, totals = [], [], [], np.zeros(6, int)
    for name, frames, truth, script in cases:
        reader = real_reader if args.reader == "real" else ScriptedReader(frames, [scene for _, scene in script.shots])
        if args.reader == "real":  # a die whose pips the frames do not show is for no reader to read
            truth = seen_as_recorded(script, render)
        tracker = RollTracker(read_dice=reader)
        events, spent = track(tracker, frames, truth)
        result = score(events, truth, lags=live_lags([t for t, _ in frames], spent))
        fps = len(spent) / sum(spent)
        height, width = frames[0][1].shape[:2]
        if width >= 1280:
            lowest_fps.append(fps)
        latencies += result.latencies
        live_latencies += result.live_latencies
        totals += [result.rolls, result.correct, result.wrong, result.announced_wrong, result.missed, result.extra]
        print(f"{name}: {result}")
        print(f"    {len(frames)} frames of {width}x{height}: {fps:.0f} frames/s on one core, reader on "
              f"{tracker.frames_read} frames, median frame {np.median(spent) * 1000:.1f} ms, "
              f"slowest {max(spent) * 1000:.0f} ms")
    rolls, correct, wrong, announced_wrong, missed, extra = totals
    latency = (f"median {np.median(latencies):.2f} s, max {max(latencies):.2f} s, counting the tracker's time max "
               f"{max(live_latencies):.2f} s" if latencies else "none")
    print(f"\nall ({args.reader} reader): {correct}/{rolls} rolls correct, {wrong} wrong ({announced_wrong} announced "
          f"with wrong values), {missed} missed, "
          f"{extra} extra; last motion to event {latency} (goal <= 0.6 s); "
          f"at 1280x720 {min(lowest_fps):.0f} frames/s (goal >= 15)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
