"""The X11 key driver: one for every way of delivering a key event, holding what they share.

Each event is sent only after the guard of its delivery has checked that Fuse (or a
window inside it) has the input focus and that no other client holds the keyboard (a
screen locker, a password prompt gets every key whoever has the focus: a ``GrabWatch``
follows such grabs from the focus events of Fuse's window). A press that fails the check
is not sent; the ``FocusPolicy`` then waits, takes the focus back or raises
``FocusLost``. A release is always sent (a held key must not stay down): see
``key_guard`` for where it goes. A press is also held back while another window covers
Fuse's picture (``CoverWatch``), and a key held is let go as soon as the focus goes.

The event itself is the delivery's (``key_delivery``): XTest, addressed to Fuse's window
(``window_keys``, the default), or pyautogui's (``keys_pyautogui``). ``key_driver`` makes
the driver for a backend's name.

No stop is raised inside a call on the X connection (python-xlib does not survive an
exception in the middle of a request): the stop is looked at between key events. A
forced end releases the keys held on a fresh connection (``release_fresh``).
"""

from __future__ import annotations

import select
import time
from functools import partial

from Xlib import X
from Xlib import display as xdisplay
from Xlib.error import CatchError, XError

from logo_bot.bot import interrupts
from logo_bot.bot.errors import DisplayError, EmulatorError
from logo_bot.bot.x11.cover import CoverWatch
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.focus_ancestry import FocusAncestry
from logo_bot.bot.x11.key_delivery import KeyDelivery, XTestDelivery
from logo_bot.bot.x11.key_guard import FocusCheck, KeyEvent
from logo_bot.bot.x11.keyboard_grab import GrabWatch
from logo_bot.bot.x11.keys import DEFAULT_TIMING, BurstCut, KeyDriver, KeyTiming
from logo_bot.bot.x11.keysyms import keycode_of
from logo_bot.bot.x11.pending import has_events
from logo_bot.bot.x11.window_keys import WindowDelivery


