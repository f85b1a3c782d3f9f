"""Learning a calibration from rendered frames with the real reader, and what it does for the reader."""
import math
from collections import Counter
from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np
import pytest

from calibration import Calibration, CalibrationError, DieColour
from calibration.learn import (MOST_MISSED, FoundDie, WashedOut, check, close_colour_warnings, find_play_area,
                               learn, play_area_problem)
from synth.geometry import Camera
from synth.render import render
from synth.rolls import Film, cocked_table_roll, laid_apart, table_roll, table_scene
from synth.scene import Effects, Light, Scene, Table, Tray
from vision import read_dice
from vision.reader import DiceReader
from vision.readings import QWIXX_ROLL
from web import cli

SIZE = (960, 540)


def scene(light: Light, effects: Effects, table=Table("wood", seed=2, tray=Tray(size_mm=(300.0, 210.0)))) -> Scene:
    camera = Camera(*SIZE, height_mm=Camera.height_for_die_px(27, *SIZE))
    return Scene(camera=camera, light=light, table=table, effects=effects)


NEUTRAL = (Light(kelvin=5000.0), Effects(seed=1))
# An old tungsten bulb and a camera that leaves most of its cast: yellow and white dice come close.
WARM_LAMP = (Light(kelvin=2300.0, ambient_kelvin=2500.0, ambient=0.5), Effects(seed=1, auto_white_balance=0.1))


@lru_cache(maxsize=None)
def frames(lighting, seeds=(1, 2)):
    """The empty table, the six dice apart, and a few rolls, all rendered under `lighting`."""
    base = scene(*lighting)
    film = Film(base, seed=7)
    empty = render(base)[0]
    apart = film.resting_dice([6, 5, 4, 3, 2, 1], area=(-100, -60, 100, 60), apart=2.5)
    dice = render(replace(base, dice=tuple(apart)))[0]
    rolls = []
    for seed in seeds:
        roll = Film(base, seed=seed)
        values = [int(v) for v in roll.rng.integers(1, 7, 6)]
        placed = roll.resting_dice(values, area=(-100, -60, 100, 60))
        image, truth = render(replace(base, dice=tuple(placed)))
        rolls.append((image, truth.in_frame()))
    return empty, dice, rolls


def correct(readings, truth) -> int:
    """How many of the true (colour, value) pairs the readings have."""
    return sum((Counter((r.colour, r.value) for r in readings) & Counter((d.colour, d.value) for d in truth)).values())


def colours_named_right(readings, truth) -> int:
    """How many dice found where a die lies are given that die's colour."""
    right = 0
    for reading in readings:
        nearest = min(truth, key=lambda d: math.dist(d.center, reading.center))
        right += math.dist(nearest.center, reading.center) < nearest.size_px / 2 and nearest.colour == reading.colour
    return right


def test_learns_size_colours_and_tray_from_the_six_dice():
    empty, dice, _ = frames(NEUTRAL)
    learned = learn(empty, dice, read_dice)
    assert learned.resolution == SIZE
    assert set(learned.colours) == {"white", "red", "yellow", "green", "blue"}
    assert learned.colours["white"].pip_contrast < -20 < 20 < learned.colours["red"].pip_contrast
    L, a, b = learned.colours["red"].face
    assert a > 25 and L < 75
    assert 25 < learned.die_size < 30  # the scene's camera makes dice 27 px across
    tray_centre = np.mean(learned.play_area, axis=0)
    assert np.allclose(tray_centre, (SIZE[0] / 2, SIZE[1] / 2), atol=40)
    width = max(x for x, _ in learned.play_area) - min(x for x, _ in learned.play_area)
    assert 0.4 * SIZE[0] < width < 0.9 * SIZE[0]  # the tray, not the whole table
    assert not any("empty table seemed to show" in note for note in learned.notes)


def test_dice_left_on_the_empty_table_are_pointed_out():
    _, dice, _ = frames(NEUTRAL)
    learned = learn(dice, dice, read_dice)  # the dice were there already when the empty table was taken
    [note] = [note for note in learned.notes if "empty table seemed to show" in note]
    assert note.startswith("The empty table seemed to show 6 dice (") and "calibrate again with the table clear" in note


def test_the_die_size_is_the_top_face_not_its_shadow():
    # On this dark table the dice measured where they changed the empty table, shadows and all, had come out
    # 1.4 times their size.
    base = table_scene(12)
    dice, truth = render(laid_apart(base, 12))
    size = np.median([d.size_px for d in truth.in_frame()])
    assert 0.9 * size < learn(render(base)[0], dice, read_dice).die_size < 1.1 * size


