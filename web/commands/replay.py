"""`qwixx-table replay FILE...`: check game records against the rules and print one JSON line per file.

Exit status 0 when every file is a legal record, 1 otherwise. "-" reads a record from standard input.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="game record files (JSON); - for standard input")


def report_file(name: str) -> dict[str, Any]:
    from referee import RuleError
    from referee.formats import load_json, replay_report

    try:
        text = sys.stdin.read() if name == "-" else open(name, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as error:
        return {"file": name, "ok": False, "rule": "not-a-record", "message": f"Cannot read the file: {error}."}
    try:
        data = load_json(text)
    except RuleError as error:
        return {"file": name, "ok": False, "rule": error.code, "message": error.message}
    return {"file": name, **replay_report(data)}


def run(args: argparse.Namespace) -> int:
    all_ok = True
    for name in args.files:
        report = report_file(name)
        all_ok &= report["ok"]
        print(json.dumps(report), flush=True)
    return 0 if all_ok else 1
