"""The settings file: one TOML file of flat keys for everything a table owner may want to change.

Where it lives (the first that applies):
    --config FILE                          on any command that reads settings
    $STATE_DIRECTORY/settings.toml         under systemd (the service's state directory, /var/lib/qwixx-table)
    $XDG_CONFIG_HOME/qwixx-table/settings.toml   (~/.config/qwixx-table/settings.toml)
A missing default file means every default; a missing --config file is an error. Flags given on the command
line win over the file. A bad value stops the command with a message naming the key (exit status 78,
EX_CONFIG, which the systemd unit does not restart on: restarting cannot fix a typo).

`KEYS` below is the one list of keys, their defaults and their meaning; `qwixx-table settings --example`
prints it as a commented file, and the README's table is checked against it.
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import textwrap
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from web.validate import ApiError, boolean, integer, number, text

EX_CONFIG = 78  # sysexits.h: configuration error
APP = "qwixx-table"
FILE_NAME = "settings.toml"


class SettingsError(ValueError):
    """A settings file or flag that cannot be used; `key` names the culprit (None: the file as a whole)."""

    def __init__(self, key: str | None, message: str) -> None:
        super().__init__(message)
        self.key = key


def _resolution(value, name):
    match = re.fullmatch(r"\s*(\d{2,5})\s*[xX]\s*(\d{2,5})\s*", value) if isinstance(value, str) else None
    if match is None:
        raise ApiError(400, "bad-setting", f'{name} must be WIDTHxHEIGHT, such as "1280x720".')
    width, height = int(match[1]), int(match[2])
    if not (160 <= width <= 4608 and 120 <= height <= 3456):
        raise ApiError(400, "bad-setting", f"{name} must be between 160x120 and 4608x3456.")
    return f"{width}x{height}"


def _stops(value, name):
    stops = number(value, name)
    if not -4 <= stops <= 4:
        raise ApiError(400, "bad-setting", f"{name} must be between -4 and 4 stops.")
    return stops


def _pin(value, name):
    # A string, not a number: a PIN may start with 0. Digits only: phones show a number pad for it.
    if not isinstance(value, str) or not re.fullmatch(r"(\d{4,12})?", value):
        raise ApiError(400, "bad-setting", f'{name} must be 4 to 12 digits in quotes, such as "482913" '
                                           '(or "" to have one made).')
    return value


def _path(value, name):
    if not isinstance(value, str) or "\x00" in value or len(value) > 1024:
        raise ApiError(400, "bad-setting", f'{name} must be a file name in quotes (or "" for the default).')
    return value


@dataclass(frozen=True)
class Key:
    name: str
    default: Any
    check: Callable[[Any, str], Any]
    help: str
    flag: str | None = None  # the command-line flag that overrides it, where one does


KEYS: tuple[Key, ...] = (
    Key("host", "0.0.0.0", text(253, r"[0-9A-Za-z.:\-\[\]%]+"),
        'address to listen on: "0.0.0.0" for every network, "127.0.0.1" for this machine only', "--host"),
    Key("port", 8000, integer(0, 65535), "port of the web page: phones open http://<hostname>.local:<port>/ (0: any free port)",
        "--port"),
    Key("source", "auto", text(1024),
        'where frames come from: "auto" (the Pi camera when one is connected, else the demo recording; under the '
        'systemd service, none), '
        '"picamera", a webcam index such as "0", a video file, a folder of images, "demo", or "none" (the host '
        "types the dice)", "--source"),
    # 1280x720 rather than the Pi camera module 3's full binned 2304x1296: the same 200 generated scenes at 2304x1296
    # (the dice 1.8 times larger), read as rolls, give 1,114 dice of 1,200 read with 1 wrong rather than 1,081 with 3,
    # in 30.2 ms a roll rather than 27.0 (medians, one core), but in the 100 scenes with a die cocked 28 cocked dice
    # are given a value rather than 21: more wrong announcements (at 1920x1080: 1,100 read, 3 wrong, 29 cocked). Larger,
    # a cocked die's tilted top is read surely, and the leaning network, which should doubt it, clears most
    # (bench/vision.py --size; the times, 20 frames of each size read in turn, and the cocked dice looked at one by
    # one, scripts outside the repository).
    Key("resolution", "1280x720", _resolution, "size the camera is asked for, WIDTHxHEIGHT", "--resolution"),
    Key("exposure", 0.0, _stops,
        "stops of light the Pi camera takes above (+) or below (-) what its auto exposure chooses, before it locks its "
        "exposure: -2 when calibration finds the coloured dice washed out. Calibrate again after changing it: a "
        "calibration made with another setting no longer fixes the camera's exposure", "--exposure"),
    Key("calibration", "", _path,
        'calibration file; "" for the one `qwixx-table calibrate` saves (calibration.json in the state '
        "directory under systemd, else in ~/.config/qwixx-table/)", "--calibration"),
    Key("database", "", _path,
        'where games are kept; "" for qwixx.sqlite in the data folder ($STATE_DIRECTORY under systemd, else '
        "~/.local/state/qwixx-table/)", "--database"),
    Key("speech", True, boolean, "the table screen reads rolls and turns aloud (each screen can switch it off)"),
    Key("timer", 0, integer(0, 600),
        "seconds a player may take to decide before the table passes for them, proposed on the setup page; "
        "0 for no timer"),
    Key("host_pin", "", _pin,
        'the host PIN, 4 to 12 digits in quotes; "" to have one made at first start and kept in the database. '
        "Changing it signs out every browser unlocked with the old one"),
)
KEY_NAMES = tuple(key.name for key in KEYS)


@dataclass(frozen=True)
class Settings:
    host: str = "0.0.0.0"
    port: int = 8000
    source: str = "auto"
    resolution: str = "1280x720"
    exposure: float = 0.0
    calibration: str = ""
    database: str = ""
    speech: bool = True
    timer: int = 0
    host_pin: str = ""
    path: Path | None = field(default=None, compare=False)  # the file they came from, None for the defaults

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.resolution.split("x")
        return int(width), int(height)

    def database_path(self) -> Path:
        return self._in_folder(self.database) if self.database else data_dir() / "qwixx.sqlite"

    def calibration_path(self) -> Path | None:
        """The calibration file named in the settings, or None for the calibration package's default."""
        return self._in_folder(self.calibration) if self.calibration else None

    def calibration_file(self) -> Path:
        """Where calibrating saves: the file named in the settings, else the calibration package's default."""
        import calibration

        return self.calibration_path() or calibration.default_path()

    def _in_folder(self, name: str) -> Path:
        """A file name from the settings: relative ones are relative to the settings file's folder."""
        path = Path(name).expanduser()
        if path.is_absolute() or self.path is None:
            return path
        return self.path.parent / path


