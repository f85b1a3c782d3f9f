"""Property tests of the card game over random games: the rules hold at every step, legal_options is
exactly what apply accepts, undo restores exactly, records round-trip, real cards agree with a dealt deck."""
import json
import os
import random

import pytest
from hypothesis import given, settings, strategies as st

from referee import RuleError
from referee.cards import COLOURS, Announce, CardEnd, CardGame, Mark, Pass, Play, Take, full_deck
from referee.cards.record import load, to_record
from referee.cards.values import box, sorted_cards
from tests.cards_helpers import play_randomly, snapshot

games = st.fixed_dictionaries({
    "seed": st.integers(min_value=-2**40, max_value=2**40),
    "seats": st.integers(min_value=2, max_value=5),
    "jokers": st.booleans(),
    "choices": st.integers(min_value=0, max_value=2**32),  # seeds the random choice among the options
})
# CARDS_EXAMPLES=1000 for a thorough run; the default keeps `make test` quick on a small machine.
SETTINGS = settings(max_examples=int(os.environ.get("CARDS_EXAMPLES", 25)), deadline=None)


def new_game(params):
    game = CardGame([f"P{seat}" for seat in range(params["seats"])], jokers=params["jokers"], seed=params["seed"])
    return game, random.Random(params["choices"])


def candidate(game, rng):
    """A random action, legal or not, of the kind the phase asks for."""
    player = rng.choice(game.players)
    if game.phase == "draw":
        if game.dealt:
            return Take(game.active, tuple(rng.sample(range(5), rng.randint(0, 4))))
        return Announce(game.active, rng.randint(2, 12))
    if game.phase == "number":
        if rng.random() < 0.2:
            return Pass(player)
        return Mark(player, rng.choice(COLOURS), game.announced if rng.random() < 0.8 else rng.randint(2, 12))
    pool = list(game.hand(game.active)) + [rng.choice(full_deck(game.jokers))]
    chosen = rng.sample(pool, rng.randint(0, min(4, len(pool))))
    numbers = [card.number for card in chosen] + [rng.randint(2, 12)]
    cross = rng.sample(numbers, rng.randint(0, min(3, len(numbers))))
    colour = rng.choice(COLOURS) if any(card.is_joker for card in chosen) or rng.random() < 0.1 else None
    return Play(rng.choice([game.active, player]), tuple(chosen), tuple(cross), colour)


def check_step(game, before, action):
    """The rules that must hold after every action."""
    active = game.players[before.turn % len(game.players)]
    for player, old, new in zip(game.players, before.marks, game.state.marks):
        for colour in COLOURS:
            row = new.row(colour)
            assert row[:len(old.row(colour))] == old.row(colour), "marks only move right"
            assert [box(colour, n) for n in row] == sorted({box(colour, n) for n in row})
            if new.locked(colour):
                assert len(row) - 1 >= 5, "a lock needs five crosses before it"
        gained = new.penalties - old.penalties
        assert gained == (1 if gained and type(action) is Play and player == active else 0)
    marks = game.state.marks
    outcome = game.outcome()
    if game.is_over:
        assert type(action) in (Play, Mark, Pass)
        if outcome.end is CardEnd.TWO_ROWS_LOCKED:
            assert any(sheet.locks >= 2 for sheet in marks)
        else:
            assert outcome.end is CardEnd.FOUR_PENALTIES and game.score(active).penalties == 4
        best = max(score.total for score in game.scores().values())
        assert outcome.winners == tuple(p for p, score in game.scores().items() if score.total == best)
    else:
        assert outcome is None
        if game.phase in ("draw", "play"):
            assert all(sheet.locks < 2 and sheet.penalties < 4 for sheet in marks), "the game ends at once"
    if game.dealt:
        held = [card for player in game.players for card in game.hand(player)]
        every = held + list(game.tableau) + list(game.draw_pile) + list(game.discard_pile)
        assert sorted_cards(every) == sorted_cards(full_deck(game.jokers)), "every card is somewhere, once"
        assert len(game.tableau) == 4 and all(2 <= len(game.hand(p)) <= 5 for p in game.players)
        for viewer in game.players:
            view = game.view(viewer)
            for player in game.players:
                assert all((colour is not None) == (player == viewer) for colour, _ in view["hands"][player])
            assert all(colour is None for colour, _ in view["tableau"])


@SETTINGS
@given(games)
def test_random_games_keep_the_rules_and_end_exactly_at_the_conditions(params):
    game, rng = new_game(params)
    play_randomly(game, rng, lambda before, action: check_step(game, before, action))
    assert game.is_over and game.outcome().end in (CardEnd.TWO_ROWS_LOCKED, CardEnd.FOUR_PENALTIES)
    for action in (Take(game.active, (0,)), Mark(game.players[0], COLOURS[0], 7), Pass(game.players[-1]),
                   Play(game.active, game.hand(game.active)[:1])):
        with pytest.raises(RuleError) as error:
            game.apply(action)
        assert error.value.code == "game-over"
    assert all(game.legal_options(player) == () for player in game.players)


@SETTINGS
@given(games)
def test_legal_options_are_exactly_the_actions_apply_accepts(params):
    game, rng = new_game(params)
    accepted = 0

    def probe(before, action):
        nonlocal accepted
        for _ in range(3):
            if game.is_over:
                return
            action = candidate(game, rng)
            listed = action in [option.action for option in game.legal_options(action.player)]
            state = game.state
            error = game.why_not(action)
            try:
                game.apply(action)
            except RuleError as refusal:
                assert not listed, f"{action} is listed but refused"
                assert (refusal.code, refusal.message) == (error.code, error.message)
            else:
                assert listed and error is None, f"{action} is accepted but not listed"
                game.undo()
                accepted += 1
            assert game.state == state
    play_randomly(game, rng, probe)
    assert accepted > 0


@SETTINGS
@given(games)
def test_undo_restores_every_earlier_state_exactly_and_records_round_trip(params):
    game, rng = new_game(params)
    states = [snapshot(game)]
    play_randomly(game, rng, lambda before, action: states.append(snapshot(game)))
    record = json.loads(json.dumps(to_record(game)))
    loaded = load(record)
    assert snapshot(loaded) == snapshot(game) and to_record(loaded) == record
    history = game.history
    for earlier in reversed(states[:-1]):
        game.undo()
        assert snapshot(game) == earlier
    for action in history:
        game.apply(action)
    assert snapshot(game) == states[-1]


@SETTINGS
@given(games)
def test_real_cards_told_what_a_dealt_deck_shows_referee_the_same_game(params):
    dealt, rng = new_game(params)
    table = CardGame(dealt.players, jokers=params["jokers"])

    def mirror(before, action):
        table.apply(Announce(action.player, dealt.announced) if type(action) is Take else action)
        assert table.state.marks == dealt.state.marks
        assert (table.phase, table.turn, table.announced, table.discard_pile, table.draw_pile_size) == \
            (dealt.phase, dealt.turn, dealt.announced, dealt.discard_pile, dealt.draw_pile_size)
        assert [len(table.hand(p)) for p in table.players] == [len(dealt.hand(p)) for p in dealt.players]
        if dealt.phase == "play":
            assert table.legal_options(dealt.active, dealt.hand(dealt.active)) == dealt.legal_options(dealt.active)
    play_randomly(dealt, rng, mirror)
    assert table.outcome() == dealt.outcome() and table.scores() == dealt.scores()
