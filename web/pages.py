"""The pages: join (the address phones open), setup, table screen, player screen, calibration, settings, rules,
finished games."""
from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, abort, current_app, render_template, request

from web import auth
from web.settings import default_path, in_effect

bp = Blueprint("pages", __name__)


def table():
    return current_app.extensions["qwixx"]


@bp.get("/")
def index():
    """The address in the QR code: the player screen (a phone without a seat picks a name there first)."""
    return render_template("play.html")


@bp.get("/setup")
def setup():
    return render_template("setup.html", timer=current_app.config["TIMER"])


@bp.get("/table")
def table_screen():
    # The PIN goes to the device's own screen only (whose page hides it once a host is unlocked), never to a phone or
    # a tablet: every player sees a table screen. A host browser asks for it (/api/host/pin) to approve a move.
    return render_template("table.html", pin=table().pin if auth.request_is_local() else None,
                           speech=current_app.config["SPEECH"])


@bp.get("/calibrate")
def calibrate():
    """The host calibrates the camera (the steps ask for the host PIN)."""
    return render_template("calibrate.html")


@bp.get("/settings")
def settings_page():
    """The settings the table runs with, for the host to read; they are changed in the settings file."""
    settings = current_app.config["SETTINGS"]
    return render_template("settings.html", keys=in_effect(settings) if auth.is_host() else None,
                           file=settings.path, default_file=default_path(), database=settings.database_path())


@bp.get("/rules")
def rules():
    return render_template("rules.html")


@bp.get("/games")
def games():
    return render_template("games.html")


@bp.get("/games/<int:game_id>")
def replay(game_id: int):
    if table().store.game(game_id) is None:
        abort(404)
    return render_template("replay.html", game_id=game_id)


@bp.get("/qr.svg")
def qr_code():
    """The join address as a QR code, drawn here (no internet at the table)."""
    address = table().address or request.host_url
    buffer = io.BytesIO()
    segno.make(address, error="m").save(buffer, kind="svg", scale=8, border=2, dark="#000", light="#fff",
                                        xmldecl=False, svgns=True, title=f"Join at {address}")
    return Response(buffer.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})
