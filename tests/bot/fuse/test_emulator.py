import logging
import os
import shutil
import time
from pathlib import Path

import pytest

from logo_bot.bot.errors import DisplayError, EmulatorError, InputError
from logo_bot.bot.fuse.attached import native_wayland_fuses, running_fuses
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.window import fuse_window_of, window_pid, window_title


@pytest.mark.fuse
def test_fuse_starts_with_a_private_home_and_stops_cleanly(xserver):
    fuse = Fuse.start(FuseConfig(), xserver.display)
    try:
        assert fuse.alive()
        assert fuse.home.is_dir() and fuse.home != Path.home()
        dpy = open_display(xserver.display)
        window = fuse_window_of(dpy, fuse.pid)
        assert window is not None and window.id == fuse.window_id
        assert window_pid(dpy, fuse.window_id) == fuse.pid
        # fuse-sdl names its window a moment after it shows it (a busy CI: after the check)
        deadline = time.monotonic() + 30
        while not (title := window_title(window)):
            assert time.monotonic() < deadline, "Fuse never named its window"
            time.sleep(0.02)
        assert title.startswith("Fuse"), title
        dpy.close()
    finally:
        code = fuse.stop()
    assert code == 0, "SIGTERM with --no-confirm-actions exits cleanly"
    assert not fuse.killed
    assert not fuse.home.exists()


@pytest.mark.fuse
def test_the_clock_of_fuses_frames_starts_when_its_window_shows_not_at_launch(
    xserver, tmp_path, monkeypatch
):
    """Fuse loads for seconds on a busy machine before its first frame: a clock started at
    the launch ran that far ahead of the movie (a 3 s load at 200 %: levels 1 and 2 were
    given level 3's frames). It starts when the window shows."""
    slow = tmp_path / "bin" / "fuse-sdl"
    slow.parent.mkdir()
    slow.write_text(f'#!/bin/sh\nsleep 1\nexec {shutil.which("fuse-sdl")} "$@"\n')
    slow.chmod(0o755)
    monkeypatch.setenv("PATH", f"{slow.parent}{os.pathsep}{os.environ['PATH']}")
    launched = time.monotonic()
    with Fuse.start(FuseConfig(), xserver.display) as fuse:
        shown = time.monotonic()
        assert launched + 1.0 <= fuse.started_at <= shown


@pytest.mark.fuse
@pytest.mark.parametrize("build", ["sdl", "gtk"])
def test_fuse_is_an_x_client_whatever_the_wayland_session_prefers(xserver, monkeypatch, build):
    """In a Wayland session a later Fuse (GTK, or SDL 2) could come up as a Wayland
    window, where the bot can neither see nor press keys: it is started as an X client,
    outside the session (no WAYLAND_DISPLAY), and never taken for a native-Wayland Fuse
    of the person's (``--attach`` must not mistake a headless run's Fuse for one)."""
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-logo-bot-none")
    monkeypatch.setenv("GDK_BACKEND", "wayland")
    monkeypatch.setenv("SDL_VIDEODRIVER", "wayland")
    with Fuse.start(FuseConfig(build=build), xserver.display) as fuse:  # its X window shown
        raw = Path(f"/proc/{fuse.pid}/environ").read_bytes().decode()
        assert fuse.pid in [f.pid for f in running_fuses()]
        assert not native_wayland_fuses("wayland-logo-bot-none")
        assert fuse.pid not in [f.pid for f in native_wayland_fuses()]
    env = dict(item.split("=", 1) for item in raw.split("\0") if "=" in item)
    assert (env["GDK_BACKEND"], env["SDL_VIDEODRIVER"]) == ("x11", "x11")
    assert "WAYLAND_DISPLAY" not in env and env["DISPLAY"] == xserver.display


