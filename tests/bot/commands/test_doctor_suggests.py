"""``logo-bot doctor`` suggests only commands that work on this machine: each program is
hidden in turn (a PATH of small scripts that print a version, without it), and every
command doctor then suggests passes the checks a run makes before it starts (the run
itself is replaced: no program is started)."""

from __future__ import annotations

import re
import shlex

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.commands import machine_checks, walkthrough

PROGRAMS = {
    "fuse-sdl": "The Free Unix Spectrum Emulator (Fuse) version 1.6.0.",
    "fuse-gtk": "The Free Unix Spectrum Emulator (Fuse) version 1.6.0.",
    "Xvfb": "X.Org X Server 1.21.1.7",
    "ffmpeg": "ffmpeg version 5.1.9",
    "ffprobe": "ffprobe version 5.1.9",
    "fmfconv": "fmfconv (fuse-utils 1.4.3) 0.5",
    "pasmo": "Pasmo v. 0.5.3",
}


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """A machine without a display, its programs scripts in one folder: hide(*names)
    leaves those out; the OpenCV fallback is there unless "OpenCV" is hidden."""

    def hide(*names: str) -> None:
        folder = tmp_path / "bin"
        folder.mkdir()
        for name, line in PROGRAMS.items():
            if name not in names:
                script = folder / name
                script.write_text(f"#!/bin/sh\necho '{line}'\n")
                script.chmod(0o755)
        monkeypatch.setenv("PATH", str(folder))
        monkeypatch.setattr(machine_checks, "opencv", lambda: "OpenCV" not in names)

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(machine_checks, "xvfb", machine_checks.xvfb_program)  # not started
    return hide


def suggested(capsys) -> list[str]:
    """The commands doctor prints for the runs that can go."""
    main(["doctor"])
    out = capsys.readouterr().out
    return re.findall(r"^  [a-z ]+ yes  (logo-bot .+)$", out, re.MULTILINE)


@pytest.mark.parametrize(
    "hidden",
    [
        (),
        ("fuse-sdl",),
        ("fuse-gtk",),
        ("ffmpeg",),
        ("ffmpeg", "OpenCV"),
        ("ffprobe",),
        ("fmfconv",),
        ("pasmo",),
        ("fuse-sdl", "fmfconv"),
    ],
    ids=lambda hidden: "+".join(hidden) or "nothing",
)
def test_every_command_doctor_suggests_passes_the_runs_own_checks(
    hidden, machine, capsys, monkeypatch, tmp_path
):
    """With fuse-gtk alone it suggested walkthrough --headless, which then exited 5."""
    machine(*hidden)
    commands = suggested(capsys)
    assert commands, "a headless run can go without any of these"
    started: list[walkthrough.RunOptions] = []
    monkeypatch.setattr(walkthrough, "run", lambda options: started.append(options) or 0)
    for command in commands:
        argv = shlex.split(command)[1:]
        code = main([*argv, "--video-dir", str(tmp_path / "runs")])
        assert (code, capsys.readouterr().err) == (0, ""), command
    assert len(started) == len(commands)
    if "fuse-sdl" in hidden:
        assert all(o.session.fuse_build == "gtk" for o in started)


def test_without_xvfb_or_a_display_no_run_is_suggested(machine, capsys):
    machine("Xvfb")
    assert suggested(capsys) == []
