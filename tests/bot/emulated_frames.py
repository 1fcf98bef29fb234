"""Evidence that Fuse has emulated frames, for tests that conclude that something did not
happen (a key not typed, a key not repeated): wall time is no measure of that, since a
busy machine runs Fuse slower than its ``--speed``.

Fuse reads its X events and estimates its speed from the emulation loop, so both are
ticks of emulated time that another X client can see:

* fuse-sdl sets its window title ("Fuse - 100%") once every emulated second, 50 frames
  (FUSE-FACTS.md section 6): each PropertyNotify of WM_NAME marks 50 more frames.
* fuse-gtk keeps its title, but answers ``_NET_WM_PING`` from its event loop, which runs
  once per emulated frame: measured 1.0-1.15 answers per frame when pinged back to back
  at 25, 100 and 200 %. Two answers are counted as one frame, for margin.
"""

from __future__ import annotations

import math
import select
import time

from Xlib import X
from Xlib.protocol import event

from logo_bot.bot.x11.display import open_display

TITLE_FRAMES = 50  # fuse-sdl re-sets its title once per emulated second
PINGS_PER_FRAME = 2  # fuse-gtk: answered pings counted per frame (margin over 1.15)


class EmulatedFrames:
    """Watches the Fuse window ``window_id`` on ``display`` for ticks of emulated time."""

    def __init__(self, display: str, window_id: int) -> None:
        self.dpy = open_display(display)
        self.window = self.dpy.create_resource_object("window", window_id)
        self.window_id = window_id
        self._wm_name = self.dpy.intern_atom("WM_NAME")
        self._ping = self.dpy.intern_atom("_NET_WM_PING")
        self._protocols = self.dpy.intern_atom("WM_PROTOCOLS")
        self.pings = self._ping in (self.window.get_wm_protocols() or [])
        if self.pings:  # the answer goes to the root window
            self.dpy.screen().root.change_attributes(event_mask=X.SubstructureNotifyMask)
        else:
            self.window.change_attributes(event_mask=X.PropertyChangeMask)
        self._sent = 0
        self.dpy.sync()

    def wait(self, frames: int, timeout_s: float = 60.0) -> None:
        """Return once Fuse has emulated at least ``frames`` frames after this call; fail
        when that takes longer than ``timeout_s`` (Fuse stopped, or far too slow)."""
        deadline = time.monotonic() + timeout_s
        self._drain()  # ticks before this call prove nothing about the frames after it
        if self.pings:
            for _ in range(frames * PINGS_PER_FRAME):
                self._ping_once(deadline, frames)
            return
        # the first tick may come at once; from it, each tick is 50 more frames
        ticks = math.ceil(frames / TITLE_FRAMES) + 1
        while ticks:
            tick = self._next_event(deadline, frames)
            if tick.type == X.PropertyNotify and tick.atom == self._wm_name:
                ticks -= 1

    def _ping_once(self, deadline: float, frames: int) -> None:
        self._sent += 1
        stamp = self._sent
        message = event.ClientMessage(
            window=self.window,
            client_type=self._protocols,
            data=(32, [self._ping, stamp, self.window_id, 0, 0]),
        )
        self.window.send_event(message, event_mask=0)
        self.dpy.flush()
        while True:
            answer = self._next_event(deadline, frames)
            if (
                answer.type == X.ClientMessage
                and answer.client_type == self._protocols
                and list(answer.data[1][:3]) == [self._ping, stamp, self.window_id]
            ):
                return

    def _next_event(self, deadline: float, frames: int):
        while not self.dpy.pending_events():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"Fuse did not emulate {frames} frames in time (its window "
                    f"{self.window_id:#x} showed no tick of emulated time): stopped or stuck?"
                )
            select.select([self.dpy.fileno()], [], [], min(left, 0.05))
        return self.dpy.next_event()

    def _drain(self) -> None:
        self.dpy.sync()
        while self.dpy.pending_events():
            self.dpy.next_event()

    def close(self) -> None:
        self.dpy.close()

    def __enter__(self) -> EmulatedFrames:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def wait_emulated_frames(display: str, window_id: int, frames: int, timeout_s: float = 60) -> None:
    """Block until the Fuse window ``window_id`` has emulated ``frames`` more frames."""
    with EmulatedFrames(display, window_id) as watch:
        watch.wait(frames, timeout_s)
