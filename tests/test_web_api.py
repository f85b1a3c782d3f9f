"""The HTTP API through Flask's test client: a game played by phones, who may do what, and refusals that
change nothing."""
from __future__ import annotations

import json
import time

import pytest

from tests.web_helpers import PIN, ROLL, phone, public_state, start_game
from web.app import create_app
from web.auth import HOST_COOKIE, HOST_LOGIN_S


def play_white_sum(app, host):
    """Ann, Bob and Cy at the table, each on a phone; the roll is typed by the host."""
    start_game(host)
    phones = [phone(app, person) for person in range(3)]
    assert host.post("/api/dice", json=ROLL).status_code == 200
    return phones


def test_a_turn_played_from_three_phones(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    state = bob.post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 6}).json
    assert state["game"]["waiting_for"] == [0, 2]
    # Action 1 is simultaneous: Bob's mark is held (his own phone sees it) until everyone has decided.
    assert state["game"]["sheets"][1]["rows"][0]["marks"] == []
    assert bob.get("/api/me").json["pending"] == {"1": {"action": "mark", "player": "Bob", "colour": "red", "number": 6}}
    ann.post("/api/act", json={"seat": 0, "action": "pass"})
    state = cy.post("/api/act", json={"seat": 2, "action": "mark", "colour": "green", "number": 6}).json["game"]
    assert state["phase"] == "colour" and state["waiting_for"] == [0]
    assert state["sheets"][1]["rows"][0]["marks"] == [6]
    options = state["options"][0]
    assert options[0]["action"] == {"action": "mark", "player": "Ann", "colour": "red", "number": 7}  # white 2 + red 5
    assert options[0]["cost"] == "skips 5" and options[0]["dice"] == [["white", 2], ["red", 5]]
    assert options[-1]["action"]["action"] == "pass" and options[-1]["penalty"] is True
    state = ann.post("/api/act", json={"seat": 0, "action": "mark", "colour": "red", "number": 9}).json["game"]
    assert state["phase"] == "roll" and state["roller"] == 1
    assert state["sheets"][0]["score"]["total"] == 1
    assert [item["kind"] for item in state["news"]] == ["roll", "decided", "decided", "turn"]
    assert state["news"][1]["text"] == "White sum 6: Bob marked red 6; Cy marked green 6; Ann passed."


def test_every_state_is_numbered_so_a_page_can_keep_the_newest(app, host, table):
    """An action's answer carries the number of the state it published, the same as the live update's, and each
    change counts up: a page that gets the two in either order keeps the newer (common.js isNewer)."""
    ann, bob, cy = play_white_sum(app, host)
    answer = bob.post("/api/act", json={"seat": 1, "action": "pass"}).json
    version, published = table.live.latest()
    assert answer["version"] == version == json.loads(published)["version"] and answer["boot"] == table.boot
    later = cy.post("/api/act", json={"seat": 2, "action": "pass"}).json
    assert later["version"] > answer["version"] and later["game"]["waiting_for"] == [0]
    refused = bob.post("/api/act", json={"seat": 1, "action": "pass"})
    assert refused.status_code == 409 and bob.get("/api/state").json["version"] == later["version"]


