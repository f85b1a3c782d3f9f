"""One game at the table: its setup and its log of entries, replayed through the referee.

The log is what the database stores, one entry per thing that happened:
    {"type": "roll-off", "seat": 1, "value": 4, "by": "camera"}   a roll for who starts (before the game)
    {"type": "act", "action": {...}, "by": "player"}               a referee action (roll, reroll, mark, pass)
    {"type": "retract", "seat": 2}                                  a player takes back an open white-sum decision
    {"type": "undo", "by": "host"}                                   the last step taken back
Replaying the log on the setup rebuilds the session exactly; every rule is the referee's. This module adds
only what the table needs around it: the roll-off, who is who, and sentences to show and speak.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee import Game, Mark, Pass, Phase, Reroll, Roll, RuleError, action_from_json
from referee.variants import find_variant

ROLL_OFF_WINS = 6
NEWS_KEPT = 12
VARIANT_TITLES = {"standard": "Standard", "two-sheets": "Two sheets each", "partners": "Partners on one sheet"}


@dataclass
class Setup:
    players: list  # names, or pairs of names for partners
    variant: str = "standard"
    starter: int | None = None  # seat that rolls first; None: a roll-off decides
    timer: int = 0  # seconds a decision may take before the table passes for the player; 0: no timer
    match: dict | None = None  # the three-game match: {"first": game id of game 1, "game": 1..3}

    def to_json(self) -> dict:
        return {"players": self.players, "variant": self.variant, "starter": self.starter, "timer": self.timer,
                "match": self.match}

    @classmethod
    def from_json(cls, data: dict) -> Setup:
        return cls(data["players"], data.get("variant", "standard"), data.get("starter"), data.get("timer", 0),
                   data.get("match"))


@dataclass
class News:
    id: int
    text: str  # shown on screens and read by screen readers
    kind: str  # roll, decided, closed, penalty, turn, over, undo, roll-off

    def to_json(self) -> dict:
        return {"id": self.id, "text": self.text, "kind": self.kind}


@dataclass
class Session:
    game_id: int
    setup: Setup
    log: list[dict] = field(default_factory=list)
    game: Game | None = None
    rolloff: list[tuple[int, int]] = field(default_factory=list)  # (seat, value) in order
    news: list[News] = field(default_factory=list)

    def __post_init__(self) -> None:
        variant = find_variant(self.setup.variant)
        self.players = variant.normalise(self.setup.players)
        self.seats: tuple[str, ...] = variant.seats(self.players)
        # A person is a name at the table; they play every seat they roll for (two sheets each: two seats;
        # partners: two people share a seat).
        self.people: tuple[str, ...] = tuple(dict.fromkeys(
            variant.person_rolling(self.players, seat, rolls) for seat in range(len(self.seats)) for rolls in (0, 1)))
        self.seats_of_person: tuple[tuple[int, ...], ...] = tuple(
            tuple(seat for seat in range(len(self.seats))
                  if person in {variant.person_rolling(self.players, seat, rolls) for rolls in (0, 1)})
            for person in self.people)
        if self.setup.starter is not None and self.game is None and not self.log:
            self.game = Game(self.players, variant, starter=self.setup.starter)

    # ----- replay and copy ---------------------------------------------------------------------------------

    @classmethod
    def replay(cls, game_id: int, setup: Setup, log: list[dict]) -> Session:
        session = cls(game_id, setup)
        for entry in log:
            session.apply(entry)
        return session

    def copy(self) -> Session:
        twin = Session.__new__(Session)
        twin.__dict__.update(self.__dict__)
        twin.log = list(self.log)
        twin.game = self.game.copy() if self.game is not None else None
        twin.rolloff = list(self.rolloff)
        twin.news = list(self.news)
        return twin

    # ----- what is going on --------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """"roll-off" before the starter is known, else the referee's phase (roll, white, colour, over)."""
        return "roll-off" if self.game is None else self.game.phase.value

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.is_over

    @property
    def rolloff_seat(self) -> int:
        return len(self.rolloff) % len(self.seats)

    @property
    def decided(self) -> bool:
        """Someone has marked or passed on the open roll (then the dice can no longer be re-rolled)."""
        return self.game is not None and self.game.phase is Phase.WHITE and bool(self.game.pending)

    def seat_index(self, name: str) -> int:
        return self.seats.index(name)

    # ----- the one way to change a session -----------------------------------------------------------------

    def apply(self, entry: dict) -> None:
        """Apply one log entry; raises RuleError (changing nothing) when the rules refuse it."""
        kind = entry["type"]
        news: list[tuple[str, str]] = []
        if kind == "roll-off":
            self._roll_off(entry["seat"], entry["value"], news)
        elif self.game is None:
            raise RuleError("wrong-phase", f"Who starts is not settled yet: {self.seats[self.rolloff_seat]} rolls "
                                           "one white die for the roll-off.")
        elif kind == "act":
            self._act(action_from_json(entry["action"]), news)
        elif kind == "retract":
            taken = self.game.retract(self.seats[entry["seat"]])
            news.append(("undo", f"{taken.player} takes back their decision on the white sum."))
        elif kind == "undo":
            self._undo(news)
        else:
            raise RuleError("bad-action", f"Unknown entry {kind!r}.")
        self.log.append(entry)
        base = len(self.log) * 10
        self.news.extend(News(base + index, text, kind) for index, (kind, text) in enumerate(news))
        del self.news[:-NEWS_KEPT]

    def _roll_off(self, seat: int, value: int, news: list) -> None:
        if self.game is not None:
            raise RuleError("wrong-phase", "The roll-off is over: the game has started.")
        if seat != self.rolloff_seat:
            raise RuleError("wrong-phase", f"It is {self.seats[self.rolloff_seat]}'s roll in the roll-off.")
        if type(value) is not int or not 1 <= value <= 6:
            raise RuleError("bad-roll", f"A die shows 1 to 6, not {value!r}.")
        self.rolloff.append((seat, value))
        name = self.seats[seat]
        if value == ROLL_OFF_WINS:
            self.game = Game(self.players, self.setup.variant, starter=seat)
            news.append(("roll-off", f"{name} rolled a 6 and starts. {self._turn_sentence()}"))
        else:
            news.append(("roll-off", f"{name} rolled a {value}. Next: {self.seats[self.rolloff_seat]} rolls one white die."))

    def _act(self, action, news: list) -> None:
        game = self.game
        before_phase, before_closed = game.phase, game.closed
        before_penalties = {seat: game.score(seat).penalties for seat in self.seats}
        roller = game.roller
        game.apply(action)
        if isinstance(action, Roll):
            news.append(("roll", f"{self._rolling_name()} rolled {_dice_sentence(action)}."))
        elif isinstance(action, Reroll):
            news.append(("roll", f"Dice rolled again: {_dice_sentence(action.roll)}."))
        if before_phase is Phase.WHITE and game.phase is not Phase.WHITE:
            news.append(("decided", self._white_results()))
        elif before_phase is Phase.COLOUR:
            news.append(("decided", _decision_sentence(action, roller_action=True)))
        for colour in game.closed[len(before_closed):]:
            news.append(("closed", f"{colour.title} is closed: take the {colour} die off the table."))
        for seat in self.seats:
            count = game.score(seat).penalties
            if count > before_penalties[seat]:
                news.append(("penalty", f"{seat} marked nothing as the roller and takes a penalty ({count} of 4)."))
        if game.is_over:
            news.append(("over", self.end_sentence()))
        elif game.phase is Phase.ROLL and before_phase is not Phase.ROLL:
            news.append(("turn", self._turn_sentence()))

    def _undo(self, news: list) -> None:
        if self.game.history:
            taken = self.game.undo()
            news.append(("undo", f"Undone: {_action_sentence(taken)}."))
        elif self.rolloff:
            seat, value = self.rolloff.pop()
            self.game = None  # the game starts only with the roll-off's 6
            news.append(("undo", f"Undone: {self.seats[seat]}'s roll-off {value}."))
        else:
            raise RuleError("nothing-to-undo", "There is nothing to undo: no action has been taken yet.")

    # ----- sentences ---------------------------------------------------------------------------------------

    def _rolling_name(self) -> str:
        game = self.game
        person = game.person_rolling
        return game.roller if person == game.roller else f"{person} (for {game.roller})"

    def _turn_sentence(self) -> str:
        return f"{self._rolling_name()} rolls the dice."

    def _white_results(self) -> str:
        history = self.game.history
        start = max(index for index, action in enumerate(history) if isinstance(action, (Roll, Reroll)))
        decisions = history[start + 1:start + 1 + len(self.seats)]
        marks = [f"{action.player} marked {action.colour} {action.number}" for action in decisions if isinstance(action, Mark)]
        passes = [action.player for action in decisions if isinstance(action, Pass)]
        parts = marks + ([f"{_join(passes)} passed"] if passes else [])
        roll = history[start].roll if isinstance(history[start], Reroll) else history[start]
        return f"White sum {roll.white_sum}: {'; '.join(parts)}."

    def end_sentence(self) -> str:
        outcome = self.game.outcome()
        if outcome is None:
            return ""
        why = ("two colours are closed" if outcome.end.value == "two-colours-closed"
               else "a fourth penalty was taken")
        best = self.game.score(outcome.winners[0]).total
        if len(outcome.winners) == 1:
            return f"Game over: {why}. {outcome.winners[0]} wins with {best} points."
        return f"Game over: {why}. {_join(outcome.winners)} share the win with {best} points."

    def prompt(self) -> str:
        """What the table is waiting for, in one sentence."""
        if self.game is None:
            return f"Roll-off: {self.seats[self.rolloff_seat]} rolls one white die; a 6 starts the game."
        game = self.game
        if game.phase is Phase.ROLL:
            return self._turn_sentence()
        if game.phase is Phase.WHITE:
            return f"White sum {game.white_sum}: everyone may mark it in one row, or pass."
        if game.phase is Phase.COLOUR:
            return f"{game.roller} may add a white die to a coloured die, or pass."
        return self.end_sentence()

    # ----- JSON for the pages ------------------------------------------------------------------------------

    def to_json(self, joined: set[int]) -> dict[str, Any]:
        game = self.game
        out: dict[str, Any] = {
            "id": self.game_id,
            "variant": self.setup.variant,
            "variant_title": VARIANT_TITLES.get(self.setup.variant, self.setup.variant),
            "timer": self.setup.timer,
            "match": self.setup.match,
            "seats": list(self.seats),
            "people": [{"name": name, "seats": list(seats), "joined": index in joined}
                       for index, (name, seats) in enumerate(zip(self.people, self.seats_of_person))],
            "phase": self.phase,
            "prompt": self.prompt(),
            "rolloff": [{"seat": seat, "value": value} for seat, value in self.rolloff],
            "rolloff_seat": self.rolloff_seat if game is None else None,
            "news": [item.to_json() for item in self.news],
            "can_undo": bool(game is not None and game.history) or bool(self.rolloff),
            "undo_label": self._undo_label(),
        }
        if game is None:
            return out
        outcome = game.outcome()
        out.update({
            "turn": game.turn,
            "roller": self.seat_index(game.roller),
            "rolling_person": game.person_rolling,
            "dice": game.dice.dice() if game.dice is not None else None,
            "white_sum": game.white_sum,
            "rolls": sum(isinstance(action, Roll) for action in game.history),
            "can_reroll": game.phase is Phase.WHITE and not game.pending,
            "waiting_for": [self.seat_index(seat) for seat in game.waiting_for],
            "closed": [colour.value for colour in game.closed],
            "sheets": [game.sheet(seat).to_json() for seat in self.seats],
            "options": [[_option_json(option) for option in game.legal_options(seat)] for seat in self.seats],
            "over": None if outcome is None else {
                "end": outcome.end.value,
                "winners": [self.seat_index(seat) for seat in outcome.winners],
                "text": self.end_sentence(),
            },
        })
        return out

    def _undo_label(self) -> str | None:
        if self.game is not None and self.game.history:
            return _action_sentence(self.game.history[-1])
        if self.rolloff:
            seat, value = self.rolloff[-1]
            return f"{self.seats[seat]}'s roll-off {value}"
        return None

    def result(self) -> dict:
        """What the list of finished games shows."""
        outcome = self.game.outcome()
        return {"end": outcome.end.value, "winners": list(outcome.winners), "seats": list(self.seats),
                "scores": {seat: score.to_json() for seat, score in self.game.scores().items()},
                "turns": self.game.turn + 1}


