"""What a run folder without run.json says, read from its events: a run still being
played (``running``), or one whose bot died before it wrote run.json (``killed``:
SIGKILL, a crash, a power cut). ``read_run`` gives run.json's content for any run
folder, so that ``logo-bot runs`` and ``logo-bot report`` show every run."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.summary import level_totals

KILLED = (
    "the bot ended without finishing its folder (SIGKILL, a crash or a power cut): "
    "what is shown here is read from events.jsonl"
)
RUNNING = "the run is still being played: what is shown here is read from events.jsonl"
NO_VIDEO = {
    "killed": "the bot ended before it wrote the video (Fuse's movie.fmf may hold the run, "
    "cut short)",
    "running": "not written yet: the video is written when the run ends",
}


WRITING = {
    "killed": "the bot ended while it wrote the folder after play (SIGKILL, a crash or a "
    "power cut): no video; play had ended {status}",
    "running": "the bot is writing the folder after play (the video, the report); play "
    "ended {status}",
}


def read_run(folder: RunFolder) -> dict[str, Any]:
    """run.json's content, or for a folder without one what its events say (status
    ``running`` or ``killed``); for a folder whose run.json was written as play ended
    (``writing``), that run.json with status ``running`` or ``killed``. ``InputError``
    when run.json cannot be read."""
    state = folder.state
    if state == "finished":
        return folder.read()
    if folder.writing:
        run = folder.read()
        run.pop("writing", None)
        play = run.get("status")
        why = WRITING[state].format(status=play) + (f": {run['error']}" if run.get("error") else "")
        return {**run, "status": state, "error": why}
    events = read_events(folder.events) if folder.events.is_file() else []
    return run_from_events(folder, events, state)


def run_from_events(folder: RunFolder, events: list[dict[str, Any]], status: str) -> dict[str, Any]:
    """run.json's main fields rebuilt from ``events`` (the levels as far as they went)."""
    start = next((e for e in events if e.get("event") == "run_start"), {})
    times = [e["t"] for e in events if isinstance(e.get("t"), (int, float))]
    levels = _levels(events, status)
    corrections: Counter[str] = Counter()
    for entry in levels:
        corrections.update(entry.get("corrections") or {})
    return {
        "name": folder.name,
        "mode": start.get("mode") or [*folder.name.split("-"), "-"][1],
        "status": status,
        "error": KILLED if status == "killed" else RUNNING,
        "command": start.get("command") or [],
        "started": _iso(times[0]) if times else None,
        "ended": _iso(times[-1]) if times else None,
        "seconds": round(times[-1] - times[0], 3) if times else None,
        "versions": {},
        "session": None,
        "requested": _requested(events),
        "levels": levels,
        "totals": {
            **level_totals(levels),
            "corrections": dict(corrections),
            "restarts": sum(1 for e in events if e.get("event") == "restart"),
            "events": len(events),
        },
        "segments": [],
        "video": {"path": None, "error": NO_VIDEO[status]},
        "annotated": None,
    }


def _requested(events: list[dict[str, Any]]) -> dict[str, int] | None:
    """The levels asked for, as run.json says them, from the ``levels_requested`` event."""
    asked = [e for e in events if e.get("event") == "levels_requested"]
    if not asked or not all(isinstance(asked[-1].get(k), int) for k in ("first", "last")):
        return None
    return {"first": asked[-1]["first"], "last": asked[-1]["last"]}


def _levels(events: list[dict[str, Any]], status: str) -> list[dict[str, Any]]:
    """One entry per level shown, in the order first shown: done, failed, or (the last
    one, unfinished) aborted where the run was killed or playing where it runs."""
    entries: dict[int, dict[str, Any]] = {}
    shown_at: dict[int, float] = {}
    last = None
    entry: dict[str, Any] | None
    for event in events:
        level, name = event.get("level"), event.get("event")
        if not isinstance(level, int) or level < 1:
            continue
        if name == "level_shown":
            entry = entries.setdefault(level, {"level": level, "attempts": 0})
            entry.update(status=None, reason=None, corrections={}, keys_sent=0)
            entry["attempts"] += 1
            shown_at[level], last = event.get("t", 0.0), level
        entry = entries.get(level)
        if entry is None:
            continue
        _take(entry, event, shown_at.get(level))
    for entry in entries.values():
        if entry["status"] is None:
            unfinished = entry["level"] == last
            entry["status"] = "aborted" if status == "killed" or not unfinished else "playing"
            entry["reason"] = (
                ("the bot was killed here" if status == "killed" else "being played")
                if unfinished
                else "left unfinished"
            )
    return list(entries.values())


def _take(entry: dict[str, Any], event: dict[str, Any], shown: float | None) -> None:
    """What ``event`` says about its level's entry."""
    name = event.get("event")
    if name == "target" and isinstance(event.get("target"), list):
        entry["target"] = event["target"]
    elif name == "plan":
        for key, field in (("presses", "planned_presses"), ("lower_bound", "lower_bound")):
            if isinstance(event.get(key), int):
                entry[field] = event[key]
        if isinstance(event.get("optimal"), bool):
            entry["optimal"] = event["optimal"]
    elif name == "keys" and isinstance(event.get("keys"), list) and not event.get("probe"):
        entry["keys_sent"] += len(event["keys"])
        if isinstance(event.get("board"), list):
            entry["end_board"] = event["board"]
    elif name == "correction":
        kind = str(event.get("kind") or "correction")
        entry["corrections"][kind] = entry["corrections"].get(kind, 0) + 1
    elif name == "level_done":
        entry["status"], entry["reason"] = "done", None
        if isinstance(event.get("keys"), int):
            entry["keys_sent"] = event["keys"]
        if shown is not None and isinstance(event.get("t"), (int, float)):
            entry["seconds"] = round(event["t"] - shown, 3)
    elif name == "failure":
        entry["status"], entry["reason"] = "failed", event.get("reason")


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds")
