"""The standard game, ruling by ruling (../shared/rules/README.md), with the rule texts' worked examples."""
import pytest

from referee import Colour, End, Game, Mark, Pass, Phase, Roll, RuleError
from referee.values import BoxState, row_points
from tests.referee_helpers import give, turn, white_roll


def refused(code, action, *args):
    with pytest.raises(RuleError) as error:
        action(*args)
    assert error.value.code == code
    return error.value.message


def test_ruling_1_rows_run_two_to_twelve_and_back():
    assert Colour.RED.numbers == Colour.YELLOW.numbers == (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    assert Colour.GREEN.numbers == Colour.BLUE.numbers == (12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)
    assert [colour.lock_number for colour in Colour] == [12, 12, 2, 2]


def test_002_and_004_left_to_right_example():
    """002 and 004 give the same example: red 5 then 7; yellow up to 10; green 6; blue 10."""
    game = Game(["Chris", "Annie"])
    give(game, "Chris", [("red", 5), ("red", 7), ("yellow", 2), ("yellow", 3), ("yellow", 4), ("yellow", 5),
                         ("yellow", 10), ("green", 6), ("blue", 10)])
    sheet = game.sheet("Chris")
    # "the red 2, 3, 4 and 6 may not be crossed out later in the game"
    red = dict(sheet.row("red").boxes)
    assert [number for number, state in red.items() if state is BoxState.GONE] == [2, 3, 4, 6]
    assert red[5] is red[7] is BoxState.MARKED
    # "In the yellow row only the 11 and the 12 may still be crossed out."
    assert [number for number, state in sheet.row("yellow").boxes if state is BoxState.OPEN] == [11, 12]
    # "In the green row you can only cross out numbers to the right of the 6."
    assert [number for number, state in sheet.row("green").boxes if state is BoxState.OPEN] == [5, 4, 3, 2]
    # "In the blue row you can only cross out right of the 10."
    assert [number for number, state in sheet.row("blue").boxes if state is BoxState.OPEN] == list(range(9, 1, -1))
    game.apply(white_roll(game, 6))
    assert game.why_not("Chris", "red", 6).code == "left-of-last-mark"
    assert game.why_not("Chris", "red", 6).message == "Red 6 is left of your last red mark, 7: numbers left of it are gone."
    assert game.why_not("Chris", "green", 6).code == "left-of-last-mark"
    assert game.why_not("Chris", "blue", 6) is None


def test_001_white_two_four_red_five_example():
    game = Game(["Ann", "Bob"])
    game.apply(Roll((2, 4), red=5, yellow=2, green=3, blue=4))
    # "Everyone may put the shared 6 in one open row or pass."
    assert {option.number for option in game.legal_options("Bob") if option.colour} == {6}
    # "On an empty red row, taking red 6 first and red 7 second is legal; taking red 6 then red 6 is not."
    game.mark("Ann", "red", 6)
    game.pass_("Bob")
    red_options = [(option.number, option.dice) for option in game.legal_options("Ann") if option.colour == "red"]
    # "2 + red 5 to mark red 7, or 4 + red 5 to mark red 9"
    assert red_options == [(7, (("white", 2), ("red", 5))), (9, (("white", 4), ("red", 5)))]
    assert game.why_not("Ann", "red", 6).code == "left-of-last-mark"
    game.mark("Ann", "red", 7)
    assert game.sheet("Ann").row("red").marks == (6, 7)


def test_002_chris_adds_white_four_to_blue_six():
    """002: Chris (active) adds the white 4 to the blue 6 and crosses out blue 10; Annie and Nora choose not to
    cross out a number; Tony crosses out the yellow 5. Non-active players who pass take no penalty."""
    game = Game(["Chris", "Annie", "Nora", "Tony"])
    game.apply(Roll((4, 1), red=2, yellow=3, green=5, blue=6))
    game.pass_("Chris")
    game.pass_("Annie")
    game.pass_("Nora")
    game.mark("Tony", "yellow", 5)
    blue_ten = next(option for option in game.legal_options("Chris") if option.colour == "blue" and option.number == 10)
    assert blue_ten.dice == (("white", 4), ("blue", 6)) and not blue_ten.penalty
    game.apply(blue_ten)
    assert game.sheet("Chris").row("blue").marks == (10,) and game.sheet("Tony").row("yellow").marks == (5,)
    assert all(score.penalties == 0 for score in game.scores().values())


def test_000_faq_two_players_play_a_whole_game():
    game = Game(["Ann", "Bob"])
    while not game.is_over:
        turn(game, white_roll(game, 7))  # nobody ever marks: Ann's fourth penalty comes on turn 7
    assert game.turn == 6 and game.outcome().winners == ("Bob",)


def test_turns_tell_what_happened():
    from referee.game import Turn
    game = Game(["Ann", "Bob"])
    five_greens(game, "Bob")
    done = len(game.turns())
    game.apply(Roll((1, 1), red=3, yellow=3, green=5, blue=3))
    game.reroll(red=4)
    game.mark("Bob", "green", 2)
    assert game.turns()[-1].complete is False and game.turns()[-1].white == {"Bob": Mark("Bob", Colour.GREEN, 2)}
    game.pass_(game.seats[0] if game.seats[0] != "Bob" else game.seats[1])
    game.pass_(game.roller)
    roller = game.turns()[-1].roller
    assert game.turns()[-1] == Turn(done, roller, Roll((1, 1), red=4, yellow=3, green=5, blue=3),
                                    {"Bob": Mark("Bob", Colour.GREEN, 2), "Ann": Pass("Ann")}, Pass(roller),
                                    roller == "Ann", (Colour.GREEN,), True)
    assert game.turns()[-1].white_marks == (Mark("Bob", Colour.GREEN, 2),)
    assert len(game.turns()) == done + 1 == game.turn


def test_option_json_for_a_page():
    game = Game(["Ann", "Bob"])
    game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
    data = game.legal_options("Ann")[0].to_json()
    assert data == {"action": {"action": "mark", "player": "Ann", "colour": "red", "number": 6},
                    "dice": [["white", 2], ["white", 4]], "skipped": 4, "skipped_numbers": [2, 3, 4, 5],
                    "locks": False, "row_before": 0, "row_after": 1, "penalty": False, "risks_penalty": False,
                    "points": 1, "text": "red 6 (white 2 + white 4): skips red 2-5 (4 boxes); red 0 -> 1 point"}


def test_001_first_mark_red_seven_makes_two_to_six_unavailable():
    game = Game(["Ann", "Bob"])
    game.apply(Roll((3, 4), red=1, yellow=1, green=1, blue=1))
    red_seven = next(option for option in game.legal_options("Ann") if option.colour == "red")
    assert (red_seven.number, red_seven.skipped, red_seven.skipped_numbers) == (7, 5, (2, 3, 4, 5, 6))
    game.apply(red_seven)
    game.pass_("Bob")
    assert [n for n, state in game.sheet("Ann").row("red").boxes if state is BoxState.GONE] == [2, 3, 4, 5, 6]


def test_ruling_2_one_row_per_action_and_colour_action_for_the_roller_only():
    game = Game(["Ann", "Bob", "Cy"])
    game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
    game.mark("Bob", "red", 6)
    message = refused("already-acted", game.mark, "Bob", "yellow", 6)
    assert "Bob already marked red 6" in message
    refused("already-acted", game.pass_, "Bob")
    game.pass_("Ann")
    game.pass_("Cy")
    assert game.phase is Phase.COLOUR
    assert game.legal_options("Bob") == ()
    message = refused("roller-only", game.mark, "Bob", "red", 7)
    assert message == "Only the roller, Ann, may combine a white die with a coloured die; Bob waits for the next roll."
    refused("roller-only", game.pass_, "Cy")
    # action 2 is a white die plus a coloured die, not the white sum again
    assert game.why_not("Ann", "yellow", 6).code == "wrong-sum"


def test_ruling_2_both_actions_in_one_row_if_the_second_is_further_right():
    """000's FAQ: "Can I cross off the same colour twice on my turn? Yes ... as long as it is to the right"."""
    game = Game(["Ann", "Bob"])
    game.apply(Roll((1, 2), red=6, yellow=1, green=1, blue=1))
    game.mark("Ann", "red", 3)
    game.pass_("Bob")
    game.mark("Ann", "red", 8)  # white 2 + red 6
    assert game.sheet("Ann").row("red").marks == (3, 8)
    game.apply(Roll((3, 3), red=1, yellow=1, green=1, blue=1))  # Bob rolls: white sum 6, red 4
    game.mark("Bob", "red", 6)
    game.pass_("Ann")
    # Bob's coloured action must be right of the 6 he marked with the white sum: red 4 (3 + 1) is not
    assert game.why_not("Bob", "red", 4).message == "Red 4 is left of your last red mark, 6: numbers left of it are gone."


def test_ruling_3_action_one_marks_take_effect_together():
    game = Game(["Ann", "Bob", "Cy"])
    game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
    game.mark("Bob", "red", 6)
    assert game.sheet("Bob").row("red").marks == ()  # held until everyone has decided
    assert game.pending == {"Bob": Mark("Bob", Colour.RED, 6)}
    assert game.waiting_for == ("Ann", "Cy")
    game.mark("Cy", "red", 6)  # several players may use the same total in the same colour
    game.pass_("Ann")
    assert game.sheet("Bob").row("red").marks == game.sheet("Cy").row("red").marks == (6,)
    assert game.pending == {}


def test_retract_withdraws_one_decision_and_keeps_the_others():
    game = Game(["Ann", "Bob", "Cy"])
    game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
    game.mark("Ann", "red", 6)
    game.mark("Bob", "blue", 6)
    assert game.retract("Ann") == Mark("Ann", Colour.RED, 6)
    assert game.pending == {"Bob": Mark("Bob", Colour.BLUE, 6)}
    assert game.waiting_for == ("Ann", "Cy")
    game.mark("Ann", "yellow", 6)
    assert game.history[1:] == (Mark("Bob", Colour.BLUE, 6), Mark("Ann", Colour.YELLOW, 6))
    refused("wrong-phase", game.retract, "Cy")


def five_greens(game, player):
    give(game, player, [("green", 12), ("green", 11), ("green", 10), ("green", 9), ("green", 8)])


def test_ruling_4_lock_needs_five_marks_first():
    game = Game(["Ann", "Bob"])
    give(game, "Ann", [("green", 12), ("green", 11), ("green", 10), ("green", 9)])
    game.apply(white_roll(game, 2))
    # "Four earlier Xs plus the endpoint is insufficient."
    message = refused("lock-needs-five", game.mark, "Ann", "green", 2)
    assert message == ("Green 2 is the last number of the row and locks it, so it needs at least 5 green marks "
                       "first; you have 4.")
    assert all(option.colour != "green" for option in game.legal_options("Ann"))


def test_ruling_4_lock_closes_the_colour_for_everyone_and_scores_a_mark():
    game = Game(["Ann", "Bob"])
    five_greens(game, "Ann")
    assert game.score("Ann").green == 15
    game.apply(white_roll(game, 2))
    lock = next(option for option in game.legal_options("Ann") if option.colour == "green")
    assert (lock.locks, lock.row_before, lock.row_after) == (True, 15, 28)  # the lock counts as one more mark
    game.apply(lock)
    game.pass_("Bob")
    assert game.closed == (Colour.GREEN,)
    sheet = game.sheet("Ann").row("green")
    assert (sheet.locked, sheet.count, sheet.points) == (True, 7, 28)
    assert game.sheet("Bob").row("green").closed and not game.sheet("Bob").row("green").locked
    if game.phase is Phase.COLOUR:
        game.pass_(game.roller)
    # its die leaves the game: a later roll with it is refused, and nobody may mark green
    message = refused("bad-roll", game.apply, Roll((1, 1), red=1, yellow=1, green=1, blue=1))
    assert message == "The green die is out of the game (green is closed): roll without it."
    game.apply(white_roll(game, 5))
    assert game.why_not("Bob", "green", 5).message == "Green is closed (Ann locked it): nobody may mark green any more."


def test_ruling_4_several_players_lock_one_colour_together():
    game = Game(["Ann", "Bob", "Cy"])
    give(game, "Ann", [("green", 12), ("green", 11), ("green", 10), ("green", 9), ("green", 8)])
    give(game, "Bob", [("green", 7), ("green", 6), ("green", 5), ("green", 4), ("green", 3)])
    # Ann and (because `give` lets the roller copy) perhaps others have five greens; both Ann and Bob lock
    game.apply(white_roll(game, 2))
    game.mark("Ann", "green", 2)
    game.mark("Bob", "green", 2)
    game.pass_("Cy")
    assert game.closed == (Colour.GREEN,)  # one closed colour, not two
    assert not game.is_over
    assert game.sheet("Ann").row("green").locked and game.sheet("Bob").row("green").locked


def test_001_white_one_one_green_example():
    """White 1 + 1 lets another player close green; the roller cannot then use green 5 + white 1 = green 6."""
    game = Game(["Ann", "Bob", "Cy"])
    five_greens(game, "Bob")
    while game.roller != "Ann":
        turn(game, white_roll(game, 7), white={game.roller: ("yellow", 7)} if game.roller != "Bob" else {})
    game.apply(Roll((1, 1), red=3, yellow=3, green=5, blue=3))
    game.pass_("Ann")
    game.mark("Bob", "green", 2)
    game.pass_("Cy")
    assert game.closed == (Colour.GREEN,) and game.phase is Phase.COLOUR
    message = refused("row-closed", game.mark, "Ann", "green", 6)
    assert message == ("Green was closed in this turn's white-sum action (Bob locked it), so it is not available "
                       "for the coloured-die action: its die is out of the game.")
    assert all(option.colour != "green" for option in game.legal_options("Ann"))
    game.mark("Ann", "blue", 4)  # "Use a different open color if the game continues."


def test_ruling_5_game_ends_in_action_one_with_no_action_two_and_no_penalty():
    game = Game(["Ann", "Bob", "Cy"])
    give(game, "Ann", [("green", 12), ("green", 11), ("green", 10), ("green", 9), ("green", 8)])
    give(game, "Bob", [("blue", 12), ("blue", 11), ("blue", 10), ("blue", 9), ("blue", 8)])
    roller = game.roller
    penalties = game.score(roller).penalties
    game.apply(white_roll(game, 2))
    for seat in game.seats:
        if seat == "Ann":
            game.mark("Ann", "green", 2)
        elif seat == "Bob":
            game.mark("Bob", "blue", 2)
        else:
            game.pass_(seat)
    assert game.is_over and game.phase is Phase.OVER
    assert game.closed == (Colour.GREEN, Colour.BLUE)
    assert game.outcome().end is End.TWO_COLOURS_CLOSED
    assert game.score(roller).penalties == penalties  # no penalty check when it ends in action 1
    assert game.waiting_for == () and game.legal_options(roller) == ()
    message = refused("game-over", game.pass_, roller)
    assert message == "The game is over: two colours are closed (green, blue). Nothing more can be marked; start a new game."
    refused("game-over", game.apply, white_roll(game, 7))


def test_ruling_5_a_third_colour_closed_in_the_same_action_counts():
    game = Game(["Ann", "Bob", "Cy"])
    give(game, "Ann", [("green", 12), ("green", 11), ("green", 10), ("green", 9), ("green", 8)])
    give(game, "Bob", [("blue", 12), ("blue", 11), ("blue", 10), ("blue", 9), ("blue", 8)])
    give(game, "Cy", [("red", 2), ("red", 3), ("red", 4), ("red", 5), ("red", 6)])
    # red closes first; then one white 2 closes green and blue at once: the second and third colours
    game.apply(white_roll(game, 12))
    for seat in game.seats:
        game.mark(seat, "red", 12) if seat == "Cy" else game.pass_(seat)
    assert game.closed == (Colour.RED,)
    if game.phase is Phase.COLOUR:
        game.pass_(game.roller)
    game.apply(white_roll(game, 2))
    game.mark("Ann", "green", 2)
    game.mark("Bob", "blue", 2)
    game.pass_("Cy")
    assert game.closed == (Colour.RED, Colour.GREEN, Colour.BLUE)  # both count, though one ended the game
    assert game.is_over


def test_ruling_5_game_ends_at_a_fourth_penalty():
    game = Game(["Ann", "Bob"])
    for number in (2, 3, 4):
        turn(game, white_roll(game, 7))  # Ann rolls and marks nothing: a penalty
        turn(game, white_roll(game, number), white={"Bob": ("red", number)})
    assert game.score("Ann").penalties == 3 and not game.is_over
    turn(game, white_roll(game, 7))
    assert game.is_over and game.outcome().end is End.FOUR_PENALTIES
    assert game.score("Ann").penalties == 4
    message = refused("game-over", game.apply, white_roll(game, 7))
    assert message == "The game is over: Ann has taken a fourth penalty. Nothing more can be marked; start a new game."


def test_ruling_5_game_ends_when_action_two_closes_the_second_colour():
    game = Game(["Ann", "Bob"])
    give(game, "Bob", [("blue", 12), ("blue", 11), ("blue", 10), ("blue", 9), ("blue", 8), ("blue", 3)])
    give(game, "Ann", [("green", 12), ("green", 11), ("green", 10), ("green", 9), ("green", 8)])
    if game.roller != "Bob":
        turn(game, white_roll(game, 7), white={"Ann": ("red", 7)})
    game.apply(white_roll(game, 2))  # Bob locks blue with the white sum
    game.mark("Bob", "blue", 2)
    game.pass_("Ann")
    assert game.closed == (Colour.BLUE,) and not game.is_over
    game.pass_("Bob")
    game.apply(Roll((1, 5), red=3, yellow=3, green=1))  # Ann rolls: white 1 + green 1 = green 2
    game.pass_("Ann")
    game.pass_("Bob")
    game.mark("Ann", "green", 2)
    assert game.is_over and game.closed == (Colour.BLUE, Colour.GREEN)
    assert game.outcome().end is End.TWO_COLOURS_CLOSED


def test_ruling_6_only_the_roller_who_marked_nothing_takes_a_penalty():
    game = Game(["Ann", "Bob", "Cy"])
    game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
    # on the white sum the roller is told what a pass risks, the others that it costs nothing
    passes = [game.legal_options(seat)[-1] for seat in game.seats]
    assert [(option.penalty, option.risks_penalty, option.points) for option in passes] == [(False, True, 0),
                                                                                             (False, False, 0),
                                                                                             (False, False, 0)]
    assert passes[0].describe() == "pass: you take a penalty (-5 points) unless you mark with a coloured die next"
    assert passes[1].describe() == "pass (no penalty)"
    for seat in game.seats:
        game.pass_(seat)
    # the roller's pass in action 2 is marked as costing a penalty; they pass on purpose anyway
    assert game.legal_options("Ann")[-1].penalty and game.legal_options("Ann")[-1].points == -5
    game.pass_("Ann")
    assert [game.score(seat).penalties for seat in game.seats] == [1, 0, 0]
    # "A roller who used the white sum has already avoided the turn's penalty even if they pass"
    turn(game, white_roll(game, 6), white={"Bob": ("red", 6)})
    assert game.score("Bob").penalties == 0
    # a roller who marked only in action 2 takes no penalty either
    turn(game, Roll((1, 1), red=6, yellow=1, green=1, blue=1), colour=("red", 7))
    assert game.score("Cy").penalties == 0


def test_ruling_7_scoring_table():
    # 000's table: crosses 1..12 -> points
    assert [row_points(count) for count in range(1, 13)] == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]


