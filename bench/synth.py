"""Median time to render one frame with the six Qwixx dice, at 1280x720 and 640x480, on one core.

    python bench/synth.py [--frames N] [--condition NAME ...]

Prints, per frame size, the median wall and CPU seconds per frame (render only; drawing the scene at random
is timed apart) over N seeded scenes of default conditions (no clutter or hand), and the same for each named
synth.CONDITIONS entry given. The first frame of each size is rendered once beforehand so that one-off work
(the noise bank) is not counted; table textures are cached per table and camera, so every timed frame uses a
new seed, and a new table.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402

from synth import CONDITIONS, random_scene, render  # noqa: E402

cv2.setNumThreads(1)


def time_frames(size, frames: int, **knobs) -> tuple[float, float, float]:
    render(random_scene(10_000, size=size, **knobs))
    walls, cpus, draws = [], [], []
    for seed in range(frames):
        start = time.perf_counter()
        scene = random_scene(seed, size=size, **knobs)
        draws.append(time.perf_counter() - start)
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        render(scene)
        walls.append(time.perf_counter() - start_wall)
        cpus.append(time.process_time() - start_cpu)
    return statistics.median(walls), statistics.median(cpus), statistics.median(draws)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=15)
    parser.add_argument("--condition", action="append", default=[], choices=sorted(CONDITIONS))
    args = parser.parse_args(argv)
    print(f"median seconds per frame over {args.frames} frames, six dice, one thread")
    print(f"{'scenes':16s} {'size':>10s} {'wall':>7s} {'cpu':>7s} {'draw':>7s}")
    for size in ((1280, 720), (640, 480)):
        wall, cpu, draw = time_frames(size, args.frames, clutter="none")
        print(f"{'default':16s} {size[0]:>5d}x{size[1]:<4d} {wall:7.3f} {cpu:7.3f} {draw:7.3f}")
    for name in args.condition:
        knobs = dict(CONDITIONS[name])
        size = knobs.pop("size", (1280, 720))
        wall, cpu, draw = time_frames(size, args.frames, **knobs)
        print(f"{name:16s} {size[0]:>5d}x{size[1]:<4d} {wall:7.3f} {cpu:7.3f} {draw:7.3f}")


if __name__ == "__main__":
    main()
