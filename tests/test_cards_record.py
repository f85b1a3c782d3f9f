"""Card game records ("qwixx-cards-record/1"): saving, loading and replaying."""
import json
import random

import pytest

from referee import RuleError
from referee.cards import Announce, Card, CardGame, Colour, Mark, Pass, Play, Take, card_action_from_json, full_deck
from referee.cards.record import FORMAT, load, replay_report, to_record
from tests.cards_helpers import play_randomly, snapshot
from web import cli

CAROL = {
    "format": FORMAT, "variant": "standard", "players": ["Carol", "Dan"], "deal": "real-cards",
    "actions": [
        {"action": "announce", "player": "Carol", "number": 9},
        {"action": "mark", "player": "Carol", "colour": "green", "number": 9},
        {"action": "pass", "player": "Dan"},
        {"action": "play", "player": "Carol", "cards": [["green", 8], ["green", 7], ["green", 5]], "cross": [8, 7, 5]},
    ],
}


def test_a_real_cards_record_replays():
    report = replay_report(CAROL)
    assert report == {
        "ok": True, "over": False, "end": None, "locked": {"Carol": [], "Dan": []},
        "scores": {"Carol": {"red": 0, "yellow": 0, "green": 10, "blue": 0, "penalties": 0, "total": 10},
                   "Dan": {"red": 0, "yellow": 0, "green": 0, "blue": 0, "penalties": 0, "total": 0}},
        "winners": []}
    game = load(CAROL)
    assert game.sheet("Carol").row(Colour.GREEN).marks == (9, 8, 7, 5) and game.active == "Dan"
    assert to_record(game) == CAROL


def test_a_dealt_record_holds_the_seed_and_the_deck_only_when_it_is_not_the_seeds():
    game = CardGame(["Ann", "Bob"], seed=12, jokers=True)
    game.apply(Take("Ann", (1,)))
    record = to_record(game)
    assert record["deal"] == {"seed": 12} and record["variant"] == "joker"
    assert record["actions"] == [{"action": "take", "player": "Ann", "slots": [1]}]
    deck = list(full_deck(True))
    ordered = CardGame(["Ann", "Bob"], seed=12, jokers=True, deck=deck)
    record = json.loads(json.dumps(to_record(ordered)))
    assert record["deal"] == {"seed": 12, "deck": [card.to_json() for card in deck]}
    assert load(record).deck == tuple(deck)


def test_a_record_of_a_game_that_reshuffled_replays_exactly():
    game, rng = CardGame(["A", "B", "C"], seed=4), random.Random(4)
    reshuffles = []
    play_randomly(game, rng, lambda before, action: reshuffles.append(game.state.reshuffles - before.reshuffles))
    assert sum(reshuffles) >= 1
    assert snapshot(load(json.loads(json.dumps(to_record(game))))) == snapshot(game)
    report = replay_report(to_record(game))
    assert report["ok"] and report["over"] and report["end"] == game.outcome().end.value
    assert report["scores"] == {player: score.to_json() for player, score in game.scores().items()}
    assert report["winners"] == list(game.outcome().winners)


def illegal(record, **changes):
    record = json.loads(json.dumps(record))
    for index, action in changes.items():
        record["actions"][int(index[1:])] = action
    return replay_report(record)


def test_the_first_illegal_action_is_reported_with_its_rule():
    assert illegal(CAROL, a1={"action": "mark", "player": "Carol", "colour": "green", "number": 10}) == {
        "ok": False, "action": 2, "player": "Carol", "rule": "wrong-number",
        "message": "The announced number is 9, so this action can cross only a 9, not 10."}
    report = illegal(CAROL, a3={"action": "play", "player": "Carol", "cards": [["green", 11], ["green", 3]],
                                "cross": [11, 3]})
    assert (report["action"], report["rule"]) == (4, "left-of-last-mark")
    report = illegal(CAROL, a3={"action": "play", "player": "Carol", "cards": [["green", 8], ["blue", 7]]})
    assert (report["action"], report["rule"]) == (4, "mixed-colours")
    report = illegal(CAROL, a2={"action": "play", "player": "Dan", "cards": [["red", 8]], "cross": []})
    assert (report["action"], report["player"], report["rule"]) == (3, "Dan", "wrong-phase")
    report = illegal(CAROL, a2={"action": "pass", "player": "Eve"})
    assert (report["action"], report["player"], report["rule"]) == (3, "Eve", "not-in-game")
    report = illegal(CAROL, a3={"action": "play", "player": "Carol", "cards": [["green", 13]], "cross": []})
    assert (report["action"], report["player"], report["rule"]) == (4, "Carol", "bad-card")
    report = illegal(CAROL, a3={"action": "play", "player": "Carol", "cards": [["joker", 8]], "colour": "green"})
    assert (report["action"], report["player"], report["rule"]) == (4, "Carol", "bad-card")  # standard game
    with pytest.raises(RuleError) as error:
        load({**CAROL, "actions": CAROL["actions"][:1] + [
            {"action": "mark", "player": "Carol", "colour": "green", "number": 10}]})
    assert error.value.code == "wrong-number" and error.value.message.startswith("Action 2: ")


