"""End-to-end: a Fuse restart that fails is tried once more, and a session whose restart
failed still closes cleanly (its Xvfb stopped, no error from parts closed twice)."""

from __future__ import annotations

import time

import pytest

from logo_bot.bot.errors import EmulatorError
from logo_bot.bot.fuse import session as session_module
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.profile import load_profile

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")


def test_a_restart_that_fails_twice_is_an_emulator_error_and_the_session_still_closes(
    monkeypatch,
):
    session = open_session(PROFILE, SessionOptions(headless=True))
    xvfb = session.xserver.process
    assert xvfb is not None
    tries = []

    def no_window(*args, **kwargs):
        tries.append(args)
        raise EmulatorError("Fuse did not show its window within 10 s: (a test)")

    try:
        monkeypatch.setattr(session_module.Fuse, "start", no_window)
        with pytest.raises(EmulatorError, match="did not show its window"):
            session.restart()
        assert len(tries) == 2, "tried once more"
    finally:
        session.close()  # before: python-xlib's ConnectionClosedError, Xvfb left running
    assert xvfb.poll() is not None, "the session's Xvfb was stopped"
    assert not session.fuse.alive()


def test_a_restart_that_fails_once_goes_on_with_the_second_fuse(monkeypatch):
    real_start = session_module.Fuse.start
    failures = []

    def once_slow(*args, **kwargs):
        if not failures:
            failures.append(1)
            raise EmulatorError("Fuse did not show its window within 10 s: (a test)")
        return real_start(*args, **kwargs)

    with open_session(PROFILE, SessionOptions(headless=True)) as session:
        first = session.fuse.pid
        monkeypatch.setattr(session_module.Fuse, "start", once_slow)
        session.restart()
        assert session.fuse.alive() and session.fuse.pid != first
        deadline = time.monotonic() + 30  # bounded against a hung Fuse only
        while not session.grabber.grab().any():  # the new Fuse draws its first picture
            assert time.monotonic() < deadline, "the restarted Fuse never showed a picture"
            time.sleep(0.01)
