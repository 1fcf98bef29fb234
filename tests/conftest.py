"""Shared fixtures and checks: a private Xvfb per test process (CI has no display);
recordings that go to a temporary folder unless a test names its own; marks that tell
the truth about the programs a test runs, and no program left running after a module
(tests/programs.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

import pytest

from faults.wayland import wayland_desktop
from logo_bot.bot import interrupts
from logo_bot.bot.x11.display import XServer
from tests.gtk_look import pin_fonts
from tests.keys_down import release_keys_down
from tests.programs import LONG, MARKS, SLOW, ProgramLog, alive, verdict, worker_log, write_shims

QUICK = os.environ.get("LOGO_TEST_QUICK") == "1"
_log: ProgramLog | None = None
_shims: Path | None = None
FIXTURE_PROGRAMS: dict[str, set[str]] = {}  # fixture name -> programs its setup ran
SESSION_PIDS: set[int] = set()  # the session's Xvfb: it outlives modules
_setup_programs: dict[str, set[str]] = {}


def pytest_configure(config):
    global _log, _shims
    for mark, text in (*MARKS.items(), SLOW, LONG):
        config.addinivalue_line("markers", f"{mark}: {text}")
    if config.getoption("numprocesses", None) and not hasattr(config, "workerinput"):
        return  # the xdist controller runs no test; each worker watches its own
    _shims = Path(tempfile.mkdtemp(prefix="logo-bot-tests-"))
    _log = worker_log(_shims)
    write_shims(_shims / "bin", _log.path, quick=QUICK)
    pin_fonts(_shims)  # fuse-gtk's bars follow the font: the same on every machine
    os.environ["PATH"] = f"{_shims / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"


def pytest_unconfigure(config):
    if _shims is not None:
        shutil.rmtree(_shims, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "xserver" in item.fixturenames:
            item.add_marker(pytest.mark.xserver)
    # the long tests first, then modules that run Fuse, each module's tests still together
    # and in order: side by side, the long end-to-end tests start early instead of ending
    # the run alone
    with_fuse = {item.module.__name__ for item in items if item.get_closest_marker("fuse")}

    def order(item: pytest.Item) -> tuple[bool, bool]:
        return not item.get_closest_marker("long"), item.module.__name__ not in with_fuse

    items.sort(key=order)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Side by side (``-n N``), a module's shared fixture is set up once (tests/scheduling.py)."""
    if config.getvalue("dist") != "load":
        return None
    from tests.scheduling import SharedFixtureScheduling

    return SharedFixtureScheduling(config, log)


def _offset() -> int:
    """Where this worker's program log ends now."""
    return _log.size() if _log is not None else 0


def _programs_since(offset: int) -> list[tuple[int, str]]:
    return _log.since(offset) if _log is not None else []


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    offset = _offset()
    yield
    runs = _programs_since(offset)
    if runs:
        FIXTURE_PROGRAMS.setdefault(fixturedef.argname, set()).update(n for _, n in runs)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    offset = _offset()
    yield
    _setup_programs[item.nodeid] = {name for _, name in _programs_since(offset)}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    offset = _offset()
    outcome = yield
    if _log is None:
        return
    ran = {name for _, name in _programs_since(offset)} | _setup_programs.pop(item.nodeid, set())
    for name in item.fixturenames:
        ran |= FIXTURE_PROGRAMS.get(name, set())
    marks = {m.name for m in item.iter_markers() if m.name in MARKS}
    wrong = verdict(marks, ran, uses_xserver="xserver" in item.fixturenames)
    if wrong is not None and outcome.excinfo is None:
        outcome.force_exception(pytest.fail.Exception(f"{item.nodeid}: {wrong}"))


@pytest.fixture(scope="module", autouse=True)
def nothing_left_running():
    """Every program this module's tests started has ended by the module's end."""
    offset = _offset()
    yield
    runs = [(pid, n) for pid, n in _programs_since(offset) if pid not in SESSION_PIDS]
    deadline = time.monotonic() + 5
    left = [(pid, n) for pid, n in runs if alive(pid, n)]
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [(pid, n) for pid, n in left if alive(pid, n)]
    for pid, _ in left:  # ours by PID: stop them so the rest of the suite is clean
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    if left:
        pytest.fail(f"left running after the module: {left}")


@pytest.fixture(scope="session")
def xserver():
    """A private ``Xvfb -noreset`` on a free display number, stopped at the end."""
    with XServer.start() as server:
        # (a session fixture's setup runs outside this folder's hooks: say it here)
        SESSION_PIDS.add(server.process.pid)
        yield server


@pytest.fixture(autouse=True)
def no_key_left_down(request):
    """After a test on the session's Xvfb, no key is down there (``tests.keys_down``)."""
    yield
    if "xserver" in request.fixturenames:
        down = release_keys_down(request.getfixturevalue("xserver").display)
        if down:
            pytest.fail(f"keys left down on the X server after the test: keycodes {down}")


@pytest.fixture(scope="module")
def wayland():
    """A Wayland desktop for a module's tests: weston with XWayland on a private Xvfb
    (``faults.wayland``), stopped by PID at the module's end. Its ``env()`` is what a
    program of the session gets (DISPLAY is XWayland's)."""
    with wayland_desktop() as desktop:
        yield desktop


@pytest.fixture(autouse=True)
def recordings_in_tmp(tmp_path_factory, monkeypatch):
    """No test writes into the repository's recordings/: the default root is temporary."""
    monkeypatch.setenv("LOGO_BOT_RECORDINGS", str(tmp_path_factory.mktemp("recordings")))


@pytest.fixture(autouse=True)
def _no_stop_carried_over():
    """A test that ran ``logo-bot`` in this process armed its stops (a second request
    would end the process, a SIGHUP would leave the terminal): each test starts with none
    asked and none armed."""
    interrupts.reset()
    yield
    interrupts.reset()
