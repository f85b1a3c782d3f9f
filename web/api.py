"""The JSON API under /api: what the pages call. Every body is checked field by field; a refusal is a 4xx
with {"error": code, "message": sentence} and changes nothing."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import BadRequest

from referee import RuleError
from web import auth
from web.calibrating import Calibrating
from web.live import TooManyStreams
from web.card_session import CARD_VARIANTS, DEALS, new_seed
from web.session import Setup
from web.table import COLOURS, DICE, Table
from web.validate import (
    PLAYER_NAME, ApiError, boolean, fields, integer, list_of, mapping, number, one_of, optional, text,
)

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_SEATS = 5
MAX_PLAY_AREA_CORNERS = 32  # more than a found outline has (calibration.learn.find_play_area)


def table() -> Table:
    return current_app.extensions["qwixx"]


def json_body(code: str = "bad-json", message: str = "The request body is not valid JSON.") -> Any:
    if not request.is_json:
        raise ApiError(415, "not-json", "Send the request as JSON (Content-Type: application/json).")
    try:
        return request.get_json()
    except (BadRequest, RecursionError):  # RecursionError: JSON nested deeper than Python parses
        raise ApiError(400, code, message) from None


def body(required: dict, optional_fields: dict | None = None) -> dict:
    return fields(json_body(), required, optional_fields)


def empty_body() -> None:
    """Actions without parameters still refuse a body with fields in it."""
    if request.content_length:
        body({})


def camera_loop():
    """The camera loop `serve` started, or None (no camera, or an app without one: tests, tools)."""
    return current_app.extensions.get("qwixx_camera")


def state_response(status: int = 200):
    return jsonify(table().state()), status


def acting_seat(seat: int, sees_hand: bool = False) -> None:
    """A phone acts only for the seats it joined; the host may act for anyone (a player without a phone), except
    where it would show a hand only its holder may see (`sees_hand`: playing cards the referee dealt; a refusal
    would say which cards the hand does not hold)."""
    session = table().session
    if session is None:
        raise ApiError(409, "no-game", "No game is being played: the host sets one up first.")
    if not seat < len(session.seats):
        raise ApiError(400, "bad-request", f"seat must be between 0 and {len(session.seats) - 1}.")
    if seat in table().seats_of(auth.seat_token()):
        return
    name = session.seats[seat]
    if not auth.is_host():
        raise ApiError(403, "not-your-seat", f"This phone does not play for {name}: join that seat first.")
    if sees_hand and session.hides_hands:
        raise ApiError(403, "hand-hidden", f"Only {name}'s own phone can play {name}'s cards: nobody else may see them.")


# ----- reading -----------------------------------------------------------------------------------------------

@bp.get("/state")
def state():
    return state_response()


@bp.get("/events")
def events():
    try:
        # The device's own screens (loopback) are not held to one device's share: only the network is a stranger.
        stream = table().live.stream(None if auth.request_is_local() else request.remote_addr)
    except TooManyStreams as error:
        raise ApiError(503, "too-many-pages", f"Too many pages are open ({error}): close one and reload.") from None
    return Response(stream, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/camera.jpg")
def camera_picture():
    camera = camera_loop()
    picture = camera.jpeg() if camera is not None else None
    if picture is None:
        raise ApiError(404, "no-picture", "There is no camera picture yet.")
    return Response(picture, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/me")
def me():
    return jsonify({**table().me(auth.seat_token()), "host": auth.is_host()})


# ----- host --------------------------------------------------------------------------------------------------

@bp.post("/host")
def host_login():
    pin = body({"pin": text(12, r"[0-9]+")})["pin"]
    token = table().host_login(pin, request.remote_addr)
    response = jsonify(host=True)
    auth.set_token_cookie(response, auth.HOST_COOKIE, token, auth.HOST_LOGIN_S)
    return response


@bp.get("/host/pin")
def host_pin():
    """The PIN, for a host browser to show on request (to approve a player's move to another phone)."""
    auth.require_host()
    response = jsonify(pin=table().pin)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/host/lock")
def host_lock():
    """This browser's host controls locked again (signed out as host)."""
    empty_body()
    token = request.cookies.get(auth.HOST_COOKIE)
    if token:
        table().host_lock(token)
    response = jsonify(host=False)
    response.delete_cookie(auth.HOST_COOKIE, httponly=True, samesite="Strict")
    return response


@bp.post("/games")
def new_game():
    auth.require_host()
    data = body(
        {"players": list_of(PLAYER_NAME, 2, 2 * MAX_SEATS)},
        {"variant": one_of("standard", "two-sheets", "partners", *CARD_VARIANTS),
         "starter": optional(integer(0, MAX_SEATS - 1)),
         "timer": integer(0, 600),
         "match": boolean,
         "deal": one_of(*DEALS)},
    )
    variant = data.get("variant", "standard")
    players = data["players"]
    if variant == "partners":
        if len(players) % 2:
            raise ApiError(400, "bad-setup", "Partners play in pairs: give an even number of names.")
        players = [players[index:index + 2] for index in range(0, len(players), 2)]
    deal = None
    if variant in CARD_VARIANTS:
        deal = data.get("deal", "shuffled")
    elif "deal" in data:
        raise ApiError(400, "bad-setup", "Only the card game is dealt: leave out deal for the dice game.")
    setup = Setup(players, variant, data.get("starter"), data.get("timer", 0), data.get("match", False), deal,
                  new_seed() if deal == "shuffled" else None)
    try:
        table().start_game(setup)
    except RuleError as error:
        raise ApiError(400, error.code, error.message) from None
    return state_response(201)


@bp.post("/games/again")
def play_again():
    auth.require_host()
    empty_body()
    table().play_again()
    return state_response(201)


@bp.post("/games/end")
def end_game():
    auth.require_host()
    empty_body()
    table().end_game()
    return state_response()


@bp.post("/undo")
def undo():
    auth.require_host()
    empty_body()
    table().undo()
    return state_response()


DIE = integer(1, 6)


@bp.post("/dice")
def dice():
    """The host types the dice (no camera, or the camera unsure) or corrects them before anyone decided."""
    auth.require_host()
    data = body({"white": list_of(DIE, 2, 2)}, {colour: DIE for colour in COLOURS})
    table().enter_dice(data, "host")
    return state_response()


@bp.post("/reroll")
def reroll():
    """Ruling 9: single dice rolled again before anyone decided (cocked, off the table, or the host's choice).
    {"dice": {"red": 3}} gives their new values; {"camera": ["red"]} lets the camera read them when they settle."""
    auth.require_host()
    data = body({}, {"dice": mapping({name: DIE for name in DICE}, 1), "camera": list_of(one_of(*DICE), 1, len(DICE))})
    if len(data) != 1:
        raise ApiError(400, "bad-request", "Send either dice (the re-rolled dice's new values) or camera (the dice "
                                           "the camera is to read).")
    if "dice" in data:
        table().reroll(data["dice"], "host")
    else:
        table().reroll_by_camera(data["camera"])
    return state_response()


@bp.post("/roll-off")
def roll_off():
    auth.require_host()
    table().roll_off(body({"value": DIE})["value"], "host")
    return state_response()


# ----- calibrating the camera (the host) ---------------------------------------------------------------------

def calibrating() -> Calibrating:
    return current_app.extensions["qwixx_calibrating"]


def calibration_response():
    return jsonify(calibrating().to_json(camera_loop()))


@bp.get("/calibration")
def calibration_state():
    auth.require_host()
    return calibration_response()


@bp.post("/calibration/start")
def calibration_start():
    """Step 1: the camera stops reading rolls; the host clears the table."""
    auth.require_host()
    empty_body()
    calibrating().start(camera_loop(), table().camera["state"])
    return calibration_response()


@bp.post("/calibration/empty")
def calibration_empty():
    """The empty table, a few frames averaged; then the host lays out the six dice."""
    auth.require_host()
    empty_body()
    calibrating().capture_empty()
    return calibration_response()


@bp.post("/calibration/dice")
def calibration_dice():
    """The six dice apart, a few frames averaged, learned from; the result for the host to look at."""
    auth.require_host()
    empty_body()
    calibrating().capture_dice()
    return calibration_response()


@bp.post("/calibration/play-area")
def calibration_play_area():
    """The host's own play area (the tray's corners in the picture's pixels) instead of the one learned."""
    auth.require_host()
    corners = body({"corners": list_of(corner, 3, MAX_PLAY_AREA_CORNERS)})["corners"]
    calibrating().set_play_area(corners)
    return calibration_response()


@bp.get("/calibration/picture.jpg")
def calibration_picture():
    auth.require_host()
    return Response(calibrating().picture(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/calibration/save")
def calibration_save():
    """The file written, and the camera reading with it from the next frame on."""
    auth.require_host()
    empty_body()
    calibrating().save()
    return calibration_response()


@bp.post("/calibration/cancel")
def calibration_cancel():
    auth.require_host()
    empty_body()
    calibrating().cancel()
    return calibration_response()


# ----- players -----------------------------------------------------------------------------------------------

@bp.post("/join")
def join():
    data = body({"person": integer(0, 2 * MAX_SEATS - 1)}, {"pin": text(12, r"[0-9]+")})
    if "pin" in data:  # the host approves this move alone, typing the PIN on this phone
        table().pin_guard.check(data["pin"], request.remote_addr)
    token = table().join(data["person"], auth.seat_token(), auth.is_host() or "pin" in data)
    response = jsonify({**table().me(token), "host": auth.is_host()})
    auth.set_token_cookie(response, auth.SEAT_COOKIE, token)
    return response


def corner(value, name):
    """A point of the camera's picture as [x, y], in pixels."""
    if not (isinstance(value, list) and len(value) == 2):
        raise ApiError(400, "bad-request", f"{name} must be a corner [x, y] in the picture's pixels.")
    return [number(value[0], f"{name}'s x"), number(value[1], f"{name}'s y")]


def card(value, name):
    """A card as [colour, number], the colour "joker" for a joker (the referee's `Card.to_json`)."""
    if not (isinstance(value, list) and len(value) == 2):
        raise ApiError(400, "bad-request", f"{name} must be a card such as [\"red\", 7] or [\"joker\", 7].")
    return [one_of(*COLOURS, "joker")(value[0], f"{name}'s colour"), integer(2, 12)(value[1], f"{name}'s number")]


MOMENT = text(80, r"[0-9a-z:-]+")  # a game's `moment`, as the state gives it

# An action's fields, each checked; which fields each kind of action needs and allows.
ACTION_FIELDS = {"colour": one_of(*COLOURS), "number": integer(2, 12), "slots": list_of(integer(0, 3), 1, 4),
                 "cards": list_of(card, 0, 5), "cross": list_of(integer(2, 12), 0, 5)}
ACTIONS = {"mark": ({"colour", "number"}, {"colour", "number"}), "pass": (set(), set()),
           "take": ({"slots"}, {"slots"}), "announce": ({"number"}, {"number"}),
           "play": ({"cards"}, {"cards", "cross", "colour"})}  # kind: (needed, allowed)
FIELD_WORDS = {"colour": "a colour", "number": "a number", "slots": "the tableau slots taken", "cards": "the cards played"}


def action_body(kinds: tuple[str, ...], action_needed: bool = True) -> tuple[int, dict, str | None]:
    """The seat, the action and the moment of a request: {"seat": 1, "action": "mark", "colour": "red", "number": 6,
    "moment": ...}, any action of this game (in the dice game mark or pass), with the game's `moment` the page showed
    when the player chose (where given). Without "action" (where allowed) it asks about a box."""
    actions = {"action": one_of(*kinds)}
    data = body({"seat": integer(0, MAX_SEATS * 2 - 1), **(actions if action_needed else {})},
                {**ACTION_FIELDS, "moment": MOMENT, **({} if action_needed else actions)})
    seat = data.pop("seat")
    moment = data.pop("moment", None)
    kind = data.setdefault("action", "mark")
    needed, allowed = ACTIONS[kind]
    given = set(data) - {"action"}
    article = "An" if kind == "announce" else "A"
    if needed - given:
        raise ApiError(400, "bad-request", f"{article} {kind} needs {' and '.join(FIELD_WORDS[name] for name in sorted(needed))}.")
    if given - allowed:
        raise ApiError(400, "bad-request", f"{article} {kind} has no {' or '.join(sorted(given - allowed))}.")
    return seat, data, moment


def game_kinds() -> tuple[str, ...]:
    session = table().session
    if session is None:
        raise ApiError(409, "no-game", "No game is being played: the host sets one up first.")
    return session.action_kinds


@bp.post("/act")
def act():
    """A decision for a seat: in the dice game mark or pass; in the card game also take (from the dealt
    tableau), announce (real cards) and play."""
    seat, action, moment = action_body(game_kinds())
    acting_seat(seat, sees_hand=action["action"] == "play")
    table().act(seat, action, "host" if seat not in table().seats_of(auth.seat_token()) else "player", moment)
    return state_response()


@bp.post("/retract")
def retract():
    data = body({"seat": integer(0, MAX_SEATS * 2 - 1)}, {"moment": MOMENT})
    acting_seat(data["seat"])
    table().retract(data["seat"], data.get("moment"))
    return state_response()


@bp.post("/why")
def why():
    """Why an action cannot be taken now, in the referee's words; changes nothing. Without "action" it asks
    about a box (a mark of colour and number)."""
    seat, action, _ = action_body(game_kinds(), action_needed=False)
    acting_seat(seat, sees_hand=action["action"] == "play")
    error = table().why_not(seat, action)
    if error is None:
        what = f"{action['colour'].capitalize()} {action['number']}" if action["action"] == "mark" else "This"
        return jsonify(legal=True, message=f"{what} can be {'marked' if action['action'] == 'mark' else 'done'} now.")
    return jsonify(legal=False, rule=error.code, message=error.message)


@bp.post("/options")
def options():
    """The card game with real cards: the plays of exactly the cards a player says they played, with what each
    costs (the referee cannot see a real hand)."""
    data = body({"seat": integer(0, MAX_SEATS * 2 - 1), "cards": list_of(card, 1, 3)})
    acting_seat(data["seat"], sees_hand=True)
    return jsonify(options=table().options(data["seat"], data["cards"]))


# ----- ended games and records ------------------------------------------------------------------------------

@bp.get("/games")
def ended_games():
    return jsonify(games=[{"id": game.id, "finished": game.finished, "origin": game.origin,
                           "variant": game.setup["variant"], "match": game.setup.get("match", False),
                           "result": game.result} for game in table().store.ended_games()])


@bp.get("/games/<int:game_id>/record")
def export_record(game_id: int):
    """The game as a record file: `qwixx-record/1` (its complete turns) or `qwixx-cards-record/1`."""
    return Response(table().record_text(game_id), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="qwixx-game-{game_id}.json"'})


@bp.post("/records")
def import_record():
    """A record from this table or another, checked by the referee, kept as a finished game to replay."""
    auth.require_host()
    data = json_body("not-a-record", "This file is not JSON, so it is not a game record.")
    game_id = table().import_record(data)
    return jsonify(id=game_id), 201


@bp.get("/games/<int:game_id>/replay")
def replay_steps(game_id: int):
    """What happened at each step of a stored game, to step through it."""
    return jsonify(table().replay_steps(game_id))


@bp.get("/games/<int:game_id>/replay/<int:step>")
def replay_step(game_id: int, step: int):
    """The table as it was after `step` steps."""
    return jsonify(table().replay_state(game_id, step))
