"""Labelled scenes for training: the dev photos' training part and generated scenes, in one form.

A scene is an image with its dice: each die's top-face centre and extent (the largest side of the top
face's box, as the dev photos' boxes and synth's truth give it), the class the classifier should give
it, and whether the detector should find it. Generated scenes also say where clutter lies (things that
must not be taken for dice).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.training import devset

# Classifier classes: 0 is "not a die centred here", 1-6 the value on top, 7 a die whose top cannot be read.
NOT_A_DIE = 0
UNREADABLE = 7
CLASS_COUNT = 8
# A generated die cut by the frame is still read when this much of its top face shows.
READABLE_TOP_SHOWING = 0.98
# Below this share in sight, a generated die is neither taught as a die nor as background.
FINDABLE_SHOWING = 0.5


@dataclass(frozen=True)
class SceneDie:
    x: float
    y: float
    extent: float
    label: int  # 1-6, or UNREADABLE
    findable: bool  # the detector should find it; if not, its surroundings teach nothing


@dataclass
class Scene:
    image: np.ndarray
    dice: list[SceneDie]
    domain: str  # "dev" or "synth"
    clutter: list[tuple[float, float, float, float]] = field(default_factory=list)  # x0, y0, x1, y1
    name: str = ""

    @property
    def median_extent(self) -> float:
        return float(np.median([d.extent for d in self.dice])) if self.dice else 30.0


def dev_scenes(part: str, root: Path | None = None) -> list[Scene]:
    """The dev photos of one part whose dice all have boxes (a die without one would teach the detector
    that it is background)."""
    scenes = []
    for photo in devset.dev_photos(root):
        if photo.part != part or any(die.bbox is None for die in photo.dice):
            continue
        dice = []
        for die in photo.dice:
            x0, y0, x1, y1 = die.bbox
            label = die.value if die.value is not None else UNREADABLE
            dice.append(SceneDie((x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0), label, True))
        scenes.append(Scene(cv2.imread(str(photo.path)), dice, "dev", name=photo.name))
    return scenes


def synth_die(die: dict) -> SceneDie:
    """A generated die (synth's truth JSON) as training sees it: cocked, blurred and hidden dice are
    unreadable; a die cut by the frame is read only when its top face shows whole."""
    corners = np.asarray(die["corners"], np.float64)
    extent = float(np.max(corners.max(axis=0) - corners.min(axis=0)))
    problem = die["problem"]
    readable = problem in (None, "small") or (problem == "edge" and die["top_visible_fraction"] >= READABLE_TOP_SHOWING)
    label = die["value"] if readable and die["value"] is not None else UNREADABLE
    findable = die["visible_fraction"] >= FINDABLE_SHOWING and die["top_visible_fraction"] >= 0.3
    return SceneDie(float(die["center"][0]), float(die["center"][1]), extent, int(label), findable)


def synth_scene(truth_path: Path) -> Scene | None:
    """A scene written by vision.training.synth_scenes (NNNNNNN.json beside NNNNNNN.png), or None while
    it is still being written."""
    image = cv2.imread(str(truth_path.with_suffix(".png")))
    if image is None:
        return None
    return generated_scene(image, json.loads(truth_path.read_text()), truth_path.stem)


def generated_scene(image: np.ndarray, truth: dict, name: str) -> Scene:
    """A generated frame and synth's truth for it (Truth.to_json()) as a training scene."""
    dice = [synth_die(die) for die in truth["dice"]]
    clutter = [tuple(float(v) for v in item["box"]) for item in truth["clutter"]]
    return Scene(image, dice, "synth", clutter, name)
