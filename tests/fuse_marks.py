"""The ``fuse`` mark tells the truth: a test marked ``fuse`` runs Fuse, and a test that
runs Fuse is marked, so that ``-m "not fuse"`` runs every unit test and nothing else.

A test runs Fuse when, during its setup or call, this process starts fuse-sdl or
fuse-gtk (``FuseWatch`` wraps ``subprocess.Popen``, so a Fuse that dies at once counts),
or a thread that looks every 50 ms sees a new one descending from this process (a bot
run as a subprocess starts it), or when it uses a fixture whose setup ran Fuse."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

FUSES = ("fuse-sdl", "fuse-gtk")


def fuse_descendants() -> set[int]:
    """PIDs of Fuse processes below this one, read from /proc."""
    parents: dict[int, int] = {}
    fuses: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        try:
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            state, parent = stat[stat.rindex(")") + 2 :].split()[:2]
            parents[int(entry.name)] = int(parent)
        except (ValueError, IndexError):  # a process going away as it is read
            continue
        if name in FUSES and state != "Z":  # a zombie has exited already
            fuses.append(int(entry.name))
    me, found = os.getpid(), set()
    for pid in fuses:
        parent = parents.get(pid, 0)
        while parent > 1:
            if parent == me:
                found.add(pid)
                break
            parent = parents.get(parent, 0)
    return found


class FuseWatch:
    """Fuse processes started or seen below this process while the block runs."""

    def __init__(self, every_s: float = 0.05) -> None:
        self.every_s = every_s
        self.seen: set[int] = set()
        self.before: set[int] = set()
        self.started = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fuse-watch", daemon=True)
        self._popen_init = subprocess.Popen.__init__

    def _run(self) -> None:
        while True:
            self.seen |= fuse_descendants() - self.before
            if self._stop.wait(self.every_s):
                self.seen |= fuse_descendants() - self.before
                return

    def __enter__(self) -> FuseWatch:
        real, watch = self._popen_init, self

        def counting(popen, args, *rest, **kwargs):  # the real Popen, counted
            first = args if isinstance(args, str | bytes | os.PathLike) else args[0]
            if os.path.basename(os.fsdecode(first)) in FUSES:
                watch.started += 1
            real(popen, args, *rest, **kwargs)

        subprocess.Popen.__init__ = counting  # type: ignore[method-assign]
        self.before = fuse_descendants()  # a module fixture's Fuse, still running: not ours
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        subprocess.Popen.__init__ = self._popen_init  # type: ignore[method-assign]
        self._stop.set()
        self._thread.join()

    @property
    def ran_fuse(self) -> bool:
        return bool(self.seen or self.started)


def verdict(marked: bool, ran_fuse: bool) -> str | None:
    """What is wrong with the mark, or None."""
    if marked and not ran_fuse:
        return "marked fuse, but it runs no Fuse: take the mark off (it is a unit test)"
    if ran_fuse and not marked:
        return "it runs Fuse but is not marked: add @pytest.mark.fuse"
    return None
