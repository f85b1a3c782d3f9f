"""Who may do what: seat tokens for phones, the host PIN and host tokens.

- Joining a seat gives the phone a random token in an HttpOnly cookie; the database keeps only its hash.
  A request acts for a seat only when its token holds that seat.
- Host actions need a host token, given for the host PIN and good for HOST_LOGIN_S or until locked. The PIN is
  printed on the console at start and shown on the device's own display (loopback) while no browser is unlocked as
  host (the page hides it once one is); a host browser shows it on request.
- A phone moves to a person another phone plays, or plays a second person, only with the host's approval: a host
  browser, or the PIN typed for that move alone (which unlocks nothing).
- Wrong PINs are counted per address: after a few, PIN entry pauses for that address, so a stranger's wrong PINs do
  not keep the host out, and one device guesses five PINs a minute (six digits: about 70 days for even odds). A
  device that takes many addresses guesses faster: an owner who fears that sets a longer PIN (host_pin, up to 12).
- Tokens travel only in cookies (never in addresses, so never in logs or browser history).
"""
from __future__ import annotations

import hmac
import secrets
import threading
import time

from flask import current_app, request

from web.validate import ApiError

SEAT_COOKIE = "qwixx_seat"
HOST_COOKIE = "qwixx_host"
COOKIE_AGE_S = 30 * 24 * 3600
# A host login lasts an evening, unless locked sooner: a phone unlocked once (say, to move a player to it) does not
# stay host for good.
HOST_LOGIN_S = 12 * 3600


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


class PinGuard:
    """Counts wrong PINs from each address; after `allowed` in a row from one, refuses its tries for `pause_s`
    seconds. Counted per address so that a stranger typing wrong PINs cannot keep the host out."""

    def __init__(self, pin: str, allowed: int = 5, pause_s: float = 60.0, clock=time.monotonic) -> None:
        self.pin = pin
        self.allowed = allowed
        self.pause_s = pause_s
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, int] = {}
        self._paused_until: dict[str, float] = {}

    def check(self, pin: str, address: str) -> None:
        with self._lock:
            wait = self._paused_until.get(address, 0.0) - self._clock()
            if wait > 0:
                raise ApiError(429, "pin-paused", f"Too many wrong PINs: try again in {int(wait) + 1} seconds.")
            self._paused_until.pop(address, None)
            if hmac.compare_digest(pin.encode(), self.pin.encode()):
                self._wrong.pop(address, None)
                return
            self._wrong[address] = self._wrong.get(address, 0) + 1
            if self._wrong[address] >= self.allowed:
                del self._wrong[address]
                self._paused_until[address] = self._clock() + self.pause_s
            raise ApiError(403, "wrong-pin", "That is not the host PIN. The host finds it on the device's console, and on "
                                             "its table screen while no browser is unlocked as host.")


def set_token_cookie(response, name: str, token: str, max_age: int = COOKIE_AGE_S) -> None:
    # SameSite=Strict: another site cannot make a player's browser act at this table.
    response.set_cookie(name, token, max_age=max_age, httponly=True, samesite="Strict")


def request_is_local() -> bool:
    return request.remote_addr in ("127.0.0.1", "::1")


def is_host() -> bool:
    token = request.cookies.get(HOST_COOKIE)
    return bool(token) and current_app.extensions["qwixx"].is_host_token(token)


def require_host() -> None:
    if not is_host():
        raise ApiError(403, "host-only", "Only the host can do this: unlock with the host PIN first.")


def seat_token() -> str | None:
    return request.cookies.get(SEAT_COOKIE) or None
