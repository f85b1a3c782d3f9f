"""Synthetic table scenes with exact ground truth, for tests, benchmarks and the demo recording.

A Pi camera (module 3, 66 degrees wide) looks down at a table with dice and clutter on it; `render` draws
what it would record and says exactly where each die is and what it shows.

    from synth import random_scene, render
    scene = random_scene(7, light="dim", table="wood", tilt_deg=20)
    frame, truth = render(scene)            # BGR uint8 frame, Truth
    for die in truth.in_frame():            # DieTruth
        print(die.colour, die.value, die.problem)
    truth.readings()                        # the same as vision.DieReading values

random_scene(seed, *, dice, light, table, tilt_deg, height_mm, die_px, size, clutter, hand, cocked, edge,
touching, blur, pips) draws every knob left as None from the seed (see its docstring); CONDITIONS names the
knobs that show each condition the reader must handle ("dim", "oblique", "cocked", "hand", ...).

Truth: `dice` (one DieTruth per scene die, in order), `clutter` (ClutterTruth: kind and pixel box of what
shows), `tray` (the tray floor's corners, pixels, or None), `to_json()`. A DieTruth has colour, value (the top
face; None when cocked), center and corners (of the top face, pixels, clockwise in the image), problem (why a
reader may rightly decline it: "cocked", "edge" when the frame cuts it, "occluded" when over a tenth of its top
face is hidden or its pips do not stand out from it in the frame (glare, darkness), "blurred", "small" below
12 px), visible_fraction, top_visible_fraction, size_px, tilt_deg, blur_px, pip_contrast; `to_reading()` is what a
perfect reader would say.

The scene is a plain frozen value (Scene: Camera, Light, Table with an optional Tray, dice, clutter, Effects),
so a film is made by changing it frame by frame with dataclasses.replace:

    die = Die.resting("red", x=10, y=-20, value=5, yaw_deg=30)          # table mm, lying flat
    flying = replace(die, pose=die.pose.lerp(other_pose, 0.3), velocity=(400, 0, 0))  # mm/s: motion blur
    cocked = lean_against(Die.resting("blue", 30, -20, 2), die, tilt_deg=25)  # propped against `die`
    hand = Clutter("hand", Pose.at(x, y, 70, yaw_deg=180), velocity=(0, -300, 0))   # palm 70 mm up
    frame, truth = render(replace(scene, dice=(die, cocked), clutter=(hand,)))

A moving die or hand is smeared along its path during effects.exposure_s (its spin is not). Frames of a
still scene that differ only in effects.seed (fresh sensor noise: `still_frame(scene, index)`) are cheap: the
light reaching the camera is kept for the last two scenes.

Units: millimetres on the table (z up, the table is z = 0), pixels in the image with (0, 0) at the top-left
corner of the top-left pixel. Qwixx dice are 16 mm. Colours are linear RGB. The same scene always gives the
same frame and truth with one numpy and OpenCV; between numpy 1.24 / OpenCV 4.6 and numpy 2 / OpenCV 5 the
truth is the same and frames differ by a grey level or two in a few per cent of pixels (OpenCV's filters
round differently, and JPEG spreads it a little).

`python -m synth.gallery OUT_DIR [--truth]` writes a contact sheet per condition; `bench/synth.py` times it.
"""
from synth.dice import DIE_MM, LOOKS, DieLook, DieShape
from synth.generate import CONDITIONS, lean_against, random_scene, slide_into_contact
from synth.geometry import Camera, Pose
from synth.render import render, still_frame
from synth.scene import (CLUTTER_KINDS, COCKED_TILT_DEG, TABLE_KINDS, Clutter, Die, Effects, Light, Scene, Table,
                         Tray, resting_pose)
from synth.truth import ClutterTruth, DieTruth, Truth

__all__ = [
    "CLUTTER_KINDS", "COCKED_TILT_DEG", "CONDITIONS", "DIE_MM", "LOOKS", "TABLE_KINDS", "Camera", "Clutter", "Die",
    "DieLook", "DieShape", "DieTruth", "ClutterTruth", "Effects", "Light", "Pose", "Scene", "Table", "Tray", "Truth",
    "lean_against", "random_scene", "render", "resting_pose", "slide_into_contact", "still_frame",
]
