"""The card game's rules: every example of the rulebook (004) and every decision in referee.cards.game."""
import doctest
import json

import pytest

import referee.cards
from referee import RuleError
from referee.cards import Announce, Card, CardEnd, CardGame, Colour, Mark, Pass, Play, Take, full_deck
from tests.cards_helpers import cards, dealt_game, refused, rows, turn

RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def locked(game, player):
    return [row.colour.value for row in game.sheet(player).rows if row.locked]


# The rulebook's examples.

def test_carols_hand_green_11_9_8_may_all_be_crossed():
    game = dealt_game(["Carol", "Dan"], [cards(GREEN, 11, 9, 8) + cards(BLUE, 10), cards(RED, 2, 3, 4, 5)],
                      cards(BLUE, 3) + cards(RED, 6, 7, 8))
    game.apply(Take("Carol", (0,)))
    assert game.hand("Carol") == tuple(sorted(cards(GREEN, 11, 9, 8) + cards(BLUE, 10, 3), key=lambda c: c.sort_key))
    game.apply(Pass("Carol"))
    game.apply(Pass("Dan"))
    options = {option.action: option for option in game.legal_options("Carol")}
    green = Play("Carol", cards(GREEN, 11, 9, 8), (11, 9, 8))
    assert green in options
    assert options[green].numbers == (11, 9, 8) and options[green].skipped == 2 and options[green].points == 6
    assert options[green].describe() == ("play green 11, green 9, green 8, crossing 11, 9, 8: "
                                         "skips green 12, 10 (2 boxes); green 0 -> 6 points")
    # Blue 10 and 3 may be played together, but only one of them crossed.
    assert Play("Carol", cards(BLUE, 10, 3), (10,)) in options
    assert Play("Carol", cards(BLUE, 10, 3), (3,)) in options
    assert Play("Carol", cards(BLUE, 10, 3), (10, 3)) not in options
    message = refused(game, Play("Carol", cards(BLUE, 10, 3), (10, 3)), "too-far-apart")
    assert "10 and 3" in message
    # 11, 10 and 9 are not one colour.
    refused(game, Play("Carol", cards(GREEN, 11, 9) + cards(BLUE, 10), ()), "mixed-colours")
    game.apply(green)
    assert game.sheet("Carol").row(GREEN).marks == (11, 9, 8)
    assert game.sheet("Carol").penalties == 0


def test_carols_blue_10_and_3_with_real_cards():
    game = CardGame(["Carol", "Dan"])
    turn(game, 7)
    refused(game, Play("Carol", cards(BLUE, 10, 3), (3, 10)), "too-far-apart")
    game.apply(Play("Carol", cards(BLUE, 10, 3), (3,)))
    assert game.sheet("Carol").row(BLUE).marks == (3,)


def test_left_to_right_example_red_yellow_green_blue():
    # The rulebook's sheet: red 5 then 7; yellow up to 10 (with five marks, so 12 may lock);
    # green up to 6; blue 10.
    game = CardGame(["Ann", "Bob"])
    turn(game, 5, {"Ann": (RED, 5)}, cards(RED, 7), (7,))
    turn(game, 10, {"Ann": (BLUE, 10)}, cards(BLUE, 2))
    turn(game, 3, {"Ann": (YELLOW, 3)}, cards(YELLOW, 5, 7), (5, 7))
    turn(game, 8, {"Ann": (YELLOW, 8)}, cards(BLUE, 4))
    turn(game, 6, {"Ann": (GREEN, 6)}, cards(YELLOW, 10), (10,))
    assert rows(game, "Ann") == {"red": [5, 7], "yellow": [3, 5, 7, 8, 10], "green": [6], "blue": [10]}
    red = game.sheet("Ann").row(RED)
    assert [number for number, state in red.boxes if state == "gone"] == [2, 3, 4, 6]  # as the rulebook says
    expected = {RED: {8, 9, 10, 11}, YELLOW: {11, 12}, GREEN: {5, 4, 3}, BLUE: {9, 8, 7, 6, 5, 4, 3}}
    for number in range(2, 13):
        game.apply(Announce(game.active, number))
        allowed = {option.colour for option in game.legal_options("Ann") if option.colour}
        assert allowed == {colour for colour, numbers in expected.items() if number in numbers}, number
        if number in (2, 3, 4, 6):
            message = refused(game, Mark("Ann", RED, number), "left-of-last-mark")
            assert message == f"Red {number} is left of your last red mark, 7: numbers left of it are gone."
        if number == 5:  # crossed before the last mark: crossed, not gone
            assert refused(game, Mark("Ann", RED, 5), "left-of-last-mark") == (
                "Red 5 is already crossed: each number can be crossed once, and only numbers right of your last red "
                "mark, 7, remain.")
        game.undo()
    game.apply(Announce(game.active, 7))
    assert "already" in refused(game, Mark("Ann", RED, 7), "left-of-last-mark")
    refused(game, Mark("Ann", YELLOW, 7), "left-of-last-mark")


