"""The card game's own value types: cards, the actions that only it has, its options, phases and ends.

Colours, `Mark` and `Pass` (action 2: cross the announced number, or not), sheets and scores are the dice
game's (`referee.values`). All are immutable; actions convert to and from JSON the way the dice game's do
({"action": "play", "player": "Ann", ...}).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, NamedTuple

from referee.errors import RuleError
from referee.game import BOX
from referee.values import COLOUR_INDEX, COLOURS, PENALTY_POINTS, Colour, Mark, Pass, action_from_json, parse_colour

CARD_NUMBERS = tuple(range(2, 13))


def box(colour: Colour, number: int) -> int:
    """Where `number` stands in `colour`'s row: 0 (leftmost) to 10 (the lock's number)."""
    return BOX[COLOUR_INDEX[colour]][number]


class CardPhase(enum.StrEnum):
    """What the game waits for."""

    DRAW = "draw"      # action 1: the active player draws, refills the tableau, announces the number
    NUMBER = "number"  # action 2: everyone decides on the announced number
    PLAY = "play"      # action 3: the active player plays cards
    OVER = "over"


class CardEnd(enum.StrEnum):
    """Why a card game ended."""

    TWO_ROWS_LOCKED = "two-rows-locked"
    FOUR_PENALTIES = "four-penalties"


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a colour and a number, or a joker (colour None) that takes a colour when played."""

    colour: Colour | None
    number: int

    def __post_init__(self) -> None:
        if self.colour is not None and type(self.colour) is not Colour:
            try:
                object.__setattr__(self, "colour", Colour(self.colour))
            except ValueError:
                raise RuleError("bad-card", f"No card is {self.colour}: cards are red, yellow, green, blue "
                                "or joker.") from None
        if type(self.number) is not int or self.number not in CARD_NUMBERS:
            raise RuleError("bad-card", f"There is no card {self.number!r}: cards run from 2 to 12.")

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.number, len(COLOURS) if self.colour is None else COLOUR_INDEX[self.colour])

    def __str__(self) -> str:
        return f"{'joker' if self.colour is None else self.colour.value} {self.number}"

    def to_json(self) -> list[Any]:
        return ["joker" if self.colour is None else self.colour.value, self.number]

    @classmethod
    def from_json(cls, data: Any) -> Card:
        if not (isinstance(data, list) and len(data) == 2 and isinstance(data[0], str)):
            raise RuleError("bad-action", f"A card is [colour or \"joker\", number] such as [\"red\", 7], not {data!r}.")
        colour, number = data
        return cls(None if colour == "joker" else colour, number)


def full_deck(jokers: bool) -> tuple[Card, ...]:
    """The 44 cards (2-12 in each colour), and the 11 jokers in the Joker variant."""
    cards = tuple(Card(colour, number) for colour in COLOURS for number in CARD_NUMBERS)
    return cards + tuple(Card(None, number) for number in CARD_NUMBERS) if jokers else cards


def sorted_cards(cards: Any) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda card: card.sort_key))


@dataclass(frozen=True, slots=True)
class Take:
    """Action 1 with a dealt deck: the active player takes the cards in these tableau slots (0-3)."""

    player: str
    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "slots", tuple(sorted(self.slots)))

    def to_json(self) -> dict[str, Any]:
        return {"action": "take", "player": self.player, "slots": list(self.slots)}

    @property
    def summary(self) -> str:
        return f"take tableau {' and '.join(str(slot) for slot in self.slots)}"

    def __str__(self) -> str:
        return f"{self.player}: {self.summary}"


@dataclass(frozen=True, slots=True)
class Announce:
    """Action 1 with real cards: the active player drew, refilled the tableau and announces the number on
    top of the draw pile."""

    player: str
    number: int

    def to_json(self) -> dict[str, Any]:
        return {"action": "announce", "player": self.player, "number": self.number}

    @property
    def summary(self) -> str:
        return f"announce {self.number}"

    def __str__(self) -> str:
        return f"{self.player}: {self.summary}"


@dataclass(frozen=True, slots=True)
class Play:
    """Action 3: the active player plays 1-3 cards of one colour and crosses some of their numbers.

    `colour` is the colour chosen for the play's jokers, given exactly when it holds one. Their order
    means nothing, so cards and crossed numbers are kept in the row's order, left to right.
    """

    player: str
    cards: tuple[Card, ...]
    cross: tuple[int, ...] = ()
    colour: Colour | None = None

    def __post_init__(self) -> None:
        if self.colour is not None and type(self.colour) is not Colour:
            object.__setattr__(self, "colour", parse_colour(self.colour))
        row = self.row or Colour.RED
        object.__setattr__(self, "cards", tuple(sorted(self.cards, key=lambda card: (box(row, card.number), card.sort_key))))
        object.__setattr__(self, "cross", tuple(sorted(self.cross, key=lambda number: BOX[COLOUR_INDEX[row]].get(number, -1))))

    @property
    def row(self) -> Colour | None:
        """The row the play crosses in: the jokers' chosen colour, else its cards' (the first in sheet
        order, should they differ)."""
        return self.colour or min((card.colour for card in self.cards if card.colour), key=COLOUR_INDEX.get, default=None)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": "play", "player": self.player, "cards": [card.to_json() for card in self.cards],
                                "cross": list(self.cross)}
        if self.colour is not None:
            data["colour"] = self.colour.value
        return data

    @property
    def summary(self) -> str:
        jokers = f" (jokers as {self.colour})" if self.colour else ""
        crossed = f"crossing {', '.join(map(str, self.cross))}" if self.cross else "crossing nothing"
        return f"play {', '.join(map(str, self.cards))}{jokers}, {crossed}"

    def __str__(self) -> str:
        return f"{self.player}: {self.summary}"


