"""Property tests over thousands of random legal games: the rules hold after every action."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import COLOURS, Game, Mark, Pass, Phase, Record, Roll, RuleError
from referee.values import row_points

LOCK_BIT = 1 << 11
SETUPS = [("standard", ["Ann", "Bob"]), ("standard", ["Ann", "Bob", "Cy"]), ("standard", ["Ann", "Bob", "Cy", "Dee"]),
          ("standard", ["Ann", "Bob", "Cy", "Dee", "Eve"]), ("two-sheets", ["Ann", "Bob"]),
          ("partners", [["Ann", "Bob"], ["Cy", "Dee"], ["Eve", "Fay"]])]


def random_roll(game, rng):
    return Roll.random(rng, tuple(colour for colour in COLOURS if colour not in game.closed))


def step(game, rng):
    """One random legal action: a roll (sometimes followed by a re-roll), or a random option of someone waiting."""
    if game.phase is Phase.ROLL:
        return random_roll(game, rng)
    if game.phase is Phase.WHITE and len(game.waiting_for) == len(game.seats) and rng.random() < 0.05:
        from referee import Reroll
        return Reroll(random_roll(game, rng))
    player = rng.choice(game.waiting_for)  # action 1 decisions arrive in any order
    return rng.choice(game.legal_options(player)).action


def check_after(game, before, action):
    """The invariants that must hold after `action` took `before` to the game's current state."""
    count, after = len(game.seats), game.state
    closed_before = {colour for colour, _ in before.closed}
    for seat in range(count):
        for colour in range(4):
            old, new = before.rows[seat * 4 + colour], after.rows[seat * 4 + colour]
            added = new & ~old
            assert old & new == old  # marks are never erased
            if added:
                boxes = added & ~LOCK_BIT
                assert boxes.bit_count() == 1  # one mark per row per action
                assert boxes.bit_length() > (old & ~LOCK_BIT).bit_length()  # only to the right of the last mark
                assert colour not in closed_before
                if added & LOCK_BIT:
                    assert boxes == 1 << 10 and old.bit_count() >= 5  # a lock only after five marks
                else:
                    assert boxes != 1 << 10
    penalties = after.penalties
    assert all(0 <= count <= 4 for count in penalties)
    for seat, (old, new) in enumerate(zip(before.penalties, penalties)):
        if new != old:
            roller = (game.starter + before.turn) % count
            assert seat == roller and new == old + 1 and isinstance(action, Pass) and before.phase is Phase.COLOUR
    # the game ends exactly at two closed colours or a fourth penalty
    two_closed, four_penalties = len(game.closed) >= 2, max(penalties) == 4
    assert game.is_over == (two_closed or four_penalties)
    if game.is_over:
        assert game.outcome().end.value == ("two-colours-closed" if two_closed else "four-penalties")


def check_scores(game):
    """n(n+1)/2 per row, the lock counted as a mark, minus 5 per penalty."""
    for seat in game.seats:
        sheet, score = game.sheet(seat), game.score(seat)
        expected = sum(row_points(len(row.marks) + row.locked) for row in sheet.rows) - 5 * sheet.penalties
        assert score.total == sheet.score.total == expected


def assert_nothing_accepted(game, rng):
    state, history = game.state, game.history
    attempts = [random_roll(game, rng)] + [Pass(seat) for seat in game.seats]
    attempts += [Mark(seat, colour, number) for seat in game.seats for colour in COLOURS for number in (2, 7, 12)]
    for action in attempts:
        try:
            game.apply(action)
        except RuleError as error:
            assert error.code in ("game-over", "bad-roll")
        else:
            raise AssertionError(f"{action} was accepted after the end")
    assert game.legal_options(game.seats[0]) == () and game.waiting_for == ()
    assert game.state == state and game.history == history


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(SETUPS))
def test_random_games_keep_the_rules(seed, setup):
    rng = random.Random(seed)
    game = Game(setup[1], setup[0])
    while not game.is_over:
        before = game.state
        action = step(game, rng)
        game.apply(action)
        check_after(game, before, action)
        if game.phase is Phase.ROLL:
            check_scores(game)
    check_scores(game)
    assert_nothing_accepted(game, rng)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(SETUPS))
def test_undo_restores_every_earlier_state_and_records_round_trip(seed, setup):
    rng = random.Random(seed)
    game = Game(setup[1], setup[0])
    states = [game.state]
    while not game.is_over:
        if len(states) > 3 and rng.random() < 0.05:  # sometimes take back a few steps, across turns, and go on
            for _ in range(rng.randint(1, 3)):
                game.undo()
                states.pop()
                assert game.state == states[-1]
        game.apply(step(game, rng))
        states.append(game.state)
    record = Record.loads(Record.of_game(game).dumps())
    assert record.replay().state == game.state
    assert Game.from_json(game.to_json()).state == game.state
    while states[:-1]:
        game.undo()
        states.pop()
        assert game.state == states[-1]
    assert game.history == () and game.state == Game(setup[1], setup[0]).state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_options_are_exactly_the_boxes_why_not_allows(seed):
    rng = random.Random(seed)
    game = Game(["Ann", "Bob", "Cy"])
    while not game.is_over:
        if game.phase is not Phase.ROLL:
            player = rng.choice(game.seats)
            offered = {(option.colour, option.number) for option in game.legal_options(player) if option.colour}
            allowed = {(colour, number) for colour in COLOURS for number in range(1, 14)
                       if game.why_not(player, colour, number) is None}
            assert offered == allowed
            for option in game.legal_options(player):  # each option applies, and is what it says
                state = game.state
                game.apply(option)
                if option.colour:
                    row = game.sheet(player).row(option.colour) if not game.pending else None
                    assert row is None or (row.points == option.row_after and row.locked == option.locks)
                game.undo()
                assert game.state == state
        game.apply(step(game, rng))


@given(st.integers(0, 2**32), st.sets(st.sampled_from(COLOURS)))
def test_a_random_roll_is_a_roll_like_any_other(seed, in_play):
    """Roll.random skips the checks a typed roll goes through: what it makes must pass them all the same."""
    colours = tuple(colour for colour in COLOURS if colour in in_play)
    roll = Roll.random(random.Random(seed), colours)
    typed = Roll.from_dice(roll.dice())
    assert roll == typed and hash(roll) == hash(typed) and roll.by_colour == typed.by_colour
    assert roll.colours == colours
    assert all(1 <= value <= 6 for value in (*roll.white, *(roll.die(colour) for colour in colours)))


def test_random_rolls_are_fair():
    rng = random.Random(7)
    counts = [0] * 7
    for _ in range(6000):
        roll = Roll.random(rng)
        for value in (*roll.white, *roll.by_colour):
            counts[value] += 1
    assert all(5400 < count < 6600 for count in counts[1:])  # 6000 of each face expected, 36000 dice
