"""The focus policy on a fake window: grace, taking back, pausing, a window that goes."""

import threading
import time

import pytest

from logo_bot.bot.errors import EmulatorError, FocusLost
from logo_bot.bot.x11.focus import FocusPolicy


class Window:
    def __init__(self, focused=False, exists=True):
        self.has_focus = focused
        self.exists = exists
        self.focus_calls = 0

    def focused(self):
        return self.has_focus

    def focus(self):
        self.focus_calls += 1
        self.has_focus = True

    def window_exists(self):
        return self.exists


def recorded(policy, waiting=False):
    """The events told; "waiting" (every ``watch_s`` of a pause) only when asked."""
    events = []
    policy.listeners.append(
        lambda event, data: events.append((event, data)) if waiting or event != "waiting" else None
    )
    return events


def test_taken_back_at_once_without_grace():
    policy = FocusPolicy(take_back=True)
    events = recorded(policy)
    window = Window()
    policy.regain(window)
    assert window.focus_calls == 1
    assert [e for e, _ in events] == ["lost", "regained"]
    assert events[-1][1]["how"] == "taken_back"


def test_grace_lets_the_focus_come_back_by_itself():
    policy = FocusPolicy(take_back=True, wait=True, grace_s=5.0, poll_s=0.005)
    events = recorded(policy)
    window = Window()
    threading.Timer(0.05, lambda: setattr(window, "has_focus", True)).start()
    policy.regain(window)
    assert window.focus_calls == 0, "returned within the grace: never taken"
    assert events[-1][1]["how"] == "returned"


def test_grace_then_taken_back():
    policy = FocusPolicy(take_back=True, wait=True, grace_s=0.05, poll_s=0.005)
    window = Window()
    started = time.monotonic()
    policy.regain(window)
    assert window.focus_calls == 1
    assert time.monotonic() - started >= 0.05


def test_without_taking_back_it_pauses_until_the_focus_returns():
    policy = FocusPolicy(take_back=False, wait=True, poll_s=0.005)
    events = recorded(policy)
    window = Window()
    threading.Timer(0.1, lambda: setattr(window, "has_focus", True)).start()
    policy.regain(window)
    assert window.focus_calls == 0
    assert [e for e, _ in events] == ["lost", "paused", "regained"]
    assert events[-1][1]["paused"] and events[-1][1]["waited_s"] > 0.05


def test_while_paused_listeners_are_told_it_still_waits():
    """A paused run's listener can look at the game (its clock runs on) every ``watch_s``."""
    policy = FocusPolicy(take_back=False, wait=True, poll_s=0.005, watch_s=0.05)
    events = recorded(policy, waiting=True)
    window = Window()
    threading.Timer(0.3, lambda: setattr(window, "has_focus", True)).start()
    policy.regain(window)
    names = [e for e, _ in events]
    assert names[:2] == ["lost", "paused"] and names[-1] == "regained"
    assert 1 <= names.count("waiting") <= 6 and set(names[2:-1]) == {"waiting"}


def test_without_waiting_it_raises_focus_lost():
    with pytest.raises(FocusLost, match="no key was sent"):
        FocusPolicy(take_back=False, wait=False).regain(Window())


def test_a_window_that_is_gone_is_an_emulator_error_even_while_paused():
    policy = FocusPolicy(take_back=False, wait=True, poll_s=0.005)
    window = Window()
    threading.Timer(0.05, lambda: setattr(window, "exists", False)).start()
    with pytest.raises(EmulatorError, match="Fuse window has gone"):
        policy.regain(window)


class CoveredWindow(Window):
    """Has the focus, but another window lies over it until ``raise_window`` (when it can
    be raised) or ``uncover``."""

    def __init__(self, can_raise=True, asks=True, covered_for=None):
        super().__init__(focused=True)
        self.over = True
        self.can_raise = can_raise
        self.asks = asks  # False: every call falls inside the rate limit
        self.raise_calls = 0
        self.covered_for = covered_for  # the cover goes by itself after this many asks
        self.asked = 0

    def covered(self):
        self.asked += 1
        if self.covered_for is not None and self.asked > self.covered_for:
            self.over = False
        return self.over

    def raise_window(self):
        self.raise_calls += 1
        if self.can_raise and self.asks:
            self.over = False
        return self.asks


