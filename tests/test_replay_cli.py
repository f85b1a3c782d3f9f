"""`qwixx-table replay FILE...`: one JSON line per file, exit 0 only when every file is a legal record."""
import io
import json

from web import cli

LEGAL = {"format": "qwixx-record/1", "variant": "standard", "players": ["Ann", "Bob", "Cy"],
         "turns": [{"roll": {"white": [2, 4], "red": 5, "yellow": 1, "green": 3, "blue": 6},
                    "white": {"Ann": ["red", 6], "Cy": ["green", 6]}, "colour": ["red", 9]}]}


def replay(capsys, *files):
    code = cli.main(["replay", *map(str, files)])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_all_legal_files_exit_zero(tmp_path, capsys):
    legal = tmp_path / "legal.json"
    legal.write_text(json.dumps(LEGAL))
    code, lines = replay(capsys, legal, legal)
    assert code == 0 and len(lines) == 2
    assert list(lines[0]) == ["file", "ok", "over", "end", "closed", "scores", "winners"]
    assert lines[0]["file"] == str(legal) and lines[0]["scores"]["Ann"]["total"] == 3


def test_one_bad_file_makes_exit_one_and_each_file_gets_its_line(tmp_path, capsys):
    legal, illegal, broken, text = (tmp_path / name for name in ("a.json", "b.json", "c.json", "d.txt"))
    legal.write_text(json.dumps(LEGAL))
    bad = json.loads(json.dumps(LEGAL))
    bad["turns"][0]["colour"] = ["red", 8]
    illegal.write_text(json.dumps(bad))
    broken.write_text('{"format": "qwixx-record/1", "players": ')
    text.write_text("hello")
    code, lines = replay(capsys, legal, illegal, broken, text, tmp_path / "missing.json")
    assert code == 1 and [line["ok"] for line in lines] == [True, False, False, False, False]
    assert lines[1] == {"file": str(illegal), "ok": False, "turn": 1, "player": "Ann", "rule": "wrong-sum",
                        "message": "Red 8 cannot be made from a white die and the red die: white 2 + red 5 = 7 or "
                                   "white 4 + red 5 = 9."}
    assert [line["rule"] for line in lines[2:]] == ["not-a-record"] * 3
    assert lines[2]["message"].startswith("Not JSON:") and "Cannot read the file" in lines[4]["message"]


def test_standard_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(LEGAL)))
    code, lines = replay(capsys, "-")
    assert code == 0 and lines[0]["file"] == "-" and lines[0]["ok"]


def test_json_python_cannot_hold_is_not_a_record_and_the_next_files_still_run(tmp_path, capsys):
    legal, deep, huge_number, with_bom = (tmp_path / name for name in ("a.json", "deep.json", "big.json", "bom.json"))
    legal.write_text(json.dumps(LEGAL))
    deep.write_text("[" * 100000 + "]" * 100000)
    huge_number.write_text('{"format": "qwixx-record/1", "n": 1' + "0" * 5000 + "}")
    with_bom.write_bytes(b"\xef\xbb\xbf" + json.dumps(LEGAL).encode())
    code, lines = replay(capsys, deep, huge_number, with_bom, legal)
    assert code == 1 and [line["ok"] for line in lines] == [False, False, True, True]
    assert [line["rule"] for line in lines[:2]] == ["not-a-record"] * 2
    assert "nested too deeply" in lines[0]["message"] and "digits" in lines[1]["message"]
