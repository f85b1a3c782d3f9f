"""`qwixx-table settings`: the settings in force and where they come from, or a commented file to start from."""
from __future__ import annotations

import argparse

from web import settings as settings_file


def configure(parser: argparse.ArgumentParser) -> None:
    settings_file.add_config_option(parser)
    parser.add_argument("--example", action="store_true",
                        help="print every key with its default and meaning, as a settings file to edit")


def run(args: argparse.Namespace) -> int:
    if args.example:
        print(settings_file.example())
        return 0
    settings = settings_file.for_command(args)  # a bad file: the command line says so, with its exit status
    print(f"# from {settings.path or 'the defaults: there is no ' + str(settings_file.default_path())}")
    for key in settings_file.KEYS:
        print(f"{key.name} = {settings_file.toml_value(getattr(settings, key.name))}")
    print(f"# games are kept in {settings.database_path()}")
    return 0
