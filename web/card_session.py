"""One sitting at the table playing the Qwixx Card Game (rulebook 004, ruling 13): the dice game's `Session`
for cards, from its setup and its log, replayed through the referee's `CardGame`.

Its log entries are the dice game's: {"type": "act", "action": {...}, "by": ...} with a card game action
(take, announce, mark, pass, play) and {"type": "undo", "by": "host"}.

Hidden information (the referee's rule 3: a card's colour is seen only by the player holding it) is kept
here: `to_json` is what every page and the live stream get, and shows every card's number and no colour
until the game is over; `secrets_for(seats)` is what one phone gets for its own seats (their hands and legal
options), never another's. A dealt game's seed and deck stay in the setup, which no page receives.
"""
from __future__ import annotations

import copy
import json
import secrets
from typing import Any

from referee import RuleError
from referee.cards import Announce, CardGame, CardOption, CardPhase, Mark, Pass, Play, Take, card_action_from_json
from referee.cards.record import to_record
from referee.cards.game import FULL_HAND
from referee.cards.values import Card
from referee.values import COLOURS
from referee.variants import find_variant
from web.session import News, Setup, Sitting, _join, _winning

CARD_VARIANTS = {"cards": False, "cards-joker": True}  # the setup's variant -> the Joker variant
DEALS = ("shuffled", "real-cards")  # the product shuffles and deals a virtual deck, or the table plays real cards
MAX_SEED = 2**53  # a seed survives JavaScript's numbers, so a record saved and loaded by a page keeps it


def new_seed() -> int:
    """The shuffle of a dealt game: unguessable, so no one can work out the cards from it."""
    return secrets.randbelow(MAX_SEED)


