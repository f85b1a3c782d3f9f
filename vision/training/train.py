"""Train the reader's detector and classifier from the samples vision.training.build made, and write them as
ONNX files into vision/models/.

    nice -n 10 python -m vision.training.train DATA [--only detector|classifier] [--init MODELS]
        [--detector-epochs N] [--classifier-epochs N] [--minutes M] [--device cuda] [--workers N]

Offline only (needs torch and onnx; the reader itself runs the ONNX files with cv2.dnn). DATA is the folder
vision.training.build wrote: the dev photos' training part and generated scenes, cut into detector views
and classifier patches; its tune part is only looked at to follow the classifier's progress. The networks
are deliberately plain (Conv, BatchNorm, ReLU, MaxPool, Gemm) so that OpenCV 4.6's ONNX importer reads
them as well as OpenCV 5's. Batches are made by --workers processes (the networks are small: making the
batches, not the arithmetic, limits the pace on a GPU); the weights are saved (NAME.pt in --out) after every
epoch, and --init starts from them.

The networks in vision/models were trained on one GPU with 16 processor cores, from scratch, in one run:

    python -m vision.training.build DATA --dev DEV --render 20000 --render-minutes 1.75 --mine MODELS --workers 16
    python -m vision.training.train DATA --only detector --minutes 5.5 --device cuda --workers 7
    python -m vision.training.train DATA --only classifier --classifier-widths 24,48,64,96 --minutes 5.5 \
        --device cuda --workers 4

(the two trainings side by side). DATA held the dev photos' training part (17,400 detector views) and the
2,038 scenes rendered in the time given (16,304 views), 42,291 classifier patches and 12,491 candidates the
previous networks (MODELS) found where no die is. The detector ran 39 epochs, the classifier 76 of 60,000
crops; on the tune part the classifier then named the value of 93.5% of centred dice (the previous one 90%).
The classifier was then fine-tuned from those files on two processor cores for 18 minutes on DATA2, with what
the networks find on the pips of large dice mined as not dice (build's false_candidates),

    python -m vision.training.build DATA2 --render 2500 --mine vision/models --workers 2

and again with rolls of the six dice on bench/table.py's kind of table added (the reader had left plainly
readable dice unreadable there):

    python -m vision.training.build DATA3 --render 2500 --tables 1500 --mine vision/models --workers 2
    python -m vision.training.train DATA3 --only classifier --init vision/models --out NEW \
        --classifier-widths 24,48,64,96 --classifier-epoch-samples 30000 --classifier-rate 5e-4 --minutes 35

and NEW/classifier.onnx copied into vision/models (DATA3, built in 12 minutes: 75,343 patches, 24,643 of them
dice, and 27,025 mined; 128 epochs, two trainings side by side on the two cores; 94.4% of centred tune dice
named, 93.5% before; 91.1% of all told from the rest).

The reader's second classifier (vision/models/second-classifier.onnx, which joins the first in its last look
at a die it is unsure of) has a second convolution in each of its last two stages. It was trained from scratch
on DATA2 (the same dev photos and rendered scenes as DATA3, mined by the networks of then) and fine-tuned twice,
the last time on DATA3 beside the first classifier's run:

    python -m vision.training.train DATA2 --only classifier --out DEEP --classifier-widths 24,48,64+64,96+96 \
        --classifier-epoch-samples 60000 --minutes 55
    python -m vision.training.train DATA2 --only classifier --init DEEP --out DEEP2 \
        --classifier-widths 24,48,64+64,96+96 --classifier-epoch-samples 30000 --classifier-rate 5e-4 --minutes 30
    python -m vision.training.train DATA3 --only classifier --init DEEP2 --out SECOND \
        --classifier-widths 24,48,64+64,96+96 --classifier-epoch-samples 30000 --classifier-rate 5e-4 --minutes 35

and SECOND/classifier.onnx copied to vision/models/second-classifier.onnx (71 epochs in the last run; of the
centred tune patches it names 94.6% of the dice and tells 92.2% from the rest, the first 94.4% and 91.1%). As the
reader's first classifier it read more of the tune part's dice (87.4% rather than 84.9%, 1.9% wrong rather than
1.5%) but announced fewer of bench/table.py's rolls on tables 0-39 (154 of 190 rather than 161; calibrating one
table more of 0-19 and one fewer of 20-39; scripts outside the repository), so it is the second.

It was then fine-tuned once more on fresh scenes and table rolls (DATA6: 75,128 patches, 27,093 mined; built in
14 minutes on two cores), beside a run of the same for the first classifier:

    python -m vision.training.build DATA6 --render 2500 --tables 1500 --mine vision/models --workers 2 --seed 31
    python -m vision.training.train DATA6 --only classifier --init SECOND --out SECOND6 \
        --classifier-widths 24,48,64+64,96+96 --classifier-epoch-samples 30000 --classifier-rate 5e-4 --minutes 30

(SECOND holding the second classifier as classifier.onnx; 69 epochs; 94.8% of centred tune dice named, 94.6%
before). In the reader as it was then: bench/table.py, named together, 88 and 91 rolls of 100 announced
(uncalibrated, calibrated) rather than 88 and 90; the dev validation part 492 dice of 635 read rather than 490 (12
wrong rather than 13), the tune part 401 (7 wrong) as before; the 200 generated scenes as rolls 1,022 rather than
1,023 (15 wrong rather than 14). The first classifier's run (its own widths, from vision/models) read 402 of the tune
part (6 wrong) and 1,032 generated dice (14 wrong) but announced 87 and 88 table rolls: not kept.
Fine-tuned again side by side on fresh scenes (DATA7: --render 2500 --tables 1500 --render-minutes 11 --seed 47, 76,439
patches, 15,686 of them dice; 30 minutes, 67 and 52 epochs), neither classifier read more in the reader of then
(bench/vision.py; the reader's figures in brackets): the first the dev validation part 504 dice of 635 (9 wrong)
[509 (6)], the tune part 420 (3) [414 (3)], the 200 generated scenes as rolls 1,058 (9 wrong) [1,057 (6)]; the second
506 (6), 413 (2) and 1,057 (10): not kept.
Fine-tuned side by side once more (30 minutes, 73 and 58 epochs) on fresh scenes, table rolls and 1,800 table rolls
under a lamp hung within 25 degrees of straight above the table, whose tops mirror it into the lens (DATA8: --render
1000 --tables 700 --seed 53, 88,675 patches, 22,398 of them dice; bench/tracker.py's rendered films leave such dice
unread). They read more of the films' rolls and less of the rest: the first the dev validation part 505 (9 wrong) [509
(6)], the tune part 412 (2) [414 (3)], the 200 generated scenes as rolls 1,043 (8) [1,057 (6)], the tracker's films 47
rolls of 53 right [45]; the second 507 (9), 416 (3), 1,038 (9) and 46; both 505 (8), 414 (2), 1,027 (7) and 47, and
the generator's own glare scenes (bench/vision.py --light glare, 100 as rolls) 495 dice read rather than 512: not
kept.
Fine-tuned side by side once more with the dev photos' dice given more of each batch (DATA9: --render 1000 --tables
600 --seed 59, 48,666 patches, 10,944 of them dice, 15,429 mined; --batch-shares 0.55,0.2,0.25; 25 minutes, 75 and 60
epochs), neither read more real dice without more wrong (bench/vision.py; the reader's figures in brackets): the first
the dev validation part 510 (10 wrong) [509 (6)], the tune part 419 (3) [415 (3)], the train part 1,488 (12) [1,464
(12)], the colour-labelled photos 181 (9) [179 (10)], the 200 generated scenes as rolls 1,058 (7) [1,061 (6)]; the
second 506 (7), 417 (3), 1,478 (14), 179 (10) and 1,060 (7): not kept.
Fine-tuned side by side once more (DATA61: --render 1500 --tables 800 --seed 61, built in 7 minutes; 25 minutes, 111 and
89 epochs) with a tenth of each batch drawn from the 100 dev training dice showing red pips on a dark or blue body (the
largest group of dice of 20 px or more the reader leaves unread in the validation part; picked by colour: pips of CIELAB
a* over 25 on a body of a* under 12 and L* under 60; a script outside the repository). Centred, of those dice the first
now named 61 sure (0.92) rather than 38, the second 79 rather than 61; of the tune part's 31 such dice 14 and 20 rather
than 11 and 16, of all its dice 374 and 408 rather than 363 and 394 (sure and wrong 2 and 0 rather than 0 and 2). In the
reader (bench/vision.py; the reader's figures in brackets) neither read more of the validation part: the second alone
523 (6 wrong) [526 (6)], the tune part 421 (2) [423 (3)], the 200 generated scenes as rolls 1,087 (3) [1,082 (3)]; both
525 (8), 420 (4) and 1,085 (1). Their weights averaged with those they started from: the second alone 524 (5), 421 (2),
1,087 (2); both 527 (9), 421 (2), 1,092 (4): not kept.
The second classifier widened to 32,64,96+96,128+128 (679,000 weights rather than 362,000; 7.3 ms rather than 4.6 ms per
20 crops on one core), each new channel a copy of an old one with the next layer's weights shared out between them so
that it computed the same (a script outside the repository), then fine-tuned on DATA61 for 45 minutes (154 epochs;
--classifier-epoch-samples 30000 --classifier-rate 5e-4): centred, of the tune part's dice it named 410 sure rather than
394 (1 wrong rather than 2), of the train part's 1,658 rather than 1,553. In the reader as the second classifier: the
validation part 523 (5 wrong) [526 (6)], the tune part 423 (2) [423 (3)], the duplicates 293 (3) [287 (3)], the 200
generated scenes as rolls 1,087 (2) [1,082 (3)]; as the first classifier 536 (16 wrong) and 432 (8), with
VALUE_CONFIDENCE 0.97 still 530 (15) and 428 (6); averaged with the weights it started from, as the second, 524 (7): not
kept.
Fine-tuned side by side on scenes in which three dice in ten were given a dark body with red pips (smoky translucent,
grey or blue-black marbled, glossy black: the look of most dice of 20 px or more the reader leaves unread in the
validation part; synth's looks widened by a wrapper of build, a script outside the repository): DATA67, --render 1500
--tables 600 --seed 67, 62,216 patches, 13,653 of them dice, 20,054 mined; built in 7 minutes; 25 minutes, 111 and 89
epochs. Centred, of the tune part's dice the first named 366 sure rather than 363, the second 406 rather than 394 (none
and 2 wrong, as before), of its 31 such dice 10 and 16 rather than 11 and 16. In the reader: the second alone the
validation part 520 (8 wrong) [526 (6)], the tune part 423 (2) [423 (3)], the 200 generated scenes as rolls 1,082 (4)
[1,082 (3)]; both 519 (8), 422 (3) and 1,089 (2): not kept.
Detectors with 12 and 24 channels rather than 8 and 16 (twice the time per level), trained from scratch on DATA61's
detector views for 45 minutes on one core each (a script outside the repository widened detector_net): one on all
35,800 views (67 epochs), one on the 20,273 views holding a findable die of 5-26 pixels (117 epochs), to search small
frames for tiny dice alone (reader.TINY_FRAME). In the reader of then (the tune part 430 dice of 478 read, 3 wrong; the
train part 1,512, 13 wrong; the duplicates 293, 3 wrong): the first for every search 429 (5 wrong) and 1,541 (14
wrong); for the small frames' search alone the first 430 (3 wrong), the second 433 (3 wrong), 1,516 (12 wrong) and 296
(4 wrong), reading fewer dice of 20 pixels or more (994 of the train part's 1,102 rather than 1,002): not kept.
"""
from __future__ import annotations

