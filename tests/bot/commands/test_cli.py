import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.cli import COMMANDS, main
from logo_bot.bot.errors import exit_codes_help
from logo_bot.solvers.board import Board
from tests.bot.fake_frames import draw

LEVEL_1 = Board.from_rows(
    ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
)
ROOT = Path(__file__).resolve().parents[3]


def error_of(err: str, command: str) -> str:
    """The message, when stderr is one ``logo-bot COMMAND: error:`` line (and maybe its
    ``what to do:`` line) and nothing else: no traceback, no second message."""
    found = re.fullmatch(rf"logo-bot {command}: error: ([^\n]+)\n(  what to do: [^\n]+\n)?", err)
    assert found, f"not one error line and its hint:\n{err}"
    return found.group(1)


def test_no_command_prints_usage_and_exits_2(capsys):
    assert main([]) == 2
    assert "walkthrough" in capsys.readouterr().out
    assert main(["--help"]) == 0


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_commands_help_ends_with_the_exit_codes(capsys, command):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.rstrip().endswith(exit_codes_help())


def test_unknown_command(capsys):
    assert main(["fly"]) == 2
    assert "unknown command 'fly'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["level", "101"], "levels run from 1 to 100"),
        (["walkthrough", "--levels", "5-2"], "first <= last"),
        (["walkthrough", "--levels", "x"], "write a level or a range"),
        (["walkthrough", "--from-code", "NOPE"], "not a level code"),
        (["walkthrough", "--speed", "1"], "choose 10..5000"),
        (["walkthrough", "--set", "keys.jump=x"], "no such setting"),
    ],
)
def test_bad_arguments_exit_2_with_a_message_and_no_traceback(capsys, argv, words):
    assert main(argv) == 2
    assert words in error_of(capsys.readouterr().err, argv[0])


def test_a_profile_that_does_not_exist_is_bad_input(capsys):
    assert main(["walkthrough", "--profile", "zx81"]) == 3
    assert "no calibration profile" in error_of(capsys.readouterr().err, "walkthrough")


def test_set_codes_on_the_original_tapes_profile(capsys):
    """calibration/logo-part1/profile.toml tells people to add codes this way."""
    argv = ["walkthrough", "--profile", "logo-part1", "--set", "codes.6=ABCDE", "--show-config"]
    assert main(argv) == 0
    assert tomllib.loads(capsys.readouterr().out)["codes"] == {"6": "ABCDE"}


def test_show_config_prints_toml(capsys):
    assert main(["walkthrough", "--show-config", "--set", "keys.up=w"]) == 0
    assert tomllib.loads(capsys.readouterr().out)["keys"]["up"] == "w"


def test_show_reads_a_screenshot_and_plans(tmp_path, capsys):
    png = tmp_path / "level1.png"
    Image.fromarray(draw(LEVEL_1, cursor=(1, 1), scale=2)).save(png)
    assert main(["show", "--screenshot", str(png), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["scale"] == 2 and info["cursor"] == [1, 1]
    assert info["target"] == str(LEVEL_1).splitlines()
    assert len(info["plan"]) == 5 and info["optimal"]


@pytest.mark.parametrize("command", ["show", "calibrate"])
def test_show_and_calibrate_both_find_the_game_in_a_desktop_screenshot(tmp_path, capsys, command):
    window = draw(LEVEL_1, cursor=(2, 3), scale=2)
    desktop = np.random.default_rng(3).integers(0, 256, (900, 1200, 3), dtype=np.uint8)
    desktop[70 : 70 + window.shape[0], 110 : 110 + window.shape[1]] = window
    png = tmp_path / "desktop.png"
    Image.fromarray(desktop).save(png)
    extra = ["--json"] if command == "show" else ["--out", str(tmp_path / "out.png")]
    assert main([command, "--screenshot", str(png), *extra]) == 0
    out = capsys.readouterr().out
    if command == "show":
        info = json.loads(out)
        assert info["found_at"] == {"scale": 2, "left": 110, "top": 70}
        assert info["cursor"] == [2, 3] and info["target"] == str(LEVEL_1).splitlines()
    else:
        assert "found the game at 2x, window origin (110, 70)" in out


@pytest.mark.parametrize("command", ["show", "calibrate"])
def test_show_and_calibrate_both_refuse_a_picture_that_is_not_the_game(tmp_path, capsys, command):
    """Exit 7, as the README's table says for a screen that is not the game."""
    png = tmp_path / "blank.png"
    Image.new("RGB", (100, 80)).save(png)
    out = ["--out", str(tmp_path / "out.png")] if command == "calibrate" else []
    assert main([command, "--screenshot", str(png), *out]) == 7
    assert error_of(capsys.readouterr().err, command).startswith("not the game: no game screen")
    assert main([command, "--screenshot", str(tmp_path / "none.png"), *out]) == 3
    assert error_of(capsys.readouterr().err, command).startswith("no such screenshot: ")


def test_in_a_process_of_its_own_bad_input_is_the_message_alone(tmp_path):
    """What a user sees: the exit status and the one line, no traceback, nothing on stdout."""
    png = tmp_path / "blank.png"
    Image.new("RGB", (100, 80)).save(png)
    command = [sys.executable, "-m", "logo_bot.bot.cli", "show", "--screenshot", str(png)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (7, "")
    assert done.stderr == (
        "logo-bot show: error: not the game: no game screen with a level on it was found in "
        "this 100x80 image (looked for the 320x240 Fuse window at 1x, 2x and 3x)\n"
    )


def test_calibrate_writes_an_annotated_picture(tmp_path, capsys):
    png = tmp_path / "shot.png"
    Image.fromarray(draw(LEVEL_1, cursor=(2, 3))).save(png)
    out = tmp_path / "check.png"
    assert main(["calibrate", "--screenshot", str(png), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "profile OK" in text and "1x" in text
    assert Image.open(out).size[0] == 640


def test_probing_the_keys_needs_a_live_game_not_a_screenshot(tmp_path, capsys):
    assert main(["calibrate", "--probe-keys", "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "needs a live game" in error_of(capsys.readouterr().err, "calibrate")


@pytest.mark.parametrize("speed", ["9", "5001", "20000"])
@pytest.mark.parametrize("command", ["walkthrough", "level 3", "show --launch", "replay RUN"])
def test_every_command_that_starts_fuse_has_the_one_speed_range(tmp_path, capsys, command, speed):
    """Playing and replaying refuse the same speeds, with the same words (20000 was a
    replay's limit before the range was made one)."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text("{}")
    argv = command.replace("RUN", str(run)).split()
    assert main([*argv, "--speed", speed, "--headless"]) == 2
    error = error_of(capsys.readouterr().err, argv[0])
    assert error == f"--speed {speed}: choose 10..5000 percent"


@pytest.mark.parametrize(
    ("given", "take_focus", "timeout"),
    [(None, True, 600.0), (None, False, None), (30.0, False, 30.0), (0.0, True, None)],
)
def test_the_focus_timeout_is_600_s_unless_the_bot_leaves_the_focus_to_you(
    given, take_focus, timeout
):
    from logo_bot.bot.commands.game_options import focus_timeout

    assert focus_timeout(given, take_focus) == timeout
