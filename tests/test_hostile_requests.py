"""Random and hostile requests at every endpoint of the app (taken from Flask's url_map, so a new endpoint is
covered the day it is added): never a 5xx, nothing changed by a refused request, no phone acting for another
seat, no host action without the host PIN, and no file touched outside the data folder; during a dealt card
game, no response showing anyone a card's colour they may not see."""
from __future__ import annotations

import json
import mimetypes
import os
import re
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import web
from tests.test_web_cards import card_pairs, secret_cards
from tests.web_helpers import PIN, ROLL, public_state, start_game
from web.app import create_app
from web.auth import HOST_COOKIE, SEAT_COOKIE

# Endpoints a phone without the host PIN may use (with its own seat); every other one is the host's.
PLAYER_ENDPOINTS = {"api.join", "api.act", "api.retract", "api.why", "api.options", "api.host", "api.host_lock"}
SEAT_ENDPOINTS = {"api.act", "api.retract", "api.why", "api.options"}
FIELD_NAMES = ["players", "variant", "starter", "timer", "match", "pin", "person", "seat", "action", "colour", "number",
               "white", "red", "yellow", "green", "blue", "value", "format", "turns", "roll", "games", "tags", "dice",
               "camera", "white1", "white2", "deal", "slots", "cards", "cross", "__proto__"]
HOSTILE_TEXT = ["../../etc/passwd", "..\\..\\boot.ini", "%2e%2e%2f", "\x00", "<script>alert(1)</script>", "' OR 1=1 --",
                "\u202egnp.exe", "A" * 5000, "red", "pass", "mark", "standard", "partners", PIN, "qwixx-record/1",
                "qwixx-cards-record/1", "cards-joker", "real-cards"]
HOSTILE_PATHS = ["..", "../app.py", "..%2fapp.py", "%2e%2e/%2e%2e/etc/passwd", "/etc/passwd", "a/../../web/app.py",
                 "table.js", "table.js%00.png", "C:\\windows", "~root/.ssh/id_rsa", "static/../../README.md"]


# ----- what the app may touch: an audit hook records every file opened during a request -------------------------

class FileWatch:
    def __init__(self) -> None:
        self.events: list[tuple[str, str, bool]] = []  # (event, path, writes)
        self.recording = False
        self.thread: int | None = None

    def __call__(self, event: str, args: tuple) -> None:
        if not self.recording or threading.get_ident() != self.thread:
            return
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            mode, flags = args[1] or "r", args[2] or 0
            writes = any(c in str(mode) for c in "wax+") or bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
            self.events.append((event, os.fsdecode(args[0]), writes))
        elif event in ("os.remove", "os.rename", "os.mkdir", "os.rmdir", "os.truncate", "shutil.rmtree",
                       "shutil.copyfile", "sqlite3.connect") and args and isinstance(args[0], (str, bytes, os.PathLike)):
            self.events.append((event, os.fsdecode(args[0]), True))


WATCH = FileWatch()
sys.addaudithook(WATCH)  # audit hooks cannot be removed; this one does nothing unless `recording`
PACKAGE = Path(web.__file__).resolve().parent
PYTHON_DIRS = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
SYSTEM_FILES = {Path(name).resolve() for name in mimetypes.knownfiles}  # read once by the mimetypes module


def inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


# ----- the app and its users ---------------------------------------------------------------------------------------

