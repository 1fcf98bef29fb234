"""A burst makes no check of its own before its first press: that press asks whether
Fuse is covered afresh (whatever the cover watch's last answer), a refused press waits
or cuts the burst, and the presses after it use the watch's recent answer. A plain
window on a private Xvfb stands for Fuse; the cover is a fake that says when asked."""

from __future__ import annotations

import os
import select
import threading
import time
from collections.abc import Iterator, Sequence

import pytest
from Xlib import X

from logo_bot.bot.errors import FocusLost
from logo_bot.bot.x11 import key_guard
from logo_bot.bot.x11.display import XServer, open_display
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.key_delivery import XTestDelivery
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.bot.x11.x11_keys import X11Keys

pytestmark = pytest.mark.xserver


class StaleCover:
    """Covered ``fresh_covers`` times when asked afresh; the cached answer says
    uncovered (as a watch read before the cover came)."""

    def __init__(self, fresh_covers: int, log: list[str]) -> None:
        self.left = fresh_covers
        self.log = log
        self._quiet, self._never = os.pipe()  # nothing is ever written: no report wakes

    def fileno(self) -> int:
        return self._quiet

    def reported(self) -> bool:
        """A change the next fresh answer has: while covers are left, the next one."""
        return self.left > 0

    def covered(self, fresh: bool = False) -> bool:
        self.log.append("fresh" if fresh else "cached")
        if fresh and self.left > 0:
            self.left -= 1
            return True
        return False

    def raise_fuse(self) -> bool:
        return False


class RecordedKeys(X11Keys):
    log: list[str]

    def _deliver(self, key: str, code: int, down: bool, held: list[int] | None = None) -> None:
        self.log.append(("press " if down else "release ") + key)
        super()._deliver(key, code, down, held)


@pytest.fixture
def guarded_keys() -> Iterator[RecordedKeys]:
    with XServer.start() as server:
        dpy = open_display(server.display)
        window = dpy.screen().root.create_window(0, 0, 200, 200, 0, X.CopyFromParent)
        window.map()
        window.set_input_focus(X.RevertToParent, X.CurrentTime)
        dpy.sync()
        policy = FocusPolicy(take_back=False, wait=True, poll_s=0.005)
        driver = RecordedKeys(
            server.display, window.id, XTestDelivery, KeyTiming(2, 2, True), policy=policy
        )
        driver.log = []
        driver.owner = dpy  # type: ignore[attr-defined]
        try:
            yield driver
        finally:
            driver.close()
            dpy.close()


def test_a_burst_pressed_while_covered_waits_before_its_first_press(guarded_keys):
    keys = guarded_keys
    told: list[str] = []
    keys.policy.listeners.append(lambda event, data: told.append(event))
    keys.cover = StaleCover(2, keys.log)  # type: ignore[assignment]
    keys.cut_after_s = 60.0  # a busy machine: the wait must not cut the burst here
    keys.burst(["a", "b"])
    assert keys.log[0] == "fresh", "the first press trusted an old answer"
    assert "covered" in told and "regained" in told
    first_press = keys.log.index("press a")
    # the press (covered), the policy (covered, then uncovered), the press again afresh
    assert keys.log[:first_press] == ["fresh"] * 4
    assert keys.log[first_press:] == ["press a", "release a", "cached", "press b", "release b"]


def test_every_burst_asks_afresh_at_its_first_press(guarded_keys):
    keys = guarded_keys
    keys.cover = StaleCover(0, keys.log)  # type: ignore[assignment]
    keys.burst(["a", "b"])
    keys.burst(["a"])
    covers = [entry for entry in keys.log if entry in ("fresh", "cached")]
    assert covers == ["fresh", "cached", "fresh"]


def test_a_long_wait_while_covered_cuts_the_burst_before_any_key(guarded_keys):
    keys = guarded_keys
    keys.cover = StaleCover(1, keys.log)  # type: ignore[assignment]
    keys.cut_after_s = 0.0
    keys.burst(["a", "b"])
    assert not [entry for entry in keys.log if entry.startswith("press")]
    keys.burst(["a"])
    assert "press a" in keys.log  # the next burst goes on


