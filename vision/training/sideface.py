"""The side-face network (vision/models/side-face.onnx): is the face the reader read the die's top, or one of its sides?

    nice -n 10 python -m vision.training.sideface cut OUT.npz [--dev DIR] [--first-seed S] [--count N]
    nice -n 10 python -m vision.training.sideface train DATA.npz... [--steps N] [--out vision/models]

Seen from the side, a die shows its top and the faces turned to the camera; past about 45 degrees a side face looks
squarer than the foreshortened top, and the classifier, which sees 1.4 extents round the face it is given, reads
it as the top. The dev photos' steep shots (Roboflow's board-game photos) are read so, and generated scenes from
a camera leaning 30 degrees or more. This network sees geometry.SIDE_FACE_MARGIN times the read face's edge, upright
as the camera took it: a side face has the die's top beyond it, on the side away from the camera's foot, where a
top face has only its sides between it and the camera's foot.

`cut` renders generated scenes (synth.random_scene; seeds from SEEDS, far from those the benchmarks and the other
networks' training use), STEEP_SHARE of them (--steep-share) from a camera leaning STEEP_TILT degrees with the dice
DIE_PX pixels across, the others drawn as the benchmarks draw them (up to 30 degrees, mostly less), reads them with
the reader (without this network) and cuts a crop round each die it gave a value: label 0 where the reading lies on
the truth's top face (within TOP_OFF edges of its centre), 1 where it lies SIDE_OFF or further off a die's top with
another value (the face beside it, read as the top). Readings in between, and of cocked dice, are not cut. With
--dev it reads the dev photos' training part instead: label 0 for a die read right in its box, 1 for a reading with
another value just beside the box of a die missed (vision.scoring.readings_beside: the box holds the top face
alone). `train` fits a small network of plain layers (vision.training.small, so that OpenCV 4.6 reads it) to those
crops, half of each batch side faces, mirrored left to right at random (never turned: which way is up is the point),
and exports it; every small.VALIDATE_EVERY steps it prints, on the scenes whose seed ends in 0 and the dev photos
whose place in the list does (never trained on), the share of top faces and of side faces at or above the reader's
SIDE_FACE and a few other thresholds.

The committed network, on two processor cores (the first two cuts side by side, 19 minutes; the others 11 and 2;
training 9 minutes; 12,784 crops, 834 of them side faces, 44 of those of the dev photos):

    python -m vision.training.sideface cut DATA/a.npz --count 1200
    python -m vision.training.sideface cut DATA/b.npz --first-seed 8001200 --count 1200
    python -m vision.training.sideface cut DATA/c.npz --first-seed 8002400 --count 800 --steep-share 0
    python -m vision.training.sideface cut DATA/dev.npz --dev ../shared/dice-photos/dev
    python -m vision.training.sideface train DATA/a.npz DATA/b.npz DATA/c.npz DATA/dev.npz --steps 4000

Held out, at SIDE_FACE it calls none of 1,062 tops of the scenes a side and catches 86.9% of their 84 side faces; of
the dev photos none of 165 tops and 11 of 16 side faces. Trained without c (the scenes drawn as the benchmarks draw
them), it took the value of 3 of the 1,059 dice read right on bench/vision.py's 200 generated scenes (as rolls); with
c, of none (scripts outside the repository).
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

import cv2
import numpy as np

from vision import geometry
from vision.training import small

SEEDS = 8_000_000
STEEP_SHARE = 0.75
STEEP_TILT = (20.0, 65.0)
DIE_PX = (15.0, 40.0)
TOP_OFF = 0.2  # die edges
SIDE_OFF = 0.3
FARTHEST_OFF = 1.5  # further from every top, a reading is of no die


def cut(first_seed: int, count: int, steep_share: float = STEEP_SHARE,
        log=print) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(crops, labels, seeds): uint8 (n, SIDE_FACE_SIZE, SIDE_FACE_SIZE, 3) BGR crops round the reader's dice,
    1 where it read a side face, and the seed of each crop's scene; `steep_share` of the scenes seen steeply."""
    from synth import random_scene, render
    from vision.reader import DiceReader

    reader = DiceReader(doubt_side_faces=False)
    crops, labels, seeds = [], [], []
    for seed in range(first_seed, first_seed + count):
        rng = np.random.default_rng([seed, 17])
        steep = rng.random() < steep_share
        drawn = {"tilt_deg": rng.uniform(*STEEP_TILT), "die_px": rng.uniform(*DIE_PX)} if steep else {}
        try:
            frame, truth = render(random_scene(seed, size=(1280, 720), **drawn))
        except (RuntimeError, ValueError):
            continue  # no room for the dice
        dice = [die for die in truth.in_frame() if die.top_visible_fraction > 0]
        for reading in reader.read(frame):
            label = side_face_label(reading, dice)
            if label is not None:
                crops.append(geometry.side_face_crop(frame, reading.center, reading.edge))
                labels.append(label)
                seeds.append(seed)
        if (seed - first_seed) % 100 == 99:
            log(f"scene {seed - first_seed + 1} of {count}: {len(labels)} crops, {sum(labels)} of side faces")
    return _arrays(crops, labels, seeds)


