"""One round of the kill test: a headless walkthrough stopped by a signal at a moment seen.

``play_round`` starts ``logo-bot walkthrough --headless`` with a TMPDIR and a
``--video-dir`` of its own, waits for a moment it can see (``MOMENTS``: the bot's Xvfb
or Fuse appearing, menu keys and level keys in ``events.jsonl``, a restart event, the
"writing video.mp4" line of ``run.log`` and ffmpeg running), sends the signal, and then
checks what the bot left: every process it started (sampled from /proc while it runs;
the benchmark is the child subreaper, so anything orphaned is re-parented to it and
seen) must have ended within ``SETTLE_S`` of its exit, its TMPDIR must hold no
temporary folder, and its run folder must be complete and aborted, or absent when Fuse
never started. After SIGKILL the folder is unfinished by nature, and the Fuse home the
bot could not remove must be swept by the next run (``sweep_homes``).

The one place where the round acts on the bot beyond the signal is the restart moment:
there is no command-line way to make the bot restart Fuse, so the round kills the bot's
Fuse with SIGKILL, as a crash, and the bot restarts it (faults/chaos.py does the same
from inside).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot import interrupts
from bot.fuse.emulator import sweep_homes
from bot.recording.events import read_events
from faults import ROOT
from faults.folder_check import check_folder

MOMENTS = ("start-up", "menus", "play", "restart", "encoding")
SIGNALS = ("SIGTERM", "SIGHUP", "SIGINT", "SIGKILL")
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


@dataclass
class RoundOptions:
    levels: str = "1-2"
    speed: int = 100
    probe: bool = True  # the key probe on the first level (the practice profile's default)
    extra: tuple[str, ...] = ()

    def argv(self, root: Path) -> list[str]:
        args = ["walkthrough", "--headless", "--levels", self.levels, "--video-dir", str(root)]
        args += ["--speed", str(self.speed)]
        args += [] if self.probe else ["--set", "timing.probe=false"]
        return args + list(self.extra)


def default_stop_signals() -> None:
    for signum in interrupts.SIGNALS:
        signal.signal(signum, signal.SIG_DFL)


class Bot:
    """The running walkthrough and what can be seen of it: events, run.log, stderr."""

    def __init__(self, options: RoundOptions, temp: Path, root: Path) -> None:
        self.temp, self.root = temp, root
        env = dict(os.environ, TMPDIR=str(temp))
        env.pop("DISPLAY", None)
        set_subreaper(True)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", *options.argv(root)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            cwd=ROOT,
            env=env,
            start_new_session=True,  # a Ctrl-C meant for the benchmark is not the round's
            # as a shell's foreground job: no stop signal ignored before logo-bot takes it
            # (nor SIGHUP by a nohup that started the benchmark: logo-bot keeps that one)
            preexec_fn=default_stop_signals,
        )
        self.started = time.monotonic()
        self.watch = ProcessWatch(self.process.pid)
        self.watch.start()
        self.stderr: list[str] = []
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._reader.start()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line.rstrip("\n"))

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
        if self.process.stderr is not None:
            self.process.stderr.close()
        set_subreaper(False)


# -- the moments ---------------------------------------------------------------------------
def at_start_up(bot: Bot, rng: random.Random) -> str:
    """During Python's imports, Xvfb's start or Fuse's start (before its window)."""
    part = rng.choice(("imports", "Xvfb", "Fuse"))
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
    n-th key burst."""
    level, n = rng.randint(first, last), rng.randint(0, 8)

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
        return f"level {level}, after key burst {n}"
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
    os.kill(fuse.pid, signal.SIGKILL)  # the bot's child now: a crash of its Fuse
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


# -- one round -----------------------------------------------------------------------------
@dataclass
class RoundResult:
    number: int
    signal: str
    moment: str
    detail: str = ""
    state: str = ""  # what ran when the signal was sent
    exit: int | None = None
    seconds_to_exit: float | None = None
    orphans: list[str] = field(default_factory=list)
    temp_left: list[str] = field(default_factory=list)
    swept: int = 0  # Fuse homes a SIGKILLed bot left, removed by the next run's sweep
    folder: str = ""
    folder_ok: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.orphans and not self.temp_left and self.folder_ok and not self.problems


def play_round(
    number: int, signame: str, moment: str, rng: random.Random, options: RoundOptions, work: Path
) -> RoundResult:
    """One round in the folder ``work`` (its TMPDIR and run folders go there)."""
    temp, root = work / "tmp", work / "runs"
    temp.mkdir(parents=True)
    result = RoundResult(number, signame, moment)
    first, last = (int(n) for n in (options.levels.split("-") * 2)[:2])
    bot = Bot(options, temp, root)
    fuse_seen = False
    try:
        try:
            if moment == "start-up":
                result.detail = at_start_up(bot, rng)
            elif moment == "menus":
                result.detail = in_the_menus(bot, rng)
            elif moment == "play":
                result.detail = in_play(bot, rng, first, last)
            elif moment == "restart":
                result.detail = in_a_restart(bot, rng)
            else:
                result.detail = in_the_encoding(bot, rng)
        except Missed as exc:
            result.problems.append(f"missed: {exc}")
        if bot.process.poll() is None:
            result.state = bot.state()
            sent = time.monotonic()
            bot.process.send_signal(getattr(signal, signame))
            result.exit = bot.end()
            result.seconds_to_exit = time.monotonic() - sent
            if result.exit is None:
                result.problems.append(f"still running {WAIT_S:.0f} s after {signame}")
        elif not result.problems:
            result.problems.append(f"the bot ended before the signal (exit {bot.process.poll()})")
    finally:
        bot.close()
        left = bot.watch.left_running(SETTLE_S)
        with bot.watch.lock:
            fuse_seen = any(p.name.startswith("fuse") for p in bot.watch.seen.values())
        for proc in left:  # ours to clean up, by PID, for the rounds after this one
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
        result.orphans = [f"{p.name} {p.pid}" for p in left]
        (work / "stderr.txt").write_text("".join(f"{line}\n" for line in bot.stderr))
    _check_exit(result, bot)
    _check_temp(result, temp)
    _check_folder(result, root, fuse_seen)
    return result


def _check_exit(result: RoundResult, bot: Bot) -> None:
    if result.exit is None:
        return
    signum = getattr(signal, result.signal)
    if result.signal == "SIGKILL":
        expected = {-signum}
    else:
        expected = {130}
        if bot.folder() is None and not bot.watch.seen:
            expected.add(-signum)  # before logo-bot's main took the signals: nothing started
    if result.exit not in expected:
        tail = bot.stderr[-1] if bot.stderr else "(no output)"
        result.problems.append(f"exit {result.exit}, not {sorted(expected)}: {tail}")


def _check_temp(result: RoundResult, temp: Path) -> None:
    """No temporary folder left (the shared X authority file is allowed); after SIGKILL
    the Fuse home the bot could not remove must go with the next run's sweep."""
    if result.signal == "SIGKILL":
        result.swept = len(sweep_homes(temp))
    result.temp_left = [
        p.name for p in temp.iterdir() if not (p.is_file() and p.name.endswith(".Xauthority"))
    ]


def _check_folder(result: RoundResult, root: Path, fuse_seen: bool) -> None:
    folders = sorted(root.iterdir()) if root.is_dir() else []
    if len(folders) > 1:
        result.folder = f"{len(folders)} run folders"
        return
    if not folders:
        result.folder_ok = not fuse_seen
        result.folder = "absent (before Fuse)" if not fuse_seen else "absent, though Fuse ran"
        return
    check = check_folder(folders[0], status="aborted")
    if result.signal == "SIGKILL":
        status = check.run.get("status", "no run.json")
        result.folder_ok = True
        result.folder = f"unfinished ({status})" if not check.ok else "aborted"
        return
    expected = "stopped by Ctrl-C" if result.signal == "SIGINT" else f"stopped by {result.signal}"
    if check.ok and check.run.get("error") != expected:
        check.problems.append(f"error is {check.run.get('error')!r}, not {expected!r}")
    result.folder_ok = check.ok
    result.folder = "aborted, complete" if check.ok else "; ".join(check.problems)
