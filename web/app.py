"""The Flask application: `create_app(test_config=None)` as in Flask's tutorial.

The database lives in the instance folder. The table (the game in progress, its seats and live updates)
is made once per app and kept in `app.extensions["qwixx"]`; the camera loop is started by `serve`, so tests
and tools get an app without a camera.
"""
from __future__ import annotations

import logging
import os

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from referee import RuleError
from web.calibrating import Calibrating
from web.settings import Settings
from web.store import StorageError, Store
from web.table import Table
from web.validate import ApiError

log = logging.getLogger(__name__)


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "qwixx.sqlite"),
        HOST_PIN=None,  # None: made once, kept in the database, printed by `serve`
        MAX_CONTENT_LENGTH=256 * 1024,  # the largest request is an imported game record
        MAX_STREAMS=24,  # live pages at once; `serve` sizes its thread pool from this
        SPEECH=True,  # the table screen speaks unless switched off there (settings key `speech`)
        TIMER=0,  # the decision timer the setup page proposes (settings key `timer`)
        CALIBRATION_FILE=None,  # where calibrating saves (settings key `calibration`); None: calibration.default_path()
        SETTINGS=Settings(),  # what `serve` runs with, shown to the host on the settings page
        DATABASE_ALONE=False,  # `serve`: refuse a games file another table serves from (Store's `alone`)
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.update(test_config)
    os.makedirs(app.instance_path, exist_ok=True)

    store = Store(app.config["DATABASE"], alone=app.config["DATABASE_ALONE"])
    if store.damaged:
        log.error("%s", store.damaged)
    app.extensions["qwixx"] = Table(store, host_pin=app.config["HOST_PIN"], max_streams=app.config["MAX_STREAMS"])
    app.extensions["qwixx_calibrating"] = Calibrating(app.config["CALIBRATION_FILE"])

    from web import api, pages

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    _register_error_handlers(app)
    return app


def _register_error_handlers(app: Flask) -> None:
    def wants_json() -> bool:
        return request.path.startswith("/api/")

    @app.errorhandler(ApiError)
    def api_error(error: ApiError):
        return jsonify(error=error.code, message=error.message), error.status

    @app.errorhandler(RuleError)
    def rule_error(error: RuleError):
        return jsonify(error="rule", rule=error.code, message=error.message), 409

    @app.errorhandler(StorageError)
    def storage_error(error: StorageError):
        log.error("%s", error)
        return jsonify(error="storage", message=str(error)), 503

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if not wants_json():
            return error
        messages = {
            404: "There is nothing at this address.",
            405: f"{request.method} is not allowed here.",
            413: f"The request is too large (at most {app.config['MAX_CONTENT_LENGTH'] // 1024} KB).",
        }
        message = messages.get(error.code, error.description)
        return jsonify(error=error.name.lower().replace(" ", "-"), message=message), error.code
