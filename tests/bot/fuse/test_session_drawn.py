"""``Session.drawn_within``: whether Fuse drew within a while after the last look, as
the session's picture watch knows it, on a plain X window the test draws into."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

from logo_bot.bot.fuse.session import Session
from logo_bot.bot.x11.damage import DamageWatch
from logo_bot.bot.x11.picture_watch import PollWatch
from tests.bot.canvas import LONG_S, RED, canvas_on


def drawn_within(watch, seconds: float) -> bool | None:
    return Session.drawn_within(SimpleNamespace(watch=watch), seconds)  # type: ignore[arg-type]


def test_damage_reports_say_drawn_or_not(xserver):
    with canvas_on(xserver.display) as canvas, DamageWatch(xserver.display, canvas.id) as watch:
        watch.look(canvas.grab)
        assert drawn_within(watch, 0.05) is False, "nothing was drawn"
        painter = threading.Timer(0.05, canvas.paint, (RED,))
        painter.start()
        started = time.monotonic()
        try:
            assert drawn_within(watch, LONG_S) is True
        finally:
            painter.join()
        assert time.monotonic() - started < LONG_S / 2, "woken by the report"


def test_a_watch_turned_to_polling_cannot_say(xserver):
    with canvas_on(xserver.display) as canvas, DamageWatch(xserver.display, canvas.id) as watch:
        watch.look(canvas.grab)
        watch.missed = "given up"
        assert drawn_within(watch, 0.01) is None


def test_polling_cannot_say():
    assert drawn_within(PollWatch(0.001), 0.01) is None
    assert drawn_within(None, 0.01) is None
