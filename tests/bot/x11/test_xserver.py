import os

import pytest

from bot.errors import DisplayError
from bot.x11.display import XServer, open_display, runs_headless, wayland_session


@pytest.mark.xserver
def test_private_xvfb_starts_on_a_free_display_and_stops():
    with XServer.start() as first, XServer.start() as second:
        assert first.display != second.display
        for server in (first, second):
            dpy = open_display(server.display)
            assert dpy.screen().root_depth == 24
            dpy.close()
        pid = first.process.pid
    assert first.process.poll() is not None and second.process.poll() is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_existing_display_that_cannot_be_opened_says_so(monkeypatch):
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(DisplayError, match="cannot open X display ':987'"):
        XServer.existing(":987")


def test_no_display_at_all(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    with pytest.raises(DisplayError, match="no X display") as info:
        XServer.existing()
    assert "--headless" in str(info.value)


def test_wayland_is_detected(monkeypatch):
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    assert wayland_session()
    with pytest.raises(DisplayError, match="Wayland"):
        XServer.existing(":0")


def test_missing_xvfb_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(DisplayError, match="Xvfb is not installed"):
        XServer.start()


def test_displays_open_without_any_xauthority_file(xserver, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XAUTHORITY", raising=False)
    open_display(xserver.display).close()


@pytest.mark.parametrize(
    ("asked", "display", "env", "headless"),
    [
        (True, None, ":5", True),  # --headless wins over $DISPLAY
        (True, ":7", None, True),
        (False, None, None, False),  # --display given: never headless
        (None, None, ":5", False),  # $DISPLAY set: that display
        (None, ":7", None, False),
        (None, None, None, True),  # nothing at all: a private Xvfb
        (None, None, "", True),  # an empty DISPLAY is none
    ],
)
def test_the_one_headless_rule(monkeypatch, asked, display, env, headless):
    """Playing (the session) and replaying use this one rule."""
    if env is None:
        monkeypatch.delenv("DISPLAY", raising=False)
    else:
        monkeypatch.setenv("DISPLAY", env)
    assert runs_headless(asked, display) is headless
