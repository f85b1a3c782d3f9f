"""The `qwixx-table` command."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

# name -> (module under web.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("play", "play Qwixx at the terminal, 2-5 players; the referee keeps the sheets"),
    "replay": ("replay", "check game records against the rules; one JSON line per file"),
    "serve": ("serve", "start the table: the web app for phones and the table screen, and the camera"),
    "read": ("read", "read the dice in photos of the table"),
    "calibrate": ("calibrate", "learn the table, the dice colours and the camera's exposure for the reader"),
    "watch": ("watch", "run the camera and the roll tracker and print each roll as it settles"),
    "install-service": ("install_service", "make this installation a service that starts with the machine (systemd)"),
    "settings": ("settings", "show the settings in force and where they come from, or an example file"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qwixx-table", description="A table assistant for the dice game Qwixx.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(f"web.commands.{module_name}")
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        module.configure(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    from web.settings import EX_CONFIG, SettingsError

    args = build_parser().parse_args(argv)
    try:
        code = args.run(args)
        sys.stdout.flush()  # a reader gone (`| head`) shows here, while it can still be caught
        return code
    except SettingsError as error:  # a bad settings file: only a person can mend it (the service does not restart)
        print(f"qwixx-table: {error}", file=sys.stderr)
        return EX_CONFIG
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Whoever read the output has stopped reading: stop quietly, and let nothing write to the pipe at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
