"""The pages: each renders, and everything they load is served by the app itself (no internet at the table)."""
from __future__ import annotations

import re

import pytest

PAGES = ["/", "/table", "/setup", "/rules", "/games"]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_loads_only_what_the_app_serves(app, page):
    client = app.test_client()
    response = client.get(page)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"#]+)"', html)
    assert assets and all(asset.startswith("/") for asset in assets), assets
    for asset in assets:
        with client.get(asset) as loaded:
            assert loaded.status_code == 200, asset
    assert 'href="/rules"' in html  # the rules are one tap away from every screen


def test_the_qr_code_holds_the_join_address(app, table):
    table.set_address("http://192.168.1.20:8000/")
    svg = app.test_client().get("/qr.svg").get_data(as_text=True)
    assert svg.startswith("<svg") and "Join at http://192.168.1.20:8000/" in svg


def test_the_pin_is_shown_on_the_devices_own_screen_but_not_to_a_phone(app, table):
    assert table.pin in app.test_client().get("/table").get_data(as_text=True)
    phone_view = app.test_client().get("/table", environ_base={"REMOTE_ADDR": "192.168.1.31"})
    assert table.pin not in phone_view.get_data(as_text=True)