class TableUnderTest:
    """An app with a game in progress (the dice game, or a dealt card game), a host, a phone for each person and a
    stranger."""

    def __init__(self, folder: Path, kind: str = "dice") -> None:
        self.kind = kind
        self.folder = folder.resolve()
        self.folder.mkdir(exist_ok=True)
        self.app = create_app({"TESTING": True, "DATABASE": str(self.folder / "qwixx.sqlite"), "HOST_PIN": PIN})
        self.table = self.app.extensions["qwixx"]
        self.host = self.app.test_client()
        assert self.host.post("/api/host", json={"pin": PIN}).status_code == 200
        self.phones = []
        self.new_game()

    def new_game(self) -> None:
        if self.kind == "dice":
            start_game(self.host)
            self.host.post("/api/dice", json=ROLL)
        else:
            start_game(self.host, variant="cards-joker", deal="shuffled")
        self.phones = []
        for person in range(3):
            client = self.app.test_client()
            assert client.post("/api/join", json={"person": person}).status_code == 200
            self.phones.append(client)
        if self.kind == "cards":  # Ann takes a card: everyone decides on the number
            assert self.phones[0].post("/api/act", json={"seat": 0, "action": "take", "slots": [0]}).status_code == 200

    def ready(self) -> None:
        """A game waiting for decisions, so that the players' endpoints have something to refuse or take."""
        session = self.table.session
        if session is None or session.over or session.kind != self.kind:
            self.new_game()
        # Hostile guessing of the PIN pauses PIN entry; the property tests more than that, so it is lifted.
        self.table.pin_guard._paused_until.clear()
        cookie = self.host.get_cookie(HOST_COOKIE)
        if cookie is None or not self.table.is_host_token(cookie.value):  # the host locked this browser
            assert self.host.post("/api/host", json={"pin": PIN}).status_code == 200

    def stored(self) -> dict:
        with self.table.store._lock:
            db = self.table.store._db
            return {name: db.execute(f"SELECT * FROM {name} ORDER BY rowid").fetchall()
                    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")}

    def files(self) -> dict:
        return {path: path.stat().st_size for path in self.folder.rglob("*")}


# ----- the requests ------------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True) | st.text(max_size=30)
    | st.sampled_from(HOSTILE_TEXT),
    lambda children: st.lists(children, max_size=6)
    | st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=8), children, max_size=6),
    max_leaves=25,
)
plausible_values = st.one_of(st.integers(-3, 13), st.sampled_from(["red", "yellow", "green", "blue", "white", "mark",
                                                                   "pass", "standard", "two-sheets", PIN, "Ann",
                                                                   "take", "play", "announce", "cards", "shuffled"]),
                             st.lists(st.lists(st.sampled_from(["red", "blue", "joker", 5, 7, 12]), min_size=2, max_size=2),
                                      max_size=3),
                             st.lists(st.integers(0, 7), max_size=3), st.lists(st.sampled_from(["Ann", "Bob", "Cy", ""]),
                                                                               max_size=4), st.booleans(), st.none())
plausible_bodies = st.dictionaries(st.sampled_from(FIELD_NAMES), plausible_values, max_size=5)


def encoded(value) -> bytes:
    return json.dumps(value, allow_nan=True).encode()


bodies = st.one_of(
    st.none(),
    plausible_bodies.map(encoded),
    json_values.map(encoded),
    st.binary(max_size=200),
    st.sampled_from([b"[" * 100_000, b'{"a":' * 50_000, b"\xff\xfe{}", b'{"seat": 1e999}', b'{"pin": "1"}' * 20_000,
                     b'{"seat": 0, "action": "pass", "seat": 1}', b"null", b"", b"0" * 300_000]),
)
content_types = st.sampled_from(["application/json", "application/json", "text/plain", None,
                                 "application/json; charset=latin-1", "multipart/form-data; boundary=x"])
identities = st.sampled_from(["stranger", "phone", "host", "forged"])


def url_for(rule, data) -> str:
    """The rule's address with each variable filled: plausible numbers, huge ones and hostile paths."""
    def fill(match):
        converter = match.group(1) or "string"
        if converter == "int":
            return str(data.draw(st.integers(-5, 2**64) | st.integers(0, 3) | st.sampled_from(["-1", "1e3", "0x1"])))
        if converter == "path":
            return data.draw(st.sampled_from(HOSTILE_PATHS) | st.text(min_size=1, max_size=20))
        return data.draw(st.text(min_size=1, max_size=20))
    path = re.sub(r"<(?:(\w+)(?:\([^)]*\))?:)?\w+>", fill, rule.rule)
    query = data.draw(st.sampled_from(["", "?seat=1", "?at=999999999999999999999", "?debug=1&__debugger__=yes"]))
    return path + query


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    return TableUnderTest(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="module")
def hostile_cards(tmp_path_factory):
    return TableUnderTest(tmp_path_factory.mktemp("hostile-cards"), kind="cards")


def endpoints(app) -> list[tuple]:
    return sorted(((rule, method) for rule in app.url_map.iter_rules()
                   for method in sorted(rule.methods - {"HEAD", "OPTIONS"})), key=lambda pair: (pair[0].rule, pair[1]))


def test_the_endpoints_are_found_from_the_url_map(hostile):
    found = {(rule.endpoint, method) for rule, method in endpoints(hostile.app)}
    assert {("api.act", "POST"), ("api.import_record", "POST"), ("api.events", "GET"), ("static", "GET"),
            ("pages.replay", "GET")} <= found
    assert len(found) >= 25


EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", 400))
HOSTILE_SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                                              HealthCheck.data_too_large])


