"""The host's settings page: the settings the table runs with and the file they come from, read-only; nobody else
sees them, and the host PIN is never shown on it."""
from __future__ import annotations

import html

from tests.web_helpers import PIN
from web import settings as settings_file
from web.app import create_app


def test_the_host_reads_the_settings_in_effect_and_their_file(tmp_path, database):
    path = tmp_path / "settings.toml"
    path.write_text('port = 8123\nhost_pin = "135790"\ncalibration = "camera/calibration.json"\n', encoding="utf-8")
    app = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": PIN, "SETTINGS": settings_file.load(path)})
    host = app.test_client()
    assert host.post("/api/host", json={"pin": PIN}).status_code == 200
    page = html.unescape(host.get("/settings").get_data(as_text=True))
    assert f"From <code id=\"settings-file\">{path.resolve()}</code>" in page
    rows = {key["key"]: key for key in settings_file.in_effect(settings_file.load(path))}
    assert rows["port"]["value"] == "8123" and rows["calibration"]["value"] == '"camera/calibration.json"'
    assert '<td><code>8123</code></td><td><code>8000</code></td>' in page
    assert "135790" not in page and rows["host_pin"]["value"] == "(hidden)"
    assert page.count('class="changed"') == 3

    stranger = app.test_client().get("/settings").get_data(as_text=True)
    assert "settings-table" not in stranger and "8123" not in stranger and str(path) not in stranger
    assert "unlock host controls" in stranger


def test_without_a_settings_file_the_host_reads_the_defaults(host):
    page = host.get("/settings").get_data(as_text=True)
    assert "The defaults: there is no settings file" in page
    assert 'class="changed"' not in page and 'id="settings-table"' in page
