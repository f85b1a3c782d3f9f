"""The Qwixx Card Game (rulebook 004, ruling 13): one game object, `CardGame`.

A turn is the active player's three actions: (1) draw from the tableau to a hand of 5, refill the
tableau and announce the number on top of the draw pile; (2) every player may cross that number in one
row (`Mark`) or not (`Pass`); (3) the active player plays 1 to 3 cards of one colour and may cross their
numbers (`Play`). A game is either dealt by the referee from a seeded shuffle (it knows every card; the
active player `Take`s from the tableau) or played with real cards (the referee is told the `Announce`d
number and the cards played).

Where the rulebook is silent or loose, the referee decides as follows.

1. Players: 2 to 5, in seating order; the first listed is the first active player (the rulebook picks
   by birthday: the table decides). Play passes to the left, the next name in the list.
2. Dealing a shuffled deck: one card at a time round the table for four rounds, then four cards to the
   tableau; the rest is the draw pile, top first.
3. Who sees what: a card's number side is public (hands, tableau, the top of the draw pile); its colour
   side is seen only by the player who holds it. Nobody sees the tableau's or the draw pile's colours.
   A joker's number side looks like any other: only its holder knows it is a joker. Played cards are
   shown face up; the discard pile may not be looked through, so a view shows its size and the last
   play only. Score sheets are public.
4. The tableau keeps four slots: the active player takes cards by slot, and the refill puts the top
   cards of the draw pile into the emptied slots, in slot order.
5. Reshuffle: when a card is needed from an empty draw pile (while refilling the tableau, or for the
   announcement right after), the discard pile, the cards played in earlier turns, is shuffled into a
   new draw pile. In a dealt game the k-th reshuffle follows from the seed alone, so a record replays
   exactly and an undone step, taken again, meets the same cards.
6. Action 2: every player, the active one included, crosses the number in one row or passes; the
   action ends when all have decided. Each decision lands on its owner's sheet at once: sheets are per
   player and a lock closes a row only for its owner, so no decision changes what another may do.
7. Penalty: the active player who crossed nothing in action 2 and nothing in action 3 takes one
   penalty at the end of action 3 ("cannot, or do not, cross out a number during either the second or
   third action"): at most one a turn, and non-active players never take one.
8. Cards of a colour whose row is locked for you, or that you cannot or will not cross, may still be
   played: you must play at least one card every turn, crossing none.
9. "At most one skipped box between the first and last number you cross out": in one play, at most one
   box between the leftmost and rightmost number crossed stays uncrossed. Boxes between the row's
   earlier marks and this play's first cross may be skipped freely (the basic left-to-right rule), and
   cards played but not crossed do not count.
10. The lock's number in a play of several cards: numbers crossed earlier in the same play count
   towards its five (crossing goes left to right): red with three marks, playing 10, 11, 12 locks red.
11. Jokers: all jokers of one play take one colour, chosen when played (the play's `colour`), which
   must be the colour of the play's other cards. A joker and a coloured card of the same number may be
   played together; that box is crossed once.
12. The end: at the end of action 2 when any player has locked a second row (no action 3, no penalty);
   at the end of action 3 when the active player has a fourth penalty or locked a second row. The
   highest total wins; equal totals share the win.
13. Real cards: the referee tracks hand sizes, pile sizes and the discard pile (whose cards were all
   shown when played). It refuses a played card that lies in the discard pile, an announced number all
   of whose cards lie there, and a played card that can only be the one on top of the draw pile (every
   other card of the announced number is discarded). It cannot list plays without being told the hand.

Hidden information is the web page's to keep: show each phone `view(player)` only; let a phone ask
`legal_options`, `why_not` and `apply` only for its own player (a refused play says which cards its
player does not hold); never show the seed, the deck, the secrets (`hand`, `tableau`, piles) or a record
to the players of a game in progress. Undo steps back through every action, restoring the state exactly;
undoing a draw from the tableau shows the drawer colours they were not meant to choose by, so the page
decides who may undo.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Iterable, Sequence

from referee.cards.values import (
    CARD_NUMBERS, Announce, Card, CardAction, CardEnd, CardOption, CardPhase, Play, Take, box, full_deck,
    sorted_cards,
)
from referee.errors import RuleError
from referee.game import Outcome
from referee.values import (
    COLOUR_INDEX, COLOURS, LOCK_BOX, MARKS_TO_LOCK, PENALTIES_TO_END, PENALTY_POINTS, BoxState, Colour, Mark, Pass,
    Row, Score, Sheet, row_points, with_article,
)
from referee.variants import find_variant

DEALT_HAND, FULL_HAND, TABLEAU, MAX_PLAY, LOCKS_TO_END = 4, 5, 4, 3, 2
_DRAW, _NUMBER, _PLAY, _OVER = CardPhase.DRAW, CardPhase.NUMBER, CardPhase.PLAY, CardPhase.OVER


def shuffled_deck(seed: int, jokers: bool) -> tuple[Card, ...]:
    """The deck order a dealt game with this seed starts from."""
    return _shuffled(full_deck(jokers), f"{seed}:deal")


def _shuffled(cards: Sequence[Card], seed: str) -> tuple[Card, ...]:
    # Fisher-Yates on Random.random(), the one stream Python promises to keep across versions for a
    # given seed (shuffle() itself may change), so old records keep replaying.
    rng = random.Random(seed)
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return tuple(order)


@dataclass(frozen=True, slots=True)
class Marks:
    """The crosses on one player's sheet: the numbers crossed in each row, left to right, and penalties.

    A row whose lock's number is crossed is locked for its owner; the lock is one more mark.
    """

    rows: tuple[tuple[int, ...], ...] = ((), (), (), ())
    penalties: int = 0

    def row(self, colour: Colour) -> tuple[int, ...]:
        return self.rows[COLOUR_INDEX[colour]]

    def last_box(self, colour: Colour) -> int:
        """The box of the row's rightmost cross, -1 when the row is empty."""
        row = self.rows[COLOUR_INDEX[colour]]
        return box(colour, row[-1]) if row else -1

    def locked(self, colour: Colour) -> bool:
        row = self.rows[COLOUR_INDEX[colour]]
        return bool(row) and row[-1] == colour.lock_number

    def points(self, colour: Colour) -> int:
        return row_points(len(self.row(colour)) + self.locked(colour))

    @property
    def locks(self) -> int:
        return sum(self.locked(colour) for colour in COLOURS)

    @property
    def total(self) -> int:
        return sum(self.points(colour) for colour in COLOURS) - PENALTY_POINTS * self.penalties

    def crossed(self, colour: Colour, numbers: Sequence[int]) -> Marks:
        """These marks with `numbers` (checked, left to right) crossed in `colour`'s row."""
        index = COLOUR_INDEX[colour]
        return Marks(self.rows[:index] + (self.rows[index] + tuple(numbers),) + self.rows[index + 1:], self.penalties)

    def penalised(self) -> Marks:
        return Marks(self.rows, self.penalties + 1)


