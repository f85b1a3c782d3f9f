"""`qwixx-table play`: Qwixx at the terminal for 2-5 players, with the referee keeping every sheet.

The program rolls the dice (or you type the dice you rolled), shows each player the legal options with what
they cost, explains every refusal, undoes mistakes and saves the game as a record.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys
from typing import Any, TextIO

HELP = """\
At any prompt:
  1, 2, ...      take the numbered option
  red 6, r6      mark a box directly (g = green, y = yellow, b = blue)
  p              pass
  why red 5      why a box cannot be marked now
  u              undo the last action (again to go further back)
  s              show everyone's sheet
  save FILE      save the game as a record (qwixx-table replay FILE checks it)
  q              quit
When it is time to roll: Enter rolls for you, or type the dice you rolled: the two white dice, then
red, yellow, green, blue (closed colours left out), e.g. "2 4 5 1 3 6" or "245136".
Before anyone decides: "reroll red" (or "reroll red 4") rolls single dice again (white1, white2, ...);
when you type the dice, it asks what the die shows.
"""

COLOUR_CODES = {"red": "31", "yellow": "33", "green": "32", "blue": "34"}
SHORT_COLOURS = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", nargs="+", metavar="NAME",
                        help="names in seating order (asked for when left out); for partners write pairs as Ann+Bob")
    parser.add_argument("--variant", choices=["standard", "two-sheets", "partners"], default="standard",
                        help="two-sheets: 2 players with two sheets each; partners: pairs share a sheet")
    parser.add_argument("--match", action="store_true", help="play a three-game match (totals added)")
    parser.add_argument("--first", metavar="NAME", help="who rolls first (otherwise asked; Enter rolls off)")
    parser.add_argument("--typed", action="store_true", help="always type in the dice you rolled")
    parser.add_argument("--seed", type=int, help="seed for the program's dice (to repeat a game)")
    parser.add_argument("--save", metavar="FILE", help="save the game record here after every turn")


def run(args: argparse.Namespace) -> int:
    table = TerminalTable(sys.stdin, sys.stdout, random.Random(args.seed), typed=args.typed, save_path=args.save,
                          colour=sys.stdout.isatty() and "NO_COLOR" not in os.environ)
    return table.play(args.players, args.variant, args.match, args.first)


class Quit(Exception):
    """The players asked to stop (or the input ended)."""


class TerminalTable:
    def __init__(self, inp: TextIO, out: TextIO, rng: random.Random, *, typed: bool = False,
                 save_path: str | None = None, colour: bool = False) -> None:
        self.inp, self.out, self.rng = inp, out, rng
        self.typed, self.save_path, self.colour = typed, save_path, colour
        self.match: Any = None
        self.game: Any = None

    # ----- input and output --------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise Quit("input ended")
        if not self.inp.isatty():
            self.out.write(line if line.endswith("\n") else line + "\n")  # echo scripted input: a readable log
        return line.strip()

    def paint(self, text: str, colour: str) -> str:
        code = COLOUR_CODES.get(colour)
        return f"\033[{code}m{text}\033[0m" if self.colour and code else text

    # ----- setup -------------------------------------------------------------------------------------------

    def play(self, names: list[str] | None, variant: str, match: bool, first: str | None) -> int:
        from referee import Game, Match, RuleError
        from referee.variants import find_variant

        self.say("Qwixx at the table. Type ? at any prompt for help.")
        try:
            while True:
                players = self._players(names, variant)
                try:
                    find_variant(variant).normalise(players)
                    players = self._starting_order(players, first)
                    self.match = Match(players, variant) if match else None
                    self.game = self.match.game if match else Game(players, variant)
                    break
                except RuleError as error:
                    self.say(f"  {error.message}")
                    names = first = None
            self._loop()
        except Quit as why:
            self._stop(str(why))
        except KeyboardInterrupt:  # Ctrl-C: stopped as Ctrl-D stops, with the status a shell expects of it
            self.say()
            self._stop("interrupted")
            return 130
        return 0

    def _stop(self, why: str) -> None:
        self.say(f"Stopped ({why}).")
        if self.save_path and self.game is not None:
            self._save(self.save_path)

    def _players(self, names: list[str] | None, variant: str) -> list[Any]:
        while not names:
            kind = "pairs such as Ann+Bob Cy+Dee" if variant == "partners" else "names"
            answer = self.ask(f"Who is playing? Give the {kind} in seating order, separated by spaces: ")
            names = [] if self._setup_command(answer) else answer.split()
        if variant == "partners":
            return [re.split(r"[+&]", name) if re.search(r"[+&]", name) else name for name in names]
        return [name.strip(",") for name in names]

    def _starting_order(self, players: list[Any], first: str | None) -> list[Any]:
        """Players in seating order beginning with the first roller (chosen, or by a roll-off)."""
        labels = ["+".join(player) if isinstance(player, list) else player for player in players]
        while first not in labels:
            if first is not None:
                self.say(f"  {first} is not one of the players ({', '.join(labels)}).")
            first = self.ask(f"Who rolls first ({', '.join(labels)})? Enter for a roll-off: ")
            if first.lower() in ("u", "undo"):
                self.say("  Nothing to undo: the game has not started.")
                first = None
            elif self._setup_command(first):
                first = None
            elif not first:
                first = self._roll_off(labels)
        start = labels.index(first)
        return players[start:] + players[:start]

    def _roll_off(self, labels: list[str]) -> str | None:
        """Who starts, by rolling one die each in turn until a 6; None when u takes back the roll-off itself."""
        from referee import RollOff

        values: list[int] = []  # kept to rebuild the roll-off when a typed die is taken back
        roll_off = RollOff(labels)
        while roll_off.roller is not None:
            value = self._die_for(roll_off.roller)
            if value is None:
                if not values:
                    return None
                roll_off = RollOff(labels)
                for kept in values[:-1]:
                    roll_off.roll(kept)
                self.say(f"  Undone: {roll_off.roller} rolls {values.pop()}.")
                continue
            self.say(f"  {roll_off.roller} rolls {value}")
            values.append(value)
            roll_off.roll(value)
        self.say(f"{roll_off.starter} rolled a 6 and starts.")
        return roll_off.starter

    def _die_for(self, name: str) -> int | None:
        return self._typed_die(f"  {name}'s die: ") if self.typed else self.rng.randint(1, 6)

    def _typed_die(self, prompt: str) -> int | None:
        """A die's value as typed in; None when u takes back the question."""
        while True:
            answer = self.ask(prompt)
            if answer in ("1", "2", "3", "4", "5", "6"):
                return int(answer)
            if answer.lower() in ("u", "undo"):
                return None
            if not self._setup_command(answer):
                self.say("  A die shows 1 to 6 (u to take it back, ? for help).")

    def _setup_command(self, answer: str) -> bool:
        """? and q where the game's other commands do not apply yet; True when `answer` was one."""
        verb = answer.lower()
        if verb in ("?", "h", "help"):
            self.out.write(HELP)
            return True
        if verb in ("q", "quit", "exit"):
            raise Quit("quit")
        return False

    # ----- the game loop -----------------------------------------------------------------------------------

    def _loop(self) -> None:
        from referee import Phase

        self._show_sheets()
        while True:
            game = self.game
            if game.is_over:
                if not self._finish():
                    return
            elif game.phase is Phase.ROLL:
                self._roll_prompt()
            else:
                self._decision_prompt(game.waiting_for[0])

    def _roll_prompt(self) -> None:
        from referee import COLOURS, Roll, RuleError

        game = self.game
        self.say()
        self.say(f"--- Turn {game.turn + 1}: {game.person_rolling} rolls"
                 + (f" for {game.roller}" if game.person_rolling != game.roller else "") + " ---")
        open_colours = tuple(colour.value for colour in COLOURS if colour not in game.closed)
        prompt = "Type the dice: " if self.typed else "Press Enter to roll, or type the dice: "
        while True:
            answer = self.ask(prompt)
            handled = self._command(answer, None)
            if handled is not None:
                if handled:
                    return
                continue
            try:
                if answer:
                    roll = self._parse_dice(answer, open_colours)
                elif self.typed:
                    self.say("  Type the dice you rolled, e.g. 2 4 5 1 3 6 (? for help).")
                    continue
                else:
                    roll = Roll.random(self.rng, open_colours)
                game.apply(roll)
            except RuleError as error:
                self.say(f"  {error.message}")
                continue
            self._show_roll()
            return

    def _parse_dice(self, answer: str, open_colours: tuple[str, ...]) -> Any:
        from referee import Roll, RuleError

        digits = [int(part) for part in re.findall(r"\d", answer)] if re.fullmatch(r"[\d\s,]+", answer) else []
        names = ["white", "white", *open_colours]
        if len(digits) != len(names):
            raise RuleError("bad-roll", f"Type {len(names)} dice in this order: {' '.join(names)} "
                                        f"(e.g. {' '.join('3' for _ in names)}).")
        return Roll((digits[0], digits[1]), **dict(zip(open_colours, digits[2:])))

    def _show_roll(self) -> None:
        dice = self.game.dice
        coloured = "  ".join(self.paint(f"{colour} {dice.die(colour)}", colour) for colour in dice.colours)
        self.say(f"Dice: white {dice.white[0]} {dice.white[1]} | {coloured}")
        self.say(f"White sum: {dice.white_sum}. Everyone may mark {dice.white_sum} in one row, or pass.")

    def _decision_prompt(self, player: str) -> None:
        from referee import Phase, RuleError

        game = self.game
        options = game.legal_options(player)
        if game.phase is Phase.WHITE:
            self.say(f"{player}, white sum {game.white_sum}:")
        else:
            self.say(f"{player}, add a white die to a coloured die:")
        for number, option in enumerate(options, 1):
            self.say(f"  {number if option.colour else 'p'}  {self._describe(option)}")
        while True:
            answer = self.ask("> ")
            handled = self._command(answer, player)
            if handled is not None:
                if handled:
                    return
                continue
            choice = self._choose(answer, player, options)
            if choice is None:
                continue
            phase, closed = game.phase, len(game.closed)
            try:
                game.apply(choice)
            except RuleError as error:
                self.say(f"  Not allowed: {error.message}")
                continue
            self._report(phase, closed)
            return

    def _describe(self, option: Any) -> str:
        text = option.describe()
        if option.colour:
            return self.paint(text.split(" (", 1)[0], option.colour) + " (" + text.split(" (", 1)[1]
        return text

    def _choose(self, answer: str, player: str, options: tuple[Any, ...]) -> Any:
        from referee import Mark, Pass

        marks = [option for option in options if option.colour]
        if answer.isdigit() and 1 <= int(answer) <= len(marks):
            return marks[int(answer) - 1].action
        if answer.lower() in ("p", "pass"):
            return Pass(player)
        parsed = _parse_box(answer)
        if parsed is not None:
            return Mark(player, *parsed)
        self.say("  Choose a number from the list, p to pass, or a box such as 'red 6' (? for help).")
        return None

    # ----- commands available at every prompt ------------------------------------------------------------

    def _command(self, answer: str, player: str | None) -> bool | None:
        """Carry out a command typed at a prompt: True if it changed the game, False if not, None when the
        answer is not a command."""
        from referee import RuleError

        words = answer.split()
        verb = words[0].lower() if words else ""
        if verb in ("?", "h", "help"):
            self.out.write(HELP)
        elif verb in ("q", "quit", "exit"):
            raise Quit("quit")
        elif verb in ("s", "sheet", "sheets"):
            self._show_sheets()
        elif verb in ("u", "undo"):
            return self._undo()
        elif verb == "save":
            self._save(answer.strip()[len(words[0]):].strip() or self.save_path)  # a file name may hold spaces
        elif verb == "why":
            parsed = _parse_box(" ".join(words[1:]))
            who = player or self.game.roller
            if parsed is None:
                self.say("  Ask like this: why red 5")
            else:
                error = self.game.why_not(who, *parsed)
                self.say(f"  {error.message}" if error else f"  {who} may mark {parsed[0]} {parsed[1]} now.")
        elif verb == "reroll":
            try:
                dice = self._reroll_dice(words[1:])
                if dice is None:
                    self.say("  Nothing re-rolled.")
                    return False
                self.game.reroll(**dice)
            except RuleError as error:
                self.say(f"  {error.message}")
                return False
            self.say("  Re-rolled.")
            self._show_roll()
            return True
        else:
            return None
        return False

    def _reroll_dice(self, words: list[str]) -> dict[str, int] | None:
        """The dice named to roll again with their new values: typed after the name, asked for with --typed,
        else rolled; None when u takes back a question."""
        from referee import RuleError

        dice: dict[str, int] = {}
        for index, word in enumerate(words):
            if word.isdigit():
                continue
            name = SHORT_COLOURS.get(word.lower(), word.lower())
            typed = words[index + 1] if index + 1 < len(words) and words[index + 1].isdigit() else None
            if typed is not None:
                dice[name] = int(typed)
            elif self.typed:
                value = self._typed_die(f"  The {name} die rolled again: ")
                if value is None:
                    return None
                dice[name] = value
            else:
                dice[name] = self.rng.randint(1, 6)
        if not dice:
            raise RuleError("bad-roll", "Say which dice to roll again, e.g. reroll red, or reroll white2 5.")
        return dice

    def _undo(self) -> bool:
        from referee import RuleError

        game = self.game
        try:
            if self.match is not None:
                undone = self.match.undo()
                self.game = self.match.game
            else:
                undone = game.undo()
        except RuleError as error:
            self.say(f"  {error.message}")
            return False
        self.say(f"  Undone: {_action_words(undone)}.")
        return True

    def _save(self, path: str | None, quiet: bool = False) -> None:
        from referee import Record

        if not path:
            self.say("  Say where: save FILE")
            return
        path = os.path.expanduser(path)
        record = Record.of_match(self.match) if self.match is not None else Record.of_game(self.game)
        try:
            with open(path, "w", encoding="utf-8") as file:
                file.write(record.dumps())
        except OSError as error:
            self.say(f"  Could not save to {path}: {error}")
            return
        if not quiet:
            unfinished = " (the turn in progress is not in it)" if self.game.phase.value in ("white", "colour") else ""
            self.say(f"  Saved to {path}{unfinished}.")

    # ----- what happened -----------------------------------------------------------------------------------

    def _report(self, phase: Any, closed: int) -> None:
        """Tell what the action just taken did; `phase` and `closed` (a count) are from before it."""
        from referee import Phase

        game = self.game
        turn = game.turns()[-1]
        if phase is Phase.WHITE:
            if game.phase is Phase.WHITE:
                latest = list(turn.white.values())[-1]
                self.say(f"  {_decision_words(latest)}: held until everyone has decided.")
                return
            self.say("White sum: " + "; ".join(_decision_words(turn.white[seat]) for seat in game.seats) + ".")
        elif turn.penalty:
            self.say(f"{turn.roller} marked nothing this turn: penalty {game.score(turn.roller).penalties} of 4 (-5).")
        else:
            self.say(f"{_decision_words(turn.colour)}.")
        for colour in game.closed[closed:]:
            lockers = [seat for seat in game.seats if game.sheet(seat).row(colour).locked]
            self.say(self.paint(f"{' and '.join(lockers)} locked {colour}: {colour} is closed for everyone. "
                                f"Take the {colour} die off the table.", colour))
        if game.phase is Phase.ROLL:
            self.say("Scores: " + ", ".join(f"{seat} {score.total}" for seat, score in game.scores().items()))
            if self.save_path:
                self._save(self.save_path, quiet=True)

    def _finish(self) -> bool:
        """Announce the end; in a match, go on to the next game. False when there is nothing more to play."""
        game = self.game
        outcome = game.outcome()
        why = (f"two colours are closed ({', '.join(game.closed)})" if outcome.end.value == "two-colours-closed"
               else "a fourth penalty")
        self.say()
        self.say(f"Game over: {why}.")
        self._show_sheets()
        self.say(("Winners (tied): " if len(outcome.winners) > 1 else "Winner: ") + " and ".join(outcome.winners))
        if self.save_path:
            self._save(self.save_path)
        if self.match is None:
            return self._undo_or_finish()
        self.say("Match totals: " + ", ".join(f"{seat} {total}" for seat, total in self.match.totals().items()))
        if self.match.is_over:
            winners = self.match.winners()
            self.say(("Match winners (tied): " if len(winners) > 1 else "Match winner: ") + " and ".join(winners))
            return self._undo_or_finish()
        answer = self.ask(f"Press Enter to start game {len(self.match.games) + 1} of 3 (u to undo): ")
        if self._command(answer, None) is None:
            self.game = self.match.next_game()
            self.say(f"Game {len(self.match.games)}: {self.game.roller} starts.")
        return True

    def _undo_or_finish(self) -> bool:
        """The last chance to undo the move that ended the game, or the match (ruling 9); True when it was undone."""
        try:
            while True:
                answer = self.ask("Press Enter to finish (u to undo): ")
                handled = self._command(answer, None)
                if handled is not None:
                    if handled:
                        return True
                    continue
                if not answer:
                    return False
                self.say("  Press Enter to finish, or u to undo the last move.")
        except Quit:  # q, or the end of piped input, finishes the game as Enter does
            return False

    def _show_sheets(self) -> None:
        game = self.game
        for seat in game.seats:
            sheet = game.sheet(seat)
            score = sheet.score
            self.say(f"{seat}: {score.total} point{'' if score.total == 1 else 's'}, penalties {'X' * sheet.penalties}{'.' * (4 - sheet.penalties)}")
            for row in sheet.rows:
                boxes = " ".join({"marked": " X", "gone": " -", "open": f"{number:2}", "closed": " ="}[state.value]
                                 for number, state in row.boxes)
                lock = "[X]" if row.locked else "[=]" if row.closed else "[ ]"
                self.say(f"  {self.paint(f'{row.colour.value:<6}', row.colour.value)} {boxes} {lock} {row.points:3}")


def _parse_box(text: str) -> tuple[str, int] | None:
    """'red 6', 'r6', 'Red6' -> ("red", 6)."""
    found = re.fullmatch(r"\s*([a-zA-Z]+)\s*(\d+)\s*", text)
    if not found:
        return None
    word = found.group(1).lower()
    colour = SHORT_COLOURS.get(word, word)
    if colour not in COLOUR_CODES:
        return None
    return colour, int(found.group(2))


def _decision_words(decision: Any) -> str:
    if type(decision).__name__ == "Pass":
        return f"{decision.player} passes"
    lock = " and the lock" if decision.number == decision.colour.lock_number else ""
    return f"{decision.player} marks {decision.colour} {decision.number}{lock}"


def _action_words(action: Any) -> str:
    kind = type(action).__name__
    if kind in ("Mark", "Pass"):
        return _decision_words(action)
    if kind == "Reroll":
        return f"re-roll to {action.roll}"
    return f"roll ({action})"
