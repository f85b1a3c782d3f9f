"""The Qwixx Card Game at the table, through Flask's test client: setup, a dealt game played from three phones to
the end, real cards, undo, restart, records, refusals; and hidden information: every response a phone receives
(and every state the live stream sends) is inspected, and no phone ever gets a colour it may not see."""
from __future__ import annotations

import json

import pytest

from referee.cards import Play
from referee.cards.record import replay_report
from tests.test_web_camera import settled
from tests.web_helpers import PIN, phone, public_state
from web.app import create_app
from web.camera_loop import event_json

CARD_COLOURS = ("red", "yellow", "green", "blue", "joker")
PLAYERS = ("Ann", "Bob", "Cy")


def start_cards(host, players=PLAYERS, **options):
    response = host.post("/api/games", json={"players": list(players), "variant": "cards", "starter": 0, **options})
    assert response.status_code == 201, response.json
    return response.json


# ----- what may be seen ------------------------------------------------------------------------------------------

def card_pairs(data) -> list[tuple[str, int]]:
    """Every card with a colour anywhere in a JSON value: [colour or "joker", number]."""
    if isinstance(data, list):
        if len(data) == 2 and data[0] in CARD_COLOURS and type(data[1]) is int:
            return [(data[0], data[1])]
        return [pair for item in data for pair in card_pairs(item)]
    if isinstance(data, dict):
        return [pair for value in data.values() for pair in card_pairs(value)]
    return []


def secret_cards(table, seat: int | None) -> set[tuple[str, int]]:
    """The cards whose colours `seat` (None: anyone but the players, such as the table screen or the host) may
    not know now: in another hand, the tableau or the draw pile, and never played face up."""
    game = table.session.game
    own = set(game.hand(game.players[seat])) if seat is not None else set()
    shown = {card for action in game.history if isinstance(action, Play) for card in action.cards}
    hidden = {card for player in game.players for card in game.hand(player)} | set(game.tableau) | set(game.draw_pile)
    return {tuple(card.to_json()) for card in hidden - own - shown if card is not None}


class Watched:
    """A client whose every response is checked, as it arrives, against what its seat may see now."""

    def __init__(self, client, table, seat: int | None) -> None:
        self.client, self.table, self.seat = client, table, seat
        self.responses = 0

    def _check(self, response):
        self.responses += 1
        text = response.get_data(as_text=True)
        seed = self.table.session.setup.seed if self.table.session else None
        if seed is not None and not self.table.session.over:
            assert str(seed) not in text, "the seed of the shuffle reached a player"
        if response.is_json and not self.table.session.over:  # once over, a replay shows every card
            leaked = set(card_pairs(response.json)) & secret_cards(self.table, self.seat)
            assert not leaked, f"seat {self.seat} received {leaked} from {response.request.path}"
        return response

    def get(self, *args, **kwargs):
        return self._check(self.client.get(*args, **kwargs))

    def post(self, *args, **kwargs):
        return self._check(self.client.post(*args, **kwargs))


@pytest.fixture
def published(table, monkeypatch):
    """Every state the live stream sends, checked against what anyone at the table may see."""
    sent = []
    original = table.live.publish

    def publish(state):
        if table.session is not None and table.session.kind == "cards" and table.session.hides_hands:
            assert not set(card_pairs(state)) & secret_cards(table, None), "a secret reached the live stream"
            seed = table.session.setup.seed
            assert table.session.over or str(seed) not in json.dumps(state)
        sent.append(state)
        return original(state)

    monkeypatch.setattr(table.live, "publish", publish)
    return sent


def seat_phones(app, table):
    """A watched phone for each person, by seat."""
    phones = {}
    for person in range(len(table.session.people)):
        client = phone(app, person)
        [seat] = table.session.seats_of_person(person)
        phones[seat] = Watched(client, table, seat)
    return [phones[seat] for seat in sorted(phones)]


def options_of(client, seat) -> list[dict]:
    return client.get("/api/me").json["cards"][str(seat)]["options"]


def body_of(option: dict) -> dict:
    return {key: value for key, value in option["action"].items() if key != "player"}


