"""Arguments that can be checked before Fuse starts are checked there: a player name the
game's name entry cannot take, a level the game does not have, a code that opens a level
after the range asked. One error and what to do, the usage exit status, no run folder,
and no game started (every command's game is replaced by one that fails the test)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.commands import calibrate, required, show, walkthrough
from logo_bot.bot.profile import load_profile

ROOT = Path(__file__).resolve().parents[3]


class GameStarted(Exception):
    """The command went past its checks to start (or look at) a game."""


@pytest.fixture
def no_game(monkeypatch) -> list[str]:
    """Every command's game replaced: a command that gets there is recorded and fails."""
    started: list[str] = []

    def start(name: str):
        def game(*args, **kwargs):
            started.append(name)
            raise GameStarted(name)

        return game

    monkeypatch.setattr(required, "require", lambda needs: None)  # whatever is installed
    monkeypatch.setattr(walkthrough, "run", start("walkthrough"))
    monkeypatch.setattr(show, "launched_frame", start("show --launch"))
    monkeypatch.setattr(show, "live_frame", start("show on the display"))
    monkeypatch.setattr(calibrate, "probe", start("calibrate --probe-keys"))
    return started


def refused(argv: list[str], capsys, runs: Path) -> str:
    """``argv``'s error: exit 2, one error line and what to do, and no run folder."""
    code = main([*argv, *(["--video-dir", str(runs)] if argv[0] in RUNS else [])])
    err = capsys.readouterr().err
    assert code == 2, err
    assert re.fullmatch(rf"logo-bot {argv[0]}: error: [^\n]+\n  what to do: [^\n]+\n", err), err
    assert not runs.exists(), "no run folder"
    return err


RUNS = ("walkthrough", "level")  # the commands that make a run folder
LAUNCHING = [
    ["walkthrough", "--levels", "1", "--headless"],
    ["level", "4", "--headless"],
    ["show", "--launch", "--headless"],
    ["calibrate", "--launch", "--headless"],
    ["calibrate", "--launch", "--probe-keys", "--headless"],
]


@pytest.mark.parametrize("command", LAUNCHING, ids=" ".join)
def test_a_name_longer_than_the_name_entry_is_refused(command, no_game, capsys, tmp_path):
    """The bot typed its 11th letter again and again, about once a second, saying nothing."""
    err = refused([*command, "--name", "ABCDEFGHIJK"], capsys, tmp_path / "runs")
    assert "--name 'ABCDEFGHIJK' has 11 characters: the game's name entry takes at most 10" in err
    assert "give a name of at most 10 of A-Z, 0-9" in err
    assert no_game == []
    with pytest.raises(GameStarted):  # ten fit
        main([*command, "--name", "abcdefghij", "--no-record" if command[0] in RUNS else "-v"])


@pytest.mark.parametrize("command", LAUNCHING, ids=" ".join)
@pytest.mark.parametrize(("name", "said"), [("MÄRZ", "'Ä'"), ("LOGO BOT", "space")])
def test_a_name_the_game_cannot_type_is_refused(command, name, said, no_game, capsys, tmp_path):
    """ÄÖÜ failed once Fuse ran (no keycode for key 'ä', exit 3, a failed run folder);
    the practice game's name entry ignores a space, which the bot then typed for ever."""
    err = refused([*command, "--name", name], capsys, tmp_path / "runs")
    assert f"--name {name!r} has {said}, which the game's name entry cannot take" in err
    assert no_game == []


def test_the_originals_profile_checks_the_letters_but_knows_no_length(no_game, capsys, tmp_path):
    part1 = ["walkthrough", "--profile", "logo-part1", "--levels", "1", "--headless"]
    err = refused([*part1, "--name", "ÖRJAN"], capsys, tmp_path / "runs")
    assert "'Ö'" in err and "give a name of A-Z, 0-9, space" in err
    with pytest.raises(GameStarted):
        main([*part1, "--name", "A LONG NAME OF 26 LETTERS", "--no-record"])


def test_a_profile_whose_own_name_does_not_fit_is_bad_input(no_game, capsys):
    assert main(["walkthrough", "--no-record", "--set", "start.name=GRÜN"]) == 3
    err = capsys.readouterr().err
    assert "the profile's player name 'GRÜN' has 'Ü'" in err and "--name NAME" in err
    assert no_game == []


def test_the_practice_profiles_name_entry_is_the_games():
    """The profile says what game/layout.toml builds into the game."""
    layout = tomllib.loads((ROOT / "game" / "layout.toml").read_text())
    start = load_profile("practice").start
    assert start.name_length == layout["input"]["name_length"]
    assert set(start.name_chars) == set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


@pytest.mark.parametrize("command", [["show"], ["calibrate"], ["calibrate", "--probe-keys"]])
@pytest.mark.parametrize("level", ["0", "101", "200"])
def test_a_level_to_launch_to_that_the_game_lacks_is_refused(
    command, level, no_game, capsys, tmp_path
):
    """101 and 200 started Fuse, waited 64 s and gave up (exit 8); 0 showed level 1."""
    err = refused([*command, "--launch", "--level", level], capsys, tmp_path / "runs")
    assert f"--level {level}: this game's levels run from 1 to 100" in err
    assert no_game == []


@pytest.mark.parametrize("command", [["show"], ["calibrate"], ["calibrate", "--probe-keys"]])
def test_a_level_without_launch_is_refused(command, no_game, capsys, tmp_path):
    """Only --launch reaches a level: without it --level was quietly left unused."""
    err = refused([*command, "--level", "6"], capsys, tmp_path / "runs")
    assert "--level 6 is the level --launch reaches" in err and "add --launch" in err
    assert no_game == []


def test_a_code_that_opens_a_level_after_the_range_is_refused(no_game, capsys, tmp_path):
    """It said "level 6: this game's levels run from 1 to 100" about a code for level 6."""
    argv = ["walkthrough", "--levels", "1-3", "--from-code", "BIHIZ", "--headless"]
    err = refused(argv, capsys, tmp_path / "runs")
    assert "--from-code BIHIZ opens level 6, after the levels asked (--levels 1-3)" in err
    assert "--levels 6-100" in err
    assert no_game == []


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["walkthrough", "--levels", "0-3"], "--levels '0-3': levels run from 1 to 100"),
        (["walkthrough", "--levels", "5-101"], "--levels '5-101': levels run from 1 to 100"),
        (["walkthrough", "--levels", "9-3"], "--levels '9-3': levels run from 1 to 100"),
        (["walkthrough", "--from-code", "NOPE"], "'NOPE' is not a level code of this game"),
        (["level", "0"], "level 0: this game's levels run from 1 to 100"),
        (["level", "101"], "level 101: this game's levels run from 1 to 100"),
    ],
)
def test_every_other_level_asked_outside_the_game_is_refused(argv, said, no_game, capsys, tmp_path):
    assert said in refused([*argv, "--headless"], capsys, tmp_path / "runs")
    assert no_game == []
