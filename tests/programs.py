"""Which outside programs each test runs, told by the programs themselves.

The suite puts a folder of small shell shims first on PATH, one per watched program
(Fuse, Xvfb, ffmpeg, ...). A shim appends ``PID NAME`` to this worker's log (unless
it is only asked its version) and then becomes the real program with ``exec``, so
the PID the bot or a test holds is the real program's. Nothing watches in the
background: before and after each phase the conftest reads only what the log gained.
That tells

* the marks the truth: a test that runs Fuse is marked ``fuse``, one that runs
  Xvfb (and no Fuse) ``xserver``, one that runs ffmpeg and the like ``ffmpeg``; a
  mark on a test that runs none of its programs is wrong too;
* which processes were left running: once per test module, every PID its tests
  logged must have ended (session fixtures' own programs excepted).

In the quick suite (``LOGO_TEST_QUICK=1``, ``./scripts/test.sh --quick``) a shim
logs and refuses to run, so a test that needs a program is caught at once."""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

# program -> the mark a test that runs it needs
WATCHED = {
    "fuse-sdl": "fuse",
    "fuse-gtk": "fuse",
    "Xvfb": "xserver",
    "weston": "xserver",
    "ffmpeg": "ffmpeg",
    "ffprobe": "ffmpeg",
    "ffplay": "ffmpeg",
    "fmfconv": "ffmpeg",
}
MARKS = {
    "fuse": "end-to-end test that runs the real Fuse emulator on its own Xvfb display",
    "xserver": "needs an X server (a private Xvfb, or weston's XWayland on one) but runs no Fuse",
    "ffmpeg": "runs ffmpeg, ffprobe, ffplay or fmfconv (no X server, no Fuse)",
}
SLOW = "slow", "takes seconds of CPU with no program: left to the whole suite, out of --quick"
LONG = "long", "an end-to-end test of half a minute or more: started first, side by side"
QUICK_EXPRESSION = "not fuse and not xserver and not ffmpeg and not slow"  # test.sh --quick

SHIM = """#!/bin/sh
case "$1" in
    -version|--version) ;;  # asking a version is not running the program
    *) printf '%s %s\\n' "$$" {name} >> {log} ;;
esac
{body}
"""
RUN = 'exec {real} "$@"'
REFUSE = "echo \"{name}: not run in the quick suite (mark the test '{mark}')\" >&2\nexit 127"


def write_shims(folder: Path, log: Path, quick: bool) -> list[str]:
    """Write a shim for each watched program found on PATH; the names written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, mark in WATCHED.items():
        real = shutil.which(name)
        if real is None:
            continue  # missing: the tests that need it say so themselves
        body = REFUSE.format(name=name, mark=mark) if quick else RUN.format(real=shlex.quote(real))
        shim = folder / name
        shim.write_text(SHIM.format(name=name, log=shlex.quote(str(log)), body=body))
        shim.chmod(0o755)
        written.append(name)
    return written


@dataclass
class ProgramLog:
    """Reads what one worker's log gained since a point."""

    path: Path

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def since(self, offset: int) -> list[tuple[int, str]]:
        """The ``(pid, program)`` lines written after ``offset``."""
        if self.size() <= offset:
            return []
        with open(self.path, "rb") as log:
            log.seek(offset)
            text = log.read().decode(errors="replace")
        runs = []
        for line in text.splitlines():
            pid, _, name = line.partition(" ")
            if pid.isdigit() and name:
                runs.append((int(pid), name))
        return runs


def needed_marks(programs: set[str]) -> set[str]:
    """The marks a test that ran ``programs`` needs: ``fuse`` covers the others."""
    marks = {WATCHED[p] for p in programs if p in WATCHED}
    return {"fuse"} if "fuse" in marks else marks


def verdict(marks: set[str], programs: set[str], uses_xserver: bool = False) -> str | None:
    """What is wrong with a test's marks, given the programs it ran (those of the
    fixtures it uses included) and whether it uses the session's ``xserver``; or None."""
    ran = {WATCHED[p] for p in programs if p in WATCHED}
    if uses_xserver:
        ran.add("xserver")
    missing = needed_marks(programs) - marks
    if missing and "fuse" not in marks:  # a fuse mark covers Xvfb and ffmpeg too
        names = ", ".join(sorted(programs))
        return f"it runs {names} but is not marked: add @pytest.mark.{min(missing)}"
    for mark in sorted(marks & set(MARKS)):
        if mark not in ran:
            return f"marked {mark}, but it runs no {mark} program: take the mark off"
    return None


def alive(pid: int, name: str) -> bool:
    """True while ``pid`` is still ``name`` and not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    comm = stat[stat.index("(") + 1 : stat.rindex(")")]
    state = stat[stat.rindex(")") + 2 :].split()[0]
    return state not in ("Z", "X") and name.startswith(comm)


def worker_log(root: Path) -> ProgramLog:
    """This process's log (one per xdist worker)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return ProgramLog(root / f"programs-{worker}.log")
