"""Helpers for the web app's tests; the fixtures are in conftest.py."""
from __future__ import annotations

import contextlib
import threading
import time

from waitress import create_server

PIN = "246810"
ROLL = {"white": [2, 4], "red": 5, "yellow": 1, "green": 3, "blue": 6}  # white sum 6


def start_game(host, players=("Ann", "Bob", "Cy"), **options):
    response = host.post("/api/games", json={"players": list(players), "starter": 0, **options})
    assert response.status_code == 201, response.json
    return response.json


def phone(app, person: int):
    """A phone that joined as `person`."""
    client = app.test_client()
    response = client.post("/api/join", json={"person": person})
    assert response.status_code == 200, response.json
    return client


def public_state(table) -> dict:
    """The state without the clock, to compare before and after."""
    state = table.state()
    state.pop("now")
    return state


@contextlib.contextmanager
def served(app):
    """The app under waitress, as `serve` runs it, in a thread; yields its address."""
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        app.extensions["qwixx"].live.close()
        # Closed from the server's own loop: closing its sockets from here would break the select it sits in.
        server.trigger.pull_trigger(server.close)
        thread.join(10)


def wait_until(condition, what: str, timeout: float = 15.0) -> None:
    """Wait for `condition()` to hold, polling; AssertionError naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
