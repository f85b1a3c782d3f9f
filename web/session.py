"""One sitting at the table: a game (or a three-game match) from its setup and its log, replayed through the
referee.

The log is what the database stores, one entry per thing that happened:
    {"type": "roll-off", "value": 4, "by": "camera"}     the next roll of the roll-off for who starts
    {"type": "act", "action": {...}, "by": "player"}     a referee action (roll, reroll, mark, pass)
    {"type": "retract", "seat": 2}                        a player takes back an open white-sum decision
    {"type": "undo", "by": "host"}                         the last step taken back
    {"type": "next-game", "by": "host"}                    the next game of a three-game match
Replaying the log on the setup rebuilds the session exactly. Every rule is the referee's (Game, RollOff, Match);
this module adds what the table needs around them: who is who, and sentences to show and speak.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from referee import Game, Mark, Match, Pass, Phase, Record, Reroll, Roll, RollOff, RuleError, action_from_json
from referee.match import GAMES_PER_MATCH
from referee.variants import find_variant

NEWS_KEPT = 12
VARIANT_TITLES = {"standard": "Standard", "two-sheets": "Two sheets each", "partners": "Partners on one sheet",
                  "cards": "The card game", "cards-joker": "The card game with jokers"}


@dataclass
class Setup:
    players: list  # names in seating order, or pairs of names for partners
    variant: str = "standard"  # a dice game variant, or "cards" / "cards-joker" for the card game
    starter: int | None = None  # the seat that rolls (or, with cards, plays) first; None: a roll-off decides
    timer: int = 0  # seconds a decision may take before the table passes for the player; 0: no timer
    match: bool = False  # the three-game match (ruling 12)
    # The card game only: "shuffled" (the product deals a virtual deck) or "real-cards"; a dealt deck's seed and,
    # for a record that gives one, the deck's order. Secrets while the game is played: no page receives a setup.
    deal: str | None = None
    seed: int | None = None
    deck: list | None = None
    tags: dict | None = None  # a loaded dice record's tags (date, place...), written again when it is saved

    def to_json(self) -> dict:
        data = {"players": self.players, "variant": self.variant, "starter": self.starter, "timer": self.timer,
                "match": self.match}
        data.update((key, value) for key, value in (("deal", self.deal), ("seed", self.seed), ("deck", self.deck),
                                                    ("tags", self.tags)) if value is not None)
        return data

    @classmethod
    def from_json(cls, data: dict) -> Setup:
        return cls(data["players"], data.get("variant", "standard"), data.get("starter"), data.get("timer", 0),
                   bool(data.get("match")), data.get("deal"), data.get("seed"), data.get("deck"), data.get("tags"))


def open_session(game_id: int, setup: Setup, log: list[dict] = ()) -> Sitting:
    """The session a setup describes (a dice game's `Session`, or a `CardSession`), its log replayed."""
    from web.card_session import CARD_VARIANTS, CardSession  # here: web.card_session builds on this module

    session = (CardSession if setup.variant in CARD_VARIANTS else Session)(game_id, setup)
    for entry in log:
        session.apply(entry)
    return session


@dataclass
class News:
    id: int
    text: str  # shown on screens and read by screen readers
    kind: str  # roll, decided, closed, penalty, turn, over, undo, roll-off, game, timer
    speech: str | None = None  # what the table screen says aloud, when shorter than the text

    def to_json(self) -> dict:
        return {"id": self.id, "text": self.text, "kind": self.kind, "speech": self.speech or self.text}


class Sitting:
    """What a dice game's `Session` and a card game's `CardSession` share: the table uses both through the same
    attributes and methods (game_id, setup, log, news, seats, people, phase, prompt, apply, to_json, ...)."""

    def seat_index(self, name: str) -> int:
        return self.seats.index(name)

    def _logged(self, entry: dict, news: list[tuple]) -> list[News]:
        """Keep an applied entry in the log and its news, (kind, text[, speech]) each; returns the news made."""
        if entry.get("by") == "timer":  # the table decided for a player who took too long: say so first
            news = [("timer", f"Time is up: the table passes for {entry['action']['player']}."), *news]
        self.log.append(entry)
        base = len(self.log) * 10
        made = [News(base + index, text, kind, *speech) for index, (kind, text, *speech) in enumerate(news)]
        self.news = (self.news + made)[-NEWS_KEPT:]
        return made

    def _public_json(self, joined: set[int]) -> dict[str, Any]:
        """The part of every page's state that both games have."""
        return {
            "id": self.game_id,
            "game": self.kind,
            "variant": self.setup.variant,
            "variant_title": VARIANT_TITLES.get(self.setup.variant, self.setup.variant),
            "timer": self.setup.timer,
            "seats": list(self.seats),
            "people": [{"name": name, "seats": list(self.seats_of_person(index)), "joined": index in joined}
                       for index, name in enumerate(self.people)],
            "phase": self.phase,
            "moment": self.moment,
            "prompt": self.prompt(),
            "news": [item.to_json() for item in self.news],
            "can_undo": self._undo_label() is not None,
            "undo_label": self._undo_label(),
            "finished": self.finished,
        }


@dataclass
class Session(Sitting):
    """A dice game (or three-game match) at the table; `web.card_session.CardSession` is its twin for cards."""

    kind = "dice"
    hides_hands = False  # nothing is secret in the dice game but a decision held until everyone decided
    action_kinds = ("mark", "pass")
    game_id: int
    setup: Setup
    log: list[dict] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)  # one, or the games of a match so far; empty during a roll-off
    rolloff: RollOff | None = None
    news: list[News] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.variant = find_variant(self.setup.variant)
        self.players = self.variant.normalise(self.setup.players)
        seats = self.variant.seats(self.players)
        # A person is a name at the table; phones join as a person and play every seat that person rolls for
        # (two sheets each: two seats; partners: two people share one).
        self.people: tuple[str, ...] = tuple(dict.fromkeys(
            self.variant.person_rolling(self.players, seat, rolls) for seat in range(len(seats)) for rolls in (0, 1)))
        if self.setup.starter is None:
            self.rolloff = RollOff(self._rolloff_seats())
        elif not 0 <= self.setup.starter < len(seats):
            raise RuleError("bad-setup", f"The starter must be one of the {len(seats)} seats, 0 to {len(seats) - 1}.")
        else:
            self._start(self.setup.starter)

    def _rolloff_seats(self) -> tuple[str, ...]:
        """Ruling 8: each person rolls one die in turn. With two sheets each, a person rolls for their first seat
        only (a roll won by a second seat would start its person's first one); partners roll as a pair."""
        first_seat_of: dict[str, str] = {}
        for seat, name in enumerate(self.variant.seats(self.players)):
            first_seat_of.setdefault(self.variant.person_rolling(self.players, seat, 0), name)
        return tuple(first_seat_of.values())

    def _start(self, starter_seat: int) -> None:
        """Ruling 8 as the referee takes it: the starter is listed first, so turn k is rolled by seat k % n."""
        first = self.variant.person_rolling(self.players, starter_seat, 0)
        self.players = next(rotated for rotated in (self.players[shift:] + self.players[:shift]
                                                    for shift in range(len(self.players)))
                            if self.variant.person_rolling(rotated, 0, 0) == first)
        self.games = [Game(self.players, self.variant)]

    def starter_after(self) -> int:
        """The setup's seat one to the left of the last game's starter (a match's third): who starts the same
        people's next sitting."""
        last = self.game
        return self.variant.seats(self.variant.normalise(self.setup.players)).index(
            last.seats[(last.starter + 1) % len(last.seats)])

    # ----- replay and copy ---------------------------------------------------------------------------------

    def copy(self) -> Session:
        twin = copy.copy(self)
        twin.log = list(self.log)
        twin.games = [game.copy() for game in self.games]
        twin.news = list(self.news)
        if self.rolloff is not None:
            twin.rolloff = copy.copy(self.rolloff)
            twin.rolloff.rolls = list(self.rolloff.rolls)
        return twin

    # ----- what is going on --------------------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The game being played (the last one of a match); None until the roll-off is settled."""
        return self.games[-1] if self.games else None

    @property
    def seats(self) -> tuple[str, ...]:
        return self.game.seats if self.game is not None else self.variant.seats(self.players)

    @property
    def phase(self) -> str:
        """"roll-off" before the starter is known, else the referee's phase (roll, white, colour, over)."""
        return "roll-off" if self.game is None else self.game.phase.value

    @property
    def moment(self) -> str:
        """Which decision the table is at (the game, the game of a match, its turn, phase and dice: dice rolled
        again, or typed again after an undo, are another decision): a tap sent from a page showing another is refused
        rather than taken for this one."""
        if self.game is None:
            return f"{self.game_id}:roll-off:{len(self.rolloff.rolls)}"
        dice = self.game.dice
        shown = "-".join(str(die or 0) for die in (*dice.white, *dice.by_colour)) if dice is not None else "0"
        return f"{self.game_id}:{len(self.games)}:{self.game.turn}:{self.phase}:{shown}"

    @property
    def over(self) -> bool:
        """The game is over (in a match, possibly with more games to come)."""
        return self.game is not None and self.game.is_over

    @property
    def finished(self) -> bool:
        """Nothing more will be played in this sitting: the game, or the last game of the match, is over."""
        return self.over and (not self.setup.match or len(self.games) == GAMES_PER_MATCH)

    @property
    def deciding(self) -> bool:
        """Players decide on the open roll now (what the decision timer is for)."""
        return self.phase in ("white", "colour")

    @property
    def decided(self) -> bool:
        """Someone has marked or passed on the open roll (then the dice can no longer be re-rolled)."""
        return self.game is not None and self.game.phase is Phase.WHITE and bool(self.game.pending)

    def seats_of_person(self, person: int) -> tuple[int, ...]:
        players = self.players if self.game is not None else self.variant.normalise(self.setup.players)
        name = self.people[person]
        return tuple(seat for seat in range(len(self.seats))
                     if name in {self.variant.person_rolling(players, seat, rolls) for rolls in (0, 1)})

    # ----- the one way to change a session -----------------------------------------------------------------

    def apply(self, entry: dict) -> list[News]:
        """Apply one log entry and return the news it makes; RuleError (changing nothing) when refused."""
        kind = entry["type"]
        news: list[tuple[str, str]] = []
        if kind == "roll-off":
            self._roll_off(entry["value"], news)
        elif kind == "undo":
            self._undo(news)
        elif self.game is None:
            raise RuleError("wrong-phase", self.prompt())
        elif kind == "act":
            self._act(action_from_json(entry["action"]), news, entry.get("by"))
        elif kind == "retract":
            taken = self.game.retract(self.seats[entry["seat"]])
            news.append(("undo", f"{taken.player} takes back their decision on the white sum."))
        elif kind == "next-game":
            self._next_game(news)
        else:
            raise RuleError("bad-action", f"Unknown entry {kind!r}.")
        return self._logged(entry, news)

    def _roll_off(self, value: int, news: list) -> None:
        if self.rolloff is None or self.game is not None:
            raise RuleError("wrong-phase", "There is no roll-off now: the game has started.")
        name = self.rolloff.roller
        starter = self.rolloff.roll(value)
        if starter is None:
            news.append(("roll-off", f"{name} rolled a {value}. Next: {self.rolloff.roller} rolls one white die."))
        else:
            self._start(self.seats.index(starter))
            news.append(("roll-off", f"{name} rolled a 6 and starts. {self._turn_sentence()}"))

    def _next_game(self, news: list) -> None:
        if not self.setup.match:
            raise RuleError("wrong-phase", "This is a single game, not a match: start a new game instead.")
        # The referee's match rules: the next game once this one is over, the next seat to the left starting.
        match = self.as_match()
        game = match.next_game()
        self.games.append(game)
        news.append(("game", f"Game {len(self.games)} of {GAMES_PER_MATCH}. {self._turn_sentence()}"))

    def _act(self, action, news: list, by: str | None = None) -> None:
        game = self.game
        before_phase, before_closed, before_dice = game.phase, game.closed, game.dice
        before_penalties = {seat: game.score(seat).penalties for seat in self.seats}
        game.apply(action)
        if isinstance(action, Roll):
            news.append(("roll", f"{self._rolling_name()} rolled {_dice_sentence(action)}.",
                         f"{self._rolling_name()} rolled. White sum {action.white_sum}."))
        elif isinstance(action, Reroll):
            changed = [f"{name} from {old} to {new}" for name, old, new in _changed_dice(before_dice, action.roll)]
            # The host types dice rolled again or corrects a misread: either way the host set them.
            done, spoken = ("The host set the dice",) * 2 if by == "host" else ("Rolled again", "Dice rolled again")
            news.append(("roll", f"{done}: {', '.join(changed) or 'the same values'}. Now {_dice_sentence(action.roll)}.",
                         f"{spoken}. White sum {action.roll.white_sum}."))
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
        if self.game is not None and not self.game.history and len(self.games) > 1:
            self.games.pop()  # back into the previous game of the match, as the referee's Match.undo does
            news.append(("undo", f"Undone: game {len(self.games) + 1} of the match."))
        elif self.game is not None and self.game.history:
            undone = self._last_action_sentence()
            self.game.undo()
            news.append(("undo", f"Undone: {undone}."))
        elif self.rolloff is not None and self.rolloff.rolls:
            name, value = self.rolloff.rolls[-1]
            self.rolloff = _rolloff_of(self.rolloff.players, self.rolloff.rolls[:-1])
            self.games = []
            self.players = self.variant.normalise(self.setup.players)
            news.append(("undo", f"Undone: {name}'s roll-off {value}."))
        else:
            raise RuleError("nothing-to-undo", "There is nothing to undo: nothing has been played yet.")

    # ----- the referee's match and records -----------------------------------------------------------------

    def as_match(self) -> Match:
        """This sitting's games as the referee's Match (totals, winners, the next game's starter, records)."""
        match = Match(self.players, self.variant)
        for number, game in enumerate(self.games):
            if number:
                match.next_game()
            for action in game.history:
                match.game.apply(action)
        return match

    def record_text(self) -> str:
        """The game (or match) as a `qwixx-record/1` file."""
        tags = self.setup.tags
        return (Record.of_match(self.as_match(), tags) if self.setup.match else Record.of_game(self.game, tags)).dumps()

    # ----- what one phone may see --------------------------------------------------------------------------

    def secrets_for(self, seats: list[int]) -> dict[str, Any]:
        """For one phone: its seats' white-sum decisions, held from the others until everyone has decided."""
        pending = self.game.pending if self.game is not None else {}
        return {"pending": {str(seat): pending[self.seats[seat]].to_json() for seat in seats if self.seats[seat] in pending}}

    def why_not(self, seat: int, action: dict) -> RuleError | None:
        """Why a box cannot be marked now; in the dice game one asks about a box only."""
        if self.game is None:
            return RuleError("wrong-phase", self.prompt())
        if action.get("action", "mark") != "mark":
            raise RuleError("bad-action", "Ask about a box: give its colour and number.")
        return self.game.why_not(self.seats[seat], action["colour"], action["number"])

    # ----- sentences ---------------------------------------------------------------------------------------

    def _rolling_name(self) -> str:
        """The seat that rolls; for partners, also which of the two picks up the dice."""
        game = self.game
        seat = self.seat_index(game.roller)
        shared = len({self.variant.person_rolling(self.players, seat, rolls) for rolls in (0, 1)}) > 1
        return f"{game.person_rolling} (for {game.roller})" if shared else game.roller

    def _turn_sentence(self) -> str:
        return f"{self._rolling_name()} rolls the dice."

    def _white_results(self) -> str:
        history = self.game.history
        start = max(index for index, action in enumerate(history) if isinstance(action, (Roll, Reroll)))
        roll = history[start].roll if isinstance(history[start], Reroll) else history[start]
        decisions = history[start + 1:start + 1 + len(self.seats)]
        marks = [f"{action.player} marked {action.colour} {action.number}" for action in decisions if isinstance(action, Mark)]
        passes = [action.player for action in decisions if isinstance(action, Pass)]
        parts = marks + ([f"{_join(passes)} passed"] if passes else [])
        return f"White sum {roll.white_sum}: {'; '.join(parts)}."

    def end_sentence(self) -> str:
        outcome = self.game.outcome()
        if outcome is None:
            return ""
        why = "two colours are closed" if outcome.end.value == "two-colours-closed" else "a fourth penalty was taken"
        sentence = f"Game over: {why}. {_winning(outcome.winners, self.game.score(outcome.winners[0]).total)}"
        if self.setup.match and self.finished:
            match = self.as_match()
            winners = match.winners()
            sentence += f" The match: {_winning(winners, match.totals()[winners[0]], 'in all')}"
        return sentence

    def prompt(self) -> str:
        """What the table is waiting for, in one sentence."""
        if self.game is None:
            return f"Roll-off: {self.rolloff.roller} rolls one white die; a 6 starts the game."
        game = self.game
        if game.phase is Phase.ROLL:
            return self._turn_sentence()
        if game.phase is Phase.WHITE:
            return f"White sum {game.white_sum}: everyone may mark it in one row, or pass."
        if game.phase is Phase.COLOUR:
            return f"{game.roller} may add a white die to a coloured die, or pass."
        return self.end_sentence()

    # ----- JSON for the pages ------------------------------------------------------------------------------

    def to_json(self, joined: set[int], reveal: bool = False) -> dict[str, Any]:
        """What every page may see (`reveal` is for a card game's secrets; the dice game has none to show)."""
        game = self.game
        out = self._public_json(joined)
        out.update({
            "match": self._match_json(),
            "rolloff": [{"name": name, "value": value} for name, value in (self.rolloff.rolls if self.rolloff else [])],
            "rolloff_seat": self.seats.index(self.rolloff.roller) if game is None else None,
        })
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

    def _match_json(self) -> dict | None:
        if not self.setup.match:
            return None
        totals = dict.fromkeys(self.seats, 0)
        for game in self.games:
            for seat, score in game.scores().items():
                totals[seat] += score.total
        return {"game": max(1, len(self.games)), "of": GAMES_PER_MATCH, "totals": [totals[seat] for seat in self.seats],
                "games": [[game.score(seat).total for seat in self.seats] for game in self.games]}

    def _last_action_sentence(self) -> str:
        """The game's last action in words; a white-sum decision not everyone has made yet stays hidden."""
        action = self.game.history[-1]
        if self.game.phase is Phase.WHITE and isinstance(action, (Mark, Pass)):
            return f"{action.player}'s decision on the white sum"
        return _action_sentence(action)

    def _undo_label(self) -> str | None:
        if self.game is not None and self.game.history:
            return self._last_action_sentence()
        if len(self.games) > 1:
            return f"the start of game {len(self.games)}"
        if self.rolloff is not None and self.rolloff.rolls:
            name, value = self.rolloff.rolls[-1]
            return f"{name}'s roll-off {value}"
        return None

    def result(self) -> dict:
        """What the list of games shows: the scores, and the end and winners once there are some."""
        game = self.game
        outcome = game.outcome()
        result = {"end": outcome.end.value if outcome else None, "winners": list(outcome.winners) if outcome else [],
                  "seats": list(self.seats),
                  "scores": {seat: score.to_json() for seat, score in game.scores().items()}, "turns": game.turn + 1}
        if self.setup.match:
            match = self.as_match()
            result.update({"match_totals": match.totals(), "match_winners": list(match.winners()),
                           "games": [{seat: score.total for seat, score in played.scores().items()}
                                     for played in match.games]})
        return result


