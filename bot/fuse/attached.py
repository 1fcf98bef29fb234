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

from logo_bot.bot.errors import EmulatorError


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
PROC = Path("/proc")


@dataclass(frozen=True)
class FuseProcess:
    """A running Fuse of this user: its PID, program and environment."""

    pid: int
    program: str
    environ: dict[str, str]

    def wayland_window(self) -> bool:
        """Whether it draws as a native Wayland window rather than as an X client: it
        has no X display to go to, or is told to use Wayland first (fuse-gtk by
        GDK_BACKEND, an SDL 2 based fuse-sdl by SDL_VIDEODRIVER). A Fuse with DISPLAY
        set is otherwise an X client, of that display or of another one (a private Xvfb),
        whatever WAYLAND_DISPLAY it inherited."""
        env = self.environ
        if not env.get("DISPLAY"):
            return True
        if env.get("SDL_VIDEODRIVER", "").strip() == "wayland":
            return True
        for backend in env.get("GDK_BACKEND", "").split(","):
            backend = backend.strip()
            if backend == "wayland":
                return True
            if backend in ("x11", "*"):
                return False
        return False


def running_fuses(proc: Path = PROC) -> list[FuseProcess]:
    """This user's running Fuse processes (either build), lowest PID first."""
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
            if comm not in FUSE_PROGRAMS or entry.stat().st_uid != os.getuid():
                continue
            raw = (entry / "environ").read_bytes().split(b"\0")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        pairs = (item.decode(errors="replace").partition("=") for item in raw if item)
        found.append(FuseProcess(int(entry.name), comm, {k: v for k, _, v in pairs}))
    return sorted(found, key=lambda fuse: fuse.pid)


def native_wayland_fuses(
    wayland_display: str | None = None, proc: Path = PROC
) -> list[FuseProcess]:
    """This user's Fuse processes that are native Wayland windows (``wayland_window``);
    with ``wayland_display``, only those started in that Wayland session."""
    return [
        fuse
        for fuse in running_fuses(proc)
        if fuse.wayland_window()
        and (wayland_display is None or fuse.environ.get("WAYLAND_DISPLAY") == wayland_display)
    ]