def test_001_total_42_example():
    """Six numbered marks plus the lock in red (28), three yellow (6), five green (15), two blue (3), two
    penalties (-10): 42."""
    game = Game(["Ann", "Bob"])
    give(game, "Ann", [("red", 2), ("red", 3), ("red", 4), ("red", 5), ("red", 6), ("yellow", 2), ("yellow", 3),
                       ("yellow", 4), ("green", 12), ("green", 11), ("green", 10), ("green", 9), ("green", 8),
                       ("blue", 12), ("blue", 11), ("red", 12)])
    assert game.closed == (Colour.RED,)
    while game.score("Ann").penalties < 2:
        if game.roller == "Ann":
            turn(game, white_roll(game, 7))  # Ann marks nothing: a penalty
        else:
            give(game, "Bob", [("yellow", 7 + game.turn % 5)])
    assert not game.is_over
    score = game.score("Ann")
    assert (score.red, score.yellow, score.green, score.blue, score.penalties) == (28, 6, 15, 3, 2)
    assert score.total == 42
    assert game.sheet("Ann").row("red").count == 7


def test_ruling_7_ties_share_the_win():
    game = Game(["Ann", "Bob"])
    for colour, numbers in (("green", (12, 11, 10, 9, 8)), ("blue", (12, 11, 10, 9, 8))):
        for number in numbers:
            turn(game, white_roll(game, number), white={"Ann": (colour, number), "Bob": (colour, number)})
    turn(game, white_roll(game, 2), white={"Ann": ("green", 2), "Bob": ("blue", 2)})
    assert game.score("Ann").total == game.score("Bob").total == 28 + 15
    assert game.outcome().winners == ("Ann", "Bob")


