"""The recording options: where run folders go and what each keeps (``RecordOptions``),
and ``--runs-dir`` for the commands that read recorded runs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from logo_bot.bot.errors import UsageError

if TYPE_CHECKING:
    from logo_bot.bot.recording.recording import RecordOptions


# Where runs go when --runs-dir does not say (bot/recording/folder.py: default_root).
RUNS_DEFAULT = (
    "$LOGO_BOT_RECORDINGS; else recordings/ in a checkout; else "
    "$XDG_DATA_HOME/logo-bot/recordings, ~/.local/share/logo-bot/recordings unless set"
)


def add_recording_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "recording",
        "Every run leaves a folder RECORDINGS/<UTC time>-<mode>/ with run.json\n"
        "(versions, settings, result per level, totals), events.jsonl, run.log,\n"
        "run.rzx (Fuse's input recording: 'logo-bot replay' plays it back exactly),\n"
        "video.mp4, and pictures of each level and of every failure; also when the\n"
        "run fails or is stopped with Ctrl-C. See recordings/README.md.",
    )
    group.add_argument(
        "--runs-dir",
        "--video-dir",
        dest="runs_dir",
        type=Path,
        metavar="DIR",
        help=f"put the run folders in DIR (default: {RUNS_DEFAULT}; --video-dir is an old "
        "name for it)",
    )
    group.add_argument(
        "--no-video",
        dest="video",
        action="store_false",
        help="no video.mp4 (Fuse records no movie); run.json, events, pictures and run.rzx "
        "are still written, and 'logo-bot replay RUN --headless' can make the video later",
    )
    group.add_argument(
        "--no-record",
        dest="record",
        action="store_false",
        help="leave no run folder at all (no video, no replay data, no log file)",
    )
    group.add_argument(
        "--annotate",
        action="store_true",
        help="also write annotated.mp4: the frames the bot grabbed, with the cursor it read, "
        "the next cell of its plan and the moves after it drawn on them",
    )


def record_options(args: argparse.Namespace) -> RecordOptions | None:
    """What to keep of the run (None with --no-record)."""
    from logo_bot.bot.recording.folder import default_root
    from logo_bot.bot.recording.recording import RecordOptions

    if not args.record:
        if args.annotate or args.runs_dir:
            raise UsageError("--no-record leaves no folder: drop --annotate and --runs-dir")
        return None
    return RecordOptions(args.runs_dir or default_root(), args.video, args.annotate)


def add_runs_option(parser: argparse.ArgumentParser) -> None:
    """``--runs-dir`` (old name ``--video-dir``), for the commands that read recorded runs."""
    parser.add_argument(
        "--runs-dir",
        "--video-dir",
        dest="runs_dir",
        type=Path,
        metavar="DIR",
        help=f"where run folders are (default: {RUNS_DEFAULT})",
    )
