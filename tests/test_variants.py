"""House variants (rulings 10-12) and who starts (ruling 8)."""
import pytest

from referee import Game, Match, RollOff, RuleError
from tests.referee_helpers import turn, white_roll


def test_ruling_10_two_sheets_each_seated_alternately():
    game = Game(["Ann", "Bob"], "two-sheets")
    assert game.seats == ("Ann 1", "Bob 1", "Ann 2", "Bob 2")
    rollers = []
    for number in (2, 3, 4, 5, 6):
        rollers.append((game.roller, game.person_rolling))
        turn(game, white_roll(game, number), white={game.roller: ("red", number)})
    assert rollers == [("Ann 1", "Ann"), ("Bob 1", "Bob"), ("Ann 2", "Ann"), ("Bob 2", "Bob"), ("Ann 1", "Ann")]
    # each seat is a normal player: its own sheet, options and penalties
    assert game.sheet("Ann 1").row("red").marks == (2, 6) and game.sheet("Ann 2").row("red").marks == (4,)
    with pytest.raises(RuleError) as error:
        Game(["Ann", "Bob", "Cy"], "two-sheets")
    assert error.value.code == "bad-setup"


def test_ruling_11_partners_act_as_one_player():
    game = Game([("Ann", "Bob"), ("Cy", "Dee")], "partners")
    assert game.seats == ("Ann & Bob", "Cy & Dee")
    people = []
    for number in (2, 3, 4, 5):
        people.append(game.person_rolling)
        game.apply(white_roll(game, number))
        game.mark("Ann & Bob", "red", number)  # one shared white-sum mark per pair
        with pytest.raises(RuleError) as error:
            game.mark("Ann & Bob", "yellow", number)
        assert error.value.code == "already-acted"
        game.pass_("Cy & Dee")
        game.pass_(game.roller)  # exactly one coloured-die choice for the active pair
    # partners alternate who rolls when their pair is active
    assert people == ["Ann", "Cy", "Bob", "Dee"]
    assert game.score("Ann & Bob").red == 10 and game.score("Cy & Dee").penalties == 2
    with pytest.raises(RuleError) as error:
        game.mark("Ann", "red", 6)
    assert error.value.code == "not-in-game"
    for bad in ([("Ann", "Bob")], [("Ann", "Bob"), ("Cy",)], [("Ann", "Bob"), ("Bob", "Cy")],
                [("Ann & Bob", "Cy"), ("Ann", "Bob & Cy")]):  # the last: two teams called "Ann & Bob & Cy"
        with pytest.raises(RuleError) as error:
            Game(bad, "partners")
        assert error.value.code == "bad-setup"


def test_ruling_12_three_game_match():
    match = Match(["Ann", "Bob", "Cy"])
    with pytest.raises(RuleError) as error:
        match.next_game()
    assert error.value.code == "wrong-phase"
    starters, totals = [], {"Ann": 0, "Bob": 0, "Cy": 0}
    for index in range(3):
        game = match.game
        starters.append(game.roller)
        while not game.is_over:  # Ann marks a 7 while she can; Bob and Cy never mark and collect penalties
            game.apply(white_roll(game, 7))
            for seat in game.seats:
                option = next((option for option in game.legal_options(seat) if option.colour), None)
                game.apply(option if seat == "Ann" and option else game.legal_options(seat)[-1])
            if not game.is_over:
                game.pass_(game.roller)
        for seat, score in game.scores().items():
            totals[seat] += score.total
        assert match.is_over == (index == 2) and (match.winners() == ()) == (index < 2)
        if index < 2:
            match.next_game()
    assert starters == ["Ann", "Bob", "Cy"]  # the starter moves one seat left each game
    assert match.totals() == totals
    best = max(totals.values())
    assert match.winners() == tuple(seat for seat, total in totals.items() if total == best)
    with pytest.raises(RuleError) as error:
        match.next_game()
    assert error.value.code == "game-over"


def test_match_undo_goes_back_into_the_previous_game():
    match = Match(["Ann", "Bob"])
    while not match.game.is_over:
        turn(match.game, white_roll(match.game, 7))
    first = match.game
    match.next_game()
    match.undo()
    assert match.game is first and not first.is_over and len(match.games) == 1


def test_ruling_8_roll_off():
    roll_off = RollOff(["Ann", "Bob", "Cy"])
    for value, roller in [(3, "Ann"), (5, "Bob"), (2, "Cy"), (4, "Ann")]:
        assert roll_off.roller == roller and roll_off.roll(value) is None
    assert roll_off.roller == "Bob" and roll_off.roll(6) == "Bob"
    assert roll_off.starter == "Bob" and roll_off.roller is None
    with pytest.raises(RuleError):
        roll_off.roll(6)
    with pytest.raises(RuleError) as error:
        RollOff(["Ann", "Bob"]).roll(7)
    assert error.value.code == "bad-roll"


@pytest.mark.parametrize("players,variant", [(["Ann"], "standard"), (list("ABCDEF"), "standard"),
                                             (["Ann", ""], "standard"), ("Ann Bob", "standard"),
                                             (["Ann", "Bob"], "solo")])
def test_bad_setups(players, variant):
    with pytest.raises(RuleError) as error:
        Game(players, variant)
    assert error.value.code == "bad-setup"
