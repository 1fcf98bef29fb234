"""The abort key setting, and its watch's thread."""

import threading
import time
from pathlib import Path

import pytest

from logo_bot.bot.errors import UsageError
from logo_bot.bot.x11.abort import AbortHotkey, check_abort_key
from logo_bot.bot.x11.display import XServer

GAME = {"q", "a", "o", "p", "space", "r", "enter"}


@pytest.mark.parametrize("name", ["Pause", "F12", "F11", "Scroll_Lock"])
def test_keys_the_spectrum_lacks_are_fine(name):
    assert check_abort_key(name, GAME) == name


@pytest.mark.parametrize("name", ["none", "off", ""])
def test_none_means_no_abort_key(name):
    assert check_abort_key(name, GAME) is None


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("F1", "Fuse's own menu keys"),
        ("f10", "Fuse's own menu keys"),
        ("space", "the game uses that key"),
        ("x", "the game uses that key"),
        ("NoSuchKey", "X knows no key of that name"),
    ],
)
def test_keys_fuse_or_the_game_need_are_refused(name, words):
    with pytest.raises(UsageError, match=words):
        check_abort_key(name, GAME)


def _wakeups(thread: threading.Thread) -> int:
    """The voluntary context switches of ``thread`` so far (each is a sleep that ended)."""
    status = Path(f"/proc/self/task/{thread.native_id}/status").read_text()
    return int(status.split("voluntary_ctxt_switches:")[1].split()[0])


@pytest.mark.xserver
def test_an_idle_abort_key_thread_sleeps_until_its_key_or_its_close():
    """The watch for the abort key has no timeout to wake for: idle for a second it wakes
    at most once or twice (it woke ten times a second); ``close`` ends it at once."""
    aborted: list[str] = []
    with XServer.start() as server:
        hotkey = AbortHotkey(server.display, "Pause", lambda: None, aborted.append).start()
        try:
            thread = hotkey._thread
            before = _wakeups(thread)
            time.sleep(1.0)
            assert _wakeups(thread) - before <= 2
        finally:
            hotkey.close()
        assert not thread.is_alive()
        hotkey.close()  # again: nothing happens
    assert aborted == []


class _StuckKeys:
    """A key driver holding a key whose release fails (its display went away)."""

    def __init__(self, display: str) -> None:
        self.display = display

    def held_keycodes(self) -> list[int]:
        return [38]

    def release_on(self, dpy: object, keycodes: list[int]) -> None:
        raise ConnectionResetError("the display connection broke")


@pytest.mark.xserver
def test_the_abort_key_stops_the_run_and_says_so_when_the_release_fails(caplog):
    """The key was pressed and the held keys could not be released: the run is asked to
    stop all the same, and a warning says the release failed."""
    aborted: list[str] = []
    with XServer.start() as server:
        hotkey = AbortHotkey(
            server.display, "Pause", lambda: _StuckKeys(server.display), aborted.append
        )
        hotkey._wait_for_key = hotkey.fire  # the key came: what the watch's thread does
        try:
            with caplog.at_level("WARNING", logger="logo_bot.bot.x11.abort"):
                hotkey._watch()
        finally:
            hotkey.close()
    assert aborted == ["stopped by the Pause key"]
    assert "could not be released (ConnectionResetError" in caplog.text
