"""What a session makes of the display it found: its type for run.json, and under
XWayland no taking of the focus and the portal note for a new enough XWayland."""

from __future__ import annotations

import logging

from logo_bot.bot.fuse.assembly import SessionOptions, controls_for, found
from logo_bot.bot.x11.display import XServer
from logo_bot.bot.x11.xwayland import DisplayType


def test_a_plain_x_server_keeps_taking_the_focus_back():
    server = XServer(":5")
    controls = controls_for(SessionOptions(take_focus=True), server)
    assert controls.take_focus and not controls.xwayland
    assert found(SessionOptions(take_focus=True), server, controls).display_type == "x11"


def test_under_xwayland_the_bot_never_takes_the_focus(caplog):
    server = XServer(":6", kind=DisplayType.XWAYLAND, version=(22, 1, 9))
    with caplog.at_level(logging.INFO):
        controls = controls_for(SessionOptions(take_focus=True), server)
    assert controls.xwayland and not controls.take_focus
    used = found(SessionOptions(take_focus=True), server, controls)
    assert used.display_type == "xwayland" and not used.take_focus
    assert ":6 (XWayland 22.1.9)" in caplog.text
    assert "remote control" not in caplog.text, "no portal before XWayland 23.2"


def test_a_new_xwayland_warns_of_the_portal_dialog_for_xtest_keys(caplog):
    server = XServer(":7", kind=DisplayType.XWAYLAND, version=(24, 1, 0))
    controls_for(SessionOptions(key_backend="xtest"), server)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "XWayland 24.1.0" in warnings[0] and "allow" in warnings[0]


def test_keys_sent_to_fuses_window_need_no_portal(caplog):
    """XSendEvent is the X server's own delivery: the compositor's portal is not asked."""
    server = XServer(":7", kind=DisplayType.XWAYLAND, version=(24, 1, 0))
    controls_for(SessionOptions(), server)
    assert [r for r in caplog.records if r.levelno == logging.WARNING] == []
