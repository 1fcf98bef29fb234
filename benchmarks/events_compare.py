"""Whether two sets of runs did the same thing: the events of each run's events.jsonl,
less what differs between two runs of the same code (times, frames, process ids, folder
names, the key probe's measured figures), compared run by run.

The key probe is left out: it measures the key timing by trial, so its presses, and the
hold and gap it gives every later key, differ from run to run. What it found (rollover,
repeats) is kept.

A change that should not change behaviour (a restructuring) is checked by playing the same
levels before and after it: every run after should match the runs before.

    .venv/bin/python -m benchmarks.events_compare BEFORE AFTER

BEFORE and AFTER are folders searched for events.jsonl files (a ``--runs-dir``, or
several). Prints, for each run after, which run before it matches, or its first
difference with the closest one; exits 1 when a run after matches none.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

# Fields that differ between two runs of the same code and settings.
VOLATILE = {"t", "frame", "seconds", "pid", "display", "folder", "command", "segment"}
TIMING = {"hold_ms", "gap_ms"}  # each key event's timing, as the probe measured it
# The key probe's own measurements: its timings differ run to run on a busy machine.
PROBE_KEPT = {"event", "rollover", "repeats", "complete"}


def normalised(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` without the fields that two runs of the same code need not share."""
    if event.get("event") == "key_probe":
        return {k: v for k, v in event.items() if k in PROBE_KEPT}
    return {k: v for k, v in event.items() if k not in VOLATILE | TIMING}


def run_events(path: Path) -> list[dict[str, Any]]:
    """The run's events, normalised, less the key probe's presses."""
    events = (json.loads(line) for line in path.read_text().splitlines() if line)
    return [normalised(e) for e in events if not e.get("probe")]


def runs_in(folder: Path) -> dict[str, list[dict[str, Any]]]:
    found = sorted(folder.rglob("events.jsonl"))
    if not found:
        raise SystemExit(f"no events.jsonl under {folder}")
    return {str(p.parent.relative_to(folder)): run_events(p) for p in found}


def first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str | None:
    """Where ``b`` first departs from ``a`` (None when they are the same)."""
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"event {index + 1}: {json.dumps(x)[:200]} | {json.dumps(y)[:200]}"
    if len(a) != len(b):
        return f"lengths {len(a)} and {len(b)}"
    return None


def keys_sent(events: list[dict[str, Any]]) -> int:
    return sum(len(e.get("keys") or []) for e in events if e.get("event") == "keys")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    before, after = runs_in(args.before), runs_in(args.after)
    print(f"{len(before)} runs before, {len(after)} after")
    unmatched = 0
    for name, events in after.items():
        same = [b for b, theirs in before.items() if theirs == events]
        summary = f"{len(events)} events, {keys_sent(events)} keys"
        if same:
            print(f"same    {name} ({summary}) = {same[0]}")
            continue
        unmatched += 1
        closest = max(before, key=lambda b: _shared_prefix(before[b], events))
        print(f"differs {name} ({summary}) from {closest}:")
        print(f"        {first_difference(before[closest], events)}")
    return 1 if unmatched else 0


def _shared_prefix(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


if __name__ == "__main__":
    sys.exit(main())
