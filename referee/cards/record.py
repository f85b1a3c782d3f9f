"""Card game records, "qwixx-cards-record/1": a whole game as JSON, to save, load, share and replay.

    {"format": "qwixx-cards-record/1", "variant": "joker", "players": ["Ann", "Bob", "Cy"],
     "deal": {"seed": 7},
     "actions": [{"action": "take", "player": "Ann", "slots": [2]},
                 {"action": "mark", "player": "Ann", "colour": "red", "number": 7},
                 {"action": "pass", "player": "Bob"}, ...,
                 {"action": "play", "player": "Ann", "cards": [["green", 11], ["joker", 9]], "colour": "green",
                  "cross": [11, 9]}]}

Players are in seating order; the first is the first active player. "variant" is "standard" or
"joker". "deal" is "real-cards" (the table dealt real cards; its actions announce numbers instead of
taking from the tableau) or {"seed": n}: the referee shuffled with that seed, and "deck" (the order
dealt from, as a list of cards) is written only when it is not the seed's own shuffle. "actions" are in
the order they were taken, each as its `to_json` writes it (`card_action_from_json` reads it). Hands,
piles, marks, penalties, locks and the end are derived, never written.
"""
from __future__ import annotations

from referee.cards.game import CardGame, shuffled_deck
from referee.cards.values import Card, card_action_from_json
from referee.errors import RuleError

FORMAT = "qwixx-cards-record/1"
REAL_CARDS = "real-cards"
VARIANTS = {"standard": False, "joker": True}


def to_record(game: CardGame) -> dict:
    """The record of `game` so far. It holds the seed: keep it from the players while they play."""
    if game.dealt:
        deal: object = {"seed": game.seed}
        if game.deck != shuffled_deck(game.seed, game.jokers):
            deal["deck"] = [card.to_json() for card in game.deck]
    else:
        deal = REAL_CARDS
    return {"format": FORMAT, "variant": "joker" if game.jokers else "standard", "players": list(game.players),
            "deal": deal, "actions": [action.to_json() for action in game.history]}


def load(data: object) -> CardGame:
    """The game a record describes, its actions applied. RuleError "not-a-record" for something that
    is not a card game record; for an illegal action, the rule it breaks, its message naming the action."""
    game, failure = _replay(data)
    if failure:
        raise RuleError(failure["rule"], f"Action {failure['action']}: {failure['message']}")
    return game


def replay_report(data: object) -> dict:
    """What `qwixx-table replay` prints for one record (without "file"):

    legal: {"ok": true, "over", "end", "locked": {player: [colours]}, "scores", "winners" (when over)};
    at the first illegal action: {"ok": false, "action": k (from 1), "player", "rule", "message"};
    not a record: {"ok": false, "rule": "not-a-record", "message"}.
    """
    try:
        game, failure = _replay(data)
    except RuleError as error:
        return {"ok": False, "rule": error.code, "message": error.message}
    if failure:
        return {"ok": False, **failure}
    outcome = game.outcome()
    return {"ok": True, "over": game.is_over, "end": outcome and outcome.end.value,
            "locked": {player: [row.colour.value for row in game.sheet(player).rows if row.locked]
                       for player in game.players},
            "scores": {player: score.to_json() for player, score in game.scores().items()},
            "winners": list(outcome.winners) if outcome else []}


def _replay(data: object) -> tuple[CardGame, dict | None]:
    game, actions = _setup(data)
    for number, item in enumerate(actions, start=1):
        player = item.get("player") if isinstance(item, dict) and isinstance(item.get("player"), str) else None
        try:
            game.apply(card_action_from_json(item))
        except RuleError as error:
            if error.code == "bad-action":
                raise _not_a_record(f"action {number} is not an action: {error.message}") from None
            return game, {"action": number, "player": player, "rule": error.code, "message": error.message}
    return game, None


def _setup(data: object) -> tuple[CardGame, list]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _not_a_record(f"its \"format\" is not {FORMAT}")
    unknown = set(data) - {"format", "variant", "players", "deal", "actions"}
    if unknown:
        raise _not_a_record(f"unknown fields {sorted(unknown)}")
    variant, players, deal, actions = (data.get(key) for key in ("variant", "players", "deal", "actions"))
    if variant not in VARIANTS:
        raise _not_a_record(f"\"variant\" is \"standard\" or \"joker\", not {variant!r}")
    if not isinstance(players, list):
        raise _not_a_record("\"players\" is a list of names")
    if not isinstance(actions, list):
        raise _not_a_record("\"actions\" is a list")
    seed, deck = None, None
    if deal != REAL_CARDS:
        if not (isinstance(deal, dict) and set(deal) <= {"seed", "deck"} and type(deal.get("seed")) is int):
            raise _not_a_record(f"\"deal\" is \"{REAL_CARDS}\" or {{\"seed\": n}} with an optional \"deck\"")
        seed = deal["seed"]
        if "deck" in deal:
            if not isinstance(deal["deck"], list):
                raise _not_a_record("\"deck\" is a list of cards")
            try:
                deck = [Card.from_json(card) for card in deal["deck"]]
            except RuleError as error:
                raise _not_a_record(f"its deck: {error.message}") from None
    try:
        return CardGame(players, jokers=VARIANTS[variant], seed=seed, deck=deck), actions
    except RuleError as error:
        raise _not_a_record(error.message[0].lower() + error.message[1:]) from None


def _not_a_record(why: str) -> RuleError:
    return RuleError("not-a-record", f"This is not a card game record: {why.rstrip('.')}.")