def play_one_step(phones, table) -> dict:
    """One decision through the phones: the active player takes the first tableau card, passes on the number and
    plays one card crossing nothing (a penalty each turn, so the game ends in ten turns); the others cross the
    number where it skips at most one box."""
    game = table.session.game
    phase, active = game.phase.value, game.players.index(game.active)
    if phase == "draw":
        seat, option = active, options_of(phones[active], active)[0]
    elif phase == "number":
        seat = game.players.index(game.waiting_for[0])
        options = options_of(phones[seat], seat)
        cheap = [option for option in options if option["action"]["action"] == "mark" and option["skipped"] <= 1]
        option = cheap[0] if cheap and seat != active else options[-1]
        assert option["action"]["action"] in ("mark", "pass")
    else:
        seat = active
        option = next(option for option in options_of(phones[seat], seat)
                      if not option["action"]["cross"] and len(option["action"]["cards"]) == 1)
    response = phones[seat].post("/api/act", json={"seat": seat, **body_of(option)})
    assert response.status_code == 200, response.json
    return response.json


# ----- setup --------------------------------------------------------------------------------------------------------

def test_setup_offers_the_card_game_dealt_or_with_real_cards(app, host, table):
    state = start_cards(host, variant="cards-joker")["game"]
    assert (state["game"], state["variant"], state["deal"], state["phase"]) == ("cards", "cards-joker", "shuffled", "draw")
    assert state["variant_title"] == "The card game with jokers"
    assert [len(hand) for hand in state["hands"]] == [4, 4, 4] and len(state["tableau"]) == 4
    assert state["draw_pile"] == 55 - 16 and state["take"] == 1
    assert state["prompt"] == "Ann's turn: take 1 card from the tableau."
    assert type(table.session.setup.seed) is int
    state = start_cards(host, players=("Ann", "Bob"), deal="real-cards", starter=1)["game"]
    assert state["deal"] == "real-cards" and state["seats"] == ["Bob", "Ann"]  # Bob starts; seating order kept
    assert state["hands"] == [[[None, None]] * 4] * 2  # real cards: the table knows no card
    assert state["prompt"].startswith("Bob's turn: draw to 5 cards")


