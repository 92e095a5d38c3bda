"""The ``ttr`` command line as a whole: its commands, its documentation, its output pipe."""

from __future__ import annotations

import subprocess
import sys

from ttr_rules.cli import COMMANDS, build_parser, main


def test_every_command_has_a_parser_and_help() -> None:
    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names))
    help_text = build_parser().format_help()
    for name in names:
        assert name in help_text
    assert main(["simulate", "--help"]) == 0


def test_a_closed_output_pipe_ends_the_command_quietly() -> None:
    """``ttr simulate | head -1``: no "Broken pipe" error, no traceback, exit status 0."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ttr_rules", "simulate", "--players", "2", "--games", "2000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # what `head -1` does after its line
    stderr = process.stderr.read()
    status = process.wait(timeout=120)
    assert first.startswith(b"game 1 ")
    assert stderr == b""
    assert status == 0
