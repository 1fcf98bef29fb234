"""Fuse's private homes: each Fuse the bot starts gets a temporary HOME (its settings are
never the person's). A bot killed outright cannot remove its own: its reaper does
(``bot.reaper``). Each is named after the bot's PID, so that the next run (and ``logo-bot
runs``) removes any that no one could: a reaper ended with its bot."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

HOME_PREFIX = "logo-bot-fuse-home-"


def sweep_homes(folder: Path | None = None) -> list[Path]:
    """Remove the private Fuse homes that bots no longer running left behind (a bot and
    its reaper both killed); returns those removed. Each home's name carries the PID of
    the bot that made it."""
    removed = []
    for home in Path(folder or tempfile.gettempdir()).glob(f"{HOME_PREFIX}*-*"):
        pid = home.name[len(HOME_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _running(int(pid)) and home.is_dir():
            shutil.rmtree(home, ignore_errors=True)
            removed.append(home)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
