"""``events.jsonl``: one JSON object per line for everything the bot saw and did."""

from __future__ import annotations

import contextlib
import fcntl
import json
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from logo_bot.solvers.board import Board


def jsonable(value: Any) -> Any:
    """``value`` with boards, tuples, counters and paths turned into JSON values."""
    if isinstance(value, Board):
        return str(value).splitlines()
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


class EventLog:
    """Appends events with a wall timestamp, flushing each line (a crash loses none).

    While it is open it holds an exclusive ``flock`` on the file: the kernel drops the
    lock when the process ends in any way, SIGKILL included, so ``being_written`` tells
    a run in progress from one whose writer died (see ``RunFolder.state``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO | None = open(path, "a", encoding="utf-8")  # noqa: SIM115
        with contextlib.suppress(OSError):  # held elsewhere, or a file system without locks
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        self.count = 0
        self._lock = threading.Lock()  # a forced end writes from another thread

    def write(self, event: str, frame: int | None, segment: int | None, /, **data: Any) -> None:
        line = {"t": round(time.time(), 4), "event": event, "frame": frame, "segment": segment}
        line.update(jsonable(data))
        with self._lock:
            if self._file is None:
                return
            self._file.write(json.dumps(line, separators=(",", ":")) + "\n")
            self._file.flush()
            self.count += 1

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def being_written(path: Path) -> bool:
    """Whether a live process holds ``path`` open as its ``EventLog`` (its lock is taken)."""
    try:
        with open(path, "rb") as file:
            try:
                fcntl.flock(file.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(file.fileno(), fcntl.LOCK_UN)
    except OSError:
        return False
    return False


def read_events(path: Path) -> list[dict[str, Any]]:
    """Every event in ``path`` (a last line cut short by a crash is left out)."""
    events = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    return events