def _rolloff_of(players: tuple, rolls: list[tuple[Any, int]]) -> RollOff:
    rolloff = RollOff(players)
    for _, value in rolls:
        rolloff.roll(value)
    return rolloff


def _option_json(option) -> dict:
    """The referee's option with the short label shown under its box."""
    return {**option.to_json(), "cost": _cost(option)}


def _cost(option) -> str:
    """What a mark gives up, in a word or two; a pass has no box."""
    if option.number is None:
        return None
    if option.locks:
        return "locks"
    if option.skipped == 0:
        return "skips none"
    return f"skips {option.skipped}"


def _winning(winners, points: int, where: str = "") -> str:
    tail = f" {where}" if where else ""
    if len(winners) == 1:
        return f"{winners[0]} wins with {points} points{tail}."
    return f"{_join(winners)} share the win with {points} points{tail}."


def _dice_sentence(roll: Roll) -> str:
    first, second = roll.white
    coloured = ", ".join(f"{colour} {roll.die(colour)}" for colour in roll.colours)
    return f"white {first} and {second}, sum {first + second}" + (f"; {coloured}" if coloured else "")


def _changed_dice(before: Roll, after: Roll) -> list[tuple[str, int, int]]:
    """The dice whose values a re-roll changed, by name: ("the first white die", 2, 5), ("red", 5, 3)."""
    pairs = [(f"the {place} white die", old, new) for place, old, new in zip(("first", "second"), before.white, after.white)]
    pairs += [(colour.value, before.die(colour), after.die(colour)) for colour in after.colours]
    return [(name, old, new) for name, old, new in pairs if old != new]


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