def test_ruling_8_play_passes_to_the_left():
    game = Game(["Ann", "Bob", "Cy"])
    rollers = []
    for number in (2, 3, 4, 5):
        rollers.append(game.roller)
        turn(game, white_roll(game, number), white={game.roller: ("red", number)})
    assert rollers == ["Ann", "Bob", "Cy", "Ann"]


def test_ruling_9_reroll_single_dice_before_anyone_decides():
    game = Game(["Ann", "Bob"])
    game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
    game.reroll(red=2)  # the red die rolled off the table
    assert game.dice == Roll((2, 4), red=2, yellow=1, green=3, blue=6)
    game.reroll(white2=6)
    assert game.white_sum == 8
    game.mark("Ann", "red", 8)
    message = refused("wrong-phase", lambda: game.reroll(blue=1))
    assert message == "Dice can be re-rolled only before anyone marks or passes on this roll."
    game.undo()
    refused("bad-roll", lambda: game.reroll(red=9))


def test_ruling_9_an_illegal_mark_never_lands_and_a_mistake_is_undone_before_the_next_roll():
    game = Game(["Ann", "Bob"])
    game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
    before = game.state
    refused("wrong-sum", game.mark, "Ann", "red", 7)
    assert game.state == before  # a refused action changes nothing
    game.mark("Ann", "red", 6)
    game.pass_("Bob")
    game.pass_("Ann")
    game.undo()
    game.undo()
    game.undo()
    assert game.state == before
    game.mark("Ann", "yellow", 6)  # the action taken again


