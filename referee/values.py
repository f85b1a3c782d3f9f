"""The referee's value types: colours, dice, actions, options, sheets and scores.

All are immutable. Actions (`Roll`, `Reroll`, `Mark`, `Pass`) convert to and from JSON so that a game can be
stored as its list of actions and rebuilt by replaying them (`action_from_json`).
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from referee.errors import RuleError


class Colour(enum.StrEnum):
    """A coloured row of the sheet and its die. Equal to its name, so "red" works wherever a Colour does."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"

    @property
    def numbers(self) -> tuple[int, ...]:
        """The row's numbers left to right as printed: 2..12 for red and yellow, 12..2 for green and blue."""
        return NUMBERS[COLOUR_INDEX[self]]

    @property
    def lock_number(self) -> int:
        """The last number of the row, which needs five marks first and closes the colour."""
        return NUMBERS[COLOUR_INDEX[self]][-1]

    @property
    def title(self) -> str:
        """The name capitalised for the start of a sentence ("Red"); replaces str.title on purpose."""
        return self.value.capitalize()


COLOURS: tuple[Colour, ...] = tuple(Colour)
COLOUR_INDEX: dict[str, int] = {colour: index for index, colour in enumerate(COLOURS)}
ASCENDING = tuple(range(2, 13))
NUMBERS: tuple[tuple[int, ...], ...] = (ASCENDING, ASCENDING, ASCENDING[::-1], ASCENDING[::-1])
BOXES_PER_ROW = 11
LOCK_BOX = BOXES_PER_ROW - 1
MARKS_TO_LOCK = 5
PENALTY_POINTS = 5
PENALTIES_TO_END = 4
CLOSED_TO_END = 2


def row_points(marks: int) -> int:
    """Points of a row with this many marks (lock included): n(n+1)/2."""
    return marks * (marks + 1) // 2


def parse_colour(value: Any) -> Colour:
    """A Colour from a Colour or its name; a clear error for anything else."""
    try:
        return Colour(value)
    except ValueError:
        raise RuleError("bad-action", f"{value!r} is not a colour: say red, yellow, green or blue.") from None


class Phase(enum.StrEnum):
    """What the game waits for."""

    ROLL = "roll"       # the roller to roll the dice
    WHITE = "white"     # action 1: everyone decides on the white sum
    COLOUR = "colour"   # action 2: the roller may add a white die to a coloured die
    OVER = "over"


class End(enum.StrEnum):
    """Why a game ended."""

    TWO_COLOURS_CLOSED = "two-colours-closed"
    FOUR_PENALTIES = "four-penalties"


_DIE_NAMES = ("white", "white", *COLOURS)
_ROLL_FIELDS = ("white", "red", "yellow", "green", "blue", "by_colour")


