"""What every command shares: ``-v``, the log's set-up, a stop written to the log, and
reading a range of levels. The option groups are in ``game_options``,
``recording_options`` and ``probe_options``.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import re
from collections.abc import Iterator

from logo_bot.bot import stopping
from logo_bot.bot.errors import UsageError


def add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log lines")


def setup_logging(verbose: int) -> None:
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


@contextlib.contextmanager
def stop_logged() -> Iterator[None]:
    """A stop leaving the block is written to the log (run.log, inside a recording):
    after a SIGHUP the terminal that would have shown it is gone."""
    try:
        yield
    except KeyboardInterrupt as exc:
        logging.getLogger("logo_bot.bot.commands").info("%s", stopping.how(exc))
        raise


def level_range(text: str, count: int) -> tuple[int, int]:
    """``"1-100"``, ``"7"`` or ``"10-"`` -> (first, last) within 1..count."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?", text)
    if not m:
        raise UsageError(
            f"--levels {text!r}: write a level or a range",
            hint=f"such as --levels 1-{count}, --levels 7 or --levels 10-",
        )
    first = int(m.group(1))
    last = int(m.group(3)) if m.group(3) else (count if m.group(2) else first)
    if not 1 <= first <= last <= count:
        raise UsageError(
            f"--levels {text!r}: levels run from 1 to {count}, first <= last",
            hint=f"such as --levels 1-{count}, --levels 7 or --levels 10-",
        )
    return first, last


def checked_level(level: int, count: int, option: str) -> int:
    """``level`` (given with ``option``) when the game has it, else ``UsageError``."""
    if not 1 <= level <= count:
        raise UsageError(
            f"{option} {level}: this game's levels run from 1 to {count}",
            hint=f"give a level from 1 to {count}",
        )
    return level
