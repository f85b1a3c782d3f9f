"""Game records (qwixx-record/1): reading, writing, replaying, and the refusals of each."""
import json

import pytest

from referee import Game, Match, Record, ReplayError, Roll, RuleError
from referee.formats import REPLAYERS, replay_report
from tests.referee_helpers import give, turn, white_roll

ISSUE_EXAMPLE = {
    "format": "qwixx-record/1", "variant": "standard", "players": ["Ann", "Bob", "Cy"],
    "turns": [{"roll": {"white": [2, 4], "red": 5, "yellow": 1, "green": 3, "blue": 6},
               "white": {"Ann": ["red", 6], "Cy": ["green", 6]},
               "colour": ["red", 9]}],
}


def record(turns, players=("Ann", "Bob"), **extra):
    return {"format": "qwixx-record/1", "variant": "standard", "players": list(players), "turns": turns, **extra}


def roll(white=(2, 4), **dice):
    return {"white": list(white), **({"red": 5, "yellow": 1, "green": 3, "blue": 6} | dice)}


def test_the_issue_example_replays():
    report = replay_report(ISSUE_EXAMPLE)
    assert report["ok"] and not report["over"] and report["end"] is None and report["closed"] == []
    assert report["scores"]["Ann"] == {"red": 3, "yellow": 0, "green": 0, "blue": 0, "penalties": 0, "total": 3}
    assert report["scores"]["Cy"]["green"] == 1 and report["scores"]["Bob"]["total"] == 0
    assert report["winners"] == []


def test_a_finished_game_round_trips_through_a_record():
    game = Game(["Ann", "Bob"])
    give(game, "Ann", [("green", 12), ("green", 11), ("green", 10), ("green", 9), ("green", 8)])
    give(game, "Bob", [("blue", 12), ("blue", 11), ("blue", 10), ("blue", 9), ("blue", 8)])
    turn(game, white_roll(game, 2), white={"Ann": ("green", 2), "Bob": ("blue", 2)})
    assert game.is_over
    text = Record.of_game(game, tags={"date": "2025-06-01"}).dumps()
    loaded = Record.loads(text)
    assert loaded.tags == {"date": "2025-06-01"}
    replayed = loaded.replay()
    assert replayed.state == game.state
    report = replay_report(json.loads(text))
    assert report["over"] and report["end"] == "two-colours-closed" and report["closed"] == ["green", "blue"]
    assert report["winners"] == ["Ann", "Bob"]


def test_a_record_keeps_the_dice_after_a_reroll_and_leaves_out_an_unfinished_turn():
    game = Game(["Ann", "Bob"])
    game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
    game.reroll(red=3)
    game.mark("Ann", "red", 6)
    game.pass_("Bob")
    game.mark("Ann", "red", 7)  # white 4 + the re-rolled red 3
    game.apply(white_roll(game, 8))
    game.mark("Bob", "blue", 8)
    data = Record.of_game(game).to_json()
    assert data["turns"] == [{"roll": {"white": [2, 4], "red": 3, "yellow": 1, "green": 3, "blue": 6},
                              "white": {"Ann": ["red", 6]}, "colour": ["red", 7]}]