def test_alisons_lock_closes_green_for_alison_only():
    game = CardGame(["Alison", "Ben"])
    turn(game, 12, {"Alison": (GREEN, 12), "Ben": (GREEN, 12)}, cards(GREEN, 11, 10, 9), (11, 10, 9))
    turn(game, 8, {"Alison": (GREEN, 8)}, cards(RED, 2), (2,))
    assert game.sheet("Alison").row(GREEN).marks == (12, 11, 10, 9, 8)
    game.apply(Announce("Alison", 2))
    lock = {option.action: option for option in game.legal_options("Alison")}[Mark("Alison", GREEN, 2)]
    assert lock.locks and lock.points == 6 + 7  # the 2 and the lock: 5 marks -> 7 marks
    assert lock.describe() == "cross green 2: skips green 7, 6, 5, 4, 3 (5 boxes), LOCKS green (for you only); green 15 -> 28 points"
    refused(game, Mark("Ben", GREEN, 2), "lock-needs-five")
    game.apply(Mark("Alison", GREEN, 2))
    game.apply(Pass("Ben"))
    green = game.sheet("Alison").row(GREEN)
    assert green.locked and green.closed and green.count == 7 and green.points == 28
    assert not game.sheet("Ben").row(GREEN).closed
    game.apply(Play("Alison", cards(GREEN, 3)))  # she may still play green cards, crossing none
    assert not game.is_over
    # Green is locked for Alison only: Ben crosses green, Alison cannot.
    game.apply(Announce("Ben", 7))
    assert [option.colour for option in game.legal_options("Alison") if option.colour] == [RED, YELLOW, BLUE]
    assert "locked" in refused(game, Mark("Alison", GREEN, 7), "row-closed")
    game.apply(Mark("Ben", GREEN, 7))
    game.apply(Pass("Alison"))
    refused(game, Play("Alison", cards(RED, 5)), "active-only")
    game.apply(Play("Ben", cards(GREEN, 6, 5), (6, 5)))
    assert game.sheet("Ben").row(GREEN).marks == (12, 7, 6, 5)


def test_the_first_turn_draws_one_card_and_later_turns_refill_to_five():
    game = dealt_game(["Ann", "Bob"], [cards(RED, 2, 3, 4, 5), cards(BLUE, 2, 3, 4, 5)], cards(GREEN, 2, 3, 4, 5))
    assert [len(game.hand(player)) for player in game.players] == [4, 4]
    assert game.draw_pile_size == 44 - 8 - 4
    assert [option.action.slots for option in game.legal_options("Ann")] == [(0,), (1,), (2,), (3,)]
    message = refused(game, Take("Ann", (0, 1)), "wrong-count")
    assert message == "You hold 4 cards: take exactly 1 from the tableau to have 5."
    refused(game, Take("Ann", (4,)), "bad-slot")
    refused(game, Take("Ann", (0, 0)), "duplicate")
    refused(game, Take("Bob", (0,)), "active-only")
    refused(game, Announce("Ann", 7), "wrong-mode")
    top = game.draw_pile[0]
    game.apply(Take("Ann", (2,)))
    assert game.hand("Ann") == cards(RED, 2, 3, 4) + (Card(GREEN, 4),) + cards(RED, 5)  # sorted by number
    assert game.tableau == cards(GREEN, 2, 3) + (top,) + cards(GREEN, 5)  # the emptied slot is refilled
    assert game.announced == game.draw_pile[0].number and game.draw_pile_size == 44 - 8 - 4 - 1
    game.apply(Pass("Ann"))
    game.apply(Pass("Bob"))
    game.apply(Play("Ann", cards(RED, 2, 3, 4)))
    assert game.hand("Ann") == (Card(GREEN, 4), Card(RED, 5)) and game.discard_pile == cards(RED, 2, 3, 4)
    game.apply(Take("Bob", (0,)))
    game.apply(Pass("Ann"))
    game.apply(Pass("Bob"))
    game.apply(Play("Bob", cards(BLUE, 2)))
    assert [option.action.slots for option in game.legal_options("Ann")] == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]