@dataclass(frozen=True, slots=True)
class CardState:
    """Everything that decides what happens next, as one comparable value (undo restores it exactly).

    Cards the referee does not know (real cards) are None.
    """

    turn: int
    phase: CardPhase
    marks: tuple[Marks, ...]
    hands: tuple[tuple[Card | None, ...], ...]
    tableau: tuple[Card | None, ...]
    draw_pile: tuple[Card | None, ...]  # top first
    discard_pile: tuple[Card, ...]
    announced: int | None = None
    decided: frozenset[int] = frozenset()  # seats that have decided in action 2
    active_crossed: bool = False  # the active player crossed in action 2
    reshuffles: int = 0
    end: CardEnd | None = None


class CardGame:
    """One game of the Qwixx Card Game; see the package docstring for a tour.

    `CardGame(players, seed=7)` deals a shuffled deck (`deck` may give its order instead; the seed still
    shuffles the discards); `CardGame(players)` referees real cards. `jokers=True` plays the Joker variant.
    """

    def __init__(self, players: Iterable[str], *, jokers: bool = False, seed: int | None = None,
                 deck: Iterable[Card] | None = None) -> None:
        self.players: tuple[str, ...] = find_variant("standard").normalise(players)
        self.jokers = bool(jokers)
        self.seed = seed
        cards = full_deck(self.jokers)
        if seed is None:
            if deck is not None:
                raise RuleError("bad-setup", "A dealt deck needs a seed to shuffle its discards.")
            self.deck: tuple[Card, ...] | None = None
            order: tuple[Card | None, ...] = (None,) * len(cards)
        else:
            if type(seed) is not int:
                raise RuleError("bad-setup", f"A seed is a whole number, not {seed!r}.")
            self.deck = shuffled_deck(seed, self.jokers) if deck is None else tuple(deck)
            if sorted_cards(self.deck) != sorted_cards(cards):
                raise RuleError("bad-setup", f"A deck holds each of the game's {len(cards)} cards exactly once.")
            order = self.deck
        seats, dealt = len(self.players), DEALT_HAND * len(self.players)
        self._seats = {player: seat for seat, player in enumerate(self.players)}
        self._state = CardState(
            turn=0, phase=_DRAW, marks=(Marks(),) * seats,
            hands=tuple(self._hand(order[seat:dealt:seats]) for seat in range(seats)),
            tableau=order[dealt:dealt + TABLEAU], draw_pile=order[dealt + TABLEAU:], discard_pile=())
        self._history: list[tuple[CardState, CardAction]] = []

    # ----- what everyone may know ----------------------------------------------------------------------

    @property
    def state(self) -> CardState:
        return self._state

    @property
    def dealt(self) -> bool:
        """True when the referee dealt the deck, False for real cards."""
        return self.deck is not None

    @property
    def turn(self) -> int:
        """The number of the current turn, from 0."""
        return self._state.turn

    @property
    def active(self) -> str:
        return self.players[self._state.turn % len(self.players)]

    @property
    def phase(self) -> CardPhase:
        return self._state.phase

    @property
    def announced(self) -> int | None:
        """The number announced in this turn's action 1 (None before it)."""
        return self._state.announced

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The players who still have to act in the open action."""
        state = self._state
        if state.phase is _NUMBER:
            return tuple(player for seat, player in enumerate(self.players) if seat not in state.decided)
        return () if state.phase is _OVER else (self.active,)

    @property
    def is_over(self) -> bool:
        return self._state.phase is _OVER

    def outcome(self) -> Outcome | None:
        """The end and the winners (the highest total; ties share) once the game is over, else None."""
        if self._state.end is None:
            return None
        best = max(marks.total for marks in self._state.marks)
        return Outcome(self._state.end, tuple(p for p, marks in zip(self.players, self._state.marks) if marks.total == best))

    @property
    def history(self) -> tuple[CardAction, ...]:
        """Every action applied, in order: replaying them on a new game rebuilds this one."""
        return tuple(action for _, action in self._history)

    @property
    def last_play(self) -> Play | None:
        """The most recent play: its cards were shown face up to everyone."""
        return next((action for action in reversed(self.history) if type(action) is Play), None)

    def sheet(self, player: str) -> Sheet:
        """The player's sheet as a page draws it; a row `closed` is locked for this player."""
        marks = self._state.marks[self._seat(player)]
        rows = []
        for colour in COLOURS:
            crossed, last = marks.row(colour), marks.last_box(colour)
            boxes = tuple((number, BoxState.MARKED if number in crossed else BoxState.GONE if index < last
                           else BoxState.OPEN) for index, number in enumerate(colour.numbers))
            rows.append(Row(colour, crossed, marks.locked(colour), marks.locked(colour), boxes))
        return Sheet(player, tuple(rows), marks.penalties)

    def score(self, player: str) -> Score:
        marks = self._state.marks[self._seat(player)]
        return Score(*(marks.points(colour) for colour in COLOURS), marks.penalties, marks.total)

    def scores(self) -> dict[str, Score]:
        return {player: self.score(player) for player in self.players}

    @property
    def draw_pile_size(self) -> int:
        return len(self._state.draw_pile)

    @property
    def discard_pile_size(self) -> int:
        return len(self._state.discard_pile)

    # ----- secrets: what only the referee (and, for a hand, its holder) may know; None is unknown ----------

    def hand(self, player: str) -> tuple[Card | None, ...]:
        return self._state.hands[self._seat(player)]

    @property
    def tableau(self) -> tuple[Card | None, ...]:
        return self._state.tableau

    @property
    def draw_pile(self) -> tuple[Card | None, ...]:
        return self._state.draw_pile

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        return self._state.discard_pile

    def view(self, viewer: str | None = None) -> dict[str, Any]:
        """What `viewer` may see, ready for JSON; None is the shared screen, which sees no colours.

        Every card is [colour, number]: the colour is "joker" for a joker and null where the viewer may
        not see it; the number is null where the referee does not know it (real cards). "options" are
        the viewer's legal options, null for the shared screen and for the active player's plays with
        real cards (the referee does not know the hand: ask `legal_options(player, cards)`).
        """
        seat = None if viewer is None else self._seat(viewer)
        state = self._state

        def shown(card: Card | None, own: bool) -> list[Any]:
            if card is None:
                return [None, None]
            return card.to_json() if own else [None, card.number]

        unlisted = viewer is None or (not self.dealt and state.phase is _PLAY and viewer == self.active)
        outcome = self.outcome()
        return {
            "viewer": viewer, "players": list(self.players), "variant": "joker" if self.jokers else "standard",
            "deal": "shuffled" if self.dealt else "real-cards", "turn": state.turn, "active": self.active,
            "phase": state.phase.value, "announced": state.announced, "waiting_for": list(self.waiting_for),
            "hands": {player: [shown(card, index == seat) for card in hand]
                      for index, (player, hand) in enumerate(zip(self.players, state.hands))},
            "tableau": [shown(card, False) for card in state.tableau],
            "draw_pile": len(state.draw_pile), "discard_pile": len(state.discard_pile),
            "last_play": self.last_play and self.last_play.to_json(),
            "sheets": {player: self.sheet(player).to_json() for player in self.players},
            "over": self.is_over, "end": outcome and outcome.end.value,
            "winners": list(outcome.winners) if outcome else [],
            "options": None if unlisted else [option.to_json() for option in self.legal_options(viewer)],
        }

    # ----- options, refusals and actions -------------------------------------------------------------------

    def legal_options(self, player: str, cards: Iterable[Card] | None = None) -> tuple[CardOption, ...]:
        """Every action `player` may take now, with what each does to their sheet; empty when they have
        nothing to do now.

        In action 3 the plays are made of `cards`: by default the player's hand, which the referee knows
        only when it dealt; with real cards, the page passes the cards the player holds or has picked
        (`hand-unknown` when it passes none).
        """
        seat = self._seat(player)
        state = self._state
        active = seat == state.turn % len(self.players)
        if state.phase is _DRAW and active:
            if self.dealt:
                need = FULL_HAND - len(state.hands[seat])
                actions: list[CardAction] = [Take(player, slots) for slots in combinations(range(TABLEAU), need)]
            else:
                actions = [Announce(player, number) for number in CARD_NUMBERS]
        elif state.phase is _NUMBER and seat not in state.decided:
            actions = [Mark(player, colour, state.announced) for colour in COLOURS] + [Pass(player)]
        elif state.phase is _PLAY and active:
            if cards is None:
                if not self.dealt:
                    raise RuleError("hand-unknown", "With real cards the referee cannot see your hand: tell it "
                                                    "which cards you hold.")
                cards = state.hands[seat]
            cards = tuple(dict.fromkeys(cards))
            self._check_holding(state, seat, cards)
            actions = list(self._plays(player, cards))
        else:
            return ()
        options = []
        for action in actions:
            try:
                after = self._next(state, action)
            except RuleError:
                continue
            options.append(self._option(action, state.marks[seat], after.marks[seat]))
        return tuple(options)

    def why_not(self, action: CardAction) -> RuleError | None:
        """The error `action` would raise now, or None when it is legal; changes nothing."""
        try:
            self._next(self._state, action)
        except RuleError as error:
            return error
        return None

    def apply(self, action: CardAction | CardOption) -> None:
        """Carry out an action (or an option's action), or raise RuleError naming the rule it breaks,
        changing nothing."""
        if type(action) is CardOption:
            action = action.action
        state = self._next(self._state, action)
        self._history.append((self._state, action))
        self._state = state

    def copy(self) -> CardGame:
        """An independent copy with the same history (so it can be undone too)."""
        game = CardGame.__new__(CardGame)
        game.__dict__.update(self.__dict__)
        game._history = list(self._history)
        return game

    def undo(self) -> CardAction:
        """Take back the last action, whatever it was, restoring the exact earlier state; returns it."""
        if not self._history:
            raise RuleError("nothing-to-undo", "There is nothing to undo: no action has been taken yet.")
        self._state, action = self._history.pop()
        return action

    # ----- the rules ---------------------------------------------------------------------------------------

    def _seat(self, player: str) -> int:
        seat = self._seats.get(player)
        if seat is None:
            raise RuleError("not-in-game", f"{player} is not playing in this game (the players are "
                                           f"{', '.join(self.players)}).")
        return seat

    def _hand(self, cards: Iterable[Card | None]) -> tuple[Card | None, ...]:
        return sorted_cards(cards) if self.dealt else tuple(cards)

    def _next(self, state: CardState, action: CardAction) -> CardState:
        kind = type(action)
        if kind not in (Take, Announce, Mark, Pass, Play):
            raise RuleError("bad-action", f"Not a card game action (Take, Announce, Mark, Pass or Play): {action!r}.")
        seat = self._seat(action.player)
        if state.phase is _OVER:
            why = ("a player locked a second row" if state.end is CardEnd.TWO_ROWS_LOCKED
                   else f"{self.players[state.turn % len(self.players)]} has taken a fourth penalty")
            raise RuleError("game-over", f"The game is over: {why}. Nothing more can be played; start a new game.")
        if kind is Take or kind is Announce:
            return self._draw(state, seat, action)
        if kind is Play:
            return self._play(state, seat, action)
        return self._decide(state, seat, action)

    def _require(self, state: CardState, seat: int, phase: CardPhase, doing: str) -> None:
        active = self.players[state.turn % len(self.players)]
        if state.phase is not phase:
            now = {_DRAW: f"{active} draws cards and announces a number first",
                   _NUMBER: f"every player decides on the announced {state.announced} first (waiting for "
                            f"{', '.join(p for s, p in enumerate(self.players) if s not in state.decided)})",
                   _PLAY: f"{active} plays cards now"}[state.phase]
            raise RuleError("wrong-phase", f"You cannot {doing} now: {now}.")
        if phase is not _NUMBER and seat != state.turn % len(self.players):
            raise RuleError("active-only", f"Only the active player, {active}, may {doing} now; "
                                           f"{self.players[seat]} waits for their turn.")

    def _draw(self, state: CardState, seat: int, action: Take | Announce) -> CardState:
        self._require(state, seat, _DRAW, "draw cards")
        hand = state.hands[seat]
        need = FULL_HAND - len(hand)
        if (type(action) is Take) != self.dealt:
            raise RuleError("wrong-mode", "The referee deals this game: take cards from its tableau." if self.dealt
                            else "With real cards, draw from the table and announce the number on the draw pile.")
        if type(action) is Take:
            slots = action.slots
            if any(slot not in range(TABLEAU) for slot in slots):
                raise RuleError("bad-slot", f"The tableau has slots 0 to {TABLEAU - 1}, not {list(slots)}.")
            if len(set(slots)) < len(slots):
                raise RuleError("duplicate", "You cannot take the same tableau card twice.")
            if len(slots) != need:
                raise RuleError("wrong-count", f"You hold {len(hand)} cards: take exactly {need} from the tableau "
                                               f"to have {FULL_HAND}.")
        else:
            slots = tuple(range(need))
        taken = tuple(state.tableau[slot] for slot in slots)
        tableau, draw_pile, discard_pile, reshuffles = list(state.tableau), state.draw_pile, state.discard_pile, state.reshuffles
        for slot in slots:
            if not draw_pile:
                draw_pile, discard_pile, reshuffles = self._reshuffle(discard_pile, reshuffles)
            tableau[slot], draw_pile = draw_pile[0], draw_pile[1:]
        if not draw_pile:
            draw_pile, discard_pile, reshuffles = self._reshuffle(discard_pile, reshuffles)
        if type(action) is Announce:
            announced = action.number
            if type(announced) is not int or announced not in CARD_NUMBERS:
                raise RuleError("bad-card", f"No card shows {announced!r}: cards run from 2 to 12.")
            if all(card in discard_pile for card in full_deck(self.jokers) if card.number == announced):
                raise RuleError("card-in-discard", f"Every {announced} lies in the discard pile, so the draw pile "
                                                   f"cannot show {with_article(announced)}.")
        else:
            announced = draw_pile[0].number
        hands = state.hands[:seat] + (self._hand(hand + taken),) + state.hands[seat + 1:]
        return replace(state, phase=_NUMBER, hands=hands, tableau=tuple(tableau), draw_pile=draw_pile,
                       discard_pile=discard_pile, reshuffles=reshuffles, announced=announced)

    def _reshuffle(self, discard_pile: tuple[Card, ...], reshuffles: int):
        if self.dealt:
            draw_pile: tuple[Card | None, ...] = _shuffled(discard_pile, f"{self.seed}:reshuffle:{reshuffles}")
        else:
            draw_pile = (None,) * len(discard_pile)
        return draw_pile, (), reshuffles + 1

    def _decide(self, state: CardState, seat: int, action: Mark | Pass) -> CardState:
        self._require(state, seat, _NUMBER, "cross the announced number")
        if seat in state.decided:
            raise RuleError("already-acted", f"{self.players[seat]} already decided on the announced "
                                             f"{state.announced}; each player decides once per turn (a decision made by mistake "
                                             "can be undone).")
        marks = state.marks
        crossed = type(action) is Mark
        if crossed:
            if action.number != state.announced:
                raise RuleError("wrong-number", f"The announced number is {state.announced}, so this action can "
                                                f"cross only {with_article(state.announced)}, not {action.number}.")
            marks = marks[:seat] + (_cross(marks[seat], action.colour, (action.number,)),) + marks[seat + 1:]
        decided = state.decided | {seat}
        active_crossed = state.active_crossed or (crossed and seat == state.turn % len(self.players))
        if len(decided) < len(self.players):
            return replace(state, marks=marks, decided=decided, active_crossed=active_crossed)
        over = any(sheet.locks >= LOCKS_TO_END for sheet in marks)
        return replace(state, marks=marks, decided=decided, active_crossed=active_crossed,
                       phase=_OVER if over else _PLAY, end=CardEnd.TWO_ROWS_LOCKED if over else None)

    def _play(self, state: CardState, seat: int, play: Play) -> CardState:
        self._require(state, seat, _PLAY, "play cards")
        cards = play.cards
        if not cards:
            raise RuleError("play-count", "You must play at least one card, even if you cross nothing.")
        if len(cards) > MAX_PLAY:
            raise RuleError("play-count", f"You may play at most {MAX_PLAY} cards, not {len(cards)}.")
        twice = next((card for card in cards if cards.count(card) > 1), None)
        if twice:
            raise RuleError("duplicate", f"The {twice} is in this play twice.")
        self._check_holding(state, seat, cards)
        colours = sorted({card.colour for card in cards if card.colour}, key=COLOUR_INDEX.get)
        if len(colours) > 1:
            raise RuleError("mixed-colours", f"Cards played together must be one colour, not "
                                             f"{' and '.join(colour.value for colour in colours)}.")
        if any(card.is_joker for card in cards):
            if play.colour is None:
                raise RuleError("joker-colour", "Choose a colour for your joker: it becomes that colour.")
            if colours and play.colour != colours[0]:
                raise RuleError("mixed-colours", f"Your joker must be {colours[0]}, like the other cards you play.")
        elif play.colour is not None:
            raise RuleError("joker-colour", f"Only a joker takes a chosen colour: your cards are {colours[0]} already.")
        numbers = {card.number for card in cards}
        for number in play.cross:
            if number not in numbers:
                raise RuleError("not-played", f"You did not play {with_article(number)}: you may cross only the numbers you play.")
        if len(set(play.cross)) < len(play.cross):
            raise RuleError("duplicate", "Each number can be crossed only once, even when two cards show it.")
        marks = _cross(state.marks[seat], play.row, play.cross) if play.cross else state.marks[seat]
        if not state.active_crossed and not play.cross:
            marks = marks.penalised()
        hand = list(state.hands[seat])
        for card in cards:
            hand.remove(card if self.dealt else None)
        end = (CardEnd.FOUR_PENALTIES if marks.penalties >= PENALTIES_TO_END
               else CardEnd.TWO_ROWS_LOCKED if marks.locks >= LOCKS_TO_END else None)
        changed = dict(marks=state.marks[:seat] + (marks,) + state.marks[seat + 1:],
                       hands=state.hands[:seat] + (tuple(hand),) + state.hands[seat + 1:],
                       discard_pile=state.discard_pile + cards)
        if end:
            return replace(state, **changed, phase=_OVER, end=end)
        return replace(state, **changed, phase=_DRAW, turn=state.turn + 1, announced=None, decided=frozenset(),
                       active_crossed=False)

    def _check_holding(self, state: CardState, seat: int, cards: Sequence[Card]) -> None:
        """Refuse cards the player cannot be holding."""
        if not self.jokers and any(card.is_joker for card in cards):
            raise RuleError("bad-card", "There are no jokers in this game: they belong to the Joker variant.")
        if self.dealt:
            for card in cards:
                if card not in state.hands[seat]:
                    raise RuleError("not-in-hand", f"You do not hold the {card}.")
            return
        for card in cards:
            if card in state.discard_pile:
                raise RuleError("card-in-discard", f"The {card} was played already: it lies in the discard pile.")
        unseen = [card for card in full_deck(self.jokers) if card not in state.discard_pile and card not in cards]
        if not any(card.number == state.announced for card in unseen):
            card = next(card for card in cards if card.number == state.announced)
            raise RuleError("card-on-draw-pile", f"The {card} cannot be in your hand: every other "
                                                  f"{state.announced} is in the discard pile, so it is the card on "
                                                  f"top of the draw pile.")

    @staticmethod
    def _plays(player: str, cards: Sequence[Card]):
        """Every play of 1-3 of `cards` of one colour, with every choice of numbers to cross."""
        for size in range(1, MAX_PLAY + 1):
            for chosen in combinations(cards, size):
                colours = {card.colour for card in chosen if card.colour}
                if len(colours) > 1:
                    continue
                jokers = any(card.is_joker for card in chosen)
                numbers = sorted({card.number for card in chosen})
                for colour in ((tuple(colours) or COLOURS) if jokers else (None,)):
                    for count in range(len(numbers) + 1):
                        for cross in combinations(numbers, count):
                            yield Play(player, chosen, cross, colour)

    @staticmethod
    def _option(action: CardAction, before: Marks, after: Marks) -> CardOption:
        penalty = after.penalties > before.penalties
        colour = next((colour for colour in COLOURS if after.row(colour) != before.row(colour)), None)
        if colour is None:
            return CardOption(action, penalty=penalty)
        numbers = after.row(colour)[len(before.row(colour)):]
        skipped = after.last_box(colour) - before.last_box(colour) - len(numbers)
        return CardOption(action, colour, numbers, skipped, after.locked(colour), before.points(colour),
                          after.points(colour), penalty)


