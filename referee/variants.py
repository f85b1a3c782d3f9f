"""How the people at the table map onto seats (rulings 10 and 11), found by name as in python-chess.

A seat is what the rules call a player: it has a sheet, rolls in turn and may take penalties. The standard
game gives each person a seat; "two sheets each" gives each of two people two seats, seated alternately;
"partners" gives each pair one seat. The three-game match (ruling 12) is `referee.Match`, for any variant.
"""
from __future__ import annotations

from typing import Any, ClassVar

from referee.errors import RuleError

MIN_SEATS, MAX_SEATS = 2, 5


class Variant:
    """A seating arrangement. Subclasses set `name` and `description` and define `seats`."""

    name: ClassVar[str]
    description: ClassVar[str]

    def normalise(self, players: Any) -> tuple[Any, ...]:
        """The players as this variant takes them (names, or pairs of names), checked."""
        raise NotImplementedError

    def seats(self, players: tuple[Any, ...]) -> tuple[str, ...]:
        """The seat names in seating order; the first seat rolls first."""
        raise NotImplementedError

    def person_rolling(self, players: tuple[Any, ...], seat: int, rolls_before: int) -> str:
        """Who physically rolls for `seat`, which has rolled `rolls_before` times already in this game."""
        return self.seats(players)[seat]

    def to_json_players(self, players: tuple[Any, ...]) -> list[Any]:
        return list(players)


def _names(players: Any, what: str) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, (list, tuple)):
        raise RuleError("bad-setup", f"{what} must be a list of names, not {players!r}.")
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RuleError("bad-setup", f"Every player needs a name; got {name!r}.")
        names.append(name.strip())
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise RuleError("bad-setup", f"Two players are called {repeated[0]}: give everyone a different name.")
    return tuple(names)


def _seat_count(count: int, what: str) -> None:
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise RuleError("bad-setup", f"Qwixx is played by {MIN_SEATS} to {MAX_SEATS} {what}; got {count}.")


class Standard(Variant):
    name = "standard"
    description = "Each player has one sheet (2 to 5 players)."

    def normalise(self, players: Any) -> tuple[str, ...]:
        names = _names(players, "Players")
        _seat_count(len(names), "players")
        return names

    def seats(self, players: tuple[str, ...]) -> tuple[str, ...]:
        return players


class TwoSheets(Variant):
    """Ruling 10: two players, each playing two seats, seated alternately; each seat is a normal player."""

    name = "two-sheets"
    description = "Two players, two sheets each, seated alternately: Ann 1, Bob 1, Ann 2, Bob 2."

    def normalise(self, players: Any) -> tuple[str, ...]:
        names = _names(players, "Players")
        if len(names) != 2:
            raise RuleError("bad-setup", f"Two sheets each is a game for exactly 2 players; got {len(names)}.")
        return names

    def seats(self, players: tuple[str, ...]) -> tuple[str, ...]:
        first, second = players
        return (f"{first} 1", f"{second} 1", f"{first} 2", f"{second} 2")

    def person_rolling(self, players: tuple[str, ...], seat: int, rolls_before: int) -> str:
        return players[seat % 2]


class Partners(Variant):
    """Ruling 11: pairs act as one player with one sheet; partners take turns at rolling for their pair."""

    name = "partners"
    description = "Pairs share one sheet and act as one player (2 to 5 pairs)."

    def normalise(self, players: Any) -> tuple[tuple[str, str], ...]:
        if isinstance(players, str) or not isinstance(players, (list, tuple)):
            raise RuleError("bad-setup", f"Partners are a list of pairs of names, not {players!r}.")
        pairs = []
        for pair in players:
            if isinstance(pair, str) or not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise RuleError("bad-setup", f"Each team is a pair of two names, such as [\"Ann\", \"Bob\"]; got {pair!r}.")
            pairs.append(pair)
        names = _names([name for pair in pairs for name in pair], "Partners")
        _seat_count(len(pairs), "pairs")
        teams = tuple((names[2 * index], names[2 * index + 1]) for index in range(len(pairs)))
        seats = self.seats(teams)
        repeated = sorted({seat for seat in seats if seats.count(seat) > 1})
        if repeated:  # ("Ann & Bob", "Cy") and ("Ann", "Bob & Cy"): one name for two sheets, whose turns would jam
            raise RuleError("bad-setup", f"Two teams would both be called {repeated[0]}: give the players names "
                                         f"without \"&\".")
        return teams

    def seats(self, players: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
        return tuple(f"{first} & {second}" for first, second in players)

    def person_rolling(self, players: tuple[tuple[str, str], ...], seat: int, rolls_before: int) -> str:
        return players[seat][rolls_before % 2]

    def to_json_players(self, players: tuple[tuple[str, str], ...]) -> list[Any]:
        return [list(pair) for pair in players]


VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (Standard(), TwoSheets(), Partners())}


def find_variant(name: Any) -> Variant:
    if isinstance(name, Variant):
        return name
    if name not in VARIANTS:
        raise RuleError("bad-setup", f"There is no variant {name!r}; choose one of: {', '.join(VARIANTS)}.")
    return VARIANTS[name]
