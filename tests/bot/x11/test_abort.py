"""The abort key setting, and Ctrl-C deferred to the end of a key event."""

import signal
import time
import weakref

import pytest

from bot.errors import UsageError
from bot.interrupts import critical, interrupt_or_defer
from bot.x11.abort import Aborted, check_abort_key, guard

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


def test_an_interrupt_inside_a_critical_stretch_waits_for_its_end():
    done = []
    with pytest.raises(Aborted, match="the F12 key"), critical():
        with critical():
            interrupt_or_defer(Aborted("stopped by the F12 key"))
            done.append("inner")
        done.append("outer")
    assert done == ["inner", "outer"], "the whole stretch ran first"


def test_an_interrupt_outside_is_raised_at_once():
    with pytest.raises(KeyboardInterrupt):
        interrupt_or_defer()
    with critical():
        pass  # nothing pending is left over


class _Thing:
    pass


def test_a_stop_that_lands_in_a_finalizer_is_raised_again_after_it():
    """Python drops an exception raised inside a finalizer; a Ctrl-C (or the abort key)
    whose handler ran there must still stop the run (seen in CI: a run went on to the end)."""
    started = time.monotonic()
    with pytest.raises(Aborted), guard(None, None, lambda: None):
        thing = _Thing()
        weakref.finalize(thing, signal.raise_signal, signal.SIGINT)
        del thing  # the finalizer runs here, and the handler inside it
        while time.monotonic() - started < 2:
            time.sleep(0.01)
    assert time.monotonic() - started < 1


def test_a_sigterm_that_lands_in_a_finalizer_is_raised_again_as_itself():
    from bot.interrupts import Terminated, on_signal

    started = time.monotonic()
    with pytest.raises(Terminated, match="SIGTERM"), guard(None, None, lambda: None):
        thing = _Thing()
        weakref.finalize(thing, on_signal, signal.SIGTERM)
        del thing  # the handler's Terminated is dropped by the finalizer here
        while time.monotonic() - started < 2:
            time.sleep(0.01)
    assert time.monotonic() - started < 1