def test_a_die_the_reader_misses_is_found_where_the_table_changed():
    empty, dice, _ = frames(NEUTRAL)
    readings = read_dice(dice)
    missing = next(r for r in readings if r.colour == "blue")

    def reader_missing_one(frame, calibration=None):
        return [r for r in readings if r is not missing]

    learned = learn(empty, dice, reader_missing_one)
    assert "The reader found 5 of the six dice; 1 more was found where the table changed." in learned.notes
    assert set(learned.colours) == {"white", "red", "yellow", "green", "blue"}
    # the missed die's colour was measured where it lies: blue is learned as when the reader finds it
    assert math.dist(learned.colours["blue"].face, learn(empty, dice, read_dice).colours["blue"].face) < 12


def squares(colours_bgr) -> tuple[np.ndarray, list[FoundDie]]:
    """A grey table with a 30-pixel square of each colour, and a reader's finding of each, its colour unnamed."""
    frame = np.full((360, 640, 3), 128, np.uint8)
    found = []
    for index, bgr in enumerate(colours_bgr):
        x, y = 80 + 96 * index, 180
        frame[y - 15:y + 15, x - 15:x + 15] = bgr
        found.append(FoundDie((x, y), ((x - 15, y - 15), (x + 15, y - 15), (x + 15, y + 15), (x - 15, y + 15)),
                              confidence=0.9))
    return frame, found


def finding(frame: np.ndarray, found: list):
    """A stand-in reader that finds `found` on `frame` and nothing on the empty table."""
    return lambda image, calibration=None: found if image is frame else []


WHITE, RED, YELLOW, GREEN = (235, 235, 235), (40, 40, 200), (40, 210, 230), (60, 160, 40)
BLUE, ORANGE = (170, 80, 30), (30, 120, 230)


def test_dice_named_by_hue_take_the_colours_their_hues_fit():
    frame, found = squares([WHITE, BLUE, RED, WHITE, GREEN, YELLOW])
    learned = learn(np.full_like(frame, 128), frame, finding(frame, found))
    assert any("named by hue" in note for note in learned.notes)
    L, a, b = learned.colours["blue"].face
    assert b < -30 and L < 50


def test_under_a_warm_lamp_a_yellow_die_lighter_than_a_white_one_is_named_yellow():
    warm_white, dimmer_warm_white, warm_yellow = (150, 195, 235), (120, 160, 200), (30, 190, 240)
    frame, found = squares([warm_white, (150, 70, 30), (40, 60, 200), dimmer_warm_white, (50, 140, 50), warm_yellow])
    learned = learn(np.full_like(frame, 128), frame, finding(frame, found))
    assert learned.colours["yellow"].face[2] > 70  # the strongly yellow face, not a warm white one
    assert learned.colours["white"].face[2] < 30


def test_washed_out_coloured_dice_are_refused_with_what_to_do():
    # Exposed for a dark table: the white dice clip first, then the lightest coloured ones.
    washed_out = (248, 252, 250)
    frame, found = squares([washed_out, washed_out, RED, washed_out, washed_out, YELLOW])
    with pytest.raises(WashedOut, match="washed out.*Lower the camera's exposure"):
        learn(np.full_like(frame, 128), frame, finding(frame, found))


def test_on_a_dark_table_washed_out_dice_calibrate_with_the_exposure_lowered_as_advised():
    base = table_scene(41)
    assert base.table.kind == "dark"
    with pytest.raises(WashedOut):
        learn(render(base)[0], render(laid_apart(base, 41))[0], read_dice)
    lower = replace(base, effects=replace(base.effects, exposure_ev=-2.0))
    learned = learn(render(lower)[0], render(laid_apart(lower, 41))[0], read_dice)
    image, truth = render(table_roll(lower, 41, 0))
    assert correct(read_dice(image, learned, QWIXX_ROLL), truth.in_frame()) == 6


def lit_by_a_lamp_mirrored_at(point, base: Scene, size_mm: float):
    """What changes a scene of `base`'s table: its lamp moved to the camera's height, where a top at the table `point`
    (mm) mirrors it into the lens."""
    camera_at = np.array(base.camera.position)
    lamp = (float(2 * point[0] - camera_at[0]), float(2 * point[1] - camera_at[1]), float(camera_at[2]))
    return lambda scene: replace(scene, light=replace(scene.light, position=lamp, size_mm=size_mm))