import argparse
import math
import time
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from vision import geometry
from vision.training import samples
from vision.training.build import DOMAINS
from vision.training.scenes import CLASS_COUNT, NOT_A_DIE

MODELS = Path(__file__).resolve().parents[1] / "models"


def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1, fused: bool = False) -> list[nn.Module]:
    """3x3 convolution, batch norm, ReLU; `fused`: batch norm already folded into the convolution, as in an
    exported ONNX file (for fine-tuning from one)."""
    convolution = nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=fused)
    return [convolution, nn.ReLU(inplace=True)] if fused else [convolution, nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


def detector_net(fused: bool = False) -> nn.Module:
    """Fully convolutional; output at 1/4 resolution: heat logit, log2 size, x and y offset."""
    return nn.Sequential(
        *conv(3, 8, 2, fused=fused), *conv(8, 16, 2, fused=fused), *conv(16, 16, fused=fused),
        *conv(16, 16, dilation=2, fused=fused), *conv(16, 16, dilation=4, fused=fused),
        nn.Conv2d(16, 4, 1),
    )


CLASSIFIER_WIDTHS = ((16,), (32,), (48,), (64,))  # per stage (32, 16, 8 and 4 pixels), its convolutions' channels


def classifier_net(fused: bool = False, widths: tuple[tuple[int, ...], ...] = CLASSIFIER_WIDTHS) -> nn.Module:
    """Logits of the CLASS_COUNT classes: not a die, 1-6, unreadable."""
    layers, channels = [], 3
    for stage, convolutions in enumerate(widths):
        if stage:
            layers.append(nn.MaxPool2d(2))
        for width in convolutions:
            layers += conv(channels, width, fused=fused)
            channels = width
    side = geometry.CROP_SIZE // 2 ** (len(widths) - 1)
    return nn.Sequential(
        *layers,
        nn.Flatten(), nn.Linear(channels * side**2, channels), nn.ReLU(inplace=True),
        nn.Dropout(0.3), nn.Linear(channels, CLASS_COUNT),
    )


def starting_net(make, folder: Path | None, name: str, log) -> nn.Module:
    """A fresh network, or one to fine-tune from `folder`: the weights training saved there (name.pt), else
    the exported file (name.onnx), which has batch norm folded in, so the network is built `fused`."""
    if folder is None:
        return make()
    if (folder / f"{name}.pt").is_file():
        net = make()
        net.load_state_dict(torch.load(folder / f"{name}.pt", map_location="cpu"))
        log(f"{name}: fine-tuning {folder / name}.pt")
        return net
    net = make(fused=True)
    load_onnx_weights(net, folder / f"{name}.onnx")
    log(f"{name}: fine-tuning {folder / name}.onnx")
    return net


def load_onnx_weights(net: nn.Module, path: Path) -> None:
    """Weights of an exported (batch norm folded) ONNX file into the matching `fused` network."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    arrays = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    layers = [m for m in net.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    nodes = [n for n in model.graph.node if n.op_type in ("Conv", "Gemm")]
    if len(layers) != len(nodes):
        raise ValueError(f"{path} has {len(nodes)} layers with weights, the network {len(layers)}")
    for layer, node in zip(layers, nodes):
        layer.weight.data = torch.from_numpy(arrays[node.input[1]].copy())
        layer.bias.data = torch.from_numpy(arrays[node.input[2]].copy())


def normalise(images: np.ndarray) -> torch.Tensor:
    """uint8 (batch, height, width, BGR) to the networks' input, as cv2.dnn.blobFromImage makes it."""
    x = torch.from_numpy(images).float()
    return ((x - geometry.PIXEL_MEAN) * geometry.PIXEL_SCALE).permute(0, 3, 1, 2).contiguous()


# ---- the training loop both networks share ---------------------------------------------------------


class Batches(torch.utils.data.IterableDataset):
    """Endless batches `make(rng)`, made by the loader's workers, each with its own random stream."""

    def __init__(self, make, seed: int) -> None:
        self.make, self.seed = make, seed

    def __iter__(self):
        worker = torch.utils.data.get_worker_info()
        cv2.setNumThreads(1)
        rng = np.random.default_rng([self.seed, 0 if worker is None else worker.id + 1])
        while True:
            yield self.make(rng)


class Budget:
    """How far training has come: by steps, or by wall-clock time when given minutes."""

    def __init__(self, steps: int, minutes: float | None) -> None:
        self.steps, self.seconds, self.started = steps, None if minutes is None else 60 * minutes, time.time()

    def progress(self, step: int) -> float:
        if self.seconds is None:
            return step / self.steps
        return (time.time() - self.started) / self.seconds


def learning_rate(top: float, progress: float, warm_up: float = 0.05) -> float:
    """A short linear warm-up, then a half cosine down to nothing."""
    if progress < warm_up:
        return top * progress / warm_up
    return top * 0.5 * (1 + math.cos(math.pi * min(1.0, (progress - warm_up) / (1 - warm_up))))


def fit(net: nn.Module, name: str, batches: Batches, losses, rate: float, weight_decay: float, budget: Budget,
        steps_per_epoch: int, args, log, after_epoch=None) -> nn.Module:
    """Trains `net` on `batches` until the budget is spent; `losses(out, *targets)` gives named losses to
    sum. Saves the weights (name.pt in args.out) after every epoch, so an interrupted run keeps them."""
    device = torch.device(args.device)
    net = net.to(device).train()
    loader = torch.utils.data.DataLoader(batches, batch_size=None, num_workers=args.workers,
                                         pin_memory=device.type == "cuda", prefetch_factor=4 if args.workers else None)
    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=weight_decay)
    step, epoch, totals = 0, 0, None
    for x, *targets in loader:
        progress = budget.progress(step)
        if progress >= 1.0:
            break
        for group in optimiser.param_groups:
            group["lr"] = learning_rate(rate, progress)
        x = x.to(device, non_blocking=True)
        named = losses(net(x), *(t.to(device, non_blocking=True) for t in targets))
        loss = sum(named.values())
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()
        values = torch.stack([v.detach() for v in named.values()])
        totals = values if totals is None else totals + values
        step += 1
        if step % steps_per_epoch == 0:
            epoch += 1
            means = (totals / steps_per_epoch).tolist()
            totals = None
            message = f"{name} epoch {epoch}: " + " ".join(f"{k} {v:.3f}" for k, v in zip(named, means))
            if after_epoch is not None:
                message += ", " + after_epoch(net)
            log(message + f" ({time.time() - budget.started:.0f} s, step {step})")
            args.out.mkdir(parents=True, exist_ok=True)
            torch.save(net.state_dict(), args.out / f"{name}.pt")
    return net.cpu().eval()


