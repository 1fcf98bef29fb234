"""The logo-part1 profile (the original tape's) end to end, with the practice game's own
tape standing in for LOGO.TAP: the tape is loaded by typing LOAD "" in OpenSE BASIC,
the start sequence of LOGO-GAME.md section 3 runs open loop (that profile cannot read
screen text), and the levels are played and checked as with the practice profile."""

import json

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.profile import load_profile
from logo_bot.solvers.levels import load_level_list

PRACTICE = load_profile("practice")
LEVELS = load_level_list(PRACTICE.resolve(PRACTICE.game["levels"]))


@pytest.mark.fuse
def test_the_original_tapes_profile_plays_a_tape(xserver, tmp_path, capsys):
    tape = PRACTICE.resolve("game/build/practice.tap")
    argv = ["walkthrough", "--profile", "logo-part1", "--tape", str(tape), "--levels", "1-2"]
    argv += ["--display", xserver.display, "--speed", "200", "--no-video"]
    argv += ["--video-dir", str(tmp_path)]
    assert main(argv) == 0, capsys.readouterr().err
    (folder,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    run = json.loads((folder / "run.json").read_text())
    assert run["status"] == "complete"
    assert [lv["status"] for lv in run["levels"]] == ["done", "done"]
    assert run["profile"]["name"] == "logo-part1"
    for played, level in zip(run["levels"], LEVELS, strict=False):
        assert played["target"] == played["end_board"] == str(level.board).splitlines()
    # LOAD "" went through the env like every key: it is the first key event written
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    (first, *_) = [e for e in events if e["event"] == "keys"]
    assert first["keys"] == ["l", "o", "a", "d", "symbol", "p", "p", "enter"] and first["load"]


def test_the_original_tapes_profile_needs_a_tape(tmp_path, capsys):
    argv = ["walkthrough", "--profile", "logo-part1", "--levels", "1"]
    assert main([*argv, "--video-dir", str(tmp_path)]) == 3
    assert "--tape" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [], "a run rejected before it starts leaves no folder"