def test_a_hold_asks_the_server_about_the_focus_only_when_a_focus_event_comes(guarded_keys):
    """No round trip every few milliseconds: a key held with the focus unchanged asks
    only after an event comes (here XTest's MappingNotify; a poll every 4 ms asked 45
    times); another window taking the focus sends Fuse's window a focus event, which
    wakes the hold, and the key is let go long before the hold's end."""
    keys = guarded_keys
    asked: list[int] = []
    focused = keys.focused

    def counted() -> bool:
        asked.append(1)
        return focused()

    keys.focused = counted  # type: ignore[method-assign]
    keys.timing = KeyTiming(200, 2, True)
    keys.burst(["a"])
    assert len(asked) <= 1
    assert keys.log == ["press a", "release a"]

    dpy = keys.owner
    other = dpy.screen().root.create_window(300, 0, 100, 100, 0, X.CopyFromParent)
    other.map()
    dpy.sync()
    keys.policy = FocusPolicy(take_back=False)
    keys.timing = KeyTiming(30_000, 2, True)
    pressed = threading.Event()

    def take_focus() -> None:
        deadline = time.monotonic() + 30
        while "press b" not in keys.log and time.monotonic() < deadline:
            time.sleep(0.001)
        other.set_input_focus(X.RevertToParent, X.CurrentTime)
        dpy.sync()
        pressed.set()

    thief = threading.Thread(target=take_focus)
    held_before, asked[:] = keys.clock.held_s, []
    thief.start()
    keys.burst(["b"])
    thief.join()
    assert pressed.is_set() and asked, "the focus event was not checked"
    assert keys.clock.held_s - held_before < 15, "held to the end of the hold"
    assert keys.log[-1] == "press b", "the release went to the other window"
    assert keys.held() == frozenset()


def test_a_focus_child_moved_out_of_fuse_gets_no_press(guarded_keys):
    """The focus child's remembered place under Fuse's window is not trusted once it has
    moved: the press is refused (and this policy, not waiting, says the focus is lost)."""
    keys = guarded_keys
    dpy = keys.owner
    window = dpy.create_resource_object("window", keys.window_id)
    child = window.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
    child.map()
    child.set_input_focus(X.RevertToParent, X.CurrentTime)
    dpy.sync()
    keys.policy = FocusPolicy(take_back=False)
    keys.burst(["a"])
    assert keys.log == ["press a", "release a"]
    child.reparent(dpy.screen().root, 300, 300)
    child.map()
    dpy.sync()
    child.set_input_focus(X.RevertToParent, X.CurrentTime)
    dpy.sync()
    with pytest.raises(FocusLost):
        keys.burst(["b"])
    assert "press b" not in keys.log


def test_keys_held_until_seen_roll_one_up_as_the_next_goes_down(guarded_keys, monkeypatch):
    """A rollover is one checked event pair: one focus round trip where two were."""
    keys = guarded_keys
    checks: list[int] = []
    asked = key_guard.focus_id

    def counted(dpy):
        checks.append(1)
        return asked(dpy)

    monkeypatch.setattr(key_guard, "focus_id", counted)
    taps = keys.taps_until(["a", "b", "a"], lambda i: True, longest_ms=100)
    assert (taps.pressed, taps.seen) == (3, 3)
    assert keys.log == ["press a", "release a", "press b", "release b", "press a", "release a"]
    assert len(checks) == 4  # press a, a up with b down, b up with a down, release a
    assert keys.held() == frozenset()


def test_a_roll_after_the_focus_went_elsewhere_lets_go_and_presses_nothing(guarded_keys):
    """The focus taken while a key is down: the roll's release is swallowed by a grab of
    our own (not delivered) and the next key is not pressed."""
    keys = guarded_keys
    dpy = keys.owner
    other = dpy.screen().root.create_window(300, 0, 100, 100, 0, X.CopyFromParent)
    other.map()
    keys.policy = FocusPolicy(take_back=False)

    def seen(i: int) -> bool:
        other.set_input_focus(X.RevertToParent, X.CurrentTime)
        dpy.sync()
        return True

    with pytest.raises(FocusLost):
        keys.taps_until(["a", "b"], seen, longest_ms=100)
    assert keys.log == ["press a"]
    assert keys.held() == frozenset()


