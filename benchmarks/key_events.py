"""X round trips per key: the guarded key events of an older key driver and today's, in one run.

    .venv/bin/python benchmarks/key_events.py --speed 200 --bursts 60 --keys 9

On a private Xvfb (and again under openbox), Fuse runs the practice game and bursts of
``--keys`` presses (two keys in turn, rollover: no gap) go to it, each way in turn so
that both share the machine's load:

- ``before``: the key driver as it was (a focus and cover check before each burst, a
  fresh cover check before every press, the focus window's ancestry walked at every
  check, a round trip after every event, the focus polled to the end of each hold);
- ``after``: ``X11Keys`` with XTest events as it is (the cover asked afresh at a burst's
  first press, the ancestry remembered, the stacked windows asked at once, no poll in a
  hold's last stretch, still a round trip after each event);
- ``after+flush``: the same with only a flush after each event (``sync_events`` off: not
  chosen, the hold would be timed from when a press left, not from when it ran).

Per key it prints the milliseconds in key events (two a key), in checks before the
burst, the hold's overshoot past the asked hold, the whole key, and ratios to ``before``.
Every key event is still checked under a server grab in every way.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from Xlib import X

from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.profile import load_profile
from logo_bot.bot.x11.cover import CoverWatch
from logo_bot.bot.x11.display import XServer
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.key_delivery import XTestDelivery
from logo_bot.bot.x11.key_guard import FocusCheck, KeyEvent, focus_within, send_grabbed
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.bot.x11.window import Region, top_level
from logo_bot.bot.x11.x11_keys import X11Keys
from tests.bot.desktop import window_manager


class TimedKeys(X11Keys):
    """``X11Keys`` that also times what it does before each burst."""

    checks_s = 0.0

    def _start_burst(self) -> None:
        started = time.perf_counter()
        try:
            super()._start_burst()
        finally:
            self.checks_s += time.perf_counter() - started


class BeforeKeys(TimedKeys):
    """The older driver: checks before every burst and press (kept here only, to compare
    in one run)."""

    def _start_burst(self) -> None:
        started = time.perf_counter()
        try:
            self.check_focus()
        finally:
            self.checks_s += time.perf_counter() - started

    def _wait_until(self, when: float) -> None:
        while (left := when - time.perf_counter()) > 0:
            time.sleep(left if left > 0.002 else 0)

    def focused(self) -> bool:
        return focus_within(self._dpy, self.window_id)

    def _hold_until(self, when: float, poll_s: float = 0.004) -> None:
        while (left := when - time.perf_counter()) > 0:
            if not self.focused() or self._grab_watch.held():
                return
            time.sleep(min(left, poll_s))

    def _send(self, key: str, down: bool) -> bool:
        code = self.keycode(key)
        if down and self.covered():
            return False
        event = KeyEvent(code, lambda: self._deliver(key, code, down))
        check = FocusCheck(self._dpy, self.window_id, self._grab_watch)
        return send_grabbed(check, [] if down else [event], event if down else None)


class BeforeCover(CoverWatch):
    """The cover watch as it was: each window stacked over Fuse asked in turn."""

    def over(self, fresh: bool = False) -> list[Region]:
        if fresh or time.monotonic() - self._checked >= self.every_s:
            self._over = self._one_by_one(self.area())
            self._checked = time.monotonic()
        return self._over

    def _one_by_one(self, area: Region) -> list[Region]:
        dpy = self._dpy
        top = top_level(dpy, self._window)
        stack = dpy.screen().root.query_tree().children
        ids = [w.id for w in stack]
        over = []
        for other in stack[ids.index(top.id) + 1 :] if top.id in ids else []:
            attributes = other.get_attributes()
            if attributes.map_state != X.IsViewable or attributes.win_class == X.InputOnly:
                continue
            g = other.get_geometry()
            region = Region(g.x, g.y, g.width + 2 * g.border_width, g.height + 2 * g.border_width)
            if region.intersects(area):
                over.append(region)
        return over


@dataclass
class Tally:
    keys: int = 0
    wall_s: float = 0.0
    refused: int = 0


WAYS = {"before": (BeforeKeys, True), "after": (TimedKeys, True), "after+flush": (TimedKeys, False)}


def drivers(session: Session, timing: KeyTiming) -> dict[str, TimedKeys]:
    """Each way's driver, with a cover watch of its own (as the session makes one)."""
    made = {}
    display, window_id = session.keys.display, session.keys.window_id
    for name, (kind, sync) in WAYS.items():
        driver = kind(display, window_id, XTestDelivery, timing, policy=FocusPolicy())
        driver.sync_events = sync
        watch = BeforeCover if kind is BeforeKeys else CoverWatch
        driver.cover = watch(display, window_id, lambda: session.grabber.picture)
        made[name] = driver
    return made