@pytest.mark.fuse
@pytest.mark.parametrize(("build", "asked_with"), [("sdl", "SIGTERM"), ("gtk", "close message")])
def test_a_fuse_that_does_not_quit_when_asked_is_killed_with_a_warning(
    xserver, caplog, build, asked_with
):
    """With --confirm-actions Fuse answers SIGTERM (fuse-sdl) or the close message
    (fuse-gtk) with an "exit?" question and goes on: stop() kills it after the timeout,
    warns that its files may be cut short, and says so in ``killed``."""
    config = FuseConfig(build=build, extra_args=("--confirm-actions",))
    fuse = Fuse.start(config, xserver.display)
    with caplog.at_level(logging.WARNING, logger="logo_bot.bot.fuse.emulator"):
        code = fuse.stop(timeout=1)
    assert code == -9 and fuse.killed
    assert f"Fuse (pid {fuse.pid}) did not quit within 1 s of" in caplog.text, caplog.text
    assert asked_with in caplog.text and "may be cut short" in caplog.text
    assert not fuse.home.exists()


@pytest.mark.fuse
def test_two_fuses_on_one_display_are_told_apart_by_pid(xserver):
    with (
        Fuse.start(FuseConfig(), xserver.display) as a,
        Fuse.start(FuseConfig(), xserver.display) as b,
    ):
        assert a.window_id != b.window_id
        dpy = open_display(xserver.display)
        assert fuse_window_of(dpy, a.pid).id == a.window_id
        assert fuse_window_of(dpy, b.pid).id == b.window_id
        assert fuse_window_of(dpy) is None, "two candidates without a PID: ambiguous"
        dpy.close()


@pytest.mark.fuse
def test_kill_is_a_crash(xserver):
    fuse = Fuse.start(FuseConfig(), xserver.display)
    fuse.kill()
    assert not fuse.alive()
    assert fuse.stop() == -9


def test_missing_rom_is_refused_before_start(tmp_path):
    with pytest.raises(InputError, match=r"ROM file .* does not exist") as info:
        Fuse.start(FuseConfig(rom=tmp_path / "none.rom"), ":986")
    assert info.value.exit_code == 3, "a missing file is bad input"


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("bad.z80", b"not a snapshot", "30-byte header"),
        ("bad.szx", b"ZXS" + bytes(100), "starts with 'ZXST'"),
        ("bad.sna", bytes(1000), "49179 bytes"),
        ("bad.bin", bytes(100), "unknown snapshot type"),
    ],
)
def test_a_file_that_is_not_a_snapshot_is_refused(tmp_path, name, content, words):
    bad = tmp_path / name
    bad.write_bytes(content)
    with pytest.raises(InputError, match="cannot be loaded") as info:
        Fuse.start(FuseConfig(snapshot=bad), ":986")
    assert words in str(info.value)


def test_a_broken_tape_is_refused(tmp_path):
    bad = tmp_path / "bad.tap"
    bad.write_bytes(b"\x13\x00" + bytes(5))
    with pytest.raises(InputError, match="block lengths"):
        Fuse.start(FuseConfig(tape=bad), ":986")


@pytest.mark.fuse
def test_fuse_that_dies_at_start_up_is_reported(xserver):
    config = FuseConfig(extra_args=("--machine", "bogus"))
    with pytest.raises(EmulatorError, match="Fuse exited during start-up"):
        Fuse.start(config, xserver.display, timeout=5)


def test_missing_fuse_binary(xserver, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(EmulatorError, match="fuse-sdl is not installed"):
        Fuse.start(FuseConfig(), xserver.display)
    assert os.environ["PATH"] == "/nonexistent"


def test_display_that_cannot_be_opened(tmp_path):
    with pytest.raises(DisplayError, match="cannot open X display ':986'"):
        Fuse.start(FuseConfig(), ":986")


def test_relative_paths_reach_fuse_as_absolute_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.tap").write_bytes(b"\x02\x00\x00\x00")
    command = FuseConfig(tape=Path("g.tap"), record=Path("out/run.rzx")).command()
    assert command[command.index("--tape") + 1] == str(tmp_path / "g.tap")
    assert command[command.index("--record") + 1] == str(tmp_path / "out" / "run.rzx")
