"""``logo-bot report RUN``: write a run's report.html (or two runs side by side)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from logo_bot.bot.commands.common import add_output_options, setup_logging
from logo_bot.bot.commands.recording_options import add_runs_option
from logo_bot.bot.errors import UsageError, exit_codes_help
from logo_bot.bot.recording.folder import RunFolder, default_root, find_run
from logo_bot.bot.recording.report_page import write_compare, write_report


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="logo-bot report",
        description=textwrap.fill(
            "Write a run's report.html into its folder: status, levels, keys against the "
            "fewest, corrections, restarts and versions; the video with a list of levels that "
            "jumps to each one; a table of levels with their targets, times, corrections "
            "(linked to their pictures) and end pictures; and plots of keys over time and "
            "seconds per level. The page needs no network: open it from the folder. Every "
            "run writes its report at the end; this command writes it again (for example "
            "after 'logo-bot replay RUN --headless' made a video).",
            79,
        ),
        epilog="RUN is a run folder, a folder name under the recordings directory (or the\n"
        "start of one), or 'last'. Examples:\n"
        "  logo-bot report last\n"
        "  logo-bot report --compare RUN1 RUN2          RUN1/compare-RUN2.html\n"
        "  logo-bot report --compare RUN1 RUN2 --out both.html" + "\n\n" + exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run", metavar="RUN", nargs="?", help="the run (default: last)")
    p.add_argument(
        "--compare",
        nargs=2,
        metavar=("RUN1", "RUN2"),
        help="put two runs side by side (written into RUN1's folder unless --out)",
    )
    p.add_argument("--out", type=Path, metavar="FILE", help="write the page here instead")
    add_runs_option(p)
    add_output_options(p)
    return p


@dataclass(frozen=True)
class ReportOptions:
    """What ``report`` needs, parsed and checked once."""

    runs: tuple[RunFolder, ...]  # one run, or two to compare
    out: Path | None  # the page's file (default: in the (first) run's folder)


def options_from(args: argparse.Namespace) -> ReportOptions:
    """The run or runs asked for, found, and --out checked."""
    root = args.runs_dir or default_root()
    if args.compare and args.run:
        raise UsageError("give either RUN or --compare RUN1 RUN2, not both")
    out = args.out
    if out is not None:
        if out.suffix.lower() not in (".html", ".htm"):
            raise UsageError(f"--out {out}: give a file name ending in .html")
        if not out.parent.is_dir():
            raise UsageError(f"--out {out}: the folder {out.parent} does not exist")
    if not args.compare:
        return ReportOptions((find_run(args.run or "last", root),), out)
    first, second = (find_run(spec, root) for spec in args.compare)
    if first.path.resolve() == second.path.resolve():
        raise UsageError("--compare: give two different runs")
    return ReportOptions((first, second), out)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    setup_logging(args.verbose)
    options = options_from(args)
    if len(options.runs) == 2:
        path = write_compare(*options.runs, options.out)
    else:
        path = write_report(options.runs[0], options.out)
    print(f"report: {path.resolve().as_uri()}")
    return 0