@pytest.mark.parametrize("body, message", [
    ({"players": ["Ann", "Bob"], "variant": "cards", "starter": None}, "Choose who starts the card game"),
    ({"players": ["Ann", "Bob"], "variant": "cards"}, "Choose who starts the card game"),
    ({"players": ["Ann", "Bob"], "variant": "cards", "starter": 0, "match": True}, "variant of the dice game"),
    ({"players": ["Ann", "Bob"], "variant": "cards", "starter": 0, "deal": "stacked"}, "deal must be one of"),
    ({"players": ["Ann", "Bob"], "starter": 0, "deal": "shuffled"}, "Only the card game is dealt"),
    ({"players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], "variant": "cards", "starter": 0}, "2 to 5"),
    ({"players": ["Ann", "Bob"], "variant": "cards", "starter": 3}, "The starter must be one of the 2 players, 0 to 1"),
])
def test_a_bad_card_game_setup_is_refused_and_nothing_is_stored(app, host, table, body, message):
    response = host.post("/api/games", json=body)
    assert response.status_code == 400 and message in response.json["message"], response.json
    assert table.session is None and table.store.latest_game_id() is None


# ----- a dealt game ---------------------------------------------------------------------------------------------------

def test_a_dealt_game_played_from_three_phones_to_the_final_scores(app, host, table, published):
    start_cards(host)
    phones = seat_phones(app, table)
    ann, bob, cy = phones
    state = play_one_step(phones, table)["game"]  # Ann takes a card from the tableau
    assert state["phase"] == "number" and state["announced"] == table.session.game.announced
    assert state["news"][-1]["text"].endswith(f"The number is {state['announced']}: everyone may cross it in one row, or pass.")
    assert len(ann.get("/api/me").json["cards"]["0"]["hand"]) == 5
    while not table.session.over:
        state = play_one_step(phones, table)
    game = state["game"]
    assert game["over"]["end"] == "four-penalties" and game["turn"] == 9  # Ann's fourth turn
    assert game["over"]["text"].startswith("Game over: Ann took a fourth penalty.")
    winners = [game["seats"][seat] for seat in game["over"]["winners"]]
    # Who wins hangs on the shuffle (Ann crosses numbers on the others' turns too): those with the best total.
    totals = [sheet["score"]["total"] for sheet in game["sheets"]]
    assert winners == [name for name, total in zip(game["seats"], totals) if total == max(totals)]
    assert game["sheets"][0]["penalties"] == 4
    kinds = [item["kind"] for item in game["news"]]
    assert kinds[-5:] == ["number", "decided", "play", "penalty", "over"]
    # Finished: listed, and its record (now with the seed) replays to the same scores.
    [listed] = host.get("/api/games").json["games"]
    assert listed["variant"] == "cards" and listed["result"]["winners"] == winners
    record = json.loads(bob.get(f"/api/games/{game['id']}/record").get_data(as_text=True))
    assert record["format"] == "qwixx-cards-record/1" and record["deal"] == {"seed": table.session.setup.seed}
    report = replay_report(record)
    assert report["ok"] and report["winners"] == winners
    assert {player: score["total"] for player, score in report["scores"].items()} == \
        {sheet["player"]: sheet["score"]["total"] for sheet in game["sheets"]}
    assert len(published) > 30 and sum(phone.responses for phone in phones) > 60


def test_every_response_to_every_phone_shows_only_its_own_colours(app, host, table, published):
    """Besides the game's own requests, each phone asks everything it may at every step: its view, the state, why
    not for boxes and plays, the replay and the record. None of it carries another player's colours."""
    start_cards(host, variant="cards-joker")
    phones = seat_phones(app, table)
    stranger = Watched(app.test_client(), table, None)
    watched_host = Watched(host, table, None)
    game_id = table.session.game_id
    steps = 0
    while not table.session.over:
        for seat, client in enumerate(phones):
            assert client.get("/api/me").json["seats"] == [seat]
            client.get("/api/state")
            client.post("/api/why", json={"seat": seat, "colour": "red", "number": 7})
            hand = table.session.game.hand(table.session.seats[seat])
            client.post("/api/why", json={"seat": seat, "action": "play", "cards": [hand[0].to_json()], "cross": []})
            client.post("/api/options", json={"seat": seat, "cards": [["red", 5]]})
            client.get(f"/api/games/{game_id}/replay/{len(table.session.log)}")
            assert client.get(f"/api/games/{game_id}/record").status_code == 409
        for client in (stranger, watched_host):
            client.get("/api/me")
            client.get(f"/api/games/{game_id}/replay")
        play_one_step(phones, table)
        steps += 1
    assert steps > 40
    # Once the game is over, its replay shows every hand in colour.
    end = phones[1].get(f"/api/games/{game_id}/replay/{len(table.session.log)}").json["game"]
    assert all(colour is not None for hand in end["hands"] for colour, _ in hand)


def test_the_host_cannot_see_or_play_anyone_s_dealt_cards(app, host, table):
    start_cards(host)
    phones = seat_phones(app, table)
    play_one_step(phones, table)  # Ann takes
    for seat in range(3):
        assert host.post("/api/act", json={"seat": seat, "action": "pass"}).status_code == 200  # decisions are public
    before = public_state(table)
    for path, body in [("/api/act", {"seat": 0, "action": "play", "cards": [["red", 5]]}),
                       ("/api/why", {"seat": 0, "action": "play", "cards": [["red", 5]]}),
                       ("/api/options", {"seat": 0, "cards": [["red", 5]]})]:
        response = host.post(path, json=body)
        assert response.status_code == 403 and response.json["error"] == "hand-hidden", (path, response.json)
        assert response.json["message"] == "Only Ann's own phone can play Ann's cards: nobody else may see them."
    assert "cards" not in host.get("/api/me").json or host.get("/api/me").json["cards"] == {}
    assert public_state(table) == before


def test_a_phone_cannot_act_or_ask_for_another_seat(app, host, table):
    start_cards(host)
    ann, bob, cy = seat_phones(app, table)
    before = public_state(table)
    for path, body in [("/api/act", {"seat": 0, "action": "take", "slots": [0]}),
                       ("/api/why", {"seat": 0, "action": "play", "cards": [["red", 5]]}),
                       ("/api/options", {"seat": 0, "cards": [["red", 5]]})]:
        response = bob.post(path, json=body)
        assert response.status_code == 403 and response.json["error"] == "not-your-seat"
    assert public_state(table) == before


def test_undo_takes_back_decisions_and_plays_but_never_a_draw(app, host, table):
    start_cards(host)
    phones = seat_phones(app, table)
    state = play_one_step(phones, table)["game"]
    assert state["can_undo"] is False  # Ann has seen the colours of the card she took
    before = public_state(table)
    response = host.post("/api/undo")
    assert response.status_code == 409 and response.json["rule"] == "draw-seen"
    assert response.json["message"] == ("Ann's draw cannot be undone: Ann has seen the colours of the cards taken "
                                        "and would choose again knowing them.")
    assert public_state(table) == before
    for _ in range(4):  # three decisions and the play
        play_one_step(phones, table)
    state = table.state()["game"]
    assert state["phase"] == "draw" and state["active"] == 1 and state["undo_label"].startswith("Ann's play (")
    assert phones[0].post("/api/undo").status_code == 403  # the host's
    state = host.post("/api/undo").json["game"]
    assert state["phase"] == "play" and state["active"] == 0 and state["sheets"][0]["penalties"] == 0
    assert state["news"][-1]["text"].startswith("Undone: Ann's play (")
    assert len(phones[0].get("/api/me").json["cards"]["0"]["hand"]) == 5  # the card is back in her hand
    assert host.post("/api/undo").json["game"]["waiting_for"] == [2]


def test_a_restart_resumes_the_card_game_exactly(app, host, table, database):
    start_cards(host, variant="cards-joker")
    phones = seat_phones(app, table)
    for _ in range(7):
        play_one_step(phones, table)
    before = public_state(table)
    hands = [client.get("/api/me").json for client in phones]
    restarted = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN})
    again = restarted.extensions["qwixx"]
    assert {**public_state(again), "boot": None} == {**before, "boot": None}
    for seat, client in enumerate(phones):
        moved = restarted.test_client()
        moved.set_cookie("qwixx_seat", client.client.get_cookie("qwixx_seat").value)
        assert moved.get("/api/me").json == hands[seat]