def run(session: Session, hold_ms: float, bursts: int, size: int) -> list[str]:
    timing = KeyTiming(hold_ms, hold_ms, rollover=True)
    keys = drivers(session, timing)
    tally = {name: Tally() for name in keys}
    burst = ["o", "p"] * (size // 2) + ["o"] * (size % 2)
    try:
        for _ in range(bursts):
            for name, driver in keys.items():
                events = driver.clock.events
                started = time.perf_counter()
                driver.burst(burst)
                tally[name].wall_s += time.perf_counter() - started
                tally[name].keys += size
                tally[name].refused += driver.clock.events - events - 2 * size
                time.sleep(0.02)  # the bot looks at the screen between bursts
    finally:
        for driver in keys.values():
            driver.close()
            if driver.cover is not None:
                driver.cover.close()
    lines = []
    base: dict[str, float] = {}
    for name, driver in keys.items():
        n = tally[name].keys
        clock = driver.clock
        row = {
            "events": clock.events_s / n * 1000,
            "checks": driver.checks_s / n * 1000,
            "overshoot": clock.held_s / n * 1000 - hold_ms,
            "key": tally[name].wall_s / n * 1000,
        }
        base = base or row
        ratio = "  ".join(f"{row[k] / base[k]:4.2f}" if base[k] > 0 else "  - " for k in row)
        lines.append(
            f"  {name:11} {row['events']:7.2f} {row['checks']:7.2f} {row['overshoot']:9.2f} "
            f"{row['key']:7.2f}   {ratio}   refused {tally[name].refused}"
        )
    return lines


@contextmanager
def desktop(wm: str) -> Iterator[str]:
    with ExitStack() as stack:
        server = stack.enter_context(XServer.start())
        if wm != "none":
            stack.enter_context(window_manager(server.display, wm))
        yield server.display


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--speed", type=int, default=200)
    p.add_argument("--hold", type=float, default=20.0, help="hold = gap ms (rollover)")
    p.add_argument("--bursts", type=int, default=60, help="bursts per way")
    p.add_argument("--keys", type=int, default=9, help="keys per burst")
    p.add_argument("--builds", default="sdl,gtk")
    p.add_argument("--wms", default="none,openbox")
    args = p.parse_args(argv)
    profile = load_profile("practice")
    print(
        f"key events at {args.speed} %, {args.bursts} bursts of {args.keys} keys per way, "
        f"held {args.hold:g} ms (ms per key; ratios to before: events checks overshoot key)"
    )
    for wm in args.wms.split(","):
        for build in args.builds.split(","):
            with desktop(wm) as display:
                options = SessionOptions(
                    display=display, headless=False, speed=args.speed, fuse_build=build
                )
                with open_session(profile, options) as session:
                    print(f"fuse-{build}, window manager: {wm}")
                    print(f"  {'way':11} {'events':>7} {'checks':>7} {'overshoot':>9} {'key':>7}")
                    for line in run(session, args.hold, args.bursts, args.keys):
                        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
