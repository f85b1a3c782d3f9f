"""Benchmark of the dice reader on photoreal frames: the same scenes drawn by Blender's path tracer (synth.cycles) and
by the generator's own renderer (synth.render), which the reader's networks were trained on.

    python -m synth.cycles out/photoreal --scenes 60    # offline, needs bpy: about 30 s a frame on two cores
    python -m synth.cycles out/photoreal --scenes 30 --cocked
    python bench/photoreal.py out/photoreal

Each frame is scored against the generator's truth of its scene (whose dice with pips too faint to read are judged
in synth.render's frame), one die at a time and as one Qwixx roll, as bench/vision.py scores its generated scenes;
then the two drawings are compared die by die. A reader that reads far fewer dice in the Cycles frames has learned
how synth.render draws rather than what dice look like. A frame whose scene the generator now describes differently
(its code changed since) is left out, and said so.
"""
from __future__ import annotations

import argparse
import json
import runpy
import sys
from collections import Counter
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from synth.cycles import scene_named  # noqa: E402
from synth.render import render  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.readings import QWIXX_ROLL  # noqa: E402
from vision.scoring import outcomes  # noqa: E402

BENCH_VISION = runpy.run_path(str(ROOT / "bench" / "vision.py"))
WAYS = (("one die at a time", None), ("as one Qwixx roll", QWIXX_ROLL))


def drawn_twice(folder: Path, kind: str = "scene") -> tuple[list, list]:
    """(Cycles scenes, synth.render scenes), each a list of (frame, truth dice) as bench/vision.py scores them, for
    every frame of `folder` of that `kind` (synth.cycles.frame_name: "scene" or "cocked") whose scene is still the
    generator's."""
    cycles, ours = [], []
    for record in sorted(folder.glob(f"{kind}-*.json")):
        stored = json.loads(record.read_text())
        frame, truth = render(scene_named(record.stem))
        if not same_dice(stored, truth.to_json()):
            print(f"{record.stem}: drawn from another generator's scene, left out", file=sys.stderr)
            continue
        dice = BENCH_VISION["truth_dice"](stored)
        cycles.append((cv2.imread(str(record.with_suffix(".jpg"))), dice))
        ours.append((frame, dice))
    return cycles, ours


def same_dice(stored: dict, now: dict) -> bool:
    """Whether two truths (synth.Truth.to_json()) hold the same dice in the same places: the scene's geometry, which
    is the same with any numpy and OpenCV (the pip contrast, measured in the frame, may not be)."""
    def geometry(truth):
        return [(d["colour"], d["value"], d["corners"]) for d in truth["dice"]]
    return geometry(stored) == geometry(json.loads(json.dumps(now)))


def paired(reader: DiceReader, cycles: list, ours: list, dice_set) -> Counter:
    """How many dice are read correctly in both drawings, in the Cycles frame alone, in synth.render's alone, in
    neither; and how many are confident-wrong in each."""
    counts: Counter = Counter()
    for (cycles_frame, truth), (our_frame, _) in zip(cycles, ours):
        drawn = [outcomes(truth, reader.read(frame, dice_set=dice_set)) for frame in (cycles_frame, our_frame)]
        for in_cycles, in_ours in zip(*drawn):
            counts[(in_cycles == "correct", in_ours == "correct")] += 1
            counts["cycles wrong"] += in_cycles == "confident-wrong"
            counts["ours wrong"] += in_ours == "confident-wrong"
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="frames and truth written by python -m synth.cycles")
    parser.add_argument("--models", type=Path, help="folder of the reader's networks to measure instead of its own")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    reader = DiceReader(args.models) if args.models else DiceReader()
    scored = 0
    for kind, title in (("scene", "Cycles frames (photoreal)"), ("cocked", "Cycles frames with a die cocked")):
        cycles, ours = drawn_twice(args.folder, kind)
        scored += len(cycles)
        for way, dice_set in WAYS if cycles else ():
            BENCH_VISION["score_generated"](reader, cycles, f"{title}, {way}", dice_set)
            BENCH_VISION["score_generated"](reader, ours, f"synth.render's frames of the same scenes, {way}", dice_set)
            counts = paired(reader, cycles, ours, dice_set)
            print(f"  die by die, {way}: read correctly in both {counts[(True, True)]}, in the Cycles frame alone "
                  f"{counts[(True, False)]}, in synth.render's alone {counts[(False, True)]}, in neither "
                  f"{counts[(False, False)]}; confident-wrong {counts['cycles wrong']} in Cycles frames, "
                  f"{counts['ours wrong']} in synth.render's")
    if not scored:
        raise SystemExit(f"{args.folder}: no frames of the generator's scenes here (python -m synth.cycles makes them)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
