"""The game object: one game of Qwixx from the first roll to the final scores (rulings 1-9)."""
from __future__ import annotations

import dataclasses
import functools
import random
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple

from referee.errors import RuleError
from referee.values import (
    BOXES_PER_ROW, CLOSED_TO_END, COLOUR_INDEX, COLOURS, LOCK_BOX, MARKS_TO_LOCK, NUMBERS, PENALTIES_TO_END,
    PENALTY_POINTS, Action, BoxState, Colour, End, Mark, Option, Pass, Phase, Reroll, Roll, Row, Score, Sheet,
    action_from_json, row_points, with_article,
)
from referee.variants import Variant, find_variant

# A row is a bit mask: bit b is the b-th box from the left; LOCK_BIT is the lock beside the last box.
LOCK_BIT = 1 << BOXES_PER_ROW
# BOX[c][number]: the box of `number` in colour c's row (numbers run 2..12 or 12..2).
BOX: tuple[dict[int, int], ...] = tuple({number: box for box, number in enumerate(numbers)} for numbers in NUMBERS)
POINTS = tuple(row_points(count) for count in range(BOXES_PER_ROW + 2))
# ROW_FACTS[row][box]: the tail of the Option for marking `box` in a row marked as `row` (boxes skipped,
# whether it locks, the row's points before and after, no penalty either way), or None if the box may not be marked.
ROW_FACTS: list[tuple[tuple[int, bool, int, int, bool, bool] | None, ...] | None] = [None] * (LOCK_BIT << 1)


def _row_facts(row: int) -> tuple[tuple[int, bool, int, int, bool, bool] | None, ...]:
    last, count = row.bit_length() - 1, row.bit_count()
    facts = []
    for box in range(BOXES_PER_ROW):
        locks = box == LOCK_BOX
        if box <= last or (locks and count < MARKS_TO_LOCK):
            facts.append(None)
        else:
            facts.append((box - last - 1, locks, POINTS[count], POINTS[count + 1 + locks], False, False))
    ROW_FACTS[row] = tuple(facts)
    return ROW_FACTS[row]


# Which of a seat's pass options (Game._pass_options) applies.
PASS_FREE, PASS_PENALISED, PASS_RISKING_PENALTY = range(3)

DIE_PAIRS = [(first, second) for first in range(1, 7) for second in range(1, 7)]
# What each action could mark with given dice, as (colour index, box, dice used), in sheet order; whether
# the box is open on a player's sheet is checked per query. WHITE_CANDIDATES[(white, white)] and
# COLOUR_CANDIDATES[(white, white)][colour][die].
WHITE_CANDIDATES = {(first, second): tuple((colour, BOX[colour][first + second], (("white", first), ("white", second)))
                                           for colour in range(4)) for first, second in DIE_PAIRS}
COLOUR_CANDIDATES = {
    # left to right on the sheet: ascending sums for red and yellow, descending for green and blue
    (first, second): tuple({die: tuple((colour, BOX[colour][white + die], (("white", white), (COLOURS[colour].value, die)))
                                       for white in sorted({first, second}, reverse=colour >= 2))
                            for die in range(1, 7)} for colour in range(4))
    for first, second in DIE_PAIRS}


@functools.lru_cache(maxsize=256)  # Marks are values: games with the same seats share them
def _mark_table(seats: tuple[str, ...]) -> tuple[Mark | None, ...]:
    return tuple(Mark(seat, COLOURS[colour], NUMBERS[colour][box]) if box < BOXES_PER_ROW else None
                 for seat in seats for colour in range(4) for box in range(16))


# Enum members read through the class cost a descriptor call each; these are read on every action.
_ROLL, _WHITE, _COLOUR, _OVER = Phase.ROLL, Phase.WHITE, Phase.COLOUR, Phase.OVER
_TWO_COLOURS, _FOUR_PENALTIES = End.TWO_COLOURS_CLOSED, End.FOUR_PENALTIES
PASSED = -1  # an action-1 decision: pass; a mark is colour * 16 + box