def test_every_player_may_cross_the_announced_number_once():
    game = CardGame(["Ann", "Bob", "Cy"])
    game.apply(Announce("Ann", 9))
    assert game.phase == "number" and game.announced == 9
    refused(game, Mark("Bob", RED, 8), "wrong-number")
    game.apply(Mark("Bob", RED, 9))
    assert "already" in refused(game, Mark("Bob", YELLOW, 9), "already-acted")
    refused(game, Pass("Bob"), "already-acted")
    refused(game, Mark("Dan", RED, 9), "not-in-game")
    refused(game, Play("Ann", cards(RED, 4)), "wrong-phase")
    assert game.legal_options("Bob") == ()
    game.apply(Pass("Ann"))
    assert game.phase == "number" and game.waiting_for == ("Cy",)
    game.apply(Mark("Cy", BLUE, 9))
    assert game.phase == "play"
    refused(game, Pass("Cy"), "wrong-phase")


# Playing cards.

def test_a_play_is_one_to_three_cards_of_one_colour():
    game = CardGame(["Ann", "Bob"])
    turn(game, 6, {"Ann": (RED, 6)})
    assert "at least one" in refused(game, Play("Ann", ()), "play-count")
    refused(game, Play("Ann", cards(RED, 7, 8, 9, 10)), "play-count")
    refused(game, Play("Ann", cards(RED, 7) + cards(YELLOW, 8)), "mixed-colours")
    refused(game, Play("Ann", cards(RED, 7, 7)), "duplicate")
    refused(game, Play("Ann", cards(RED, 7, 8), (9,)), "not-played")
    refused(game, Play("Ann", cards(RED, 7, 8), (7, 7)), "duplicate")
    refused(game, Play("Ann", cards(None, 7)), "bad-card")  # no jokers in the standard game
    refused(game, Play("Ann", cards(RED, 7), (), GREEN), "joker-colour")
    refused(game, Play("Bob", cards(RED, 7)), "active-only")
    game.apply(Play("Ann", cards(RED, 9, 8, 7), (7, 8, 9)))
    assert game.sheet("Ann").row(RED).marks == (6, 7, 8, 9)


def test_boxes_before_the_play_may_be_skipped_freely_but_only_one_inside_it():
    game = CardGame(["Ann", "Bob"])
    turn(game, 3, {"Ann": (RED, 3)})
    options = {option.action: option for option in game.legal_options("Ann", cards(RED, 9, 10, 12))}
    assert options[Play("Ann", cards(RED, 9, 10), (9, 10))].skipped == 5  # 4-8 gone for good
    assert Play("Ann", cards(RED, 10, 12), (10, 12)) not in options  # 12 would lock with too few marks
    assert Play("Ann", cards(RED, 9, 12), (9,)) in options  # a card played need not be crossed
    refused(game, Play("Ann", cards(RED, 9, 12), (9, 12)), "too-far-apart")
    game.apply(Play("Ann", cards(RED, 9, 10), (9, 10)))
    assert game.sheet("Ann").row(RED).marks == (3, 9, 10)


def test_cards_of_a_locked_row_may_be_played_crossing_nothing():
    game = CardGame(["Ann", "Bob"])
    turn(game, 2, {"Ann": (RED, 2)}, cards(RED, 3, 4, 5), (3, 4, 5))
    turn(game, 6, {"Ann": (RED, 6)}, cards(BLUE, 12), (12,))
    turn(game, 12, {"Ann": (RED, 12)}, cards(RED, 10), ())  # crossed in action 2: no penalty
    assert game.sheet("Ann").row(RED).locked and game.sheet("Ann").penalties == 0
    turn(game, 5, {"Ann": (YELLOW, 5)})
    game.apply(Play("Bob", cards(YELLOW, 2)))
    game.apply(Announce("Ann", 9))
    game.apply(Pass("Ann"))
    game.apply(Pass("Bob"))
    options = game.legal_options("Ann", cards(RED, 11))
    assert [(option.action, option.penalty, option.points) for option in options] == [
        (Play("Ann", cards(RED, 11)), True, -5)]
    refused(game, Play("Ann", cards(RED, 11), (11,)), "row-closed")
    game.apply(Play("Ann", cards(RED, 11)))
    assert game.sheet("Ann").penalties == 1


