"""``logo-bot runs``: the recorded runs, oldest first, with their results."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import textwrap
import webbrowser
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from logo_bot.bot.commands.common import add_output_options, setup_logging
from logo_bot.bot.commands.recording_options import add_runs_option
from logo_bot.bot.errors import InputError, UsageError, exit_codes_help
from logo_bot.bot.fuse.homes import sweep_homes
from logo_bot.bot.play.progress import clock
from logo_bot.bot.recording.folder import RunFolder, default_root, list_runs
from logo_bot.bot.recording.report_data import REPLAY
from logo_bot.bot.recording.report_page import REPORT, write_report
from logo_bot.bot.recording.unfinished import read_run


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="logo-bot runs",
        description=textwrap.fill(
            "List the recorded runs (one folder each) with their date, mode, levels done, "
            "status, duration and report page. Replay one with 'logo-bot replay NAME'; "
            "write or refresh a report with 'logo-bot report NAME'.",
            79,
        ),
        epilog=exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_runs_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object per run")
    p.add_argument(
        "--open",
        action="store_true",
        help="open the newest run's report.html in the desktop's default browser (writing "
        "it first if the run has none)",
    )
    add_output_options(p)
    return p


UNREADABLE = "unreadable"  # the STATUS of a run whose run.json cannot be read


def row(name: str, run: dict, report: Path | None = None) -> dict[str, Any]:
    totals = run.get("totals") or {}
    requested = run.get("requested") or {}
    wanted = (
        requested["last"] - requested["first"] + 1
        if requested.get("first") and requested.get("last")
        else len(run.get("levels", []))
    )
    levels = [e["level"] for e in run.get("levels", [])]
    if requested.get("first") and requested.get("last"):  # the range asked, however far
        levels = [requested["first"], requested["last"]]
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
        "video_unfinished": bool((run.get("video") or {}).get("unfinished")),
        "report": str(report) if report is not None and report.is_file() else None,
    }


@dataclass(frozen=True)
class RunsOptions:
    """What ``runs`` needs, parsed and checked once."""

    root: Path  # where the run folders are
    json: bool  # one JSON object per run instead of the table
    open: bool  # open the newest run's report instead


def options_from(args: argparse.Namespace) -> RunsOptions:
    root = args.runs_dir or default_root()
    if args.runs_dir and not root.is_dir():
        raise UsageError(f"--runs-dir {root}: no such folder")
    return RunsOptions(root, args.json, args.open)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    setup_logging(args.verbose)
    return show_runs(options_from(args))


def show_runs(options: RunsOptions) -> int:
    """The table (or JSON lines) of the runs under ``options.root``, or the newest one's
    report opened."""
    root = options.root
    sweep_homes()  # what killed bots left in the temporary folder goes, as a run's start does
    runs = list_runs(root)
    if options.open:
        return open_report(runs, root)
    rows = []
    for folder in runs:
        try:
            rows.append(row(folder.name, read_run(folder), _report(folder)))
            if rows[-1]["video_unfinished"] and (folder.path / REPLAY).is_file():
                rows[-1].update(video=REPLAY, video_unfinished=False)  # made later
        except InputError as exc:
            rows.append({"folder": folder.name, "status": UNREADABLE, "error": exc.message})
        except (OSError, ValueError, KeyError, TypeError) as exc:
            error = f"{folder.run_json}: {exc}"
            rows.append({"folder": folder.name, "status": UNREADABLE, "error": error})
    if options.json:
        for r in rows:
            print(json.dumps(r))
        return 0
    if not rows:
        print(f"no recorded runs in {root}")
        return 0
    header = ("FOLDER", "DATE (UTC)", "MODE", "LEVELS", "DONE", "STATUS", "DURATION", "REPORT")
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
                str(r.get("status")) + (", video unfinished" if r.get("video_unfinished") else ""),
                clock(seconds) if isinstance(seconds, (int, float)) else "-",
                str(r.get("report") or "-"),
            )
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for line in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
    print(f"\n{len(rows)} runs in {root}")
    for r in rows:
        if r.get("status") == UNREADABLE:
            print(f"unreadable: {r['folder']}: {r['error']}")
    if any(r.get("status") == "killed" for r in rows):
        print(
            "killed: the bot ended before it finished the folder (SIGKILL, a crash); "
            "'logo-bot report RUN' shows what its events.jsonl says"
        )
    if any(r.get("video_unfinished") for r in rows):
        print("video unfinished: 'logo-bot replay RUN --headless' makes it (RUN/replay.mp4)")
    if not any(r.get("report") for r in rows):
        print("no report pages yet: 'logo-bot report RUN' writes one")
    return 0


def _report(folder: RunFolder) -> Path:
    return folder.path / REPORT


def open_report(runs: list[RunFolder], root: Path) -> int:
    """Open the newest run's report in the default browser, writing it when missing."""
    if not runs:
        raise UsageError(f"no recorded runs in {root}", hint="run logo-bot walkthrough first")
    folder = runs[-1]
    path = _report(folder)
    if not path.is_file():
        path = write_report(folder)
    uri = path.resolve().as_uri()
    if not open_in_browser(uri):
        raise UsageError(
            f"no desktop browser to open {uri}",
            hint="open that address in a browser yourself (no display here, or no "
            "browser is set up: xdg-open and Python's webbrowser found none)",
        )
    print(f"opened {uri}")
    return 0


def open_in_browser(uri: str) -> bool:
    """True when a desktop browser was started on ``uri`` (xdg-open, else webbrowser)."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    opener = shutil.which("xdg-open")
    if opener is not None:
        result = subprocess.run(
            [opener, uri], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
        )
        if result.returncode == 0:
            return True
    try:
        return webbrowser.open(uri)
    except webbrowser.Error:
        return False
