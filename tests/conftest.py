"""Shared fixtures: a private Xvfb for the whole test session (CI has no display), and
recordings that go to a temporary folder unless a test names its own; and a check that
the ``fuse`` mark is on exactly the tests that run Fuse (tests/fuse_marks.py)."""

from __future__ import annotations

import pytest

from bot.x11.display import XServer
from tests.fuse_marks import FuseWatch, verdict


@pytest.fixture(scope="session")
def xserver():
    """A private ``Xvfb -noreset`` on a free display number, stopped at the end."""
    with XServer.start() as server:
        yield server


@pytest.fixture(autouse=True)
def recordings_in_tmp(tmp_path_factory, monkeypatch):
    """No test writes into the repository's recordings/: the default root is temporary."""
    monkeypatch.setenv("LOGO_BOT_RECORDINGS", str(tmp_path_factory.mktemp("recordings")))


FUSE_FIXTURES: set[str] = set()  # fixtures whose setup ran Fuse (module-scoped runs)
_ran: dict[str, bool] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    with FuseWatch() as watch:
        yield
    if watch.ran_fuse:
        FUSE_FIXTURES.add(fixturedef.argname)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    with FuseWatch() as watch:
        yield
    _ran[item.nodeid] = watch.ran_fuse


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    with FuseWatch() as watch:
        outcome = yield
    ran = watch.ran_fuse or _ran.pop(item.nodeid, False)
    ran = ran or any(name in FUSE_FIXTURES for name in item.fixturenames)
    wrong = verdict(item.get_closest_marker("fuse") is not None, ran)
    if wrong is not None and outcome.excinfo is None:
        outcome.force_exception(pytest.fail.Exception(f"{item.nodeid}: {wrong}"))