# ---- detector -------------------------------------------------------------------------------------

DETECTOR_BATCH = 64


def focal_loss(logits, heat, mask, peak) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heat-map."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = -((1 - p) ** 2) * torch.log(p) * peak
    negative = -((1 - heat) ** 4) * (p**2) * torch.log(1 - p) * (1 - peak) * mask
    return (positive.sum() + negative.sum()) / peak.sum().clamp(min=1)


def detector_losses(out, heat, mask, size, offset, peak) -> dict:
    n = peak.sum().clamp(min=1)
    return {
        "heat": focal_loss(out[:, 0], heat, mask, peak),
        "size": (F.smooth_l1_loss(out[:, 1], size, reduction="none") * peak).sum() / n,
        "offset": (F.l1_loss(out[:, 2:4], offset, reduction="none") * peak[:, None]).sum() / n,
    }


def train_detector(args, log) -> nn.Module:
    data = args.data
    views = np.load(data / "detector-views.npy", mmap_mode="r")
    rows = np.load(data / "detector-dice.npy")
    order = np.argsort(rows[:, 0], kind="stable")
    rows = rows[order]
    starts = np.searchsorted(rows[:, 0], np.arange(len(views) + 1))
    dice_of = [rows[starts[k]:starts[k + 1], 1:] for k in range(len(views))]
    log(f"detector: {len(views)} views")

    def make(rng):
        images, targets = [], []
        for k in rng.integers(len(views), size=DETECTOR_BATCH):
            crop, dice = samples.detector_crop(np.asarray(views[k]), dice_of[k], rng)
            images.append(samples.photometric(crop, rng))
            targets.append(samples.detector_targets(dice))
        return (normalise(np.stack(images)), *(torch.from_numpy(np.stack(t)) for t in zip(*targets)))

    net = starting_net(detector_net, args.init, "detector", log)
    steps_per_epoch = max(1, len(views) // DETECTOR_BATCH)
    budget = Budget(args.detector_epochs * steps_per_epoch, args.minutes)
    return fit(net, "detector", Batches(make, args.seed), detector_losses, args.detector_rate, 1e-4, budget,
               steps_per_epoch, args, log)


# ---- classifier -----------------------------------------------------------------------------------

# Each batch draws dice of the dev photos, generated dice and things that are not dice in these shares
# (the dev photos are few but real), and mined false candidates as this share of the not-dice.
BATCH_SHARES = {"dev": 0.35, "synth": 0.25, "not a die": 0.4}
MINED_SHARE = 0.5
CLASSIFIER_BATCH = 128


def load_patches(data: Path, name: str):
    path = data / f"classifier-{name}-patches.npy"
    if not path.exists():
        return None, None
    return np.load(path, mmap_mode="r"), np.load(data / f"classifier-{name}.npy")


def sampling_weights(info: np.ndarray, shares: dict) -> np.ndarray:
    """Per patch, the chance of being drawn, so that batches hold `shares` (keys as BATCH_SHARES)."""
    weights = np.zeros(len(info))
    is_die = info["label"] != NOT_A_DIE
    mined = info["kind"] == samples.KINDS.index("mined")
    groups = {
        "dev": is_die & (info["domain"] == DOMAINS.index("dev")),
        "synth": is_die & (info["domain"] == DOMAINS.index("synth")),
    }
    share_mined = MINED_SHARE if mined.any() else 0.0
    groups_not = {"mined": (~is_die) & mined, "other": (~is_die) & ~mined}
    for name, members in groups.items():
        weights[members] = shares[name] / max(1, members.sum())
    weights[groups_not["mined"]] = shares["not a die"] * share_mined / max(1, groups_not["mined"].sum())
    weights[groups_not["other"]] = shares["not a die"] * (1 - share_mined) / max(1, groups_not["other"].sum())
    return weights / weights.sum()


def classifier_batch(patches, info, chosen, rng, augment: bool = True):
    """Crops and their classes."""
    crops = []
    for k in chosen:
        crop = samples.classifier_crop(np.asarray(patches[k]), float(info["extent"][k]), rng, jitter=augment)
        crops.append(samples.photometric(crop, rng) if augment else crop)
    return normalise(np.stack(crops)), torch.from_numpy(info["label"][chosen].astype(np.int64))


def evaluate_classifier(net, patches, info) -> str:
    """Accuracy on centred, unturned crops: value among dice, die or not."""
    rng = np.random.default_rng(0)
    device = next(net.parameters()).device
    net.eval()
    predicted = []
    with torch.no_grad():
        for start in range(0, len(info), 512):
            x, _ = classifier_batch(patches, info, np.arange(start, min(start + 512, len(info))), rng, augment=False)
            predicted.append(net(x.to(device)).softmax(1).cpu().numpy())
    probs = np.concatenate(predicted)
    labels = info["label"].astype(int)
    dice = (labels >= 1) & (labels <= 6)
    value_right = (np.argmax(probs[dice, 1:7], axis=1) + 1 == labels[dice]).mean()
    die_right = ((probs[:, NOT_A_DIE] < 0.5) == (labels != NOT_A_DIE)).mean()
    net.train()
    return f"tune: value {value_right:.3f} ({dice.sum()} dice), die or not {die_right:.3f} ({len(labels)})"


def train_classifier(args, log) -> nn.Module:
    data = args.data
    patches, info = load_patches(data, "train")
    mined, mined_info = load_patches(data, "mined")
    if mined is not None:
        patches = np.concatenate([patches, mined])
        info = np.concatenate([info, mined_info])
    tune, tune_info = load_patches(data, "tune")
    weights = sampling_weights(info, dict(zip(BATCH_SHARES, args.batch_shares)))
    log(f"classifier: {len(info)} patches ({int((info['label'] != NOT_A_DIE).sum())} dice, "
        f"{0 if mined is None else len(mined)} mined)")

    def make(rng):
        return classifier_batch(patches, info, rng.choice(len(info), size=CLASSIFIER_BATCH, p=weights), rng)

    def losses(out, labels):
        return {"loss": F.cross_entropy(out, labels, label_smoothing=0.05)}

    net = starting_net(partial(classifier_net, widths=args.classifier_widths), args.init, "classifier", log)
    steps_per_epoch = max(1, args.classifier_epoch_samples // CLASSIFIER_BATCH)
    budget = Budget(args.classifier_epochs * steps_per_epoch, args.minutes)
    report = None if tune is None else (lambda net: evaluate_classifier(net, tune, tune_info))
    return fit(net, "classifier", Batches(make, args.seed + 1), losses, args.classifier_rate, 5e-4, budget,
               steps_per_epoch, args, log, report)


def export(net: nn.Module, example: torch.Tensor, path: Path, dynamic: bool) -> None:
    """The ONNX file the reader runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    axes = {"input": {0: "batch", 2: "height", 3: "width"}} if dynamic else {"input": {0: "batch"}}
    torch.onnx.export(net, example, str(path), opset_version=11, dynamo=False, input_names=["input"],
                      output_names=["output"], dynamic_axes=axes, do_constant_folding=True)


def classifier_widths(text: str) -> tuple[tuple[int, ...], ...]:
    """--classifier-widths: stages separated by commas, the convolutions of one stage by +."""
    try:
        return tuple(tuple(int(width) for width in stage.split("+")) for stage in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not channel counts such as 24,48,64+64,96: {text!r}") from None


def batch_shares(text: str) -> tuple[float, ...]:
    """--batch-shares: one share for each of BATCH_SHARES' groups, in its order."""
    shares = tuple(float(v) for v in text.split(","))
    if len(shares) != len(BATCH_SHARES) or min(shares) < 0 or sum(shares) <= 0:
        raise argparse.ArgumentTypeError(f"give {len(BATCH_SHARES)} shares, none negative, such as 0.35,0.25,0.4")
    return shares


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="the folder vision.training.build wrote")
    parser.add_argument("--only", choices=["detector", "classifier"])
    parser.add_argument("--detector-epochs", type=int, default=12)
    parser.add_argument("--classifier-epochs", type=int, default=30)
    parser.add_argument("--classifier-epoch-samples", type=int, default=60000)
    parser.add_argument("--classifier-widths", type=classifier_widths, default=CLASSIFIER_WIDTHS,
                        help="channels of the classifier's convolutions, stage by stage (each stage halves the "
                             "crop), those of one stage joined by +: 24,48,64,96 or 24,48,64+64,96+96")
    parser.add_argument("--minutes", type=float, help="train each network this long instead of counting epochs")
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--init", type=Path, metavar="MODELS",
                        help="fine-tune the networks exported into this folder instead of starting afresh")
    parser.add_argument("--detector-rate", type=float, default=3e-3)
    parser.add_argument("--classifier-rate", type=float, default=3e-3)
    parser.add_argument("--batch-shares", type=batch_shares, default=tuple(BATCH_SHARES.values()),
                        metavar="DEV,GENERATED,NOT_A_DIE",
                        help="shares of the classifier's batches: dice of the dev photos, generated dice, not dice")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--workers", type=int, default=0, help="processes making batches")
    parser.add_argument("--device", default="cpu", help="torch device: cpu, cuda")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.backends.cudnn.benchmark = True
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)

    def log(message: str) -> None:
        print(message, flush=True)

    if args.only != "classifier":
        detector = train_detector(args, log)
        export(detector, torch.zeros(1, 3, 96, 96), args.out / "detector.onnx", dynamic=True)
    if args.only != "detector":
        classifier = train_classifier(args, log)
        size = geometry.CROP_SIZE
        export(classifier, torch.zeros(1, 3, size, size), args.out / "classifier.onnx", dynamic=False)
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
