"""The table: the game in progress, who sits where, what the camera sees, and every page kept up to date.

Every change goes through `_record`: the entry is tried on a copy of the session (the referee refuses
illegal ones, changing nothing), written to the database, and only then does the copy become the table's
state. If the write fails, the request is refused and memory stays equal to what is stored. A single lock
orders all changes, so pages, the camera loop and the timer never race.
"""
from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from dataclasses import replace
from typing import Any

from referee import Record, ReplayError, RuleError
from referee.cards import Card
from referee.cards import record as cards_record
from referee.cards.record import FORMAT as CARDS_FORMAT
from web.auth import HOST_LOGIN_S, PinGuard, new_pin, new_token
from web.live import Broadcaster
from web.card_session import new_seed
from web.session import Session, Setup, Sitting, open_session
from web.store import StorageError, Store
from web.validate import PLAYER_NAME, ApiError

log = logging.getLogger(__name__)

COLOURS = ("red", "yellow", "green", "blue")
DICE = ("white1", "white2", *COLOURS)  # a die by name, as a re-roll of single dice names it
CAMERA_ON = ("watching", "moving", "settled", "problem")


class Table:
    def __init__(self, store: Store, host_pin: str | None = None, max_streams: int = 24, clock=time.time) -> None:
        self.store = store
        self.live = Broadcaster(max_streams, clock=clock)
        self.clock = clock
        self.boot = secrets.token_hex(4)  # pages notice a restart by this changing
        # Counts the states published since boot: a page keeps the newest of an action's answer and a live update,
        # which can arrive in either order.
        self.version = 0
        self._lock = threading.RLock()
        self.pin = self._host_pin(host_pin)
        self.pin_guard = PinGuard(self.pin)
        self.address: str | None = None  # the address phones join at (in the QR code)
        self.name_address: str | None = None  # the same page by this machine's name, http://<hostname>.local:PORT/
        self.notice: str | None = str(store.damaged) if store.damaged else None
        # "rolls_read" counts the rolls the camera read since the start: by it the table screen tells a new roll (whose
        # white sum it announces when no game is on) from the last one, though the values be the same or the dice
        # be shown again after a hand passed over them.
        # "note" says what the source is where every roll's message would hide it (the demo's dice are not yours).
        self.camera: dict[str, Any] = {"state": "off", "message": "No camera is connected: the host types the dice.",
                                       "dice": [], "size": None, "rolls_read": 0, "note": None}
        self._camera_before_motion = self.camera
        self._pending_roll: dict | None = None
        # Counts the people the host moved to another phone since the start: the phone they left asks again whom
        # it plays for when it changes.
        self.phones_moved = 0
        self._deadline: float | None = None
        self._timer_key: tuple | None = None
        self.session: Sitting | None = self._load()
        self._pending_roll = self._kept_pending_roll()
        self.publish()

    @property
    def pending_roll(self) -> dict | None:
        """A camera reading that cannot be used as it is: its problems, and the dice to re-roll (ruling 9). Kept in
        the games file with the step of the game it belongs to: after a restart, a re-roll the host asked the camera
        for still counts only for the dice named, not for a die the camera reads otherwise the second time."""
        return self._pending_roll

    @pending_roll.setter
    def pending_roll(self, pending: dict | None) -> None:
        self._pending_roll = pending
        if self.session is None or pending is None:
            return  # it is cleared only as the game moves on (or ends), after which no kept reading is taken up
        try:
            self.store.keep_setting("pending_roll", json.dumps({"game": self.session.game_id,
                                                                "step": len(self.session.log), "pending": pending}))
        except StorageError as error:  # the reading still holds until a restart
            log.warning("%s", error)

    def _kept_pending_roll(self) -> dict | None:
        kept = json.loads(self.store.setting("pending_roll") or "{}")
        session = self.session
        if session is None or kept.get("game") != session.game_id or kept.get("step") != len(session.log):
            return None  # another game, or played on since
        return kept["pending"]

    def _host_pin(self, configured: str | None) -> str:
        """The PIN from the settings, else the one kept in the database, else a new one (kept).

        A PIN that differs from the kept one signs out every host browser: changing the PIN is how an owner
        takes host rights back from someone who learned the old one."""
        kept = self.store.setting("host_pin")
        pin = configured or kept or new_pin()
        if pin != kept:
            self.store.replace_host_pin(pin)
        return pin

    def _load(self) -> Sitting | None:
        game_id = self.store.latest_game_id()
        if game_id is None:
            return None
        stored = self.store.game(game_id)
        try:
            session = open_session(stored.id, Setup.from_json(stored.setup), stored.actions)
        except (KeyError, TypeError, ValueError) as error:  # RuleError is a ValueError
            # Never crash at start: keep the stored game for inspection and let the table start afresh.
            log.error("game %s could not be resumed (%s); it is set aside", game_id, error)
            self.notice = f"The last game could not be resumed ({error}); it was set aside."
            self.store.abandon_game(game_id)
            return None
        if session.finished and stored.finished is None:
            self.store.finish_game(session.game_id, session.result())
        return session

    # ----- reading ------------------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The public state every page draws (nothing secret: sheets are public at a Qwixx table)."""
        with self._lock:
            session = self.session
            joined = self.store.joined_people(session.game_id) if session else set()
            return {
                "boot": self.boot,
                "version": self.version,
                "address": self.address,
                "address_name": self.name_address,
                "notice": self.notice,
                "camera": self.camera,
                "pending_roll": self.pending_roll,
                "timer": {"seconds": session.setup.timer, "ends_at": self._deadline} if self._deadline else None,
                "game": session.to_json(joined) if session else None,
                "phones_moved": self.phones_moved,
                "host_unlocked": self.store.any_host_token(self.clock() - HOST_LOGIN_S),
            }

    def tell(self, notice: str | None) -> None:
        """Say `notice` on every page from now on (None: say nothing)."""
        with self._lock:
            self.notice = notice
            self.publish()

    def publish(self) -> None:
        with self._lock:
            self._update_timer()
            self.version += 1
            self.live.publish(self.state())

    def set_address(self, address: str, name_address: str | None = None) -> None:
        with self._lock:
            self.address, self.name_address = address, name_address
            self.publish()

    def wants_roll(self) -> bool:
        """Whether a roll of the dice would be used now (a recording is held back until then)."""
        session = self.session
        rerolling = bool(self.pending_roll and self.pending_roll.get("reroll"))
        return session is None or session.over or session.phase in ("roll-off", "roll") or rerolling

    # ----- setup --------------------------------------------------------------------------------------------

    def start_game(self, setup: Setup, keep_phones_of: int | None = None) -> Sitting:
        with self._lock:
            open_session(0, setup)  # the referee checks names, variant and seats before anything is stored
            in_progress = self.session is not None and not self.session.finished
            game_id = self.store.new_game(setup.to_json(), abandon=self.session.game_id if in_progress else None,
                                          abandoned_result=_result_so_far(self.session) if in_progress else None,
                                          phones_from=keep_phones_of)
            self.session = open_session(game_id, setup)
            self.pending_roll = None
            self.publish()
            return self.session

    def play_again(self) -> Sitting:
        """The next game of a three-game match; otherwise the same people again, the starter one seat to the
        left of the last one (a roll-off again if that is how the last game began)."""
        with self._lock:
            session = self._require_session()
            if not session.over:
                raise ApiError(409, "not-over", "The game is still going: finish it or end it first.")
            if not session.finished:
                self._record({"type": "next-game", "by": "host"})
                return self.session
            setup = session.setup
            # The same people in the same seats (so each phone keeps its person), the starter one seat to the
            # left of the last game's (a match's third), and a freshly shuffled deck for a dealt card game.
            again = replace(setup, starter=None if setup.starter is None else session.starter_after(),
                            seed=None if setup.seed is None else new_seed(), deck=None)
            return self.start_game(again, keep_phones_of=session.game_id)

    def end_game(self) -> None:
        with self._lock:
            session = self._require_session()
            if session.finished:
                self.store.clear_table(session.game_id)
            else:
                self.store.abandon_game(session.game_id, _result_so_far(session))
            self.session = None
            self.pending_roll = None
            self.publish()

    # ----- seats --------------------------------------------------------------------------------------------

    def join(self, person: int, token: str | None, host_approves: bool) -> str:
        """Give this phone `person`'s seats; returns the phone's token (a new one if it had none). Taking a person
        another phone plays, or a second person, needs the host's approval: otherwise any phone could take everyone
        who has not joined yet, and see their held decisions or their card hand."""
        with self._lock:
            session = self._require_session()
            if not 0 <= person < len(session.people):
                raise ApiError(400, "bad-request", f"person must be between 0 and {len(session.people) - 1}.")
            already = self.store.people_of_token(token, session.game_id) if token else []
            moved = person not in already and person in self.store.joined_people(session.game_id)
            if not host_approves:
                if moved:
                    raise ApiError(409, "seat-taken", f"{session.people[person]} already plays on another phone. "
                                                      "The host can move them to this one.")
                if already and person not in already:
                    raise ApiError(409, "phone-taken", f"This phone already plays {session.people[already[0]]}: "
                                                       "a phone plays one person.")
            token = token or new_token()
            self.store.add_seat_token(token, session.game_id, person)
            self.phones_moved += moved
            self.publish()
            return token

    def seats_of(self, token: str | None) -> list[int]:
        session = self.session
        if session is None or not token:
            return []
        people = self.store.people_of_token(token, session.game_id)
        return sorted({seat for person in people for seat in session.seats_of_person(person)})

    def me(self, token: str | None) -> dict:
        with self._lock:
            session = self.session
            if session is None or not token:
                return {"people": [], "seats": [], "pending": {}}
            seats = self.seats_of(token)
            return {"people": self.store.people_of_token(token, session.game_id), "seats": seats,
                    **session.secrets_for(seats)}

    # ----- actions ------------------------------------------------------------------------------------------

    def _require_session(self) -> Sitting:
        if self.session is None:
            raise ApiError(409, "no-game", "No game is being played: the host sets one up first.")
        return self.session

    def _record(self, entry: dict) -> None:
        with self._lock:
            session = self._require_session()
            trial = session.copy()
            trial.apply(entry)
            self.store.append_action(session.game_id, len(session.log), entry)
            self.session = trial
            if entry["type"] == "roll-off" or entry.get("action", {}).get("action") in ("roll", "reroll"):
                self.pending_roll = None  # the dice are settled now
            try:
                if trial.finished and not session.finished:
                    self.store.finish_game(trial.game_id, trial.result())
                elif session.finished and not trial.finished:
                    self.store.reopen_game(trial.game_id)
            except StorageError as error:
                # The action itself is stored; the finished flag is derived again at the next start.
                log.warning("%s", error)
            self.publish()

    def act(self, seat: int, action: dict, by: str, moment: str | None = None) -> None:
        """A decision for `seat`: {"action": "mark", "colour": ..., "number": ...} or {"action": "pass"}, chosen on a
        page that showed the game at `moment` (None: not said)."""
        with self._lock:
            session = self._at_moment(moment)
            self._record({"type": "act", "action": {**action, "player": session.seats[seat]}, "by": by})

    def retract(self, seat: int, moment: str | None = None) -> None:
        with self._lock:
            self._at_moment(moment)
            self._record({"type": "retract", "seat": seat})

    def _at_moment(self, moment: str | None) -> Sitting:
        """The session, if the table is still at the `moment` a player's page showed: a tap that arrives after the
        timer decided, or on a page behind the table, must not count for a decision the player never saw (a pass on
        the white sum taken as the roller's pass with a penalty)."""
        session = self._require_session()
        if moment is not None and moment != session.moment:
            raise ApiError(409, "moved-on", "The table moved on before your choice arrived, so it was not taken: "
                                            "look again and choose.")
        return session

    def undo(self) -> None:
        self._record({"type": "undo", "by": "host"})

    def why_not(self, seat: int, action: dict) -> RuleError | None:
        """The refusal `action` (a mark, or with cards any action) would get now, changing nothing."""
        with self._lock:
            return self._require_session().why_not(seat, action)

    def options(self, seat: int, cards: list) -> list[dict]:
        """The card game with real cards: the seat's plays of exactly these cards (the referee cannot see hands)."""
        with self._lock:
            session = self._require_session()
            if session.kind != "cards":
                raise ApiError(409, "dice-game", "This is the dice game: its options are in the table's state.")
            played = [Card.from_json(card) for card in cards]
            return [option for option in session.options(seat, played)
                    if sorted(map(tuple, option["action"].get("cards", []))) == sorted(map(tuple, cards))]

    def _dice_session(self) -> Session:
        session = self._require_session()
        if session.kind != "dice":
            raise ApiError(409, "card-game", "This is the card game: there are no dice.")
        return session

    def enter_dice(self, dice: dict, by: str) -> None:
        """Dice typed by the host or read by the camera: the roll, or a correction before anyone decided."""
        with self._lock:
            session = self._dice_session()
            if session.phase == "roll-off":
                raise ApiError(409, "roll-off", "This is the roll-off: enter the one white die rolled.")
            kind = "roll" if session.phase == "roll" else "reroll"
            self._record({"type": "act", "action": {"action": kind, **dice}, "by": by})

    def _rolled_dice(self):
        session = self._dice_session()
        rolled = session.game.dice if session.game is not None else None
        if rolled is None:
            raise RuleError("wrong-phase", "Nothing to re-roll: no dice have been rolled yet.")
        return rolled

    def reroll(self, dice: dict[str, int], by: str) -> None:
        """Ruling 9: single dice rolled again before anyone decided, keeping the others: {"red": 3, "white1": 5}."""
        with self._lock:
            new = self._rolled_dice().with_dice(**dice).dice()
            self._record({"type": "act", "action": {"action": "reroll", **new}, "by": by})

    def reroll_by_camera(self, names: list[str]) -> None:
        """The host re-rolls these dice (cocked, off the table, or by choice): the camera's next settled roll
        gives their new values, every other die keeps its own (ruling 9)."""
        with self._lock:
            rolled = self._rolled_dice()
            if self.camera["state"] not in CAMERA_ON:
                raise ApiError(409, "no-camera", "No camera is watching the table: type the re-rolled dice instead.")
            # A re-roll to the same values is legal exactly when re-rolling is: the referee says whether it is now.
            self.session.copy().apply({"type": "act", "action": {"action": "reroll", **rolled.dice()}})
            self.pending_roll = {"dice": rolled.dice(), "reroll": list(dict.fromkeys(names)),
                                 "problems": [f"Roll {_die_names(names)} again: the camera reads "
                                              f"{'it' if len(set(names)) == 1 else 'them'}."]}
            self.publish()

    def roll_off(self, value: int, by: str) -> None:
        with self._lock:
            self._dice_session()
            self._record({"type": "roll-off", "value": value, "by": by})

    # ----- the camera ---------------------------------------------------------------------------------------

    def colours_in_play(self) -> tuple[str, ...]:
        with self._lock:
            session = self.session
            in_game = session is not None and session.kind == "dice" and session.game is not None
            closed = set(session.game.closed) if in_game else set()
            return tuple(colour for colour in COLOURS if colour not in closed)

    def camera_state(self, state: str, message: str) -> None:
        with self._lock:
            if (self.camera["state"], self.camera["message"]) != (state, message):
                self.camera = {**self.camera, "state": state, "message": message}
                self.publish()

    def camera_note(self, note: str | None) -> None:
        with self._lock:
            self.camera = {**self.camera, "note": note}
            self.publish()

    def camera_size(self, width: int, height: int) -> None:
        with self._lock:
            self.camera = {**self.camera, "size": [width, height]}
            self.publish()

    def camera_event(self, event: dict) -> None:
        """An event of the roll tracker: `qwixx-table watch --json`'s shape, each problem with a "message"."""
        with self._lock:
            kind = event.get("event")
            readings = event.get("dice") or []
            if kind == "roll-started":
                if self.camera["state"] != "moving":
                    self._camera_before_motion = self.camera
                self.camera = {**self.camera, "state": "moving", "message": "Dice rolling…", "dice": []}
                self.publish()
                return
            if kind not in ("roll-settled", "problem"):
                return
            problems = [problem.get("message") or f"The {problem.get('colour')} die: {problem.get('problem')}."
                        for problem in event.get("problems") or []]
            self.camera = {**self.camera, "state": "settled" if kind == "roll-settled" else "problem",
                           "message": " ".join(problems) or "Dice read.", "dice": readings,
                           "rolls_read": self.camera["rolls_read"] + (kind == "roll-settled")}
            session = self.session
            try:
                if session is None or session.over or session.kind != "dice":
                    pass  # free play: the table screen shows what was rolled, nothing is recorded
                elif session.phase == "roll-off":
                    self._camera_roll_off(readings)
                elif kind == "problem":
                    # Dice the host asked the camera to read stay asked for: a re-rolled die that knocks another
                    # adds that one.
                    asked = (self.pending_roll or {}).get("reroll") or []
                    self.pending_roll = {"dice": _dice_of(event), "problems": problems,
                                         "reroll": list(dict.fromkeys([*asked, *self._problem_dice(session, event)]))}
                elif session.phase == "roll":
                    self.enter_dice(_dice_of(event), "camera")  # nothing was announced: the roll as it lies now
                elif session.phase == "white" and not session.decided:
                    self._camera_reroll(session, event)
                else:
                    self.camera["message"] = ("The dice moved while players decide: ignored. "
                                              "The host can correct the dice.")
            except (RuleError, ApiError, StorageError) as error:
                self.pending_roll = {"dice": _dice_of(event), "problems": [getattr(error, "message", str(error))]}
            self.publish()

    def camera_at_rest(self, dice: list[dict]) -> None:
        """The motion that a `roll-started` announced came to nothing: a hand passed over the dice, or they were
        picked up. The camera view shows `dice` (readings as in `watch --json`) as they lie, under what it said before
        the motion, rather than rolling dice until the next roll; nothing is recorded."""
        with self._lock:
            if self.camera["state"] != "moving":
                return
            if dice:
                before = self._camera_before_motion
                self.camera = {**self.camera, "state": before["state"], "message": before["message"], "dice": dice}
            else:
                self.camera = {**self.camera, "state": "watching", "message": "Waiting for the next roll.", "dice": []}
            self.publish()

    def _problem_dice(self, session, event: dict) -> list[str]:
        """The dice a problem asks to re-roll, by name, once a roll is recorded (before it, the next settled
        roll is simply the roll)."""
        if session.phase != "white" or session.decided:
            return []
        kinds = [(problem.get("colour"), problem.get("problem")) for problem in event.get("problems") or []]
        names = [colour for colour, kind in kinds if colour in COLOURS and kind != "extra"]
        if any(colour == "white" and kind != "extra" for colour, kind in kinds):
            # The white dice read cleanly keep their place; the recorded white dice they match least are re-rolled.
            left = dict(zip(("white1", "white2"), session.game.dice.white))
            for reading in event.get("dice") or []:
                if reading.get("colour") == "white" and reading.get("value") and not reading.get("problem") and left:
                    del left[min(left, key=lambda name: abs(left[name] - reading["value"]))]
            names = list(left) + names
        return names

    def _camera_reroll(self, session, event: dict) -> None:
        """A settled roll while the players have not decided yet: single dice rolled again (ruling 9). When a
        problem or the host named the dice to re-roll, only those take the camera's new values; otherwise the
        dice that changed are the ones re-rolled."""
        recorded, reading = session.game.dice.dice(), _dice_of(event)
        names = (self.pending_roll or {}).get("reroll") or []
        dice = _after_reroll(recorded, names, reading) if names else reading
        if dice == recorded and not names:
            return  # the same dice read again: nothing was rolled
        if not names and _dice_set_by_host(session):
            # The host typed or corrected these dice: a die nudged, read as the camera misread it before, must not
            # undo the correction. The camera reads again only dice the host names to re-roll.
            self.camera["message"] = ("The host set these dice: the camera's reading is not taken. To re-roll a "
                                      "die, pick it in the host's tools.")
            return
        self.enter_dice(dice, "camera")
        moved = [name for name in DICE if name not in names and _die(dice, name) != _die(reading, name)]
        if names and moved:
            self.camera["message"] = (f"Only {_die_names(names)} counted as re-rolled: the other dice keep their "
                                      "results (ruling 9).")

    def _camera_roll_off(self, readings: list[dict]) -> None:
        """The roll-off needs one white die; if both were rolled, the left one counts."""
        whites = sorted((reading for reading in readings
                         if reading.get("colour") == "white" and reading.get("value") and not reading.get("problem")),
                        key=lambda reading: reading["center"][0])
        if whites:
            self.roll_off(whites[0]["value"], "camera")
        else:
            self.pending_roll = {"dice": {}, "problems": ["No white die could be read: roll it again or enter it."]}

    # ----- the decision timer -------------------------------------------------------------------------------

    def _update_timer(self) -> None:
        session = self.session
        if session is None or not session.setup.timer or not session.deciding:
            self._deadline = self._timer_key = None
            return
        # Every decision gets the full time: another game, turn, phase or dice (a correction, a re-roll), and a
        # decision the host's undo opens again.
        key = (session.moment, sum(entry["type"] == "undo" for entry in session.log))
        if key != self._timer_key:
            self._timer_key = key
            self._deadline = self.clock() + session.setup.timer

    def tick(self) -> None:
        """Called a few times a second: when a decision's time is up, the table passes for the slow."""
        with self._lock:
            if self._deadline is None or self.clock() < self._deadline:
                return
            session = self.session
            for seat in list(session.game.waiting_for):
                try:
                    self.act(session.seat_index(seat), {"action": "pass"}, "timer")
                except (RuleError, StorageError) as error:
                    log.warning("timer could not pass for %s: %s", seat, error)
                    break

    def run_timer(self, stop: threading.Event, every_s: float = 0.25) -> None:
        while not stop.wait(every_s):
            self.tick()

    # ----- stored games and records ------------------------------------------------------------------------

    def stored_session(self, game_id: int, steps: int | None = None) -> Sitting:
        """A stored game replayed (its first `steps` entries only, if given)."""
        stored = self.store.game(game_id)
        if stored is None:
            raise ApiError(404, "no-such-game", f"There is no game {game_id}.")
        log = stored.actions if steps is None else stored.actions[:steps]
        return open_session(stored.id, Setup.from_json(stored.setup), log)

    def replay_steps(self, game_id: int) -> dict:
        stored = self.store.game(game_id)
        if stored is None:
            raise ApiError(404, "no-such-game", f"There is no game {game_id}.")
        session = open_session(stored.id, Setup.from_json(stored.setup))
        steps = []
        for entry in stored.actions:
            made = session.apply(entry)
            steps.append(" ".join(item.text for item in made) or _quiet_step(entry))
        return {"id": game_id, "origin": stored.origin, "steps": steps}

    def _in_play(self, game_id: int) -> bool:
        """Whether this is the game being played at the table (whose secrets are kept until it is over)."""
        session = self.session
        return session is not None and session.game_id == game_id and not session.finished

    def replay_state(self, game_id: int, step: int) -> dict:
        """The table as it was after `step` steps; a card game shows every card once it is no longer played."""
        session = self.stored_session(game_id, step)
        return {"step": min(step, len(session.log)), "game": session.to_json(set(), reveal=not self._in_play(game_id))}

    def record_text(self, game_id: int) -> str:
        """The stored game as a record file; a dealt card game's only once it is over (the record holds the deck)."""
        with self._lock:
            session = self.stored_session(game_id)
            if session.hides_hands and self._in_play(game_id):
                raise ApiError(409, "game-in-play", "This game is being played: its record holds every card of the "
                                                    "deck, so it can be saved once the game is over.")
            return session.record_text()

    def import_record(self, data: Any) -> int:
        """Check a record with the referee and keep it as a finished game; returns its id."""
        reader = self._card_record if isinstance(data, dict) and data.get("format") == CARDS_FORMAT else self._dice_record
        setup, log = reader(data)
        session = open_session(0, setup, log)
        for person in session.people:  # the names a setup page would take, whatever wrote the record
            PLAYER_NAME(person, "A player's name in the record")
        # Kept as it is, in the list of finished games: an unfinished record stays unfinished.
        return self.store.new_game(setup.to_json(), origin="imported", actions=log, result=session.result())

    @staticmethod
    def _card_record(data: dict) -> tuple[Setup, list[dict]]:
        report = cards_record.replay_report(data)
        if not report["ok"]:
            if report["rule"] == "not-a-record":
                raise ApiError(400, report["rule"], report["message"])
            raise ApiError(422, report["rule"], f"The record breaks a rule at action {report['action']} "
                                                f"({report['player']}): {report['message']}")
        game = cards_record.load(data)
        deal = data["deal"]
        setup = Setup(list(game.players), "cards-joker" if game.jokers else "cards", 0,
                      deal="shuffled" if game.dealt else "real-cards", seed=game.seed,
                      deck=deal.get("deck") if isinstance(deal, dict) else None)
        return setup, [{"type": "act", "action": action.to_json(), "by": "record"} for action in game.history]

    @staticmethod
    def _dice_record(data: Any) -> tuple[Setup, list[dict]]:
        try:
            record = Record.from_json(data)
        except RuleError as error:
            raise ApiError(400, error.code, error.message) from None
        try:
            played = record.replay()
        except ReplayError as error:
            where = f"game {error.game}, " if error.game else ""
            who = f" ({error.player})" if error.player else ""
            raise ApiError(422, error.code, f"The record breaks a rule at {where}turn {error.turn}{who}: "
                                            f"{error.message}") from None
        games = played.games if record.match else (played,)
        log = []
        for number, game in enumerate(games):
            if number:
                log.append({"type": "next-game", "by": "record"})
            log.extend({"type": "act", "action": action.to_json(), "by": "record"} for action in game.history)
        variant = games[0].variant
        return Setup(variant.to_json_players(games[0].players), variant.name, 0, 0, record.match,
                     tags=record.tags or None), log

    # ----- host ---------------------------------------------------------------------------------------------

    def host_login(self, pin: str, address: str) -> str:
        self.pin_guard.check(pin, address)
        token = new_token()
        self.store.add_host_token(token, self.clock())
        self.publish()  # the device's own table screen hides the PIN from now on
        return token

    def host_lock(self, token: str) -> None:
        self.store.remove_host_token(token)
        self.publish()

    def is_host_token(self, token: str) -> bool:
        return self.store.is_host_token(token, self.clock() - HOST_LOGIN_S)


