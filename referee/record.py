"""Game records, format `qwixx-record/1`: a whole game (or a three-game match) as JSON, as PGN is for chess.

    {"format": "qwixx-record/1", "variant": "standard", "players": ["Ann", "Bob", "Cy"],
     "turns": [{"roll": {"white": [2, 4], "red": 5, "yellow": 1, "green": 3, "blue": 6},
                "white": {"Ann": ["red", 6], "Cy": ["green", 6]},
                "colour": ["red", 9]}]}

- `players` in seating order; turn k (from 0) is rolled by seat k % n, so the first seat rolls first.
  The seats are the players for "standard"; for "two-sheets" the two people become four seats
  ("Ann 1", "Bob 1", "Ann 2", "Bob 2"); for "partners" `players` lists pairs (["Ann", "Bob"]) and each pair
  is one seat ("Ann & Bob"). Names in `white` are seat names.
- `roll`: the dice the turn was played with (after any re-roll); a closed colour's die is absent.
- `white`: each seat's white-sum mark [colour, number]; a seat not listed, or null, passed. May be omitted.
- `colour`: the roller's white-plus-colour mark, or null (or omitted) for a pass.
- Penalties, locks and the end are derived, never written. A record holds complete turns only.
- A three-game match (ruling 12) has `"games": [{"turns": [...]}, ...]` instead of `"turns"`; game g (from 0)
  is started by seat g % n and its turn k is rolled by seat (g + k) % n.
- Optional `"tags"`: an object of strings (date, place, ...), kept and ignored by the rules.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from referee.errors import RuleError
from referee.formats import load_json
from referee.game import Game
from referee.match import GAMES_PER_MATCH, Match
from referee.values import COLOURS, Mark, Roll
from referee.variants import find_variant

FORMAT = "qwixx-record/1"
_TOP_KEYS = {"format", "variant", "players", "turns", "games", "tags"}
_TURN_KEYS = {"roll", "white", "colour"}


class ReplayError(RuleError):
    """An illegal action in a record: the rule it breaks, and where (game and turn from 1, the player)."""

    def __init__(self, error: RuleError, turn: int, player: str | None, game: int | None = None) -> None:
        super().__init__(error.code, error.message)
        self.turn = turn
        self.player = player
        self.game = game


def _not_a_record(message: str) -> RuleError:
    return RuleError("not-a-record", message)


@dataclass(frozen=True)
class Record:
    """A checked record. `games` holds each game's turns as JSON objects (one game unless `match`)."""

    variant: str
    players: tuple[Any, ...]
    games: tuple[tuple[dict[str, Any], ...], ...]
    match: bool = False
    tags: dict[str, str] = field(default_factory=dict)

    # ----- reading -----------------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Check the shape of a record (every field, every turn); `not-a-record` says what is wrong and where.

        Dice values and marks are checked by the rules when the record is replayed.
        """
        if not isinstance(data, dict):
            raise _not_a_record(f"A record is a JSON object with \"format\": \"{FORMAT}\", not {_kind(data)}.")
        if data.get("format") != FORMAT:
            raise _not_a_record(f"The format is {data.get('format')!r}, not {FORMAT!r}.")
        unknown = sorted(set(data) - _TOP_KEYS)
        if unknown:
            raise _not_a_record(f"Unknown field {unknown[0]!r}: a record has {', '.join(sorted(_TOP_KEYS))}.")
        variant_name = data.get("variant", "standard")
        try:
            variant = find_variant(variant_name)
            players = variant.normalise(data.get("players"))
        except RuleError as error:
            raise _not_a_record(error.message) from None
        if ("turns" in data) == ("games" in data):
            raise _not_a_record("A record has either \"turns\" (one game) or \"games\" (a three-game match).")
        match = "games" in data
        if match:
            games = data["games"]
            if not isinstance(games, list) or not 1 <= len(games) <= GAMES_PER_MATCH:
                raise _not_a_record(f"\"games\" is a list of 1 to {GAMES_PER_MATCH} games, each {{\"turns\": [...]}}.")
            turn_lists = []
            for number, game in enumerate(games, 1):
                if not isinstance(game, dict) or set(game) != {"turns"}:
                    raise _not_a_record(f"Game {number} must be an object {{\"turns\": [...]}}, not {_kind(game)}.")
                turn_lists.append((f"game {number}, ", game["turns"]))
        else:
            turn_lists = [("", data["turns"])]
        checked = tuple(tuple(_check_turns(where, turns)) for where, turns in turn_lists)
        tags = data.get("tags", {})
        if not isinstance(tags, dict) or not all(isinstance(value, str) for value in tags.values()):
            raise _not_a_record("\"tags\" is an object of strings, such as {\"date\": \"2025-06-01\"}.")
        return cls(variant.name, players, checked, match, dict(tags))

    @classmethod
    def loads(cls, text: str) -> Record:
        return cls.from_json(load_json(text))

    # ----- writing -----------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        variant = find_variant(self.variant)
        out: dict[str, Any] = {"format": FORMAT, "variant": self.variant, "players": variant.to_json_players(self.players)}
        if self.match:
            out["games"] = [{"turns": list(turns)} for turns in self.games]
        else:
            out["turns"] = list(self.games[0])
        if self.tags:
            out["tags"] = dict(self.tags)
        return out

    def dumps(self) -> str:
        """The record as JSON text: one turn per line, so that it reads and diffs well."""
        data = self.to_json()
        if self.match:
            games = ",\n".join(" {\"turns\": [\n" + _turn_lines(turns, "  ") + "]}" for turns in self.games)
            body = f"\"games\": [\n{games}]"
        else:
            body = "\"turns\": [\n" + _turn_lines(self.games[0], " ") + "]"
        head = {key: value for key, value in data.items() if key not in ("turns", "games")}
        return json.dumps(head)[:-1] + ",\n" + body + "}\n"

    @classmethod
    def of_game(cls, game: Game, tags: dict[str, str] | None = None) -> Record:
        """The complete turns of a game (an unfinished turn is left out) as a single-game record."""
        if game.starter != 0:
            raise RuleError("bad-setup", "A single-game record starts with the first seat; this game is part of a match.")
        return cls(game.variant.name, game.players, (tuple(_turns_of(game)),), False, dict(tags or {}))

    @classmethod
    def of_match(cls, match: Match, tags: dict[str, str] | None = None) -> Record:
        return cls(match.variant.name, match.players, tuple(tuple(_turns_of(game)) for game in match.games), True,
                   dict(tags or {}))

    # ----- replaying ---------------------------------------------------------------------------------------

    def replay(self) -> Game | Match:
        """Play the record through the rules: a Game (a Match for a match record), or ReplayError at the first
        illegal action."""
        if not self.match:
            game = Game(self.players, self.variant)
            _replay_turns(game, self.games[0], None)
            return game
        match = Match(self.players, self.variant)
        for index, turns in enumerate(self.games):
            if index:
                if not match.game.is_over:
                    raise ReplayError(RuleError("wrong-phase", f"Game {index} of the match is not finished, yet "
                                                               f"game {index + 1} follows it."), 1, None, index + 1)
                match.next_game()
            _replay_turns(match.game, turns, index + 1)
        return match


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", type(None): "null", bool: "true or false"}.get(
        type(value), "a number")


def _check_mark(where: str, value: Any) -> None:
    if value is None:
        return
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) and type(value[1]) is int):
        raise _not_a_record(f"{where} must be [colour, number] such as [\"red\", 6], or null; got {json.dumps(value)}.")
    if value[0] not in COLOURS:
        raise _not_a_record(f"{where} names no colour: {value[0]!r} (the colours are red, yellow, green and blue).")


def _check_turns(where: str, turns: Any) -> list[dict[str, Any]]:
    if not isinstance(turns, list):
        raise _not_a_record(f"{where}\"turns\" must be a list of turns, not {_kind(turns)}.".capitalize())
    for number, turn in enumerate(turns, 1):
        at = f"{where}turn {number}"
        if not isinstance(turn, dict):
            raise _not_a_record(f"{at.capitalize()} must be an object with \"roll\", \"white\" and \"colour\", not {_kind(turn)}.")
        unknown = sorted(set(turn) - _TURN_KEYS)
        if unknown:
            raise _not_a_record(f"{at.capitalize()} has an unknown field {unknown[0]!r}: a turn has roll, white and colour.")
        if not isinstance(turn.get("roll"), dict):
            raise _not_a_record(f"{at.capitalize()} needs a \"roll\" object such as {{\"white\": [2, 4], \"red\": 5, ...}}.")
        white = turn.get("white", {})
        if white is None:
            white = {}
        if not isinstance(white, dict):
            raise _not_a_record(f"{at.capitalize()}: \"white\" must map players to [colour, number], not {_kind(white)}.")
        for player, mark in white.items():
            _check_mark(f"{at.capitalize()}: {player}'s white-sum mark", mark)
        _check_mark(f"{at.capitalize()}: the roller's colour mark", turn.get("colour"))
    return turns


def _replay_turns(game: Game, turns: tuple[dict[str, Any], ...], game_number: int | None) -> None:
    for number, turn in enumerate(turns, 1):
        player = None
        try:
            game.apply(Roll.from_dice(turn["roll"]))
            marks = {name: mark for name, mark in (turn.get("white") or {}).items() if mark is not None}
            for player in marks:
                if player not in game.seats:
                    raise game.why_not(player, *marks[player])  # not-in-game
            for player in game.seats:
                if player in marks:
                    game.mark(player, *marks[player])
                else:
                    game.pass_(player)
            player = game.roller
            if turn.get("colour") is not None:
                game.mark(player, *turn["colour"])
            elif not game.is_over:
                game.pass_(player)
        except RuleError as error:
            raise ReplayError(error, number, player, game_number) from None


def _turns_of(game: Game) -> list[dict[str, Any]]:
    """The complete turns of a game in the record's terms."""
    return [{"roll": turn.roll.dice(),
             "white": {mark.player: [mark.colour.value, mark.number] for mark in turn.white_marks},
             "colour": [turn.colour.colour.value, turn.colour.number] if type(turn.colour) is Mark else None}
            for turn in game.turns() if turn.complete]