def _option_json(option) -> dict:
    out = {"action": "pass" if option.number is None else "mark", "penalty": option.penalty, "points": option.points,
           "text": option.describe()}
    if option.number is not None:
        out.update({"colour": option.colour.value, "number": option.number, "dice": [list(die) for die in option.dice],
                    "skipped": option.skipped, "locks": option.locks, "cost": _cost(option)})
    return out


def _cost(option) -> str:
    """The short label under a highlighted box: what the mark gives up."""
    if option.locks:
        return "locks"
    if option.skipped == 0:
        return "skips none"
    return f"skips {option.skipped}"


def _dice_sentence(roll: Roll) -> str:
    first, second = roll.white
    coloured = ", ".join(f"{colour} {roll.die(colour)}" for colour in roll.colours)
    return f"white {first} and {second}, sum {first + second}" + (f"; {coloured}" if coloured else "")


def _decision_sentence(action, roller_action: bool = False) -> str:
    if isinstance(action, Pass):
        return f"{action.player} passed" + (" on the coloured dice." if roller_action else ".")
    return f"{action.player} marked {action.colour} {action.number}."


def _action_sentence(action) -> str:
    if isinstance(action, Mark):
        return f"{action.player}'s mark {action.colour} {action.number}"
    if isinstance(action, Pass):
        return f"{action.player}'s pass"
    if isinstance(action, Reroll):
        return "the re-roll"
    return f"the roll ({_dice_sentence(action)})"


def _join(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
