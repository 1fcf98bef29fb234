"""A Fuse the person started and plays in, taken over by the bot (``--attach``).

The bot looks at its window and presses keys in it, and nothing else: it never
starts, stops, restarts or reconfigures that Fuse, never opens its menus, and
leaves it running where the game stands when the run ends. It has no handle on
the process, so it learns that Fuse has gone from the window and the PID.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from bot.errors import EmulatorError


@dataclass(frozen=True)
class NoProcess:
    """What the bot knows of the person's Fuse process: not its exit status."""

    returncode: int | None = None


class AttachedFuse:
    """The person's Fuse: its window, and its PID when the X server tells it."""

    config = None  # the bot did not choose its ROM, game or files
    attached = True
    killed = False  # the bot never stops it

    def __init__(self, window_id: int, pid: int | None) -> None:
        self.window_id = window_id
        self.pid = pid
        self.started_at = time.monotonic()  # when the bot took it over
        self.process = NoProcess()
        self._gone = False

    def alive(self) -> bool:
        """False once its process is gone (or the window was found gone)."""
        if self._gone:
            return False
        if self.pid is not None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self._gone = True
            except PermissionError:
                pass  # another user's process: alive
        return not self._gone

    def gone(self) -> None:
        """The window went away: Fuse was closed."""
        self._gone = True

    def stop(self) -> int | None:
        """Nothing: the person's Fuse keeps running."""
        return None

    def kill(self) -> None:
        raise EmulatorError("the bot never stops a Fuse it did not start")


FUSE_PROGRAMS = ("fuse-gtk", "fuse-sdl")


def running_fuses(wayland_display: str | None = None) -> list[int]:
    """The PIDs of this user's running Fuse processes (either build), lowest first; with
    ``wayland_display``, only those started in that Wayland session (WAYLAND_DISPLAY)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
            owner = entry.stat().st_uid
            if comm not in FUSE_PROGRAMS or owner != os.getuid():
                continue
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        wanted = f"WAYLAND_DISPLAY={wayland_display}".encode()
        if wayland_display is None or wanted in environ:
            found.append(int(entry.name))
    return sorted(found)