def _turn_lines(turns: tuple[dict[str, Any], ...], indent: str) -> str:
    return ",\n".join(indent + json.dumps(turn) for turn in turns)


# ----- the replay command's report for this format --------------------------------------------------------

def result_json(game: Game) -> dict[str, Any]:
    """A finished or unfinished game's result, as `qwixx-table replay` prints it."""
    outcome = game.outcome()
    return {"over": game.is_over, "end": outcome.end.value if outcome else None,
            "closed": [colour.value for colour in game.closed],
            "scores": {seat: score.to_json() for seat, score in game.scores().items()},
            "winners": list(outcome.winners) if outcome else []}


def replay_report(data: Any) -> dict[str, Any]:
    """The `qwixx-table replay` line (without "file") for a record's JSON object."""
    try:
        record = Record.from_json(data)
    except RuleError as error:
        return {"ok": False, "rule": error.code, "message": error.message}
    try:
        played = record.replay()
    except ReplayError as error:
        where = {"game": error.game} if error.game is not None else {}
        return {"ok": False, **where, "turn": error.turn, "player": error.player, "rule": error.code,
                "message": error.message}
    if isinstance(played, Game):
        return {"ok": True, **result_json(played)}
    return {"ok": True, "over": played.is_over, "games": [result_json(game) for game in played.games],
            "totals": played.totals(), "winners": list(played.winners())}
