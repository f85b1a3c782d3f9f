"""Live updates: Server-Sent Events really stream through the production server (waitress), unbuffered."""
from __future__ import annotations

import http.client
import json

import pytest

from tests.web_helpers import ROLL, served, start_game
from web.live import Broadcaster, TooManyStreams


def read_event(response) -> dict:
    """The next `state` event's data from an open SSE response (`alive` events skipped)."""
    kind = data = None
    while True:
        line = response.fp.readline().decode()
        if line.startswith("event: "):
            kind = line[len("event: "):].strip()
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "\r\n" or line == "\n":
            if kind == "state" and data is not None:
                return data
            kind = data = None


def test_events_stream_through_waitress_as_they_happen(app, host, table):
    start_game(host)
    with served(app) as address:
        connection = http.client.HTTPConnection(address.split("//")[1], timeout=10)
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        first = read_event(response)
        assert first["game"]["phase"] == "roll"
        host.post("/api/dice", json=ROLL)  # while the stream stays open, the next state must arrive by itself
        assert read_event(response)["game"]["white_sum"] == 6
        connection.close()


def test_a_page_that_fell_behind_gets_the_latest_state_not_a_backlog():
    live = Broadcaster(keepalive_s=0.05, clock=lambda: 1234.5)
    events = live.stream()
    assert next(events) == "retry: 1000\n\n"
    assert next(events) == 'event: alive\ndata: {"now": 1234.500}\n\n'  # the server's clock, for timers
    for turn in range(5):
        live.publish({"turn": turn})
    assert json.loads(next(events).split("data: ")[1]) == {"turn": 4}
    assert next(events).startswith("event: alive\n")  # the page hears the table is there
    live.close(wait_s=0)
    assert list(events) == []
    assert live.streams == 0


def test_streams_beyond_the_limit_are_refused_so_other_requests_still_get_threads(app):
    live = Broadcaster(max_streams=2)
    first, second = live.stream(), live.stream()
    with pytest.raises(TooManyStreams):
        live.stream()
    first.close()
    live.stream()
    second.close()


def test_one_device_may_hold_only_its_share_of_the_streams():
    """Else one device on the Wi-Fi, opening streams on purpose, would cut every other page off."""
    live = Broadcaster(max_streams=6, max_per_address=2)
    first, second = live.stream("192.168.1.20"), live.stream("192.168.1.20")
    with pytest.raises(TooManyStreams, match="this device"):
        live.stream("192.168.1.20")
    others = [live.stream("192.168.1.21"), live.stream(None), live.stream(None)]
    first.close()
    live.stream("192.168.1.20")
    for stream in (second, *others):
        stream.close()