def test_a_covered_window_is_raised_after_the_grace():
    policy = FocusPolicy(take_back=True, grace_s=0.05, poll_s=0.005)
    events = recorded(policy)
    window = CoveredWindow()
    assert policy.regain(window) >= 0.05
    assert window.raise_calls == 1 and window.focus_calls == 0
    assert [e for e, _ in events] == ["covered", "paused", "regained"]
    assert events[1][1]["covered"] is True
    assert events[-1][1]["how"] == "taken_back" and events[-1][1]["reason"] == "covered"


def test_a_cover_that_cannot_be_raised_over_is_waited_out():
    policy = FocusPolicy(take_back=True, wait=True, grace_s=0.0, poll_s=0.005)
    events = recorded(policy)
    window = CoveredWindow(can_raise=False, covered_for=5)  # gone by itself, polls later
    assert policy.regain(window) > 0
    assert window.asked > 5 and not window.over, "returned before the cover went"
    assert window.raise_calls >= 1
    assert events[-1][1]["how"] == "returned" and events[-1][1]["reason"] == "covered"


def test_a_cover_gone_while_no_raise_was_asked_is_returned_not_taken_back():
    """The raise is rate-limited: a cover that goes by itself between two asks is not
    credited to the bot."""
    policy = FocusPolicy(take_back=True, wait=True, grace_s=0.0, poll_s=0.005)
    events = recorded(policy)
    window = CoveredWindow(asks=False)
    threading.Timer(0.05, lambda: setattr(window, "over", False)).start()
    policy.regain(window)
    assert events[-1][1]["how"] == "returned"


def test_a_covered_window_without_waiting_raises_focus_lost_naming_the_cover():
    policy = FocusPolicy(take_back=False, wait=False)
    with pytest.raises(FocusLost, match="covers the Fuse picture"):
        policy.regain(CoveredWindow())


class GrabbedWindow(Window):
    """Fuse keeps the focus, but another program holds the keyboard until ``grabbed`` ends."""

    def __init__(self):
        super().__init__(focused=True)
        self.grabbed = True

    def keyboard_grabbed(self):
        return self.grabbed


def test_a_keyboard_grab_is_waited_out_and_never_fought():
    policy = FocusPolicy(take_back=True, wait=True, grace_s=0.0, poll_s=0.005)
    events = recorded(policy)
    window = GrabbedWindow()
    threading.Timer(0.3, lambda: setattr(window, "grabbed", False)).start()
    waited = policy.regain(window)
    assert waited >= 0.1, "returned only when the grab ended"
    assert window.focus_calls == 0, "the focus is not what is missing: nothing to take back"
    assert [e for e, _ in events] == ["grabbed", "paused", "regained"]
    assert events[1][1] == {"covered": False, "grabbed": True}
    assert events[-1][1]["how"] == "returned" and events[-1][1]["reason"] == "grab"


def test_a_keyboard_grab_without_waiting_raises_focus_lost_naming_it_at_once():
    policy = FocusPolicy(take_back=True, wait=False, grace_s=600.0)
    started = time.monotonic()
    with pytest.raises(FocusLost, match="another program holds the keyboard"):
        policy.regain(GrabbedWindow())
    assert time.monotonic() - started < 60, "no grace: waiting would not take it back"


@pytest.mark.parametrize("take_back", [True, False])
def test_a_pause_longer_than_the_timeout_is_focus_lost(take_back):
    """Bounded: a focus that never comes back (and cannot be taken: the window refuses it)
    ends the wait after ``timeout_s`` with FocusLost, exit 6."""

    class Refusing(Window):
        def focus(self):
            self.focus_calls += 1

    policy = FocusPolicy(take_back=take_back, wait=True, grace_s=0.0, poll_s=0.005, timeout_s=0.1)
    events = recorded(policy)
    with pytest.raises(FocusLost, match="did not have the keyboard focus for 0 s") as caught:
        policy.regain(Refusing())
    assert caught.value.exit_code == 6
    assert "--focus-timeout" in caught.value.hint
    assert [e for e, _ in events] == ["lost", "paused"]


def test_without_a_timeout_the_pause_lasts_until_the_focus_returns():
    policy = FocusPolicy(take_back=False, wait=True, poll_s=0.005, timeout_s=None)
    window = Window()
    threading.Timer(0.3, lambda: setattr(window, "has_focus", True)).start()
    assert policy.regain(window) >= 0.1
