"""One round of the kill test, played and judged: a walkthrough stopped at a moment seen.

``play_round`` starts the bot (``faults.kill_round.Bot``: headless, or on a display of
the benchmark's with ``RoundOptions.display``), waits for the round's moment, and stops
it one of ``STOPS`` ways: one signal; the same signal twice, ``GAPS_MS`` apart; a SIGINT
and then another 0 to 50 ms after the bot's last line (``SIGINT+AFTER``: the bot has its
status by then, and keeps it); or its terminal hung up (the bot runs as the session
leader of a pty whose master is closed: the kernel sends SIGHUP).
``faults.stop_outcome`` then judges the end: gone within 10 s (else a hang), exit 130
(killed by the signal itself only before logo-bot took the signals, having started
nothing), no traceback, every process it started ended within ``SETTLE_S``, no temporary
folder in its TMPDIR, a folder whose run.json, run_end event and report.html agree
(complete when the stop came in the encoding, after every level; else aborted; absent
when Fuse never started), and on a display of the benchmark's no grab over a second and
no key down. After SIGKILL the folder is unfinished by nature: within ``SETTLE_S`` the
bot's reaper must have ended its programs and removed its Fuse home and temporary files
(no sweep by a next run helps), and the folder must hold no video that does not play
and read as killed unless the bot had finished it.
"""

from __future__ import annotations

import random
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from faults import ROOT
from faults.folder_check import check_folder
from faults.kill_round import (
    SETTLE_S,
    Bot,
    Missed,
    RoundOptions,
    at_start_up,
    in_a_restart,
    in_play,
    in_the_encoding,
    in_the_menus,
    kill_exactly,
)
from faults.stop_outcome import Outcome, end_and_check
from faults.x_stop import XStop, site_dir

STOPS = (
    "SIGTERM",
    "SIGHUP",
    "SIGINT",
    "HANGUP",
    "SIGTERM+SIGTERM",
    "SIGINT+SIGINT",
    "SIGINT+AFTER",
    "SIGKILL",
)
GAPS_MS = (5, 30, 80, 200)  # between two signals
AFTER_MS = 50  # SIGINT+AFTER: the second signal at most this long after the last line
LAST_LINE = "stopped by"  # in the bot's last line on stderr, once it has its status
SITE_CUT = "init_import_site"  # Python's fatal error when a Ctrl-C cuts its site import


@dataclass
class RoundResult:
    number: int
    signal: str  # one of STOPS
    moment: str
    display: bool = False  # on the benchmark's display, not a private Xvfb
    detail: str = ""
    state: str = ""  # what ran when the signal was sent
    exit: int | None = None
    seconds_to_exit: float | None = None
    hung: bool = False  # not gone within the bound after the signal
    orphans: list[str] = field(default_factory=list)
    temp_left: list[str] = field(default_factory=list)
    grabs: int = 0  # probes of the display unanswered for a second, during or after
    keys_down: int = 0  # keys left down on the display, or pressed and never released
    truthful: bool = True  # run.json, run_end and report.html agree, and rightly
    folder: str = ""
    folder_ok: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        clean = not (self.orphans or self.temp_left or self.problems or self.hung)
        left_display = self.grabs or self.keys_down
        return clean and not left_display and self.folder_ok and self.truthful


def first_signal(stop: str) -> str:
    """The signal a stop sends first (a hang-up: SIGHUP, from the kernel)."""
    return "SIGHUP" if stop == "HANGUP" else stop.split("+")[0]


def play_round(
    number: int,
    stop: str,
    moment: str,
    rng: random.Random,
    options: RoundOptions,
    work: Path,
) -> RoundResult:
    """One round in the folder ``work`` (its TMPDIR and run folders go there)."""
    temp, root, key_log = work / "tmp", work / "runs", work / "keys.jsonl"
    temp.mkdir(parents=True)
    result = RoundResult(number, stop, moment, display=options.display is not None)
    first, last = (int(n) for n in (options.levels.split("-") * 2)[:2])
    env = XStop(None, log=key_log).env(site_dir(work), ROOT)  # logs the keys sent only
    bot = Bot(options, temp, root, env=env, terminal=stop == "HANGUP")
    sent = None
    try:
        try:
            result.detail = _reach(bot, moment, rng, first, last)
        except Missed as exc:
            result.problems.append(f"missed: {exc}")
        if bot.process.poll() is None:
            result.state = bot.state()
            sent = time.monotonic()
            result.detail += _stop(bot, stop, rng)
        elif not result.problems:
            result.problems.append(f"the bot ended before the signal (exit {bot.process.poll()})")
    except BaseException:
        bot.close()
        raise
    if sent is None or stop == "SIGKILL":
        _end_killed(result, bot, work)
        return result
    expected = frozenset({"complete"} if moment == "encoding" else {"aborted"})
    outcome = end_and_check(bot, sent, options.display, key_log, expected, exit_status=None)
    (work / "stderr.txt").write_text("".join(f"{line}\n" for line in bot.stderr))
    _take(result, outcome, bot)
    return result


def _reach(bot: Bot, moment: str, rng: random.Random, first: int, last: int) -> str:
    if moment == "start-up":
        return at_start_up(bot, rng)
    if moment == "menus":
        return in_the_menus(bot, rng)
    if moment == "play":
        return in_play(bot, rng, first, last)
    if moment == "restart":
        return in_a_restart(bot, rng)
    return in_the_encoding(bot, rng)


