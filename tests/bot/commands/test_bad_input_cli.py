"""Bad input through the command line: one clear message that says what to do, a
non-zero exit status, a picture where one helps, and never a traceback."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

from faults.folder_check import check_folder
from logo_bot.bot.cli import main

GOOD = ["walkthrough", "--levels", "1", "--no-record"]
ROOT = Path(__file__).resolve().parents[3]

# another program: white paper over stripes, then a loop (hand-assembled Z80)
OTHER_PROGRAM = bytes.fromhex(
    "210058"
    "110158"
    "01ff02"
    "3638"
    "edb0"  # attributes: white paper
    "210040"
    "110140"
    "01ff17"
    "3655"
    "edb0"  # pixels: stripes
    "f3"
    "18fe"  # di; jr $
)


def run(argv: list[str], capsys) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


ONE_MESSAGE = re.compile(
    r"(?:(?:recorded in|report:) [^\n]+\n)*"  # a recorded run first says where it is
    r"logo-bot walkthrough: error: [^\n]+\n  what to do: [^\n]+\n"
)


def one_message(err: str) -> str:
    """The error, which must say what to do: stderr is the one error line and its
    ``what to do:`` line, nothing else (no traceback, no second message)."""
    assert ONE_MESSAGE.fullmatch(err), f"not one error line and what to do:\n{err}"
    return err


def test_missing_rom(capsys, tmp_path):
    code, err = run([*GOOD, "--rom", str(tmp_path / "48.rom")], capsys)
    assert code == 3 and "the ROM file" in one_message(err) and "does not exist" in err


def test_in_a_process_of_its_own_bad_input_is_the_message_alone(tmp_path):
    """What a user sees: the exit status and the message, no traceback, nothing on stdout."""
    rom = tmp_path / "48.rom"
    command = [sys.executable, "-m", "logo_bot.bot.cli", *GOOD, "--rom", str(rom)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        f"logo-bot walkthrough: error: the ROM file {rom} does not exist\n"
        "  what to do: check the path\n"
    )


def test_a_rom_that_is_not_a_48k_rom(capsys, tmp_path):
    rom = tmp_path / "48.rom"
    rom.write_bytes(bytes(1000))
    code, err = run([*GOOD, "--rom", str(rom)], capsys)
    assert code == 3 and "1000 bytes, not a 48K Spectrum ROM" in one_message(err)


def test_missing_and_broken_tapes(capsys, tmp_path):
    code, err = run([*GOOD, "--tape", str(tmp_path / "LOGO.TAP")], capsys)
    assert code == 3 and "tape file" in one_message(err)
    broken = tmp_path / "broken.tap"
    broken.write_bytes(b"\x13\x00" + bytes(5))
    code, err = run([*GOOD, "--tape", str(broken)], capsys)
    assert code == 3 and "cannot be loaded" in one_message(err)


def test_a_snapshot_cut_short_is_refused_before_fuse_starts_and_leaves_no_folder(capsys, tmp_path):
    """The first 1000 bytes of practice.z80: Fuse would boot the ROM instead, the bot
    would press SPACE for 18 s and leave a failed run (exit 8). Refused as bad input."""
    cut = tmp_path / "practice.z80"
    cut.write_bytes((ROOT / "game" / "build" / "practice.z80").read_bytes()[:1000])
    runs = tmp_path / "runs"
    argv = ["walkthrough", "--levels", "1", "--headless", "--video-dir", str(runs)]
    code, err = run([*argv, "--snapshot", str(cut)], capsys)
    assert code == 3 and f"{cut} cannot be loaded" in one_message(err)
    assert "the file is cut short" in err and "copy the whole file again" in err
    assert not (runs.exists() and list(runs.iterdir())), "no run folder left"


@pytest.mark.parametrize("key", ["six", "200"])
def test_a_code_for_no_level_is_a_usage_error(capsys, key):
    """codes.six was a ValueError traceback and exit 1; codes.200 was accepted."""
    code, err = run([*GOOD, "--set", f"codes.{key}=WORD"], capsys)
    assert code == 2 and f"--set codes.{key}: a code's key is the level" in one_message(err)
    assert "1 to 100" in err and "--set codes.6=WORD" in err


def test_an_empty_profile_names_the_missing_tables(capsys, tmp_path):
    """It said only "KeyError('geometry')"."""
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    code, err = run([*GOOD, "--profile", str(empty)], capsys)
    assert code == 3 and "[geometry], [palette]" in one_message(err)
    assert "start from calibration/practice/profile.toml" in err


@pytest.mark.parametrize(
    "picture",
    [
        np.zeros((240, 320, 3), np.uint8),  # black, the window's size at 1x
        np.random.default_rng(2).integers(0, 256, (480, 640, 3), dtype=np.uint8),  # at 2x
        np.full((480, 640, 3), 255, np.uint8),  # a white picture (ImageMagick's logo: mostly)
    ],
    ids=["black", "noise", "white"],
)
def test_show_says_a_picture_of_the_windows_size_is_not_the_game(capsys, tmp_path, picture):
    """These gave exit 0 and "plan (0 key presses, proven fewest)"."""
    from PIL import Image

    png = tmp_path / "picture.png"
    Image.fromarray(picture).save(png)
    code, err = run(["show", "--screenshot", str(png)], capsys)
    assert code == 7
    assert re.fullmatch(
        r"logo-bot show: error: not the game: no level on it [^\n]+\n  what to do: [^\n]+\n", err
    ), err


def test_a_corrupt_level_file_names_file_line_and_column(capsys, tmp_path):
    levels = tmp_path / "levels.txt"
    levels.write_text("6 10\n..........\n..5.......\n" + "..........\n" * 4)
    code, err = run([*GOOD, "--set", f"game.levels={levels}"], capsys)
    assert code == 3 and f"{levels}:3:3" in one_message(err)


def test_a_display_that_cannot_be_opened(capsys):
    code, err = run([*GOOD, "--display", ":986"], capsys)
    assert code == 4 and "cannot open X display ':986'" in one_message(err)
    assert "--headless" in err


def test_a_wayland_session_without_an_x_display_says_how_to_start_fuse_there(capsys, monkeypatch):
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.delenv("DISPLAY", raising=False)
    code, err = run([*GOOD, "--attach"], capsys)  # (launched, it would run headless)
    assert code == 4 and "--attach needs the display your Fuse is on" in one_message(err)
    assert "GDK_BACKEND=x11 fuse-gtk" in err and "--headless" in err
    monkeypatch.setenv("DISPLAY", ":986")  # XWayland's display, but it does not open
    code, err = run(GOOD, capsys)
    assert code == 4 and "cannot open X display ':986'" in one_message(err)
    assert "GDK_BACKEND=x11 fuse-gtk" in err


def test_fuse_missing(capsys, monkeypatch, xserver, tmp_path):
    monkeypatch.setenv("PATH", "/nonexistent")
    code, err = run([*GOOD, "--display", xserver.display], capsys)
    assert code == 5 and "fuse-sdl is not installed" in one_message(err)
    runs = tmp_path / "runs"
    code, err = run([*GOOD[:-1], "--video-dir", str(runs), "--display", xserver.display], capsys)
    assert code == 5 and "fuse-sdl is not installed" in one_message(err)
    assert not (runs.exists() and list(runs.iterdir())), "no run folder left"


def test_a_fuse_that_will_not_start(capsys, monkeypatch, xserver, tmp_path):
    """A fuse-sdl that fails at start-up (a broken install, say): its own words are shown."""
    fake = tmp_path / "bin" / "fuse-sdl"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'SDL: cannot initialise the video driver' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    code, err = run([*GOOD, "--display", xserver.display], capsys)
    assert code == 5 and "Fuse exited during start-up (exit 1)" in one_message(err)
    assert "cannot initialise the video driver" in err


@pytest.mark.fuse
def test_a_program_that_is_not_the_game(capsys, xserver, tmp_path):
    from skoolkit import bin2sna

    binary, snapshot = tmp_path / "other.bin", tmp_path / "other.z80"
    binary.write_bytes(OTHER_PROGRAM)
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        bin2sna.main(["-o", "32768", "-s", "32768", str(binary), str(snapshot)])
    runs = tmp_path / "runs"
    argv = ["walkthrough", "--levels", "1", "--speed", "400", "--display", xserver.display]
    code, err = run(
        [*argv, "--snapshot", str(snapshot), "--no-video", "--video-dir", str(runs)], capsys
    )
    assert code == 8 and "the game never showed on screen" in one_message(err)
    picture = Path(re.search(r"see what the bot saw: (\S+\.png)", err).group(1))
    assert picture.is_file() and picture.parent.parent.parent == runs
    (folder,) = list(runs.iterdir())
    check = check_folder(folder, status="failed")
    assert check.ok, check.problems
    assert "never showed" in check.run["error"]


def test_no_subprocess_runs_through_a_shell():
    """Audit: user text (paths, names) must never reach a shell."""
    root = Path(__file__).resolve().parents[3]
    pattern = re.compile(r"shell\s*=\s*True|os\.system\(|os\.popen\(|getstatusoutput|getoutput\(")
    offenders = [
        f"{path.relative_to(root)}:{number}"
        for folder in ("bot", "solvers", "game", "calibration", "benchmarks", "scripts", "faults")
        for path in (root / folder).rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_a_run_refused_for_its_display_leaves_no_run_folder(capsys, tmp_path, xserver):
    """A display that does not open, or one with no Fuse to attach to, is refused before
    the run folder is made: nothing is left to clean up."""
    runs = tmp_path / "runs"
    walk = ["walkthrough", "--levels", "1", "--video-dir", str(runs)]
    code, err = run([*walk, "--display", ":986"], capsys)
    assert code == 4 and "cannot open X display ':986'" in one_message(err)
    code, err = run([*walk, "--attach", "--display", xserver.display], capsys)
    assert code != 0 and "Fuse" in one_message(err)
    assert not (runs.exists() and list(runs.iterdir())), "no run folder left"
