"""A run folder named on the command line: a damaged run.json or a missing run.rzx is a
bad input file (exit 3, said before any program starts), ``runs`` keeps its STATUS
column short for a run it cannot read, and a prefix that begins several runs is said to
be ambiguous."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.commands import replay, required
from logo_bot.bot.recording.folder import find_run
from tests.bot.recording.run_folders import level, make_run

FIRST, SECOND = "20261123T213753Z-walkthrough", "20261123T223000Z-level"


class ProgramStarted(Exception):
    """The replay went past its checks to start its display."""


@pytest.fixture
def runs(tmp_path, monkeypatch) -> Path:
    """Two good runs (no video: no ffmpeg needed); the replay's programs replaced."""
    root = tmp_path / "runs"
    for name in (FIRST, SECOND):
        make_run(root, name, [level(1)], video=False)
    monkeypatch.setattr(required, "require", lambda needs: None)  # whatever is installed
    monkeypatch.setattr(replay, "run_rom", lambda run, rom: Path("48.rom"))

    def server(options):
        raise ProgramStarted

    monkeypatch.setattr(replay, "_server", server)
    return root


def error(code: int, capsys, command: str) -> str:
    """The one error line and what to do, with exit status ``code``."""
    err = capsys.readouterr().err
    assert re.fullmatch(rf"logo-bot {command}: error: [^\n]+\n  what to do: [^\n]+\n", err), err
    return err


@pytest.mark.parametrize("command", ["replay", "report"])
def test_a_damaged_run_json_is_a_bad_input_file(runs, capsys, command):
    """It was exit 2, a usage error."""
    (runs / FIRST / "run.json").write_text('{"schema": 1, "levels": [')
    assert main([command, FIRST, "--video-dir", str(runs)]) == 3
    err = error(3, capsys, command)
    assert f"cannot read {runs / FIRST / 'run.json'}" in err


def test_a_missing_run_rzx_is_a_bad_input_file_said_before_any_program_starts(runs, capsys):
    """It was exit 2, said only once the replay's display had started."""
    run_json = runs / FIRST / "run.json"
    run = json.loads(run_json.read_text())
    run["segments"][0]["rzx"] = "run.rzx"
    run_json.write_text(json.dumps(run))
    assert main(["replay", FIRST, "--video-dir", str(runs), "--headless"]) == 3
    err = error(3, capsys, "replay")
    assert f"{runs / FIRST / 'run.rzx'} is missing" in err


def test_runs_lists_an_unreadable_run_in_a_short_status_and_says_why_below(runs, capsys):
    """The whole error, with its absolute path, was the STATUS column (about 250 wide)."""
    (runs / FIRST / "run.json").write_text("not json")
    assert main(["runs", "--video-dir", str(runs)]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0]
    (row,) = [line for line in lines if line.startswith(FIRST)]
    status = row[header.index("STATUS") : header.index("DURATION")].strip()
    assert status == "unreadable"
    assert max(len(line) for line in lines[:3]) < 140, "the table stays narrow"
    (said,) = [line for line in lines if line.startswith("unreadable: ")]
    assert said.startswith(f"unreadable: {FIRST}: cannot read ") and "run.json" in said
    assert main(["runs", "--video-dir", str(runs), "--json"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["status"] == "unreadable" and "cannot read" in first["error"]


@pytest.mark.parametrize("command", ["replay", "report"])
def test_a_prefix_of_two_runs_is_ambiguous(runs, capsys, command):
    """It said "no run '2026'" and then listed the two runs it had matched."""
    assert main([command, "2026", "--video-dir", str(runs)]) == 2
    err = error(2, capsys, command)
    assert f"'2026' is ambiguous: 2 runs in {runs} begin with it: {FIRST}, {SECOND}" in err
    assert "no run" not in err
    assert find_run("20261123T22", runs).name == SECOND, "one run begins with it"
