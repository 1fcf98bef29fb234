"""The kill test's bot and its moments: a walkthrough run as a user would, and the
moments of it a round can see and stop it at.

``Bot`` starts ``logo-bot walkthrough`` (headless, or on a display of the caller's) with
a TMPDIR and a ``--video-dir`` of its own, its standard streams piped or on a pty of its
own (``Terminal``: a terminal to hang up), and watches every process it starts (sampled
from /proc while it runs; the caller is the child subreaper, so anything orphaned is
re-parented to it and seen). The moments (``MOMENTS``) wait for the bot's Xvfb or Fuse
appearing, menu keys and level keys in ``events.jsonl``, a restart event, the "writing
video.mp4" line of ``run.log`` and ffmpeg running. ``faults.kill_play`` plays a round.

The one place where a moment acts on the bot is the restart: there is no command-line
way to make the bot restart Fuse, so the round kills the bot's Fuse with SIGKILL, as a
crash, and the bot restarts it (faults/chaos.py does the same from inside).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import random
import select
import signal
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from faults import ROOT
from logo_bot.bot import interrupts
from logo_bot.bot.recording.events import read_events

MOMENTS = ("start-up", "menus", "play", "restart", "encoding")
SETTLE_S = 5.0  # after the bot's exit, what it started must be gone within this
WAIT_S = 180.0  # the longest wait for a moment, or for the bot to end after the signal
PR_SET_CHILD_SUBREAPER = 36


class Missed(Exception):
    """The bot ended (or never got there) before the moment the round waits for."""


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    name: str
    start: int  # clock ticks after boot: a reused PID has another
    state: str


def read_process(pid: int) -> Proc | None:
    """``pid`` as /proc shows it now; None when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            stat = f.read()
    except OSError:
        return None
    name = stat[stat.index("(") + 1 : stat.rindex(")")]
    rest = stat[stat.rindex(")") + 2 :].split()  # fields 3 (state), 4 (ppid), ... 22 (start)
    return Proc(pid, int(rest[1]), name, int(rest[19]), rest[0])


def process_table() -> dict[int, Proc]:
    """Every process now."""
    found = (read_process(int(e.name)) for e in os.scandir("/proc") if e.name.isdigit())
    return {proc.pid: proc for proc in found if proc is not None}


def running(proc: Proc) -> bool:
    """Whether ``proc`` (that very process, not a reuse of its PID) still runs."""
    now = read_process(proc.pid)
    return now is not None and now.start == proc.start and now.state not in ("Z", "X")


def kill_exactly(proc: Proc, signum: int = signal.SIGKILL) -> bool:
    """Send ``signum`` to ``proc`` itself, never to a later process that got its PID: the
    signal goes through a pidfd opened while ``proc`` was seen to run (its start time
    checked after the open). False when it had ended already."""
    try:
        pidfd = os.pidfd_open(proc.pid)
    except ProcessLookupError:
        return False
    try:
        if not running(proc):
            return False
        signal.pidfd_send_signal(pidfd, signum)
        return True
    except ProcessLookupError:
        return False
    finally:
        os.close(pidfd)


