"""Render generated scenes for training: NNNNNN.png and NNNNNN.json (the dice's centres, extents, values).

    nice -n 10 python -m vision.training.synth_scenes OUT_DIR [--count N] [--first-seed S]

Seeds start at TRAINING_SEEDS, far from the seeds bench/vision.py and the tests score on (0-9999), so the
networks never see a scene they are measured on. Every fourth scene asks for a condition the dev photos
lack (cocked dice, clutter, a hand, tables other than white, oblique views); the rest are drawn freely.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

TRAINING_SEEDS = 1_000_000
SPECIAL = (
    dict(cocked=1, touching=0.5),
    dict(clutter="some", hand=True),
    dict(table="wood", tilt_deg=25),
    dict(table="dark", dice="qwixx+others"),
    dict(table="felt", clutter="some"),
    dict(cocked=2, table="paper"),
    dict(table="patterned", pips="coloured"),
    dict(edge=2, light="dim"),
)


def die_record(die) -> dict:
    """What training needs of one die: top-face centre and box extent, the value only where it can be read."""
    corners = np.asarray(die.corners, np.float64)
    extent = float(np.max(corners.max(axis=0) - corners.min(axis=0)))
    readable = die.problem in (None, "small", "edge") and die.top_visible_fraction >= 0.9
    return {"center": list(die.center), "extent": extent, "value": die.value if readable else None,
            "colour": die.colour, "problem": die.problem}


def main(argv: list[str] | None = None) -> int:
    from synth import random_scene, render

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=TRAINING_SEEDS)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    for index in range(args.count):
        seed = args.first_seed + index
        target = args.out / f"{seed:07d}"
        if target.with_suffix(".json").exists():
            continue
        knobs = SPECIAL[(index // 4) % len(SPECIAL)] if index % 4 == 0 else {}
        size = (640, 480) if index % 5 == 2 else (1280, 720)
        frame, truth = render(random_scene(seed, size=size, **knobs))
        cv2.imwrite(str(target.with_suffix(".png")), frame)
        record = {"seed": seed, "knobs": knobs, "dice": [die_record(d) for d in truth.in_frame()]}
        target.with_suffix(".json").write_text(json.dumps(record))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
