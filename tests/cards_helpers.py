"""Helpers for the card game's tests: cards, scripted turns with real cards, random play."""
from __future__ import annotations

import json

import pytest

from referee import RuleError
from referee.cards import Announce, Card, CardGame, Mark, Pass, Play, full_deck


def cards(colour, *numbers):
    return tuple(Card(colour, number) for number in numbers)


def turn(game, announce, crosses=(), play=(), cross=(), colour=None):
    """One turn with real cards: the active player announces, `crosses` ({player: (colour, number)})
    cross in action 2, everyone else passes, then the active player plays `play` crossing `cross`."""
    active = game.active
    game.apply(Announce(active, announce))
    crosses = dict(crosses)
    for player in game.players:
        game.apply(Mark(player, *crosses[player]) if player in crosses else Pass(player))
    if play:
        game.apply(Play(active, play, cross, colour))


def refused(game, action, code):
    """Apply an action that must be refused with `code`; check that nothing changed; return the message."""
    before = game.state
    with pytest.raises(RuleError) as error:
        game.apply(action)
    assert error.value.code == code, error.value.message
    assert game.state == before
    return error.value.message


def dealt_game(players, hands, tableau, jokers=False, seed=0):
    """A dealt game whose hands (in seat order) and tableau are as given; the rest of the deck follows."""
    seats = len(players)
    order = [None] * (4 * seats)
    for seat, hand in enumerate(hands):
        for round_, card in enumerate(hand):
            order[round_ * seats + seat] = card
    order += list(tableau)
    order += [card for card in full_deck(jokers) if card not in order]
    return CardGame(players, jokers=jokers, seed=seed, deck=order)


def rows(game, player):
    """The player's crossed numbers per row, as {colour name: [numbers]}."""
    return {row.colour.value: list(row.marks) for row in game.sheet(player).rows}


def snapshot(game):
    """Everything the game holds, and what the shared screen shows."""
    return game.state, game.history, json.dumps(game.view(None))


def actors(game):
    """The players who may act now, with their options."""
    return [(player, options) for player in game.players if (options := game.legal_options(player))]


def play_randomly(game, rng, on_step=lambda before, action: None, limit=2000):
    """Play random legal options to the end, calling `on_step(state before, action)` after each."""
    for _ in range(limit):
        if game.is_over:
            return
        candidates = actors(game)
        assert candidates, f"nobody can act in phase {game.phase}"
        player, options = rng.choice(candidates)
        # Lean towards crossing, so that games end by locks as well as by penalties.
        crossing = [option for option in options if option.numbers]
        option = rng.choice(crossing if crossing and rng.random() < 0.8 else options)
        before = game.state
        game.apply(option)
        on_step(before, option.action)
    raise AssertionError("a random game did not end")
