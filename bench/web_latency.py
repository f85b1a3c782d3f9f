"""How long from a settled roll to its announcement on a connected page, and how heavy the pages are.

A real server (waitress, as `serve` runs it) with a table screen and a phone open in headless Chromium. For
each roll of a whole game the roll tracker's `roll-settled` event is handed to the table exactly as the camera
loop does; the time until each page has announced the roll (its aria-live region, and speech on the table
screen) is measured with the same clock. The players' decisions go through the HTTP API.

    nice -n 10 python bench/web_latency.py [--games 1] [--seed 1]

Prints the median and the slowest latency over the rolls, and each page's weight (HTML, CSS, JavaScript,
images: everything the page loads, uncompressed).
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402
from waitress import create_server  # noqa: E402

from referee import COLOURS, Roll  # noqa: E402
from vision import DieReading  # noqa: E402
from vision.tracker import RollEvent  # noqa: E402
from web.app import create_app  # noqa: E402
from web.camera_loop import event_json  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PIN = "135790"


def settled_event(roll: Roll) -> RollEvent:
    dice = [("white", roll.white[0]), ("white", roll.white[1])] + [(c.value, roll.die(c)) for c in roll.colours]
    readings = tuple(DieReading(colour, value, 0.97, (200.0 + 90 * index, 300.0),
                                ((185.0 + 90 * index, 285.0), (215.0 + 90 * index, 285.0),
                                 (215.0 + 90 * index, 315.0), (185.0 + 90 * index, 315.0)))
                     for index, (colour, value) in enumerate(dice))
    return RollEvent("roll-settled", time.monotonic(), readings)


def page_weight(client, path: str) -> int:
    html = client.get(path).get_data()
    assets = set(re.findall(rb'(?:src|href)="(/[^"#?]+)"', html))
    return len(html) + sum(len(client.get(asset.decode()).get_data()) for asset in assets)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    folder = tempfile.mkdtemp()
    app = create_app({"DATABASE": f"{folder}/bench.sqlite", "HOST_PIN": PIN})
    table = app.extensions["qwixx"]
    server = create_server(app, host="127.0.0.1", port=0, threads=app.config["MAX_STREAMS"] + 8)
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{server.effective_port}"
    host = app.test_client()
    host.post("/api/host", json={"pin": PIN})

    latencies = {"table screen": [], "phone": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(args.games):
            host.post("/api/games", json={"players": ["Ann", "Bob", "Cy"], "starter": 0})
            pages = {"table screen": browser.new_page(), "phone": browser.new_page()}
            pages["table screen"].goto(f"{url}/table")
            pages["phone"].goto(f"{url}/")
            for page in pages.values():
                page.wait_for_function("document.querySelector('#connection').hidden")
            while not table.session.over:
                game = table.session.game
                roll = Roll.random(rng, tuple(c for c in COLOURS if c not in game.closed))
                event = event_json(settled_event(roll))
                counts = {name: page.evaluate("Qwixx.heard.length") for name, page in pages.items()}
                settled_at = time.time()
                table.camera_event(event)  # what the camera loop does the moment the tracker says roll-settled
                for name, page in pages.items():
                    page.wait_for_function(f"Qwixx.heard.length > {counts[name]}")
                    heard_at = page.evaluate(f"Qwixx.heard[{counts[name]}].at")
                    latencies[name].append(heard_at - settled_at * 1000)
                while table.session.game.waiting_for:
                    game = table.session.game
                    seat = game.waiting_for[0]
                    option = rng.choice(game.legal_options(seat)).action.to_json()
                    option.pop("player")
                    host.post("/api/act", json={"seat": table.session.seat_index(seat), **option})
            for page in pages.values():
                page.close()
        browser.close()
    server.trigger.pull_trigger(server.close)  # closed from its own loop

    print(f"rolls measured: {len(latencies['phone'])} over {args.games} game(s)")
    for name, values in latencies.items():
        print(f"roll-settled -> announced on the {name}: median {statistics.median(values):.1f} ms, "
              f"90th percentile {statistics.quantiles(values, n=10)[-1]:.1f} ms, slowest {max(values):.1f} ms")
    client = app.test_client()
    for name, path in (("table screen", "/table"), ("phone", "/"), ("setup", "/setup")):
        print(f"page weight, {name} ({path}): {page_weight(client, path) / 1024:.1f} KiB uncompressed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
