"""``events.jsonl``: one JSON object per line for everything the bot saw and did."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from solvers.board import Board


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
    """Appends events with a wall timestamp, flushing each line (a crash loses none)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO | None = open(path, "a", encoding="utf-8")  # noqa: SIM115
        self.count = 0

    def write(self, event: str, frame: int | None, segment: int | None, /, **data: Any) -> None:
        if self._file is None:
            return
        line = {"t": round(time.time(), 4), "event": event, "frame": frame, "segment": segment}
        line.update(jsonable(data))
        self._file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._file.flush()
        self.count += 1

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_events(path: Path) -> list[dict[str, Any]]:
    """Every event in ``path`` (a last line cut short by a crash is left out)."""
    events = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    return events
