"""``logo-bot level N``: play one level, reaching it through the nearest code."""

from __future__ import annotations

import argparse
import sys

from logo_bot.bot.commands import required, walkthrough
from logo_bot.bot.commands.common import add_output_options, setup_logging
from logo_bot.bot.commands.game_options import (
    add_attach_options,
    add_game_options,
    add_profile_options,
    add_safety_options,
    profile_from,
)
from logo_bot.bot.commands.levels_asked import Levels
from logo_bot.bot.commands.probe_options import add_probe_options
from logo_bot.bot.commands.recording_options import add_recording_options
from logo_bot.bot.errors import exit_codes_help


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="logo-bot level",
        description="Play level N alone: the game is entered with the nearest code at or "
        "below N and the levels between are played on the way.",
        epilog="example:\n  logo-bot level 94 --display :0   watch the full-board level"
        + "\n\n"
        + exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("number", type=int, help="the level to play (1-100)")
    add_profile_options(p)
    add_game_options(p)
    add_attach_options(p)
    add_probe_options(p)
    add_safety_options(p)
    add_recording_options(p)
    add_output_options(p)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    setup_logging(args.verbose)
    profile = profile_from(args)
    if profile is None:
        return 0  # --show-config printed it
    levels = Levels(args.number, args.number)
    command = ["logo-bot", "level", *argv]
    options = walkthrough.run_options(args, profile, levels, "level", command)  # usage first
    required.for_run(args, profile)  # a missing part refuses the run before it starts
    return walkthrough.run(options)