def test_a_phone_acts_only_for_its_own_seat(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    before = public_state(table)
    response = bob.post("/api/act", json={"seat": 0, "action": "pass"})
    assert response.status_code == 403 and "Ann" in response.json["message"]
    stranger = app.test_client()
    assert stranger.post("/api/act", json={"seat": 2, "action": "pass"}).status_code == 403
    assert public_state(table) == before


def test_the_host_may_act_for_a_player_without_a_phone(app, host, table):
    play_white_sum(app, host)
    assert host.post("/api/act", json={"seat": 2, "action": "pass"}).status_code == 200
    assert table.session.log[-1]["by"] == "host"


def test_a_seat_already_taken_needs_the_host_to_move(app, host, table):
    start_game(host)
    first = phone(app, 0)
    second = app.test_client()
    response = second.post("/api/join", json={"person": 0})
    assert response.status_code == 409 and response.json["error"] == "seat-taken"
    moved = host.post("/api/join", json={"person": 0})
    assert moved.status_code == 200 and moved.json["seats"] == [0]
    assert first.get("/api/me").json["seats"] == []  # the old phone lost the seat


def test_a_phone_takes_a_second_person_only_with_the_host(app, host, table):
    """Else one phone could take everyone who has not joined yet, and see their held decisions."""
    start_game(host)
    bob = phone(app, 1)
    response = bob.post("/api/join", json={"person": 2})
    assert response.status_code == 409 and response.json["error"] == "phone-taken"
    assert "already plays Bob" in response.json["message"]
    assert bob.get("/api/me").json["seats"] == [1] and table.store.joined_people(table.session.game_id) == {1}
    assert bob.post("/api/join", json={"person": 1}).status_code == 200  # its own person again: nothing to approve
    approved = bob.post("/api/join", json={"person": 2, "pin": PIN})
    assert approved.status_code == 200 and approved.json["seats"] == [1, 2]


def test_the_pin_typed_to_move_a_player_approves_that_move_alone(app, host, table):
    start_game(host)
    old = phone(app, 0)
    new = app.test_client()
    wrong = new.post("/api/join", json={"person": 0, "pin": "000000"})
    assert wrong.status_code == 403 and wrong.json["error"] == "wrong-pin"
    assert old.get("/api/me").json["seats"] == [0]
    moved = new.post("/api/join", json={"person": 0, "pin": PIN})
    assert moved.status_code == 200 and moved.json["seats"] == [0] and moved.json["host"] is False
    assert old.get("/api/me").json["seats"] == []
    assert new.get("/api/me").json["host"] is False
    assert new.post("/api/undo").json["error"] == "host-only"


def test_a_host_browser_locks_its_host_controls(app, host, table):
    assert table.state()["host_unlocked"] is True
    response = host.post("/api/host/lock")
    assert response.status_code == 200 and host.get_cookie(HOST_COOKIE) is None
    assert host.get("/api/me").json["host"] is False
    assert host.post("/api/games", json={"players": ["Ann", "Bob"]}).json["error"] == "host-only"
    assert table.state()["host_unlocked"] is False  # the device's own table screen shows the PIN again


def test_a_host_login_lasts_an_evening(app, host, table):
    token = host.get_cookie(HOST_COOKIE).value
    assert table.is_host_token(token)
    table.clock = lambda: time.time() + HOST_LOGIN_S + 1
    assert not table.is_host_token(token) and table.state()["host_unlocked"] is False
    assert host.get("/api/me").json["host"] is False


def test_a_choice_made_on_a_page_behind_the_table_is_not_taken_for_the_next_decision(app, host, table):
    """Ann taps the white sum's Pass as her time runs out: the table passed for her already, and her tap arrived as
    her coloured-dice pass, with a penalty she was never shown."""
    ann, bob, cy = play_white_sum(app, host)
    shown = table.state()["game"]["moment"]
    for phone_, seat in ((bob, 1), (cy, 2)):  # deciding at the same moment is fine
        assert phone_.post("/api/act", json={"seat": seat, "action": "pass", "moment": shown}).status_code == 200
    assert host.post("/api/act", json={"seat": 0, "action": "pass"}).status_code == 200  # the timer, say
    before = public_state(table)
    response = ann.post("/api/act", json={"seat": 0, "action": "pass", "moment": shown})
    assert response.status_code == 409 and response.json["error"] == "moved-on"
    assert public_state(table) == before and table.session.game.score("Ann").penalties == 0
    assert ann.post("/api/act", json={"seat": 0, "action": "pass",
                                      "moment": table.state()["game"]["moment"]}).status_code == 200


def test_a_choice_made_before_a_die_was_rolled_again_is_not_taken_for_the_new_dice(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    shown = table.state()["game"]["moment"]
    assert host.post("/api/reroll", json={"dice": {"white2": 6}}).status_code == 200  # the white sum is 8 now
    response = cy.post("/api/act", json={"seat": 2, "action": "pass", "moment": shown})
    assert response.status_code == 409 and response.json["error"] == "moved-on"


def test_with_two_sheets_each_person_rolls_once_a_round_in_the_roll_off(app, host, table):
    """Ruling 8: each rolls one die in turn. Seat by seat, Ann rolled twice a round, and a 6 on her second sheet was
    announced as 'Ann 2 rolled a 6 and starts. Ann 1 rolls the dice.'"""
    start_game(host, players=("Ann", "Bob"), variant="two-sheets", starter=None)
    ann = phone(app, 0)
    assert table.state()["game"]["rolloff_seat"] == 0 and ann.get("/api/me").json["seats"] == [0, 2]
    for value in (1, 2):
        assert host.post("/api/roll-off", json={"value": value}).status_code == 200
    game = table.state()["game"]
    assert game["rolloff_seat"] == 0 and game["seats"] == ["Ann 1", "Bob 1", "Ann 2", "Bob 2"]  # Ann again
    game = host.post("/api/roll-off", json={"value": 6}).json["game"]
    assert game["phase"] == "roll" and game["seats"][game["roller"]] == "Ann 1"
    assert game["news"][-1]["text"].startswith("Ann 1 rolled a 6 and starts.")


def test_an_illegal_mark_names_the_rule_and_changes_nothing(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    before = public_state(table)
    response = bob.post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 8})
    assert response.status_code == 409
    assert response.json["rule"] == "wrong-sum"
    assert response.json["message"] == "The white dice show 2 + 4 = 6, so this action can mark only a 6, not 8."
    assert public_state(table) == before


def test_why_explains_a_box_without_changing_anything(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    bob.post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 6})
    before = public_state(table)
    answer = cy.post("/api/why", json={"seat": 2, "colour": "yellow", "number": 8}).json
    assert answer == {"legal": False, "rule": "wrong-sum",
                      "message": "The white dice show 2 + 4 = 6, so this action can mark only a 6, not 8."}
    assert cy.post("/api/why", json={"seat": 2, "colour": "yellow", "number": 6}).json["legal"] is True
    assert public_state(table) == before