def test_000_faq_penalty_never_for_other_players():
    game = Game(["Ann", "Bob", "Cy", "Dee", "Eve"])
    for number in (2, 3, 4, 5, 6):
        turn(game, white_roll(game, number), white={game.roller: ("red", number)})
    assert all(score.penalties == 0 for score in game.scores().values())


def test_000_faq_skipping_numbers_is_allowed():
    game = Game(["Ann", "Bob"])
    game.apply(white_roll(game, 11))
    game.mark("Ann", "red", 11)  # no need to start at the far left
    assert game.pending["Ann"] == Mark("Ann", Colour.RED, 11)


def test_000_faq_a_closed_colour_is_not_rolled():
    game = Game(["Ann", "Bob"])
    five_greens(game, "Ann")
    turn(game, white_roll(game, 2), white={"Ann": ("green", 2)})
    assert game.closed == (Colour.GREEN,) and game.phase is Phase.ROLL
    game.apply(Roll((3, 4), red=1, yellow=2, blue=3))  # the white dice and the remaining colours count
    assert game.dice.colours == (Colour.RED, Colour.YELLOW, Colour.BLUE)


@pytest.mark.parametrize("code,setup,action", [
    ("not-in-game", lambda g: g.apply(white_roll(g, 6)), lambda g: g.mark("Dan", "red", 6)),
    ("wrong-phase", lambda g: None, lambda g: g.mark("Ann", "red", 6)),
    ("wrong-phase", lambda g: g.apply(white_roll(g, 6)), lambda g: g.apply(white_roll(g, 6))),
    ("wrong-sum", lambda g: g.apply(white_roll(g, 6)), lambda g: g.mark("Ann", "red", 13)),
    ("bad-roll", lambda g: None, lambda g: g.apply(Roll((2, 4), red=5, yellow=1, green=3))),
    ("bad-roll", lambda g: None, lambda g: Roll((2, 7), red=5, yellow=1, green=3, blue=1)),
    ("bad-action", lambda g: g.apply(white_roll(g, 6)), lambda g: g.mark("Ann", "purple", 6)),
    # a number that finds its box but is no whole number must not slip past the rules that count boxes
    ("bad-action", lambda g: g.apply(Roll((6, 6), red=1, yellow=1, green=1, blue=1)), lambda g: g.mark("Ann", "red", 12.0)),
    ("bad-action", lambda g: g.apply(white_roll(g, 6)), lambda g: g.mark("Ann", "red", "6")),
    ("bad-action", lambda g: g.apply(white_roll(g, 6)), lambda g: g.why_not("Ann", "red", 6.0)),
    ("nothing-to-undo", lambda g: None, lambda g: g.undo()),
])
def test_refusals_change_nothing(code, setup, action):
    game = Game(["Ann", "Bob"])
    setup(game)
    before, history = game.state, game.history
    with pytest.raises(RuleError) as error:
        action(game)
    assert error.value.code == code and error.value.message.endswith(".")
    assert game.state == before and game.history == history


