"""Shared fixtures: a private Xvfb for the whole test session (CI has no display), and
recordings that go to a temporary folder unless a test names its own."""

from __future__ import annotations

import pytest

from bot.x11.display import XServer


@pytest.fixture(scope="session")
def xserver():
    """A private ``Xvfb -noreset`` on a free display number, stopped at the end."""
    with XServer.start() as server:
        yield server


@pytest.fixture(autouse=True)
def recordings_in_tmp(tmp_path_factory, monkeypatch):
    """No test writes into the repository's recordings/: the default root is temporary."""
    monkeypatch.setenv("LOGO_BOT_RECORDINGS", str(tmp_path_factory.mktemp("recordings")))
