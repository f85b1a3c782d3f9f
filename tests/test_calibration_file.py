import json

import cv2
import numpy as np
import pytest

from calibration import Calibration, CalibrationError, DieColour, Exposure, default_path, find, to_lab
from calibration.model import EMPTY_TABLE_WIDTH, WHITE_BALANCE_LIMITS
from web.commands.camera_options import locked_controls


def make_calibration(**changes) -> Calibration:
    table = np.full((72, 128, 3), (40, 90, 30), np.uint8)
    fields = dict(
        resolution=(1280, 720),
        die_size=26.0,
        colours={
            "white": DieColour((92.0, 0.5, 4.0), (2.0, 1.0, 1.5), -60.0),
            "red": DieColour((45.0, 60.0, 40.0), (3.0, 4.0, 4.0), 45.0),
        },
        play_area=((100.0, 50.0), (1180.0, 50.0), (1180.0, 670.0), (100.0, 670.0)),
        empty_table=Calibration.encode_image(table),
        exposure=Exposure(12000, 2.5, (1.9, 1.6), compensation=-2.0),
        created="2026-11-29T17:00:00+00:00",
    )
    fields.update(changes)
    return Calibration(**fields)


def test_save_and_load_give_the_same_calibration(tmp_path):
    calibration = make_calibration()
    path = tmp_path / "deeper" / "calibration.json"
    calibration.save(path)
    assert Calibration.load(path) == calibration
    assert json.loads(path.read_text())["version"] == 1


def test_empty_table_is_kept_small_without_loss_and_decodes_at_any_size():
    table = np.random.default_rng(1).integers(0, 255, (720, 1280, 3), dtype=np.uint8)
    calibration = make_calibration(empty_table=Calibration.encode_image(table))
    small = cv2.resize(table, (EMPTY_TABLE_WIDTH, 180), interpolation=cv2.INTER_AREA)
    np.testing.assert_array_equal(calibration.empty_table_image((EMPTY_TABLE_WIDTH, 180)), small)
    assert calibration.empty_table_image().shape == (720, 1280, 3)
    assert make_calibration(empty_table=None).empty_table_image() is None


def test_scaled_to_keeps_geometry_in_proportion():
    scaled = make_calibration().scaled_to(640, 360)
    assert scaled.resolution == (640, 360)
    assert scaled.die_size == pytest.approx(13.0)
    assert scaled.play_area[2] == pytest.approx((590.0, 335.0))
    assert scaled.colours == make_calibration().colours
    assert scaled.in_play_area((320, 180)) and not scaled.in_play_area((20, 20))
    assert scaled.play_area_mask().shape == (360, 640)


def test_scaled_to_another_aspect_ratio_is_refused_with_a_reason():
    with pytest.raises(CalibrationError, match="aspect ratio"):
        make_calibration().scaled_to(640, 480)


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not JSON"),
        ('{"format": "something else"}', "not a qwixx-table calibration"),
        ('{"format": "qwixx-table calibration", "version": 99}', "version 99"),
        ('{"format": "qwixx-table calibration", "version": 1, "resolution": [1280, 720]}', "missing field"),
    ],
)
def test_damaged_files_get_a_clear_error_naming_the_file(tmp_path, content, message):
    path = tmp_path / "calibration.json"
    path.write_text(content)
    with pytest.raises(CalibrationError, match=message) as error:
        Calibration.load(path)
    assert str(path) in str(error.value)


def test_impossible_values_in_a_file_are_refused(tmp_path):
    data = make_calibration().to_json()
    data["die_size"] = -3
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="die size"):
        Calibration.load(path)


def test_missing_file_says_how_to_make_one(tmp_path):
    with pytest.raises(CalibrationError, match="qwixx-table calibrate"):
        Calibration.load(tmp_path / "nothing.json")


def test_saving_over_an_old_file_replaces_it_whole(tmp_path):
    path = tmp_path / "calibration.json"
    make_calibration(die_size=20.0).save(path)
    make_calibration(die_size=30.0).save(path)
    assert Calibration.load(path).die_size == 30.0
    assert [p.name for p in tmp_path.iterdir()] == ["calibration.json"]


