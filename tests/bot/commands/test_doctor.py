"""``logo-bot doctor`` and ``logo-bot --version`` without X, Fuse or ffmpeg: programs
missing (a PATH without them) or faked by small scripts that print a version."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.commands import display_checks, doctor, fuse_window, machine_checks
from logo_bot.bot.commands.display_checks import display_kind, display_state
from logo_bot.bot.commands.machine_checks import (
    ATTACHED,
    HEADLESS,
    LAUNCHED,
    ON_DISPLAY,
    VIDEO,
    Check,
    program,
    python_packages,
)
from logo_bot.bot.errors import BotError
from logo_bot.bot.fuse.attached import FuseProcess
from logo_bot.bot.x11.display import XServer


def fake_program(folder: Path, name: str, first_line: str) -> None:
    folder.mkdir(exist_ok=True)
    script = folder / name
    script.write_text(f"#!/bin/sh\necho '{first_line}'\necho 'more text'\n")
    script.chmod(0o755)


@pytest.fixture
def bare_path(monkeypatch, tmp_path) -> Path:
    """PATH is one empty folder (add fake programs to it); no display of any kind."""
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE"):
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.mark.parametrize(
    ("first_line", "version"),
    [
        ("The Free Unix Spectrum Emulator (Fuse) version 1.6.0.", "1.6.0"),
        ("Pasmo v. 0.5.3 (C) 2004-2005 Julian Albo", "0.5.3"),
        ("ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026", "5.1.9-0+deb12u1"),
        ("fmfconv (fuse-utils 1.4.3) 0.5", "fmfconv (fuse-utils 1.4.3) 0.5"),
    ],
)
def test_a_programs_version_is_the_word_after_version_else_its_first_line(
    bare_path, first_line, version
):
    fake_program(bare_path, "tool", first_line)
    found = program("tool", "tool-deb", "for tests", {HEADLESS}, flag="--version")
    assert found == Check("tool", True, f"{version} ({bare_path / 'tool'})", "", {HEADLESS})


def test_a_missing_program_names_its_debian_package_and_what_it_is_for(bare_path):
    found = program("fmfconv", "fuse-emulator-utils", "Fuse's movie into video", {VIDEO})
    assert not found.ok and found.blocks == {VIDEO}
    assert found.detail == "not found (Fuse's movie into video)"
    assert found.fix == "install: sudo apt-get install fuse-emulator-utils"


def test_nothing_installed_means_no_run_and_every_fix_said(bare_path, capsys):
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    for package in ("fuse-emulator-sdl", "fuse-emulator-gtk", "xvfb", "ffmpeg", "pasmo"):
        assert f"install: sudo apt-get install {package}" in out
    assert "fuse-emulator-utils" in out  # fmfconv
    assert "  NO  Fuse " in out and "neither build is installed" in out
    assert "  --  pasmo " in out, "pasmo only builds the game: a note, not a stop"
    assert "  --  fuse-sdl " in out, "one build alone stops nothing"
    assert "headless         no   Fuse: neither build is installed" in out
    assert "on this display  no   Fuse: neither build is installed" in out
    assert "attached         no   display: none: DISPLAY is empty" in out


def test_either_fuse_build_is_enough_and_version_names_both(bare_path, capsys):
    fake_program(bare_path, "fuse-gtk", "The Free Unix Spectrum Emulator (Fuse) version 1.6.0.")
    assert not any(c.item == "Fuse" for c in doctor.machine())
    assert main(["--version"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("logo-bot 0.")
    assert lines[1:] == [
        "fuse-sdl not found (the default build); install: sudo apt-get install fuse-emulator-sdl",
        f"fuse-gtk 1.6.0 ({bare_path / 'fuse-gtk'})",
    ]


def test_python_packages_missing_or_below_their_floor_say_how_to_install():
    assert python_packages(["numpy>=1.0", "mss"]).ok
    found = python_packages(["numpy>=999.0", "no-such-package-here>=1", "mss"])
    assert not found.ok and found.blocks == LAUNCHED | {ATTACHED}
    assert found.detail == "missing or too old: numpy>=999.0, no-such-package-here>=1"
    assert "-m pip install 'numpy>=999.0' 'no-such-package-here>=1'" in found.fix


def test_the_bots_own_requirements_are_checked():
    names = python_packages().detail
    for name in ("numpy", "python-xlib", "skoolkit", "platformdirs"):
        assert f"{name} " in names


def test_no_rom_names_opense_basic(tmp_path):
    found = machine_checks.rom(tmp_path / "opense.rom")
    assert not found.ok and found.blocks == LAUNCHED
    assert "sudo apt-get install opense-basic" in found.fix
    (tmp_path / "opense.rom").write_bytes(bytes(16384))
    assert machine_checks.rom(tmp_path / "opense.rom").ok


def test_no_practice_game_says_to_build_it_or_reinstall(monkeypatch, tmp_path):
    monkeypatch.setattr(machine_checks, "package_file", lambda name: tmp_path / "none.z80")
    found = machine_checks.practice_game()
    assert not found.ok and "./scripts/setup.sh" in found.fix, "a checkout builds it"
    monkeypatch.setattr(machine_checks, "checkout_root", lambda: None)
    assert "reinstall logo-bot" in machine_checks.practice_game().fix
    assert machine_checks.practice_game().blocks == LAUNCHED


@pytest.mark.parametrize(
    ("environ", "kind"),
    [
        ({}, "none"),
        ({"DISPLAY": ":59999"}, "X11"),
        ({"DISPLAY": ":59999", "XDG_SESSION_TYPE": "x11"}, "X11"),
        ({"DISPLAY": ":59999", "XDG_SESSION_TYPE": "wayland"}, "XWayland"),
        (
            {"DISPLAY": ":59999", "WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"},
            "XWayland",
        ),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "Wayland only"),
    ],
)
def test_the_kind_of_display(monkeypatch, environ, kind):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert display_kind() == kind


def test_runs_on_a_wayland_only_desktop_are_refused_with_the_bots_own_words(monkeypatch):
    monkeypatch.setattr(fuse_window, "wayland_fuses", lambda display: [])  # none of ours
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    state = display_state()
    assert state.kind == "Wayland only" and state.refused == "DISPLAY is empty"
    monkeypatch.setenv("DISPLAY", ":59999")
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    state = display_state()
    with pytest.raises(BotError) as refused:  # doctor's verdict is the bot's own rule
        XServer.existing(":59999")
    assert state.kind == "XWayland" and state.refused.startswith(str(refused.value))
    (found,) = display_checks.on_display(state)
    assert not found.ok and found.blocks == {ON_DISPLAY, ATTACHED}


def test_the_video_tools_missing_let_runs_go_only_with_no_video():
    found = [
        Check("fuse-sdl", True, "1.6.0"),
        Check("ffmpeg", False, "not found", "install: ffmpeg", frozenset({VIDEO})),
        Check("display", False, "none", "do: --headless", frozenset({ON_DISPLAY, ATTACHED})),
    ]
    kinds = doctor.readiness(found)
    assert [(v.kind, v.can) for v in kinds] == [
        (HEADLESS, True),
        (ON_DISPLAY, False),
        (ATTACHED, False),
    ]
    assert not doctor.can_walk(found, kinds)
    assert "only with --no-video (no video.mp4) until ffmpeg is there" in doctor.report(
        found, kinds
    )
    assert doctor.can_walk(found[::2], doctor.readiness(found[::2]))


def test_without_ffmpeg_opencv_writes_the_video_so_ffmpeg_is_only_a_note(bare_path, monkeypatch):
    monkeypatch.setattr(machine_checks, "opencv", lambda: True)
    found = machine_checks.video_writer()
    assert not found.ok and not found.blocks, "a run makes its video all the same"
    assert "OpenCV writes video.mp4 instead" in found.detail
    assert found.fix == "install: sudo apt-get install ffmpeg"
    monkeypatch.setattr(machine_checks, "opencv", lambda: False)
    assert machine_checks.video_writer().blocks == {VIDEO}


def test_ffprobe_missing_stops_no_run(bare_path):
    (ffprobe,) = [c for c in machine_checks.video_programs() if c.item == "ffprobe"]
    assert not ffprobe.ok and not ffprobe.blocks


def test_a_native_wayland_fuse_is_named_where_no_x_display_opens(monkeypatch):
    native = FuseProcess(4242, "fuse-gtk", {"WAYLAND_DISPLAY": "wayland-0"})
    monkeypatch.setattr(fuse_window, "wayland_fuses", lambda display: [native])
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    refused, fuse = display_checks.on_display(display_state())
    assert refused.item == "display" and not refused.ok
    assert fuse.detail.startswith("no X display: fuse-gtk (pid 4242) is a native Wayland window")
    assert "GDK_BACKEND=x11" in fuse.fix and fuse.blocks == {ATTACHED}


BLOCK_XLIB = """
import importlib.abc, sys

class NoXlib(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "Xlib":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, NoXlib())
from logo_bot.bot.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("argv", [["doctor"], ["--version"], ["walkthrough"]])
def test_without_python_xlib_doctor_and_version_say_so_without_a_traceback(argv):
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_XLIB, *argv], capture_output=True, text=True, timeout=60
    )
    assert "Traceback" not in done.stderr, done.stderr
    if argv == ["--version"]:
        assert done.returncode == 0
        assert re.match(r"fuse-sdl ", done.stdout.splitlines()[1]), "builds known without X"
        return
    if argv == ["walkthrough"]:  # a run: one error naming the module, and doctor
        assert done.returncode == 1 and done.stdout == ""
        assert "error: the Python module Xlib cannot be imported" in done.stderr
        assert "'logo-bot doctor' names it" in done.stderr
        return
    assert done.returncode == 1, done.stdout
    assert "  NO  Python packages     cannot import Xlib (python-xlib)" in done.stdout
    assert "--force-reinstall 'python-xlib>=0.33'" in done.stdout
    assert re.search(r"^  ok  ffmpeg ", done.stdout, re.MULTILINE), "the programs are listed"
    assert "headless         no   Python packages: cannot import Xlib" in done.stdout