def test_refusal_messages_name_the_specifics():
    game = Game(["Ann", "Bob"])
    game.apply(Roll((2, 4), red=5, yellow=1, green=3, blue=6))
    assert game.why_not("Dan", "red", 6).message == "Dan is not playing in this game (the players are Ann, Bob)."
    game.mark("Ann", "red", 6)
    game.pass_("Bob")
    assert game.why_not("Ann", "red", 8).message == ("Red 8 cannot be made from a white die and the red die: "
                                                     "white 2 + red 5 = 7 or white 4 + red 5 = 9.")
    assert game.why_not("Ann", "red", 6).message == ("Red 6 is already marked: each number can be marked once, "
                                                     "and only numbers right of it remain.")
    refused("wrong-phase", game.apply, white_roll(game, 6))
    game.mark("Ann", "red", 7)
    game.apply(Roll((5, 6), red=1, yellow=1, green=1, blue=1))
    assert game.why_not("Ann", "red", 9).message.endswith("so this action can mark only an 11, not 9.")
    # A box marked before the last mark is marked, not gone.
    assert game.why_not("Ann", "red", 6).message == ("Red 6 is already marked: each number can be marked once, "
                                                     "and only numbers right of your last red mark, 7, remain.")
    assert game.why_not("Ann", "red", 5).message == "Red 5 is left of your last red mark, 7: numbers left of it are gone."
    # The lock's five marks are a fact of the sheet, told before the dice: a 12 rolled now would not do either.
    assert game.why_not("Ann", "red", 12).code == "lock-needs-five"
    game.pass_("Ann")
    # Undo is the host's: a player who decided is told of taking it back, as the phone offers.
    assert game.why_not("Ann", "red", 11).message == ("Ann already passed on this white sum; each player decides once "
                                                      "per action, and may take it back while others are still deciding.")
    game.undo()
    game.undo()
    assert game.why_not("Bob", "red", 7).message == "Nothing to decide yet: Bob rolls the dice first."


