"""Driving the sentinel program (``faults.sentinel``) as a focus thief from Python."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from faults import ROOT
from logo_bot.bot.errors import BotError


class FocusThief:
    """A sentinel subprocess on ``display`` that steals the focus when told to."""

    def __init__(
        self, display: str, log: Path, timeout: float = 10.0, at: tuple[int, int] = (400, 400)
    ) -> None:
        self.log = log
        self.timeout = timeout
        self.steals = 0
        # each theft: when (time.monotonic()), the window that had the focus, whether it took
        self.thefts: list[tuple[float, int, bool]] = []
        self._lock = threading.Lock()
        self._buffer = b""
        log.parent.mkdir(parents=True, exist_ok=True)
        log.touch()
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "faults.sentinel", "--display", display),
                *("--log", str(log), "--at", f"{at[0]},{at[1]}"),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=ROOT,
            start_new_session=True,
        )
        try:
            reply = self._read_line()
            if not reply.startswith("ready "):
                raise BotError(f"the sentinel did not start: {reply!r}")
        except BaseException:
            self.close()
            raise
        self.window_id = int(reply.split()[1])

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read_line(self) -> str:
        assert self.process.stdout is not None
        deadline = time.monotonic() + self.timeout
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(left, 0))
            chunk = os.read(fd, 4096) if ready else b""
            if not chunk:
                raise BotError(f"the sentinel (pid {self.pid}) stopped answering")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode().strip()

    def _ask(self, command: str) -> str:
        with self._lock:
            assert self.process.stdin is not None
            self.process.stdin.write(command.encode() + b"\n")
            self.process.stdin.flush()
            return self._read_line()

    def steal(self) -> int:
        """Take the keyboard focus now; returns the id of the window that had it.
        ``BotError`` when the sentinel could not get the focus."""
        reply = self._ask("steal")
        word, number = reply.split()[:2]
        previous = int(number)
        self.thefts.append((time.monotonic(), previous, word == "stolen"))
        if word != "stolen":
            raise BotError(f"the sentinel could not take the focus: {reply!r}")
        self.steals += 1
        return previous

    def give_back(self) -> None:
        self._ask("return")

    def grab_keyboard(self, root: bool = False) -> None:
        """Take an active keyboard grab (on the sentinel's window, or the root) without
        taking the focus, as a screen locker does."""
        reply = self._ask("grab-root" if root else "grab")
        if reply != "grabbed 0":
            raise BotError(f"the sentinel could not grab the keyboard: {reply!r}")

    def ungrab_keyboard(self) -> None:
        self._ask("ungrab")

    def steal_later(self, delay_s: float, hold_s: float | None = None) -> threading.Thread:
        """Steal from a thread after ``delay_s`` (mid-burst); give back after ``hold_s``."""

        def run() -> None:
            time.sleep(delay_s)
            try:
                self.steal()
            except BotError:
                return  # in ``thefts``, for the test to report
            if hold_s is not None:
                time.sleep(hold_s)
                self.give_back()

        thread = threading.Thread(target=run, name="focus-thief", daemon=True)
        thread.start()
        return thread

    def keys_received(self) -> int:
        return len(self.events())

    def events(self) -> list[dict[str, Any]]:
        """Every key event the sentinel logged (it logs each as it arrives)."""
        if self.process.poll() is None:
            self._ask("count")  # the sentinel logs pending events before answering
        text = self.log.read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(b"quit\n")
                self.process.stdin.flush()
                self.process.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()

    def __enter__(self) -> FocusThief:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