def test_the_lock_counts_numbers_crossed_earlier_in_the_same_play():
    game = CardGame(["Ann", "Bob"])
    turn(game, 2, {"Ann": (RED, 2)}, cards(RED, 3, 4), (3, 4))
    assert game.sheet("Ann").row(RED).count == 3
    turn(game, 8, {"Bob": (RED, 8)}, cards(BLUE, 12), (12,))
    game.apply(Announce("Ann", 5))
    game.apply(Pass("Ann"))
    game.apply(Pass("Bob"))
    refused(game, Play("Ann", cards(RED, 11, 12), (11, 12)), "lock-needs-five")  # 3 + 1 before the 12
    assert "you have 4." in refused(game, Play("Ann", cards(RED, 10, 12), (10, 12)), "lock-needs-five")
    options = {option.action: option for option in game.legal_options("Ann", cards(RED, 10, 11, 12))}
    lock = options[Play("Ann", cards(RED, 10, 11, 12), (10, 11, 12))]
    assert lock.locks and lock.numbers == (10, 11, 12) and lock.skipped == 5 and lock.points == 28 - 6
    game.apply(lock.action)
    assert game.sheet("Ann").row(RED).locked and game.sheet("Ann").row(RED).count == 7


# Jokers.

def test_a_joker_takes_the_colour_chosen_when_it_is_played():
    game = CardGame(["Ann", "Bob"], jokers=True)
    turn(game, 6, {"Ann": (GREEN, 6)})
    joker = Card(None, 5)
    message = refused(game, Play("Ann", (joker,), (5,)), "joker-colour")
    assert message == "Choose a colour for your joker: it becomes that colour."
    refused(game, Play("Ann", (joker,) + cards(RED, 4), (5,), GREEN), "mixed-colours")
    options = game.legal_options("Ann", (joker,))
    assert {option.action.colour for option in options} == set(Colour)
    assert Play("Ann", (joker,), (5,), RED) in [option.action for option in options]
    assert Play("Ann", (joker,), (5,), GREEN) in [option.action for option in options]
    game.apply(Play("Ann", (joker,) + cards(GREEN, 4), (5, 4), GREEN))
    assert game.sheet("Ann").row(GREEN).marks == (6, 5, 4)
    assert game.view(None)["last_play"] == {"action": "play", "player": "Ann", "cards": [["joker", 5], ["green", 4]],
                                            "cross": [5, 4], "colour": "green"}  # green runs 12 to 2


def test_a_joker_and_a_card_of_the_same_number_cross_one_box():
    game = CardGame(["Ann", "Bob"], jokers=True)
    turn(game, 6, {"Ann": (RED, 6)})
    both = (Card(None, 8),) + cards(RED, 8)
    options = [option.action for option in game.legal_options("Ann", both)]
    assert Play("Ann", both, (8,), RED) in options and Play("Ann", both, (8,), GREEN) not in options
    refused(game, Play("Ann", both, (8, 8), RED), "duplicate")
    game.apply(Play("Ann", both, (8,), RED))
    assert game.sheet("Ann").row(RED).marks == (6, 8)


def test_a_dealt_joker_is_a_joker_only_to_its_holder():
    joker = Card(None, 9)
    game = dealt_game(["Ann", "Bob"], [(joker,) + cards(RED, 2, 3, 4), cards(BLUE, 5, 6, 7, 8)],
                      cards(YELLOW, 10, 11, 12, 2), jokers=True)
    assert ["joker", 9] in game.view("Ann")["hands"]["Ann"]
    assert [None, 9] in game.view("Bob")["hands"]["Ann"]
    for viewer in ("Bob", None):
        assert "joker" not in json.dumps(game.view(viewer)["hands"])


# Penalties.

