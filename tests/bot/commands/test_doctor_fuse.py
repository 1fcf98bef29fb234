"""End-to-end: ``logo-bot doctor`` on this machine, as it is (every program the set-up
installs is here), on the test's own X display: with no Fuse window, then with one."""

from __future__ import annotations

import os
import re
import shutil

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.commands import doctor, machine_checks
from logo_bot.bot.commands.machine_checks import HEADLESS
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig


def doctor_on(display: str, monkeypatch, capsys) -> tuple[int, str]:
    monkeypatch.setenv("DISPLAY", display)
    for name in ("WAYLAND_DISPLAY", "XDG_SESSION_TYPE"):
        monkeypatch.delenv(name, raising=False)
    code = main(["doctor"])
    return code, capsys.readouterr().out


@pytest.mark.xserver
def test_doctor_finds_everything_and_no_fuse_window_to_attach_to(xserver, monkeypatch, capsys):
    code, out = doctor_on(xserver.display, monkeypatch, capsys)
    assert code == 0, out
    for item in ("Python packages", "48K ROM", "practice game", "ffmpeg", "ffprobe", "fmfconv"):
        assert re.search(rf"^  ok  {item} ", out, re.MULTILINE), (item, out)
    assert re.search(r"^  ok  fuse-sdl +1\.\d+\.\d+ \(", out, re.MULTILINE), out
    assert re.search(r"^  ok  Xvfb +starts, with XTEST", out, re.MULTILINE), out
    assert f"ok  display {xserver.display}" in out and "X11, window manager: none" in out
    assert re.search(r"^  ok  keys +sent to Fuse's window; also through XTest", out, re.M), out
    assert "NO  Fuse window" in out and "none open" in out
    assert "headless         yes  logo-bot walkthrough --headless" in out
    assert "on this display  yes  logo-bot walkthrough" in out
    assert "attached         no   Fuse window: none open" in out


@pytest.mark.fuse
def test_doctor_sees_an_open_fuse_window_to_attach_to(xserver, monkeypatch, capsys):
    with Fuse.start(FuseConfig(), xserver.display) as fuse:
        code, out = doctor_on(xserver.display, monkeypatch, capsys)
    assert code == 0, out
    assert f"{fuse.window_id:#x} (fuse-sdl)" in out
    assert "attached         yes  logo-bot walkthrough --attach" in out


@pytest.mark.xserver
def test_doctor_tells_xwayland_from_a_plain_x_server(wayland, monkeypatch, capsys):
    """On weston's XWayland: the server itself says so, not only the session's variables."""
    shown = rf"^  ok  display {re.escape(wayland.display)} +XWayland, window manager: Weston WM$"
    for name, value in wayland.env().items():
        monkeypatch.setenv(name, value)
    main(["doctor"])
    out = capsys.readouterr().out
    assert re.search(shown, out, re.MULTILINE), out
    monkeypatch.delenv("WAYLAND_DISPLAY")
    monkeypatch.delenv("XDG_SESSION_TYPE")
    main(["doctor"])
    out = capsys.readouterr().out
    assert re.search(shown, out, re.MULTILINE), "found from the server, not the variables"


@pytest.mark.xserver
def test_an_xvfb_without_xtest_still_runs_headless_with_the_default_keys(
    monkeypatch, tmp_path, capsys
):
    """The default keys are sent to Fuse's window, which needs no XTEST: only
    ``--keys xtest`` does, and doctor says so instead of refusing headless runs."""
    folder = tmp_path / "bin"
    folder.mkdir()
    wrapper = folder / "Xvfb"
    wrapper.write_text(f'#!/bin/sh\nexec {shutil.which("Xvfb")} "$@" -extension XTEST\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    found = machine_checks.xvfb()
    assert found.ok and found.detail.startswith("starts, without XTEST: not --keys xtest"), found
    assert doctor.readiness([found])[0] == doctor.Readiness(HEADLESS, True)
