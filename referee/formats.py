"""Which code replays which kind of game record: `qwixx-table replay` looks up the record's "format" here.

Each entry names a function `replay_report(data) -> dict` that takes the record's parsed JSON and returns the
report line without "file": {"ok": true, ...results} or {"ok": false, "rule": code, "message": sentence, ...}.
Entries are "module:function" strings, imported when first used, so a format's code loads only when needed.
"""
from __future__ import annotations

import importlib
import json
import sys
from typing import Any

from referee.errors import RuleError

REPLAYERS: dict[str, str] = {
    "qwixx-record/1": "referee.record:replay_report",
    "qwixx-cards-record/1": "referee.cards.record:replay_report",
}


def load_json(text: str) -> Any:
    """Parse a record file's text; `not-a-record` (with where it broke) when it is not JSON, or JSON that Python
    cannot hold. A leading byte-order mark, which some editors write, is skipped."""
    try:
        return json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as error:
        raise RuleError("not-a-record", f"Not JSON: {error.msg} at line {error.lineno}, column {error.colno}.") from None
    except RecursionError:
        raise RuleError("not-a-record", "Not a record: its JSON is nested too deeply to read.") from None
    except ValueError:  # the only other one json raises: an integer longer than Python converts
        raise RuleError("not-a-record", f"Not a record: it holds a number of more than "
                                        f"{sys.get_int_max_str_digits()} digits.") from None


def replay_report(data: Any) -> dict[str, Any]:
    """The replay report for any known record format; `not-a-record` when the data names none."""
    if not isinstance(data, dict) or not isinstance(data.get("format"), str):
        return {"ok": False, "rule": "not-a-record",
                "message": "A record is a JSON object whose \"format\" names its kind, such as \"qwixx-record/1\"."}
    target = REPLAYERS.get(data["format"])
    if target is None:
        return {"ok": False, "rule": "not-a-record",
                "message": f"Unknown record format {data['format']!r}; known formats: {', '.join(REPLAYERS)}."}
    module_name, function_name = target.split(":")
    return getattr(importlib.import_module(module_name), function_name)(data)
