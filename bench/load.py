"""A full table under load: 12 live connections (10 phones, 2 table screens) through 200 rolls of simulated games
against a real `qwixx-table serve` on loopback.

Ten people play partners (five pairs, one sheet per pair), each on a phone with its own seat token and its own
live stream; two table screens watch. The host types each roll; the phones decide the white sum at the same
time, then the roller's phone decides the colour action; a finished game is followed by "play again".
Every stream is read as a page reads it. Reported:
- updates lost: roll announcements that never reached a connection (each roll's news item, on each of the 12);
- the time from sending a roll to every connection having it (median and 99th percentile over the rolls);
- the server's resident memory (RSS) once everyone is connected, after 20 rolls and at the end.

    nice -n 10 python bench/load.py [--rolls 200] [--seed 1] [--max-seconds 600]
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.serve_process import Client, Server  # noqa: E402

PEOPLE = ["Ann", "Bob", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo"]
TABLE_SCREENS = 2
WARM_UP_ROLLS = 20  # first use of every code path, caches filling: growth after this would be a leak


class Stream:
    """One live connection read as a page reads it: the time each roll announcement (news id) first arrived."""

    def __init__(self, port: int, name: str, cookies: str = "") -> None:
        self.name = name
        self.seen: dict[tuple[int, int], float] = {}  # (game id, news id of a roll) -> when it arrived
        self.states = 0
        self.error: str | None = None
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self._connection.request("GET", "/api/events", headers={"Cookie": cookies} if cookies else {})
        self._response = self._connection.getresponse()
        if self._response.status != 200:
            raise RuntimeError(f"{name}: the live stream was refused ({self._response.status})")
        self._thread = threading.Thread(target=self._read, name=name, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            kind = None
            for raw in self._response.fp:
                if raw.startswith(b"event: "):
                    kind = raw[len(b"event: "):].strip()
                if kind != b"state" or not raw.startswith(b"data: "):
                    continue  # the table's `alive` every few seconds is not a state
                arrived = time.monotonic()
                state = json.loads(raw[6:])
                self.states += 1
                game = state.get("game")
                if game:
                    for item in game["news"]:
                        if item["kind"] == "roll":
                            self.seen.setdefault((game["id"], item["id"]), arrived)
        except (OSError, ValueError) as error:
            self.error = str(error)

    def close(self) -> None:
        self._connection.close()


def rss_mb(pid: int) -> tuple[float, float]:
    """(resident now, highest so far) in MB, from /proc."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def cookie_header(client: Client) -> str:
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in client.cookies)


def random_roll(rng: random.Random, closed: list[str]) -> dict:
    return {"white": [rng.randint(1, 6), rng.randint(1, 6)],
            **{colour: rng.randint(1, 6) for colour in ("red", "yellow", "green", "blue") if colour not in closed}}


