"""End to end in a real headless Chromium (Debian's, driven by Playwright): `qwixx-table serve` as a real
process, a table screen and three phones in separate browser contexts, a whole game from the setup page to
the final scores, with the server killed and restarted in the middle. Screenshots of every page land in
out/browser-failures/ when something fails."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.test_web_camera import settled
from tests.web_helpers import ROLL, served, start_game
from web.camera_loop import event_json

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
FAILURES = ROOT / "out" / "browser-failures"
PLAYERS = ("Ann", "Bob", "Cy")

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)", allow_module_level=True)


class Server:
    """`qwixx-table serve` in its own process, on a fixed port and database, so it can be killed and restarted."""

    def __init__(self, folder: Path, source: str) -> None:
        self.database = folder / "qwixx.sqlite"
        self.source = source
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.pin: str | None = None
        self.output: list[str] = []  # everything the server printed

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "web.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--database", str(self.database), "--source", self.source],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 60
        for line in self.process.stdout:
            self.output.append(line)
            if "host PIN:" in line:
                self.pin = line.split("host PIN:")[1].strip()
                break
            if time.monotonic() > deadline:
                break
        assert self.pin, "serve did not start"
        os.set_blocking(self.process.stdout.fileno(), False)  # keep reading optional, never block on it
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                self.state()
                return
            time.sleep(0.1)
        raise AssertionError("serve did not answer")

    def kill(self) -> None:
        """As a power cut would: SIGKILL, no chance to tidy up."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self._finish_output()

    def _finish_output(self) -> None:
        self.output.append(self.process.stdout.read() or "")
        self.process.stdout.close()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self._finish_output()

    def state(self) -> dict:
        with urllib.request.urlopen(f"{self.url}/api/state", timeout=5) as response:
            return json.load(response)

    def wait_for(self, condition, what: str, timeout: float = 90.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if condition(state):
                return state
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; the table says: {state['game'] and state['game']['prompt']}")


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@contextlib.contextmanager
def screenshots_on_failure(pages: dict, name: str):
    try:
        yield
    except BaseException:
        folder = FAILURES / name
        folder.mkdir(parents=True, exist_ok=True)
        for label, page in pages.items():
            with contextlib.suppress(Exception):
                page.screenshot(path=str(folder / f"{label}.png"), full_page=True)
        raise


def unlock_host(page, pin: str) -> None:
    page.fill("#host-pin", pin)
    page.click("#host-form button[type=submit]")


def set_up_game(page, server: Server) -> None:
    """The setup page, as the host fills it in: three players, Ann first, no timer."""
    page.goto(f"{server.url}/setup")
    for index, name in enumerate(PLAYERS):
        page.fill(f"#player-{index}", name)
    page.select_option("#starter", "0")
    page.click("#setup button[type=submit]")
    unlock_host(page, server.pin)  # the first host action asks for the PIN
    page.wait_for_url(f"{server.url}/table")


def join(browser, server: Server, person: int):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server.url + "/")
    page.click(f"#join-{person}")
    page.wait_for_selector(".sheet")
    return page


def decide(page, server: Server, state: dict, seat: int) -> None:
    """One player's choice through their phone: the roller passes (and so takes penalties, which ends the
    game in a few rounds); the others mark a highlighted box that skips at most one, else pass."""
    game = state["game"]
    cheap = [option["action"] for option in game["options"][seat]
             if option["action"]["action"] == "mark" and option["skipped"] <= 1]
    if seat != game["roller"] and game["phase"] == "white" and cheap:
        box = f"#box-{cheap[0]['colour']}-{cheap[0]['number']}"
        page.click(box)
        page.click("#confirm")
    else:
        page.click("#pass")
    server.wait_for(lambda now: seat not in (now["game"]["waiting_for"] or []) or now["game"]["phase"] != game["phase"]
                    or now["game"]["turn"] != game["turn"], f"seat {seat}'s choice")


def play_until(server: Server, phones: list, done, type_dice=None) -> dict:
    """Play turns through the phones until `done(state)`; the dice come from the camera or from `type_dice`."""
    while True:
        state = server.state()
        game = state["game"]
        if done(state):
            return state
        if game["phase"] == "roll":
            if type_dice is not None:
                type_dice(game)
            server.wait_for(lambda now: now["game"]["phase"] != "roll", "a roll", timeout=120)
        elif game["waiting_for"]:
            seat = game["waiting_for"][0]
            decide(phones[seat], server, state, seat)