def test_a_player_changes_their_mind_before_everyone_decided(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    bob.post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 6})
    state = bob.post("/api/retract", json={"seat": 1}).json["game"]
    assert 1 in state["waiting_for"]
    assert bob.post("/api/act", json={"seat": 1, "action": "mark", "colour": "blue", "number": 6}).status_code == 200


def test_undo_is_for_the_host_and_takes_back_one_step(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    for seat, client in enumerate((ann, bob, cy)):
        client.post("/api/act", json={"seat": seat, "action": "pass"})
    assert table.session.phase == "colour"
    assert ann.post("/api/undo").status_code == 403
    state = host.post("/api/undo").json["game"]
    assert state["phase"] == "white" and state["waiting_for"] == [2]
    assert state["news"][-1]["text"] == "Undone: Cy's pass."


def test_the_undo_button_and_its_news_keep_a_white_sum_decision_hidden_until_everyone_decided(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    bob.post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 6})
    assert table.state()["game"]["undo_label"] == "Bob's decision on the white sum"
    state = host.post("/api/undo").json["game"]
    assert state["news"][-1]["text"] == "Undone: Bob's decision on the white sum."
    shown = json.dumps(public_state(table))
    assert "Bob's mark" not in shown and "Bob marked" not in shown


def test_typed_dice_correct_a_misread_roll_before_anyone_decides(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    corrected = {**ROLL, "white": [3, 4]}
    state = host.post("/api/dice", json=corrected).json["game"]
    assert state["white_sum"] == 7 and state["rolls"] == 1
    bob.post("/api/act", json={"seat": 1, "action": "pass"})
    response = host.post("/api/dice", json=ROLL)
    assert response.status_code == 409 and response.json["rule"] == "wrong-phase"


def test_setup_and_host_actions_need_the_pin(app, table):
    client = app.test_client()
    response = client.post("/api/games", json={"players": ["Ann", "Bob"]})
    assert response.status_code == 403 and response.json["error"] == "host-only"
    assert client.post("/api/host", json={"pin": "000000"}).status_code == 403
    assert table.session is None


def test_wrong_pins_pause_pin_entry_from_that_device_alone(app):
    guesser = app.test_client()
    for _ in range(5):
        assert guesser.post("/api/host", json={"pin": "111111"}).status_code == 403
    response = guesser.post("/api/host", json={"pin": PIN})
    assert response.status_code == 429 and "try again" in response.json["message"]
    # A stranger's wrong PINs do not keep the host out.
    host_phone = app.test_client()
    host_phone.environ_base["REMOTE_ADDR"] = "192.168.1.20"
    assert host_phone.post("/api/host", json={"pin": PIN}).status_code == 200


def test_the_pin_is_made_once_and_kept(tmp_path):
    database = str(tmp_path / "made.sqlite")
    first = create_app({"TESTING": True, "DATABASE": database}).extensions["qwixx"].pin
    again = create_app({"TESTING": True, "DATABASE": database}).extensions["qwixx"].pin
    assert len(first) == 6 and first.isdigit() and first == again


def test_tokens_are_cookies_kept_only_as_hashes(app, host, table):
    start_game(host)
    client = app.test_client()
    client.post("/api/join", json={"person": 0})
    token = client.get_cookie("qwixx_seat")
    assert token.http_only and token.same_site == "Strict" and len(token.value) >= 40
    dump = "\n".join(table.store._db.iterdump())
    assert token.value not in dump and host.get_cookie("qwixx_host").value not in dump


BAD_REQUESTS = [
    ("/api/act", {"seat": 1, "action": "mark", "colour": "red"}, "needs a colour and a number"),
    ("/api/act", {"seat": 1, "action": "pass", "colour": "red"}, "has no colour"),
    ("/api/act", {"seat": 1, "action": "jump"}, "action must be one of"),
    ("/api/act", {"seat": "1", "action": "pass"}, "seat must be a whole number"),
    ("/api/act", {"seat": True, "action": "pass"}, "seat must be a whole number"),
    ("/api/act", {"seat": 99, "action": "pass"}, "between 0 and 9"),
    ("/api/act", {"seat": 1, "action": "mark", "colour": "purple", "number": 6}, "colour must be one of"),
    ("/api/act", {"seat": 1, "action": "mark", "colour": "red", "number": 13}, "between 2 and 12"),
    ("/api/act", {"seat": 1, "action": "pass", "sneaky": 1}, "unknown fields: sneaky"),
    ("/api/act", [1, 2], "must be a JSON object"),
    ("/api/dice", {"white": [2], "red": 5, "yellow": 1, "green": 3, "blue": 6}, "2 to 2 entries"),
    ("/api/dice", {"white": [2, 7], "red": 5, "yellow": 1, "green": 3, "blue": 6}, "between 1 and 6"),
    ("/api/dice", {"white": [2, 4], "purple": 5}, "unknown fields"),
    ("/api/games", {"players": ["Ann"]}, "2 to 10 entries"),
    ("/api/games", {"players": ["Ann", "<script>"]}, "not allowed"),
    ("/api/games", {"players": ["Ann", "Bob"], "variant": "chaos"}, "variant must be one of"),
    ("/api/games", {"players": ["Ann", "Ann"]}, "different name"),
    ("/api/games", {"players": ["Ann", "Bob", "Cy"], "variant": "partners"}, "even number"),
    ("/api/games", {"players": ["Ann", "Bob"], "timer": -1}, "between 0 and 600"),
    ("/api/games", {"players": ["Ann", "Bob"], "starter": 4}, "The starter must be one of the 2 seats, 0 to 1"),
    ("/api/games", {"players": ["Ann", "Bob", "Cy", "Dee"], "variant": "partners", "starter": 3}, "one of the 2 seats"),
    ("/api/join", {"person": 7}, "person must be between 0 and 2"),
    ("/api/undo", {"steps": 3}, "unknown fields"),
    ("/api/host", {"pin": 246810}, "pin must be text"),
]


@pytest.mark.parametrize("path, body, message", BAD_REQUESTS)
def test_a_bad_request_is_refused_with_a_message_and_changes_nothing(app, host, table, path, body, message):
    play_white_sum(app, host)
    before = public_state(table)
    response = host.post(path, json=body)
    assert 400 <= response.status_code < 500
    assert message in response.json["message"], response.json
    assert public_state(table) == before


def test_not_json_too_large_and_unknown_addresses_are_json_refusals(app, host, table):
    play_white_sum(app, host)
    before = public_state(table)
    assert host.post("/api/act", data="seat=1", content_type="application/x-www-form-urlencoded").status_code == 415
    assert host.post("/api/act", data="{not json", content_type="application/json").json["error"] == "bad-json"
    deep = host.post("/api/act", data="[" * 100_000 + "]" * 100_000, content_type="application/json")
    assert deep.status_code == 400 and deep.json["error"] == "bad-json"
    huge = host.post("/api/dice", data="[" + "1," * 200_000 + "1]", content_type="application/json")
    assert huge.status_code == 413 and "too large" in huge.json["message"]
    assert host.get("/api/nothing").json["message"] == "There is nothing at this address."
    assert host.get("/api/act").status_code == 405
    assert public_state(table) == before


def test_a_restart_resumes_the_game_exactly(app, host, table, database):
    ann, bob, cy = play_white_sum(app, host)
    bob.post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 6})
    before = public_state(table)
    restarted = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN})
    after = public_state(restarted.extensions["qwixx"])
    assert {**after, "boot": None} == {**before, "boot": None}
    # The phones keep their seats and the held decision.
    assert restarted.test_client().post("/api/act", json={"seat": 1, "action": "pass"}).status_code == 403
    bob_again = restarted.test_client()
    bob_again.set_cookie("qwixx_seat", bob.get_cookie("qwixx_seat").value)
    assert bob_again.get("/api/me").json["pending"]["1"]["number"] == 6