class CardSession(Sitting):
    kind = "cards"
    decided = False  # no dice to re-roll
    match = None

    def __init__(self, game_id: int, setup: Setup) -> None:
        self.game_id = game_id
        self.setup = setup
        self.log: list[dict] = []
        self.news: list[News] = []
        if setup.variant not in CARD_VARIANTS:
            raise RuleError("bad-setup", f"{setup.variant!r} is not a card game variant.")
        if setup.deal not in DEALS:
            raise RuleError("bad-setup", "A card game is dealt by the table (\"shuffled\") or played with real cards.")
        if setup.match:
            raise RuleError("bad-setup", "The three-game match is a variant of the dice game, not of the card game.")
        people = find_variant("standard").normalise(setup.players)
        if setup.starter is None:
            raise RuleError("bad-setup", "Choose who starts the card game (the rulebook: whoever's birthday is "
                                         "furthest from today); there is no roll-off with cards.")
        if not 0 <= setup.starter < len(people):
            raise RuleError("bad-setup", f"The starter must be one of the {len(people)} players, 0 to {len(people) - 1}.")
        self.people: tuple[str, ...] = tuple(people)
        # The referee's first player is the first active player; play passes to the left, in seating order.
        self.players = self.people[setup.starter:] + self.people[:setup.starter]
        dealt = setup.deal == "shuffled"
        if dealt and type(setup.seed) is not int:
            raise RuleError("bad-setup", "A dealt card game needs the seed of its shuffle.")
        deck = [Card.from_json(card) for card in setup.deck] if setup.deck else None
        self.game = CardGame(self.players, jokers=CARD_VARIANTS[setup.variant], seed=setup.seed if dealt else None,
                             deck=deck)

    def starter_after(self) -> int:
        """The setup's seat one to the left of the starter: who starts the same people's next game."""
        return (self.setup.starter + 1) % len(self.people)

    def copy(self) -> CardSession:
        twin = copy.copy(self)
        twin.log = list(self.log)
        twin.news = list(self.news)
        twin.game = self.game.copy()
        return twin

    # ----- what is going on --------------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return self.game.players

    @property
    def phase(self) -> str:
        """draw, number, play or over (the referee's CardPhase)."""
        return self.game.phase.value

    @property
    def moment(self) -> str:
        """Which decision the table is at, as `Session.moment` (the number announced standing for the dice)."""
        return f"{self.game_id}:{self.game.turn}:{self.phase}:{self.game.announced or 0}"

    @property
    def over(self) -> bool:
        return self.game.is_over

    finished = over

    @property
    def deciding(self) -> bool:
        """Everyone decides on the announced number now (what the decision timer is for)."""
        return self.game.phase is CardPhase.NUMBER

    @property
    def hides_hands(self) -> bool:
        """The referee dealt the cards, so it knows colours that only their holders may see."""
        return self.game.dealt

    @property
    def action_kinds(self) -> tuple[str, ...]:
        return ("take" if self.game.dealt else "announce", "mark", "pass", "play")

    def seats_of_person(self, person: int) -> tuple[int, ...]:
        return (self.seats.index(self.people[person]),)

    # ----- the one way to change a session -----------------------------------------------------------------

    def apply(self, entry: dict) -> list[News]:
        """Apply one log entry and return the news it makes; RuleError (changing nothing) when refused."""
        kind = entry["type"]
        news: list[tuple] = []
        if kind == "act":
            self._act(card_action_from_json(entry["action"]), news)
        elif kind == "undo":
            self._undo(news)
        elif kind == "retract":
            raise RuleError("wrong-phase", "In the card game each decision counts at once: the host can undo it.")
        elif kind == "roll-off":
            raise RuleError("wrong-phase", "The card game has no roll-off: the table chose who starts.")
        elif kind == "next-game":
            raise RuleError("wrong-phase", "This is a single game, not a match: start a new game instead.")
        else:
            raise RuleError("bad-action", f"Unknown entry {kind!r}.")
        return self._logged(entry, news)

    def _act(self, action, news: list) -> None:
        game = self.game
        before = game.state
        game.apply(action)
        after = game.state
        if after.reshuffles > before.reshuffles:
            news.append(("deck", "The draw pile ran out: the discard pile is shuffled into a new draw pile."))
        if isinstance(action, (Take, Announce)):
            taken = [str(before.tableau[slot].number) for slot in action.slots] if isinstance(action, Take) else []
            opening = (f"{action.player} took the {_join(taken)} from the tableau." if taken
                       else f"{action.player} announces {game.announced}.")
            news.append(("number", f"{opening} The number is {game.announced}: everyone may cross it in one row, or pass.",
                         f"The number is {game.announced}."))
        if before.phase is CardPhase.NUMBER and after.phase is not CardPhase.NUMBER:
            news.append(("decided", self._number_results()))
        if isinstance(action, Play):
            news.append(("play", f"{_play_sentence(action)}."))
        for seat, player in enumerate(self.seats):
            was, now = before.marks[seat], after.marks[seat]
            for colour in (colour for colour in COLOURS if now.locked(colour) and not was.locked(colour)):
                news.append(("closed", f"{player} locked {colour} (for {player} only: the others may still cross it)."))
            if now.penalties > was.penalties:
                news.append(("penalty", f"{player} crossed nothing as the active player and takes a penalty "
                                        f"({now.penalties} of 4)."))
        if game.is_over:
            news.append(("over", self.end_sentence()))
        elif after.turn != before.turn:
            news.append(("turn", self._turn_sentence()))

    def _undo(self, news: list) -> None:
        label = self._undo_label()
        if label is None:
            history = self.game.history
            if not history:
                raise RuleError("nothing-to-undo", "There is nothing to undo: nothing has been played yet.")
            taker = history[-1].player
            raise RuleError("draw-seen", f"{taker}'s draw cannot be undone: {taker} has seen the colours of the cards "
                                         "taken and would choose again knowing them.")
        self.game.undo()
        news.append(("undo", f"Undone: {label}."))

    def _undo_label(self) -> str | None:
        """What undo would take back; None when nothing may be: a draw from a dealt tableau showed its taker
        colours that must not help them choose again, so undo stops there (the turn's decisions and play can
        be undone; the played cards were shown to everyone anyway)."""
        history = self.game.history
        if not history or isinstance(history[-1], Take):
            return None
        return _action_label(history[-1])

    # ----- what one player may see -------------------------------------------------------------------------

    def secrets_for(self, seats: list[int]) -> dict[str, Any]:
        """For one phone: each of its seats' hand (colours included) and legal options. Nothing of another seat."""
        mine = {}
        for seat in seats:
            player = self.seats[seat]
            view = self.game.view(player)
            mine[str(seat)] = {"hand": view["hands"][player], "options": self.options(seat)}
        return {"pending": {}, "cards": mine}

    def options(self, seat: int, cards: list[Card] | None = None) -> list[dict] | None:
        """The seat's legal options with what each costs; with real cards, plays need the cards played (None
        without them: the referee cannot see the hand)."""
        player = self.seats[seat]
        game = self.game
        if cards is None and not game.dealt and game.phase is CardPhase.PLAY and player == game.active:
            return None
        return [_option_json(option) for option in game.legal_options(player, cards)]

    def why_not(self, seat: int, action: dict) -> RuleError | None:
        return self.game.why_not(card_action_from_json({**action, "player": self.seats[seat]}))

    # ----- sentences ---------------------------------------------------------------------------------------

    def _turn_sentence(self) -> str:
        game = self.game
        if game.dealt:
            need = FULL_HAND - len(game.hand(game.active))
            return f"{game.active}'s turn: take {_cards(need)} from the tableau."
        return f"{game.active}'s turn: draw to 5 cards, refill the tableau and announce the number on the draw pile."

    def _number_results(self) -> str:
        history = self.game.history
        start = max(index for index, action in enumerate(history) if isinstance(action, (Take, Announce)))
        decisions = history[start + 1:start + 1 + len(self.seats)]
        marks = [f"{action.player} crossed {action.colour} {action.number}" for action in decisions if isinstance(action, Mark)]
        passes = [action.player for action in decisions if isinstance(action, Pass)]
        parts = marks + ([f"{_join(passes)} passed"] if passes else [])
        return f"On the {self.game.announced}: {'; '.join(parts)}."

    def end_sentence(self) -> str:
        outcome = self.game.outcome()
        if outcome is None:
            return ""
        if outcome.end.value == "two-rows-locked":
            lockers = [player for player in self.seats if sum(row.locked for row in self.game.sheet(player).rows) >= 2]
            why = f"{_join(lockers)} locked a second row"
        else:
            why = f"{self.game.active} took a fourth penalty"
        return f"Game over: {why}. {_winning(outcome.winners, self.game.score(outcome.winners[0]).total)}"

    def prompt(self) -> str:
        game = self.game
        if game.phase is CardPhase.DRAW:
            return self._turn_sentence()
        if game.phase is CardPhase.NUMBER:
            return f"The number is {game.announced}: everyone may cross it in one row, or pass."
        if game.phase is CardPhase.PLAY:
            return f"{game.active} plays 1 to 3 cards of one colour and may cross their numbers."
        return self.end_sentence()

    # ----- JSON for the pages ------------------------------------------------------------------------------

    def to_json(self, joined: set[int], reveal: bool = False) -> dict[str, Any]:
        """What every page may see; `reveal` (a finished game's replay) adds every card's colour."""
        game = self.game
        view = game.view(None)
        outcome = game.outcome()
        hands = [view["hands"][player] for player in self.seats]
        tableau = view["tableau"]
        if reveal:
            hands = [[card.to_json() if card else [None, None] for card in game.hand(player)] for player in self.seats]
            tableau = [card.to_json() if card else [None, None] for card in game.tableau]
        return {
            **self._public_json(joined),
            "deal": self.setup.deal,
            "match": None,
            "rolloff": [],
            "rolloff_seat": None,
            "turn": game.turn,
            "active": self.seat_index(game.active),
            "announced": game.announced,
            "take": FULL_HAND - len(game.hand(game.active)) if game.phase is CardPhase.DRAW else 0,
            "waiting_for": [self.seat_index(player) for player in game.waiting_for],
            "hands": hands,
            "tableau": tableau,
            "draw_pile": view["draw_pile"],
            "discard_pile": view["discard_pile"],
            "last_play": view["last_play"],
            "sheets": [game.sheet(player).to_json() for player in self.seats],
            "over": None if outcome is None else {
                "end": outcome.end.value,
                "winners": [self.seat_index(player) for player in outcome.winners],
                "text": self.end_sentence(),
            },
        }

    def result(self) -> dict:
        """What the list of games shows: the scores, and the end and winners once there are some."""
        outcome = self.game.outcome()
        return {"end": outcome.end.value if outcome else None, "winners": list(outcome.winners) if outcome else [],
                "seats": list(self.seats),
                "scores": {player: score.to_json() for player, score in self.game.scores().items()},
                "turns": self.game.turn + 1}

    def record_text(self) -> str:
        """The game as a `qwixx-cards-record/1` file. It holds the seed: only for a game that is over."""
        return json.dumps(to_record(self.game))


def _cards(count: int) -> str:
    return f"{count} card{'s' * (count != 1)}"


def _play_sentence(play: Play) -> str:
    cards = _join([str(card) + (f" (as {play.colour})" if card.is_joker else "") for card in play.cards])
    crossed = f"crossing {_join([str(number) for number in play.cross])}" if play.cross else "crossing nothing"
    return f"{play.player} played {cards}, {crossed}"


def _action_label(action) -> str:
    if isinstance(action, Mark):
        return f"{action.player}'s cross {action.colour} {action.number}"
    if isinstance(action, Pass):
        return f"{action.player}'s pass"
    if isinstance(action, Announce):
        return f"{action.player}'s announced {action.number}"
    return f"{action.player}'s play ({_play_sentence(action).split(' played ', 1)[1]})"


def _option_json(option: CardOption) -> dict:
    """The referee's option with the short label shown under its box and its sentence."""
    if option.colour is None:
        cost = None
    elif option.locks:
        cost = "locks"
    else:
        cost = "skips none" if option.skipped == 0 else f"skips {option.skipped}"
    return {**option.to_json(), "cost": cost, "text": option.describe()}