def test_the_timer_passes_for_the_slow_on_the_announced_number(app, host, table):
    now = [1000.0]
    table.clock = lambda: now[0]
    start_cards(host, timer=20)
    phones = seat_phones(app, table)
    play_one_step(phones, table)
    assert table.state()["timer"]["ends_at"] == 1020.0
    now[0] = 1021.0
    table.tick()
    assert table.session.phase == "play" and [entry["by"] for entry in table.session.log[-3:]] == ["timer"] * 3
    passed_for = [entry["action"]["player"] for entry in table.session.log[-3:]]
    texts = [item["text"] for item in table.state()["game"]["news"]]
    assert all(f"Time is up: the table passes for {player}." in texts for player in passed_for)
    assert table.state()["timer"] is None  # no timer for the active player's play: a card must be played


def test_play_again_deals_a_new_deck_and_keeps_the_phones(app, host, table):
    start_cards(host)
    phones = seat_phones(app, table)
    first_seed = table.session.setup.seed
    while not table.session.over:
        play_one_step(phones, table)
    state = host.post("/api/games/again").json["game"]
    assert state["game"] == "cards" and state["seats"][state["active"]] == "Bob"
    assert table.session.setup.seed != first_seed
    assert phones[1].client.get("/api/me").json["seats"] == [table.session.seat_index("Bob")]


def test_the_dice_game_s_actions_are_refused_in_the_card_game(app, host, table):
    start_cards(host)
    ann, bob, cy = seat_phones(app, table)
    before = public_state(table)
    for client, path, body, code in [
        (host, "/api/dice", {"white": [2, 4], "red": 5, "yellow": 1, "green": 3, "blue": 6}, "card-game"),
        (host, "/api/reroll", {"dice": {"red": 3}}, "card-game"),
        (host, "/api/roll-off", {"value": 6}, "card-game"),
    ]:
        response = client.post(path, json=body)
        assert response.status_code == 409 and response.json["error"] == code, (path, response.json)
    response = ann.post("/api/retract", json={"seat": 0})
    assert response.status_code == 409 and "the host can undo it" in response.json["message"]
    table.camera_event(event_json(settled()))  # dice on the table change nothing in a card game
    assert {**public_state(table), "camera": None} == {**before, "camera": None}


