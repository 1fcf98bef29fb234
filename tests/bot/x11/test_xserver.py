import os

import pytest

from logo_bot.bot.errors import DisplayError
from logo_bot.bot.x11.display import XServer, display_type, open_display, runs_headless
from logo_bot.bot.x11.xwayland import DisplayType, portal_note, wayland_session, xwayland_version


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


def test_a_wayland_session_with_no_x_display_says_to_start_fuse_as_an_x_client(monkeypatch):
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    monkeypatch.delenv("DISPLAY", raising=False)
    assert wayland_session()
    assert display_type() is DisplayType.NONE
    with pytest.raises(DisplayError, match="Wayland session without an X display") as info:
        XServer.existing()
    assert "GDK_BACKEND=x11 fuse-gtk" in str(info.value)


def test_xwayland_versions_read_from_the_vendor_release_and_the_portal_note():
    class Info:
        release_number = 12201009  # Debian 12's Xwayland 22.1.9

    class Dpy:
        display = type("D", (), {"info": Info})

    assert xwayland_version(Dpy()) == (22, 1, 9)  # type: ignore[arg-type]
    assert portal_note((22, 1, 9)) is None and portal_note((23, 1, 2)) is None
    note = portal_note((23, 2, 0))
    assert note is not None and "XWayland 23.2.0" in note and "allow" in note


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