@settings(max_examples=EXAMPLES, **HOSTILE_SETTINGS)
@given(data=st.data())
def test_hostile_requests_are_refused_cleanly_and_change_nothing(hostile, data):
    check_a_hostile_request(hostile, data)


@settings(max_examples=EXAMPLES // 2, **HOSTILE_SETTINGS)
@given(data=st.data())
def test_hostile_requests_at_a_dealt_card_game_show_no_one_a_hidden_card(hostile_cards, data):
    check_a_hostile_request(hostile_cards, data)


def check_a_hostile_request(hostile, data) -> None:
    hostile.ready()
    rule, method = data.draw(st.sampled_from(endpoints(hostile.app)), label="endpoint")
    url = url_for(rule, data)
    who = data.draw(identities, label="who")
    client = {"stranger": hostile.app.test_client(), "phone": hostile.phones[0], "host": hostile.host}.get(who)
    if client is None:  # cookies made up by an attacker, in every shape
        client = hostile.app.test_client()
        for name in (SEAT_COOKIE, HOST_COOKIE):
            client.set_cookie(name, data.draw(st.text(max_size=60) | st.sampled_from(["", "0" * 43, "null"])))
    body = data.draw(bodies, label="body") if method != "GET" else None
    content_type = data.draw(content_types, label="content type")
    headers = {"Content-Type": content_type} if content_type else {}

    before_state, before_stored, before_files = public_state(hostile.table), hostile.stored(), hostile.files()
    phone_seats = hostile.table.seats_of(hostile.phones[0].get_cookie(SEAT_COOKIE).value)
    WATCH.events.clear()
    WATCH.thread, WATCH.recording = threading.get_ident(), True
    try:
        response = client.open(url, method=method, data=body, headers=headers, buffered=rule.endpoint != "api.events")
        status = response.status_code
        if rule.endpoint == "api.events" and status == 200:
            received = next(response.response)  # the first event, then the stream is closed
        else:
            received = response.get_data()
        response.close()
    finally:
        WATCH.recording = False

    event(f"{status // 100}xx for {who}")
    assert status < 500, (method, url, body, status)
    if status >= 400 or method == "GET":
        assert public_state(hostile.table) == before_state, (method, url, body, status)
        assert hostile.stored() == before_stored, (method, url, body, status)
    if status < 300 and who != "host" and method != "GET":
        assert rule.endpoint in PLAYER_ENDPOINTS, f"{rule.endpoint} did {method} {url} for a {who} without the PIN"
        if rule.endpoint in SEAT_ENDPOINTS:
            assert who == "phone" and json.loads(body)["seat"] in phone_seats, (url, body)
    if status >= 400 and response.is_json:
        assert isinstance(response.json.get("message"), str) and response.json["message"], (url, response.json)
    # No file outside the data folder written, none outside it and the app's own folders read.
    for what, name, writes in WATCH.events:
        path = Path(name if os.path.isabs(name) else os.path.join(os.getcwd(), name)).resolve()
        allowed = [hostile.folder] if writes else [hostile.folder, PACKAGE, *PYTHON_DIRS]
        assert any(inside(path, folder) for folder in allowed) or (not writes and path in SYSTEM_FILES), \
            (what, name, method, url)
    assert set(hostile.files()) == set(before_files)
    if hostile.kind == "cards":
        check_no_hidden_card(hostile, client if who == "phone" else None, url, received)


def check_no_hidden_card(hostile, phone, url: str, received: bytes) -> None:
    """What a phone (None: anyone else, the host included) received shows no colour of a card it may not see in
    the dealt game being played, nor the seed of its shuffle. A finished game's record and replay show every card;
    another game's cards may be the same as this one's, so only this game's are checked."""
    session = hostile.table.session
    about = re.match(r"/api/games/(\d+)", url)
    if session is None or session.kind != "cards" or session.over or (about and int(about.group(1)) != session.game_id):
        return
    assert str(session.setup.seed).encode() not in received, url
    text = received.decode(errors="replace")
    text = next((line[len("data: "):] for line in text.splitlines() if line.startswith("data: ")), text)  # an event
    try:
        shown = json.loads(text)
    except ValueError:
        return  # not JSON: a page, a script, a picture
    seats = hostile.table.seats_of(phone.get_cookie(SEAT_COOKIE).value) if phone is not None else []
    leaked = set(card_pairs(shown)) & secret_cards(hostile.table, seats[0] if seats else None)
    assert not leaked, (url, leaked)


# ----- cases worth naming --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path, body, status", [
    ("/api/act", b"[" * 100_000, 400),  # deep nesting: Python's JSON parser runs out of stack
    ("/api/records", b'{"format": "qwixx-record/1", "turns": ' + b"[" * 60_000 + b"]" * 60_000 + b"}", 400),
    ("/api/records", b'{"format": "qwixx-record/1", "players": "' + b"x" * 300_000 + b'"}', 413),  # the size limit
    ("/api/act", b'\xff\xfe{"seat": 0}', 400),
])
def test_hostile_bodies_are_4xx_with_a_message(hostile, path, body, status):
    hostile.ready()
    before = public_state(hostile.table)
    response = hostile.host.post(path, data=body, headers={"Content-Type": "application/json"})
    assert response.status_code == status and response.json["message"]
    assert public_state(hostile.table) == before