def laid_out_middle(scene: Scene) -> np.ndarray:
    return np.mean([die.pose.position for die in scene.dice], axis=0)[:2]


def test_a_lamp_mirrored_in_the_dice_tops_is_refused_with_what_to_do_and_lowering_the_exposure_helps():
    # A lamp at the camera's height where the laid-out dice's tops mirror it into the lens: they come out white.
    base = table_scene(0)
    laid_out = laid_apart(base, 0)
    mirrored = lit_by_a_lamp_mirrored_at(laid_out_middle(laid_out), base, 120.0)
    with pytest.raises(WashedOut, match="lamp beside the camera is mirrored.*move the lamp off to the side"):
        learn(render(mirrored(base))[0], render(mirrored(laid_out))[0], read_dice)
    lower = replace(base, effects=replace(base.effects, exposure_ev=-2.0))
    learned = learn(render(mirrored(lower))[0], render(mirrored(laid_apart(lower, 0)))[0], read_dice)
    image, truth = render(mirrored(table_roll(lower, 0, 0)))
    assert correct(read_dice(image, learned, QWIXX_ROLL), truth.in_frame()) == 6


def test_a_missed_die_takes_the_colour_the_reader_left_out():
    # The missed white die lies in the lamp's warm corner.
    warm_white = (150, 190, 215)
    frame, found = squares([WHITE, BLUE, RED, warm_white, GREEN, YELLOW])
    named = [replace(die, colour=name) for die, name in zip(found, ("white", "blue", "red", "", "green", "yellow"))]
    reader_missing_one = [die for index, die in enumerate(named) if index != 3]
    empty = np.full_like(frame, 128)
    learned = learn(empty, frame, finding(frame, reader_missing_one))
    assert "The reader found 5 of the six dice; 1 more was found where the table changed." in learned.notes
    assert not any("named by hue" in note for note in learned.notes)
    assert learned.colours["white"].spread[2] > 10  # the warm face was learned as white too


def test_a_set_whose_hues_do_not_fit_the_dice_colours_is_refused():
    # An orange face where the blue die should be (a die measured on its shadow, or a die of another set): named
    # by hue, one of the four coloured dice would take a colour it does not show, and every roll would be misnamed.
    frame, found = squares([WHITE, ORANGE, RED, WHITE, GREEN, YELLOW])
    with pytest.raises(CalibrationError, match="colours could not be told apart"):
        learn(np.full_like(frame, 128), frame, finding(frame, found))


def test_other_dice_than_the_qwixx_set_are_said_in_the_refusal():
    # Three white dice and three red ones laid out: no light makes them the Qwixx set, and the person is told what
    # the reader took them for rather than only to change the light.
    frame, found = squares([WHITE, WHITE, RED, WHITE, RED, RED])
    named = [replace(die, colour=colour) for die, colour in zip(found, ["white", "white", "red", "white", "red", "red"])]
    with pytest.raises(CalibrationError, match="The reader took the dice for white, white, white, red, red, red: the "
                                               "Qwixx dice are two white ones and one each of red, yellow, green"):
        learn(np.full_like(frame, 128), frame, finding(frame, named))


def calibrated_roll(table: int, roll: int, cocked: bool = False):
    """A calibration learned on bench/table.py's table `table`, and that table's roll `roll` (image, its dice), or
    with `cocked` its roll `roll` with a die cocked."""
    base = table_scene(table)
    learned = learn(render(base)[0], render(laid_apart(base, table))[0], read_dice)
    image, truth = render((cocked_table_roll if cocked else table_roll)(base, table, roll))
    return learned, image, truth.in_frame()


def test_the_calibrated_reader_finds_dice_where_the_table_changed():
    # On a fine purple gingham the detector sees few of the dice (2 of 6 read); against the empty table they stand out.
    assert table_scene(21).table.kind == "patterned"
    learned, image, dice = calibrated_roll(21, 1)
    assert correct(read_dice(image, learned, QWIXX_ROLL), dice) == len(dice) == 6
    assert correct(read_dice(image, replace(learned, empty_table=None), QWIXX_ROLL), dice) <= 3