def test_the_active_player_who_crosses_nothing_in_actions_2_and_3_takes_one_penalty():
    game = CardGame(["Ann", "Bob"])
    turn(game, 6, {"Ann": (RED, 6)}, cards(BLUE, 2))  # crossed in action 2 only
    turn(game, 6, {}, cards(YELLOW, 2), (2,))  # Bob crossed in action 3 only; Ann passed, not active
    assert [game.sheet(player).penalties for player in game.players] == [0, 0]
    game.apply(Announce("Ann", 4))
    game.apply(Pass("Ann"))
    game.apply(Pass("Bob"))
    option = next(option for option in game.legal_options("Ann", cards(GREEN, 3)) if not option.numbers)
    assert option.penalty and option.points == -5
    assert option.describe() == "play green 3, crossing nothing: you take a penalty (-5 points)"
    game.apply(option.action)
    assert [game.sheet(player).penalties for player in game.players] == [1, 0]
    assert game.score("Ann").total == 1 - 5


def test_the_fourth_penalty_ends_the_game_at_the_end_of_action_3():
    game = CardGame(["Ann", "Bob"])
    for number in (2, 3, 4):
        turn(game, number, {}, cards(BLUE, number))
        turn(game, number, {"Bob": (RED, number)}, cards(GREEN, number))
    assert game.sheet("Ann").penalties == 3 and game.sheet("Bob").penalties == 0
    turn(game, 7)
    assert game.phase == "play" and not game.is_over
    game.apply(Play("Ann", cards(BLUE, 5)))
    assert game.is_over and game.outcome().end is CardEnd.FOUR_PENALTIES and game.outcome().winners == ("Bob",)
    assert game.score("Ann").to_json() == {"red": 0, "yellow": 0, "green": 0, "blue": 0, "penalties": 4, "total": -20}
    assert game.score("Bob").total == 6
    for action in (Announce("Bob", 7), Take("Bob", (0,)), Mark("Ann", RED, 7), Pass("Bob"),
                   Play("Bob", cards(RED, 9))):
        assert "over" in refused(game, action, "game-over")
    assert all(game.legal_options(player) == () for player in game.players)


def test_a_second_lock_in_action_2_ends_the_game_once_everyone_decided():
    game = CardGame(["Ann", "Bob", "Cy"])
    turn(game, 2, {"Ann": (YELLOW, 2)}, cards(RED, 2, 3, 4), (2, 3, 4))
    turn(game, 5, {"Ann": (RED, 5), "Bob": (RED, 5)}, cards(BLUE, 12))
    turn(game, 6, {"Ann": (RED, 6), "Cy": (RED, 6)}, cards(BLUE, 11))
    turn(game, 3, {"Ann": (YELLOW, 3)}, cards(YELLOW, 4, 5, 6), (4, 5, 6))
    turn(game, 12, {"Ann": (RED, 12)}, cards(GREEN, 3), (3,))
    assert locked(game, "Ann") == ["red"] and game.sheet("Ann").row(YELLOW).count == 5 and game.active == "Cy"
    game.apply(Announce("Cy", 12))
    game.apply(Mark("Ann", YELLOW, 12))  # locks yellow, her second row
    assert locked(game, "Ann") == ["red", "yellow"] and not game.is_over
    game.apply(Pass("Cy"))
    assert not game.is_over  # Bob has not decided yet
    game.apply(Pass("Bob"))
    assert game.is_over and game.outcome().end is CardEnd.TWO_ROWS_LOCKED and game.outcome().winners == ("Ann",)
    assert game.sheet("Cy").penalties == 0  # no action 3, so no penalty for the active player
    refused(game, Play("Cy", cards(RED, 9)), "game-over")


