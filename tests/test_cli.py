import subprocess
import sys
from pathlib import Path

import pytest

from web import cli

ROOT = Path(__file__).resolve().parents[1]


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert name in out


def test_unknown_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["juggle"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_output_cut_short_by_its_reader_ends_quietly():
    # As `qwixx-table settings | head -1` does once head has its line: the pipe is closed before the output comes.
    process = subprocess.Popen([sys.executable, "-m", "web.cli", "settings"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT)
    process.stdout.close()
    error = process.stderr.read().decode()
    assert process.wait(timeout=60) == 1
    assert error == ""
