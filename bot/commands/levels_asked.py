"""The levels a ``walkthrough`` or ``level`` run plays: ``--levels``, ``--from-code`` or
the level number, checked against the game's levels before any game starts."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from logo_bot.bot.commands.common import level_range
from logo_bot.bot.errors import UsageError
from logo_bot.bot.play.codes import code_table, level_of_code
from logo_bot.bot.profile import Profile


@dataclass(frozen=True)
class Levels:
    """The levels to play, ``first`` to ``last``."""

    first: int
    last: int
    from_screen: bool = False  # attached with no range asked: from the level the screen shows


def levels_asked(args: argparse.Namespace, profile: Profile) -> Levels:
    """``--levels`` and ``--from-code`` (default: every level of the game): with both, from
    the level the code opens to the range's last (``UsageError`` when that is before it)."""
    count = profile.level_count
    if args.from_code:
        first, last = level_of_code(args.from_code, code_table(profile)), count
        if args.levels:
            last = level_range(args.levels, count)[1]
            if first > last:
                raise UsageError(
                    f"--from-code {args.from_code} opens level {first}, after the levels "
                    f"asked (--levels {args.levels})",
                    hint=f"ask for levels up to {first} or later (such as --levels "
                    f"{first}-{count}), or leave out --levels",
                )
    else:
        first, last = level_range(args.levels or f"1-{count}", count)
    return Levels(first, last, from_screen=args.attach and not (args.levels or args.from_code))


def checked_levels(levels: Levels, profile: Profile) -> Levels:
    """``levels`` when the game has them all (``level N`` is checked here), else
    ``UsageError``."""
    count = profile.level_count
    if not 1 <= levels.first <= levels.last <= count:
        raise UsageError(
            f"level {levels.first}: this game's levels run from 1 to {count}",
            hint=f"give a level from 1 to {count}",
        )
    return levels
