"""Ruling 8: who starts. The table may choose, or roll off: each player in seating order rolls one die, round
after round, until someone rolls a 6; that player starts. These rolls mark nothing."""
from __future__ import annotations

from typing import Any

from referee.errors import RuleError


class RollOff:
    def __init__(self, players: tuple[Any, ...] | list[Any]) -> None:
        self.players = tuple(players)
        self.rolls: list[tuple[Any, int]] = []
        self.starter: Any | None = None

    @property
    def roller(self) -> Any | None:
        """Who rolls next; None once someone has rolled a 6."""
        return None if self.starter is not None else self.players[len(self.rolls) % len(self.players)]

    def roll(self, value: int) -> Any | None:
        """Record the next player's die; returns the starter once someone has rolled a 6."""
        if self.starter is not None:
            raise RuleError("game-over", f"The roll-off is over: {self.starter} rolled a 6 and starts.")
        if type(value) is not int or not 1 <= value <= 6:
            raise RuleError("bad-roll", f"A die shows 1 to 6, not {value!r}.")
        self.rolls.append((self.roller, value))
        if value == 6:
            self.starter = self.rolls[-1][0]
        return self.starter
