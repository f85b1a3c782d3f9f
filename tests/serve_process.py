"""`qwixx-table serve` as a real process on a free loopback port, driven over HTTP, so that tests and benchmarks
can kill it (SIGKILL, as a power cut would), restart it and read everything it logged."""
from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Client:
    """One browser or phone: its own cookies (seat and host tokens)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def request(self, method: str, path: str, body=None, timeout: float = 10.0) -> tuple[int, dict]:
        """(status, JSON answer); a refusal is returned, not raised."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data is not None else {})
        try:
            with self._opener.open(request, timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            with error:
                return error.code, json.loads(error.read() or b"null")

    def get(self, path: str) -> dict:
        status, answer = self.request("GET", path)
        assert status == 200, (status, answer)
        return answer

    def post(self, path: str, body=None) -> dict:
        status, answer = self.request("POST", path, {} if body is None else body)
        assert status in (200, 201), (status, answer)
        return answer

    def tokens(self) -> list[str]:
        return [cookie.value for cookie in self.cookies]


class Server:
    """`qwixx-table serve` in its own process with its own database (and settings file, if given)."""

    def __init__(self, folder: Path, source: str = "none", args: tuple[str, ...] = (), env: dict | None = None) -> None:
        self.folder = Path(folder)
        self.database = self.folder / "qwixx.sqlite"
        self.log = self.folder / "serve.log"
        self.source = source
        self.args = tuple(args)
        self.env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.pin: str | None = None

    module = "web.cli"  # what `python -m` runs: the command line, or a test's wrapper round it

    def command(self) -> list[str]:
        return [sys.executable, "-m", self.module, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                "--database", str(self.database), "--source", self.source, *self.args]

    def start(self, timeout: float = 60.0) -> None:
        """Start and wait until it answers; everything it prints is appended to `self.log`."""
        self.pin = None
        with open(self.log, "a", encoding="utf-8") as log:
            self.process = subprocess.Popen(self.command(), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL,
                                            env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"serve exited with {self.process.returncode}:\n{self.output()}")
            self.pin = self.pin or self._printed_pin()
            if self.pin:
                with contextlib.suppress(OSError):
                    self.state()
                    return
            time.sleep(0.05)
        raise AssertionError(f"serve did not answer within {timeout} s:\n{self.output()}")

    def _printed_pin(self) -> str | None:
        for line in self.output().splitlines()[::-1]:
            if "host PIN:" in line:
                return line.split("host PIN:")[1].strip()
        return None

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """As a power cut would: SIGKILL, no chance to tidy up."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> int | None:
        """SIGTERM, as systemd stops it; returns the exit status."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return self.process.returncode

    def client(self) -> Client:
        return Client(self.url)

    def host(self) -> Client:
        """A browser unlocked with the printed host PIN."""
        client = self.client()
        client.post("/api/host", {"pin": self.pin})
        return client

    def state(self) -> dict:
        with urllib.request.urlopen(f"{self.url}/api/state", timeout=5) as response:
            return json.load(response)

    def wait_for(self, condition, what: str, timeout: float = 90.0) -> dict:
        deadline = time.monotonic() + timeout
        state = None
        while time.monotonic() < deadline:
            state = self.state()
            if condition(state):
                return state
            time.sleep(0.1)
        prompt = state["game"] and state["game"]["prompt"] if state else None
        raise AssertionError(f"timed out waiting for {what}; the table says: {prompt}")
