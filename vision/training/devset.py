"""The real dev photos (../shared/dice-photos/dev) and the fixed split that keeps validation honest.

Photos are split by a hash of their file name, so the split never changes as code changes. The 26
colour-labelled photos of labels.json are kept out of training entirely: they are only ever measured.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

VALIDATION_PERCENT = 20


def find_shared_dev() -> Path | None:
    """The dev photos beside the checkout (CI: ../shared; a worktree may sit deeper), or None."""
    for folder in Path(__file__).resolve().parents[2].parents:
        candidate = folder / "shared" / "dice-photos" / "dev"
        if (candidate / "values.json").is_file():
            return candidate
    return None


@dataclass(frozen=True)
class LabelledDie:
    value: int | None
    bbox: tuple[int, int, int, int] | None  # x0, y0, x1, y1
    colour: str | None = None  # only labels.json names colours


@dataclass(frozen=True)
class LabelledPhoto:
    path: Path
    name: str  # path relative to the dev folder, as in the label files
    dice: tuple[LabelledDie, ...]
    part: str  # "train", "validation" or "colour-labelled"


def split_of(name: str) -> str:
    """'validation' for a fixed fifth of the photos (by name hash), 'train' for the rest."""
    bucket = int(hashlib.sha1(name.encode()).hexdigest(), 16) % 100
    return "validation" if bucket < VALIDATION_PERCENT else "train"


def load_labels(path: Path, part: str | None = None) -> list[LabelledPhoto]:
    """Photos from one label file (values.json or labels.json); `part` overrides the hash split."""
    root = path.parent
    photos = []
    for entry in json.loads(path.read_text()):
        dice = tuple(
            LabelledDie(
                value=die.get("value"),
                bbox=tuple(die["bbox"]) if "bbox" in die else None,
                colour=die.get("color"),
            )
            for die in entry["dice"]
        )
        name = entry["file"]
        photos.append(LabelledPhoto(root / name, name, dice, part or split_of(name)))
    return photos


def dev_photos(root: Path | None = None) -> list[LabelledPhoto]:
    """Every dev photo: values.json split train/validation, labels.json as 'colour-labelled'."""
    root = root or find_shared_dev()
    if root is None:
        raise FileNotFoundError("the dev photos (shared/dice-photos/dev) are not beside this checkout")
    return load_labels(root / "values.json") + load_labels(root / "labels.json", part="colour-labelled")
