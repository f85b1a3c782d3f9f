"""Fixtures for the web app's tests, as in Flask's tutorial: an app on a fresh database, a host browser."""
from __future__ import annotations

import pytest

from tests.web_helpers import PIN
from web.app import create_app


@pytest.fixture
def database(tmp_path):
    return str(tmp_path / "qwixx.sqlite")


@pytest.fixture
def app(database):
    return create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN})


@pytest.fixture
def table(app):
    return app.extensions["qwixx"]


@pytest.fixture
def host(app):
    """A browser unlocked with the host PIN."""
    client = app.test_client()
    assert client.post("/api/host", json={"pin": PIN}).status_code == 200
    return client