def test_an_action_that_cannot_be_stored_is_refused_and_memory_stays_as_stored(app, host, table, database):
    ann, bob, cy = play_white_sum(app, host)
    before = public_state(table)
    table.store._db.execute("PRAGMA query_only = ON")  # the database refuses writes, as a read-only file does
    response = bob.post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 6})
    assert response.status_code == 503 and "could not be saved" in response.json["message"]
    assert public_state(table) == before
    table.store._db.execute("PRAGMA query_only = OFF")
    assert bob.post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 6}).status_code == 200
    restarted = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN}).extensions["qwixx"]
    assert restarted.session.log == table.session.log


def test_a_damaged_database_is_kept_aside_and_a_fresh_one_started(tmp_path):
    database = tmp_path / "qwixx.sqlite"
    database.write_bytes(b"this is not a database" * 100)
    app = create_app({"TESTING": True, "DATABASE": str(database), "HOST_PIN": PIN})
    table = app.extensions["qwixx"]
    kept = list(tmp_path.glob("qwixx.sqlite.damaged-*"))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not a database")
    assert "could not be used" in table.state()["notice"]
    host = app.test_client()
    host.post("/api/host", json={"pin": PIN})
    start_game(host)


def test_the_decision_timer_passes_for_the_slow(app, host, table):
    now = [1000.0]
    table.clock = lambda: now[0]
    ann, bob, cy = play_white_sum(app, host)
    host.post("/api/games/end")
    start_game(host, timer=30)
    host.post("/api/dice", json=ROLL)
    assert table.state()["timer"] == {"seconds": 30, "ends_at": 1030.0}
    phone(app, 1).post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 6})
    now[0] = 1029.0
    table.tick()
    assert table.session.game.waiting_for == ("Ann", "Cy")
    now[0] = 1030.5
    table.tick()
    game = table.state()["game"]
    assert game["phase"] == "colour" and game["sheets"][1]["rows"][0]["marks"] == [6]
    assert [entry["by"] for entry in table.session.log[-2:]] == ["timer", "timer"]
    texts = [item["text"] for item in game["news"]]
    assert "Time is up: the table passes for Ann." in texts and "Time is up: the table passes for Cy." in texts
    assert table.state()["timer"]["ends_at"] == 1060.5  # the roller's own choice gets its time too


