"""Synthetic table scenes with exact ground truth, for tests, benchmarks and the demo recording.

A Pi camera (module 3, 66 degrees wide) looks down at a table with dice and clutter on it; `render` draws
what it would record and says exactly where each die is and what it shows.

    from synth import random_scene, render
    scene = random_scene(7, light="dim", table="wood", tilt_deg=20)
    frame, truth = render(scene)            # BGR uint8 frame, Truth
    for die in truth.in_frame():            # colour, value, center, corners, problem, visible_fraction, size_px
        print(die.colour, die.value, die.problem)
    truth.readings()                        # the same as vision.DieReading values

The scene is a plain frozen value (`Scene`: camera, light, table, dice, clutter, effects), so a sequence of
frames is made by changing it with `dataclasses.replace`:

    from synth import Die, Pose, Scene
    die = Die.resting("red", x=10, y=-20, value=5, yaw_deg=30)         # table mm, lying flat
    moving = replace(die, pose=die.pose.lerp(other_pose, 0.3), velocity=(400, 0, 0))  # mm/s: motion blur
    cocked = lean_against(die, other_die, tilt_deg=25)                  # resting tilted against another die

Units: millimetres on the table (z up, the table is z = 0), pixels in the image with (0, 0) at the top-left
corner of the top-left pixel. Dice are 16 mm. Colours are linear RGB. The same scene always gives the same
frame and truth with one numpy and OpenCV; between numpy 1.24 / OpenCV 4.6 and numpy 2 / OpenCV 5 the truth
is the same and frames differ by a grey level or two in a few per cent of pixels (OpenCV's filters round
differently, and JPEG spreads it a little), nothing a reader should notice.

`CONDITIONS` names the knobs of `random_scene` for each condition the reader must handle;
`python -m synth.gallery OUT_DIR` writes a contact sheet per condition.
"""
from synth.dice import DIE_MM, LOOKS, DieLook, DieShape
from synth.generate import CONDITIONS, lean_against, random_scene, slide_into_contact
from synth.geometry import Camera, Pose
from synth.render import render
from synth.scene import (CLUTTER_KINDS, COCKED_TILT_DEG, TABLE_KINDS, Clutter, Die, Effects, Light, Scene, Table,
                         Tray, resting_pose)
from synth.truth import ClutterTruth, DieTruth, Truth

__all__ = [
    "CLUTTER_KINDS", "COCKED_TILT_DEG", "CONDITIONS", "DIE_MM", "LOOKS", "TABLE_KINDS", "Camera", "Clutter", "Die",
    "DieLook", "DieShape", "DieTruth", "ClutterTruth", "Effects", "Light", "Pose", "Scene", "Table", "Tray", "Truth",
    "lean_against", "random_scene", "render", "resting_pose", "slide_into_contact",
]