@dataclass(frozen=True, slots=True)
class Roll:
    """The dice as they lie: two white dice and every coloured die still in play (None for a closed colour).

    As an action it starts a turn: `game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))`.
    """

    white: tuple[int, int]
    red: int | None = None
    yellow: int | None = None
    green: int | None = None
    blue: int | None = None
    by_colour: tuple[int | None, ...] = field(init=False, repr=False, compare=False)  # red, yellow, green, blue

    def __post_init__(self) -> None:
        white = self.white
        if type(white) is not tuple:
            if not isinstance(white, list):
                raise RuleError("bad-roll", f"A roll needs exactly two white dice, not {white!r}.")
            object.__setattr__(self, "white", white := tuple(white))
        if len(white) != 2:
            raise RuleError("bad-roll", f"A roll needs exactly two white dice, not {list(white)!r}.")
        by_colour = (self.red, self.yellow, self.green, self.blue)
        for name, value in zip(_DIE_NAMES, (*white, *by_colour)):
            if type(value) is not int or not 1 <= value <= 6:
                if value is None and name in COLOURS:
                    continue
                raise RuleError("bad-roll", f"The {name} die shows {value!r}: a die shows 1 to 6.")
        object.__setattr__(self, "by_colour", by_colour)

    def die(self, colour: Colour | str) -> int | None:
        """The value of a coloured die, None when it is not in the roll."""
        return self.by_colour[COLOUR_INDEX[parse_colour(colour)]]

    @property
    def white_sum(self) -> int:
        return self.white[0] + self.white[1]

    @property
    def colours(self) -> tuple[Colour, ...]:
        """The coloured dice in this roll."""
        return tuple(colour for colour in COLOURS if getattr(self, colour) is not None)

    def with_dice(self, **dice: Any) -> Roll:
        """This roll with some dice replaced: white1=, white2=, red=, ... (a re-roll of single dice)."""
        white = list(self.white)
        for index, key in enumerate(("white1", "white2")):
            if key in dice:
                white[index] = dice.pop(key)
        values = {colour.value: getattr(self, colour) for colour in COLOURS}
        for name, value in dice.items():
            if name not in values:
                raise RuleError("bad-roll", f"There is no {name} die: the dice are white1, white2, red, yellow, green and blue.")
            values[name] = value
        return Roll((white[0], white[1]), **values)

    @classmethod
    def random(cls, rng: random.Random, colours: tuple[Colour, ...] = COLOURS) -> Roll:
        """A fair roll of the two white dice and the coloured dice given (those still in play)."""
        face = rng.random  # 6 * random() floors to each face with equal chance (to 2**-53); randint is 5x slower
        by_colour = tuple([1 + int(6 * face()) if colour in colours else None for colour in COLOURS])
        # Valid by construction: set the fields directly rather than check them again (a tenth of a game's time).
        roll = object.__new__(cls)
        for name, value in zip(_ROLL_FIELDS, ((1 + int(6 * face()), 1 + int(6 * face())), *by_colour, by_colour)):
            object.__setattr__(roll, name, value)
        return roll

    def dice(self) -> dict[str, Any]:
        """The dice as JSON, as game records write them: {"white": [2, 4], "red": 5, ...}, closed colours absent."""
        out: dict[str, Any] = {"white": list(self.white)}
        for colour in COLOURS:
            value = getattr(self, colour)
            if value is not None:
                out[colour.value] = value
        return out

    @classmethod
    def from_dice(cls, dice: Any) -> Roll:
        """Inverse of `dice()`. A value outside 1-6 or a missing white die is `bad-roll`."""
        if not isinstance(dice, dict):
            raise RuleError("bad-roll", f"A roll is an object of dice such as {{\"white\": [2, 4], \"red\": 5}}, not {dice!r}.")
        unknown = sorted(set(dice) - {"white", *COLOURS})
        if unknown:
            raise RuleError("bad-roll", f"There is no {unknown[0]} die: the dice are white (two), red, yellow, green and blue.")
        if "white" not in dice:
            raise RuleError("bad-roll", "The white dice are missing: every roll has two white dice.")
        white = dice["white"]
        if not isinstance(white, list):
            raise RuleError("bad-roll", f"The white dice are a list of two values such as [2, 4], not {white!r}.")
        return cls(tuple(white), **{colour.value: dice.get(colour.value) for colour in COLOURS})

    def to_json(self) -> dict[str, Any]:
        return {"action": "roll", **self.dice()}

    @classmethod
    def from_json(cls, data: Any) -> Roll:
        _expect_action(data, "roll")
        return cls.from_dice(_without_action(data))

    def __str__(self) -> str:
        coloured = ", ".join(f"{colour} {getattr(self, colour)}" for colour in self.colours)
        return f"white {self.white[0]} and {self.white[1]}" + (f"; {coloured}" if coloured else "")


@dataclass(frozen=True, slots=True)
class Reroll:
    """Ruling 9: dice that left the table or rest tilted are rolled again before anyone decides.

    `roll` is how all the dice lie afterwards (the untouched ones as before).
    """

    roll: Roll

    def to_json(self) -> dict[str, Any]:
        return {"action": "reroll", **self.roll.dice()}

    @classmethod
    def from_json(cls, data: Any) -> Reroll:
        _expect_action(data, "reroll")
        return cls(Roll.from_dice(_without_action(data)))


