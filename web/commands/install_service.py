"""`qwixx-table install-service`: make this installation start with the machine, as a systemd service.

Writes the unit (ExecStart: this Python, which has qwixx-table installed), a sysusers.d entry for the service's
own user (in the video group, for the camera) and, if there is none yet, a commented settings file in the
state directory; then creates the user, reloads systemd and starts the service. `--root DIR` writes the files
under DIR and enables the service there, running nothing (for an SD-card image, whose first boot makes the user and
starts it); `--dry-run` only says what it would do.
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from importlib import resources
from pathlib import Path

UNIT = "qwixx-table.service"
STATE_DIR = "/var/lib/qwixx-table"
FILES = {  # packaged file -> where it is installed
    UNIT: f"/etc/systemd/system/{UNIT}",
    "qwixx-table.sysusers": "/etc/sysusers.d/qwixx-table.conf",
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default="/", metavar="DIR",
                        help="write the files under DIR instead of / and run nothing (default: /)")
    parser.add_argument("--dry-run", action="store_true", help="print what would be written and run; change nothing")
    parser.add_argument("--no-start", action="store_true", help="enable the service without starting it now")


def unit_text(python: str = sys.executable) -> str:
    """The packaged unit with ExecStart running `python -m web.cli serve` (the interpreter of this install)."""
    text = _packaged(UNIT)
    lines = [f"ExecStart={shlex.quote(python)} -m web.cli serve" if line.startswith("ExecStart=") else line
             for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def planned_files() -> dict[str, tuple[str, int]]:
    """Installed path -> (content, mode). The settings file is written only where there is none."""
    from web.settings import FILE_NAME, example

    return {
        FILES[UNIT]: (unit_text(), 0o644),
        FILES["qwixx-table.sysusers"]: (_packaged("qwixx-table.sysusers"), 0o644),
        f"{STATE_DIR}/{FILE_NAME}": (example() + "\n", 0o640),
    }


def commands(start: bool) -> list[list[str]]:
    return [
        ["systemd-sysusers", FILES["qwixx-table.sysusers"]],
        ["systemctl", "daemon-reload"],
        ["systemctl", "enable", UNIT],
        *([["systemctl", "restart", UNIT]] if start else []),  # starts it, or lets a new version take over
    ]


def run(args: argparse.Namespace) -> int:
    root = Path(args.root)
    real = root == Path("/") and not args.dry_run
    if real and os.geteuid() != 0:
        print("qwixx-table: installing a service needs root: sudo " + " ".join(map(shlex.quote, sys.argv)),
              file=sys.stderr)
        return 1
    if _running_from_a_checkout():
        print("qwixx-table: warning: this Python runs qwixx-table from a source folder, not an installed copy; "
              "the service would not find it. deploy/install.sh installs it first.", file=sys.stderr)
    if root.exists() and not root.is_dir():
        print(f"qwixx-table: --root {root} is not a folder", file=sys.stderr)
        return 1
    try:
        for path, (content, mode) in planned_files().items():
            target = root / path.lstrip("/")
            if target.name == "settings.toml" and target.exists():
                print(f"kept     {target} (settings already there)")
                continue
            print(f"{'would write' if args.dry_run else 'write'}    {target}")
            if not args.dry_run:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(content, encoding="utf-8")
                target.chmod(mode)
        if root != Path("/"):
            # An image's systemd has not run: the service is enabled as `systemctl enable` would (the link its
            # unit's WantedBy names); the user is made at its first boot by systemd-sysusers.
            wants = root / "etc/systemd/system/multi-user.target.wants" / UNIT
            print(f"{'would link' if args.dry_run else 'link'}     {wants} -> {FILES[UNIT]}")
            if not args.dry_run:
                wants.parent.mkdir(parents=True, exist_ok=True)
                wants.unlink(missing_ok=True)
                wants.symlink_to(FILES[UNIT])
            return 0
    except OSError as error:
        print(f"qwixx-table: cannot install under {root}: {error}", file=sys.stderr)
        return 1
    for command in commands(start=not args.no_start):
        line = " ".join(map(shlex.quote, command))
        if not real:
            print(f"would run    {line}")
            continue
        print(f"run      {line}")
        finished = subprocess.run(command)
        if finished.returncode != 0:
            print(f"qwixx-table: `{line}` failed with status {finished.returncode}", file=sys.stderr)
            return 1
    if real:
        print("The table now starts with this machine. Its address and host PIN: journalctl -u qwixx-table\n"
              f"Settings: {STATE_DIR}/settings.toml (then: sudo systemctl restart qwixx-table)")
    return 0


def _packaged(name: str) -> str:
    return resources.files("web").joinpath("systemd", name).read_text(encoding="utf-8")


def _running_from_a_checkout() -> bool:
    import web

    return (Path(web.__file__).resolve().parent.parent / "pyproject.toml").exists()
