"""The real dev photos (../shared/dice-photos/dev) and the fixed split that keeps validation honest.

Photos are split by a hash of their file name, so the split never changes as code changes: "validation"
(a fifth: only ever measured, the figure to quote), "tune" (15%: never trained on; the reader's thresholds
are set on it) and "train" (the rest). The 26 colour-labelled photos of labels.json are kept out of training
and tuning entirely: they are only ever measured.

The Roboflow photos hold the same picture more than once under different names (re-encoded, brightened or
mirrored copies: about 400 pairs). A train or tune photo that repeats a photo of a more protected part is
set apart as "duplicate" and used for nothing, so that validation stays unseen.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

VALIDATION_PERCENT = 20
TUNE_PERCENT = 15
# Most protected first: a photo repeating one of an earlier part is a duplicate in a later one.
PROTECTION = ("colour-labelled", "validation", "tune", "train")
SAME_BOX = 4.0  # pixels: labelled boxes this close are the same die in the same picture
# Published values that the photo plainly contradicts, checked by eye on enlarged crops: (file, box) to (published,
# seen). Found among the dice the reader reads otherwise (bench/vision.py --errors), so a wrong label the reader agrees
# with is not here: the corrections can only raise the figures, by at most the dice listed.
LABEL_FIXES = {
    ("nell-byler__dice_detection/data/JPEGImages/IMG_20191208_111246.jpg", (119, 206, 158, 240)): (2, 3),
    ("nell-byler__dice_detection/data/JPEGImages/IMG_20191209_095555.jpg", (142, 247, 181, 281)): (5, 6),
    ("nell-byler__dice_detection/data/JPEGImages/IMG_20191209_095954.jpg", (220, 320, 260, 357)): (2, 3),
    ("nell-byler__dice_detection/data/JPEGImages/IMG_20191209_100002.jpg", (115, 342, 158, 381)): (2, 3),
    ("nell-byler__dice_detection/data/JPEGImages/IMG_20191209_095439.jpg", (317, 371, 347, 401)): (5, 4),
}


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
    part: str  # "train", "tune", "validation", "colour-labelled" or "duplicate"


def split_of(name: str) -> str:
    """'validation', 'tune' or 'train': fixed shares of the photos, by a hash of the name."""
    bucket = int(hashlib.sha1(name.encode()).hexdigest(), 16) % 100
    if bucket < VALIDATION_PERCENT:
        return "validation"
    return "tune" if bucket < VALIDATION_PERCENT + TUNE_PERCENT else "train"


def load_labels(path: Path, part: str | None = None) -> list[LabelledPhoto]:
    """Photos from one label file (values.json or labels.json), LABEL_FIXES applied; `part` overrides the hash
    split."""
    root = path.parent
    photos = []
    for entry in json.loads(path.read_text()):
        name = entry["file"]
        dice = tuple(_fixed(name, LabelledDie(die.get("value"), tuple(die["bbox"]) if "bbox" in die else None,
                                              die.get("color")))
                     for die in entry["dice"])
        photos.append(LabelledPhoto(root / name, name, dice, part or split_of(name)))
    return photos


def _fixed(name: str, die: LabelledDie) -> LabelledDie:
    published, seen = LABEL_FIXES.get((name, die.bbox), (None, None))
    return replace(die, value=seen) if published is not None and die.value == published else die


def dev_photos(root: Path | None = None) -> list[LabelledPhoto]:
    """Every dev photo: values.json split train/tune/validation, labels.json as 'colour-labelled', and the
    repeats of more protected photos as 'duplicate'."""
    root = root or find_shared_dev()
    if root is None:
        raise FileNotFoundError("the dev photos (shared/dice-photos/dev) are not beside this checkout")
    return mark_duplicates(load_labels(root / "values.json") + load_labels(root / "labels.json", part="colour-labelled"))


def mark_duplicates(photos: list[LabelledPhoto]) -> list[LabelledPhoto]:
    """The photos, with each train or tune photo that repeats a photo of a more protected part (the same
    labelled boxes, or their mirror image) set apart as 'duplicate'."""
    boxes = [np.array([d.bbox for d in photo.dice if d.bbox is not None], np.float64).reshape(-1, 4)
             for photo in photos]
    # Mirroring keeps each box's size: only photos whose boxes have the same sizes can repeat each other.
    sizes = [_sorted(b[:, 2:] - b[:, :2]) for b in boxes]
    ranks = [PROTECTION.index(photo.part) if photo.part in PROTECTION else -1 for photo in photos]
    marked = list(photos)
    for index, photo in enumerate(photos):
        if photo.part not in ("train", "tune") or len(boxes[index]) == 0:
            continue
        others = [other for other in range(len(photos))
                  if 0 <= ranks[other] < ranks[index] and _close(sizes[other], sizes[index], 2 * SAME_BOX)]
        if not others:
            continue
        mirrored = boxes[index].copy()
        mirrored[:, [0, 2]] = cv2.imread(str(photo.path)).shape[1] - boxes[index][:, [2, 0]]
        if any(_close(_sorted(boxes[other]), _sorted(candidate), SAME_BOX)
               for other in others for candidate in (boxes[index], mirrored)):
            marked[index] = replace(photo, part="duplicate")
    return marked


def _sorted(rows: np.ndarray) -> np.ndarray:
    return rows[np.lexsort(rows.T[::-1])]


def _close(a: np.ndarray, b: np.ndarray, tolerance: float) -> bool:
    return a.shape == b.shape and bool(np.abs(a - b).max() <= tolerance)