@pytest.mark.parametrize("path", ["/api/games/18446744073709551616/record", "/api/games/9223372036854775808/replay",
                                  "/api/games/99999999999999999999/replay/99999999999999999999",
                                  "/games/18446744073709551616"])
def test_game_numbers_past_sqlites_integers_are_404(hostile, path):
    assert hostile.host.get(path).status_code == 404


# ----- secrets ---------------------------------------------------------------------------------------------------------

def test_tokens_come_from_the_secrets_module_and_are_never_alike(hostile, monkeypatch):
    from web import auth

    monkeypatch.setattr(auth.secrets, "token_urlsafe", lambda nbytes: f"from-secrets-{nbytes}")
    assert auth.new_token() == "from-secrets-32"  # 256 random bits
    monkeypatch.undo()
    tokens = {auth.new_token() for _ in range(2000)}
    assert len(tokens) == 2000 and all(re.fullmatch(r"[A-Za-z0-9_-]{43}", token) for token in tokens)


def test_no_token_ever_reaches_a_log(tmp_path, caplog):
    """A game through a real server (everything it prints) and in-process with every logger at DEBUG, with refusals
    and storage failures logged on the way: no seat or host token appears, nor in the database file."""
    import logging

    from tests.serve_process import Server

    server = Server(tmp_path / "served", env={"PYTHONWARNINGS": "always"})
    server.folder.mkdir()
    server.start()
    tokens = []
    try:
        host = server.host()
        host.post("/api/games", {"players": ["Ann", "Bob", "Cy"], "starter": 0})
        phones = [server.client() for _ in range(3)]
        for person, client in enumerate(phones):
            client.post("/api/join", {"person": person})
        host.post("/api/dice", ROLL)
        phones[0].request("POST", "/api/act", {"seat": 1, "action": "pass"})  # not its seat: refused
        phones[1].post("/api/act", {"seat": 1, "action": "pass"})
        server.client().request("POST", "/api/host", {"pin": "000000"})
        tokens += [token for client in (host, *phones) for token in client.tokens()]
    finally:
        server.stop()
    assert len(tokens) == 4
    printed = server.output()
    assert "host PIN" in printed and not any(token in printed for token in tokens)

    caplog.set_level(logging.DEBUG)
    table = TableUnderTest(tmp_path / "in-process")
    table.phones[0].post("/api/act", json={"seat": 2, "action": "pass"})
    table.table.store._db.execute("PRAGMA query_only = ON")
    assert table.phones[1].post("/api/act", json={"seat": 1, "action": "pass"}).status_code == 503  # logged
    assert table.app.test_client().post("/api/host", json={"pin": PIN}).status_code == 503  # logged too
    tokens = [client.get_cookie(name).value for client in (table.host, *table.phones)
              for name in (SEAT_COOKIE, HOST_COOKIE) if client.get_cookie(name)]
    assert len(tokens) == 4 and "could not be saved" in caplog.text
    assert not any(token in caplog.text for token in tokens)
    stored = b"".join(path.read_bytes() for path in table.folder.glob("qwixx.sqlite*"))
    assert not any(token.encode() in stored for token in tokens)


def test_serve_refuses_a_body_over_the_limit_before_reading_it(tmp_path):
    """Else waitress takes in up to 1 GB, into a file, before the app's 413: a stranger could fill the Pi's card."""
    import socket

    from tests.serve_process import Server

    server = Server(tmp_path)
    server.start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
            connection.sendall(b"POST /api/records HTTP/1.1\r\nHost: table\r\nContent-Type: application/json\r\n"
                               b"Content-Length: 67108864\r\n\r\n{")  # 64 MiB announced, one byte sent
            answer = connection.recv(4096)
    finally:
        server.stop()
    assert answer.startswith(b"HTTP/1.1 413"), answer