def test_a_three_player_game_with_typed_dice_survives_a_restart(browser, tmp_path):
    server = Server(tmp_path, source="none")
    server.start()
    tv = browser.new_context(viewport={"width": 1280, "height": 800})
    table = tv.new_page()
    pages = {"table": table}
    try:
        with screenshots_on_failure(pages, "typed-dice"):
            set_up_game(table, server)
            phones = [join(browser, server, person) for person in range(3)]
            pages.update({f"phone-{name}": page for name, page in zip(PLAYERS, phones)})
            rolls = iter([[3, 4], [1, 1], [6, 6], [2, 5], [3, 3], [4, 6], [5, 5], [1, 2], [2, 2], [6, 3], [4, 4],
                          [1, 6], [5, 2], [3, 5], [2, 6], [4, 1]] * 3)

            def type_dice(game):
                white = next(rolls)
                table.click(f"button[aria-label='White 1 {white[0]}']")
                table.click(f"button[aria-label='White 2 {white[1]}']")
                for colour in ("Red", "Yellow", "Green", "Blue"):
                    if colour.lower() not in game["closed"]:
                        table.click(f"button[aria-label='{colour} {white[0]}']")
                table.click("#enter-dice")

            state = play_until(server, phones, lambda s: s["game"]["turn"] >= 4 and s["game"]["phase"] == "white"
                               and len(s["game"]["waiting_for"]) < 3, type_dice)
            server.kill()  # in the middle of the white-sum action, with decisions held
            server.start()
            assert server.state()["game"] == state["game"]  # the game, not the process's boot id, clock or camera
            for page in phones + [table]:  # every page reconnects by itself
                page.wait_for_selector("#connection", state="hidden", timeout=15000)
            final = play_until(server, phones, lambda s: s["game"]["over"] is not None, type_dice)
            game = final["game"]
            assert game["over"]["end"] == "four-penalties"
            winners = [game["seats"][seat] for seat in game["over"]["winners"]]
            for page in phones:
                page.wait_for_selector(".over")
                assert game["over"]["text"] in page.inner_text(".over")
            table.wait_for_selector("#over >> text=Game over")
            assert all(name in table.inner_text("#scores") for name in PLAYERS)
            assert winners and all(winner in game["over"]["text"] for winner in winners)
        server.stop()
        tokens = [cookie["value"] for page in phones + [table] for cookie in page.context.cookies()]
        assert len(tokens) == 4 and not any(token in "".join(server.output) for token in tokens)  # never logged
    finally:
        server.stop()
        tv.close()


# ----- single pages, on an app served in this process ---------------------------------------------------------

@pytest.fixture
def address(app):
    with served(app) as url:
        yield url


def test_a_phone_played_by_keyboard_hears_the_referee(browser, app, host, table, address):
    start_game(host)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    with screenshots_on_failure({"phone": page}, "keyboard"):
        page.goto(address + "/")
        page.focus("#join-1")
        page.keyboard.press("Enter")
        page.wait_for_selector(".sheet")
        host.post("/api/dice", json=ROLL)  # white 2 + 4
        page.wait_for_selector("#box-red-6.legal")
        assert "Bob rolled" not in page.inner_text("#announcer")
        assert "Ann rolled white 2 and 4, sum 6" in page.inner_text("#announcer")  # read out by screen readers
        page.focus("#box-red-3")  # left of nothing, but not the white sum: the referee says why
        page.keyboard.press("Enter")
        page.wait_for_selector("#alert:not([hidden])")
        assert page.inner_text("#alert") == "The white dice show 2 + 4 = 6, so this action can mark only a 6, not 3."
        page.focus("#box-red-6")
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "confirm"
        page.keyboard.press("Enter")
        page.wait_for_selector("#change")
        assert table.session.game.pending["Bob"].number == 6
        assert "You marked red 6" in page.inner_text(".status")
    context.close()


def test_the_table_screen_outlines_and_names_each_die(browser, app, table, address):
    table.camera_size(1280, 720)
    table.camera_state("watching", "Watching the table.")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    with screenshots_on_failure({"table": page}, "camera-view"):
        page.goto(address + "/table")
        page.wait_for_selector("#camera-message >> text=Watching the table.")
        table.camera_event(event_json(settled()))
        page.wait_for_function("document.querySelectorAll('#overlay text').length === 6")
        labels = page.eval_on_selector_all("#overlay text", "nodes => nodes.map(node => node.textContent)")
        assert labels == ["White 2", "White 4", "Red 5", "Yellow 1", "Green 3", "Blue 6"]
        assert page.inner_text("#white-sum") == "6"
        assert page.eval_on_selector_all("#overlay polygon", "nodes => nodes.length") == 12  # dark ring under colour
    page.close()
