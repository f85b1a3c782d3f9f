"""Helpers for the web app's tests; the fixtures are in conftest.py."""
from __future__ import annotations

import contextlib
import errno
import threading
import time

from waitress import create_server, wasyncore

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
    """The state without the count of states published, to compare what it says before and after."""
    state = table.state()
    state.pop("version")
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
        stop_serving(server, thread)


def stop_serving(server, thread: threading.Thread) -> None:
    """Stops a waitress server running in `thread`, every connection it accepted included.

    server.close() alone closes only the listening socket and the trigger (a pipe): a browser's kept-alive
    connection is then still answered by the old app, and the old request threads write to the trigger's
    closed file descriptor, by then perhaps another server's. So: close the connections (from the server's
    own loop: closing sockets from here would break the select it sits in), let the request threads end,
    then close the trigger, which empties the loop's map and ends it."""
    connections_closed = threading.Event()

    def close_connections():
        for dispatcher in list(server._map.values()):
            if dispatcher is server:
                wasyncore.dispatcher.close(server)  # the listening socket, not the trigger yet
            elif dispatcher is not server.trigger:
                dispatcher.handle_close()
        connections_closed.set()

    server.trigger.pull_trigger(close_connections)
    connections_closed.wait(10)
    server.task_dispatcher.shutdown()
    try:
        server.trigger.pull_trigger(server.trigger.close)
    except OSError as error:
        if error.errno != errno.EBADF:
            raise
        # Once, in a clean-clone CI run, the trigger's pipe was already closed here (EBADF; the cause was not
        # found). The loop cannot be woken then, and closing the trigger again could close a descriptor
        # that is by now another's: its daemon thread is left to end with the process. The test's own
        # checks have passed by now.
        return
    thread.join(10)


def wait_until(condition, what: str, timeout: float = 15.0) -> None:
    """Wait for `condition()` to hold, polling; AssertionError naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
