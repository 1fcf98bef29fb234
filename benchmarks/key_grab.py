"""What the server grab around a key event costs, and whom: events addressed to a window
with and without it, in one run.

    .venv/bin/python benchmarks/key_grab.py --events 2000

On a private Xvfb a plain window stands for Fuse's. The bot's connection sends key events
addressed to it (``window_keys.send_key``, a release after each press), each after a
focus check, with a round trip after each, as ``WindowKeys`` does: ``grabbed`` with the
server grabbed around the check and the event (as ``--keys xtest`` sends), ``ungrabbed``
without. Meanwhile a second client (standing for every other program on the person's
display) asks the server for the focus in a loop; its slowest answers show how long the
grab held it. Prints ms per event for each way, the second client's p50/p99/max wait,
and the ratio ungrabbed / grabbed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from Xlib import X

from logo_bot.bot.x11.display import XServer, open_display
from logo_bot.bot.x11.key_guard import focus_id
from logo_bot.bot.x11.keyboard_grab import server_grabbed
from logo_bot.bot.x11.window_keys import send_key


def other_client(display: str, stop: threading.Event, waits: list[float]) -> None:
    dpy = open_display(display)
    try:
        while not stop.is_set():
            started = time.perf_counter()
            dpy.get_input_focus()
            waits.append(time.perf_counter() - started)
    finally:
        dpy.close()


def run(display: str, events: int, grabbed: bool) -> tuple[float, list[float]]:
    dpy = open_display(display)
    root = dpy.screen().root
    window = root.create_window(0, 0, 320, 240, 0, X.CopyFromParent)
    window.map()
    dpy.sync()
    window.set_input_focus(X.RevertToParent, X.CurrentTime)
    dpy.sync()
    code = dpy.keysym_to_keycode(0x0070)  # p
    stop, waits = threading.Event(), []
    other = threading.Thread(target=other_client, args=(display, stop, waits))
    other.start()
    started = time.perf_counter()
    try:
        for i in range(events):
            down = i % 2 == 0
            if grabbed:
                with server_grabbed(dpy):
                    focus_id(dpy)
                    send_key(dpy, window, code, down, 0)
            else:
                focus_id(dpy)
                send_key(dpy, window, code, down, 0)
                dpy.sync()
        took = time.perf_counter() - started
    finally:
        stop.set()
        other.join()
        window.destroy()
        dpy.close()
    return took / events * 1000, waits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3, help="each way, in turn")
    args = parser.parse_args(argv)
    per_event: dict[str, list[float]] = {"grabbed": [], "ungrabbed": []}
    waits: dict[str, list[float]] = {"grabbed": [], "ungrabbed": []}
    with XServer.start() as xserver:
        for _ in range(args.rounds):
            for way in per_event:
                ms, seen = run(xserver.display, args.events, way == "grabbed")
                per_event[way].append(ms)
                waits[way].extend(seen)
    print(f"{'way':10} {'ms/event':>9} {'other p50':>10} {'other p99':>10} {'other max':>10}")
    for way in per_event:
        seen = sorted(waits[way])
        p99 = seen[int(len(seen) * 0.99)] * 1000
        print(
            f"{way:10} {statistics.median(per_event[way]):9.3f} "
            f"{statistics.median(seen) * 1000:10.3f} {p99:10.3f} {seen[-1] * 1000:10.3f}"
        )
    ratio = statistics.median(per_event["ungrabbed"]) / statistics.median(per_event["grabbed"])
    print(f"ungrabbed / grabbed, ms per event: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