def test_the_decision_timer_starts_again_on_corrected_or_rerolled_dice_and_after_an_undo(app, host, table):
    now = [1000.0]
    table.clock = lambda: now[0]
    start_game(host, timer=30)
    host.post("/api/dice", json=ROLL)
    now[0] = 1020.0
    assert host.post("/api/dice", json={**ROLL, "red": 6}).status_code == 200  # the host corrects a misread die
    assert table.state()["timer"]["ends_at"] == 1050.0
    now[0] = 1040.0
    assert host.post("/api/reroll", json={"dice": {"blue": 2}}).status_code == 200  # ruling 9
    assert table.state()["timer"]["ends_at"] == 1070.0
    phone(app, 1).post("/api/act", json={"seat": 1, "action": "mark", "colour": "red", "number": 6})
    now[0] = 1060.0
    assert table.state()["timer"]["ends_at"] == 1070.0  # a player's decision leaves the others' time as it is
    assert host.post("/api/undo").status_code == 200  # Bob takes his mark back
    assert table.state()["timer"]["ends_at"] == 1090.0
    now[0] = 1075.0
    table.tick()
    assert table.session.game.waiting_for == ("Ann", "Bob", "Cy")  # no one passed by the first dice's clock


def test_a_three_game_match_moves_the_starter_and_adds_the_totals(app, host, table):
    start_game(host, players=("Ann", "Bob"), match=True)
    ann = phone(app, 0)
    finish_by_penalties(host, table)  # Ann starts and takes the fourth penalty: Ann -20, Bob -15
    state = host.post("/api/games/again").json["game"]
    assert state["match"]["game"] == 2 and state["roller"] == 1 and state["phase"] == "roll"
    assert table.store.ended_games() == []  # the match goes on
    finish_by_penalties(host, table)  # Bob starts: Bob -20, Ann -15
    assert host.post("/api/games/again").json["game"]["roller"] == 0
    finish_by_penalties(host, table)  # Ann starts again: Ann -20, Bob -15
    state = table.state()["game"]
    assert state["finished"] and state["match"]["totals"] == [-55, -50]
    assert state["over"]["text"].endswith("The match: Bob wins with -50 points in all.")
    [match] = table.store.ended_games()
    assert match.result["match_winners"] == ["Bob"]
    host.post("/api/games/again")
    assert table.state()["game"]["match"]["game"] == 1
    assert ann.get("/api/me").json["seats"] == [1]  # Bob, left of the last starter, starts: Ann is seat 1


