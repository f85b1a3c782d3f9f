"""The dev photos' labels as the benchmarks and training read them: published values a photo plainly contradicts
are corrected (vision.training.devset.LABEL_FIXES), and only those."""
import json

import pytest

from vision.training import devset

(FIXED_NAME, FIXED_BOX), (PUBLISHED, SEEN) = next(iter(devset.LABEL_FIXES.items()))


def test_a_value_listed_as_wrong_is_read_as_the_photo_shows_it_and_the_rest_as_published(tmp_path):
    other_box = [box + 100 for box in FIXED_BOX]
    (tmp_path / "values.json").write_text(json.dumps([
        {"file": FIXED_NAME, "dice": [{"value": PUBLISHED, "bbox": list(FIXED_BOX)},
                                      {"value": PUBLISHED, "bbox": other_box}]},
        {"file": "elsewhere.jpg", "dice": [{"value": PUBLISHED, "bbox": list(FIXED_BOX)}]},
    ]))
    fixed, elsewhere = devset.load_labels(tmp_path / "values.json")
    assert [die.value for die in fixed.dice] == [SEEN, PUBLISHED]
    assert [die.value for die in elsewhere.dice] == [PUBLISHED]


def test_a_fix_no_longer_applies_once_the_published_value_changes(tmp_path):
    changed = next(value for value in range(1, 7) if value not in (PUBLISHED, SEEN))
    (tmp_path / "values.json").write_text(json.dumps([
        {"file": FIXED_NAME, "dice": [{"value": changed, "bbox": list(FIXED_BOX)}]}]))
    assert [die.value for die in devset.load_labels(tmp_path / "values.json")[0].dice] == [changed]


def test_every_fix_names_one_published_die_of_the_dev_photos():
    root = devset.find_shared_dev()
    if root is None:
        pytest.skip("the dev photos (shared/dice-photos/dev) are not beside this checkout")
    published = [(entry["file"], tuple(die["bbox"]), die["value"])
                 for label_file in ("values.json", "labels.json")
                 for entry in json.loads((root / label_file).read_text()) for die in entry["dice"] if "bbox" in die]
    for (name, box), (was, seen) in devset.LABEL_FIXES.items():
        assert published.count((name, box, was)) == 1, (name, box)
        assert was != seen