def decision(rng: random.Random, options: list[dict]) -> dict:
    """What a player taps: usually the cheapest mark, sometimes another option, sometimes a pass."""
    marks = [option["action"] for option in options if option["action"]["action"] == "mark"]
    choice = marks[0] if marks and rng.random() < 0.6 else rng.choice([option["action"] for option in options])
    return {key: value for key, value in choice.items() if key != "player"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=600.0, help="stop here even if the rolls are not done")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    server = Server(Path(tempfile.mkdtemp(prefix="qwixx-load-")))
    server.start()
    streams: list[Stream] = []
    try:
        host = server.host()
        pairs = [PEOPLE[index:index + 2] for index in range(0, len(PEOPLE), 2)]
        host.post("/api/games", {"players": PEOPLE, "variant": "partners", "starter": 0})
        phones = []
        for person in range(len(PEOPLE)):
            phone = server.client()
            phone.post("/api/join", {"person": person})
            phones.append(phone)
        for index, phone in enumerate(phones):
            streams.append(Stream(server.port, f"phone {PEOPLE[index]}", cookie_header(phone)))
        streams += [Stream(server.port, f"table screen {n + 1}") for n in range(TABLE_SCREENS)]
        time.sleep(0.5)
        start_rss, _ = rss_mb(server.process.pid)

        sent: dict[tuple[int, int], float] = {}  # (game id, roll news id) -> when the roll was sent
        games = 1
        began = time.monotonic()
        pool = ThreadPoolExecutor(max_workers=len(pairs))
        state = server.state()
        warm_rss = None
        while len(sent) < args.rolls and time.monotonic() - began < args.max_seconds:
            if warm_rss is None and len(sent) == WARM_UP_ROLLS:
                warm_rss, _ = rss_mb(server.process.pid)
            game = state["game"]
            if game["over"]:
                state = host.post("/api/games/again")
                games += 1
                continue
            if game["phase"] == "roll":
                sent_at = time.monotonic()
                state = host.post("/api/dice", random_roll(rng, game["closed"]))
                news = [item for item in state["game"]["news"] if item["kind"] == "roll"]
                sent[(state["game"]["id"], news[-1]["id"])] = sent_at
                continue
            waiting = game["waiting_for"]
            # The phone that plays each seat: the first person of its pair (seats move round after each game).
            seat_phone = {}
            for person, entry in enumerate(game["people"]):
                for seat in entry["seats"]:
                    seat_phone.setdefault(seat, phones[person])
            # Everyone decides the white sum at once; the roller's colour action is one decision.
            choices = [(seat, decision(rng, game["options"][seat])) for seat in waiting]
            answers = list(pool.map(lambda pair: seat_phone[pair[0]].request(
                "POST", "/api/act", {"seat": pair[0], **pair[1]}), choices))
            refused = [answer for status, answer in answers if status != 200]
            if refused:
                raise RuntimeError(f"a legal decision was refused: {refused[0]}")
            state = server.state()
        played_s = time.monotonic() - began
        time.sleep(1.0)  # let the last states arrive
        end_rss, peak_rss = rss_mb(server.process.pid)
        pool.shutdown()
    finally:
        for stream in streams:
            stream.close()
        server.stop()

    latencies, lost = [], 0
    for key, sent_at in sent.items():
        arrivals = [stream.seen.get(key) for stream in streams]
        lost += sum(arrival is None for arrival in arrivals)
        if all(arrival is not None for arrival in arrivals):
            latencies.append((max(arrivals) - sent_at) * 1000)
    latencies.sort()
    broken = [f"{stream.name}: {stream.error}" for stream in streams if stream.error]
    p99 = latencies[min(len(latencies) - 1, round(0.99 * (len(latencies) - 1)))] if latencies else float("nan")
    print(f"{len(streams)} live connections ({len(PEOPLE)} phones, {TABLE_SCREENS} table screens), {len(sent)} rolls "
          f"over {games} games in {played_s:.0f} s ({sum(stream.states for stream in streams)} states received)")
    print(f"updates lost: {lost} of {len(sent) * len(streams)} (roll announcements x connections)"
          + (f"; streams broken: {broken}" if broken else ""))
    if latencies:
        print(f"roll sent -> every connection has it: median {statistics.median(latencies):.1f} ms, "
              f"99th percentile {p99:.1f} ms, slowest {latencies[-1]:.1f} ms")
    print(f"server memory (RSS): {start_rss:.1f} MB with everyone connected, {warm_rss or float('nan'):.1f} MB "
          f"after {WARM_UP_ROLLS} rolls, {end_rss:.1f} MB at the end ({end_rss - start_rss:+.1f} MB since connected, "
          f"{end_rss - (warm_rss or float('nan')):+.1f} MB since roll {WARM_UP_ROLLS}), peak {peak_rss:.1f} MB")
    return 0 if lost == 0 and not broken and len(sent) >= args.rolls else 1


if __name__ == "__main__":
    sys.exit(main())