def set_subreaper(on: bool) -> None:
    """Orphans of the bot come to this process instead of init (Linux), so none is missed."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)


class ProcessWatch(threading.Thread):
    """Every process the bot started, sampled every ``every_s``: its descendants, and
    any process re-parented to this one (the subreaper) since the watch began."""

    def __init__(self, bot_pid: int, every_s: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.bot = bot_pid
        self.me = os.getpid()
        self.every_s = every_s
        # this process's children but for those the bot leaves behind (the bot included)
        self.ours_before = {p.pid for p in process_table().values() if p.ppid == self.me}
        self.ours_before.add(bot_pid)
        bot = read_process(bot_pid)
        self.bot_start = bot.start if bot is not None else 0
        self.seen: dict[int, Proc] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.sample()
            self.stopping.wait(self.every_s)

    def sample(self) -> list[Proc]:
        """The bot's processes running now (noted in ``seen``)."""
        table = process_table()
        children: dict[int, list[int]] = {}
        for proc in table.values():
            children.setdefault(proc.ppid, []).append(proc.pid)
        adopted = [  # started since the bot (not what an earlier test left dying)
            pid
            for pid in children.get(self.me, [])
            if pid not in self.ours_before and table[pid].start >= self.bot_start
        ]
        todo = adopted + children.get(self.bot, [])
        found = []
        while todo:
            proc = table.get(todo.pop())
            if proc is not None:
                found.append(proc)
                todo += children.get(proc.pid, [])
        with self.lock:
            for proc in found:
                self.seen.setdefault(proc.pid, proc)
        return [p for p in found if p.state not in ("Z", "X")]

    def named(self, prefix: str) -> list[Proc]:
        """The bot's own children running now whose name starts with ``prefix``."""
        return [p for p in self.sample() if p.ppid == self.bot and p.name.startswith(prefix)]

    def left_running(self, seconds: float) -> list[Proc]:
        """The bot's processes still running after ``seconds`` (the bot has ended)."""
        deadline = time.monotonic() + seconds
        while True:
            self.sample()
            with self.lock:
                seen = list(self.seen.values())
            self._reap(seen)
            left = [p for p in seen if running(p)]
            if not left or time.monotonic() >= deadline:
                return left
            time.sleep(0.02)

    def _reap(self, procs: list[Proc]) -> None:
        """Ended orphans that were re-parented to this process leave no zombie."""
        for proc in procs:
            if proc.pid not in self.ours_before:
                with contextlib.suppress(ChildProcessError, OSError):
                    os.waitpid(proc.pid, os.WNOHANG)


def kill_and_settle(bot: subprocess.Popen, watch: ProcessWatch, seconds: float) -> list[Proc]:
    """SIGKILL ``bot`` and give what it started ``seconds`` to end; what still ran then
    (killed here, by PID, for what comes after). Call ``end_killed`` on any way out."""
    bot.kill()
    bot.wait()
    left = watch.left_running(seconds)
    for proc in left:
        kill_exactly(proc)
    return left


def end_killed(bot: subprocess.Popen) -> None:
    """The end of a test's killed bot, however it went: no subreaper, no bot, no pipe."""
    set_subreaper(False)
    if bot.poll() is None:
        bot.kill()
        bot.wait()
    if bot.stdout is not None:
        bot.stdout.close()


@dataclass
class RoundOptions:
    levels: str = "1-2"
    speed: int = 100
    probe: bool = True  # the key probe on the first level (the practice profile's default)
    extra: tuple[str, ...] = ()
    display: str | None = None  # an X display of the caller's (else a private Xvfb)

    def argv(self, root: Path) -> list[str]:
        where = ["--display", self.display] if self.display else ["--headless"]
        args = ["walkthrough", *where, "--levels", self.levels, "--video-dir", str(root)]
        args += ["--speed", str(self.speed)]
        args += [] if self.probe else ["--set", "timing.probe=false"]
        return args + list(self.extra)


def default_stop_signals() -> None:
    """In the child: logo-bot's stop signals at their default."""
    for signum in interrupts.SIGNALS:
        signal.signal(signum, signal.SIG_DFL)


def take_terminal() -> None:
    """In the child, a session leader already: standard input's pty becomes its
    controlling terminal, as a terminal emulator's shell has it."""
    default_stop_signals()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A pty for the bot: what it writes is read into a list until ``close``."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self._closing = threading.Event()
        self._reader: threading.Thread | None = None

    def started(self, lines: list[str]) -> None:
        """The bot runs: the slave is its own now; read the master into ``lines``."""
        os.close(self.slave)
        self._reader = threading.Thread(target=self._read, args=(lines,), daemon=True)
        self._reader.start()

    def _read(self, lines: list[str]) -> None:
        text = ""
        while not self._closing.is_set():
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # EIO: every slave is closed
                break
            if not chunk:
                break
            text += chunk.decode(errors="replace").replace("\r", "")
            *done, text = text.split("\n")
            lines += done
        if text:
            lines.append(text)

    def close(self) -> None:
        if self._closing.is_set():
            return
        self._closing.set()
        if self._reader is not None:
            self._reader.join(timeout=1)
        os.close(self.master)


