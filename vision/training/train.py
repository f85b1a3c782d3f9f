"""Train the reader's detector and classifier from the samples vision.training.build made, and write them as
ONNX files into vision/models/.

    nice -n 10 python -m vision.training.train DATA [--only detector|classifier] [--init MODELS]
        [--detector-epochs N] [--classifier-epochs N] [--threads N]

Offline only (needs torch and onnx; the reader itself runs the ONNX files with cv2.dnn). DATA is the folder
vision.training.build wrote: the dev photos' training part and generated scenes, cut into detector views
and classifier patches; its tune part is only looked at to follow the classifier's progress. The networks
are deliberately plain (Conv, BatchNorm, ReLU, MaxPool, Gemm) so that OpenCV 4.6's ONNX importer reads
them as well as OpenCV 5's.

The networks in vision/models were made in steps, each fine-tuning the last (--init): DATA from the dev
photos' training part and 1017 generated scenes (synth_scenes --count 1017), with mined false candidates;
the detector trained 8 epochs on the dev photos alone, then 3 (--detector-rate 1e-3), 7 (1.5e-3) and 6
(1e-3) on DATA; the classifier is the first reader's (trained by this script's first version), fine-tuned twice for
8 epochs of 20000 crops at 1e-3 on DATA.
"""
from __future__ import annotations

import argparse
import time
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


def classifier_net(fused: bool = False) -> nn.Module:
    """Logits of the CLASS_COUNT classes: not a die, 1-6, unreadable."""
    return nn.Sequential(
        *conv(3, 16, fused=fused), nn.MaxPool2d(2),
        *conv(16, 32, fused=fused), nn.MaxPool2d(2),
        *conv(32, 48, fused=fused), nn.MaxPool2d(2),
        *conv(48, 64, fused=fused),
        nn.Flatten(), nn.Linear(64 * (geometry.CROP_SIZE // 8) ** 2, 64), nn.ReLU(inplace=True),
        nn.Dropout(0.3), nn.Linear(64, CLASS_COUNT),
    )


def starting_net(make, folder: Path | None, name: str, log) -> nn.Module:
    """A fresh network, or the one exported into `folder` (name.onnx) to fine-tune; the exported file has
    batch norm folded in, so the network is built `fused`."""
    if folder is None:
        return make()
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


# ---- detector -------------------------------------------------------------------------------------

def focal_loss(logits, heat, mask, peak) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heat-map."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = -((1 - p) ** 2) * torch.log(p) * peak
    negative = -((1 - heat) ** 4) * (p**2) * torch.log(1 - p) * (1 - peak) * mask
    return (positive.sum() + negative.sum()) / peak.sum().clamp(min=1)


def detector_batch(views, dice_of, chosen, rng):
    images, targets = [], []
    for k in chosen:
        crop, dice = samples.detector_crop(np.asarray(views[k]), dice_of[k], rng)
        images.append(samples.photometric(crop, rng))
        targets.append(samples.detector_targets(dice))
    heat, mask, size, offset, peak = (torch.from_numpy(np.stack(t)) for t in zip(*targets))
    return normalise(np.stack(images)), heat, mask, size, offset, peak


def train_detector(data: Path, epochs: int, batch: int, rate: float, rng, log, init: Path | None = None) -> nn.Module:
    views = np.load(data / "detector-views.npy", mmap_mode="r")
    rows = np.load(data / "detector-dice.npy")
    order = np.argsort(rows[:, 0], kind="stable")
    rows = rows[order]
    starts = np.searchsorted(rows[:, 0], np.arange(len(views) + 1))
    dice_of = [rows[starts[k]:starts[k + 1], 1:] for k in range(len(views))]
    log(f"detector: {len(views)} views")
    net = starting_net(detector_net, init, "detector", log)
    steps_per_epoch = len(views) // batch
    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=rate, total_steps=epochs * steps_per_epoch,
                                                   pct_start=0.05)
    started = time.time()
    net.train()
    for epoch in range(epochs):
        totals = np.zeros(3)
        permutation = rng.permutation(len(views))
        for step in range(steps_per_epoch):
            x, heat, mask, size, offset, peak = detector_batch(
                views, dice_of, permutation[step * batch:(step + 1) * batch], rng)
            out = net(x)
            loss_heat = focal_loss(out[:, 0], heat, mask, peak)
            n = peak.sum().clamp(min=1)
            loss_size = (F.smooth_l1_loss(out[:, 1], size, reduction="none") * peak).sum() / n
            loss_offset = (F.l1_loss(out[:, 2:4], offset, reduction="none") * peak[:, None]).sum() / n
            loss = loss_heat + loss_size + loss_offset
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            totals += (loss_heat.item(), loss_size.item(), loss_offset.item())
        totals /= max(1, steps_per_epoch)
        log(f"detector epoch {epoch + 1}/{epochs}: heat {totals[0]:.3f} size {totals[1]:.3f} "
            f"offset {totals[2]:.3f} ({time.time() - started:.0f} s)")
    return net.eval()


# ---- classifier -----------------------------------------------------------------------------------

# Each batch draws dice of the dev photos, generated dice and things that are not dice in these shares
# (the dev photos are few but real), and mined false candidates as this share of the not-dice.
BATCH_SHARES = {"dev": 0.35, "synth": 0.25, "not a die": 0.4}
MINED_SHARE = 0.5


def load_patches(data: Path, name: str):
    path = data / f"classifier-{name}-patches.npy"
    if not path.exists():
        return None, None
    return np.load(path, mmap_mode="r"), np.load(data / f"classifier-{name}.npy")


def sampling_weights(info: np.ndarray) -> np.ndarray:
    """Per patch, the chance of being drawn, so that batches hold BATCH_SHARES."""
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
        weights[members] = BATCH_SHARES[name] / max(1, members.sum())
    weights[groups_not["mined"]] = BATCH_SHARES["not a die"] * share_mined / max(1, groups_not["mined"].sum())
    weights[groups_not["other"]] = BATCH_SHARES["not a die"] * (1 - share_mined) / max(1, groups_not["other"].sum())
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
    net.eval()
    predicted = []
    with torch.no_grad():
        for start in range(0, len(info), 512):
            x, _ = classifier_batch(patches, info, np.arange(start, min(start + 512, len(info))), rng, augment=False)
            predicted.append(net(x).softmax(1).numpy())
    probs = np.concatenate(predicted)
    labels = info["label"].astype(int)
    dice = (labels >= 1) & (labels <= 6)
    value_right = (np.argmax(probs[dice, 1:7], axis=1) + 1 == labels[dice]).mean()
    die_right = ((probs[:, NOT_A_DIE] < 0.5) == (labels != NOT_A_DIE)).mean()
    net.train()
    return f"tune: value {value_right:.3f} ({dice.sum()} dice), die or not {die_right:.3f} ({len(labels)})"


def train_classifier(data: Path, epochs: int, epoch_samples: int, batch: int, rate: float, rng, log,
                     init: Path | None = None) -> nn.Module:
    patches, info = load_patches(data, "train")
    mined, mined_info = load_patches(data, "mined")
    if mined is not None:
        patches = np.concatenate([patches, mined])
        info = np.concatenate([info, mined_info])
    tune, tune_info = load_patches(data, "tune")
    weights = sampling_weights(info)
    log(f"classifier: {len(info)} patches ({int((info['label'] != NOT_A_DIE).sum())} dice, "
        f"{0 if mined is None else len(mined)} mined)")
    net = starting_net(classifier_net, init, "classifier", log)
    steps_per_epoch = epoch_samples // batch
    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=rate, total_steps=epochs * steps_per_epoch,
                                                   pct_start=0.05)
    started = time.time()
    net.train()
    for epoch in range(epochs):
        total = 0.0
        drawn = rng.choice(len(info), size=steps_per_epoch * batch, p=weights)
        for step in range(steps_per_epoch):
            x, labels = classifier_batch(patches, info, drawn[step * batch:(step + 1) * batch], rng)
            loss = F.cross_entropy(net(x), labels, label_smoothing=0.05)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        message = f"classifier epoch {epoch + 1}/{epochs}: loss {total / steps_per_epoch:.3f}"
        if tune is not None:
            message += ", " + evaluate_classifier(net, tune, tune_info)
        log(message + f" ({time.time() - started:.0f} s)")
    return net.eval()