def test_a_white_die_on_a_white_square_is_found_beside_its_shadow():
    # On a checked cloth a white die lying on a white square changes the table only where its shadow falls and
    # where it covers the coloured squares beside: the place looked at first lies off the die.
    learned, image, dice = calibrated_roll(8, 1)
    white_two = next(d for d in dice if d.colour == "white" and d.value == 2)
    readings = read_dice(image, learned, QWIXX_ROLL)
    assert any(math.dist(r.center, white_two.center) < white_two.size_px / 3 and (r.colour, r.value) == ("white", 2)
               for r in readings)
    assert correct(readings, dice) == 6


def test_a_detector_peak_on_the_unchanged_table_hides_no_die(monkeypatch):
    # On a striped cloth the detector had peaked on the bare stripe between two touching dice, where the table did
    # not change; the classifier called that peak no die, and as it lay within a die of the two places where the
    # table changed, those were never looked at. Here two die-sized squares on a plain table and that one peak.
    empty = np.full((540, 960, 3), 110, np.uint8)
    frame = empty.copy()
    frame[255:285, 440:470] = frame[255:285, 496:526] = 230
    corners = ((0.0, 0.0), (960.0, 0.0), (960.0, 540.0), (0.0, 540.0))
    calibration = Calibration((960, 540), 30.0, {}, corners, empty_table=Calibration.encode_image(empty))
    reader = DiceReader()
    scale = reader.levels(frame.shape, calibration)[0]
    between = (483.0, 270.0)
    monkeypatch.setattr(reader, "_peaks", lambda level, *_: tuple(np.array([v]) for v in (*np.multiply(between, scale),
                                                                                     30 * scale, 0.6)))
    found = reader.find(frame, calibration)
    assert any(math.dist((c.x, c.y), between) < 3 for c in found)
    for square in ((455, 270), (511, 270)):
        assert min(math.dist((c.x, c.y), square) for c in found) < 8, square


def test_a_cocked_die_whose_top_leans_far_from_its_support_is_doubted():
    # The blue die leans on the green one, its top tilted away: its face's centre lies 1.6-1.7 edges from the
    # green die's. The classifier reads the 4 it shows sure enough; the roll must still be sent back (ruling 9).
    learned, image, dice = calibrated_roll(31, 4, cocked=True)
    blue = next(d for d in dice if d.colour == "blue")
    assert blue.problem == "cocked"
    readings = read_dice(image, learned, QWIXX_ROLL)
    assert len(readings) == 6
    near_blue = min(readings, key=lambda r: math.dist(r.center, blue.center))
    assert near_blue.value is None and near_blue.problem == "cocked"


def test_on_a_busy_cloth_the_dice_are_found_with_the_empty_table():
    # A fine purple gingham on which the reader alone finds two of the six dice lying apart (three with OpenCV 4.6):
    # too few for the dice it misses to be looked for where the table changed (MOST_MISSED). On the pattern the
    # outlines of some dice come out up to a fifth too large: the die size learned is 1.08 times the true one (1.14
    # with OpenCV 4.6; on bench/table.py's patterned table 52, 1.15).
    base = table_scene(21)
    assert base.table.kind == "patterned"
    empty = render(base)[0]
    dice, truth = render(laid_apart(base, 21))
    assert len(read_dice(dice)) < 6 - MOST_MISSED
    learned = learn(empty, dice, read_dice)
    found_with_the_table = "The reader found 6 of the six dice only with the empty table"
    assert any(note.startswith(found_with_the_table) for note in learned.notes)
    size = np.median([d.size_px for d in truth.in_frame()])
    assert 0.9 * size < learned.die_size < 1.17 * size
    for name, hue in (("red", 35), ("yellow", 90), ("green", 150), ("blue", 270)):
        _, a, b = learned.colours[name].face
        assert abs((math.degrees(math.atan2(b, a)) - hue + 180) % 360 - 180) < 40, name


def test_more_than_two_missed_dice_are_not_guessed():
    empty, dice, _ = frames(NEUTRAL)
    readings = read_dice(dice)
    with pytest.raises(CalibrationError, match="found 3 dice, not 6"):
        learn(empty, dice, lambda frame, calibration=None: readings[:3])