@dataclass(frozen=True, slots=True)
class Mark:
    """A player marks a number in a colour's row (in whichever action is open)."""

    player: str
    colour: Colour
    number: int

    def __post_init__(self) -> None:
        if type(self.colour) is not Colour:
            object.__setattr__(self, "colour", parse_colour(self.colour))
        if type(self.number) is not int:  # 12.0 or "12" would find the box but slip past the rules that count boxes
            raise RuleError("bad-action", f"A mark's number is a whole number such as 6, not {self.number!r}.")

    def to_json(self) -> dict[str, Any]:
        return {"action": "mark", "player": self.player, "colour": self.colour.value, "number": self.number}

    @classmethod
    def from_json(cls, data: Any) -> Mark:
        _expect_action(data, "mark")
        player, number = data.get("player"), data.get("number")
        if not isinstance(player, str) or type(number) is not int:
            raise RuleError("bad-action", f"A mark needs a player name, a colour and a whole number: {data!r}.")
        return cls(player, parse_colour(data.get("colour")), number)

    def __str__(self) -> str:
        return f"{self.player}: {self.colour} {self.number}"


@dataclass(frozen=True, slots=True)
class Pass:
    """A player marks nothing in the open action."""

    player: str

    def to_json(self) -> dict[str, Any]:
        return {"action": "pass", "player": self.player}

    @classmethod
    def from_json(cls, data: Any) -> Pass:
        _expect_action(data, "pass")
        if not isinstance(data.get("player"), str):
            raise RuleError("bad-action", f"A pass needs a player name: {data!r}.")
        return cls(data["player"])

    def __str__(self) -> str:
        return f"{self.player}: pass"


Action = Roll | Reroll | Mark | Pass
ACTION_TYPES: dict[str, type] = {"roll": Roll, "reroll": Reroll, "mark": Mark, "pass": Pass}


def _expect_action(data: Any, name: str) -> None:
    if not isinstance(data, dict) or data.get("action") != name:
        raise RuleError("bad-action", f"Expected a {name} action such as {_EXAMPLES[name]}, got {data!r}.")


def _without_action(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "action"}


_EXAMPLES = {
    "roll": '{"action": "roll", "white": [2, 4], "red": 5, "yellow": 1, "green": 3, "blue": 6}',
    "reroll": '{"action": "reroll", "white": [2, 4], "red": 2, "yellow": 1, "green": 3, "blue": 6}',
    "mark": '{"action": "mark", "player": "Ann", "colour": "red", "number": 6}',
    "pass": '{"action": "pass", "player": "Ann"}',
}


def action_from_json(data: Any) -> Action:
    """Any action from its JSON (the "action" field says which); `bad-action` if it is none."""
    kind = data.get("action") if isinstance(data, dict) else None
    if kind not in ACTION_TYPES:
        raise RuleError("bad-action", f"Not an action (roll, reroll, mark or pass): {data!r}.")
    return ACTION_TYPES[kind].from_json(data)