BAD = [
    ({"seat": 0, "action": "roll"}, 400, "action must be one of: take, mark, pass, play"),
    ({"seat": 0, "action": "take"}, 400, "A take needs the tableau slots taken"),
    ({"seat": 0, "action": "take", "slots": [4]}, 400, "between 0 and 3"),
    ({"seat": 0, "action": "take", "slots": [0, 1]}, 409, "take exactly 1 from the tableau"),
    ({"seat": 0, "action": "take", "slots": [0], "cards": [["red", 5]]}, 400, "A take has no cards"),
    ({"seat": 0, "action": "announce", "number": 7}, 400, "action must be one of"),
    ({"seat": 0, "action": "play"}, 400, "A play needs the cards played"),
    ({"seat": 0, "action": "play", "cards": [["purple", 5]]}, 400, "cards[0]'s colour must be one of"),
    ({"seat": 0, "action": "play", "cards": [["red", 13]]}, 400, "cards[0]'s number must be between 2 and 12"),
    ({"seat": 0, "action": "play", "cards": ["red 5"]}, 400, "cards[0] must be a card"),
    ({"seat": 0, "action": "play", "cards": [["red", 5]]}, 409, "You cannot play cards now: Ann draws cards"),
    ({"seat": 1, "action": "mark", "colour": "red", "number": 5}, 409, "You cannot cross the announced number now"),
    ({"seat": 1, "action": "pass", "slots": [1]}, 400, "A pass has no slots"),
]


@pytest.mark.parametrize("body, status, message", BAD)
def test_a_bad_card_action_is_refused_with_a_message_and_changes_nothing(app, host, table, body, status, message):
    start_cards(host)
    phones = seat_phones(app, table)
    before = public_state(table)
    response = phones[body["seat"]].post("/api/act", json=body)
    assert response.status_code == status and message in response.json["message"], response.json
    assert public_state(table) == before


# ----- real cards ----------------------------------------------------------------------------------------------------

