"""Stopping a run at once: a global abort key grabbed on the X display, like Ctrl-C.

``guard`` is used around a run. The abort key (Pause unless the profile or
``--abort-key`` says otherwise) is grabbed on the root window of every display given -
the game's, and the person's own when the game runs on a private Xvfb - so it works
whichever window has the focus. A thread per display waits for it on its own X
connection, releases every held key itself at once (the same release as any key
event's), then asks the run to stop (``bot.interrupts.request``), as Ctrl-C does; the
bot honours it at its next safe point. A release that fails is said (a warning), and
the run is stopped all the same (its way out releases the keys again). Closing the
session then stops Fuse and the run folder is finished, marked aborted. The thread
never raises: a display that goes away ends it quietly.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from Xlib import XK, X
from Xlib.error import CatchError

from logo_bot.bot import interrupts, stopping
from logo_bot.bot.errors import DisplayError, UsageError
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.keys import KeyDriver

log = logging.getLogger(__name__)

FUSE_KEYS = {f"F{n}" for n in range(1, 11)}  # Fuse's own menu keys


def check_abort_key(name: str, game_keys: set[str]) -> str | None:
    """The X keysym name of ``name``, or None for "none"; ``UsageError`` for a key that
    Fuse or the game needs, or that X does not know."""
    if name.lower() in ("", "none", "off"):
        return None
    if name.upper() in FUSE_KEYS:
        raise UsageError(
            f"--abort-key {name}: F1-F10 are Fuse's own menu keys",
            hint="choose Pause, F11, F12 or Scroll_Lock",
        )
    if name.lower() in {k.lower() for k in game_keys} or len(name) == 1:
        raise UsageError(
            f"--abort-key {name}: the game uses that key",
            hint="choose a key the Spectrum does not have, such as Pause or F12",
        )
    if not XK.string_to_keysym(name):
        raise UsageError(f"--abort-key {name}: X knows no key of that name", hint="try Pause")
    return name


class AbortHotkey:
    """A thread that waits for ``key`` anywhere on ``display`` and then aborts the run."""

    def __init__(
        self,
        display: str,
        key: str,
        keys: Callable[[], KeyDriver | None],
        on_abort: Callable[[str], None],
    ) -> None:
        self.display = display
        self.key = key
        self.keys = keys
        self.on_abort = on_abort
        self.dpy = open_display(display)
        self.root = self.dpy.screen().root
        self.keycode = self.dpy.keysym_to_keycode(XK.string_to_keysym(key))
        if not self.keycode:
            self.dpy.close()
            raise UsageError(f"the abort key {key} has no keycode on display {display}")
        catch = CatchError()
        self.root.grab_key(
            self.keycode, X.AnyModifier, True, X.GrabModeAsync, X.GrabModeAsync, onerror=catch
        )
        self.dpy.sync()
        if catch.get_error():
            self.dpy.close()
            raise UsageError(
                f"another program has taken the {key} key, so it cannot abort the bot",
                hint="choose another with --abort-key KEY (or --abort-key none)",
            )
        self.fired_at: float | None = None
        self.released_s: float | None = None
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()  # close() writes: the thread's wait ends
        self._thread = threading.Thread(target=self._watch, name="abort-key", daemon=True)

    def start(self) -> AbortHotkey:
        self._thread.start()
        return self

    def _watch(self) -> None:
        try:
            self._wait_for_key()
        except Exception as exc:  # the display went away: the run finds out by itself
            log.debug("the abort key's watch on %s ended: %s", self.display, exc)

    def _wait_for_key(self) -> None:
        """Sleep until the server sends something or ``close`` writes to the wake-up pipe
        (no timeout: an idle run is not woken ten times a second)."""
        fds = [self.dpy.fileno(), self._wake_r]
        while not self._stop.is_set():
            if not self.dpy.pending_events():
                select.select(fds, [], [])
                if not self.dpy.pending_events():
                    continue
            event = self.dpy.next_event()
            if event.type == X.KeyPress and event.detail == self.keycode:
                self.fire()
                return

    def fire(self) -> None:
        """Release every held key now, on this thread's connection, then interrupt: the
        run stops even when the release fails (which is said)."""
        self.fired_at = time.perf_counter()
        try:
            held = self._release_held()
        except Exception as exc:
            log.warning(
                "the %s key: the held keys could not be released (%s: %s); stopping, and "
                "releasing them on the way out",
                self.key,
                type(exc).__name__,
                exc,
            )
        else:
            self.released_s = time.perf_counter() - self.fired_at
            log.warning(
                "the %s key: %d held keys released in %.1f ms; stopping",
                self.key,
                held,
                self.released_s * 1000,
            )
        self.on_abort(stopping.abort_message(self.key))

    def _release_held(self) -> int:
        """Release the keys the driver holds, on the game's display; how many."""
        driver = self.keys()
        held: list[int] = getattr(driver, "held_keycodes", list)()
        release_on = getattr(driver, "release_on", None)  # the X key drivers'
        game_display = getattr(driver, "display", self.display)
        if held and release_on is not None:
            # The keys are held on the game's display, which may not be this one.
            dpy = self.dpy if game_display == self.display else open_display(game_display)
            try:
                release_on(dpy, held)
            finally:
                if dpy is not self.dpy:
                    dpy.close()
        return len(held)

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        os.write(self._wake_w, b"x")
        current = self._thread is threading.current_thread()
        if self._thread.is_alive() and not current:
            self._thread.join(1.0)
        if current or not self._thread.is_alive():  # else its wait still holds the pipe
            for fd in (self._wake_r, self._wake_w):
                os.close(fd)
        try:
            self.root.ungrab_key(self.keycode, X.AnyModifier, onerror=CatchError())
            self.dpy.sync()
        except Exception as exc:  # the display is gone: so is the grab
            log.debug("letting go of the abort key on %s: %s", self.display, exc)
        finally:
            self.dpy.close()


@contextmanager
def guard(
    displays: str | Sequence[str] | None, key: str | None, keys: Callable[[], KeyDriver | None]
) -> Iterator[list[AbortHotkey]]:
    """While the block runs, the abort key (with a ``key``) on any of ``displays`` asks
    the run to stop (``interrupts.request``), as Ctrl-C does; the bot honours it at its
    next safe point."""
    hotkeys: list[AbortHotkey] = []
    names = [displays] if isinstance(displays, str) else list(displays or ())
    try:
        if key:
            for display in dict.fromkeys(names):
                hotkeys.append(AbortHotkey(display, key, keys, interrupts.request).start())
        yield hotkeys
    finally:
        for hotkey in hotkeys:
            hotkey.close()


def abort_displays(game_display: str, private: bool) -> list[str]:
    """Where the abort key is grabbed: the game's display, and the person's own
    (``$DISPLAY``) too when the game runs on a private Xvfb and that display opens."""
    out = [game_display]
    own = os.environ.get("DISPLAY")
    if private and own and own != game_display:
        try:
            open_display(own).close()
        except DisplayError as exc:
            log.warning("the abort key works only on %s: %s", game_display, exc.message)
        else:
            out.append(own)
    return out