class X11Keys(KeyDriver):
    """Keys for Fuse's top-level window ``window_id`` on X display ``display``, each event
    checked (focus, keyboard grabs, cover) and sent by ``delivery``."""

    def __init__(
        self,
        display: str,
        window_id: int,
        delivery: type[KeyDelivery],
        timing: KeyTiming = DEFAULT_TIMING,
        take_focus: bool = True,
        policy: FocusPolicy | None = None,
    ) -> None:
        super().__init__(timing)
        self.display = display
        self._dpy = open_display(display)
        if delivery.needs_xtest and not self._dpy.has_extension("XTEST"):
            raise DisplayError(f"the X display {display} has no XTEST extension")
        self.window_id = window_id
        self._fd = self._dpy.fileno()  # where its focus events come in
        self._window = self._dpy.create_resource_object("window", window_id)
        self._grab_watch = GrabWatch(self._dpy, self._window)
        self._ancestry = FocusAncestry(self._dpy, window_id)
        self._grab_watch.listeners.append(self._ancestry.take)
        self._check = FocusCheck(self._dpy, window_id, self._grab_watch, self._ancestry)
        self.policy = policy or FocusPolicy(take_back=take_focus)
        self.cover: CoverWatch | None = None  # set by the session: no press while covered
        self._fresh_cover = True  # the next press asks the server whether Fuse is covered
        self.round_trip_s = 0.001  # the slowest recent focus check (decays)
        # a round trip after each event times a hold or gap from when the server ran it
        # (docs/benchmarks.md: "Key events"); a press held until seen is only flushed
        self.sync_events = True
        self._closed = False
        self._codes: dict[str, int] = {}
        try:
            self.delivery = delivery(self._dpy, self._window)
        except BaseException:
            self._dpy.close()
            raise
        self._unforce = interrupts.on_force(self.release_fresh)

    @property
    def take_focus(self) -> bool:
        return self.policy.take_back

    def keycode(self, key: str) -> int:
        code = self._codes.get(key)
        if code is None:
            code = self._codes[key] = keycode_of(self._dpy, key)
        return code

    def held_keycodes(self) -> list[int]:
        """Keycodes of the keys held down now (for a release from another thread)."""
        return [self._codes[key] for key in self.held() if key in self._codes]

    def focused(self) -> bool:
        """Fuse (or its focus child) has the input focus: one round trip once the focus
        window's place in the tree is known."""
        started = time.perf_counter()
        inside = self._check.inside()  # the ancestry hears of changes before it answers
        took = time.perf_counter() - started
        self.round_trip_s = max(took, self.round_trip_s * 0.9)
        return inside

    def keyboard_grabbed(self) -> bool:
        """Another client holds an active keyboard grab now (no key is pressed meanwhile)."""
        self._dpy.sync()  # a round trip: the focus events sent so far are in
        return self._grab_watch.held()

    def covered(self) -> bool:
        """Another window is over Fuse's picture now (no key is pressed meanwhile)."""
        if self.cover is None:
            return False
        return self.cover.covered(fresh=True)

    def raise_window(self) -> bool:
        """Put Fuse on top of the windows that cover it (whether it was asked now)."""
        if self.cover is None:
            return False
        return self.cover.raise_fuse()

    def window_exists(self) -> bool:
        try:
            self._window.get_attributes()
        except XError:
            return False
        return True

    def _hold_until(self, when: float, poll_s: float = 0.004) -> None:
        """Hold, but stop at once when another window takes the focus: the release is then
        swallowed before X autorepeat (hundreds of ms away) could send the held key to
        that window. A focus change sends Fuse's window a focus event (``GrabWatch``
        selects them), which wakes the wait and is checked (``_may_hold``) while more
        than a poll and a round trip are left; the rest is waited precisely (the
        release's own check guards it)."""
        fd = self._dpy.fileno()
        margin = poll_s + self.round_trip_s
        while (left := when - time.perf_counter() - margin) > 0:
            interrupts.check()  # a safe point: the key is released on the way out
            if not self._may_hold():
                return
            select.select([fd, *interrupts.stop_fds()], [], [], min(left, interrupts.SLICE_S))
        self._wait_until(when)

    def _may_hold(self) -> bool:
        """Fuse still has the focus and no other client holds the keyboard: a key held
        until seen is let go at once otherwise, as in ``_hold_until``. The last check
        (this one's, or the guard's before the press) stands while no focus event has
        come since; after one, a round trip."""
        return not has_events(self._dpy) or (self.focused() and not self._grab_watch.held())

    def _wait_drawn(self, end: float) -> bool:
        """Wait for Fuse to draw (``picture``), or for a focus event (checked by the
        caller's ``_may_hold`` before the next wait), or until ``end``: whether Fuse has
        drawn since the last look (also when an event ended the wait)."""
        assert self.picture is not None
        until = time.monotonic() + end - time.perf_counter()
        # no event waits already read: the press's check or ``_may_hold`` took them all
        return self.picture.wait(until, (self._fd,))

    def wait_for_change(self, timeout_s: float) -> None:
        """While paused (``FocusPolicy``): until an event comes in that may end the pause,
        or ``timeout_s``. Fuse's window hears of every focus change to or from it and of
        every keyboard grab's end; the cover watch, of every window mapped, moved or
        gone at the top of the tree. A safe point for stops."""
        fds = [self._dpy.fileno()]
        if self.cover is not None:
            fds.append(self.cover.fileno())
        until = time.monotonic() + timeout_s
        while True:
            if has_events(self._dpy) or (self.cover is not None and self.cover.reported()):
                return
            interrupts.check()
            left = until - time.monotonic()
            if left <= 0:
                return
            select.select([*fds, *interrupts.stop_fds()], [], [], min(left, interrupts.SLICE_S))

    def focus(self) -> None:
        """Give Fuse's top-level window the input focus (only the top level works)."""
        catch = CatchError()
        self._window.set_input_focus(X.RevertToParent, X.CurrentTime, onerror=catch)
        self._dpy.sync()

    def check_focus(self) -> None:
        """Before a burst: wait for the focus (and for the picture to be uncovered) if need
        be; a long wait cuts the burst."""
        if (self.covered() or not self.focused()) and self.policy.regain(self) > self.cut_after_s:
            raise BurstCut()

    def _start_burst(self) -> None:
        """No check here: the first press checks the cover afresh and the focus in its
        guard, and a refused press waits (``regain_focus``) or cuts the burst, as
        ``check_focus`` would have."""
        self._fresh_cover = True

    def regain_focus(self) -> float:
        self._fresh_cover = True
        return self.policy.regain(self)

    def _cover_blocks(self) -> bool:
        """Fuse is covered: asked afresh at a burst's first press (and after a wait), from
        the cover watch's answer of at most ``every_s`` ago for the presses after it."""
        if self.cover is None:
            return False
        fresh, self._fresh_cover = self._fresh_cover, False
        return self.cover.covered(fresh=fresh)

    def _send(self, key: str, down: bool) -> bool:
        code = self.keycode(key)
        if down and self._cover_blocks():
            return False
        event = self._event(key, code, down)
        if down:
            return self.delivery.guarded(self._check, [], event, self._sync_press())
        return self.delivery.guarded(self._check, [event], None, self.sync_events)

    def _sync_press(self) -> bool:
        """A round trip after a press, unless it is held until seen: the screen, not the
        clock, then says when it goes up, and a round trip would only cost CPU (the
        release after it keeps its round trip, which times the gap before a key again)."""
        return self.sync_events and not self.by_sight

    def _send_roll(self, up: str, key: str) -> bool:
        """``up``'s release and ``key``'s press under one check."""
        if self._cover_blocks():
            self._send(up, False)
            return False
        up_code, code = self.keycode(up), self.keycode(key)
        held = self.held_keycodes()  # the same at both events: ``_roll`` holds both keys
        release, press = self._event(up, up_code, False, held), self._event(key, code, True, held)
        return self.delivery.guarded(self._check, [release], press, self._sync_press())

    def _event(self, key: str, code: int, down: bool, held: list[int] | None = None) -> KeyEvent:
        """The event, delivered after the guard's check (``held``: see ``_deliver``)."""
        return KeyEvent(code, partial(self._deliver, key, code, down, held))

    def _deliver(self, key: str, code: int, down: bool, held: list[int] | None = None) -> None:
        """The event itself, by the delivery, with ``held`` (None: the keycodes held now)."""
        self.delivery.send(key, code, down, self.held_keycodes() if held is None else held)

    def release_on(self, dpy: xdisplay.Display, codes: list[int]) -> None:
        """Release ``codes`` from another connection (the abort key's thread), as the
        delivery releases them there."""
        self.delivery.release_on(dpy, self.window_id, codes)

    def release_fresh(self, reason: str = "") -> None:
        """Release the keys held now on a connection of its own, with no check (a forced
        end: the bot's own connection may be in the middle of a request)."""
        codes = self.held_keycodes()
        if not codes:
            return
        dpy = open_display(self.display)
        try:
            self.delivery.release_plain(dpy, self.window_id, codes)
            dpy.sync()
        finally:
            dpy.close()

    def close(self) -> None:
        """Release every key and close the connection; again, nothing happens (as for the
        grabber and the cover watch: a restart cut short closes them, then the session)."""
        if self._closed:
            return
        self._closed = True
        self._unforce()
        try:
            self.release_all()
        finally:
            self.delivery.close()  # sends what it holds; never raises for a lost display
            self._dpy.close()


def key_driver(
    backend: str,
    display: str,
    window_id: int,
    timing: KeyTiming = DEFAULT_TIMING,
    take_focus: bool = True,
    policy: FocusPolicy | None = None,
) -> X11Keys:
    """The key driver for ``backend``: "window" (events addressed to Fuse's window),
    "xtest" or "pyautogui"; ``EmulatorError`` for another name."""
    delivery: type[KeyDelivery]
    if backend == "pyautogui":
        from logo_bot.bot.x11.keys_pyautogui import PyAutoGuiDelivery

        delivery = PyAutoGuiDelivery
    elif backend == "window":
        delivery = WindowDelivery
    elif backend == "xtest":
        delivery = XTestDelivery
    else:
        raise EmulatorError(f"unknown key backend {backend!r} (window, xtest or pyautogui)")
    return X11Keys(display, window_id, delivery, timing, take_focus, policy)