def test_roll_values_are_checked():
    for white, dice in [((0, 1), {}), ((1, 2, 3), {}), ((1, True), {}), ((1, 2), {"red": 7}), ((1, 2), {"blue": 2.0})]:
        with pytest.raises(RuleError) as error:
            Roll(white, **dice)
        assert error.value.code == "bad-roll"
    assert Roll([3, 4], red=1).white == (3, 4)


def test_actions_round_trip_through_json():
    from referee import action_from_json, Reroll
    actions = [Roll((2, 4), red=5, yellow=1, green=3, blue=6), Reroll(Roll((2, 4), red=2, yellow=1, green=3, blue=6)),
               Mark("Ann", Colour.RED, 6), Pass("Bob"), Roll((1, 1), red=2)]
    for action in actions:
        assert action_from_json(action.to_json()) == action
    assert Mark("Ann", Colour.RED, 6).to_json() == {"action": "mark", "player": "Ann", "colour": "red", "number": 6}
    for bad in [{"action": "jump"}, {"action": "mark", "player": "Ann", "colour": "red"}, [], None,
                {"action": "mark", "player": "Ann", "colour": "pink", "number": 6}]:
        with pytest.raises(RuleError) as error:
            action_from_json(bad)
        assert error.value.code == "bad-action"
    with pytest.raises(RuleError) as error:
        action_from_json({"action": "roll", "white": [1, 9]})
    assert error.value.code == "bad-roll"


def test_a_game_rebuilds_from_its_json():
    game = Game(["Ann", "Bob"])
    turn(game, Roll((2, 4), red=5, yellow=1, green=3, blue=6), white={"Ann": ("red", 6)}, colour=("red", 9))
    game.apply(white_roll(game, 8))
    game.mark("Bob", "blue", 8)
    copy = Game.from_json(game.to_json())
    assert copy.state == game.state and copy.history == game.history