@functools.cache  # a row is fully given by these three; there are at most 4 * 2**12 * 2 of them
def _row(colour: int, mask: int, closed: bool) -> Row:
    last = (mask & ~LOCK_BIT).bit_length() - 1
    boxes = []
    for box, number in enumerate(NUMBERS[colour]):
        if mask >> box & 1:
            state = BoxState.MARKED
        elif box < last:
            state = BoxState.GONE
        elif closed:
            state = BoxState.CLOSED
        else:
            state = BoxState.OPEN
        boxes.append((number, state))
    marks = tuple(number for number, state in boxes if state is BoxState.MARKED)
    return Row(COLOURS[colour], marks, bool(mask & LOCK_BIT), closed, tuple(boxes))


class GameState(NamedTuple):
    """Everything that decides what happens next, as one comparable value (undo restores it exactly)."""

    turn: int
    phase: Phase
    dice: Roll | None
    rows: tuple[int, ...]
    penalties: tuple[int, ...]
    closed: tuple[tuple[int, int], ...]  # (colour index, turn) in closing order
    closed_mask: int                     # bit c set when colour c is closed
    pending: tuple[int | None, ...]
    undecided: int
    roller_marked: bool
    end: End | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the reason and the players with the highest total (ties share)."""

    end: End
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """What happened in one turn, as a table would tell it (see `Game.turns`)."""

    number: int                           # from 0
    roller: str
    roll: Roll                            # the dice played with (after any re-roll)
    white: dict[str, Mark | Pass]         # action-1 decisions, in the order they were taken
    colour: Mark | Pass | None            # the roller's action-2 decision; None if not taken (yet, or ever)
    penalty: bool                         # the roller took a penalty
    closed: tuple[Colour, ...]            # colours closed in this turn
    complete: bool                        # nothing more can happen in this turn

    @property
    def white_marks(self) -> tuple[Mark, ...]:
        return tuple(decision for decision in self.white.values() if type(decision) is Mark)


class Game:
    """One game of Qwixx. See the package docstring for a tour.

    `players` are named in seating order; the first one rolls first and play passes to the left (the next
    name). `variant` is "standard", "two-sheets" or "partners" (see `referee.variants`).
    """

    def __init__(self, players: Iterable[Any], variant: str | Variant = "standard", *, starter: int = 0) -> None:
        self.variant = find_variant(variant)
        self.players = self.variant.normalise(players)
        self.seats: tuple[str, ...] = self.variant.seats(self.players)
        self._index = {seat: index for index, seat in enumerate(self.seats)}
        self._count = len(self.seats)
        if type(starter) is not int or not 0 <= starter < self._count:
            raise RuleError("bad-setup", f"The starter must be a seat number from 0 to {self._count - 1}.")
        self.starter = starter
        self._marks = _mark_table(self.seats)  # every Mark of this game, at (seat * 4 + colour) * 16 + box
        self._passes = tuple(Pass(seat) for seat in self.seats)
        # each seat's pass option: free, with a penalty, and the roller's on the white sum (PASS_FREE, ...)
        self._pass_options = tuple(tuple(_new_tuple(Option, (action, (), 0, False, 0, 0, penalty, risk))
                                         for penalty, risk in ((False, False), (True, False), (False, True)))
                                   for action in self._passes)
        self._candidates_dice: Roll | None = None
        self._candidates: tuple[tuple[int, int, tuple], ...] = ()
        self._history: list[Action] = []
        self._stack: list[GameState] = []
        self._restore(GameState(0, _ROLL, None, (0,) * (4 * self._count), (0,) * self._count, (), 0,
                                (None,) * self._count, self._count, False, None))

    # ----- state -------------------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return _new_tuple(GameState, (self._turn, self._phase, self._dice, self._rows, self._penalties,
                                      self._closed, self._closed_mask, self._pending, self._undecided,
                                      self._roller_marked, self._end))

    def _restore(self, state: GameState) -> None:
        (self._turn, self._phase, self._dice, self._rows, self._penalties, self._closed, self._closed_mask,
         self._pending, self._undecided, self._roller_marked, self._end) = state

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def turn(self) -> int:
        """The number of the current turn, from 0."""
        return self._turn

    @property
    def roller(self) -> str:
        """The seat whose turn it is (the active player)."""
        return self.seats[(self.starter + self._turn) % self._count]

    @property
    def person_rolling(self) -> str:
        """Who picks up the dice: the roller's name, or for partners the partner whose turn it is to roll."""
        seat = (self.starter + self._turn) % self._count
        return self.variant.person_rolling(self.players, seat, self._turn // self._count)

    @property
    def dice(self) -> Roll | None:
        """The dice of the open turn (None while waiting for the roll)."""
        return self._dice

    @property
    def white_sum(self) -> int | None:
        return self._dice.white_sum if self._dice is not None else None

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The players who still have to decide in the open action (the roller alone in action 2)."""
        if self._phase is _WHITE:
            return tuple(seat for seat, decision in zip(self.seats, self._pending) if decision is None)
        if self._phase is _COLOUR:
            return (self.roller,)
        return ()

    @property
    def pending(self) -> dict[str, Mark | Pass]:
        """Decisions taken so far in an open action 1; they take effect together when the last one is in."""
        if self._phase is not _WHITE:
            return {}
        return {seat: self._decision_action(index, decision)
                for index, (seat, decision) in enumerate(zip(self.seats, self._pending)) if decision is not None}

    @property
    def closed(self) -> tuple[Colour, ...]:
        """The closed colours, in the order they closed."""
        return tuple(COLOURS[colour] for colour, _ in self._closed)

    @property
    def is_over(self) -> bool:
        return self._phase is _OVER

    def outcome(self) -> Outcome | None:
        """The end and the winners once the game is over; None while it is being played."""
        if self._end is None:
            return None
        totals = {seat: score.total for seat, score in self.scores().items()}
        best = max(totals.values())
        return Outcome(self._end, tuple(seat for seat, total in totals.items() if total == best))

    def turns(self) -> tuple[Turn, ...]:
        """Every turn so far, the open one last (incomplete), worked out by replaying the history."""
        replay = Game(self.players, self.variant, starter=self.starter)
        turns: list[Turn] = []
        for action in self._history:
            phase, closed, penalties = replay._phase, len(replay._closed), replay._penalties
            replay.apply(action)
            kind = type(action)
            if kind is Roll:
                turns.append(Turn(replay._turn, replay.roller, action, {}, None, False, (), False))
                continue
            turn = turns[-1]
            if kind is Reroll:
                changes: dict[str, Any] = {"roll": action.roll}
            elif phase is _WHITE:
                changes = {"white": {**turn.white, action.player: action}}
            else:
                changes = {"colour": action}
            changes["closed"] = turn.closed + replay.closed[closed:]
            changes["penalty"] = replay._penalties != penalties
            changes["complete"] = replay._phase is _ROLL or replay._phase is _OVER
            turns[-1] = dataclasses.replace(turn, **changes)
        return tuple(turns)

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied, in order: replaying them on a new game rebuilds this one."""
        return tuple(self._history)

    # ----- sheets and scores -------------------------------------------------------------------------------

    def sheet(self, player: str) -> Sheet:
        seat = self._seat(player)
        closed = self._closed_mask
        return Sheet(player, tuple(_row(colour, self._rows[seat * 4 + colour], bool(closed >> colour & 1))
                                   for colour in range(4)), self._penalties[seat])

    def score(self, player: str) -> Score:
        seat = self._seat(player)
        red, yellow, green, blue = (POINTS[mask.bit_count()] for mask in self._rows[seat * 4:seat * 4 + 4])
        penalties = self._penalties[seat]
        return Score(red, yellow, green, blue, penalties, red + yellow + green + blue - PENALTY_POINTS * penalties)

    def scores(self) -> dict[str, Score]:
        return {seat: self.score(seat) for seat in self.seats}

    # ----- options and refusals ----------------------------------------------------------------------------

    def legal_options(self, player: str) -> tuple[Option, ...]:
        """What `player` may do in the open action, marks left to right by colour, then the pass.

        Empty when the player has nothing to decide now (already decided, not the roller in action 2,
        waiting for a roll, game over).
        """
        seat = self._index.get(player)
        if seat is None:
            raise self._not_in_game(player)
        phase = self._phase
        if phase is _WHITE:
            if self._pending[seat] is not None:
                return ()
            rolling = seat == (self.starter + self._turn) % self._count
            candidates, passing = WHITE_CANDIDATES[self._dice.white], PASS_RISKING_PENALTY if rolling else PASS_FREE
        elif phase is _COLOUR:
            if seat != (self.starter + self._turn) % self._count:
                return ()
            candidates, passing = self._colour_candidates(), PASS_FREE if self._roller_marked else PASS_PENALISED
        else:
            return ()
        rows, base, closed, marks = self._rows, seat * 4, self._closed_mask, self._marks
        options = []
        for colour, box, dice in candidates:
            if closed >> colour & 1:
                continue
            row = rows[base + colour]
            facts = (ROW_FACTS[row] or _row_facts(row))[box]
            if facts is not None:
                options.append(_new_tuple(Option, (marks[(base + colour) * 16 + box], dice) + facts))
        options.append(self._pass_options[seat][passing])
        return tuple(options)

    def _colour_candidates(self) -> tuple[tuple[int, int, tuple], ...]:
        """What the roller's coloured-die action could mark with these dice, worked out once per roll."""
        dice = self._dice
        if self._candidates_dice is not dice:
            per_colour = COLOUR_CANDIDATES[dice.white]
            candidates: tuple[tuple[int, int, tuple], ...] = ()
            for colour, die in enumerate(dice.by_colour):
                if die is not None:
                    candidates += per_colour[colour][die]
            self._candidates_dice, self._candidates = dice, candidates
        return self._candidates

    def why_not(self, player: str, colour: Colour | str, number: int) -> RuleError | None:
        """The error that marking `colour` `number` would raise now (None if it is legal); changes nothing."""
        seat = self._index.get(player)
        if seat is None:
            return self._not_in_game(player)
        mark = Mark(player, colour, number)  # raises bad-action for what is no colour or no whole number
        return self._mark_error(seat, COLOUR_INDEX[mark.colour], mark.number)

    # ----- actions -----------------------------------------------------------------------------------------

    def apply(self, action: Action | Option) -> None:
        """Apply one action (or the action of an Option); raises RuleError, changing nothing, if illegal."""
        kind = type(action)
        if kind is Option:
            action = action.action
            kind = type(action)
        if kind is Mark:
            self._apply_mark(action)
        elif kind is Pass:
            self._apply_pass(action)
        elif kind is Roll:
            self._apply_roll(action)
        elif kind is Reroll:
            self._apply_reroll(action)
        else:
            raise RuleError("bad-action", f"Not an action (Roll, Reroll, Mark or Pass): {action!r}.")

    def roll(self, roll: Roll) -> None:
        self.apply(roll)

    def random_roll(self, rng: random.Random) -> Roll:
        """A fair roll of the dice still in play (the program rolling for the table); apply it to play it."""
        closed = self._closed_mask
        return Roll.random(rng, tuple(colour for index, colour in enumerate(COLOURS) if not closed >> index & 1))

    def reroll(self, **dice: int) -> None:
        """Ruling 9: roll single dice again before anyone decides, e.g. `reroll(red=4)` or `reroll(white2=3)`."""
        if self._dice is None:
            raise self._reroll_error()
        self.apply(Reroll(self._dice.with_dice(**dice)))

    def mark(self, player: str, colour: Colour | str, number: int) -> None:
        """`apply(Mark(player, colour, number))`, in whichever action is open."""
        self.apply(Mark(player, colour, number))

    def pass_(self, player: str) -> None:
        """`apply(Pass(player))`: mark nothing in the open action."""
        self.apply(Pass(player))

    def undo(self) -> Action:
        """Take back the last action, whatever it was, restoring the exact earlier state; returns it."""
        if not self._history:
            raise RuleError("nothing-to-undo", "There is nothing to undo: no action has been taken yet.")
        self._restore(self._stack.pop())
        return self._history.pop()

    def retract(self, player: str) -> Mark | Pass:
        """Withdraw `player`'s decision in an open action 1 while others are still deciding; returns it.

        The other decisions stay; the history reads as if the withdrawn one had never been taken.
        """
        seat = self._seat(player)
        if self._phase is not _WHITE or self._pending[seat] is None:
            raise RuleError("wrong-phase", f"{player} has no decision waiting in an open white-sum action to take back.")
        later: list[Action] = []
        while (withdrawn := self.undo()).player != player:
            later.append(withdrawn)
        for action in reversed(later):
            self.apply(action)
        return withdrawn

    def _push(self, action: Action) -> None:
        self._stack.append(self.state)
        self._history.append(action)

    def _apply_roll(self, roll: Roll) -> None:
        if self._phase is not _ROLL:
            raise self._phase_error(None)
        self._check_dice(roll)
        self._push(roll)
        self._dice = roll
        self._phase = _WHITE
        self._pending = (None,) * self._count
        self._undecided = self._count
        self._roller_marked = False

    def _apply_reroll(self, reroll: Reroll) -> None:
        if self._phase is not _WHITE or self._undecided < self._count:
            raise self._reroll_error()
        self._check_dice(reroll.roll)
        self._push(reroll)
        self._dice = reroll.roll

    def _apply_mark(self, mark: Mark) -> None:
        seat = self._index.get(mark.player)
        if seat is None:
            raise self._not_in_game(mark.player)
        colour = COLOUR_INDEX[mark.colour]
        error = self._mark_error(seat, colour, mark.number)
        if error is not None:
            raise error
        self._push(mark)
        box = BOX[colour][mark.number]
        if self._phase is _WHITE:
            self._decide(seat, colour * 16 + box)
        else:
            self._close_turn(colour, box)

    def _apply_pass(self, action: Pass) -> None:
        seat = self._index.get(action.player)
        if seat is None:
            raise self._not_in_game(action.player)
        phase = self._phase
        if phase is _WHITE:
            if self._pending[seat] is not None:
                raise self._already_acted(seat)
            self._push(action)
            self._decide(seat, PASSED)
            return
        if phase is not _COLOUR:
            raise self._phase_error(seat)
        if seat != (self.starter + self._turn) % self._count:
            raise self._roller_only(seat)
        self._push(action)
        self._close_turn(None, None)

    def _decide(self, seat: int, decision: int) -> None:
        pending = self._pending
        self._pending = pending[:seat] + (decision,) + pending[seat + 1:]
        self._undecided -= 1
        if self._undecided == 0:
            self._resolve_white()

    def _resolve_white(self) -> None:
        """Rulings 3-5: all action-1 marks take effect together, then locks, then the end check."""
        rows = list(self._rows)
        locked = 0
        for seat, decision in enumerate(self._pending):
            if decision is not None and decision >= 0:
                colour, box = divmod(decision, 16)
                bits = 1 << box
                if box == LOCK_BOX:
                    bits |= LOCK_BIT
                    locked |= 1 << colour
                rows[seat * 4 + colour] |= bits
        self._rows = tuple(rows)
        roller = (self.starter + self._turn) % self._count
        self._roller_marked = self._pending[roller] != PASSED
        if locked:
            self._closed += tuple((colour, self._turn) for colour in range(4) if locked >> colour & 1)
            self._closed_mask |= locked
            if len(self._closed) >= CLOSED_TO_END:
                self._phase = _OVER
                self._end = _TWO_COLOURS
                return
        self._phase = _COLOUR

    def _close_turn(self, colour: int | None, box: int | None) -> None:
        """Action 2 is decided: the roller's mark (or pass and perhaps a penalty), the end check, next turn."""
        roller = (self.starter + self._turn) % self._count
        if colour is not None:
            rows = list(self._rows)
            rows[roller * 4 + colour] |= (1 << box) | (LOCK_BIT if box == LOCK_BOX else 0)
            self._rows = tuple(rows)
            if box == LOCK_BOX:
                self._closed += ((colour, self._turn),)
                self._closed_mask |= 1 << colour
                if len(self._closed) >= CLOSED_TO_END:
                    self._phase = _OVER
                    self._end = _TWO_COLOURS
                    return
        elif not self._roller_marked:
            penalties = self._penalties
            self._penalties = penalties[:roller] + (penalties[roller] + 1,) + penalties[roller + 1:]
            if penalties[roller] + 1 >= PENALTIES_TO_END:
                self._phase = _OVER
                self._end = _FOUR_PENALTIES
                return
        self._turn += 1
        self._phase = _ROLL
        self._dice = None

    # ----- refusals: the rule each illegal action breaks, in words ----------------------------------------

    def _mark_error(self, seat: int, colour: int, number: int) -> RuleError | None:
        """Why `seat` may not mark `number` in `colour` now, or None. Permanent facts about the sheet are
        told before facts about this roll: a gone box stays gone whatever the dice show."""
        phase = self._phase
        if phase is _WHITE:
            if self._pending[seat] is not None:
                return self._already_acted(seat)
        elif phase is _COLOUR:
            if seat != (self.starter + self._turn) % self._count:
                return self._roller_only(seat)
        else:
            return self._phase_error(seat)
        if self._closed_mask >> colour & 1:
            return self._row_closed(colour)
        box = BOX[colour].get(number)
        name = COLOURS[colour]
        row = self._rows[seat * 4 + colour]
        last = row.bit_length() - 1
        if box is not None and box <= last:
            if row >> box & 1:
                last_mark = "it" if box == last else f"your last {name} mark, {NUMBERS[colour][last]},"
                return RuleError("left-of-last-mark", f"{name.title} {number} is already marked: each number can be "
                                                      f"marked once, and only numbers right of {last_mark} remain.")
            return RuleError("left-of-last-mark", f"{name.title} {number} is left of your last {name} mark, "
                                                  f"{NUMBERS[colour][last]}: numbers left of it are gone.")
        count = row.bit_count()
        if box == LOCK_BOX and count < MARKS_TO_LOCK:
            return RuleError("lock-needs-five", f"{name.title} {number} is the last number of the row and locks it, "
                                                f"so it needs at least {MARKS_TO_LOCK} {name} marks first; "
                                                f"you have {count}.")
        dice = self._dice
        if phase is _WHITE:
            if number != dice.white_sum:
                first, second = dice.white
                return RuleError("wrong-sum", f"The white dice show {first} + {second} = {first + second}, so this "
                                              f"action can mark only {with_article(first + second)}, not {number}.")
        else:
            die = dice.by_colour[colour]
            whites = sorted(set(dice.white))
            if number not in [white + die for white in whites]:
                made = " or ".join(f"white {white} + {name} {die} = {white + die}" for white in whites)
                return RuleError("wrong-sum", f"{name.title} {number} cannot be made from a white die and the "
                                              f"{name} die: {made}.")
        return None

    def _seat(self, player: str) -> int:
        seat = self._index.get(player)
        if seat is None:
            raise self._not_in_game(player)
        return seat

    def _not_in_game(self, player: Any) -> RuleError:
        return RuleError("not-in-game", f"{player} is not playing in this game (the players are "
                                        f"{', '.join(self.seats)}).")

    def _game_over(self) -> RuleError:
        if self._end is _FOUR_PENALTIES:
            taker = next(seat for seat, count in zip(self.seats, self._penalties) if count >= PENALTIES_TO_END)
            why = f"{taker} has taken a fourth penalty"
        else:
            why = f"two colours are closed ({', '.join(self.closed)})"
        return RuleError("game-over", f"The game is over: {why}. Nothing more can be marked; start a new game.")

    def _phase_error(self, seat: int | None) -> RuleError:
        """Wrong for the open phase: a roll while deciding, or a decision while waiting for the roll."""
        phase = self._phase
        if phase is _OVER:
            return self._game_over()
        if phase is _ROLL:
            return RuleError("wrong-phase", f"Nothing to decide yet: {self.roller} rolls the dice first.")
        if phase is _WHITE:
            return RuleError("wrong-phase", f"The dice are already rolled: everyone decides on the white sum "
                                            f"{self._dice.white_sum} first (waiting for {', '.join(self.waiting_for)}).")
        return RuleError("wrong-phase", f"The dice are already rolled: {self.roller} may still combine a white die "
                                        f"with a coloured die, or pass.")

    def _reroll_error(self) -> RuleError:
        if self._phase is _OVER:
            return self._game_over()
        if self._phase is _ROLL:
            return RuleError("wrong-phase", f"Nothing to re-roll: {self.roller} has not rolled yet.")
        return RuleError("wrong-phase", "Dice can be re-rolled only before anyone marks or passes on this roll.")

    def _already_acted(self, seat: int) -> RuleError:
        decision = self._decision_action(seat, self._pending[seat])
        did = "passed" if type(decision) is Pass else f"marked {decision.colour} {decision.number}"
        return RuleError("already-acted", f"{self.seats[seat]} already {did} on this white sum; each player decides "
                                          f"once per action, and may take it back while others are still deciding.")

    def _roller_only(self, seat: int) -> RuleError:
        return RuleError("roller-only", f"Only the roller, {self.roller}, may combine a white die with a coloured "
                                        f"die; {self.seats[seat]} waits for the next roll.")

    def _row_closed(self, colour: int) -> RuleError:
        name = COLOURS[colour]
        lockers = [seat for index, seat in enumerate(self.seats) if self._rows[index * 4 + colour] & LOCK_BIT]
        by = f" ({' and '.join(lockers)} locked it)" if lockers else ""
        turn = next(turn for closed, turn in self._closed if closed == colour)
        if self._phase is _COLOUR and turn == self._turn:
            return RuleError("row-closed", f"{name.title} was closed in this turn's white-sum action{by}, so it is "
                                           f"not available for the coloured-die action: its die is out of the game.")
        return RuleError("row-closed", f"{name.title} is closed{by}: nobody may mark {name} any more.")

    def _check_dice(self, roll: Roll) -> None:
        closed = self._closed_mask
        for colour, die in enumerate(roll.by_colour):
            if (die is None) != bool(closed >> colour & 1):
                name = COLOURS[colour]
                if die is None:
                    raise RuleError("bad-roll", f"The {name} die is missing: roll the two white dice and every "
                                                f"coloured die still in play.")
                raise RuleError("bad-roll", f"The {name} die is out of the game ({name} is closed): roll without it.")

    def _decision_action(self, seat: int, decision: int) -> Mark | Pass:
        if decision == PASSED:
            return self._passes[seat]
        colour, box = divmod(decision, 16)
        key = (seat * 4 + colour) * 16 + box
        return self._marks[key]

    # ----- copies and JSON ---------------------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy with the same history (so it can be undone too)."""
        game = Game.__new__(Game)
        game.__dict__.update(self.__dict__)
        game._history = list(self._history)
        game._stack = list(self._stack)
        return game

    @classmethod
    def from_actions(cls, players: Iterable[Any], actions: Iterable[Action], variant: str | Variant = "standard",
                     *, starter: int = 0) -> Game:
        game = cls(players, variant, starter=starter)
        for action in actions:
            game.apply(action)
        return game

    def to_json(self) -> dict[str, Any]:
        """The game as its setup and list of actions (what a server stores to resume a game exactly)."""
        return {"variant": self.variant.name, "players": self.variant.to_json_players(self.players),
                "starter": self.starter, "actions": [action.to_json() for action in self._history]}

    @classmethod
    def from_json(cls, data: Any) -> Game:
        if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
            raise RuleError("bad-action", "A saved game is an object with variant, players, starter and actions.")
        return cls.from_actions(data.get("players"), (action_from_json(item) for item in data["actions"]),
                                data.get("variant", "standard"), starter=data.get("starter", 0))

    def __repr__(self) -> str:
        return f"<Game {', '.join(self.seats)}: turn {self._turn}, {self._phase.value}>"


# Builds a NamedTuple (Option, GameState) without its keyword handling: they are made in bulk.
_new_tuple = tuple.__new__
