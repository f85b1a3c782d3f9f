"""Cut the training samples out of the labelled scenes once, into a folder that training reads for many epochs.

    nice -n 10 python -m vision.training.build OUT --synth SCENES [--mine MODELS]

Writes into OUT (numpy files, memory-mapped when read):
- detector-views.npy (n, VIEW, VIEW, 3) and detector-dice.npy (rows: view, x, y, extent, findable);
- classifier-train-patches.npy (n, PATCH, PATCH, 3) and classifier-train.npy (label, extent, domain, kind),
  from the dev photos' training part and the generated scenes;
- classifier-tune-*.npy: the same for the dev photos' tune part (never trained on: to follow training);
- with --mine MODELS: classifier-mined-*.npy, what the detector of MODELS takes for dice in the training
  scenes where there is none (hard negatives for the classifier).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from vision.training import samples
from vision.training.scenes import NOT_A_DIE, dev_scenes, synth_scenes

DOMAINS = ("dev", "synth")
# Per classifier patch: its class, the die's extent in the photo, where it came from, what it shows
# (samples.KINDS).
INFO = np.dtype([("label", np.int8), ("extent", np.float32), ("domain", np.int8), ("kind", np.int8)])


def info_row(label: int, extent: float, domain: str, kind: str) -> tuple:
    return (label, extent, DOMAINS.index(domain), samples.KINDS.index(kind))


class Writer:
    """Appends arrays to a growing list, saved as one .npy file at the end."""

    def __init__(self) -> None:
        self.items: list = []

    def save(self, path: Path, dtype=None) -> int:
        array = np.array(self.items, dtype=dtype) if dtype is not None else np.stack(self.items)
        np.save(path, array)
        return len(array)


def scenes_of(args, part: str):
    """The dev photos of `part`, then (for training) the generated scenes."""
    yield from dev_scenes(part)
    if part == "train":
        for folder in args.synth:
            yield from synth_scenes(folder, args.synth_limit)


def build_training(args, rng, log) -> None:
    views, view_dice = Writer(), Writer()
    patches, info = Writer(), Writer()
    started = time.time()
    for count, scene in enumerate(scenes_of(args, "train")):
        levels = samples.pyramid(scene.image)
        for _ in range(args.views_per_photo if scene.domain == "dev" else args.views_per_scene):
            view, dice = samples.detector_view(scene, levels, rng)
            for row in dice:
                view_dice.items.append((len(views.items), *row))
            views.items.append(view)
        for image, *row in samples.classifier_patches(scene, levels, rng):
            patches.items.append(image)
            info.items.append(info_row(row[0], row[1], scene.domain, *row[2:]))
        if count % 200 == 0:
            log(f"{count} scenes, {len(views.items)} views, {len(patches.items)} patches ({time.time() - started:.0f} s)")
    n = views.save(args.out / "detector-views.npy")
    view_dice.save(args.out / "detector-dice.npy", np.float32)
    log(f"detector: {n} views")
    n = patches.save(args.out / "classifier-train-patches.npy")
    info.save(args.out / "classifier-train.npy", INFO)
    log(f"classifier: {n} training patches")


def build_tune(args, rng, log) -> None:
    patches, info = Writer(), Writer()
    for scene in scenes_of(args, "tune"):
        for image, *row in samples.classifier_patches(scene, samples.pyramid(scene.image), rng):
            patches.items.append(image)
            info.items.append(info_row(row[0], row[1], scene.domain, *row[2:]))
    n = patches.save(args.out / "classifier-tune-patches.npy")
    info.save(args.out / "classifier-tune.npy", INFO)
    log(f"classifier: {n} tune patches")


def build_mined(args, log) -> None:
    """What the detector finds where no die is: candidates further than half a die from every die."""
    from vision.reader import DiceReader

    reader = DiceReader(args.mine)
    patches, info = Writer(), Writer()
    started = time.time()
    for count, scene in enumerate(scenes_of(args, "train")):
        levels = samples.pyramid(scene.image)
        centres = np.array([(d.x, d.y) for d in scene.dice], np.float64).reshape(-1, 2)
        extents = np.array([d.extent for d in scene.dice], np.float64)
        for candidate in reader.find(scene.image):
            if len(centres):
                distance = np.hypot(centres[:, 0] - candidate.x, centres[:, 1] - candidate.y)
                if np.any(distance < 0.45 * np.maximum(extents, candidate.extent)):
                    continue
            patches.items.append(samples.patch(levels, candidate.x, candidate.y, candidate.extent))
            info.items.append(info_row(NOT_A_DIE, candidate.extent, scene.domain, "mined"))
        if count % 500 == 0:
            log(f"{count} scenes mined, {len(patches.items)} false candidates ({time.time() - started:.0f} s)")
    n = patches.save(args.out / "classifier-mined-patches.npy")
    info.save(args.out / "classifier-mined.npy", INFO)
    log(f"classifier: {n} mined patches")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--synth", type=Path, action="append", default=[], help="folder of generated scenes")
    parser.add_argument("--synth-limit", type=int, help="use only the first N generated scenes")
    parser.add_argument("--views-per-photo", type=int, default=40)
    parser.add_argument("--views-per-scene", type=int, default=8)
    parser.add_argument("--mine", type=Path, metavar="MODELS",
                        help="only add the detector's false candidates, with the networks in this folder")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)

    def log(message: str) -> None:
        print(message, flush=True)

    if args.mine:
        build_mined(args, log)
    else:
        build_training(args, rng, log)
        build_tune(args, rng, log)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