def test_play_again_after_a_match_starts_left_of_the_matchs_last_starter(app, host, table):
    start_game(host, match=True)  # Ann, Bob and Cy start the three games in turn
    for _ in range(3):
        finish_by_penalties(host, table)
        host.post("/api/games/again")
    assert table.state()["game"]["match"]["game"] == 1 and table.session.game.seats[0] == "Ann"
    host.post("/api/games/end")
    start_game(host, players=("Ann", "Bob"), variant="two-sheets", match=True)  # Ann 1, Bob 1, Ann 2 start
    for _ in range(3):
        finish_by_penalties(host, table)
        host.post("/api/games/again")
    assert table.session.game.seats[0] == "Bob 1"  # Bob, left of Ann 2, starts with his first sheet


def finish_by_penalties(host, table):
    """Everyone passes every time: the roller's fourth penalty ends the game."""
    while not table.session.over:
        assert host.post("/api/dice", json={"white": [1, 1], "red": 1, "yellow": 1, "green": 1, "blue": 1}).status_code == 200
        while table.session.game.waiting_for:
            seat = table.session.seat_index(table.session.game.waiting_for[0])
            assert host.post("/api/act", json={"seat": seat, "action": "pass"}).status_code == 200


def test_two_sheets_each_gives_a_person_both_seats_and_partners_share_one(app, host, table):
    start_game(host, players=("Ann", "Bob"), variant="two-sheets")
    assert phone(app, 0).get("/api/me").json["seats"] == [0, 2]
    start_game(host, players=("Ann", "Bob", "Cy", "Dee"), variant="partners")
    assert table.state()["game"]["seats"] == ["Ann & Bob", "Cy & Dee"]
    assert phone(app, 1).get("/api/me").json["seats"] == [0]
    assert phone(app, 0).get("/api/me").json["seats"] == [0]


