"""A video of the picture the bot captures itself, for a Fuse that records nothing.

``ScreenCapture`` grabs the picture on its own thread (its own X connection) every
``step`` emulated frames at the speed it is told (``retime`` once the speed has been
measured), and keeps only the frames that changed, with the wall time they were
grabbed (in a ``FrameStore``), so that it costs little while the bot plays. ``render``
writes the MP4 afterwards at ``FRAME_RATE / step`` frames per second: frame i shows the
picture grabbed last before ``i / rate`` emulated seconds, which at the measured speed
is a wall time, so one video second is one emulated second.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from logo_bot.bot.errors import BotError
from logo_bot.bot.frames import FPS, FRAME_RATE
from logo_bot.bot.recording.frame_store import FrameStore, Picture
from logo_bot.bot.recording.video import write_video
from logo_bot.bot.x11.damage import watch_picture
from logo_bot.bot.x11.grab import open_grabber
from logo_bot.bot.x11.picture_watch import Grab

log = logging.getLogger(__name__)


class Clock:
    """The capture's time: monotonic seconds, and a wait that a stop cuts short (a test
    gives a clock of its own)."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, stop: threading.Event, seconds: float) -> bool:
        """Wait ``seconds``, or until ``stop`` is set; whether it was."""
        return stop.wait(seconds)


@dataclass(frozen=True)
class Kept:
    at: float  # wall seconds from the start of the capture
    picture: Picture


class ScreenCapture:
    """Frames of the picture at a steady rate, from ``start()`` to ``stop()``."""

    def __init__(
        self, open_grab: Callable[[], tuple[Grab, Callable[[], None]]], store: Path,
        speed_percent: float, step: int = 2, clock: Clock | None = None,
        origin: float | None = None,
    ) -> None:  # fmt: skip
        self.open_grab = open_grab  # called on the capture thread: (grab, close)
        self.clock = clock or Clock()
        # the run's clock at the Fuse's start (``clock.now()`` time): the video begins there,
        # its first picture shown until the first grab (the thread opens its X connections
        # first, slowly on a busy machine), so a level is where the run's clock puts it
        self.origin = origin
        self.store = FrameStore(store)
        self.step = step
        self.interval_s = self.interval_for(speed_percent)
        self.kept: list[Kept] = []
        self.grabs = 0
        self.late = 0  # grabs that came after their slot had passed (skipped slots)
        self.error: str | None = None
        self.cpu_s = 0.0
        self.reused = 0  # slots filled with a frame the bot had just grabbed itself
        self._offered: tuple[np.ndarray, float] | None = None
        self.started: float | None = None
        self.stopped: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="screen-capture", daemon=True)

    @property
    def rate(self) -> Fraction:
        """Video frames per (emulated) second."""
        return FRAME_RATE / self.step

    def interval_for(self, speed_percent: float) -> float:
        """Wall seconds between grabs: ``step`` emulated frames at that speed."""
        return self.step / (FPS * speed_percent / 100)

    def retime(self, speed_percent: float) -> None:
        """The speed has been measured: grab every ``step`` frames at it from now on."""
        self.interval_s = self.interval_for(speed_percent)

    def offer(self, frame: np.ndarray, at: float) -> None:
        """A frame the bot grabbed at time ``at`` (monotonic, as ``clock.now()``): a slot due
        about then uses it instead of grabbing again (the bot looks far more often than the
        video needs)."""
        self._offered = (frame, at)

    def start(self) -> ScreenCapture:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def _run(self) -> None:
        try:
            grab, close = self.open_grab()
        except Exception as exc:  # the window went away before the first grab
            self.error = f"cannot capture the picture: {exc}"
            return
        try:
            due = self.clock.now()
            self.started = due if self.origin is None else min(self.origin, due)
            while not self._stop.is_set():
                wait = due - self.clock.now()
                if wait > 0 and self.clock.wait(self._stop, wait):
                    break
                offered = self._offered
                if offered is not None and abs(offered[1] - due) <= self.interval_s / 2:
                    frame = offered[0]
                    self.reused += 1
                else:
                    try:
                        frame = grab()
                    except Exception as exc:  # Fuse closed: the video ends here
                        self.error = f"capture stopped: {exc}"
                        break
                at = self.clock.now() - self.started
                self.grabs += 1
                picture = self.store.put(frame)
                if not self.kept or picture != self.kept[-1].picture:  # it changed
                    self.kept.append(Kept(at, picture))
                due += self.interval_s
                if due < self.clock.now():  # fell behind: skip to now
                    self.late += 1
                    due = self.clock.now()
            self.stopped = self.clock.now()
        finally:
            self.store.close()
            self.cpu_s = time.thread_time()  # what the capture cost the machine
            close()

    def pixels(self, kept: Kept) -> np.ndarray:
        return self.store.get(kept.picture)

    def _images(self, frames: int, wall_per_frame: float) -> Iterator[np.ndarray]:
        """Video frame i: the picture grabbed last by ``i * wall_per_frame`` wall seconds
        (the first one until then), each decompressed once."""
        image, nxt = self.pixels(self.kept[0]), 1
        for index in range(frames):
            while nxt < len(self.kept) and self.kept[nxt].at <= index * wall_per_frame:
                image = self.pixels(self.kept[nxt])
                nxt += 1
            yield image

    def render(self, path: Path, speed_percent: float) -> dict[str, Any]:
        """Write the MP4 for emulation at ``speed_percent``; returns what run.json says."""
        self.stop()
        began = time.monotonic()
        now = self.clock.now()
        started = now if self.started is None else self.started
        captured_s = (now if self.stopped is None else self.stopped) - started
        frames = int(captured_s * speed_percent / 100 * float(self.rate))
        wall_per_frame = 100 / (speed_percent * float(self.rate))
        info: dict[str, Any] = {
            "path": None, "frames": None, "codec": None,
            "rate": round(float(self.rate), 3), "speed": speed_percent,
            "captured_s": round(captured_s, 3),
            "grabs": self.grabs, "reused": self.reused, "late_slots": self.late,
            "error": self.error,
            "cpu_s": round(self.cpu_s, 3),
        }  # fmt: skip
        try:
            if not self.kept:
                info["error"] = self.error or "no frame was captured"
                return info
            info.update(write_video(path, self._images(frames, wall_per_frame), self.rate))
        except BotError as exc:
            info["error"] = exc.message
            log.warning("no video: %s", exc.message)
        finally:
            self.store.remove()
            info["seconds_to_encode"] = round(time.monotonic() - began, 3)
        return info


def grab_opener(display: str, window_id: int) -> Callable[[], tuple[Grab, Callable[[], None]]]:
    """Opens a grabber of the window on the capture thread's own X connections, with a
    picture watch of its own (``bot.x11.damage``): a slot when Fuse has drawn nothing
    since the last grab gets that grab's picture again, with no X request."""

    def opener() -> tuple[Grab, Callable[[], None]]:
        grabber = open_grabber(display, window_id)
        try:  # the capture thread ends on its own stop, never on the run's
            watch = watch_picture(display, window_id, safe_point=_no_stop)
        except BaseException:
            grabber.close()
            raise
        last: list[np.ndarray] = []

        def grab() -> np.ndarray:
            if not last or watch.wait(time.monotonic()):  # drawn since the last grab
                last[:] = [watch.look(grabber.grab)]
            return last[0]

        def close() -> None:
            watch.close()
            grabber.close()

        return grab, close

    return opener


def _no_stop() -> None:
    """The capture thread's safe point: its waits never raise a stop."""