def _stop(bot: Bot, stop: str, rng: random.Random) -> str:
    """Stop the bot as ``stop`` says; what was done, for the table."""
    if stop == "HANGUP":
        bot.hang_up()
        return "; terminal hung up"
    name = first_signal(stop)
    bot.process.send_signal(getattr(signal, name))
    if "+" not in stop:
        return ""
    if stop.endswith("+AFTER"):
        return _after_last_line(bot, name, rng)
    gap = rng.choice(GAPS_MS)
    time.sleep(gap / 1000)
    if bot.process.poll() is None:
        bot.process.send_signal(getattr(signal, name))
        return f"; second {name} {gap} ms later"
    return f"; the bot ended within {gap} ms, before the second {name}"


def _after_last_line(bot: Bot, name: str, rng: random.Random) -> str:
    """The same signal again, 0 to ``AFTER_MS`` after the bot's last line (it has its
    exit status then: the signal must not change it)."""
    try:
        bot.wait("the bot's last line", lambda: any(LAST_LINE in line for line in bot.stderr))
    except Missed:
        return f"; no last line to send the second {name} after"
    delay = rng.uniform(0, AFTER_MS / 1000)
    time.sleep(delay)
    if bot.process.poll() is None:
        bot.process.send_signal(getattr(signal, name))
        return f"; second {name} {delay * 1000:.0f} ms after the last line"
    return f"; the bot ended within {delay * 1000:.0f} ms of its last line"


def _take(result: RoundResult, outcome: Outcome, bot: Bot) -> None:
    """The outcome's findings in the round's result, the exit judged as the kill test
    does (a signal before logo-bot took the signals kills it, having started nothing)."""
    result.exit, result.seconds_to_exit, result.hung = outcome.exit, outcome.seconds, outcome.hung
    result.orphans, result.temp_left = outcome.left, outcome.temp_left
    result.grabs = outcome.grab_probes_missed + bool(outcome.display and outcome.display.grabbed)
    if outcome.display is not None:
        result.keys_down = len(outcome.display.server_keys) + len(outcome.display.sent_keys)
    folder_problems = [p for p in outcome.problems if p.startswith("folder: ")]
    result.truthful = not any("records disagree" in p or "status" in p for p in folder_problems)
    result.folder_ok = not folder_problems
    if outcome.folder is None:
        result.folder = "absent (before Fuse)" if result.folder_ok else "absent, though Fuse ran"
    else:
        result.folder = "valid" if result.folder_ok else "; ".join(folder_problems)
    signum = getattr(signal, first_signal(result.signal))
    early = bot.folder() is None and not bot.watch.seen  # before logo-bot took the signals
    expected = {130} | ({-signum} if early else set())
    if early and any(SITE_CUT in line for line in bot.stderr):
        expected.add(1)  # Python's start-up (site, .pth files) cut: before any bot code
        result.detail += "; Python's site import cut (exit 1 is Python's own)"
    if outcome.exit is not None and outcome.exit not in expected:
        tail = bot.stderr[-1] if bot.stderr else "(no output)"
        result.problems.append(f"exit {outcome.exit}, not {sorted(expected)}: {tail}")
    skip = ("folder: ", "left running", "left in")
    if early and outcome.exit in (-signum, 1):  # Python's own KeyboardInterrupt, in imports
        skip += ("tracebacks",)
    result.problems += [p for p in outcome.problems if not p.startswith(skip)]
    _check_reason(result, outcome)


def _check_reason(result: RoundResult, outcome: Outcome) -> None:
    """An aborted run says which signal stopped it (the first of two): run.json's error
    begins with it (a second stop may add how the run then ended)."""
    if outcome.folder is None or not result.folder_ok:
        return
    check = check_folder(outcome.folder, status=None)
    name = first_signal(result.signal)
    expected = "stopped by Ctrl-C" if name == "SIGINT" else f"stopped by {name}"
    error = str(check.run.get("error"))
    if check.run.get("status") == "aborted" and not error.startswith(expected):
        result.folder_ok = False
        result.folder = f"error is {error!r}, not {expected!r}..."


def _end_killed(result: RoundResult, bot: Bot, work: Path) -> None:
    """After SIGKILL (or no signal at all): the processes, the TMPDIR and the folder."""
    result.exit = bot.end() if result.signal == "SIGKILL" else bot.process.poll()
    bot.close()
    left = bot.watch.left_running(SETTLE_S)
    with bot.watch.lock:
        fuse_seen = any(p.name.startswith("fuse") for p in bot.watch.seen.values())
    for proc in left:  # ours to clean up, by PID, for the rounds after this one
        kill_exactly(proc)
    result.orphans = [f"{p.name} {p.pid}" for p in left]
    (work / "stderr.txt").write_text("".join(f"{line}\n" for line in bot.stderr))
    if result.signal == "SIGKILL" and result.exit != -signal.SIGKILL:
        result.problems.append(f"exit {result.exit} after SIGKILL")
    result.temp_left = [
        p.name for p in bot.temp.iterdir() if not (p.is_file() and p.name.endswith(".Xauthority"))
    ]
    folders = sorted(bot.root.iterdir()) if bot.root.is_dir() else []
    if not folders:
        result.folder_ok = not fuse_seen
        result.folder = "absent (before Fuse)" if not fuse_seen else "absent, though Fuse ran"
        return
    check = check_folder(folders[0], status=None)
    status = check.run.get("status", "no run.json")
    # killed: unfinished by nature, yet it says so and holds no video that does not play
    result.folder_ok = result.signal == "SIGKILL" and check.ok
    said = f"killed ({status})" if result.signal == "SIGKILL" else f"not stopped ({status})"
    result.folder = said if check.ok else "; ".join(check.problems)