assert KEY_NAMES == tuple(name for name in Settings.__dataclass_fields__ if name != "path")
assert all(getattr(Settings(), key.name) == key.default for key in KEYS)


def data_dir() -> Path:
    """Where the product keeps its games: the service's state directory, else the user's XDG state folder."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0])
    state_home = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state_home) / APP


def default_path() -> Path:
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / FILE_NAME
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config_home) / APP / FILE_NAME


def load(path: str | os.PathLike | None = None) -> Settings:
    """The settings from `path` (which must exist), or from the default file when there is one."""
    chosen = Path(path).expanduser() if path is not None else default_path()
    if path is None and not chosen.exists():
        return Settings()
    try:
        raw = chosen.read_text(encoding="utf-8-sig")  # -sig: Windows editors may begin the file with a BOM
    except FileNotFoundError:
        raise SettingsError(None, f"{chosen}: no such settings file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(None, f"{chosen}: cannot read the settings file ({error})") from None
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(None, f"{chosen}: not a valid settings file: {error}") from None
    return replace(from_mapping(data, str(chosen)), path=chosen.resolve())


def from_mapping(data: dict, where: str = "settings") -> Settings:
    known = {key.name: key for key in KEYS}
    values = {}
    for name, value in data.items():
        key = known.get(name)
        if key is None:
            close = difflib.get_close_matches(str(name), KEY_NAMES, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (the keys are: {', '.join(KEY_NAMES)})"
            raise SettingsError(name, f"{where}: unknown key {name!r}{hint}")
        values[name] = _checked(key, value, f"{where}: {name}")
    return Settings(**values)


def _checked(key: Key, value: Any, label: str) -> Any:
    try:
        return key.check(value, label)
    except ApiError as error:
        # The value is repeated to show what was read (a number in quotes is text), except a PIN's.
        shown = "" if key.name == "host_pin" else f" It is {toml_value(value)}."
        raise SettingsError(key.name, error.message + shown) from None


# ----- the command line ----------------------------------------------------------------------------------------

def add_config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default=None, metavar="FILE",
                        help=f"settings file (default: {default_path()} if it exists)")


def add_flag(parser: argparse.ArgumentParser, name: str, **kwargs) -> None:
    """The flag that overrides key `name`; its default is None so that an absent flag leaves the file's value."""
    key = next(key for key in KEYS if key.name == name)
    kwargs.setdefault("help", f"{key.help} (settings key {name!r}, default {key.default!r})")
    parser.add_argument(key.flag, dest=name, default=None, **kwargs)


def for_command(args: argparse.Namespace) -> Settings:
    """The settings a command runs with: the file's, then every flag the user gave."""
    settings = load(getattr(args, "config", None))
    given = {}
    for key in KEYS:
        value = getattr(args, key.name, None)
        if key.flag and value is not None:
            given[key.name] = _checked(key, value, key.flag)
    return replace(settings, **given)


def example() -> str:
    """Every key with its default and meaning, as a settings file to copy and edit."""
    lines = ["# qwixx-table settings. Every key is optional; a line starting with # keeps the default.",
             f"# Under systemd this file is $STATE_DIRECTORY/{FILE_NAME}; elsewhere ~/.config/{APP}/{FILE_NAME}.", ""]
    for key in KEYS:
        lines.extend(f"# {line}" for line in textwrap.wrap(key.help, 100))
        lines.extend([f"#{key.name} = {toml_value(key.default)}", ""])
    return "\n".join(lines)


def in_effect(settings: Settings) -> list[dict]:
    """Each key as the table runs with it, for the host's settings page: the value (a PIN's hidden: the page is
    seen across the room), the default and the meaning."""
    return [{"key": key.name, "default": toml_value(key.default), "help": key.help,
             "value": "(hidden)" if key.name == "host_pin" and settings.host_pin else toml_value(getattr(settings, key.name))}
            for key in KEYS]


def toml_value(value: Any) -> str:
    if isinstance(value, (list, dict)):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return '"' + "".join(_toml_char(char) for char in str(value)) + '"'


TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_char(char: str) -> str:
    """One character of a TOML basic string, escaped where TOML requires it (quotes, backslash, control codes)."""
    if char in TOML_ESCAPES:
        return TOML_ESCAPES[char]
    return f"\\u{ord(char):04x}" if ord(char) < 0x20 or ord(char) == 0x7f else char

