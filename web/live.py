"""Live updates: the latest table state, numbered, pushed to every open page as Server-Sent Events.

Each page gets the newest state, not every intermediate one: a page that was busy for a moment skips
straight to the present, so nothing piles up and no page can fall behind. Each state carries the
counters a page needs to notice what happened (the roll number, the turn), so no announcement is lost.
"""
from __future__ import annotations

import json
import threading
import time
from typing import Iterator


class TooManyStreams(RuntimeError):
    pass


class Broadcaster:
    def __init__(self, max_streams: int = 24, max_per_address: int = 8, keepalive_s: float = 5.0,
                 clock=time.time) -> None:
        # Each open stream holds one server thread: past this many, new streams are refused so that the
        # remaining threads keep answering ordinary requests. One address may hold only some of them, so that
        # one device (a phone with many tabs, or someone on the Wi-Fi opening streams on purpose) cannot take
        # every place and cut the other pages off.
        self.max_streams = max_streams
        self.max_per_address = max_per_address
        self.keepalive_s = keepalive_s
        self.clock = clock
        self._changed = threading.Condition()
        self._version = 0
        self._data = "{}"
        self._streams = 0
        self._by_address: dict[str, int] = {}
        self._closed = False

    @property
    def streams(self) -> int:
        return self._streams

    def publish(self, state: dict) -> int:
        # Keys sorted as Flask sorts an answer's: a page that takes the answer to its own request after the live update
        # sees the same state, and what it keys on the state's parts (the dice being re-rolled) stays put.
        data = json.dumps(state, separators=(",", ":"), sort_keys=True)
        with self._changed:
            self._version += 1
            self._data = data
            self._changed.notify_all()
            return self._version

    def latest(self) -> tuple[int, str]:
        with self._changed:
            return self._version, self._data

    def close(self, wait_s: float = 2.0) -> None:
        """Ends every open stream (server shutdown), waiting up to `wait_s` for them to finish."""
        deadline = time.monotonic() + wait_s
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            while self._streams and time.monotonic() < deadline:
                self._changed.wait(0.05)

    def stream(self, address: str | None = None) -> Iterator[str]:
        """Server-Sent Events for a page at `address` (None: not held to one address's share): the current state at
        once, then each newer one, and an `alive` event every `keepalive_s` (and first of all) with the server's clock
        (`now`), by which a page counts a timer down (the state it is sent may have been published long before).
        The server notices a page that went away when a write fails (waitress, the second or third after), and frees
        its place; the page notices a stream that went silent (a table that lost power sends nothing, not even a
        close) and opens a new one."""
        with self._changed:
            if self._streams >= self.max_streams:
                raise TooManyStreams(f"{self._streams} pages are already connected")
            if address is not None and self._by_address.get(address, 0) >= self.max_per_address:
                raise TooManyStreams(f"this device already has {self.max_per_address} pages connected")
            self._streams += 1
            self._by_address[address] = self._by_address.get(address, 0) + 1
        return _Stream(self._events(), lambda: self._release(address))

    def _release(self, address: str | None) -> None:
        with self._changed:
            self._streams -= 1
            self._by_address[address] -= 1
            if not self._by_address[address]:
                del self._by_address[address]
            self._changed.notify_all()

    def _events(self) -> Iterator[str]:
        yield "retry: 1000\n\n"
        yield self._alive()
        seen = -1
        while True:
            with self._changed:
                deadline = time.monotonic() + self.keepalive_s
                while self._version == seen and not self._closed:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._changed.wait(remaining)
                if self._closed:
                    return
                fresh = self._version != seen
                seen, data = self._version, self._data
            yield f"id: {seen}\nevent: state\ndata: {data}\n\n" if fresh else self._alive()

    def _alive(self) -> str:
        return f"event: alive\ndata: {{\"now\": {self.clock():.3f}}}\n\n"


class _Stream:
    """The events as a WSGI body: the server calls `close()` when the page goes away (even before the first
    event), which gives the stream's place back."""

    def __init__(self, events: Iterator[str], release) -> None:
        self._events = events
        self._release = release
        self._open = True

    def __iter__(self):
        return self

    def __next__(self) -> str:
        try:
            return next(self._events)
        except StopIteration:
            self.close()
            raise

    def close(self) -> None:
        if self._open:
            self._open = False
            self._events.close()
            self._release()