def test_a_second_lock_in_action_3_ends_the_game():
    game = CardGame(["Ann", "Bob"])
    turn(game, 2, {"Ann": (YELLOW, 2)}, cards(RED, 2, 3, 4), (2, 3, 4))
    turn(game, 5, {"Ann": (RED, 5), "Bob": (RED, 5)}, cards(BLUE, 12))
    turn(game, 6, {"Ann": (RED, 6)}, cards(YELLOW, 3, 4, 5), (3, 4, 5))
    turn(game, 12, {"Ann": (RED, 12)}, cards(BLUE, 11), (11,))
    assert locked(game, "Ann") == ["red"] and game.sheet("Ann").row(YELLOW).count == 4
    turn(game, 9)
    assert not game.is_over
    game.apply(Play("Ann", cards(YELLOW, 10, 11, 12), (10, 11, 12)))  # four marks, then 10 and 11, lock
    assert game.is_over and game.outcome().end is CardEnd.TWO_ROWS_LOCKED
    assert rows(game, "Ann") == {"red": [2, 3, 4, 5, 6, 12], "yellow": [2, 3, 4, 5, 10, 11, 12], "green": [], "blue": []}
    assert locked(game, "Ann") == ["red", "yellow"] and game.score("Ann").total == 28 + 36


def test_equal_totals_share_the_win():
    game = CardGame(["Ann", "Bob"])
    for number, play in zip((2, 3, 4, 5), cards(BLUE, 2, 3, 4, 5)):
        turn(game, number, {"Ann": (RED, number), "Bob": (RED, number)}, (play,))
    turn(game, 6, {"Ann": (RED, 6)}, cards(BLUE, 6))  # Ann 15 points, Bob 10
    for number in range(2, 8):  # Bob, Ann, Bob, Ann, Bob, Ann: nobody crosses, three penalties each
        turn(game, 10, {}, cards(GREEN, number))
    turn(game, 7, {"Ann": (YELLOW, 7), "Bob": (YELLOW, 7)}, cards(GREEN, 8))  # Bob crosses: no penalty
    turn(game, 10, {}, cards(GREEN, 9))  # Ann's fourth penalty ends the game
    assert game.outcome().end is CardEnd.FOUR_PENALTIES
    assert game.score("Ann").total == 16 - 20 == game.score("Bob").total == 11 - 15
    assert game.outcome().winners == ("Ann", "Bob")


# Real cards: what the referee can check without seeing the hands.

def test_real_cards_refuse_a_card_already_in_the_discard_pile():
    game = CardGame(["Ann", "Bob"])
    turn(game, 5, {"Ann": (RED, 5)}, cards(RED, 7), (7,))
    game.apply(Announce("Bob", 9))
    game.apply(Pass("Ann"))
    game.apply(Pass("Bob"))
    message = refused(game, Play("Bob", cards(RED, 7)), "card-in-discard")
    assert message == "The red 7 was played already: it lies in the discard pile."
    with pytest.raises(RuleError) as error:
        game.legal_options("Bob", cards(RED, 7, 8))
    assert error.value.code == "card-in-discard"
    with pytest.raises(RuleError) as error:
        game.legal_options("Bob")
    assert error.value.code == "hand-unknown"
    assert game.view("Bob")["options"] is None


def test_real_cards_refuse_a_number_no_card_can_show():
    game = CardGame(["Ann", "Bob"])
    turn(game, 5, {"Ann": (RED, 5)}, cards(RED, 7))
    turn(game, 5, {"Bob": (RED, 5)}, cards(YELLOW, 7))
    turn(game, 5, {"Ann": (YELLOW, 5)}, cards(GREEN, 7))
    game.apply(Announce("Bob", 9))
    game.apply(Pass("Ann"))
    game.apply(Pass("Bob"))
    # Every 7 but the blue is discarded, so Bob, whose announced 9 is on the draw pile, may hold blue 7.
    game.apply(Play("Bob", cards(BLUE, 7)))
    assert "draw pile cannot show a 7" in refused(game, Announce("Ann", 7), "card-in-discard")
    refused(game, Announce("Ann", 13), "bad-card")
    assert [option.action.number for option in game.legal_options("Ann")] == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12]


def test_real_cards_refuse_the_card_on_top_of_the_draw_pile():
    game = CardGame(["Ann", "Bob"])
    turn(game, 5, {"Ann": (RED, 5)}, cards(RED, 7))
    turn(game, 5, {"Bob": (RED, 5)}, cards(YELLOW, 7))
    turn(game, 5, {"Ann": (YELLOW, 5)}, cards(GREEN, 7))
    turn(game, 7)  # the blue 7 is on top of the draw pile
    assert "top of the draw pile" in refused(game, Play("Bob", cards(BLUE, 7)), "card-on-draw-pile")
    game.apply(Play("Bob", cards(BLUE, 8)))