@pytest.mark.parametrize("data,needle", [
    ([], "A record is a JSON object"),
    ({"format": "qwixx-record/2", "players": ["A", "B"], "turns": []}, "'qwixx-record/2'"),
    (record([], players=["Ann"]), "2 to 5 players; got 1"),
    (record([], players=["Ann", "Ann"]), "Two players are called Ann"),
    (record([], variant="chess"), "no variant 'chess'"),
    (record({"roll": {}}), "\"turns\" must be a list"),
    (record([[1, 2]]), "Turn 1 must be an object"),
    (record([{"roll": roll(), "colour": None}, {"white": {}}]), "Turn 2 needs a \"roll\""),
    (record([{"roll": roll(), "white": ["Ann", "red", 6]}]), "\"white\" must map players"),
    (record([{"roll": roll(), "white": {"Ann": ["red"]}}]), "Turn 1: Ann's white-sum mark must be [colour, number]"),
    (record([{"roll": roll(), "white": {"Ann": ["pink", 6]}}]), "names no colour: 'pink'"),
    (record([{"roll": roll(), "colour": ["red", "9"]}]), "the roller's colour mark must be [colour, number]"),
    (record([{"roll": roll(), "extra": 1}]), "unknown field 'extra'"),
    (record([], moves=[]), "Unknown field 'moves'"),
    ({**record([]), "games": []}, "either \"turns\" (one game) or \"games\""),
])
def test_not_a_record(data, needle):
    report = replay_report(data)
    assert report["ok"] is False and report["rule"] == "not-a-record"
    assert needle in report["message"]
    assert set(report) == {"ok", "rule", "message"}


def test_unknown_formats_are_not_records_and_the_table_names_the_known_ones():
    report = replay_report({"format": "chess-pgn"})
    assert report["rule"] == "not-a-record" and "qwixx-record/1" in report["message"]
    assert "qwixx-record/1" in REPLAYERS


@pytest.mark.parametrize("turns,turn_number,player,rule", [
    ([{"roll": roll(red=7)}], 1, None, "bad-roll"),
    ([{"roll": {"white": [2, 4], "red": 5}}], 1, None, "bad-roll"),
    ([{"roll": roll(), "white": {"Dan": ["red", 6]}}], 1, "Dan", "not-in-game"),
    ([{"roll": roll(), "white": {"Bob": ["red", 7]}}], 1, "Bob", "wrong-sum"),
    ([{"roll": roll(), "colour": ["red", 6]}], 1, "Ann", "wrong-sum"),
    ([{"roll": roll(), "white": {"Ann": ["red", 6]}, "colour": ["red", 9]},
      {"roll": roll(), "white": {"Ann": ["red", 6]}}], 2, "Ann", "left-of-last-mark"),
    ([{"roll": roll(white=(1, 1))}, {"roll": roll(white=(1, 1)), "white": {"Ann": ["green", 2]}}], 2, "Ann",
     "lock-needs-five"),
])
def test_the_first_illegal_action_is_reported_with_turn_and_player(turns, turn_number, player, rule):
    report = replay_report(record(turns))
    assert report["ok"] is False
    assert (report["turn"], report["player"], report["rule"]) == (turn_number, player, rule)
    assert report["message"].endswith(".")


def locked_green_and_blue_turns():
    """Ann gets five greens, Bob five blues, then white 1 + 1 closes both: the game is over after 11 turns."""
    turns = []
    for number in (12, 11, 10, 9, 8):
        turns.append({"roll": roll(white=(6, number - 6)), "white": {"Ann": ["green", number]}, "colour": None})
        turns.append({"roll": roll(white=(6, number - 6)), "white": {"Bob": ["blue", number]}, "colour": None})
    turns.append({"roll": roll(white=(1, 1)), "white": {"Ann": ["green", 2], "Bob": ["blue", 2]}, "colour": None})
    return turns


def test_records_derive_penalties_locks_and_the_end():
    report = replay_report(record(locked_green_and_blue_turns()))
    assert report["ok"] and report["over"] and report["end"] == "two-colours-closed"
    # Ann rolls turns 1, 3, ... and marks on them; Bob rolls and marks on 2, 4, ...: no penalties
    assert report["scores"]["Ann"] == {"red": 0, "yellow": 0, "green": 28, "blue": 0, "penalties": 0, "total": 28}
    assert report["winners"] == ["Ann", "Bob"]


def test_a_turn_after_the_end_is_game_over():
    turns = locked_green_and_blue_turns() + [{"roll": roll(white=(3, 4))}]
    report = replay_report(record(turns))
    assert (report["turn"], report["player"], report["rule"]) == (12, None, "game-over")