class Bot:
    """The running walkthrough and what can be seen of it: events, run.log, stderr."""

    def __init__(
        self,
        options: RoundOptions,
        temp: Path,
        root: Path,
        env: dict[str, str] | None = None,
        terminal: bool = False,
    ) -> None:
        """``env``: more environment for the bot; ``terminal``: its standard streams on
        a pty of its own, whose master ``hang_up`` closes (``stderr`` then holds what
        the terminal showed)."""
        self.options, self.temp, self.root = options, temp, root
        environment = dict(os.environ, TMPDIR=str(temp), **(env or {}))
        environment.pop("DISPLAY", None)
        set_subreaper(True)
        self.pty = Terminal() if terminal else None
        streams: dict = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        streams["stderr"] = subprocess.PIPE
        if self.pty is not None:
            streams = dict(stdin=self.pty.slave, stdout=self.pty.slave, stderr=self.pty.slave)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "logo_bot.bot.cli", *options.argv(root)],
            **streams,
            text=True,
            errors="replace",
            cwd=ROOT,
            env=environment,
            start_new_session=True,  # a Ctrl-C meant for the benchmark is not the round's
            # as a shell's foreground job: no stop signal ignored before logo-bot takes it
            # (nor SIGHUP by a nohup that started the benchmark: logo-bot keeps that one)
            preexec_fn=take_terminal if terminal else default_stop_signals,
        )
        self.started = time.monotonic()
        self.watch = ProcessWatch(self.process.pid)
        self.watch.start()
        self.stderr: list[str] = []
        if self.pty is not None:
            self.pty.started(self.stderr)
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._reader.start()

    def _read_stderr(self) -> None:
        if self.process.stderr is None:
            return
        for line in self.process.stderr:
            self.stderr.append(line.rstrip("\n"))

    def hang_up(self) -> None:
        """Close the terminal (its master side): the kernel sends the bot SIGHUP."""
        if self.pty is not None:
            self.pty.close()

    # -- what can be seen ------------------------------------------------------------------
    def folder(self) -> Path | None:
        folders = sorted(self.root.glob("*/events.jsonl"))
        return folders[0].parent if folders else None

    def events(self) -> list[dict]:
        folder = self.folder()
        return read_events(folder / "events.jsonl") if folder else []

    def log_has(self, text: str) -> bool:
        folder = self.folder()
        try:
            return folder is not None and text in (folder / "run.log").read_text(errors="replace")
        except OSError:
            return False

    def wait(self, what: str, seen: Callable[[], object], timeout: float = WAIT_S) -> object:
        """Poll ``seen`` until it gives something true; ``Missed`` if the bot ends first."""
        deadline = time.monotonic() + timeout
        while True:
            found = seen()
            if found:
                return found
            if self.process.poll() is not None:
                raise Missed(f"{what}: the bot ended first (exit {self.process.returncode})")
            if time.monotonic() > deadline:
                raise Missed(f"{what}: not within {timeout:.0f} s")
            time.sleep(0.01)

    def sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.process.poll() is None:
            time.sleep(0.005)

    def state(self) -> str:
        """What was running at this instant, as a few words for the table."""
        names = [p.name for p in self.watch.sample()]
        fuse = any(n.startswith("fuse") for n in names)
        events = [e["event"] for e in self.events()]
        if self.folder() is None:
            parts = ["no folder"]
        elif "run_end" in events:
            parts = ["run ended"]
        elif "fuse_started" in events:
            parts = ["playing" if fuse else "Fuse down"]
        else:
            parts = ["folder"]
        parts += [
            n for n in ("Xvfb", "fuse", "fmfconv", "ffmpeg") if any(m.startswith(n) for m in names)
        ]
        return ", ".join(parts)

    def end(self, timeout: float = WAIT_S) -> int | None:
        """Wait for the bot's exit; ``None`` when it hangs (then it is killed)."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.watch.stopping.set()
        self.watch.join()
        self._reader.join(timeout=5)
        self.hang_up()
        if self.process.stderr is not None:
            self.process.stderr.close()
        set_subreaper(False)


# -- the moments ---------------------------------------------------------------------------
def at_start_up(bot: Bot, rng: random.Random) -> str:
    """During Python's imports, Xvfb's start or Fuse's start (before its window)."""
    # on a display of the caller's, the bot starts no Xvfb
    part = rng.choice(("imports", "Fuse") if bot.options.display else ("imports", "Xvfb", "Fuse"))
    if part == "imports":
        delay = rng.uniform(0.0, 0.3)
        bot.sleep(delay - (time.monotonic() - bot.started))
        return f"{delay:.2f} s after the start"
    program = {"Xvfb": "Xvfb", "Fuse": "fuse"}[part]
    bot.wait(f"{part} starting", lambda: bot.watch.named(program))
    delay = rng.uniform(0.0, 0.05)
    bot.sleep(delay)
    return f"{part} started {delay * 1000:.0f} ms before"


