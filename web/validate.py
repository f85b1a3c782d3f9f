"""Checks for request bodies: types, ranges, sizes and unknown fields, each refusal a sentence.

A check is a function that takes the value and returns it (possibly normalised) or raises `BadRequest`.
`fields(body, required, optional)` checks a JSON object against named checks and refuses any other key.
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable

Check = Callable[[Any, str], Any]


class ApiError(Exception):
    """A refused request: HTTP status, a short stable code and a sentence for the person."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class BadRequest(ApiError):
    def __init__(self, message: str) -> None:
        super().__init__(400, "bad-request", message)


def integer(low: int, high: int) -> Check:
    def check(value, name):
        # bool is an int in Python, but `true` is not a number to anyone sending JSON.
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadRequest(f"{name} must be a whole number.")
        if not low <= value <= high:
            raise BadRequest(f"{name} must be between {low} and {high}.")
        return value
    return check


def number(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadRequest(f"{name} must be a number.")
    return float(value)


def boolean(value, name):
    if not isinstance(value, bool):
        raise BadRequest(f"{name} must be true or false.")
    return value


def text(max_length: int, pattern: str | None = None, min_length: int = 1) -> Check:
    compiled = re.compile(pattern) if pattern else None

    def check(value, name):
        if not isinstance(value, str):
            raise BadRequest(f"{name} must be text.")
        value = value.strip()
        if not min_length <= len(value) <= max_length:
            raise BadRequest(f"{name} must be {min_length} to {max_length} characters long.")
        if compiled and not compiled.fullmatch(value):
            raise BadRequest(f"{name} has characters that are not allowed.")
        return value
    return check


# A player's name: printable, no markup characters (set up on a page or found in a record loaded).
PLAYER_NAME = text(24, r"[^\x00-\x1f<>&\"']+")


def one_of(*choices: Any) -> Check:
    def check(value, name):
        if isinstance(value, bool) or value not in choices:
            raise BadRequest(f"{name} must be one of: {', '.join(map(str, choices))}.")
        return value
    return check


def list_of(item: Check, min_items: int, max_items: int) -> Check:
    def check(value, name):
        if not isinstance(value, list):
            raise BadRequest(f"{name} must be a list.")
        if not min_items <= len(value) <= max_items:
            raise BadRequest(f"{name} must have {min_items} to {max_items} entries.")
        return [item(entry, f"{name}[{index}]") for index, entry in enumerate(value)]
    return check


def mapping(checks: dict[str, Check], min_items: int = 0) -> Check:
    """A JSON object of some of these named fields (at least `min_items`), each checked."""
    def check(value, name):
        checked = fields(value, {}, checks, name)
        if len(checked) < min_items:
            raise BadRequest(f"{name} must name at least {min_items} of: {', '.join(checks)}.")
        return checked
    return check


def optional(check: Check) -> Check:
    """The value may also be null."""
    def nullable(value, name):
        return None if value is None else check(value, name)
    return nullable


def fields(body: Any, required: dict[str, Check], optional_fields: dict[str, Check] | None = None,
           name: str = "The request") -> dict:
    optional_fields = optional_fields or {}
    if not isinstance(body, dict):
        raise BadRequest(f"{name} must be a JSON object.")
    unknown = sorted(set(body) - set(required) - set(optional_fields))
    if unknown:
        raise BadRequest(f"{name} has unknown fields: {', '.join(map(str, unknown))[:200]}.")
    missing = [key for key in required if key not in body]
    if missing:
        raise BadRequest(f"{name} is missing: {', '.join(missing)}.")
    checked = {key: check(body[key], key) for key, check in required.items()}
    checked.update({key: check(body[key], key) for key, check in optional_fields.items() if key in body})
    return checked
