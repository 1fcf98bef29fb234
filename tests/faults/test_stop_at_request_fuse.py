"""A stop signal at the N-th X request of each of the bot's X connections (keys, grabber,
cover watch, title-speed reader, abort key), in each phase of a run: the bot is gone
within 10 s, exits 130 with no traceback from any thread, and leaves the test's display
ungrabbed with no key down, nothing running, no temporary folder, and a folder whose
run.json, run_end event and report.html agree (faults/x_stop.py delivers the signal
from inside the bot's process without the bot knowing; faults/stop_outcome.py judges).

What is counted is a request queued, a write or a read of the socket, or an I/O call
of python-xlib (``XStop.at``). N is counted from the connection's opening (start-up),
or from the moment the phase is seen in events.jsonl (menus: ``enter``; a level:
``level_shown``; a transition: level 1's ``level_done``), and in a key hold only while
a key is down; the encoding is signalled from here when run.log says the video is
being written. The N chosen hit named requests on the bot of 179030b (each
connection's first 16 requests are python-xlib's own set-up): keys 19 GrabServer;
title 17 its first GetProperty; abort 37 the abort key's GrabKey, 39 its UngrabKey
after the run's end; in a key hold, keys request 1 is the press itself. Since the key
events and the cover watch's reports have connections of their own that the bot writes
itself (``bot/x11/raw_link.py``, counted by their writes), the menus' cover request 4
is its fresh round trip on its own link, and a hold's keys request 1 the press's
SendEvent written there (I/O call 3 a write there).
A stop that never comes (N beyond what the bot asks) fails the test.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from faults import ROOT
from faults.kill_round import Bot, RoundOptions
from faults.stop_outcome import end_and_check
from faults.x_stop import XStop, fired, read_log, site_dir
from logo_bot.bot.recording.events import read_events

pytestmark = pytest.mark.fuse

WAIT_S = 60.0  # for the stop to come
# (phase, connection, what is counted, N, signal)
CASES = [
    ("start-up", "keys", "request", 19, "SIGTERM"),
    ("start-up", "title", "request", 17, "SIGINT"),
    ("start-up", "abort", "request", 37, "SIGTERM"),
    ("menus", "keys", "send", 5, "SIGINT"),
    ("menus", "cover", "request", 4, "SIGTERM"),
    ("hold", "keys", "request", 1, "SIGTERM"),
    ("hold", "keys", "io", 3, "SIGINT"),
    # the grabber asks python-xlib nothing in a transition but its reads of the window's
    # events (its refresh is by them, and once a second): the first of those
    ("transition", "grabber", "io", 1, "SIGTERM"),
    ("end", "abort", "request", 39, "SIGTERM"),
    ("encoding", None, "signal", 0, "SIGINT"),
]
ARM_AT = {"menus": "enter", "hold": "level_shown", "transition": "level_done"}


def armed(bot: Bot, event: str) -> bool:
    folder = bot.folder()
    return folder is not None and any(
        e["event"] == event for e in read_events(folder / "events.jsonl")
    )


def wait_for(bot: Bot, what: str, seen) -> None:
    deadline = time.monotonic() + WAIT_S
    while not seen():
        assert bot.process.poll() is None, f"the bot ended before {what}: {bot.stderr[-3:]}"
        assert time.monotonic() < deadline, f"no {what} within {WAIT_S:.0f} s"
        time.sleep(0.005)


@pytest.mark.parametrize(
    ("phase", "connection", "at", "nth", "signame"),
    CASES,
    ids=["-".join(str(v) for v in case if v) for case in CASES],
)
def test_a_stop_at_an_x_request_ends_the_bot_cleanly(
    tmp_path: Path, xserver, phase: str, connection: str | None, at: str, nth: int, signame: str
) -> None:
    temp, root, log, arm = tmp_path / "tmp", tmp_path / "runs", tmp_path / "x.jsonl", None
    temp.mkdir()
    if phase in ARM_AT:
        arm = tmp_path / "armed"
    stop = XStop(connection, nth, signame, log=log, arm=arm, hold=phase == "hold", at=at)
    levels = "1-2" if phase == "transition" else "1"
    video = () if phase == "encoding" else ("--no-video",)  # a shorter stop
    options = RoundOptions(levels, 400, probe=False, extra=video, display=xserver.display)
    bot = Bot(options, temp, root, env=stop.env(site_dir(tmp_path), ROOT))
    try:
        if phase in ARM_AT:
            wait_for(bot, ARM_AT[phase], lambda: armed(bot, ARM_AT[phase]))
            arm.touch()
        if phase == "encoding":
            wait_for(bot, "the video's encoding", lambda: "video.mp4\n" in run_log_of(bot))
            bot.process.send_signal(getattr(signal, signame))
            signalled_at = time.monotonic()
        else:
            wait_for(bot, f"{connection} {at} {nth}", lambda: fired(read_log(log)))
            signalled_at = fired(read_log(log))["t"]
    except BaseException:
        bot.close()
        raise
    expected = frozenset({"complete"} if phase in ("encoding", "end") else {"aborted"})
    outcome = end_and_check(bot, signalled_at, xserver.display, log, expected)
    assert outcome.problems == [], "\n".join(outcome.problems + bot.stderr[-5:])


def run_log_of(bot: Bot) -> str:
    folder = bot.folder()
    try:
        return (folder / "run.log").read_text(errors="replace") if folder else ""
    except OSError:
        return ""
