"""What the reader's two small crop networks (vision/training/leaning.py and vision/training/centring.py) share:
their plain layers, the light they learn under, their training loop and their data files."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

BATCH = 128
VALIDATE_EVERY = 500
RATE = 2e-3


def plain_net(side: int, outputs: int, dropout: float = 0.0, fused: bool = False):
    """Four 3x3 convolutions (three halvings) and two dense layers over a side x side crop: layers OpenCV 4.6's ONNX
    importer reads. `fused`: batch norm folded in, as in an exported file (train.starting_net)."""
    import torch.nn as nn

    from vision.training.train import conv

    layers = [*conv(3, 16, fused=fused), nn.MaxPool2d(2), *conv(16, 32, fused=fused), nn.MaxPool2d(2),
              *conv(32, 48, fused=fused), nn.MaxPool2d(2), *conv(48, 64, fused=fused), nn.Flatten(),
              nn.Linear(64 * (side // 8) ** 2, 64), nn.ReLU(inplace=True)]
    layers += [nn.Dropout(dropout)] if dropout else []
    return nn.Sequential(*layers, nn.Linear(64, outputs))  # made in this order, so that a seed gives the same weights


def relit(batch: np.ndarray, rng) -> np.ndarray:
    """The crops with the light's colour and level and the sensor's noise changed at random, as float32."""
    gain = rng.uniform(0.7, 1.3, (len(batch), 1, 1, 3)) * rng.uniform(0.6, 1.4, (len(batch), 1, 1, 1))
    noisy = batch * gain + rng.normal(0, 4, batch.shape)
    return np.ascontiguousarray(np.clip(noisy, 0, 255), dtype=np.float32)


def fit(net, steps: int, batch_loss, report, log=print, rate: float = RATE):
    """Trains `net` for `steps` batches at most `rate`, `batch_loss(net)` drawing each batch and giving its loss, with
    a short warm-up and a half cosine; every VALIDATE_EVERY steps and at the end logs `report(net)`, made in eval mode
    without gradients. Returns the network in eval mode."""
    import torch

    from vision.training.train import learning_rate

    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=1e-4)
    started = time.time()
    for step in range(1, steps + 1):
        for group in optimiser.param_groups:
            group["lr"] = learning_rate(rate, step / steps)
        loss = batch_loss(net)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if step % VALIDATE_EVERY == 0 or step == steps:
            net.eval()
            with torch.no_grad():
                message = report(net)
            net.train()
            log(f"step {step} ({time.time() - started:.0f} s), loss {loss.item():.4f}; {message}")
    return net.eval()


def mean_probability(net, views: list[np.ndarray]) -> np.ndarray:
    """P(class 1) of each crop by the network (torch, in eval mode), averaged over `views`: each the batch of crops as
    the reader shows them in one way (turned, mirrored)."""
    import torch

    from vision.training.train import normalise

    return torch.stack([torch.softmax(net(normalise(np.ascontiguousarray(view))), 1)[:, 1]
                        for view in views]).mean(0).numpy()


def save(path: Path, **arrays: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


def load(paths: list[Path], keys: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """The arrays named `keys` of every file `save` wrote, each concatenated over the files."""
    parts = [np.load(path) for path in paths]
    return tuple(np.concatenate([part[key] for part in parts]) for key in keys)


def export_net(net, side: int, path: Path) -> None:
    """The ONNX file the reader runs, for a network of side x side crops."""
    import torch

    from vision.training.train import export

    export(net, torch.zeros(1, 3, side, side), path, dynamic=False)
