"""Helpers for the web app's tests; the fixtures are in conftest.py."""
from __future__ import annotations

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
