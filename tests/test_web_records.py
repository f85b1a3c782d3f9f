"""Finished games are kept and listed; a game exports as a `qwixx-record/1` record, and a record can be loaded
and replayed step by step."""
from __future__ import annotations

import json

from referee import Record
from tests.test_web_api import finish_by_penalties
from tests.web_helpers import ROLL, phone, public_state, start_game

RECORD = {"format": "qwixx-record/1", "variant": "standard", "players": ["Ann", "Bob", "Cy"],
          "turns": [{"roll": ROLL, "white": {"Ann": ["red", 6], "Cy": ["green", 6]}, "colour": ["red", 9]}]}


def test_a_finished_game_is_listed_and_its_record_replays_to_the_same_scores(app, host, table):
    start_game(host, players=("Ann", "Bob"), starter=1)  # Bob starts: the record lists him first
    phone(app, 0)
    finish_by_penalties(host, table)
    [listed] = host.get("/api/games").json["games"]
    assert listed["result"]["end"] == "four-penalties" and listed["result"]["winners"] == ["Ann"]
    response = host.get(f"/api/games/{listed['id']}/record")
    assert "attachment" in response.headers["Content-Disposition"]
    record = Record.loads(response.get_data(as_text=True))
    assert record.players == ("Bob", "Ann")
    replayed = record.replay()
    assert {seat: score.total for seat, score in replayed.scores().items()} == {"Bob": -20, "Ann": -15}


def test_a_record_is_loaded_and_stepped_through(app, host, table):
    answer = host.post("/api/records", json=RECORD)
    assert answer.status_code == 201
    game_id = answer.json["id"]
    assert table.session is None  # a loaded record is not the game at the table
    steps = host.get(f"/api/games/{game_id}/replay").json["steps"]
    assert steps[0] == "Ann rolled white 2 and 4, sum 6; red 5, yellow 1, green 3, blue 6."
    assert steps[3] == "White sum 6: Ann marked red 6; Cy marked green 6; Bob passed."
    start = host.get(f"/api/games/{game_id}/replay/0").json["game"]
    assert start["phase"] == "roll" and start["sheets"][0]["score"]["total"] == 0
    end = host.get(f"/api/games/{game_id}/replay/{len(steps)}").json["game"]
    assert end["sheets"][0]["rows"][0]["marks"] == [6, 9] and end["roller"] == 1
    exported = json.loads(host.get(f"/api/games/{game_id}/record").get_data(as_text=True))
    assert exported == RECORD
    assert app.test_client().get(f"/games/{game_id}").status_code == 200


def test_a_loaded_records_tags_are_saved_with_it_again(app, host):
    tagged = {**RECORD, "tags": {"date": "2026-12-07", "place": "Kitchen table"}}
    game_id = host.post("/api/records", json=tagged).json["id"]
    assert json.loads(host.get(f"/api/games/{game_id}/record").get_data(as_text=True)) == tagged


def test_a_bad_record_is_refused_with_the_rule_and_where_and_nothing_is_kept(app, host, table):
    illegal = {**RECORD, "turns": [{"roll": ROLL, "white": {"Ann": ["red", 7]}}]}
    response = host.post("/api/records", json=illegal)
    assert response.status_code == 422 and response.json["error"] == "wrong-sum"
    assert response.json["message"].startswith("The record breaks a rule at turn 1 (Ann): The white dice show")
    response = host.post("/api/records", json={"format": "qwixx-record/9"})
    assert response.status_code == 400 and response.json["error"] == "not-a-record"
    assert host.post("/api/records", data="{", content_type="application/json").json["error"] == "not-a-record"
    too_big = {**RECORD, "tags": {"note": "x" * 300_000}}
    assert host.post("/api/records", json=too_big).status_code == 413
    assert app.test_client().post("/api/records", json=RECORD).status_code == 403
    for name, problem in (("A" * 500, "must be 1 to 24 characters long"), ("Ann\x07", "has characters that are not allowed")):
        renamed = json.loads(json.dumps(RECORD).replace('"Ann"', json.dumps(name)))  # the setup page refuses both
        response = host.post("/api/records", json=renamed)
        assert response.status_code == 400 and response.json["message"] == f"A player's name in the record {problem}."
    assert host.get("/api/games").json["games"] == [] and table.store.latest_game_id() is None


def test_unknown_games_are_404_with_a_message(app, host):
    assert host.get("/api/games/99/record").json["message"] == "There is no game 99."
    assert host.get("/api/games/99/replay/3").status_code == 404
    assert host.get("/games/99").status_code == 404


def test_replaying_a_step_changes_nothing_at_the_table(app, host, table):
    start_game(host)
    host.post("/api/dice", json=ROLL)
    before = public_state(table)
    assert host.get(f"/api/games/{table.session.game_id}/replay/1").json["game"]["white_sum"] == 6
    assert public_state(table) == before