def test_no_colour_action_after_an_end_in_action_one():
    turns = locked_green_and_blue_turns()
    turns[-1]["colour"] = ["red", 6]  # white 1 + red 5: but the game ended in action 1
    report = replay_report(record(turns))
    assert (report["turn"], report["player"], report["rule"]) == (11, "Ann", "game-over")


def test_a_closed_colours_die_must_be_absent():
    turns = locked_green_and_blue_turns()[:-1]
    turns.append({"roll": roll(white=(1, 1)), "white": {"Ann": ["green", 2]}})
    turns.append({"roll": roll(white=(3, 4))})  # green is closed, yet the roll has a green die
    report = replay_report(record(turns))
    assert (report["turn"], report["rule"]) == (12, "bad-roll")
    assert "green die is out of the game" in report["message"]


def test_replay_error_carries_where():
    with pytest.raises(ReplayError) as error:
        Record.from_json(record([{"roll": roll(), "white": {"Bob": ["red", 7]}}])).replay()
    assert (error.value.code, error.value.turn, error.value.player, error.value.game) == ("wrong-sum", 1, "Bob", None)
    assert isinstance(error.value, RuleError)


def test_a_match_record_round_trips():
    match = Match(["Ann", "Bob"])
    for index in range(3):
        assert match.game.roller == ("Ann", "Bob")[index % 2]  # the starter moves one seat left each game
        while not match.game.is_over:
            turn(match.game, white_roll(match.game, 7))  # nobody marks: penalties end each game
        if index < 2:
            match.next_game()
    text = Record.of_match(match).dumps()
    loaded = Record.loads(text)
    assert loaded.match and len(loaded.games) == 3
    replayed = loaded.replay()
    assert [game.state for game in replayed.games] == [game.state for game in match.games]
    report = replay_report(json.loads(text))
    assert report["ok"] and report["over"] and len(report["games"]) == 3
    assert report["totals"] == match.totals() and report["winners"] == list(match.winners())
    assert all(game["end"] == "four-penalties" for game in report["games"])


def test_a_match_record_with_an_unfinished_game_before_the_next():
    data = {"format": "qwixx-record/1", "variant": "standard", "players": ["Ann", "Bob"],
            "games": [{"turns": [{"roll": roll()}]}, {"turns": []}]}
    report = replay_report(data)
    assert (report["game"], report["turn"], report["rule"]) == (2, 1, "wrong-phase")


def test_variant_records_use_seat_names():
    data = {"format": "qwixx-record/1", "variant": "partners", "players": [["Ann", "Bob"], ["Cy", "Dee"]],
            "turns": [{"roll": roll(), "white": {"Ann & Bob": ["red", 6]}}]}
    report = replay_report(data)
    assert report["ok"] and report["scores"]["Ann & Bob"]["red"] == 1
    assert Record.loads(Record.from_json(data).dumps()).players == (("Ann", "Bob"), ("Cy", "Dee"))
    data = {"format": "qwixx-record/1", "variant": "two-sheets", "players": ["Ann", "Bob"],
            "turns": [{"roll": roll(), "white": {"Bob 2": ["red", 6]}}] + [{"roll": roll()}] * 3}
    report = replay_report(data)
    assert list(report["scores"]) == ["Ann 1", "Bob 1", "Ann 2", "Bob 2"]
    assert report["scores"]["Bob 2"]["red"] == 1
    # turns 1-4 are rolled by Ann 1, Bob 1, Ann 2, Bob 2; Bob 2 marked on Ann 1's turn, so every roller
    # marked nothing on their own turn: one penalty each
    assert [score["penalties"] for score in report["scores"].values()] == [1, 1, 1, 1]


def test_a_record_saved_with_a_byte_order_mark_is_read():
    assert Record.loads("\ufeff" + json.dumps(ISSUE_EXAMPLE)).replay().turn == 1