def _cross(marks: Marks, colour: Colour, numbers: Sequence[int]) -> Marks:
    """`marks` with `numbers` (distinct, one action) crossed in `colour`'s row, or RuleError."""
    name = colour.title
    if marks.locked(colour):
        raise RuleError("row-closed", f"Your {colour} row is locked: you cannot cross {colour} numbers any more "
                                      "(other players still can).")
    last = marks.last_box(colour)
    in_order = sorted(numbers, key=lambda number: box(colour, number))
    for number in in_order:
        if number in marks.row(colour):
            last_mark = "it" if box(colour, number) == last else f"your last {colour} mark, {marks.row(colour)[-1]},"
            raise RuleError("left-of-last-mark", f"{name} {number} is already crossed: each number can be crossed "
                                                 f"once, and only numbers right of {last_mark} remain.")
        if box(colour, number) < last:
            raise RuleError("left-of-last-mark", f"{name} {number} is left of your last {colour} mark, "
                                                 f"{marks.row(colour)[-1]}: numbers left of it are gone.")
    first, final = in_order[0], in_order[-1]
    gap = box(colour, final) - box(colour, first) + 1 - len(in_order)
    if gap > 1:
        raise RuleError("too-far-apart", f"{name} {first} and {final} are too far apart: between the first and last "
                                         f"number crossed in one play you may skip one box, not {gap}.")
    before_lock = len(marks.row(colour)) + len(in_order) - 1
    if box(colour, final) == LOCK_BOX and before_lock < MARKS_TO_LOCK:
        raise RuleError("lock-needs-five", f"{name} {final} is the last number of the row and locks it, so it needs "
                                           f"at least {MARKS_TO_LOCK} other {colour} crosses first; you have {before_lock}.")
    return marks.crossed(colour, in_order)
