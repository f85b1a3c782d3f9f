"""The reader on real photos (tests/data/photos, BSD-licensed, never trained on), and the read command on one.

Thresholds are what the reader does today (no wrong value, at least half the dice read), well below
the issue's goal of 95%: they guard against getting worse.
"""
import json
from pathlib import Path

import cv2
import pytest

from vision import DiceReader, DieReading
from vision.scoring import TruthDie, score
from web import cli

PHOTOS = Path(__file__).parent / "data" / "photos"
LABELS = json.loads((PHOTOS / "labels.json").read_text())


@pytest.fixture(scope="module")
def reader():
    return DiceReader()


@pytest.mark.parametrize("photo", LABELS, ids=[p["file"] for p in LABELS])
def test_real_photos_are_read_without_a_wrong_value(reader, photo):
    truth = [TruthDie(d["value"], tuple(d["bbox"]), d.get("color")) for d in photo["dice"]]
    counts = score(truth, reader.read(cv2.imread(str(PHOTOS / photo["file"]))))
    assert counts["confident-wrong"] == 0, counts
    assert counts["correct"] >= 0.45 * len(truth), counts
    assert counts["missed"] <= 0.15 * len(truth), counts
    assert counts["false"] <= 3, counts


def test_read_json_on_a_photo_reports_every_die(capsys):
    photo = LABELS[0]
    assert cli.main(["read", "--json", str(PHOTOS / photo["file"])]) == 0
    line = json.loads(capsys.readouterr().out)
    readings = [DieReading.from_json(die) for die in line["dice"]]
    truth = [TruthDie(d["value"], tuple(d["bbox"]), d.get("color")) for d in photo["dice"]]
    assert score(truth, readings)["missed"] == 0
    for die in line["dice"]:
        assert set(die) == {"colour", "value", "confidence", "center", "corners", "problem"}
        assert len(die["corners"]) == 4