CardAction = Take | Announce | Mark | Pass | Play
_EXAMPLES = {
    "take": '{"action": "take", "player": "Ann", "slots": [0, 2]}',
    "announce": '{"action": "announce", "player": "Ann", "number": 7}',
    "play": '{"action": "play", "player": "Ann", "cards": [["green", 9], ["joker", 8]], "colour": "green", "cross": [9, 8]}',
}


def card_action_from_json(data: Any) -> CardAction:
    """Any card game action from its JSON (the "action" field says which); `bad-action` if it is none.

    A card that does not exist is `bad-card`.
    """
    kind = data.get("action") if isinstance(data, dict) else None
    if kind in ("mark", "pass"):
        return action_from_json(data)
    if kind not in _EXAMPLES:
        raise RuleError("bad-action", f"Not a card game action (take, announce, mark, pass or play): {data!r}.")
    fields = {"action", "player", *{"take": ["slots"], "announce": ["number"], "play": ["cards", "cross", "colour"]}[kind]}
    player = data.get("player")
    if not isinstance(player, str) or set(data) - fields:
        raise _bad(kind, data)
    if kind == "take":
        slots = data.get("slots")
        if not (isinstance(slots, list) and all(type(slot) is int for slot in slots)):
            raise _bad(kind, data)
        return Take(player, tuple(slots))
    if kind == "announce":
        if type(data.get("number")) is not int:
            raise _bad(kind, data)
        return Announce(player, data["number"])
    cards, cross, colour = data.get("cards"), data.get("cross", []), data.get("colour")
    if not (isinstance(cards, list) and isinstance(cross, list) and all(type(number) is int for number in cross)):
        raise _bad(kind, data)
    return Play(player, tuple(Card.from_json(card) for card in cards), tuple(cross),
                None if colour is None else parse_colour(colour))


def _bad(kind: str, data: Any) -> RuleError:
    return RuleError("bad-action", f"Expected a {kind} action such as {_EXAMPLES[kind]}, got {data!r}.")


class CardOption(NamedTuple):
    """One legal action for a player now, with what a teacher would say about it.

    `colour` and `numbers`: the boxes it crosses, left to right (the lock's number included when it locks);
    `skipped`: open boxes it leaves behind for good; `row_before` and `row_after`: the row's points;
    `penalty`: whether it costs the active player a penalty (-5).
    """

    action: CardAction
    colour: Colour | None = None
    numbers: tuple[int, ...] = ()
    skipped: int = 0
    locks: bool = False
    row_before: int = 0
    row_after: int = 0
    penalty: bool = False

    @property
    def player(self) -> str:
        return self.action.player

    @property
    def points(self) -> int:
        """What the option does to the player's total."""
        return self.row_after - self.row_before - (PENALTY_POINTS if self.penalty else 0)

    def describe(self) -> str:
        """One line for a new player, e.g. "play green 11, green 9, green 8, crossing 11, 9, 8: skips
        green 12, 10 (2 boxes); green 0 -> 6 points"."""
        action = self.action
        if type(action) is Mark:
            what = f"cross {action.colour} {action.number}"
        else:
            what = "pass" if type(action) is Pass else action.summary
        if self.colour is None:
            return what + (": you take a penalty (-5 points)" if self.penalty else "")
        first, last = box(self.colour, self.numbers[0]), box(self.colour, self.numbers[-1])
        inside = last - first + 1 - len(self.numbers)  # boxes the play itself skips
        gone = [number for number in self.colour.numbers[first - (self.skipped - inside):last + 1]
                if number not in self.numbers]
        cost = (f"skips {self.colour} {', '.join(map(str, gone))} ({self.skipped} box{'es' * (self.skipped != 1)})"
                if gone else "skips nothing")
        if self.locks:
            cost += f", LOCKS {self.colour} (for you only)"
        return f"{what}: {cost}; {self.colour} {self.row_before} -> {self.row_after} point{'s' * (self.row_after != 1)}"

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "colour": self.colour and self.colour.value,
                "numbers": list(self.numbers), "skipped": self.skipped, "locks": self.locks,
                "row_before": self.row_before, "row_after": self.row_after, "penalty": self.penalty,
                "describe": self.describe()}
