"""Train the reader's detector and classifier, and write them as ONNX files into vision/models/.

    nice -n 10 python -m vision.training.train [--synth DIR] [--detector-epochs N] [--classifier-epochs N]

Offline only (needs torch and onnx; the reader itself runs the ONNX files with cv2.dnn). Data: the
training part of the dev photos (never the validation part, never labels.json), plus generated
scenes when --synth names a folder written by `python -m vision.training.synth_scenes`.
The networks are deliberately plain (Conv, BatchNorm, ReLU, MaxPool, Gemm) so that OpenCV 4.6's ONNX
importer reads them as well as OpenCV 5's.
"""
from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from vision import geometry
from vision.training import devset
from vision.training.samples import CLASS_COUNT, Scene, classifier_sample, detector_sample

MODELS = Path(__file__).resolve().parents[1] / "models"
DETECTOR_VIEW = 96


def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1, fused: bool = False) -> list[nn.Module]:
    """3x3 convolution, batch norm, ReLU; `fused`: batch norm already folded into the convolution,
    as in an exported ONNX file (for fine-tuning from one)."""
    convolution = nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=fused)
    return [convolution, nn.ReLU(inplace=True)] if fused else [convolution, nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


def detector_net(fused: bool = False) -> nn.Module:
    """Fully convolutional; output at 1/4 resolution: heat logit, log2 size, x and y offset."""
    return nn.Sequential(
        *conv(3, 8, 2, fused=fused), *conv(8, 16, 2, fused=fused), *conv(16, 16, fused=fused),
        *conv(16, 16, dilation=2, fused=fused), *conv(16, 16, dilation=4, fused=fused),
        nn.Conv2d(16, 4, 1),
    )


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


def classifier_net() -> nn.Module:
    return nn.Sequential(
        *conv(3, 16), nn.MaxPool2d(2),
        *conv(16, 32), nn.MaxPool2d(2),
        *conv(32, 48), nn.MaxPool2d(2),
        *conv(48, 64),
        nn.Flatten(), nn.Linear(64 * (geometry.CROP_SIZE // 8) ** 2, 64), nn.ReLU(inplace=True),
        nn.Dropout(0.3), nn.Linear(64, CLASS_COUNT),
    )


def normalise(images: torch.Tensor) -> torch.Tensor:
    """uint8 (batch, height, width, BGR) to the networks' input, as cv2.dnn.blobFromImage makes it."""
    return ((images.float() - geometry.PIXEL_MEAN) * geometry.PIXEL_SCALE).permute(0, 3, 1, 2).contiguous()


def dev_scenes(part: str) -> list[Scene]:
    scenes = []
    for photo in devset.dev_photos():
        if photo.part != part:
            continue
        dice = [die for die in photo.dice if die.bbox is not None]
        if len(dice) != len(photo.dice):
            continue  # a die without a box would teach the detector that it is background
        image = cv2.imread(str(photo.path))
        boxes = np.array([die.bbox for die in dice], np.float32).reshape(-1, 4)
        centers = (boxes[:, :2] + boxes[:, 2:]) / 2
        extents = np.max(boxes[:, 2:] - boxes[:, :2], axis=1)
        values = [die.value or 0 for die in dice]
        scenes.append(Scene.from_image(image, centers, extents, values))
    return scenes


def synth_scenes(folder: Path) -> list[Scene]:
    """Scenes written by vision.training.synth_scenes: NNNNNNN.png with NNNNNNN.json beside it."""
    scenes = []
    for truth_path in sorted(folder.glob("*.json")):
        truth = json.loads(truth_path.read_text())
        image = cv2.imread(str(truth_path.with_suffix(".png")))
        if image is None:
            continue  # a scene still being written
        dice = truth["dice"]
        scenes.append(Scene.from_image(
            image,
            [die["center"] for die in dice],
            [die["extent"] for die in dice],
            [die["value"] or 0 for die in dice],
        ))
    return scenes


def focal_loss(logits: torch.Tensor, heat: torch.Tensor, mask: torch.Tensor, peak: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heat-map."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = -((1 - p) ** 2) * torch.log(p) * peak
    negative = -((1 - heat) ** 4) * (p**2) * torch.log(1 - p) * (1 - peak) * mask
    return (positive.sum() + negative.sum()) / peak.sum().clamp(min=1)


def detector_dataset(scenes: list[Scene], count: int, rng) -> list[torch.Tensor]:
    """Views and targets made once up front: making them costs more than a training step."""
    samples = [detector_sample(scenes[rng.integers(len(scenes))], DETECTOR_VIEW, rng) for _ in range(count)]
    views, heat, mask, size, offset, peak = zip(*samples)
    return [torch.from_numpy(np.stack(views))] + [torch.from_numpy(np.stack(a)) for a in (heat, mask, size, offset, peak)]


def train_detector(scenes: list[Scene], samples: int, epochs: int, rng, log, init: Path | None) -> nn.Module:
    started = time.time()
    views, heat, mask, size, offset, peak = detector_dataset(scenes, samples, rng)
    log(f"detector: {len(views)} views made ({time.time() - started:.0f} s)")
    net = detector_net()
    if init and (init / "detector.pt").exists():
        net.load_state_dict(torch.load(init / "detector.pt"))
    elif init:
        net = detector_net(fused=True)
        load_onnx_weights(net, init / "detector.onnx")
    batch = 32
    steps = epochs * (len(views) // batch)
    rate = 3e-3 if init is None else 1e-3
    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=rate, total_steps=steps, pct_start=0.1)
    net.train()
    step = 0
    for epoch in range(epochs):
        totals = np.zeros(3)
        for chosen in torch.randperm(len(views)).split(batch):
            if len(chosen) < batch:
                continue
            out = net(normalise(views[chosen]))
            loss_heat = focal_loss(out[:, 0], heat[chosen], mask[chosen], peak[chosen])
            p = peak[chosen]
            n = p.sum().clamp(min=1)
            loss_size = (F.smooth_l1_loss(out[:, 1], size[chosen], reduction="none") * p).sum() / n
            loss_offset = (F.l1_loss(out[:, 2:4], offset[chosen], reduction="none") * p[:, None]).sum() / n
            loss = loss_heat + loss_size + loss_offset
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            step += 1
            totals += (loss_heat.item(), loss_size.item(), loss_offset.item())
        totals /= max(1, len(views) // batch)
        log(f"detector epoch {epoch + 1}/{epochs}: heat {totals[0]:.3f} size {totals[1]:.3f} "
            f"offset {totals[2]:.3f} ({time.time() - started:.0f} s)")
    return net.eval()


def classifier_dataset(scenes: list[Scene], count: int, rng) -> tuple[torch.Tensor, torch.Tensor]:
    crops, labels = zip(*(classifier_sample(scenes[rng.integers(len(scenes))], rng) for _ in range(count)))
    return torch.from_numpy(np.stack(crops)), torch.tensor(labels)


def train_classifier(scenes: list[Scene], check: list[Scene], samples: int, epochs: int, rng, log,
                     init: Path | None) -> nn.Module:
    started = time.time()
    scenes = [scene for scene in scenes if len(scene.extents)]
    crops, labels = classifier_dataset(scenes, samples, rng)
    check_crops, check_labels = classifier_dataset(check, 3000, np.random.default_rng(12345)) if check else (None, None)
    log(f"classifier: {len(crops)} crops made ({time.time() - started:.0f} s)")
    net = classifier_net()
    if init:
        net.load_state_dict(torch.load(init / "classifier.pt"))
    batch = 128
    steps = epochs * (len(crops) // batch)
    rate = 3e-3 if init is None else 1e-3
    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=rate, total_steps=steps, pct_start=0.1)
    for epoch in range(epochs):
        net.train()
        total = 0.0
        for chosen in torch.randperm(len(crops)).split(batch):
            if len(chosen) < batch:
                continue
            # Every quarter turn and mirror image of a die shows the same value.
            x = torch.rot90(crops[chosen], int(torch.randint(4, ())), dims=(1, 2))
            if torch.rand(()) < 0.5:
                x = x.flip(2)
            logits = net(normalise(x))
            loss = F.cross_entropy(logits, labels[chosen], label_smoothing=0.05)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        message = f"classifier epoch {epoch + 1}/{epochs}: loss {total / max(1, len(crops) // batch):.3f}"
        if check_crops is not None:
            net.eval()
            with torch.no_grad():
                predicted = net(normalise(check_crops)).argmax(1)
            message += f", validation-crop accuracy {(predicted == check_labels).float().mean().item():.3f}"
        log(message + f" ({time.time() - started:.0f} s)")
    return net.eval()


def export(net: nn.Module, example: torch.Tensor, path: Path, dynamic: bool) -> None:
    """The ONNX file the reader runs, and the PyTorch weights beside it (for --init)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), path.with_suffix(".pt"))
    axes = {"input": {0: "batch", 2: "height", 3: "width"}} if dynamic else {"input": {0: "batch"}}
    torch.onnx.export(net, example, str(path), opset_version=11, dynamo=False, input_names=["input"],
                      output_names=["output"], dynamic_axes=axes, do_constant_folding=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--synth", type=Path, action="append", default=[], help="folder of generated scenes")
    parser.add_argument("--detector-samples", type=int, default=16000)
    parser.add_argument("--detector-epochs", type=int, default=8)
    parser.add_argument("--classifier-samples", type=int, default=36000)
    parser.add_argument("--classifier-epochs", type=int, default=6)
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--init", type=Path,
                        help="fine-tune from the networks in this folder (.pt, or the detector's .onnx)")
    parser.add_argument("--only", choices=["detector", "classifier"])
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    def log(message: str) -> None:
        print(message, flush=True)

    scenes = dev_scenes("train")
    log(f"{len(scenes)} dev training photos")
    for folder in args.synth:
        generated = synth_scenes(folder)
        log(f"{len(generated)} generated scenes from {folder}")
        scenes += generated
    check = dev_scenes("validation")
    if args.only != "classifier":
        detector = train_detector(scenes, args.detector_samples, args.detector_epochs, rng, log, args.init)
        export(detector, torch.zeros(1, 3, 96, 96), args.out / "detector.onnx", dynamic=True)
    if args.only != "detector":
        classifier = train_classifier(scenes, check, args.classifier_samples, args.classifier_epochs, rng, log, args.init)
        size = geometry.CROP_SIZE
        export(classifier, torch.zeros(1, 3, size, size), args.out / "classifier.onnx", dynamic=False)
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