class Option(NamedTuple):
    """One legal decision for a player in the open action, with what a teacher would say about it.

    `action` is the Mark or Pass to apply (`game.apply(option)` works too). For a mark: `dice` names the dice
    that make the number, e.g. (("white", 2), ("red", 5)); `skipped` how many open boxes left of it are
    gone for good; `locks` whether it marks the row's last number and lock (closing the colour);
    `row_before` and `row_after` the row's points. For a pass, `dice` is empty and the row figures are 0.
    `penalty` is true when taking the option costs the roller a penalty (-5); `risks_penalty` is true for the
    roller's pass on the white sum, which costs one unless they mark with a coloured die next (ruling 6).
    """

    action: Mark | Pass
    dice: tuple[tuple[str, int], ...]
    skipped: int
    locks: bool
    row_before: int
    row_after: int
    penalty: bool
    risks_penalty: bool

    @property
    def player(self) -> str:
        return self.action.player

    @property
    def colour(self) -> Colour | None:
        return self.action.colour if type(self.action) is Mark else None

    @property
    def number(self) -> int | None:
        return self.action.number if type(self.action) is Mark else None

    @property
    def skipped_numbers(self) -> tuple[int, ...]:
        """The numbers this mark passes over, left to right."""
        if type(self.action) is not Mark:
            return ()
        numbers = self.action.colour.numbers
        box = numbers.index(self.action.number)
        return numbers[box - self.skipped:box]

    @property
    def points(self) -> int:
        """What the option does to the player's total."""
        return self.row_after - self.row_before - (PENALTY_POINTS if self.penalty else 0)

    def to_json(self) -> dict[str, Any]:
        """What a page needs to show the option and send it back (`action` is the action's JSON)."""
        return {"action": self.action.to_json(), "dice": [list(die) for die in self.dice], "skipped": self.skipped,
                "skipped_numbers": list(self.skipped_numbers), "locks": self.locks, "row_before": self.row_before,
                "row_after": self.row_after, "penalty": self.penalty, "risks_penalty": self.risks_penalty,
                "points": self.points, "text": self.describe()}

    def describe(self) -> str:
        """One line for a new player, e.g. "red 7 (white 2 + red 5): skips red 2-6 (5 boxes); red 0 -> 1 point"."""
        if type(self.action) is Pass:
            if self.penalty:
                return "pass: you take a penalty (-5 points)"
            if self.risks_penalty:
                return "pass: you take a penalty (-5 points) unless you mark with a coloured die next"
            return "pass (no penalty)"
        colour, number = self.action.colour, self.action.number
        dice = " + ".join(f"{name} {value}" for name, value in self.dice)
        numbers = self.skipped_numbers
        if not numbers:
            cost = "skips nothing"
        elif len(numbers) == 1:
            cost = f"skips {colour} {numbers[0]} (1 box)"
        else:
            cost = f"skips {colour} {numbers[0]}-{numbers[-1]} ({len(numbers)} boxes)"
        if self.locks:
            cost += f", LOCKS {colour} (closes it for everyone)"
        return f"{colour} {number} ({dice}): {cost}; {colour} {self.row_before} -> {_plural(self.row_after, 'point')}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def with_article(number: Any) -> str:
    """A number of the game (2 to 12) as said after "a": "a 6", "an 8", "an 11"."""
    return f"an {number}" if number in (8, 11) else f"a {number}"


@dataclass(frozen=True, slots=True)
class Score:
    """A player's points: each row, penalties (a count) and the total."""

    red: int
    yellow: int
    green: int
    blue: int
    penalties: int
    total: int

    def to_json(self) -> dict[str, int]:
        return {"red": self.red, "yellow": self.yellow, "green": self.green, "blue": self.blue,
                "penalties": self.penalties, "total": self.total}


class BoxState(enum.StrEnum):
    """How a box of a row looks on a player's sheet."""

    MARKED = "marked"     # crossed
    GONE = "gone"         # left of the last mark and never marked: lost for good
    OPEN = "open"         # may still be marked by this player
    CLOSED = "closed"     # the colour is closed for everyone


@dataclass(frozen=True, slots=True)
class Row:
    """One coloured row of a player's sheet."""

    colour: Colour
    marks: tuple[int, ...]  # the numbers marked, left to right (the lock is counted in `count`, not listed)
    locked: bool            # this player marked the lock
    closed: bool            # the colour is closed for everyone
    boxes: tuple[tuple[int, BoxState], ...]  # (number, state) in sheet order

    @property
    def count(self) -> int:
        """Marks that score, the lock included."""
        return len(self.marks) + self.locked

    @property
    def points(self) -> int:
        return row_points(self.count)

    @property
    def last(self) -> int | None:
        """The rightmost marked number; only numbers right of it remain."""
        return self.marks[-1] if self.marks else None


@dataclass(frozen=True, slots=True)
class Sheet:
    """A player's score sheet: four rows and the penalties."""

    player: str
    rows: tuple[Row, ...]
    penalties: int

    def row(self, colour: Colour | str) -> Row:
        return self.rows[COLOUR_INDEX[Colour(colour)]]

    @property
    def score(self) -> Score:
        red, yellow, green, blue = (row.points for row in self.rows)
        return Score(red, yellow, green, blue, self.penalties,
                     red + yellow + green + blue - PENALTY_POINTS * self.penalties)

    def to_json(self) -> dict[str, Any]:
        """What a page needs to draw the sheet."""
        return {
            "player": self.player,
            "rows": [{"colour": row.colour.value, "marks": list(row.marks), "locked": row.locked,
                      "closed": row.closed, "points": row.points,
                      "boxes": [[number, state.value] for number, state in row.boxes]} for row in self.rows],
            "penalties": self.penalties,
            "score": self.score.to_json(),
        }
