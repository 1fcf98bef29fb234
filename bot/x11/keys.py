"""Pressing Spectrum keys in Fuse, timed from the actual previous event: the base driver,
and the XTest driver whose focus checks the default driver (``window_keys.WindowKeys``,
events addressed to Fuse's window) keeps.

Each event is sent only after the focus is checked; an XTest event with the X server
grabbed so that, on a plain X server, no other client can move the focus between the
check and the event (under XWayland the compositor still can: only ``WindowKeys``, which
needs no grab, is safe there). A press
while another window has the focus is not sent; the ``FocusPolicy`` then waits, takes
the focus back or raises ``FocusLost``. A release is always sent (a held key must not
stay down), but when Fuse has lost the focus an XTest release is swallowed by a keyboard
grab of the bot's own, so the other window sees nothing (Fuse lets go of its keys when
it loses the focus); ``WindowKeys`` sends it to Fuse.

The focus is not enough: an X client holding an active keyboard grab (a screen locker,
a password prompt) receives every key event whoever has the focus. A ``GrabWatch``
follows such grabs from the focus events of Fuse's window, and a press is not sent while
one is held (``bot.x11.keyboard_grab``); the policy waits it out. A key held down when
another client's grab begins has its release delivered to that client (the server's key
must come up; a lone release types nothing).

One piece over 300 lines: the base key driver's timing and the XTest driver's guarded
events are one contract (every event checked, every press released), read together.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from Xlib import XK, X
from Xlib import display as xdisplay
from Xlib.error import CatchError, XError
from Xlib.ext import xtest

from logo_bot.bot import interrupts
from logo_bot.bot.errors import DisplayError, FocusLost, ProfileError
from logo_bot.bot.x11.cover import CoverWatch
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.focus_ancestry import FocusAncestry
from logo_bot.bot.x11.keyboard_grab import GrabWatch, server_grabbed
from logo_bot.bot.x11.window import is_within

# Names the profiles use for keys that are not single characters.
KEYSYM_NAMES = {
    "space": "space",
    "enter": "Return",
    "return": "Return",
    "shift": "Shift_L",
    "caps": "Shift_L",
    "symbol": "Control_L",
    "delete": "BackSpace",
    "backspace": "BackSpace",
}


@dataclass(frozen=True)
class KeyTiming:
    """How long a key is held and how long all keys are up before the next press (ms).

    With ``rollover`` (a game that sees each key's own press, such as the practice game)
    a different key goes down as soon as the previous one is up: only a key pressed
    again waits ``gap_ms``, long enough for the game to see it up in between.
    """

    hold_ms: float = 40.0
    gap_ms: float = 40.0
    rollover: bool = False


DEFAULT_TIMING = KeyTiming()


@dataclass
class KeyClock:
    """Wall seconds a key driver spent since it was made: keys held down (``held_s``, from
    a press sent to its release), every key up before a press (``up_s``, the gap), and
    sending key events (``events_s``: each a focus check under a server grab, and before
    a press a cover check, fresh at a burst's first press: X round trips). A few
    ``perf_counter`` calls per key, read around each burst by ``bot.play.time_spent``."""

    held_s: float = 0.0
    up_s: float = 0.0
    events_s: float = 0.0
    events: int = 0

    def snapshot(self) -> tuple[float, float, float]:
        return self.held_s, self.up_s, self.events_s

    def since(self, before: tuple[float, float, float]) -> dict[str, float]:
        """Seconds of each part since ``snapshot`` returned ``before``."""
        held, up, events = before
        return {
            "keys_held": self.held_s - held,
            "keys_up": self.up_s - up,
            "key_events": self.events_s - events,
        }


@dataclass
class Taps:
    """Keys of a ``taps_until`` burst: how many went down, and how many of them the game
    was seen to take (the rest of the burst is not pressed)."""

    pressed: int = 0
    seen: int = 0


class BurstCut(Exception):
    """A press waited for the focus so long that the game may have moved on: the rest of
    the burst is dropped and the caller looks at the screen again (not an error)."""


class KeyDriver:
    """Base class: presses named keys one after another with ``timing``.

    Subclasses send one event in ``_send``, which returns False when a press was not
    sent because Fuse lacks the focus; ``regain_focus`` then waits for it (or raises
    ``FocusLost``). Whatever happens after a press (an error, Ctrl-C), the key is released.
    """

    cut_after_s = 0.1  # a wait for the focus longer than this cuts the burst short
    hold_check_s = 0.004  # how often a key held until seen asks ``_may_hold``

    def __init__(self, timing: KeyTiming) -> None:
        self.timing = timing
        self._last_event = 0.0
        self._last_key: str | None = None  # the key released last
        self._down: set[str] = set()
        self.clock = KeyClock()

    def _wait_until(self, when: float) -> None:
        """Sleep to a millisecond before ``when``, then yield until it (a sleep may
        overshoot by a millisecond or more on a busy machine). A safe point: a stop asked
        for is raised here, and a key held is then released on the way out."""
        interrupts.check()
        while (left := when - time.perf_counter()) > 0:
            time.sleep(left - 0.001 if left > 0.002 else 0)

    def held(self) -> frozenset[str]:
        """The keys this driver holds down right now."""
        return frozenset(self._down)

    def press(self, key: str) -> None:
        self.burst([key])

    def burst(self, keys: Sequence[str]) -> None:
        """Press each key in turn (hold, release, gap); focus is checked before each event.
        After a long wait for the focus the keys not yet pressed are dropped."""
        try:
            self._start_burst()
            for key in keys:
                self.tap(key)
        except BurstCut:
            return

    def tap(self, key: str, gap_ms: float | None = None) -> None:
        """Press and release ``key``: held ``hold_ms``, after ``gap_ms`` with no key down
        (with rollover, after no wait at all when the key released last was another)."""
        gap = self.gap_before(key) if gap_ms is None else gap_ms
        waited = time.perf_counter()
        self._wait_until(self._last_event + gap / 1000)
        self.clock.up_s += time.perf_counter() - waited
        self._key_down(key)
        try:
            self._hold_until(self._last_event + self.timing.hold_ms / 1000)
        finally:
            self.clock.held_s += time.perf_counter() - self._last_event
            self._key_up(key)

    def hold_down(self, key: str, done: Callable[[], bool], longest_ms: float) -> None:
        """Hold ``key`` until ``done()`` says so or ``longest_ms`` has passed (a game that
        repeats a held key: the caller watches the screen in ``done``)."""
        self.taps_until([key], lambda _: done(), longest_ms, poll_s=0.002)

    def taps_until(
        self,
        keys: Sequence[str],
        seen: Callable[[int], bool],
        longest_ms: float,
        poll_s: float = 0.001,
        first_look_ms: float = 0.0,
    ) -> Taps:
        """Press each key in turn and hold it down until ``seen(i)`` says the game shows
        what key ``i`` does (the caller looks at the screen in it), then let go and go on
        to the next (none down in between with rollover: one goes up as the next goes
        down; else after the gap); a key not seen within ``longest_ms`` is let go and
        ends the burst. A key is then held as long as the game takes to see it, however
        late its look at the keys comes, and no longer. The first look comes
        ``first_look_ms`` after the press (sooner the game cannot show it), then one
        every ``poll_s``; the time spent in ``seen`` is not counted as held."""
        taps = Taps()
        down: str | None = None  # the key held now
        try:
            self._start_burst()
            for i, key in enumerate(keys):
                if down is not None and self.timing.rollover and key != down:
                    self._roll(down, key)  # one goes up as the next goes down
                else:
                    if down is not None:
                        self._key_up(down)
                    waited = time.perf_counter()
                    self._wait_until(self._last_event + self.gap_before(key) / 1000)
                    self.clock.up_s += time.perf_counter() - waited
                    self._key_down(key)
                down = key
                taps.pressed += 1
                shown, looking = False, 0.0
                end = self._last_event + longest_ms / 1000
                self._hold_until(self._last_event + min(first_look_ms, longest_ms) / 1000)
                checked = time.perf_counter()
                while True:
                    started = time.perf_counter()
                    shown = seen(i)
                    looking += time.perf_counter() - started
                    if shown or time.perf_counter() >= end:
                        break
                    if time.perf_counter() - checked >= self.hold_check_s:
                        checked = time.perf_counter()
                        if not self._may_hold():  # let go at once: the release is swallowed
                            break
                    self._hold_until(min(end, time.perf_counter() + poll_s))
                self.clock.held_s += time.perf_counter() - self._last_event - looking
                if not shown:
                    break
                taps.seen += 1
        except BurstCut:
            pass
        finally:
            if down is not None and down in self._down:
                self._key_up(down)
        return taps

    def gap_before(self, key: str) -> float:
        """Milliseconds with no key down that ``key`` needs before it goes down."""
        rolls = self.timing.rollover and self._last_key is not None and key != self._last_key
        return 0.0 if rolls else self.timing.gap_ms

    def _hold_until(self, when: float) -> None:
        """Keep the keys down until ``when`` (subclasses let go early if the focus goes)."""
        self._wait_until(when)

    def _may_hold(self) -> bool:
        """Whether a key held down may stay down (``taps_until`` asks every
        ``hold_check_s``; subclasses say no once another window has the focus)."""
        return True

    def _key_down(self, key: str) -> None:
        while True:
            interrupts.check()  # no press once a stop is asked for
            self._down.add(key)
            sending = time.perf_counter()
            try:
                sent = self._send(key, True)
            except BaseException:
                with contextlib.suppress(Exception):
                    self._key_up(key)
                raise
            now = time.perf_counter()
            self.clock.events_s += now - sending
            self.clock.events += 1
            if sent:
                self._last_event = now
                return
            self._down.discard(key)
            if self.regain_focus() > self.cut_after_s:
                raise BurstCut(key)

    def _key_up(self, key: str) -> None:
        sending = time.perf_counter()
        try:
            self._send(key, False)
        finally:
            self._down.discard(key)
            self._last_key = key
            self._last_event = time.perf_counter()
            self.clock.events_s += self._last_event - sending
            self.clock.events += 1

    def _roll(self, up: str, key: str) -> None:
        """Let go of ``up`` and press ``key`` at once (``_send_roll``: one checked event
        pair where the driver can); a press refused for the focus is then made as
        ``_key_down`` makes it, after the wait."""
        sending = time.perf_counter()
        self._down.add(key)
        sent = False
        try:
            sent = self._send_roll(up, key)
        except BaseException:
            for held in (up, key):  # whatever went out, nothing stays down
                with contextlib.suppress(Exception):
                    self._key_up(held)
            raise
        finally:
            if not sent:
                self._down.discard(key)
            self._down.discard(up)
            self._last_key = up
            self._last_event = time.perf_counter()
            self.clock.events_s += self._last_event - sending
            self.clock.events += 2
        if not sent:
            if self.regain_focus() > self.cut_after_s:
                raise BurstCut(key)
            self._key_down(key)

    def _send_roll(self, up: str, key: str) -> bool:
        """``up``'s release, then ``key``'s press; False when the press was not sent."""
        self._send(up, False)
        return self._send(key, True)

    def chord(self, modifier: str, keys: Sequence[str], gap_ms: float | None = None) -> None:
        """Hold ``modifier`` (e.g. "symbol") while tapping ``keys``; ``gap_ms`` between taps
        (the Spectrum ROM ignores a repeated key sooner than about 100 ms)."""
        gap = self.timing.gap_ms if gap_ms is None else gap_ms
        try:
            self._start_burst()
            self._wait_until(self._last_event + self.timing.gap_ms / 1000)
            self._key_down(modifier)
            try:
                for key in keys:
                    self.tap(key, gap)
                self._wait_until(self._last_event + gap / 1000)
            finally:
                self._key_up(modifier)
        except BurstCut:
            return

    def type_text(self, text: str) -> None:
        """Type ``text`` with the full gap before every key, rollover or not (a ROM's
        keyboard routine, unlike the practice game, may miss a key rolled onto)."""
        try:
            self._start_burst()
            for ch in text:
                self.tap("space" if ch == " " else ch.lower(), self.timing.gap_ms)
        except BurstCut:
            return

    def release_all(self) -> None:
        """Release every key this driver holds down (abort paths call this); every key is
        tried even when one fails, and the first error is raised at the end."""
        error: BaseException | None = None
        for key in list(self._down):
            try:
                self._key_up(key)
            except Exception as exc:
                error = error or exc
        if error is not None:
            raise error

    def close(self) -> None:
        """Release every key and let go of what the driver holds open."""
        self.release_all()

    def check_focus(self) -> None:
        """Return when keys may be sent (after waiting for the focus if need be)."""
        raise NotImplementedError

    def _start_burst(self) -> None:
        """Before a burst (or a chord, a held key, typed text): ``check_focus``, unless
        the driver checks every press itself (``XTestKeys``)."""
        self.check_focus()

    def regain_focus(self) -> float:
        """Called after a press was refused: wait for the focus (returns the seconds
        waited), or raise ``FocusLost``."""
        raise FocusLost("the Fuse window does not have the keyboard focus, so no key was sent")

    def _send(self, key: str, down: bool) -> bool:
        raise NotImplementedError


def focus_id(dpy: xdisplay.Display) -> int | None:
    """The id of the window with the input focus (None for PointerRoot or no focus)."""
    try:
        focus = dpy.get_input_focus().focus
    except XError:
        return None
    return focus.id if hasattr(focus, "id") else None


def focus_within(dpy: xdisplay.Display, window_id: int) -> bool:
    """The input focus is on ``window_id`` or one of its descendants (fuse-gtk's focus is a
    1x1 input-only child of its client window)."""
    focus = focus_id(dpy)
    return focus is not None and (focus == window_id or is_within(dpy, focus, window_id))


def send_guarded(
    dpy: xdisplay.Display,
    window_id: int,
    keycode: int,
    down: bool,
    deliver: Callable[[], None] | None = None,
    watch: GrabWatch | None = None,
    ancestry: FocusAncestry | None = None,
    sync: bool = True,
    let_go: tuple[int, Callable[[], None] | None] | None = None,
    targeted: bool = False,
) -> bool:
    """One key event that only ``window_id`` can receive, on connection ``dpy``.

    An XTest event is sent with the server grabbed (no other client runs meanwhile):
    when ``window_id`` (or a window inside it) has the focus and no other client holds
    the keyboard (``watch``, whose events the focus check's round trip has just brought
    in), the event is sent
    (``deliver``, or an XTest event); otherwise a press is not sent (returns False) and a
    release is sent under a keyboard grab of our own where one can be had, so the window
    that has the focus receives nothing (returns True). ``ancestry`` (whose events the
    watch passes on) remembers which focus window lies inside ``window_id``. After the
    server is let go, ``sync`` waits for a round trip; without it the requests are only
    flushed (they are sent, and the server runs them in order, either way).

    ``let_go`` (keycode, deliver) is a key to release first, under the same grab and the
    same check, as any release (a rollover: one key goes up as the next goes down, for
    one check and one round trip where two of each were needed).

    ``targeted``: ``deliver`` sends to ``window_id`` only (``bot.x11.window_keys``), so
    a release goes there whatever has the focus, and no server grab is taken: the focus
    check only pauses the bot while a person works in another window, and a change of
    focus between the check and the event sends no key elsewhere.
    """
    if targeted:  # nothing to protect: the event reaches window_id whatever has the focus
        try:
            inside = _focus_inside(dpy, window_id, watch, ancestry)
            allowed = inside and not (down and watch is not None and watch.held())
            if let_go is not None:
                _fake(dpy, let_go[0], False, let_go[1])
            if allowed or not down:
                _fake(dpy, keycode, down, deliver)
            return allowed or not down
        finally:
            dpy.sync() if sync else dpy.flush()
    with server_grabbed(dpy, sync):
        if _focus_inside(dpy, window_id, watch, ancestry):
            if let_go is not None:
                _fake(dpy, let_go[0], False, let_go[1])
            if down and watch is not None and watch.held():
                return False
            _fake(dpy, keycode, down, deliver)
            return True
        releases = ([let_go[0]] if let_go is not None else []) + ([] if down else [keycode])
        if not releases:
            return False
        _release_swallowed(dpy, releases)
    while dpy.pending_events():  # the swallowed release came to us
        event = dpy.next_event()
        if watch is not None:
            watch.take(event)
    return not down


def _focus_inside(
    dpy: xdisplay.Display,
    window_id: int,
    watch: GrabWatch | None,
    ancestry: FocusAncestry | None,
) -> bool:
    """``window_id`` or a window inside it has the focus: a round trip, which also brings
    in the focus events sent before it (to ``watch``, which passes them on to
    ``ancestry``, or to ``ancestry`` itself)."""
    focus = focus_id(dpy)
    if watch is not None:
        watch.drain()
    elif ancestry is not None:
        while dpy.pending_events():
            ancestry.take(dpy.next_event())
    if ancestry is not None:
        return ancestry.holds(focus)
    return focus is not None and (focus == window_id or is_within(dpy, focus, window_id))


def _release_swallowed(dpy: xdisplay.Display, codes: list[int]) -> None:
    """XTest releases of ``codes`` while another window has the focus, under a keyboard
    grab of our own where one can be had, so that the window receives nothing."""
    root = dpy.screen().root
    grab = root.grab_keyboard(False, X.GrabModeAsync, X.GrabModeAsync, X.CurrentTime)
    for code in codes:
        xtest.fake_input(dpy, X.KeyRelease, code)
    if grab == X.GrabSuccess:
        dpy.ungrab_keyboard(X.CurrentTime)


def _fake(
    dpy: xdisplay.Display, keycode: int, down: bool, deliver: Callable[[], None] | None
) -> None:
    if deliver is None:
        xtest.fake_input(dpy, X.KeyPress if down else X.KeyRelease, keycode)
    else:
        deliver()


class XTestKeys(KeyDriver):
    """XTest fake key events by keycode, to Fuse's top-level window only.

    No stop is raised inside a call on its X connection (python-xlib does not survive an
    exception in the middle of a request): the stop is looked at between key events.
    A forced end releases the keys held on a fresh connection (``release_fresh``).
    """

    needs_xtest = True
    targeted = False  # an XTest event goes where the focus is: see ``send_guarded``

    def __init__(
        self,
        display: str,
        window_id: int,
        timing: KeyTiming = DEFAULT_TIMING,
        take_focus: bool = True,
        policy: FocusPolicy | None = None,
    ) -> None:
        super().__init__(timing)
        self.display = display
        self._dpy = open_display(display)
        if self.needs_xtest and not self._dpy.has_extension("XTEST"):
            raise DisplayError(f"the X display {display} has no XTEST extension")
        self.window_id = window_id
        self._window = self._dpy.create_resource_object("window", window_id)
        self._grab_watch = GrabWatch(self._dpy, self._window)
        self._ancestry = FocusAncestry(self._dpy, window_id)
        self._grab_watch.listeners.append(self._ancestry.take)
        self.policy = policy or FocusPolicy(take_back=take_focus)
        self.cover: CoverWatch | None = None  # set by the session: no press while covered
        self._fresh_cover = True  # the next press asks the server whether Fuse is covered
        self.round_trip_s = 0.001  # the slowest recent focus check (decays)
        # a round trip after each event: a hold or gap is then timed from the moment the
        # server ran the event, not from when it left (docs/benchmarks.md: "Key events")
        self.sync_events = True
        self._closed = False
        self._codes: dict[str, int] = {}
        self._unforce = interrupts.on_force(self.release_fresh)

    @property
    def take_focus(self) -> bool:
        return self.policy.take_back

    def keycode(self, key: str) -> int:
        code = self._codes.get(key)
        if code is None:
            name = KEYSYM_NAMES.get(key.lower(), key)
            sym = XK.string_to_keysym(name)
            code = self._dpy.keysym_to_keycode(sym) if sym else 0
            if not code:
                raise ProfileError(f"no keycode for key {key!r} on this X display")
            self._codes[key] = code
        return code

    def held_keycodes(self) -> list[int]:
        """Keycodes of the keys held down now (for a release from another thread)."""
        return [self._codes[key] for key in self.held() if key in self._codes]

    def focused(self) -> bool:
        """Fuse (or its focus child) has the input focus: one round trip once the focus
        window's place in the tree is known."""
        started = time.perf_counter()
        focus = focus_id(self._dpy)
        self._grab_watch.drain()  # the ancestry hears of changes before it answers
        inside = self._ancestry.holds(focus)
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
        that window. The focus is polled while more than a poll and a round trip are
        left; the rest is waited precisely (the release's own check guards it)."""
        while when - time.perf_counter() > poll_s + self.round_trip_s:
            interrupts.check()  # a safe point: the key is released on the way out
            if not self._may_hold():  # a round trip
                return
            time.sleep(max(0.0, min(poll_s, when - time.perf_counter() - 0.002)))
        self._wait_until(when)

    def _may_hold(self) -> bool:
        """Fuse still has the focus and no other client holds the keyboard (a round
        trip): a key held until seen is let go at once otherwise, as in ``_hold_until``."""
        return self.focused() and not self._grab_watch.held()

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
        """No check here: the first press checks the cover afresh and the focus under the
        server grab, and a refused press waits (``regain_focus``) or cuts the burst, as
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
        return send_guarded(
            self._dpy,
            self.window_id,
            code,
            down,
            lambda: self._deliver(key, code, down),
            self._grab_watch,
            self._ancestry,
            self.sync_events,
            targeted=self.targeted,
        )

    def _send_roll(self, up: str, key: str) -> bool:
        """``up``'s release and ``key``'s press under one grab and one focus check."""
        if self._cover_blocks():
            self._send(up, False)
            return False
        up_code, code = self.keycode(up), self.keycode(key)
        return send_guarded(
            self._dpy,
            self.window_id,
            code,
            True,
            lambda: self._deliver(key, code, True),
            self._grab_watch,
            self._ancestry,
            self.sync_events,
            let_go=(up_code, lambda: self._deliver(up, up_code, False)),
            targeted=self.targeted,
        )

    def _deliver(self, key: str, code: int, down: bool) -> None:
        xtest.fake_input(self._dpy, X.KeyPress if down else X.KeyRelease, code)

    def release_on(self, dpy: xdisplay.Display, codes: list[int]) -> None:
        """Release ``codes`` from another connection (the abort key's thread), each under
        the same focus check as any release."""
        for code in codes:
            send_guarded(dpy, self.window_id, code, False)

    def release_fresh(self, reason: str = "") -> None:
        """Release the keys held now on a connection of its own, with no check (a forced
        end: the bot's own connection may be in the middle of a request)."""
        codes = self.held_keycodes()
        if not codes:
            return
        dpy = open_display(self.display)
        try:
            self._release_plain(dpy, codes)
            dpy.sync()
        finally:
            dpy.close()

    def _release_plain(self, dpy: xdisplay.Display, codes: list[int]) -> None:
        for code in codes:
            xtest.fake_input(dpy, X.KeyRelease, code)

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
            self._dpy.close()


def expand(sequence: Iterable[str]) -> list[str]:
    """Key names from a profile sequence such as ``["space", "2", "5", "enter"]``."""
    return [str(k) for k in sequence]
