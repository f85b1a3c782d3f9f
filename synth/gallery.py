"""Contact sheets of generated scenes, one per condition, for people to judge realism and truth.

    python -m synth.gallery OUT_DIR [--scenes 6] [--condition NAME ...] [--truth]

Writes OUT_DIR/<condition>.png: the condition's scenes (seeds 0..N-1) side by side, each frame shrunk to
640 pixels wide, with a strip of its dice at full size below it; with --truth, each die's top face outline
(green: readable, red: a problem) and value are drawn. Also OUT_DIR/index.png: the first scene of each
condition.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from synth import CONDITIONS, random_scene, render

TILE_WIDTH = 640
CROP = 64


def annotate(frame: np.ndarray, truth) -> np.ndarray:
    out = frame.copy()
    for die in truth.in_frame():
        colour = (0, 200, 0) if die.problem is None else (0, 0, 230)
        corners = np.round(np.array(die.corners) * 4).astype(np.int32)
        cv2.polylines(out, [corners], True, colour, 1, cv2.LINE_AA, shift=2)
        label = str(die.value) if die.problem is None else f"{die.value or '-'} {die.problem}"
        x, y = (int(v) for v in die.center)
        cv2.putText(out, label, (x + int(die.size_px / 2) + 2, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1,
                    cv2.LINE_AA)
    return out


def tile(frame: np.ndarray, truth, caption: str) -> np.ndarray:
    """The frame shrunk to TILE_WIDTH with a strip of 1:1 crops of its dice below."""
    height = int(round(frame.shape[0] * TILE_WIDTH / frame.shape[1]))
    small = cv2.resize(frame, (TILE_WIDTH, height), interpolation=cv2.INTER_AREA)
    cv2.putText(small, caption, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(small, caption, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
    strip = np.full((CROP, TILE_WIDTH, 3), 32, np.uint8)
    padded = cv2.copyMakeBorder(frame, CROP, CROP, CROP, CROP, cv2.BORDER_CONSTANT, value=(32, 32, 32))
    for k, die in enumerate(truth.in_frame()[: TILE_WIDTH // CROP]):
        x, y = (int(round(v)) + CROP for v in die.center)
        crop = padded[y - CROP // 2:y + CROP // 2, x - CROP // 2:x + CROP // 2]
        if die.size_px > CROP * 0.7:  # large dice: shrink to fit rather than cut
            half = int(die.size_px)
            crop = cv2.resize(padded[y - half:y + half, x - half:x + half], (CROP, CROP), interpolation=cv2.INTER_AREA)
        strip[:, k * CROP:(k + 1) * CROP] = crop
    return np.vstack([small, strip])


def sheet(tiles: list[np.ndarray], columns: int = 3) -> np.ndarray:
    height = max(t.shape[0] for t in tiles)
    tiles = [cv2.copyMakeBorder(t, 0, height - t.shape[0] + 4, 0, 4, cv2.BORDER_CONSTANT, value=(255, 255, 255))
             for t in tiles]
    while len(tiles) % columns:
        tiles.append(np.full_like(tiles[0], 255))
    return np.vstack([np.hstack(tiles[i:i + columns]) for i in range(0, len(tiles), columns)])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Write contact sheets of generated scenes per condition.")
    parser.add_argument("out", type=Path)
    parser.add_argument("--scenes", type=int, default=6, help="scenes per condition (default 6)")
    parser.add_argument("--condition", action="append", choices=sorted(CONDITIONS),
                        help="only these conditions (default: all)")
    parser.add_argument("--truth", action="store_true", help="draw each die's outline and value")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    firsts = []
    for name in args.condition or list(CONDITIONS):
        tiles = []
        for seed in range(args.scenes):
            frame, truth = render(random_scene(seed, **CONDITIONS[name]))
            if args.truth:
                frame = annotate(frame, truth)
            tiles.append(tile(frame, truth, f"{name} {seed}"))
        cv2.imwrite(str(args.out / f"{name}.png"), sheet(tiles))
        firsts.append(tiles[0])
        print(f"wrote {args.out / (name + '.png')}", flush=True)
    cv2.imwrite(str(args.out / "index.png"), sheet(firsts, columns=4))
    print(f"wrote {args.out / 'index.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