def in_the_menus(bot: Bot, rng: random.Random) -> str:
    """After the n-th key of the start sequence (name, menus), n from 0."""
    n = rng.randint(0, 12)

    def menu_keys() -> bool:
        events = bot.events()
        enter = next((i for i, e in enumerate(events) if e["event"] == "enter"), None)
        if enter is None:
            return False
        after = events[enter:]
        if any(e["event"] == "level_shown" for e in after):
            raise Missed("the level showed before the menu key")
        return sum(e["event"] == "keys" for e in after) >= n

    bot.wait(f"menu key {n}", menu_keys)
    return f"after menu key {n}"


def in_play(bot: Bot, rng: random.Random, first: int, last: int) -> str:
    """During a level: a little after it showed (the key probe, the plan), or after its
    n-th keys event (a stone's keys, where a level is one burst held until seen; every
    level has at least 5 stones)."""
    level, n = rng.randint(first, last), rng.randint(0, 4)

    def reached() -> bool:
        events = bot.events()
        shown = next(
            (
                i
                for i, e in enumerate(events)
                if e["event"] == "level_shown" and e["level"] == level
            ),
            None,
        )
        if shown is None:
            return False
        return sum(e["event"] == "keys" and e.get("level") == level for e in events[shown:]) >= n

    bot.wait(f"level {level} key {n}", reached)
    if n:
        return f"level {level}, after keys event {n}"
    delay = rng.uniform(0.0, 1.5)
    bot.sleep(delay)
    return f"level {level}, {delay:.1f} s after it showed"


def in_a_restart(bot: Bot, rng: random.Random) -> str:
    """Kill the bot's Fuse (a crash) at its first key burst of a level; signal a little
    after the restart event, while the new Fuse starts or the game is entered again."""
    bot.wait(
        "a level's keys", lambda: any(e.get("level") for e in bot.events() if e["event"] == "keys")
    )
    running = bot.watch.named("fuse")
    if len(running) != 1:
        raise Missed(f"one Fuse to kill: {len(running)} running")
    fuse = running[0]
    if not kill_exactly(fuse):  # the bot's child now: a crash of its Fuse
        raise Missed("the Fuse to kill had ended already")
    bot.wait("the restart event", lambda: any(e["event"] == "restart" for e in bot.events()))
    delay = rng.uniform(0.0, 0.5)
    bot.sleep(delay)
    new = [p for p in bot.watch.named("fuse") if p.pid != fuse.pid]
    return f"{delay:.2f} s after the restart event, " + (
        "new Fuse process started" if new else "no new Fuse process yet"
    )


def in_the_encoding(bot: Bot, rng: random.Random) -> str:
    """Once the run ended: right at the run_end event (the first run.json), or while
    ffmpeg writes video.mp4 (after run.log's "writing .../video.mp4")."""
    if rng.random() < 0.25:
        bot.wait("the run_end event", lambda: any(e["event"] == "run_end" for e in bot.events()))
        return "at the run_end event"
    bot.wait("writing video.mp4", lambda: bot.log_has("video.mp4\n") and bot.log_has("writing "))
    bot.wait("ffmpeg", lambda: bot.watch.named("ffmpeg"))
    delay = rng.uniform(0.0, 1.0)
    bot.sleep(delay)
    return f"{delay:.2f} s into ffmpeg's video"