def test_real_cards_to_two_locked_rows(app, host, table, published):
    """Real cards: the table is told each announced number and each play. Ann plays red 2-12 and yellow 2-12 three
    cards at a time and locks both rows (the end); Bob crosses each number announced on his turns in green."""
    start_cards(host, players=("Ann", "Bob"), deal="real-cards")
    ann, bob = seat_phones(app, table)
    plays = iter([("red", [2, 3, 4]), ("blue", [2]), ("red", [5, 6, 7]), ("blue", [3]), ("red", [8, 9, 10]),
                  ("blue", [4]), ("red", [11, 12]), ("blue", [5]), ("yellow", [2, 3, 4]), ("blue", [6]),
                  ("yellow", [5, 6, 7]), ("blue", [7]), ("yellow", [8, 9, 10]), ("blue", [8]), ("yellow", [11, 12])])
    while not table.session.over:
        turn = table.session.game.turn
        active, client = (0, ann) if turn % 2 == 0 else (1, bob)
        announcer = host if turn == 4 else client  # the host may tell the number for the active player too
        assert announcer.post("/api/act", json={"seat": active, "action": "announce", "number": 12 - turn // 2}).status_code == 200
        assert bob.post("/api/act", json={"seat": 1, **({"action": "mark", "colour": "green", "number": 12 - turn // 2}
                                                        if active == 1 else {"action": "pass"})}).status_code == 200
        ann.post("/api/act", json={"seat": 0, "action": "pass"})
        assert options_of(client, active) is None  # the referee cannot list plays of a hand it cannot see
        colour, numbers = next(plays)
        cards = [[colour, number] for number in numbers]
        crossed = numbers if active == 0 else []
        offered = client.post("/api/options", json={"seat": active, "cards": cards}).json["options"]
        assert crossed in [option["action"]["cross"] for option in offered]
        assert all(sorted(option["action"]["cards"]) == sorted(cards) for option in offered)
        response = client.post("/api/act", json={"seat": active, "action": "play", "cards": cards, "cross": crossed})
        assert response.status_code == 200, response.json
    game = table.state()["game"]
    assert game["over"]["end"] == "two-rows-locked" and game["turn"] == 14
    assert game["over"]["text"].startswith("Game over: Ann locked a second row. Ann wins with")
    texts = [item["text"] for item in game["news"]]
    assert "Ann locked yellow (for Ann only: the others may still cross it)." in texts
    assert [row["locked"] for row in game["sheets"][0]["rows"]] == [True, True, False, False]
    assert game["sheets"][1]["penalties"] == 0 and game["sheets"][1]["rows"][2]["marks"] == [12, 11, 10, 9, 8, 7, 6]
    record = json.loads(host.get(f"/api/games/{game['id']}/record").get_data(as_text=True))
    assert record["deal"] == "real-cards" and replay_report(record)["winners"] == ["Ann"]


def test_real_cards_refuse_a_card_already_played_and_explain_mixed_colours(app, host, table):
    start_cards(host, players=("Ann", "Bob"), deal="real-cards")
    ann, bob = seat_phones(app, table)
    for client, seat, number, cards in [(ann, 0, 7, [["red", 5]]), (bob, 1, 8, [["red", 5]])]:
        client.post("/api/act", json={"seat": seat, "action": "announce", "number": number})
        ann.post("/api/act", json={"seat": 0, "action": "pass"})
        bob.post("/api/act", json={"seat": 1, "action": "pass"})
        response = client.post("/api/act", json={"seat": seat, "action": "play", "cards": cards})
    assert response.status_code == 409 and response.json["message"] == \
        "The red 5 was played already: it lies in the discard pile."
    assert bob.post("/api/options", json={"seat": 1, "cards": [["red", 6], ["blue", 6]]}).json["options"] == []
    answer = bob.post("/api/why", json={"seat": 1, "action": "play", "cards": [["red", 6], ["blue", 6]], "cross": []}).json
    assert answer == {"legal": False, "rule": "mixed-colours", "message": "Cards played together must be one colour, not red and blue."}
    response = bob.post("/api/options", json={"seat": 1, "cards": [["joker", 6]]})
    assert response.status_code == 409 and "Joker variant" in response.json["message"]


# ----- records -------------------------------------------------------------------------------------------------------

def test_a_card_record_is_loaded_replayed_step_by_step_and_saved_again(app, host, table):
    record = {"format": "qwixx-cards-record/1", "variant": "standard", "players": ["Ann", "Bob"], "deal": {"seed": 7},
              "actions": [{"action": "take", "player": "Ann", "slots": [0]},
                          {"action": "mark", "player": "Bob", "colour": "red", "number": 7},
                          {"action": "pass", "player": "Ann"}]}
    answer = host.post("/api/records", json=record)
    assert answer.status_code == 201
    game_id = answer.json["id"]
    assert table.session is None
    steps = host.get(f"/api/games/{game_id}/replay").json["steps"]
    assert steps[0] == "Ann took the 11 from the tableau. The number is 7: everyone may cross it in one row, or pass."
    assert steps[2] == "On the 7: Bob crossed red 7; Ann passed."
    end = host.get(f"/api/games/{game_id}/replay/3").json["game"]
    assert end["phase"] == "play" and end["hands"][0] == [["red", 5], ["blue", 7], ["red", 11], ["blue", 11], ["yellow", 12]]
    assert json.loads(host.get(f"/api/games/{game_id}/record").get_data(as_text=True)) == record
    assert app.test_client().get(f"/games/{game_id}").status_code == 200


@pytest.mark.parametrize("record, status, message", [
    ({"format": "qwixx-cards-record/1", "variant": "joker", "players": ["Ann", "Bob"], "deal": {"seed": 7},
      "actions": [{"action": "take", "player": "Bob", "slots": [0]}]}, 422,
     "The record breaks a rule at action 1 (Bob): Only the active player, Ann, may draw cards now"),
    ({"format": "qwixx-cards-record/1", "variant": "jokers", "players": ["Ann", "Bob"], "deal": "real-cards",
      "actions": []}, 400, "This is not a card game record: \"variant\" is \"standard\" or \"joker\""),
    ({"format": "qwixx-cards-record/1", "variant": "standard", "players": ["Ann", "Bob"], "deal": {"seed": "7"},
      "actions": []}, 400, "\"deal\" is \"real-cards\" or {\"seed\": n}"),
])
def test_a_bad_card_record_is_refused_and_nothing_is_kept(app, host, table, record, status, message):
    response = host.post("/api/records", json=record)
    assert response.status_code == status and message in response.json["message"], response.json
    assert host.get("/api/games").json["games"] == [] and table.store.latest_game_id() is None
