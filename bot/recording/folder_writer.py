"""Writing into a run's folder from two threads, the run's own and a forced end's (the
hook ``interrupts.on_force`` runs): one writer at a time, the forced end's thread alone
once it runs; and run.json whole or not at all."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from logo_bot.bot import interrupts, processes


class FolderWriter:
    """One writer of the folder at a time: the forced end's thread, once it runs, alone."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._forcing: threading.Thread | None = None

    @contextlib.contextmanager
    def write(self) -> Iterator[None]:
        """One write into the folder (an event, run.json, the report), never beside the
        forced end's: once the end is forced, any other thread waits here for the exit."""
        if threading.current_thread() is self._forcing:
            yield  # the forced end holds the lock already (or could not get it)
            return
        while True:
            interrupts.hold_if_forcing()
            with self._lock:
                if not interrupts.forcing():
                    yield
                    return

    def force(self, timeout_s: float) -> bool:
        """Make the calling thread, the forced end's, the only writer from now on: the
        other writer, if in the middle of a write, ends it (it waits at its next). False
        when it is stuck in a write for ``timeout_s``; else the caller holds the folder
        until ``release``."""
        self._forcing = threading.current_thread()
        return self._lock.acquire(timeout=timeout_s)

    def release(self) -> None:
        """The forced end has written what it writes."""
        self._lock.release()


def write_json(path: Path, content: dict[str, Any]) -> None:
    """``content`` into ``path`` (run.json), whole or not at all: written beside it, then
    renamed over it."""
    tmp = path.with_suffix(f".json.{threading.get_ident()}.tmp")
    processes.remove_if_killed(tmp)  # by the bot's reaper, if the bot dies in between
    try:
        tmp.write_text(json.dumps(content, indent=2) + "\n")
        os.replace(tmp, path)
    finally:
        processes.removed(tmp)
