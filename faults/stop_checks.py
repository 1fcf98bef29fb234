"""What a stopped bot must leave behind, checked the same way by the stop tests and the
kill benchmark: a folder whose three records agree, no traceback from any thread, and
(on a display it does not own) no server grab and no key down."""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from faults.display_left import answers, keys_down
from faults.x_stop import keys_left_down, read_log
from logo_bot.bot.recording.events import read_events

BOUND_S = 10.0  # from the first stop signal to the bot's exit, whatever happens
TRACEBACKS = ("Traceback (most recent call last)", "Exception in thread")
REPORT_STATUS = re.compile(r"class='status ([a-z]+)'")


def statuses(folder: Path) -> dict[str, str | None]:
    """The run's status as run.json, events.jsonl's ``run_end`` and report.html give it."""
    out: dict[str, str | None] = {"run.json": None, "run_end": None, "report": None}
    with contextlib.suppress(OSError, ValueError):
        out["run.json"] = json.loads((folder / "run.json").read_text()).get("status")
    try:
        ends = [e for e in read_events(folder / "events.jsonl") if e["event"] == "run_end"]
    except (OSError, ValueError):
        ends = []
    if ends:
        out["run_end"] = ends[-1].get("status")
    try:
        found = REPORT_STATUS.search((folder / "report.html").read_text(errors="replace"))
    except OSError:
        found = None
    out["report"] = found.group(1) if found else None
    return out


def untruthful(folder: Path, expected: set[str]) -> str | None:
    """None when the three records agree on a status in ``expected``, else what is wrong."""
    found = statuses(folder)
    values = set(found.values())
    if len(values) != 1 or None in values:
        return "records disagree: " + ", ".join(f"{k} {v}" for k, v in found.items())
    (status,) = values
    if status not in expected:
        return f"status {status}, expected {' or '.join(sorted(expected))}"
    return None


def tracebacks(*texts: str) -> list[str]:
    """The lines of ``texts`` that start a traceback or report a thread's exception."""
    return [
        line
        for text in texts
        for line in text.splitlines()
        if any(mark in line for mark in TRACEBACKS)
    ]


def run_log(root: Path) -> str:
    """Every run.log under ``root``, one text."""
    return "".join(p.read_text(errors="replace") for p in sorted(root.glob("*/run.log")))


@dataclass
class DisplayLeft:
    """What the bot left on a display of the caller's."""

    grabbed: bool = False  # a new client was not answered within a second
    server_keys: list[int] = field(default_factory=list)  # keycodes down (XTest)
    sent_keys: list[tuple[int, int]] = field(default_factory=list)  # pressed, never released

    @property
    def clean(self) -> bool:
        return not self.grabbed and not self.server_keys and not self.sent_keys

    def describe(self) -> str:
        parts = ["server grabbed"] if self.grabbed else []
        parts += [f"keycodes down {self.server_keys}"] if self.server_keys else []
        parts += [f"sent without release {self.sent_keys}"] if self.sent_keys else []
        return "; ".join(parts) or "clean"


def display_left(display: str, key_log: Path | None) -> DisplayLeft:
    """Probe ``display`` now (the bot has ended) and read the injector's key log."""
    left = DisplayLeft(grabbed=not answers(display, 1.0), server_keys=keys_down(display))
    if key_log is not None:
        left.sent_keys = keys_left_down(read_log(key_log))
    return left
