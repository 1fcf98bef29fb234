"""Pressing Spectrum keys, timed from the actual previous event: what every key driver
does (bursts, chords, typed text, keys held until the game shows them, rollover), on top
of one ``_send`` per event that its subclass makes (``x11_keys.X11Keys`` for Fuse on X11;
the fakes of the tests).

Whatever happens after a press (an error, Ctrl-C, a stop asked for), the key is
released. A press refused because Fuse lacks the focus waits for it (``regain_focus``);
a long wait drops the rest of the burst (``BurstCut``), and the caller looks again.

One piece over 300 lines: the timing of bursts, held keys and rollover and the
bookkeeping of the keys down (every press released, every event timed) are one contract,
read together.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from logo_bot.bot import interrupts
from logo_bot.bot.errors import FocusLost

if TYPE_CHECKING:
    from logo_bot.bot.x11.picture_watch import PictureWatch


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
        # in ``taps_until``: each key is held until seen, so no event is timed by the clock
        self.by_sight = False
        # set by the session: a key held until seen waits for Fuse to draw, not a poll
        self.picture: PictureWatch | None = None

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
        late its look at the keys comes, and no longer. With a ``picture`` watch, a look
        comes only once Fuse has drawn since the last one (the first may be a picture
        drawn before the press: a wasted look costs about what a sleep until a likelier
        moment would). Without one, the first look comes ``first_look_ms`` after the
        press (sooner the game cannot show it), then one every ``poll_s``. The time
        spent in ``seen`` is not counted as held."""
        taps = Taps()
        down: str | None = None  # the key held now
        self.by_sight = True
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
                watched = self.picture is not None  # each wake is a frame or an event
                if not watched:  # with a watch, the first look waits for Fuse to draw
                    self._hold_until(self._last_event + min(first_look_ms, longest_ms) / 1000)
                checked = time.perf_counter()
                # the last wait said Fuse drew: look (the first wait returns at once when
                # Fuse drew since the last look, before the press or after it)
                drawn = False
                waited = False  # before the first wait the press's own check stands
                while True:
                    if not watched or drawn:
                        started = time.perf_counter()
                        shown = seen(i)
                        looking += time.perf_counter() - started
                    if shown or time.perf_counter() >= end:
                        break
                    # watched: before each wait but the first (the press's check stands)
                    polled = time.perf_counter() - checked >= self.hold_check_s
                    ask = waited if watched else polled
                    if ask:
                        checked = time.perf_counter()
                        if not self._may_hold():  # let go at once: the release is swallowed
                            break
                    if watched:
                        drawn, waited = self._wait_drawn(end), True
                    else:
                        self._hold_until(min(end, time.perf_counter() + poll_s))
                self.clock.held_s += time.perf_counter() - self._last_event - looking
                if not shown:
                    break
                taps.seen += 1
        except BurstCut:
            pass
        finally:
            self.by_sight = False
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

    def _wait_drawn(self, end: float) -> bool:
        """Keep the keys down until Fuse has drawn since the last look (True) or until
        ``end`` (``perf_counter``; False), by the ``picture`` watch (subclasses wake for
        their focus events too, and then say whether Fuse has drawn meanwhile)."""
        assert self.picture is not None
        return self.picture.wait(time.monotonic() + end - time.perf_counter())

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
        the driver checks every press itself (``x11_keys.X11Keys``)."""
        self.check_focus()

    def regain_focus(self) -> float:
        """Called after a press was refused: wait for the focus (returns the seconds
        waited), or raise ``FocusLost``."""
        raise FocusLost("the Fuse window does not have the keyboard focus, so no key was sent")

    def _send(self, key: str, down: bool) -> bool:
        raise NotImplementedError