def test_a_key_held_until_seen_is_let_go_at_once_when_the_focus_goes(guarded_keys):
    """Another window takes the focus while a key waits to be seen: the key does not stay
    down to the longest (X autorepeat would then reach that window); its release is
    swallowed and the rest of the burst is not pressed."""
    keys = guarded_keys
    dpy = keys.owner
    other = dpy.screen().root.create_window(300, 0, 100, 100, 0, X.CopyFromParent)
    other.map()
    dpy.sync()

    def seen(i: int) -> bool:
        other.set_input_focus(X.RevertToParent, X.CurrentTime)
        dpy.sync()
        return False

    started = time.perf_counter()
    taps = keys.taps_until(["a", "b"], seen, longest_ms=3000)
    assert time.perf_counter() - started < 1.0, "held to the longest"
    assert (taps.pressed, taps.seen) == (1, 0)
    assert keys.log == ["press a"], "the release went to Fuse, or b was pressed"
    assert keys.held() == frozenset()


def test_presses_held_until_seen_are_flushed_and_releases_and_timed_presses_synced(
    guarded_keys, monkeypatch
):
    """A press held until seen is let go when the screen shows it, not by the clock: it
    needs no round trip after it. A lone release still has one (a gap is timed from it),
    and so has a press whose hold is timed."""
    keys = guarded_keys
    syncs: list[tuple[int, bool, bool]] = []
    guarded = keys.delivery.guarded

    def recorded(check, releases, press=None, sync=True):
        syncs.append((len(releases), press is not None, sync))
        return guarded(check, releases, press, sync)

    monkeypatch.setattr(keys.delivery, "guarded", recorded)
    keys.taps_until(["a", "b"], lambda i: True, longest_ms=100)
    assert syncs == [(0, True, False), (1, True, False), (1, False, True)]
    assert not keys.by_sight
    syncs.clear()
    keys.tap("a")
    assert syncs == [(0, True, True), (1, False, True)]


class NeverDrawn:
    """A picture watch under which Fuse never draws: a wait ends at its deadline or when
    the driver's own connection has something to read (as ``DamageWatch.wait``)."""

    def wait(self, until: float, also: Sequence[int] = ()) -> bool:
        left = until - time.monotonic()
        if left > 0:
            select.select(list(also), [], [], min(left, 0.05))
        return False


def test_a_key_watched_for_a_drawing_is_let_go_at_once_when_the_focus_goes(guarded_keys):
    """With a picture watch the first wait after a press trusts the press's own focus
    check; a focus event that ends that wait is still checked before the next one, so
    the key is let go at once (not held to the longest), its release swallowed."""
    keys = guarded_keys
    keys.picture = NeverDrawn()  # type: ignore[assignment]
    other_client = open_display(keys.display)
    other = other_client.screen().root.create_window(300, 0, 100, 100, 0, X.CopyFromParent)
    other.map()
    other_client.sync()
    stolen: list[tuple[float, frozenset[str]]] = []  # when, and the keys held then

    def take() -> None:
        """Take the focus once "a" went down (not at a set time: a busy machine may press
        it later than any guess), and a moment later: the driver waits for a drawing."""
        deadline = time.monotonic() + 30
        while "press a" not in keys.log and time.monotonic() < deadline:
            time.sleep(0.001)
        time.sleep(0.1)
        stolen.append((time.perf_counter(), keys.held()))
        other.set_input_focus(X.RevertToParent, X.CurrentTime)
        other_client.sync()

    taker = threading.Thread(target=take, daemon=True)
    try:
        taker.start()
        taps = keys.taps_until(["a", "b"], lambda i: False, longest_ms=5000)
        ended = time.perf_counter()
    finally:
        taker.join()
        other_client.close()
    assert stolen and stolen[0][1] == frozenset({"a"}), "the focus went before the press"
    took = ended - stolen[0][0]
    assert took < 2.0, f"held {took:.2f} s after the focus went"
    assert (taps.pressed, taps.seen) == (1, 0)
    assert keys.log == ["press a"], "the release went to Fuse, or b was pressed"
    assert keys.held() == frozenset()
