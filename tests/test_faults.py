"""What goes wrong at a real table, each compared before and after: the server killed mid-turn, a camera that
stalls, sends garbage or is unplugged, a database that cannot be written, and a damaged or foreign database."""
from __future__ import annotations

import http.client
import json
import os
import random
import sqlite3
import threading
import time
import urllib.request

import numpy as np
import pytest

from camera import LiveSource
from tests.serve_process import Server
from tests.web_helpers import PIN, ROLL, phone, public_state, start_game, wait_until
from web.app import create_app
from web.camera_loop import CameraLoop
from web.store import Store, StorageError

PLAYERS = ["Ann", "Bob", "Cy"]


def comparable(state: dict) -> dict:
    """A state without what differs between two runs of the server (the boot id and the count of states
    published)."""
    return {key: value for key, value in state.items() if key not in ("boot", "version")}


def stored_log(database, games_back: int = 0) -> list:
    """The actions of the latest game (or the one `games_back` games before it) as they are on disk, read through a
    separate connection."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        game_id = db.execute("SELECT id FROM games ORDER BY id DESC LIMIT 1 OFFSET ?", (games_back,)).fetchone()[0]
        return [row[0] for row in db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]


# ----- SIGKILL -----------------------------------------------------------------------------------------------------

@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path)
    server.start()
    yield server
    server.stop()


def test_killed_in_the_middle_of_a_turn_it_resumes_exactly(server):
    host = server.host()
    host.post("/api/games", {"players": PLAYERS, "starter": 0})
    phones = []
    for person in range(3):
        phones.append(server.client())
        phones[-1].post("/api/join", {"person": person})
    host.post("/api/dice", ROLL)
    phones[1].post("/api/act", {"seat": 1, "action": "mark", "colour": "red", "number": 6})  # held until all decide
    before, bobs_view = comparable(server.state()), phones[1].get("/api/me")
    assert before["game"]["waiting_for"] == [0, 2]

    server.kill()
    server.start()

    assert comparable(server.state()) == before
    assert phones[1].get("/api/me") == bobs_view  # the phone keeps its seat and sees its held decision
    assert host.get("/api/me")["host"] is True
    phones[0].post("/api/act", {"seat": 0, "action": "pass"})
    game = phones[2].post("/api/act", {"seat": 2, "action": "mark", "colour": "green", "number": 6})["game"]
    assert game["phase"] == "colour" and game["sheets"][1]["rows"][0]["marks"] == [6]


def legal_step(state: dict) -> tuple[str, dict]:
    """One legal request of a random game, made by the host (who may act for every seat)."""
    game = state["game"]
    if game["over"]:
        return "/api/games/again", None
    if game["phase"] == "roll":
        rng = random.Random(game["turn"])
        dice = {"white": [rng.randint(1, 6), rng.randint(1, 6)],
                **{colour: rng.randint(1, 6) for colour in ("red", "yellow", "green", "blue") if colour not in game["closed"]}}
        return "/api/dice", dice
    seat = game["waiting_for"][0]
    option = game["options"][seat][0]["action"]
    return "/api/act", {"seat": seat, **{key: value for key, value in option.items() if key != "player"}}


def test_killed_at_any_moment_nothing_acknowledged_is_lost(server):
    """Write before acknowledge: killed while requests fly, the restarted table holds every acknowledged action
    and at most the one that was in flight."""
    host = server.host()
    host.post("/api/games", {"players": PLAYERS, "starter": 0})
    rng = random.Random(6)
    for round_ in range(3):
        acknowledged: list[tuple[dict, int]] = []  # (the state answered, actions on disk then)
        in_flight: list = [None]
        stop = threading.Event()

        def play():
            while not stop.is_set():
                try:
                    path, body = legal_step(server.state())
                    in_flight[0] = (path, body)
                    status, answer = host.request("POST", path, body if body is not None else {})
                except (OSError, http.client.HTTPException):
                    return  # the server died under this request
                assert status in (200, 201), answer
                acknowledged.append((comparable(answer), len(stored_log(server.database))))
                in_flight[0] = None

        player = threading.Thread(target=play)
        player.start()
        time.sleep(0.5 + rng.random())
        server.kill()
        stop.set()
        player.join(15)
        assert len(acknowledged) > 3, "the game hardly moved before the kill"
        server.start()
        last_state, last_count = acknowledged[-1]
        stored = len(stored_log(server.database))
        if stored == last_count:
            assert comparable(server.state()) == last_state, f"round {round_}"
        elif in_flight[0] == ("/api/games/again", None):
            # The request in flight began the next game: it starts empty, and the finished one is kept whole.
            assert stored == 0 and len(stored_log(server.database, games_back=1)) == last_count, f"round {round_}"
        else:
            assert stored == last_count + 1 and in_flight[0] is not None, f"round {round_}"


# ----- the camera ---------------------------------------------------------------------------------------------------

class FlakyCamera(LiveSource):
    """A camera run by the real LiveSource machinery (capture thread, stall detection, reopening with back-off)
    whose device the test switches: "ok", "stall" (no frame), "corrupt" (garbage), "unplugged" (cannot open)."""

    description = "flaky test camera"

    def __init__(self, mode: dict) -> None:
        super().__init__(stall_after=0.5, max_backoff=0.2)
        self.mode = mode

    def _open_device(self):
        if self.mode["device"] == "unplugged":
            raise OSError("no camera is connected")
        return object()

    def _read_device(self, device):
        time.sleep(0.02)
        mode = self.mode["device"]
        if mode == "unplugged":
            raise OSError("the camera went away")
        if mode == "stall":
            while self.mode["device"] == "stall" and not self._closed.is_set():
                time.sleep(0.02)
            return self._read_device(device)
        if mode == "corrupt":
            return np.zeros((4, 4), np.float32)
        return np.full((72, 128, 3), 90, np.uint8)


class CountingTracker:
    """Counts the frames it is fed; reads no dice."""

    colours_in_play = ("red", "yellow", "green", "blue")
    state = "waiting"
    on_table = ()

    def __init__(self, fed: list) -> None:
        self.fed = fed

    def feed(self, t, image):
        self.fed.append(t)
        return []


@pytest.mark.parametrize("fault, words", [
    ("stall", "sends no pictures"),
    ("corrupt", "corrupt frames in a row"),
    ("unplugged", "no camera is connected"),
])
def test_a_lost_camera_is_reported_the_dice_are_typed_and_it_is_reopened(app, host, table, fault, words):
    mode = {"device": "ok"}
    fed: list = []
    camera = FlakyCamera(mode)
    loop = CameraLoop(table, lambda: camera, lambda colours: CountingTracker(fed))
    start_game(host)
    loop.start()
    try:
        wait_until(lambda: len(fed) > 5 and table.state()["camera"]["state"] == "watching", "frames")
        mode["device"] = fault
        wait_until(lambda: table.state()["camera"]["state"] == "lost", "the camera reported lost")
        message = table.state()["camera"]["message"]
        assert words in message and "Type the dice" in message
        # The game goes on with dice typed by the host, and only the roll changes.
        before = public_state(table)
        assert host.post("/api/dice", json=ROLL).status_code == 200
        after = public_state(table)
        assert after["game"]["dice"] == ROLL and after["game"]["phase"] == "white"
        assert {key for key in before if before[key] != after[key]} == {"game"}
        frames_while_lost = len(fed)
        mode["device"] = "ok"
        wait_until(lambda: table.state()["camera"]["state"] == "watching" and len(fed) > frames_while_lost + 5,
                   "the camera reopened")
        assert "back" in table.state()["camera"]["message"] and camera.reopens >= 1
        assert table.session.log[-1]["by"] == "host"  # the typed roll stands
    finally:
        loop.stop()
        camera.close()


class BrokenFrames:
    """A recording that lets broken frames through among good ones (a source that does not check them)."""

    live = False
    description = "a recording with broken frames"

    def __iter__(self):
        good = np.full((72, 128, 3), 60, np.uint8)
        for index in range(40):
            broken = [None, np.zeros((72, 128), np.uint8), np.zeros((72, 128, 3), np.float64), np.zeros((4, 4, 3), np.uint8)]
            yield index * 0.001, broken[index % 4] if index % 3 == 1 else good

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        pass

    def close(self):
        pass


def test_broken_frames_are_skipped_without_stopping_the_camera(app, table):
    fed: list = []
    opened = []

    def open_source():
        opened.append(1)
        return BrokenFrames()

    loop = CameraLoop(table, open_source, lambda colours: CountingTracker(fed))
    loop.run()  # a recording ends: the loop returns
    assert len(opened) == 1  # never reopened for a bad frame
    assert len(fed) == 40 - 13  # every good frame reached the tracker, no broken one
    picture = loop.jpeg()  # the table screen still has the last good picture
    assert picture is not None and picture[:2] == b"\xff\xd8"


# ----- the database cannot be written ---------------------------------------------------------------------------------

def fill_the_disk(table) -> None:
    """What a full disk does to SQLite: no new page can be had."""
    pages = table.store._db.execute("PRAGMA page_count").fetchone()[0]
    table.store._db.execute(f"PRAGMA max_page_count = {pages}")


def next_decision(host, phones, table):
    """The next thing the table waits for: the roll typed by the host, or a pass from a phone."""
    waiting = table.state()["game"]["waiting_for"]
    if not waiting:
        return host.post("/api/dice", json=ROLL)
    return phones[waiting[0]].post("/api/act", json={"seat": waiting[0], "action": "pass"})


@pytest.mark.parametrize("fault", ["disk full", "read-only"])
def test_a_write_that_fails_is_refused_and_memory_stays_with_the_disk(app, host, table, database, fault):
    start_game(host)
    phones = [phone(app, person) for person in range(3)]
    if fault == "read-only":
        table.store._db.execute("PRAGMA query_only = ON")
    else:  # a full disk: SQLite can have no new page
        pages = table.store._db.execute("PRAGMA page_count").fetchone()[0]
        table.store._db.execute(f"PRAGMA max_page_count = {pages}")
    for _ in range(300):  # a page has room for a few actions
        before, log = public_state(table), list(table.session.log)
        response = next_decision(host, phones, table)
        if response.status_code != 200:
            break
    assert response.status_code == 503 and response.json["error"] == "storage"
    assert "could not be saved" in response.json["message"] and "nothing was changed" in response.json["message"]
    assert public_state(table) == before and table.session.log == log
    assert [json.loads(entry) for entry in stored_log(database)] == log
    if fault == "read-only":  # (a full disk may still find room for a small write elsewhere)
        # The other writes are refused as clearly: a new game, a host signing in.
        assert host.post("/api/games", json={"players": ["Di", "Ed"], "starter": 0}).status_code == 503
        assert app.test_client().post("/api/host", json={"pin": PIN}).status_code == 503
        assert public_state(table) == before
    # Room again: the same action goes through.
    table.store._db.execute("PRAGMA query_only = OFF")
    table.store._db.execute("PRAGMA max_page_count = 1000000")
    assert next_decision(host, phones, table).status_code == 200
    assert len(table.session.log) == len(log) + 1


def test_a_new_game_that_cannot_be_stored_leaves_the_game_in_progress(app, host, table, database):
    start_game(host)
    host.post("/api/dice", json=ROLL)
    before = public_state(table)
    # The new game's row cannot be written (as on a full disk); ending the old one could be.
    table.store._db.execute("CREATE TEMP TRIGGER full BEFORE INSERT ON main.games "
                            "BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END")
    response = host.post("/api/games", json={"players": ["Di", "Ed"], "starter": 0})
    assert response.status_code == 503 and "disk is full" in response.json["message"]
    assert public_state(table) == before
    table.store.close()
    resumed = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN}).extensions["qwixx"]
    assert resumed.session is not None and public_state(resumed)["game"] == before["game"]


def test_a_database_that_cannot_be_opened_stops_serve_with_a_clear_message(tmp_path, capsys):
    from web import cli

    # /proc takes no new files, also for root: a folder that cannot be written.
    assert cli.main(["serve", "--source", "none", "--port", "0", "--database", "/proc/qwixx/qwixx.sqlite"]) == 1
    error = capsys.readouterr().err
    assert "cannot keep games in /proc/qwixx/qwixx.sqlite" in error and "Traceback" not in error


def test_a_read_only_database_is_not_mistaken_for_a_damaged_one(tmp_path, monkeypatch):
    database = tmp_path / "qwixx.sqlite"
    Store(str(database)).close()
    connect = sqlite3.connect
    # Opened read-only, as a read-only file would be (tests run as root, which ignores chmod).
    monkeypatch.setattr(sqlite3, "connect", lambda path, **options: connect(f"file:{path}?mode=ro", uri=True, **options))
    with pytest.raises(StorageError, match="cannot be used .*check that its folder exists"):
        Store(str(database))
    assert database.exists() and not list(tmp_path.glob("*.damaged-*"))  # nothing moved aside


def test_a_games_file_deleted_while_the_table_runs_is_written_again_with_every_game(app, host, table, database):
    """SQLite goes on writing to a deleted file it holds open: every action after the delete was acknowledged and
    then lost at the next start."""
    start_game(host)
    host.post("/api/dice", json=ROLL)
    for suffix in ("", "-wal", "-shm"):
        os.remove(database + suffix)
    assert host.post("/api/act", json={"seat": 1, "action": "pass"}).status_code == 200
    before = public_state(table)
    table.store.close()
    resumed = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN}).extensions["qwixx"]
    assert public_state(resumed)["game"] == before["game"] and resumed.pin == PIN


def test_a_games_file_deleted_with_its_lock_is_held_again_when_written_again(tmp_path):
    database = str(tmp_path / "qwixx.sqlite")
    store = Store(database, alone=True)
    for name in os.listdir(tmp_path):  # rm qwixx.sqlite*
        os.remove(tmp_path / name)
    store.new_game({"players": ["Ann", "Bob"], "variant": "standard", "starter": 0, "timer": 0, "match": False})
    with pytest.raises(StorageError, match="in use by another qwixx-table"):
        Store(database, alone=True)
    store.close()


def test_a_games_file_replaced_while_the_table_runs_is_not_written_over(app, host, table, database, tmp_path):
    start_game(host)
    os.replace(database, tmp_path / "moved.sqlite")
    (tmp_path / "qwixx.sqlite").write_bytes(b"someone else's file")
    response = host.post("/api/dice", json=ROLL)
    assert response.status_code == 503 and "was replaced" in response.json["message"]
    assert (tmp_path / "qwixx.sqlite").read_bytes() == b"someone else's file"


def test_a_database_a_newer_version_wrote_is_left_as_it_is(tmp_path):
    database = tmp_path / "qwixx.sqlite"
    Store(str(database)).close()
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA user_version = 2")
    written = database.read_bytes()
    with pytest.raises(StorageError, match="newer qwixx-table"):
        Store(str(database))
    assert database.read_bytes() == written and not list(tmp_path.glob("*.damaged-*"))


def test_a_second_serve_on_the_same_games_file_is_refused_before_it_changes_anything(server, tmp_path):
    host = server.host()
    host.post("/api/games", {"players": PLAYERS, "starter": 0})
    settings = tmp_path / "settings.toml"
    settings.write_text('host_pin = "9876"\n')
    second = Server(tmp_path, args=("--config", str(settings)))
    with pytest.raises(AssertionError, match="in use by another qwixx-table"):
        second.start()
    assert host.post("/api/dice", ROLL)["game"]["phase"] == "white"  # the first one's host is still the host


def test_a_game_the_host_ended_stays_off_the_table_after_a_restart(app, host, table, database):
    start_game(host, players=["Ann", "Bob"])
    while not table.session.finished:  # everyone passes: each roller takes a penalty, up to a fourth
        host.post("/api/dice", json=ROLL)
        while table.session.deciding:
            for seat in table.state()["game"]["waiting_for"]:
                host.post("/api/act", json={"seat": seat, "action": "pass"})
    host.post("/api/games/end")  # the finished game's scores taken off the table
    table.store.close()
    assert create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN}).extensions["qwixx"].session is None


def test_a_re_roll_asked_of_the_camera_still_counts_for_those_dice_alone_after_a_restart(app, host, table, database):
    """Ruling 9: the other dice keep their values, even if the camera reads them otherwise the second time. After a
    restart the table had forgotten which dice were re-rolled, and took every changed die."""
    from tests.test_web_camera import settled
    from web.camera_loop import event_json

    start_game(host)
    table.camera_state("watching", "Watching the table.")
    table.camera_event(event_json(settled()))
    assert host.post("/api/reroll", json={"camera": ["blue"]}).status_code == 200
    table.store.close()  # the power cut
    resumed = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN}).extensions["qwixx"]
    assert resumed.state()["pending_roll"]["reroll"] == ["blue"]
    resumed.camera_state("watching", "Watching the table.")
    resumed.camera_event(event_json(settled(white=(2, 5), blue=4)))  # white die 2 misread as 5: it keeps its 4
    assert resumed.state()["game"]["dice"] == {**ROLL, "blue": 4}
    assert resumed.state()["pending_roll"] is None


# ----- a damaged or foreign database at start ---------------------------------------------------------------------------

def foreign_database(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO photos (name) VALUES ('holiday.jpg')")


def damaged_qwixx_database(path):
    store = Store(str(path))
    for number in range(50):
        store.new_game({"players": ["Ann", "Bob"], "variant": "standard", "starter": 0, "timer": 0, "match": False},
                       actions=[{"type": "undo", "by": f"padding {number}" * 20}] * 5)
    store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[3 * page:6 * page] = bytes(range(256)) * (3 * page // 256)  # three pages of b-tree overwritten
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("make, what", [
    (lambda path: path.write_bytes(b"\x00garbage" * 3000), "garbage"),
    (foreign_database, "another program's SQLite database"),
    (damaged_qwixx_database, "a qwixx-table database with damaged pages"),
])
def test_a_damaged_or_foreign_database_is_kept_aside_and_the_table_starts_fresh(tmp_path, make, what):
    server = Server(tmp_path)
    make(server.database)
    original = server.database.read_bytes()
    server.start()
    try:
        state = server.state()
        assert "could not be used" in state["notice"] and "set up a new game" in state["notice"], what
        kept = list(tmp_path.glob("qwixx.sqlite.damaged-*"))
        assert [path.read_bytes() for path in kept if not path.name.endswith(("-wal", "-shm"))] == [original]
        assert "could not be used" in server.output() and kept[0].name in server.output()  # on the console too
        assert state["game"] is None
        server.host().post("/api/games", {"players": PLAYERS, "starter": 0})  # the fresh start works
        with urllib.request.urlopen(f"{server.url}/table", timeout=10) as page:
            assert 'id="notice"' in page.read().decode()
    finally:
        server.stop()
    server.start()  # the fresh database is sound: no notice the next time
    try:
        assert server.state()["notice"] is None and server.state()["game"]["seats"] == PLAYERS
    finally:
        server.stop()


def test_the_table_screen_says_the_camera_is_lost(tmp_path):
    """In a real browser: a camera that never answers (webcam 7: no such device) is said on the table screen,
    and the host can type the dice there."""
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    from tests.test_web_browser import CHROMIUM, CHROMIUM_ARGS

    server = Server(tmp_path, source="7")
    server.start()
    try:
        server.wait_for(lambda state: state["camera"]["state"] == "lost", "the camera reported lost", timeout=30)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(f"{server.url}/table")
                message = page.locator("#camera-message")
                message.wait_for(state="visible", timeout=20_000)
                assert "sends no pictures" in message.inner_text() and "Type the dice" in message.inner_text()
            finally:
                browser.close()
    finally:
        server.stop()