def test_an_action_after_the_end_is_game_over():
    game = CardGame(["Ann", "Bob"])
    for number in range(2, 6):  # every turn both pass and the active player crosses nothing
        for colour in (Colour.RED, Colour.BLUE):
            if game.is_over:
                break
            game.apply(Announce(game.active, 9))
            game.apply(Pass("Ann"))
            game.apply(Pass("Bob"))
            game.apply(Play(game.active, (Card(colour, number),)))
    assert game.is_over and game.outcome().end == "four-penalties" and game.sheet("Ann").penalties == 4
    record = to_record(game)
    assert replay_report(record)["ok"] is True
    record["actions"].append({"action": "announce", "player": "Bob", "number": 6})
    report = replay_report(record)
    assert (report["ok"], report["action"], report["rule"]) == (False, len(record["actions"]), "game-over")


@pytest.mark.parametrize("data", [
    [], "qwixx", None,
    {**CAROL, "format": "qwixx-record/1"},
    {key: value for key, value in CAROL.items() if key != "format"},
    {**CAROL, "variant": "jokers"},
    {**CAROL, "players": "Carol"},
    {**CAROL, "players": ["Carol"]},
    {**CAROL, "players": ["Carol", "Carol"]},
    {**CAROL, "deal": "shuffled"},
    {**CAROL, "deal": {"seed": "7"}},
    {**CAROL, "deal": {"seed": 7, "deck": [["red", 2]]}},
    {**CAROL, "deal": {"seed": 7, "deck": [["red", 99]] * 44}},
    {**CAROL, "actions": {}},
    {**CAROL, "turns": []},
    {**CAROL, "actions": [{"player": "Carol"}]},
    {**CAROL, "actions": [{"action": "announce", "player": "Carol", "number": 9, "colour": "red"}]},
    {**CAROL, "actions": [{"action": "take", "player": "Carol", "slots": "0"}]},
    {**CAROL, "actions": [{"action": "announce", "number": 9}]},
    {**CAROL, "actions": [{"action": "roll", "white": [1, 2]}]},
    {**CAROL, "actions": [CAROL["actions"][0], {"action": "mark", "player": "Carol", "colour": "purple", "number": 9}]},
    {**CAROL, "actions": [CAROL["actions"][0], {"action": "play", "player": "Carol", "cards": [[8, "green"]]}]},
])
def test_something_that_is_not_a_record_says_so(data):
    report = replay_report(data)
    assert report["ok"] is False and report["rule"] == "not-a-record"
    assert report["message"].startswith("This is not a card game record: ") and report["message"].endswith(".")
    assert ".." not in report["message"]
    with pytest.raises(RuleError) as error:
        load(data)
    assert error.value.code == "not-a-record"


def test_actions_round_trip_through_json():
    for action in (Take("Ann", (3, 0)), Announce("Ann", 7), Mark("Bob", Colour.BLUE, 7), Pass("Bob"),
                   Play("Ann", (Card(None, 4), Card(Colour.RED, 5)), (5, 4), Colour.RED),
                   Play("Ann", (Card(Colour.RED, 5),))):
        assert card_action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_qwixx_table_replay_checks_card_records(tmp_path, capsys):
    legal, illegal, other = (tmp_path / name for name in ("legal.json", "illegal.json", "other.json"))
    legal.write_text(json.dumps(CAROL))
    bad = json.loads(json.dumps(CAROL))
    bad["actions"][3]["cards"] = [["green", 8], ["green", 7], ["green", 6], ["green", 5]]
    illegal.write_text(json.dumps(bad))
    other.write_text(json.dumps({**CAROL, "deal": "by hand"}))
    code = cli.main(["replay", str(legal), str(illegal), str(other)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1 and [line["file"] for line in lines] == [str(legal), str(illegal), str(other)]
    assert lines[0] == {"file": str(legal), **replay_report(CAROL)} and lines[0]["ok"] is True
    assert lines[1] == {"file": str(illegal), "ok": False, "action": 4, "player": "Carol", "rule": "play-count",
                        "message": "You may play at most 3 cards, not 4."}
    assert (lines[2]["ok"], lines[2]["rule"]) == (False, "not-a-record")
    assert cli.main(["replay", str(legal)]) == 0
