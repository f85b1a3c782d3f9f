"""Helpers that play whole turns, the way a game record writes them."""
from __future__ import annotations

from referee import COLOURS, Game, Roll


def white_roll(game: Game, total: int, **coloured: int) -> Roll:
    """A roll of the dice still in play whose white dice add up to `total` (coloured dice 1 unless given)."""
    first = max(1, total - 6)
    dice = {colour.value: coloured.get(colour.value, 1) for colour in COLOURS if colour not in game.closed}
    return Roll((first, total - first), **dice)


def turn(game: Game, roll: Roll, white: dict | None = None, colour: tuple | None = None) -> None:
    """One turn: the roll, then each player's white-sum mark (colour, number) or pass, then the roller's."""
    game.apply(roll)
    white = white or {}
    for player in game.seats:
        if player in white:
            game.mark(player, *white[player])
        else:
            game.pass_(player)
    if not game.is_over:
        if colour is None:
            game.pass_(game.roller)
        else:
            game.mark(game.roller, *colour)


def give(game: Game, player: str, marks: list[tuple[str, int]]) -> None:
    """Mark these numbers for `player` with white sums, one turn each, left to right.

    The roller marks the same box too when the rules let them (so that they take no penalty), else passes.
    """
    for colour, number in marks:
        game.apply(white_roll(game, number))
        roller = game.roller
        for seat in game.seats:
            if seat == player or (seat == roller and game.why_not(seat, colour, number) is None):
                game.mark(seat, colour, number)
            else:
                game.pass_(seat)
        if not game.is_over:
            game.pass_(roller)
