"""``logo-bot level N``: play one level, reaching it through the nearest code."""

from __future__ import annotations

import argparse
import sys

from bot.commands import walkthrough
from bot.commands.common import (
    add_attach_options,
    add_game_options,
    add_output_options,
    add_probe_options,
    add_profile_options,
    add_recording_options,
    add_safety_options,
)
from bot.errors import exit_codes_help


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
    args.mode, args.command = "level", ["logo-bot", "level", *argv]
    args.from_code = None
    args.levels = None
    return walkthrough.run(args, args.number, args.number)