def test_the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out():
    game = CardGame(["Ann", "Bob"], seed=11)
    while True:
        discarded, active = game.discard_pile, game.active
        game.apply(game.legal_options(active)[0].action)
        if discarded and not game.discard_pile:
            break
        crosses = [option for option in game.legal_options(active) if option.numbers]
        game.apply(min(crosses, key=lambda option: option.skipped).action if crosses else Pass(active))
        game.apply(Pass(game.players[1 - game.players.index(active)]))
        plays = [option for option in game.legal_options(active) if not option.numbers]
        game.apply(max(plays, key=lambda option: len(option.action.cards)).action)
    assert not game.is_over and game.turn > 5
    assert set(game.draw_pile) <= set(discarded) and game.announced == game.draw_pile[0].number
    held = [card for player in game.players for card in game.hand(player)] + list(game.tableau)
    assert sorted(held + list(game.draw_pile), key=lambda c: c.sort_key) == sorted(full_deck(False), key=lambda c: c.sort_key)


# Setup and what each player sees.

@pytest.mark.parametrize("players", [["Ann"], ["A", "B", "C", "D", "E", "F"], ["Ann", "Ann"], ["Ann", ""]])
def test_two_to_five_players_with_names_of_their_own(players):
    with pytest.raises(RuleError) as error:
        CardGame(players)
    assert error.value.code == "bad-setup"


def test_a_dealt_deck_must_hold_every_card_once():
    deck = list(full_deck(False))
    with pytest.raises(RuleError) as error:
        CardGame(["Ann", "Bob"], seed=1, deck=deck[:-1] + deck[:1])
    assert error.value.code == "bad-setup"
    assert CardGame(["Ann", "Bob"], seed=1, deck=deck).hand("Ann") == (deck[0], deck[2], deck[4], deck[6])


def test_the_seed_decides_the_deal():
    first, again, other = (CardGame(["Ann", "Bob"], seed=seed) for seed in (5, 5, 6))
    assert first.deck == again.deck and first.deck != other.deck
    assert sorted(first.deck, key=lambda c: c.sort_key) == sorted(full_deck(False), key=lambda c: c.sort_key)


def test_each_player_sees_every_number_but_only_their_own_colours():
    game = CardGame(["Ann", "Bob", "Cy"], seed=2)
    for viewer in (None, *game.players):
        view = game.view(viewer)
        assert json.loads(json.dumps(view)) == view
        for player in game.players:
            hand = game.hand(player)
            expected = [card.to_json() if player == viewer else [None, card.number] for card in hand]
            assert view["hands"][player] == expected
        assert view["tableau"] == [[None, card.number] for card in game.tableau]
        assert view["draw_pile"] == 44 - 12 - 4 and "seed" not in json.dumps(view)
        assert view["options"] == (None if viewer is None else [o.to_json() for o in game.legal_options(viewer)])
    game.apply(Take("Ann", (1,)))
    for viewer in game.players:
        assert game.view(viewer)["announced"] == game.draw_pile[0].number
    assert len(game.view("Ann")["options"]) == 5 == len(game.view("Cy")["options"])  # pass or one of four rows


def test_with_real_cards_the_referee_knows_no_hand():
    game = CardGame(["Ann", "Bob"])
    view = game.view("Ann")
    assert view["hands"] == {"Ann": [[None, None]] * 4, "Bob": [[None, None]] * 4}
    assert view["deal"] == "real-cards" and view["draw_pile"] == 32 and view["tableau"] == [[None, None]] * 4
    assert [option.action for option in game.legal_options("Ann")] == [Announce("Ann", n) for n in range(2, 13)]
    refused(game, Take("Ann", (0,)), "wrong-mode")


def test_undo_takes_back_any_number_of_steps():
    game = CardGame(["Ann", "Bob"], seed=4)
    start = json.dumps(game.view("Ann"))
    with pytest.raises(RuleError) as error:
        game.undo()
    assert error.value.code == "nothing-to-undo"
    take = Take("Ann", (3,))
    game.apply(take)
    game.apply(Pass("Ann"))
    assert game.undo() == Pass("Ann") and game.undo() == take
    assert json.dumps(game.view("Ann")) == start and game.history == ()


def test_the_package_tour_runs_as_written():
    result = doctest.testmod(referee.cards, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0