def export(net: nn.Module, example: torch.Tensor, path: Path, dynamic: bool) -> None:
    """The ONNX file the reader runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    axes = {"input": {0: "batch", 2: "height", 3: "width"}} if dynamic else {"input": {0: "batch"}}
    torch.onnx.export(net, example, str(path), opset_version=11, dynamo=False, input_names=["input"],
                      output_names=["output"], dynamic_axes=axes, do_constant_folding=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="the folder vision.training.build wrote")
    parser.add_argument("--only", choices=["detector", "classifier"])
    parser.add_argument("--detector-epochs", type=int, default=12)
    parser.add_argument("--classifier-epochs", type=int, default=30)
    parser.add_argument("--classifier-epoch-samples", type=int, default=60000)
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--init", type=Path, metavar="MODELS",
                        help="fine-tune the networks exported into this folder instead of starting afresh")
    parser.add_argument("--detector-rate", type=float, default=3e-3)
    parser.add_argument("--classifier-rate", type=float, default=3e-3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    def log(message: str) -> None:
        print(message, flush=True)

    if args.only != "classifier":
        detector = train_detector(args.data, args.detector_epochs, 64, args.detector_rate, rng, log, args.init)
        export(detector, torch.zeros(1, 3, 96, 96), args.out / "detector.onnx", dynamic=True)
    if args.only != "detector":
        classifier = train_classifier(args.data, args.classifier_epochs, args.classifier_epoch_samples, 128,
                                      args.classifier_rate, rng, log, args.init)
        size = geometry.CROP_SIZE
        export(classifier, torch.zeros(1, 3, size, size), args.out / "classifier.onnx", dynamic=False)
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
