"""Shared fixtures: a private Xvfb for the whole test session (CI has no display)."""

from __future__ import annotations

import pytest

from bot.xserver import XServer


@pytest.fixture(scope="session")
def xserver():
    """A private ``Xvfb -noreset`` on a free display number, stopped at the end."""
    with XServer.start() as server:
        yield server