def cut_dev(root: Path, log=print) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(crops, labels, seeds) as `cut` gives them, of the dev photos' training part; a photo's seed is its place in
    the list of dev photos."""
    from vision.reader import DiceReader
    from vision.scoring import TruthDie, matched, outcomes, readings_beside
    from vision.training import devset

    reader = DiceReader(doubt_side_faces=False)
    crops, labels, seeds = [], [], []
    for seed, photo in enumerate(devset.dev_photos(root)):
        if photo.part != "train":
            continue
        frame = cv2.imread(str(photo.path))
        if frame is None:
            continue
        readings = reader.read(frame)
        truth = [TruthDie(die.value, die.bbox, die.colour) for die in photo.dice]
        tops = [reading for reading, outcome in zip(matched(truth, readings), outcomes(truth, readings))
                if outcome == "correct" and reading.value is not None]
        sides = [reading for die, reading in readings_beside(truth, readings)
                 if reading.value is not None and reading.value != die.value]
        for label, chosen in ((0, tops), (1, sides)):
            crops += [geometry.side_face_crop(frame, reading.center, reading.edge) for reading in chosen]
            labels += [label] * len(chosen)
            seeds += [seed] * len(chosen)
    log(f"{len(labels)} crops of the dev photos' training part, {sum(labels)} of side faces")
    return _arrays(crops, labels, seeds)


def _arrays(crops: list, labels: list, seeds: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    size = geometry.SIDE_FACE_SIZE
    return (np.array(crops, np.uint8).reshape(-1, size, size, 3), np.array(labels, np.int64),
            np.array(seeds, np.int64))


def side_face_label(reading, dice) -> int | None:
    """0 for a reading of a die's top face, 1 for one of its side faces, None when neither is plain (no value, a
    cocked die, no die near, or in between)."""
    if reading.value is None or not dice:
        return None
    die = min(dice, key=lambda d: math.dist(d.center, reading.center))
    off = math.dist(die.center, reading.center) / die.size_px
    if die.problem == "cocked" or off > FARTHEST_OFF:
        return None
    if off <= TOP_OFF:
        return 0
    if off >= SIDE_OFF and reading.value != die.value:
        return 1
    return None


def train(crops: np.ndarray, labels: np.ndarray, seeds: np.ndarray, steps: int, log=print,
          rate: float = small.RATE):
    """The trained network (torch, in eval mode)."""
    import torch

    from vision.reader import SIDE_FACE
    from vision.training.train import normalise

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    held = seeds % 10 == 0
    x, y = crops[~held], labels[~held]
    sides, tops = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    net = small.plain_net(geometry.SIDE_FACE_SIZE, 2, dropout=0.3)

    def batch_loss(net):
        # Side faces are few: half of each batch.
        chosen = np.concatenate([rng.choice(sides, small.BATCH // 2), rng.choice(tops, small.BATCH // 2)])
        return torch.nn.functional.cross_entropy(net(normalise(_augmented(x[chosen], rng))),
                                                 torch.from_numpy(y[chosen]))

    def report(net):
        side = np.concatenate([_side_face(net, crops[held][i:i + 512]) for i in range(0, held.sum(), 512)])
        parts = []
        for name, part in (("scenes", seeds[held] >= SEEDS), ("dev", seeds[held] < SEEDS)):
            top, wrong = side[part & (labels[held] == 0)], side[part & (labels[held] == 1)]
            parts += [f"{name} at {t}: {np.mean(top >= t):.1%} of {len(top)} tops, "
                      f"{np.mean(wrong >= t):.1%} of {len(wrong)} side faces"
                      for t in sorted({0.5, 0.8, 0.9, SIDE_FACE}) if len(top) and len(wrong)]
        return "held out: " + "; ".join(parts)

    return small.fit(net, steps, batch_loss, report, log, rate)


def _augmented(batch: np.ndarray, rng) -> np.ndarray:
    """Mirrored left to right, the light's colour and level and the sensor's noise: none of them turns the view."""
    if rng.random() < 0.5:
        batch = batch[:, :, ::-1]
    return small.relit(batch, rng)


def _side_face(net, crops: np.ndarray) -> np.ndarray:
    """P(side face) averaged over the crop and its mirror image, as the reader asks it."""
    return small.mean_probability(net, [crops, crops[:, :, ::-1]])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    cutting = commands.add_parser("cut", help="render scenes, read them and cut the crops into OUT.npz")
    cutting.add_argument("out", type=Path)
    cutting.add_argument("--dev", type=Path, help="cut the dev photos' training part in this folder instead")
    cutting.add_argument("--first-seed", type=int, default=SEEDS)
    cutting.add_argument("--count", type=int, default=1200)
    cutting.add_argument("--steep-share", type=float, default=STEEP_SHARE,
                         help=f"share of the scenes seen from a camera leaning STEEP_TILT (default {STEEP_SHARE})")
    training = commands.add_parser("train", help="train on the crops of DATA.npz files and export side-face.onnx")
    training.add_argument("data", type=Path, nargs="+")
    training.add_argument("--steps", type=int, default=6000)
    training.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "models")
    training.add_argument("--rate", type=float, default=small.RATE,
                          help=f"largest learning rate (default {small.RATE})")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.command == "cut":
        arrays = cut_dev(args.dev) if args.dev else cut(args.first_seed, args.count, args.steep_share)
        small.save(args.out, **dict(zip(("crops", "labels", "seeds"), arrays)))
        return 0
    import torch

    torch.set_num_threads(2)
    net = train(*small.load(args.data, ("crops", "labels", "seeds")), args.steps, rate=args.rate)
    small.export_net(net, geometry.SIDE_FACE_SIZE, args.out / "side-face.onnx")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