# Under this lamp the reader misses the dark blue die; calibration finds it where the table changed. The
# faces measured then put white and yellow 20 apart, above the warning's 15, and the calibrated reader
# reads 11 of the 12 dice of the rolls (4 without the calibration; 9 before it white-balanced the frame).
def test_calibration_makes_the_reader_name_colours_right_under_a_warm_lamp():
    empty, dice, rolls = frames(WARM_LAMP)
    learned = learn(empty, dice, read_dice)
    # This lamp brings green nearest to white and yellow (11 apart), and leaves white and yellow 20 apart.
    assert any(note.startswith("White and green dice look alike under this light") for note in learned.notes)
    assert not any(note.startswith("White and yellow dice look alike") for note in learned.notes)
    without = sum(colours_named_right(read_dice(image), truth) for image, truth in rolls)
    with_calibration = sum(colours_named_right(read_dice(image, learned), truth) for image, truth in rolls)
    assert with_calibration >= 0.8 * sum(len(truth) for _, truth in rolls)
    assert with_calibration > without


@pytest.mark.xfail(reason="with the calibration the reader reads 11 of the 12 dice under the warm lamp (issue 3)",
                   strict=True)
def test_calibration_makes_the_reader_right_under_a_warm_lamp():
    empty, dice, rolls = frames(WARM_LAMP)
    learned = learn(empty, dice, read_dice)
    total = sum(len(truth) for _, truth in rolls)
    without = sum(correct(read_dice(image), truth) for image, truth in rolls)
    with_calibration = sum(correct(read_dice(image, learned), truth) for image, truth in rolls)
    assert with_calibration == total
    assert with_calibration > without


def test_warns_when_two_dice_colours_are_close_under_this_light():
    colours = {
        "white": DieColour((88.0, 6.0, 30.0), (2.0, 1.0, 2.0), -50.0),
        "yellow": DieColour((84.0, 10.0, 38.0), (2.0, 1.0, 2.0), 10.0),
        "red": DieColour((45.0, 60.0, 40.0), (2.0, 2.0, 2.0), 40.0),
    }
    (warning,) = close_colour_warnings(colours)
    assert "White and yellow" in warning and "a whiter, brighter lamp" in warning
    assert close_colour_warnings({k: v for k, v in colours.items() if k != "yellow"}) == []


def test_a_camera_out_of_focus_is_named_when_the_calibration_is_checked():
    sharp_empty, sharp_dice, _ = frames(NEUTRAL, seeds=())
    assert "blurred" not in (check(sharp_dice, learn(sharp_empty, sharp_dice, read_dice), read_dice)[1] or "")
    empty, dice, _ = frames((Light(kelvin=5000.0), Effects(seed=1, defocus_px=4.0)), seeds=())
    seen, warning = check(dice, learn(empty, dice, read_dice), read_dice)
    blurred = sum(r.problem == "blurred" for r in seen)
    assert blurred >= 3 and f"{blurred} of them look blurred" in warning and "focused on the table" in warning, seen


def test_a_coloured_die_whose_top_came_out_nearly_white_is_blamed_on_a_mirrored_lamp_or_the_exposure():
    colours = {
        "white": DieColour((99.0, 0.0, 1.0), (1.0, 1.0, 1.0), -60.0),
        "red": DieColour((93.0, 7.0, 4.0), (2.0, 2.0, 2.0), 0.0),
    }
    (warning,) = close_colour_warnings(colours)
    assert warning.startswith("White and red dice look alike under this light")
    assert "the red die's top came out nearly white" in warning and "off to the side" in warning


def test_under_a_lamp_the_red_top_mirrors_calibration_says_to_move_the_lamp():
    # A lamp at the camera's height, placed so that a point 10 cm from the laid-out dice's middle (by a white die)
    # mirrors it into the lens: the red top comes out nearly white, the other coloured ones keep their colours.
    base = table_scene(3)
    laid_out = laid_apart(base, 3)
    mirrored = lit_by_a_lamp_mirrored_at(laid_out_middle(laid_out) + (61.0, -77.0), base, 60.0)
    learned = learn(render(mirrored(base))[0], render(mirrored(laid_out))[0], read_dice)
    assert any("the red die's top came out nearly white" in note for note in learned.notes)
    learned = learn(render(base)[0], render(laid_out)[0], read_dice)
    assert not any("came out nearly white" in note for note in learned.notes)


def test_play_area_is_the_whole_frame_without_a_tray():
    empty = np.full((360, 640, 3), (60, 90, 120), np.uint8)
    area = find_play_area(empty, [(100, 100), (500, 300)])
    assert min(x for x, _ in area) < 20 and max(x for x, _ in area) > 620


def test_too_few_dice_is_a_clear_error():
    empty, _, _ = frames(NEUTRAL)
    with pytest.raises(ValueError, match="found 0 dice"):
        learn(empty, empty, read_dice)