def test_default_path_follows_xdg_and_find_uses_it(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_path() == tmp_path / "qwixx-table" / "calibration.json"
    assert find() is None
    make_calibration().save(default_path())
    assert find() == make_calibration()
    with pytest.raises(CalibrationError):
        find(tmp_path / "elsewhere.json")


def test_exposure_becomes_picamera2_controls_and_back():
    exposure = Exposure(12000, 2.5, (1.9, 1.6), compensation=-2.0)
    assert exposure.as_controls() == {
        "AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6),
        "ExposureValue": -2.0,
    }
    assert Exposure.from_controls(exposure.as_controls()) == exposure
    # A file written before the exposure setting was found with none.
    assert Exposure.from_controls({"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6)}).compensation == 0


def test_a_focused_lens_is_kept_with_the_exposure_and_older_files_have_none(tmp_path):
    focused = Exposure(12000, 2.5, (1.9, 1.6), lens_position=1.5)
    assert focused.as_controls()["LensPosition"] == 1.5
    assert Exposure.from_controls(focused.as_controls()) == focused
    path = tmp_path / "calibration.json"
    make_calibration(exposure=focused).save(path)
    assert Calibration.load(path).exposure.lens_position == 1.5
    data = json.loads(path.read_text())
    del data["exposure"]["LensPosition"]  # written before the focus was locked
    path.write_text(json.dumps(data))
    assert Calibration.load(path).exposure == Exposure(12000, 2.5, (1.9, 1.6))
    assert "LensPosition" not in Calibration.load(path).exposure.as_controls()
    data["exposure"]["LensPosition"] = -1.0
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="lens position"):
        Calibration.load(path)


def test_a_calibration_fixes_the_camera_only_at_the_exposure_setting_it_was_made_with():
    found = make_calibration()
    assert locked_controls(found, -2.0)["ExposureTime"] == 12000
    assert locked_controls(found, 0.0) is None  # the setting changed: the camera settles afresh with it
    assert locked_controls(None, 0.0) is None


def test_to_lab_is_true_cielab():
    white, black, red = to_lab(np.array([[[255, 255, 255], [0, 0, 0], [0, 0, 255]]], np.uint8))[0]
    assert white == pytest.approx([100, 0, 0], abs=0.5)
    assert black == pytest.approx([0, 0, 0], abs=0.5)
    assert red == pytest.approx([53.2, 80.1, 67.2], abs=1.0)  # sRGB red, CIE D65


def test_white_balanced_makes_the_white_dice_grey_and_keeps_their_lightness():
    warm_white = (150, 190, 235)  # BGR of a white die under a warm lamp
    face = tuple(float(v) for v in to_lab(np.array([[warm_white]], np.uint8))[0, 0])
    colours = {"white": DieColour(face, (2.0, 1.0, 1.5), -60.0)}
    frame = np.array([[warm_white, (30, 60, 200), (0, 0, 0)]], np.uint8)
    balanced = make_calibration(colours=colours).white_balanced(frame)
    assert balanced.dtype == np.uint8 and balanced.shape == frame.shape
    assert np.ptp(balanced[0, 0].astype(int)) <= 2
    assert abs(int(balanced[0, 0].mean()) - int(np.mean(warm_white))) <= 2
    # Every pixel is scaled alike: the red die stays red, but less so than under the lamp.
    assert balanced[0, 1, 2] > balanced[0, 1, 0] and balanced[0, 1, 0] > frame[0, 1, 0]
    assert balanced[0, 2].tolist() == [0, 0, 0]


def test_white_balanced_leaves_the_frame_without_a_white_die_and_limits_the_gains():
    frame = np.full((4, 4, 3), (100, 100, 100), np.uint8)
    assert make_calibration(colours={}).white_balanced(frame) is frame
    blue_white = DieColour(tuple(float(v) for v in to_lab(np.array([[(250, 60, 10)]], np.uint8))[0, 0]),
                           (2.0, 1.0, 1.5), -60.0)
    balanced = make_calibration(colours={"white": blue_white}).white_balanced(frame)
    low, high = WHITE_BALANCE_LIMITS
    assert balanced[0, 0].tolist() == pytest.approx([100 * low, 100 * 1.78, 100 * high], abs=2)
