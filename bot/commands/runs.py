"""``logo-bot runs``: the recorded runs, oldest first, with their results."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from bot.commands.common import add_output_options, setup_logging
from bot.errors import UsageError
from bot.play.progress import clock
from bot.recording.folder import default_root, list_runs


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="logo-bot runs",
        description="List the recorded runs (one folder each) with their date, mode, levels "
        "done, status and duration. Replay one with 'logo-bot replay NAME'.",
    )
    p.add_argument(
        "--video-dir",
        type=Path,
        metavar="DIR",
        help="where run folders are (default: recordings/ or $LOGO_BOT_RECORDINGS)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object per run")
    add_output_options(p)
    return p


def row(name: str, run: dict) -> dict[str, object]:
    totals = run.get("totals") or {}
    requested = run.get("requested") or {}
    wanted = (
        requested["last"] - requested["first"] + 1
        if requested.get("first") and requested.get("last")
        else len(run.get("levels", []))
    )
    levels = [e["level"] for e in run.get("levels", [])]
    return {
        "folder": name,
        "started": run.get("started"),
        "mode": run.get("mode"),
        "levels": f"{min(levels)}-{max(levels)}" if levels else "-",
        "done": totals.get("levels_done", 0),
        "requested": wanted,
        "status": run.get("status"),
        "seconds": run.get("seconds"),
        "video": (run.get("video") or {}).get("path"),
    }


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    setup_logging(args.verbose)
    root = args.video_dir or default_root()
    if args.video_dir and not root.is_dir():
        raise UsageError(f"--video-dir {root}: no such folder")
    rows = []
    for folder in list_runs(root):
        try:
            rows.append(row(folder.name, json.loads(folder.run_json.read_text())))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            rows.append({"folder": folder.name, "status": f"unreadable run.json ({exc})"})
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return 0
    if not rows:
        print(f"no recorded runs in {root}")
        return 0
    header = ("FOLDER", "DATE (UTC)", "MODE", "LEVELS", "DONE", "STATUS", "DURATION")
    table = [header]
    for r in rows:
        started = r.get("started")
        date = datetime.fromisoformat(started).strftime("%Y-%m-%d %H:%M") if started else "-"
        done = f"{r['done']}/{r['requested']}" if "done" in r else "-"
        seconds = r.get("seconds")
        table.append(
            (
                str(r["folder"]),
                date,
                str(r.get("mode") or "-"),
                str(r.get("levels") or "-"),
                done,
                str(r.get("status")),
                clock(seconds) if isinstance(seconds, (int, float)) else "-",
            )
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for line in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
    print(f"\n{len(rows)} runs in {root}")
    return 0
