"""Cut the training samples out of the labelled scenes once, into a folder that training reads for many epochs.

    nice -n 10 python -m vision.training.build OUT [--dev DIR] [--synth SCENES] [--render N] [--tables N]
        [--mine MODELS] [--workers N] [--render-minutes M]

Scenes: the dev photos' training part (DIR, default ../shared/dice-photos/dev), generated scenes written by
vision.training.synth_scenes (--synth), N generated scenes rendered here and never written (--render:
seeds after those synth_scenes uses, a block of its own for each --seed), and N rolls of the six Qwixx dice on
bench/table.py's kind of table rendered here (--tables: synth.rolls.training_roll, one die leaning on
another in some, from TABLE_ROLL_SEEDS). With --render-minutes, what is not rendered by then is left out.
Each scene is cut on one of the workers, with random draws seeded by its place in the list, so the
result does not depend on the number of workers.

Writes into OUT (numpy files, memory-mapped when read):
- detector-views.npy (n, VIEW, VIEW, 3) and detector-dice.npy (rows: view, x, y, extent, findable);
- classifier-train-patches.npy (n, PATCH, PATCH, 3) and classifier-train.npy (label, extent, domain, kind);
- classifier-tune-*.npy: the same for the dev photos' tune part (never trained on: to follow training);
- with --mine MODELS: classifier-mined-*.npy, what the detector of MODELS takes for dice in the training
  scenes where there is none (hard negatives for the classifier).
"""
from __future__ import annotations

import argparse
import multiprocessing
import time
from pathlib import Path

import cv2
import numpy as np

from vision.reader import LARGER_DIE
from vision.training import samples
from vision.training.scenes import NOT_A_DIE, Scene, dev_scenes, generated_scene, synth_scene
from vision.training.synth_scenes import TRAINING_SEEDS

DOMAINS = ("dev", "synth")
# Per classifier patch: its class, the die's extent in the photo, where it came from, what it shows
# (samples.KINDS).
INFO = np.dtype([("label", np.int8), ("extent", np.float32), ("domain", np.int8), ("kind", np.int8)])
# Rendered scenes start after the seeds synth_scenes writes, so that the two never repeat a scene.
RENDER_SEEDS = TRAINING_SEEDS + 500_000
# Table rolls: bench/table.py's tables are seeds 0-39, the leaning network's rolls 5,000,000 on.
TABLE_ROLL_SEEDS = 6_000_000


def info_row(label: int, extent: float, domain: str, kind: str) -> tuple:
    return (label, extent, DOMAINS.index(domain), samples.KINDS.index(kind))


class Samples:
    """What one scene (or many) gives: detector views, classifier patches and mined false candidates."""

    def __init__(self) -> None:
        self.views: list = []
        self.view_dice: list = []  # (view, x, y, extent, findable)
        self.patches: list = []
        self.info: list = []
        self.mined: list = []
        self.mined_info: list = []

    def extend(self, other: "Samples") -> None:
        offset = len(self.views)
        self.view_dice += [(view + offset, *rest) for view, *rest in other.view_dice]
        for name in ("views", "patches", "info", "mined", "mined_info"):
            getattr(self, name).extend(getattr(other, name))


def scene_samples(scene: Scene, views_per_scene: int, rng, finder=None) -> Samples:
    out = Samples()
    levels = samples.pyramid(scene.image)
    for _ in range(views_per_scene):
        view, dice = samples.detector_view(scene, levels, rng)
        out.view_dice += [(len(out.views), *row) for row in dice]
        out.views.append(view)
    for image, label, extent, kind in samples.classifier_patches(scene, levels, rng):
        out.patches.append(image)
        out.info.append(info_row(label, extent, scene.domain, kind))
    if finder is not None:
        for x, y, extent in false_candidates(scene, finder):
            out.mined.append(samples.patch(levels, x, y, extent))
            out.mined_info.append(info_row(NOT_A_DIE, extent, scene.domain, "mined"))
    return out


def false_candidates(scene: Scene, finder) -> list[tuple[float, float, float]]:
    """What the detector finds where no die is: candidates further than half a die from every die, and
    those lying on a die but LARGER_DIE times smaller than it (a pip, which the classifier had read as a
    black die showing 1)."""
    centres = np.array([(d.x, d.y) for d in scene.dice], np.float64).reshape(-1, 2)
    extents = np.array([d.extent for d in scene.dice], np.float64)
    found = []
    for candidate in finder.find(scene.image):
        distance = np.hypot(centres[:, 0] - candidate.x, centres[:, 1] - candidate.y)
        near = distance < 0.45 * np.maximum(extents, candidate.extent)
        matches_a_die = near & (extents <= LARGER_DIE * candidate.extent)
        if not np.any(matches_a_die):
            found.append((candidate.x, candidate.y, candidate.extent))
    return found