def _quiet_step(entry: dict) -> str:
    """A step that made no news: a decision held until everyone has decided."""
    if entry["type"] == "act":
        player = entry["action"].get("player", "")
        return f"{player} decided on the white sum (shown when everyone has)."
    return "…"


def _dice_set_by_host(session) -> bool:
    """Whether the dice of this roll were last typed or corrected by the host (rather than read by the camera)."""
    for entry in reversed(session.log):
        if entry["type"] == "act" and entry["action"].get("action") in ("roll", "reroll"):
            return entry.get("by") == "host"
    return False


def _die(dice: dict, name: str) -> int | None:
    """A die's value by name in {"white": [a, b], "red": n, ...}."""
    return dice["white"][int(name[-1]) - 1] if name.startswith("white") else dice.get(name)


def _die_names(names: list[str]) -> str:
    words = [f"white die {name[-1]}" if name.startswith("white") else f"the {name} die" for name in dict.fromkeys(names)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _after_reroll(recorded: dict, names: list[str], reading: dict) -> dict:
    """The dice once those in `names` were rolled again: their values from the camera's `reading`, every other
    die as recorded. The camera sorts the white dice, so a kept white die is found in the reading by its value
    (the nearest, should the camera read it otherwise now) and the other white value is the re-rolled one."""
    whites = list(reading["white"])
    if len(whites) != 2:
        return reading  # not a clean reading: the referee refuses it with the reason
    for index, name in enumerate(("white1", "white2")):
        if name not in names:
            whites.remove(min(whites, key=lambda value: abs(value - recorded["white"][index])))
    fresh = iter(whites)
    dice: dict = {"white": [next(fresh) if name in names else recorded["white"][index]
                            for index, name in enumerate(("white1", "white2"))]}
    for colour in COLOURS:
        value = reading.get(colour) if colour in names else recorded.get(colour)
        if value is not None:
            dice[colour] = value
    return dice


def _result_so_far(session: Sitting) -> dict | None:
    """What the list of games keeps of a game ended before its end: the scores so far, once anything was played."""
    return session.result() if session.game is not None and session.log else None


def _dice_of(event: dict) -> dict:
    """The dice of a tracker event as the referee takes them: {"white": [a, b], "red": n, ...}."""
    return {"white": list(event.get("white") or []), **(event.get("colours") or {})}


