"""A small X window that takes the keyboard focus when told and logs every key it gets.

A standalone program (``python -m faults.sentinel --display :N --log FILE``): it maps
a 100x100 window, prints ``ready WINDOW_ID`` once the window is viewable (a window
manager maps it in its own time), appends one JSON line to the log for every
key press or release it receives, and obeys commands on stdin, one a line:

- ``steal``: take the input focus (answers ``stolen PREVIOUS_ID``, or ``missed
  PREVIOUS_ID`` when the server still refused it a while after asking)
- ``return``: give it back to the window that had it, if that still exists, else to
  PointerRoot (answers ``returned``)
- ``grab`` / ``grab-root``: take an active keyboard grab on its own window / on the
  root window, leaving the focus where it is, as a screen locker or a password prompt
  does (answers ``grabbed STATUS``, 0 for success)
- ``ungrab``: let go of the keyboard (answers ``ungrabbed``)
- ``count``: answers the number of key events received
- ``quit``: exit

With ``--steal-every S`` it also steals the focus on its own, at random moments (S
seconds apart on average, ``--seed``), and gives it back after ``--hold`` seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import sys
import time
from pathlib import Path

from Xlib import XK, X, Xutil
from Xlib.error import CatchError, XError

from logo_bot.bot.errors import BotError
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.key_guard import focus_id


class SentinelWindow:
    def __init__(self, display: str, log: Path, at: tuple[int, int] = (400, 400)) -> None:
        self.dpy = open_display(display)
        screen = self.dpy.screen()
        self.window = screen.root.create_window(
            at[0],
            at[1],
            100,
            100,
            0,
            screen.root_depth,
            background_pixel=screen.white_pixel,
            event_mask=X.KeyPressMask | X.KeyReleaseMask | X.FocusChangeMask,
        )
        self.window.set_wm_name("logo-bot sentinel")
        self.window.set_wm_class("logo-bot-sentinel", "Sentinel")
        # a window manager keeps a position the program asks for (off Fuse, not over it)
        self.window.set_wm_normal_hints(flags=Xutil.USPosition, x=at[0], y=at[1])
        self.window.map()
        self.dpy.sync()
        self._wait_viewable()
        self.log = log.open("a", encoding="utf-8")
        self.received = 0
        self.previous: int | None = None

    def _wait_viewable(self, timeout_s: float = 5.0) -> None:
        """Until the window manager has mapped the window (only a viewable window can
        take the focus); ``BotError`` after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while self.window.get_attributes().map_state != X.IsViewable:
            if time.monotonic() > deadline:
                raise BotError(f"the sentinel window was not mapped within {timeout_s:.0f} s")
            time.sleep(0.01)

    def steal(self, timeout_s: float = 5.0) -> tuple[int, bool]:
        """Take the focus: the window that had it, and whether the server gave it (asked
        again, briefly, while it refuses: a window not viewable cannot have the focus).
        Given, the focus may be taken back at once, by the bot: that is not asked again."""
        previous = focus_id(self.dpy) or 0
        if previous != self.window.id:
            self.previous = previous or None
        deadline = time.monotonic() + timeout_s
        while True:
            catch = CatchError()
            self.window.set_input_focus(X.RevertToPointerRoot, X.CurrentTime, onerror=catch)
            self.dpy.sync()
            if catch.get_error() is None:
                return previous, True
            if time.monotonic() > deadline:
                return previous, False
            time.sleep(0.01)

    def give_back(self) -> None:
        target = None
        if self.previous:
            target = self.dpy.create_resource_object("window", self.previous)
            try:
                target.get_attributes()
            except XError:
                target = None
        catch = CatchError()
        if target is None:
            self.dpy.set_input_focus(X.PointerRoot, X.RevertToPointerRoot, X.CurrentTime)
        else:
            target.set_input_focus(X.RevertToParent, X.CurrentTime, onerror=catch)
        self.dpy.sync()

    def grab(self, root: bool = False) -> int:
        """An active keyboard grab on this window (or the root); the X status."""
        window = self.dpy.screen().root if root else self.window
        status = window.grab_keyboard(False, X.GrabModeAsync, X.GrabModeAsync, X.CurrentTime)
        self.dpy.sync()
        return status

    def ungrab(self) -> None:
        self.dpy.ungrab_keyboard(X.CurrentTime)
        self.dpy.sync()

    def drain(self) -> None:
        while self.dpy.pending_events():
            event = self.dpy.next_event()
            if event.type not in (X.KeyPress, X.KeyRelease):
                continue
            self.received += 1
            sym = self.dpy.keycode_to_keysym(event.detail, 0)
            record = {
                "t": time.time(),
                "type": "press" if event.type == X.KeyPress else "release",
                "keycode": event.detail,
                "keysym": XK.keysym_to_string(sym) or str(sym),
            }
            self.log.write(json.dumps(record) + "\n")
            self.log.flush()

    def close(self) -> None:
        self.log.close()
        self.window.destroy()
        self.dpy.close()


def serve(window: SentinelWindow, steal_every: float, hold: float, seed: int) -> None:
    rng = random.Random(seed)
    next_steal = time.monotonic() + rng.expovariate(1 / steal_every) if steal_every else None
    give_back_at: float | None = None
    pending = b""
    say(f"ready {window.window.id}")
    while True:
        window.drain()
        now = time.monotonic()
        if give_back_at is not None and now >= give_back_at:
            window.give_back()
            give_back_at = None
            say("returned")
        if next_steal is not None and now >= next_steal:
            say(stolen(*window.steal()))
            give_back_at = now + hold if hold > 0 else None
            next_steal = now + rng.expovariate(1 / steal_every)
        timers = [t for t in (next_steal, give_back_at) if t is not None]
        timeout = max(0.0, min(timers) - time.monotonic()) if timers else None
        ready, _, _ = select.select([window.dpy.fileno(), 0], [], [], timeout)
        if 0 not in ready:
            continue
        chunk = os.read(0, 4096)
        if not chunk:
            return
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            command = line.decode().strip()
            window.drain()
            if command == "steal":
                say(stolen(*window.steal()))
            elif command == "return":
                window.give_back()
                say("returned")
            elif command in ("grab", "grab-root"):
                say(f"grabbed {window.grab(root=command == 'grab-root')}")
            elif command == "ungrab":
                window.ungrab()
                say("ungrabbed")
            elif command == "count":
                say(str(window.received))
            elif command == "quit":
                return
            elif command:
                say(f"error unknown command {command!r}")


def stolen(previous: int, took: bool) -> str:
    return f"{'stolen' if took else 'missed'} {previous}"


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m faults.sentinel",
        description="A window that steals the keyboard focus and logs every key it receives "
        "(it must receive none while the bot plays).",
    )
    p.add_argument("--display", default=os.environ.get("DISPLAY"), help="X display")
    p.add_argument("--log", type=Path, required=True, help="append received keys here (JSON)")
    p.add_argument("--steal-every", type=float, default=0.0, metavar="S", help="mean seconds")
    p.add_argument("--hold", type=float, default=0.0, metavar="S", help="then give focus back")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--at", default="400,400", metavar="X,Y", help="window position")
    args = p.parse_args(argv)
    if not args.display:
        p.error("no X display: give --display")
    try:
        x, y = (int(v) for v in args.at.split(","))
        window = SentinelWindow(args.display, args.log, (x, y))
    except BotError as exc:
        print(f"sentinel: error: {exc}", file=sys.stderr)
        return exc.exit_code
    try:
        serve(window, args.steal_every, args.hold, args.seed)
    except KeyboardInterrupt:
        pass
    finally:
        window.drain()
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
