"""The Qwixx Card Game (rulebook 004, ruling 13): pure Python, no I/O, built like the dice game's referee.

`CardGame` holds the rules, and its module docstring (`referee.cards.game`) every decision taken where the
rulebook is silent. Colours, `Mark`, `Pass`, `Sheet`, `Score` and `Outcome` are the dice game's; cards,
`Take`, `Announce`, `Play` and `CardOption` are in `referee.cards.values`; game records
("qwixx-cards-record/1") in `referee.cards.record`.

A dealt game, step by step (real cards work the same, with `Announce(player, number)` for `Take`):

>>> from referee.cards import Card, CardGame, Mark, Pass, Play, Take
>>> game = CardGame(["Ann", "Bob"], seed=7)      # the referee shuffles and deals; Ann starts
>>> game.phase, game.active, len(game.hand("Ann")), len(game.tableau), game.draw_pile_size
(<CardPhase.DRAW: 'draw'>, 'Ann', 4, 4, 32)
>>> game.view("Bob")["hands"]["Ann"]             # Bob sees Ann's numbers, not her colours
[[None, 5], [None, 7], [None, 11], [None, 12]]
>>> game.view("Ann")["hands"]["Ann"]
[['red', 5], ['blue', 7], ['red', 11], ['yellow', 12]]
>>> [option.describe() for option in game.legal_options("Ann")]
['take tableau 0', 'take tableau 1', 'take tableau 2', 'take tableau 3']
>>> game.view("Ann")["tableau"]                  # numbers only, for everyone
[[None, 11], [None, 12], [None, 8], [None, 9]]
>>> game.apply(Take("Ann", (0,)))                # to a hand of 5; the tableau refills, the top is announced
>>> game.announced, game.waiting_for
(7, ('Ann', 'Bob'))
>>> for option in game.legal_options("Bob"):
...     print(option.describe())
cross red 7: skips red 2, 3, 4, 5, 6 (5 boxes); red 0 -> 1 point
cross yellow 7: skips yellow 2, 3, 4, 5, 6 (5 boxes); yellow 0 -> 1 point
cross green 7: skips green 12, 11, 10, 9, 8 (5 boxes); green 0 -> 1 point
cross blue 7: skips blue 12, 11, 10, 9, 8 (5 boxes); blue 0 -> 1 point
pass
>>> game.apply(Mark("Bob", "red", 7))
>>> game.apply(Pass("Ann"))
>>> [str(card) for card in game.hand("Ann")]
['red 5', 'blue 7', 'red 11', 'blue 11', 'yellow 12']
>>> game.apply(Play("Ann", (Card("red", 5), Card("red", 11)), cross=(5, 11)))
Traceback (most recent call last):
...
referee.errors.RuleError: Red 5 and 11 are too far apart: between the first and last number crossed in one play you may skip one box, not 5.
>>> game.apply(Play("Ann", (Card("red", 5), Card("red", 11)), cross=(5,)))
>>> game.active, game.score("Ann").total, game.discard_pile_size
('Bob', 1, 2)
>>> print(game.undo())
Ann: play red 5, red 11, crossing 5

What a web page calls:

- Setup: `CardGame(players, jokers=False, seed=None)`: a seed deals a shuffled deck (product-dealt);
  no seed referees real cards.
- Each phone: `view(player)` (the shared screen: `view(None)`), JSON-ready, showing only what the rules
  let that player see: every card's number, the colours of their own hand only, the last play, every
  sheet, and their legal options. `legal_options(player, cards=None)` gives `CardOption`s (the action, the
  boxes it crosses, boxes skipped for good, lock, the row's points before and after, penalty;
  `describe()` says it in words); with real cards, pass the cards the player holds or has picked.
  `why_not(action)` is the refusal an action would get, changing nothing.
- The state: `phase` (`CardPhase.DRAW`, `NUMBER`, `PLAY`, `OVER`), `active`, `turn`, `announced`,
  `waiting_for`, `is_over`, `outcome()` (`Outcome(end, winners)`, end `CardEnd.TWO_ROWS_LOCKED` or
  `FOUR_PENALTIES`), `sheet(player)` (a row `closed` is locked for that player only), `score(player)`,
  `scores()`, `history`, `last_play`. Secrets, for the referee's own use: `hand(player)`, `tableau`,
  `draw_pile`, `discard_pile`, `seed`, `deck`.
- Actions: `apply(Take | Announce | Mark | Pass | Play | CardOption)`; `undo()`. Illegal actions raise
  `RuleError` and change nothing. `action.to_json()` / `card_action_from_json(data)`.
- Records: `referee.cards.record.to_record(game)`, `load(data)`, `replay_report(data)`.

Refusal codes, as in the dice game: not-in-game, game-over, wrong-phase, already-acted, row-closed,
left-of-last-mark, lock-needs-five, bad-action, bad-setup, nothing-to-undo, not-a-record; the card game's
own: active-only (only the active player draws and plays), wrong-mode (taking from the tableau with real
cards, announcing with a dealt deck), bad-slot, wrong-count (cards taken), wrong-number (not the announced
number), play-count (1 to 3 cards), duplicate, mixed-colours, joker-colour, not-played (crossing a number
not played), too-far-apart (more than one box skipped inside a play), not-in-hand, bad-card (no such card,
or a joker without the Joker variant), card-in-discard and card-on-draw-pile (real cards: a card that
cannot be where the play says), hand-unknown (listing plays with real cards without the hand).
"""
from referee.cards.game import CardGame, CardState, shuffled_deck
from referee.cards.values import (
    Announce, Card, CardAction, CardEnd, CardOption, CardPhase, Play, Take, card_action_from_json, full_deck,
)
from referee.values import COLOURS, Colour, Mark, Pass

__all__ = [
    "COLOURS", "Announce", "Card", "CardAction", "CardEnd", "CardGame", "CardOption", "CardPhase", "CardState",
    "Colour", "Mark", "Pass", "Play", "Take", "card_action_from_json", "full_deck", "shuffled_deck",
]
