"""`qwixx-table read`: JSON lines, annotated copies, and an error line for a file that is not an image."""
import json
import math

import cv2
import numpy as np
import pytest

from web import cli


@pytest.fixture
def table_photo(tmp_path):
    frame = np.full((480, 640, 3), (140, 160, 180), np.uint8)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), frame)
    return path


def test_json_gives_one_object_per_image_and_errors_do_not_stop_the_rest(tmp_path, table_photo, capfd):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not really a jpeg")
    missing = tmp_path / "missing.png"
    folder = tmp_path / "photos"
    folder.mkdir()
    code = cli.main(["read", "--json", str(broken), str(table_photo), str(missing), str(folder)])
    out, err = capfd.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["file"] for line in lines] == [str(broken), str(table_photo), str(missing), str(folder)]
    assert "not a readable image" in lines[0]["error"]
    assert lines[1]["dice"] == [] and lines[1]["ms"] >= 0
    assert "no such file" in lines[2]["error"]
    assert "a folder, not an image" in lines[3]["error"]
    assert str(missing) not in err  # OpenCV is not asked for a file that is not there, so it warns of none
    assert code == 1
    grey = tmp_path / "grey.png"  # made colour, its dice would be named black or white, surely
    cv2.imwrite(str(grey), np.full((480, 640), 150, np.uint8))
    assert cli.main(["read", "--json", str(grey)]) == 1
    assert json.loads(capfd.readouterr().out)["error"] == "a grey-scale image: the dice's colours cannot be told in it"


def test_a_jpeg_cut_short_gets_an_error_line_and_one_with_a_trailer_is_read(tmp_path, capfd):
    photo = cv2.imencode(".jpg", np.random.default_rng(3).integers(0, 255, (480, 640, 3), dtype=np.uint8))[1].tobytes()
    cut, whole = tmp_path / "cut.jpg", tmp_path / "whole.jpg"
    cut.write_bytes(photo[:len(photo) * 6 // 10])  # copied in part: OpenCV greys the rest without an error
    whole.write_bytes(photo + b"trailer a camera appends \xff\xda")
    assert cli.main(["read", "--json", str(cut), str(whole)]) == 1
    cut_line, whole_line = (json.loads(line) for line in capfd.readouterr().out.splitlines())
    assert cut_line["error"] == "a JPEG cut short (its end is missing): copy the photo again"
    assert "error" not in whole_line and whole_line["dice"] == []


def test_annotate_writes_a_copy_of_each_image(tmp_path, table_photo, capsys):
    out = tmp_path / "annotated"
    assert cli.main(["read", str(table_photo), "--annotate", str(out)]) == 0
    written = cv2.imread(str(out / "table.png"))
    assert written is not None and written.shape == (480, 640, 3)
    assert "0 dice" in capsys.readouterr().out


def test_annotated_copies_that_cannot_be_written_are_said_so_without_a_traceback(tmp_path, table_photo, capsys):
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    assert cli.main(["read", str(table_photo), "--annotate", str(in_the_way)]) == 2
    assert capsys.readouterr().err.startswith(f"qwixx-table read: cannot write the annotated copies to {in_the_way}: ")


def test_photos_of_one_name_from_two_folders_are_annotated_apart(tmp_path, capsys):
    shades = {"near": (140, 160, 180), "far": (40, 60, 80)}
    paths = []
    for folder, shade in shades.items():
        (tmp_path / folder).mkdir()
        paths.append(tmp_path / folder / "table.jpg")
        cv2.imwrite(str(paths[-1]), np.full((480, 640, 3), shade, np.uint8))
    out = tmp_path / "annotated"
    assert cli.main(["read", *map(str, paths), "--annotate", str(out)]) == 0
    copies = [cv2.imread(str(out / name)) for name in ("table.png", "table-2.png")]
    for copy, shade in zip(copies, shades.values()):
        assert np.abs(copy[240, 320].astype(int) - shade).max() <= 3


def test_a_missing_calibration_file_is_a_clear_error(tmp_path, table_photo, capsys):
    assert cli.main(["read", str(table_photo), "--calibration", str(tmp_path / "nope.json")]) == 2
    assert "no such calibration file" in capsys.readouterr().err


def test_a_qwixx_roll_has_its_colours_named_together(tmp_path, capsys):
    """Under this cool lamp the yellow die looks white, one at a time (vision.colour.name_colour); as one roll each
    die is named its own colour, whether `--qwixx-roll` says the photo shows one or its six dice look like one."""
    from synth import CONDITIONS, random_scene, render
    from vision.colour import light_gain, measure_face, name_colour

    frame, truth = render(random_scene(9001, **CONDITIONS["cool"]))
    path = tmp_path / "cool.png"
    cv2.imwrite(str(path), frame)
    gain = light_gain(frame)
    one_at_a_time = [name_colour(measure_face(frame, *die.center, die.size_px), None, gain) for die in truth.in_frame()]
    assert one_at_a_time.count("white") == 3 and "yellow" not in one_at_a_time
    for flags in ([], ["--qwixx-roll"]):
        assert cli.main(["read", "--json", str(path), *flags]) == 0
        readings = json.loads(capsys.readouterr().out)["dice"]
        for die in truth.in_frame():
            (reading,) = [r for r in readings if math.dist(r["center"], die.center) < 10]
            assert reading["colour"] == die.colour, flags


def square(center, half):
    x, y = center
    return ((x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half))


def test_labels_go_beside_their_dice_covering_no_die_and_no_other_label():
    from vision.annotate import label_place

    # Two touching dice, the first at the frame's top edge: its label cannot go above it.
    dice = [(100, 0, 130, 30), (130, 0, 160, 30)]
    taken = list(dice)
    for die in dice:
        label = label_place(die, (70, 16), taken, (640, 480))
        x0, y0, x1, y1 = label
        assert 0 <= x0 and x1 <= 640 and 0 <= y0 and y1 <= 480 and (x1 - x0, y1 - y0) == (70, 16)
        assert all(min(x1, o[2]) <= max(x0, o[0]) or min(y1, o[3]) <= max(y0, o[1]) for o in taken), (label, taken)
        taken.append(label)


def test_an_annotated_copy_outlines_each_die_and_leaves_the_dice_uncovered():
    from vision.annotate import annotate
    from vision.readings import DieReading

    frame = np.full((240, 320, 3), (150, 150, 150), np.uint8)
    black = DieReading("black", 5, 0.95, (60.0, 20.0), square((60.0, 20.0), 12.0))
    beside = DieReading("red", None, 0.4, (88.0, 20.0), square((88.0, 20.0), 12.0), problem="cocked")
    out = annotate(frame, [black, beside])
    # A dark die's outline gets a light rim, so that it shows on the die.
    assert (out[5:12, 45:75] == 255).all(axis=2).any()
    # Inside each outline the frame is as it was: no label lies on a die.
    for reading in (black, beside):
        x, y = map(int, reading.center)
        assert (out[y - 8:y + 9, x - 8:x + 9] == 150).all()
    assert (out != frame).any(axis=2).sum() > 0
