"""`qwixx-table play` driven by scripted input, as players at a terminal would type it."""
import io
import json

from referee import Record
from web import cli
from web.commands.replay import report_file


def play(monkeypatch, capsys, lines, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = cli.main(["play", *args])
    return code, capsys.readouterr().out


def penalty_game():
    """Ann rolls and passes four times (four penalties); Bob marks red 3, 4, 5 on his turns."""
    lines = []
    for bob_number in (3, 4, 5):
        lines += ["1 1 1 1 1 1", "p", "p", "p"]                       # Ann: white 2, both pass, Ann passes
        lines += [f"1 {bob_number - 1} 1 1 1 1", "p", "red {}".format(bob_number), "p"]  # Bob marks
    lines += ["1 1 1 1 1 1", "p", "p", "p"]
    return lines


def test_a_whole_game_to_the_final_scores_and_a_saved_record(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.json"
    code, out = play(monkeypatch, capsys, penalty_game(), "--players", "Ann", "Bob", "--first", "Ann",
                     "--save", str(path))
    assert code == 0 and "Stopped" not in out  # the input ends at the last prompt: that finishes the game
    assert "Ann marked nothing this turn: penalty 4 of 4 (-5)." in out
    assert "Game over: a fourth penalty." in out
    assert "Winner: Bob" in out
    assert "Bob marks red 5." in out or "White sum: Ann passes; Bob marks red 5." in out
    report = report_file(str(path))
    assert report["ok"] and report["end"] == "four-penalties"
    assert report["scores"]["Ann"]["total"] == -20 and report["scores"]["Bob"]["total"] == 6


def test_the_move_that_ends_a_single_game_can_be_undone(monkeypatch, capsys):
    lines = penalty_game() + ["x", "u", "1", "q"]  # Ann meant to mark red 2, not take her fourth penalty
    code, out = play(monkeypatch, capsys, lines, "--players", "Ann", "Bob", "--first", "Ann")
    assert code == 0
    assert "Game over: a fourth penalty." in out
    assert "Press Enter to finish (u to undo): x\n  Press Enter to finish, or u to undo the last move." in out
    assert "  Undone: Ann passes." in out and "Ann marks red 2." in out
    assert "Scores: Ann -14, Bob 6" in out and out.rstrip().endswith("Stopped (quit).")


def test_the_move_that_ends_a_match_can_be_undone(monkeypatch, capsys):
    game = ["1 1 1 1 1 1", "p", "p", "p"] * 7  # nobody marks: the roller's fourth penalty ends each game
    lines = game + [""] + game + [""] + game + ["u", "1", "q"]
    code, out = play(monkeypatch, capsys, lines, "--players", "Ann", "Bob", "--first", "Ann", "--match")
    assert "Match winner: Bob\nPress Enter to finish (u to undo): u\n  Undone: Ann passes." in out
    assert "Ann marks red 2." in out and out.rstrip().endswith("Stopped (quit).")


def test_refusals_are_explained_and_nothing_is_lost(monkeypatch, capsys):
    lines = ["3 4 1 1 1 1", "red 7", "p", "p",                  # Ann marks red 7 with white 3 + 4
             "1 4 1 1 1 1", "red 5", "blue 4", "why red 5", "yellow 5", "p", "p"]
    code, out = play(monkeypatch, capsys, lines, "--players", "Ann", "Bob", "--first", "Ann")
    assert code == 0
    assert "  Not allowed: Red 5 is left of your last red mark, 7: numbers left of it are gone." in out
    assert "  Not allowed: The white dice show 1 + 4 = 5, so this action can mark only a 5, not 4." in out
    assert "Scores: Ann 1, Bob 0" in out
    assert out.count("Red 5 is left of your last red mark, 7") == 2  # the refusal, then the answer to "why"
    assert "White sum: Ann marks yellow 5; Bob passes." in out
    assert "Stopped (input ended)." in out


def test_options_show_their_cost(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["2 4 5 1 3 6", "1", "p"], "--players", "Ann", "Bob", "--first", "Ann")
    assert "  1  red 6 (white 2 + white 4): skips red 2-5 (4 boxes); red 0 -> 1 point" in out
    assert out.count("  p  pass: you take a penalty (-5 points) unless you mark with a coloured die next") == 1  # Ann
    assert out.count("  p  pass (no penalty)") == 2  # Bob, who does not roll; then Ann, who marked red 6
    assert "  Ann marks red 6: held until everyone has decided." in out
    assert "  2  red 9 (white 4 + red 5): skips red 7-8 (2 boxes); red 1 -> 3 points" in out


def test_undo_goes_back_across_turns(monkeypatch, capsys):
    lines = ["2 4 5 1 3 6", "1", "p", "p", "u", "u", "u", "red 6", "p", "2", "s"]
    code, out = play(monkeypatch, capsys, lines, "--players", "Ann", "Bob", "--first", "Ann")
    assert "  Undone: Ann passes." in out and "  Undone: Bob passes." in out and "  Undone: Ann marks red 6." in out
    assert "Ann marks red 9." in out
    sheet = out[out.rindex("Ann: 3 points"):]
    assert sheet.splitlines()[1].split() == ["red", "-", "-", "-", "-", "X", "-", "-", "X", "10", "11", "12", "[", "]", "3"]


def test_reroll_before_anyone_decides(monkeypatch, capsys):
    lines = ["2 4 5 1 3 6", "reroll red 2", "p", "reroll blue 1"]
    code, out = play(monkeypatch, capsys, lines, "--players", "Ann", "Bob", "--first", "Ann")
    assert "Dice: white 2 4 | red 2  yellow 1  green 3  blue 6" in out
    assert "  Dice can be re-rolled only before anyone marks or passes on this roll." in out


def test_program_dice_and_a_roll_off(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["", "", "q"], "--players", "Ann", "Bob", "Cy", "--seed", "7")
    assert "Who rolls first (Ann, Bob, Cy)? Enter for a roll-off:" in out
    assert "rolled a 6 and starts." in out
    assert "White sum:" in out and out.rstrip().endswith("Stopped (quit).")


def test_setup_asks_again_after_bad_names(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["Ann", "Ann Ann", "Ann Bob", "Cy", "Bob", "q"])
    assert "Qwixx is played by 2 to 5 players; got 1." in out
    assert "Two players are called Ann: give everyone a different name." in out
    assert "  Cy is not one of the players (Ann, Bob)." in out
    assert "--- Turn 1: Bob rolls ---" in out


def test_partners_share_a_sheet_and_take_turns_at_rolling(monkeypatch, capsys):
    lines = ["2 4 5 1 3 6", "p", "p", "p", "1 1 1 1 1 1", "p", "p", "p", "3 3 1 1 1 1"]
    code, out = play(monkeypatch, capsys, lines, "--variant", "partners", "--players", "Ann+Bob", "Cy+Dee",
                     "--first", "Ann+Bob")
    assert "--- Turn 1: Ann rolls for Ann & Bob ---" in out
    assert "Ann & Bob, white sum 6:" in out
    assert "--- Turn 3: Bob rolls for Ann & Bob ---" in out


def test_a_match_goes_on_to_the_next_game(monkeypatch, capsys, tmp_path):
    path = tmp_path / "match.json"
    game = ["1 1 1 1 1 1", "p", "p", "p"] * 7  # nobody marks: Ann's fourth penalty ends game 1 on turn 7
    lines = game + ["", "1 1 1 1 1 1", "p", "p", "p"]
    code, out = play(monkeypatch, capsys, lines, "--players", "Ann", "Bob", "--first", "Ann", "--match",
                     "--save", str(path))
    assert "Match totals: Ann -20, Bob -15" in out
    assert "Game 2: Bob starts." in out
    data = json.loads(path.read_text())  # saved after every turn
    assert len(data["games"]) == 2 and len(data["games"][1]["turns"]) == 1
    assert Record.loads(path.read_text()).replay().games[0].is_over


def test_typed_dice_rolled_again_are_asked_for(monkeypatch, capsys):
    lines = ["2 4 5 1 3 6", "reroll red", "7", "2", "reroll blue", "u", "q"]
    code, out = play(monkeypatch, capsys, lines, "--players", "Ann", "Bob", "--first", "Ann", "--typed")
    assert "  The red die rolled again: 7\n  A die shows 1 to 6" in out
    assert "Dice: white 2 4 | red 2  yellow 1  green 3  blue 6" in out
    assert "  The blue die rolled again: u\n  Nothing re-rolled." in out
    assert out.count("Re-rolled.") == 1


def test_save_takes_the_rest_of_the_line_as_the_file_name(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    lines = ["2 4 5 1 3 6", "p", "p", "p", f"save {tmp_path}/my game.json", "save ~/home game.json", "q"]
    play(monkeypatch, capsys, lines, "--players", "Ann", "Bob", "--first", "Ann")
    for name in ("my game.json", "home game.json"):
        assert report_file(str(tmp_path / name))["ok"]


def test_help_quit_and_undo_work_before_the_game_starts(monkeypatch, capsys):
    lines = ["?", "u", "", "?", "3", "u", "x", "1", "6", "q"]
    code, out = play(monkeypatch, capsys, lines, "--players", "Ann", "Bob", "--typed")
    assert out.count("At any prompt:") == 2 and "  ? is not one of the players" not in out
    assert "  Nothing to undo: the game has not started." in out
    assert "  Bob's die: u\n  Undone: Ann rolls 3." in out
    assert "  Ann's die: 1\n  Ann rolls 1\n  Bob's die: 6\n  Bob rolls 6\nBob rolled a 6 and starts." in out
    code, out = play(monkeypatch, capsys, ["", "q"], "--players", "Ann", "Bob", "--typed")
    assert out.rstrip().endswith("Stopped (quit).")


class InterruptedInput(io.StringIO):
    """Scripted lines, then Ctrl-C at the next prompt."""

    def readline(self, *args):
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_says_it_stopped_and_saves_as_ctrl_d_does(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", InterruptedInput("2 4 5 1 3 6\np\np\np\n"))
    code = cli.main(["play", "--players", "Ann", "Bob", "--first", "Ann", "--save", str(path)])
    assert code == 130
    assert capsys.readouterr().out.endswith(f"Stopped (interrupted).\n  Saved to {path}.\n")
    assert report_file(str(path))["ok"]
