"""The rules of Qwixx: pure Python, no I/O.

Modelled on python-chess: immutable value types, one `Game` object that applies actions and can undo any
number of them, and one error type, `RuleError(code, message)`, that names the rule an action breaks.

A game, step by step:

>>> from referee import Game, Roll
>>> game = Game(["Ann", "Bob", "Cy"])          # seating order; Ann rolls first, play passes left
>>> game.phase, game.roller
(<Phase.ROLL: 'roll'>, 'Ann')
>>> game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
>>> game.phase, game.white_sum, game.waiting_for
(<Phase.WHITE: 'white'>, 6, ('Ann', 'Bob', 'Cy'))
>>> for option in game.legal_options("Bob"):
...     print(option.describe())
red 6 (white 2 + white 4): skips red 2-5 (4 boxes); red 0 -> 1 point
yellow 6 (white 2 + white 4): skips yellow 2-5 (4 boxes); yellow 0 -> 1 point
green 6 (white 2 + white 4): skips green 12-7 (6 boxes); green 0 -> 1 point
blue 6 (white 2 + white 4): skips blue 12-7 (6 boxes); blue 0 -> 1 point
pass (no penalty)
>>> game.mark("Ann", "red", 6)                 # action 1 is simultaneous: held until everyone decided
>>> game.pass_("Bob")
>>> game.pending
{'Ann': Mark(player='Ann', colour=<Colour.RED: 'red'>, number=6), 'Bob': Pass(player='Bob')}
>>> print(game.why_not("Cy", "yellow", 8))      # any box: the refusal marking it would get, nothing changes
The white dice show 2 + 4 = 6, so this action can mark only a 6, not 8.
>>> game.mark("Cy", "green", 6)                # the last decision: all marks take effect, then locks
>>> game.phase, game.waiting_for
(<Phase.COLOUR: 'colour'>, ('Ann',))
>>> game.mark("Bob", "red", 7)
Traceback (most recent call last):
...
referee.errors.RuleError: Only the roller, Ann, may combine a white die with a coloured die; Bob waits for the next roll.
>>> game.mark("Ann", "red", 9)                 # white 4 + red 5
>>> game.roller, game.score("Ann").total
('Bob', 3)
>>> game.undo(), game.undo()                   # any number of steps, across turns
(Mark(player='Ann', colour=<Colour.RED: 'red'>, number=9), Mark(player='Cy', colour=<Colour.GREEN: 'green'>, number=6))
>>> game.phase, game.waiting_for
(<Phase.WHITE: 'white'>, ('Cy',))

What a web page calls:

- Setup: `Game(players, variant="standard")`; variants "two-sheets" and "partners" (`referee.variants`);
  `Match(players, variant)` for the three-game match. `game.seats` are the players as the rules see them.
  `RollOff(players)` settles who starts (ruling 8); list that player first.
- The state: `phase` (`Phase.ROLL`, `WHITE`, `COLOUR`, `OVER`), `roller`, `person_rolling`, `turn`, `dice`,
  `white_sum`, `waiting_for` (who still decides in the open action), `pending` (decisions held in action 1),
  `closed` (colours in closing order), `is_over`, `outcome()` (`Outcome(end, winners)` or None),
  `sheet(player)` (rows, box states, lock, penalties, score), `score(player)`, `scores()`, `history`,
  `turns()` (each turn as a table would tell it: dice, decisions, penalty, colours closed).
- Options and refusals: `legal_options(player)` gives `Option`s (the action to apply, the dice that make it,
  boxes skipped, whether it locks, the row's points before and after, whether it costs a penalty;
  `describe()` says it in words); `why_not(player, colour, number)` gives the `RuleError` that marking that
  box would raise now, or None.
- Actions: `apply(Roll | Reroll | Mark | Pass | Option)`, or `roll(roll)`, `reroll(red=4)`, `mark(player,
  colour, number)`, `pass_(player)`; `undo()` and `retract(player)` (withdraw one action-1 decision while
  others are still deciding). Illegal actions raise `RuleError` and change nothing.
- Storage: `action.to_json()` / `action_from_json(data)`; `game.to_json()` / `Game.from_json(data)` (setup
  plus the list of actions); game records: `Record.of_game(game)`, `Record.of_match(match)`, `record.dumps()`,
  `Record.loads(text)`, `record.replay()` (a Game or Match, or `ReplayError` with turn and player).

Refusal codes: not-in-game, game-over, wrong-phase, roller-only, already-acted, wrong-sum, row-closed,
left-of-last-mark, lock-needs-five, bad-roll; and, outside play, bad-action (not an action at all),
bad-setup (players or variant), nothing-to-undo, not-a-record.
"""
from referee.errors import RuleError
from referee.game import Game, GameState, Outcome, Turn
from referee.match import Match
from referee.record import Record, ReplayError
from referee.rolloff import RollOff
from referee.values import (
    COLOURS, Action, BoxState, Colour, End, Mark, Option, Pass, Phase, Reroll, Roll, Row, Score, Sheet,
    action_from_json,
)
from referee.variants import VARIANTS, Variant

__all__ = [
    "COLOURS", "Action", "BoxState", "Colour", "End", "Game", "GameState", "Mark", "Match", "Option", "Outcome",
    "Pass", "Phase", "Record", "ReplayError", "Reroll", "Roll", "RollOff", "Row", "RuleError", "Score", "Sheet",
    "Turn", "VARIANTS", "Variant", "action_from_json",
]