def rendered_scene(seed: int) -> Scene:
    """A generated scene made here, as synth_scenes would write it."""
    from vision.training.synth_scenes import render_one  # synth is needed only to render

    frame, truth, _ = render_one(seed)
    return generated_scene(frame, truth.to_json(), str(seed))


def table_roll_scene(seed: int) -> Scene:
    """A roll of the six Qwixx dice on one of bench/table.py's kind of tables, made here."""
    from synth import render
    from synth.rolls import training_roll

    frame, truth = render(training_roll(seed, np.random.default_rng([seed, 13])))
    return generated_scene(frame, truth.to_json(), str(seed))


# The worker's state, set before the pool forks (the dev photos are shared rather than sent to each worker).
_job_context: dict = {}


def _cut(job) -> Samples | None:
    index, kind, what = job
    context = _job_context
    if kind in ("render", "table") and time.time() > context["render_until"]:
        return None
    rng = np.random.default_rng([*context["seed"], index])
    if kind == "dev":
        scene, views = context["dev"][what], context["views_per_photo"]
    else:
        try:
            scene = {"synth": synth_scene, "render": rendered_scene, "table": table_roll_scene}[kind](what)
        except (RuntimeError, ValueError):  # a scene with no room for its dice
            return None
        if scene is None:
            return None
        views = context["views_per_scene"]
    return scene_samples(scene, views, rng, context["finder"])


def build(args, part: str, log) -> Samples:
    """Every sample of `part` ("train": with generated scenes and mining; "tune": the dev photos alone)."""
    from vision.reader import DiceReader

    dev = dev_scenes(part, args.dev)
    jobs = [("dev", k) for k in range(len(dev))]
    if part == "train":
        for folder in args.synth:
            jobs += [("synth", path) for path in sorted(folder.glob("*.json"))[:args.synth_limit]]
        jobs += [("render", RENDER_SEEDS + 100_000 * args.seed + k) for k in range(args.render)]
        jobs += [("table", TABLE_ROLL_SEEDS + 100_000 * args.seed + k) for k in range(args.tables)]
    _job_context.update(
        dev=dev, seed=[args.seed, ("train", "tune").index(part)], views_per_photo=args.views_per_photo,
        views_per_scene=args.views_per_scene,
        render_until=time.time() + 60 * args.render_minutes if args.render_minutes else float("inf"),
        finder=DiceReader(args.mine) if args.mine and part == "train" else None,
    )
    everything = Samples()
    started = time.time()
    numbered = [(index, kind, what) for index, (kind, what) in enumerate(jobs)]
    # Each worker runs OpenCV on one thread. Set before forking: a forked worker must not touch the thread
    # pool of its parent, whose threads it does not have (setting it there would hang).
    cv2.setNumThreads(1)
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for count, result in enumerate(pool.imap(_cut, numbered, chunksize=4)):
            if result is not None:
                everything.extend(result)
            if count % 500 == 0:
                log(f"{part}: {count}/{len(jobs)} scenes, {len(everything.views)} views, "
                    f"{len(everything.patches)} patches, {len(everything.mined)} mined ({time.time() - started:.0f} s)")
    return everything


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--dev", type=Path, help="the dev photos (default: shared/dice-photos/dev beside the checkout)")
    parser.add_argument("--synth", type=Path, action="append", default=[], help="folder of generated scenes")
    parser.add_argument("--synth-limit", type=int, help="use only the first N generated scenes of each folder")
    parser.add_argument("--render", type=int, default=0, metavar="N", help="render N more generated scenes here")
    parser.add_argument("--tables", type=int, default=0, metavar="N", help="render N table rolls here")
    parser.add_argument("--render-minutes", type=float, help="leave out the scenes not rendered by then")
    parser.add_argument("--views-per-photo", type=int, default=40)
    parser.add_argument("--views-per-scene", type=int, default=8)
    parser.add_argument("--mine", type=Path, metavar="MODELS",
                        help="also keep the false candidates of the networks in this folder")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)

    def log(message: str) -> None:
        print(message, flush=True)

    train = build(args, "train", log)
    np.save(args.out / "detector-views.npy", np.stack(train.views))
    np.save(args.out / "detector-dice.npy", np.array(train.view_dice, np.float32).reshape(-1, 5))
    log(f"detector: {len(train.views)} views")
    for name, images, rows in (("train", train.patches, train.info), ("mined", train.mined, train.mined_info)):
        if images:
            np.save(args.out / f"classifier-{name}-patches.npy", np.stack(images))
            np.save(args.out / f"classifier-{name}.npy", np.array(rows, INFO))
            log(f"classifier: {len(images)} {name} patches")
    tune = build(args, "tune", log)
    np.save(args.out / "classifier-tune-patches.npy", np.stack(tune.patches))
    np.save(args.out / "classifier-tune.npy", np.array(tune.info, INFO))
    log(f"classifier: {len(tune.patches)} tune patches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