def test_a_game_ended_early_is_listed_with_its_scores_once_anything_was_played(app, host, table):
    start_game(host)
    assert phone(app, 0).post("/api/games/end").status_code == 403
    assert host.post("/api/games/end").json["game"] is None  # ended before the first roll: nothing to list
    assert table.store.ended_games() == [] and table.store.latest_game_id() is None
    start_game(host)
    host.post("/api/dice", json=ROLL)
    for seat, action in ((0, {"action": "mark", "colour": "red", "number": 6}), (1, {"action": "pass"}),
                         (2, {"action": "pass"})):
        assert host.post("/api/act", json={"seat": seat, **action}).status_code == 200
    start_game(host, players=("Ann", "Bob"))  # a new game ends the one being played
    host.post("/api/games/end")
    games = host.get("/api/games").json["games"]
    assert len(games) == 1
    [ended] = games
    assert ended["origin"] == "abandoned" and ended["result"]["end"] is None and ended["result"]["winners"] == []
    assert ended["result"]["scores"]["Ann"]["total"] == 1 and ended["result"]["seats"] == ["Ann", "Bob", "Cy"]
    assert any("Ann marked red 6" in step for step in host.get(f"/api/games/{ended['id']}/replay").json["steps"])


def test_the_host_types_single_re_rolled_dice_and_the_others_keep_their_values(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    assert ann.post("/api/reroll", json={"dice": {"red": 2}}).status_code == 403
    state = host.post("/api/reroll", json={"dice": {"red": 2, "white1": 6}}).json["game"]
    assert state["dice"] == {**ROLL, "white": [6, 4], "red": 2} and state["white_sum"] == 10
    assert state["news"][-1]["text"].startswith("The host set the dice: the first white die from 2 to 6, red from 5 to 2.")
    assert table.session.log[-1]["action"] == {"action": "reroll", **ROLL, "white": [6, 4], "red": 2}


@pytest.mark.parametrize("body, status, message", [
    ({"dice": {}}, 400, "at least 1"),
    ({"dice": {"purple": 3}}, 400, "unknown fields: purple"),
    ({"dice": {"red": 7}}, 400, "between 1 and 6"),
    ({"camera": []}, 400, "1 to 6 entries"),
    ({"camera": ["red"], "dice": {"red": 3}}, 400, "either dice"),
    ({}, 400, "either dice"),
])
def test_bad_re_rolls_are_refused_and_change_nothing(app, host, table, body, status, message):
    play_white_sum(app, host)
    before = public_state(table)
    response = host.post("/api/reroll", json=body)
    assert response.status_code == status and message in response.json["message"], response.json
    assert public_state(table) == before


def test_no_re_roll_once_someone_decided_or_of_a_closed_colour(app, host, table):
    ann, bob, cy = play_white_sum(app, host)
    bob.post("/api/act", json={"seat": 1, "action": "pass"})
    response = host.post("/api/reroll", json={"dice": {"red": 2}})
    assert response.status_code == 409 and "before anyone marks or passes" in response.json["message"]
    host.post("/api/games/end")
    start_game(host)
    response = host.post("/api/reroll", json={"dice": {"red": 2}})
    assert response.status_code == 409 and response.json["message"] == "Nothing to re-roll: no dice have been rolled yet."


def test_play_again_keeps_each_phone_on_its_own_person(app, host, table):
    """A game that Bob started: in the next one Cy starts, and Ann's phone still plays Ann."""
    start_game(host, players=("Ann", "Bob", "Cy"), starter=1)
    ann = phone(app, 0)
    finish_by_penalties(host, table)
    state = host.post("/api/games/again").json["game"]
    assert state["seats"][state["roller"]] == "Cy"
    assert ann.get("/api/me").json["seats"] == [table.session.seat_index("Ann")]
