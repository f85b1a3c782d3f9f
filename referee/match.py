"""Ruling 12: the three-game match. Three complete games with the same players; the starting role moves one
seat left each game; the final totals (penalties included) are added; the highest sum wins, ties share."""
from __future__ import annotations

from typing import Any, Iterable

from referee.errors import RuleError
from referee.game import Game
from referee.variants import Variant, find_variant

GAMES_PER_MATCH = 3


class Match:
    """Three games in a row. Play each through `match.game`; start the next with `next_game()`."""

    def __init__(self, players: Iterable[Any], variant: str | Variant = "standard") -> None:
        self.variant = find_variant(variant)
        self._games = [Game(players, self.variant)]
        self.players = self._games[0].players
        self.seats = self._games[0].seats

    @property
    def games(self) -> tuple[Game, ...]:
        """The games started so far, the current one last."""
        return tuple(self._games)

    @property
    def game(self) -> Game:
        """The game being played (or the last one, once the match is over)."""
        return self._games[-1]

    def next_game(self) -> Game:
        """Start the next game once the current one is over; the next seat to the left starts it."""
        if not self.game.is_over:
            raise RuleError("wrong-phase", f"Game {len(self._games)} of the match is still being played; finish it "
                                           f"before starting the next.")
        if len(self._games) == GAMES_PER_MATCH:
            raise RuleError("game-over", f"The match is over: all {GAMES_PER_MATCH} games have been played.")
        game = Game(self.players, self.variant, starter=len(self._games) % len(self.seats))
        self._games.append(game)
        return game

    def undo(self) -> Any:
        """Undo the last action, going back into the previous game when the current one has not begun."""
        if not self.game.history and len(self._games) > 1:
            self._games.pop()
        return self.game.undo()

    @property
    def is_over(self) -> bool:
        return len(self._games) == GAMES_PER_MATCH and self.game.is_over

    def totals(self) -> dict[str, int]:
        """Each seat's total over the games so far (the one in play counted as it stands)."""
        totals = dict.fromkeys(self.seats, 0)
        for game in self._games:
            for seat, score in game.scores().items():
                totals[seat] += score.total
        return totals

    def winners(self) -> tuple[str, ...]:
        """The seats with the highest combined total once all three games are over; () before."""
        if not self.is_over:
            return ()
        totals = self.totals()
        best = max(totals.values())
        return tuple(seat for seat, total in totals.items() if total == best)

    def __repr__(self) -> str:
        return f"<Match {', '.join(self.seats)}: game {len(self._games)} of {GAMES_PER_MATCH}>"