def test_calibrate_command_learns_from_a_recording_and_saves(tmp_path, capsys, monkeypatch):
    empty, dice, _ = frames(NEUTRAL)
    folder = tmp_path / "recording"
    folder.mkdir()
    cv2.imwrite(str(folder / "0-empty.png"), empty)
    cv2.imwrite(str(folder / "1-dice.png"), dice)
    saved = tmp_path / "calibration.json"
    assert cli.main(["calibrate", "--source", str(folder), "--calibration", str(saved)]) == 0
    out = capsys.readouterr().out
    assert f"Saved to {saved}" in out and "yellow" in out
    calibration = Calibration.load(saved)
    assert calibration.resolution == SIZE

    adjusted = tmp_path / "adjusted.json"
    assert cli.main(["calibrate", "--source", str(folder), "--calibration", str(adjusted),
                     "--play-area", "10,10,900,10,900,500,10,500"]) == 0
    assert Calibration.load(adjusted).play_area[2] == (900.0, 500.0)
    capsys.readouterr()
    refused = tmp_path / "refused.json"
    assert cli.main(["calibrate", "--source", str(folder), "--calibration", str(refused),
                     "--play-area", "10,10,300,10,300,500,10,500"]) != 0
    assert "the play area must hold the dice laid out for it: the" in capsys.readouterr().err
    assert not refused.exists()
    blocked = tmp_path / "0-empty.png" / "calibration.json"  # under a file, where a folder would have to be
    (tmp_path / "0-empty.png").write_bytes(b"")
    assert cli.main(["calibrate", "--source", str(folder), "--calibration", str(blocked)]) == 1
    assert capsys.readouterr().err == (f"qwixx-table: the calibration cannot be saved to {blocked}: {blocked.parent} "
                                       "is a file, not a folder. Name another file with --calibration FILE.\n")

    backwards = tmp_path / "backwards"
    backwards.mkdir()
    cv2.imwrite(str(backwards / "0-dice.png"), dice)
    cv2.imwrite(str(backwards / "1-empty.png"), empty)
    assert cli.main(["calibrate", "--source", str(backwards), "--calibration", str(saved)]) == 1
    assert "it must begin with the empty table and end with the dice" in capsys.readouterr().err

    assert cli.main(["calibrate", "--source", "demo", "--calibration", str(saved)]) == 1
    assert "the demo recording is not your table: calibrate with the camera that watches it" in capsys.readouterr().err

    def disk_turned_read_only(self, path):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(Calibration, "save", disk_turned_read_only)
    assert cli.main(["calibrate", "--source", str(folder), "--calibration", str(saved)]) == 1
    assert capsys.readouterr().err == (f"qwixx-table: the calibration could not be written to {saved}: Read-only file "
                                       "system. Nothing was saved.\n")


@pytest.mark.parametrize("corners, problem", [
    ([(0, 0), (960, 0), (960, 540), (0, 540)], None),
    ([(0, 0), (961, 0), (960, 540), (0, 540)], "every corner of the play area must lie in the picture"),
    ([(0, 0), (960, 540), (960, 0), (0, 540)], "the play area's edges cross"),
    ([(0, 0), (480, 0), (480, 540), (0, 540)], "the play area must hold the dice laid out for it: the red die"),
])
def test_a_play_area_lies_in_the_picture_is_one_outline_and_holds_the_dice(corners, problem):
    found = play_area_problem(corners, (960, 540), [("white", (100.0, 100.0)), ("red", (700.0, 300.0))])
    assert (found is None) if problem is None else found.startswith(problem)


def test_calibrate_says_when_the_camera_sends_nothing_before_asking_for_anything(tmp_path, capsys, monkeypatch):
    from web.commands import calibrate

    class NoCamera:  # as cv2.VideoCapture is on an index where no webcam answers
        def __init__(self, index, backend):
            pass

        def isOpened(self):
            return False

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", NoCamera)
    monkeypatch.setattr(calibrate, "FIRST_FRAME_S", 0.5)
    monkeypatch.setattr("sys.stdin", None)  # nothing may be asked: reading it would fail
    assert cli.main(["calibrate", "--source", "3", "--calibration", str(tmp_path / "calibration.json")]) == 1
    captured = capsys.readouterr()
    assert "Take every die off the table" not in captured.out
    assert captured.err.startswith("qwixx-table: webcam 3 sent no picture in 0.5 s (") and "no camera answers" in captured.err
