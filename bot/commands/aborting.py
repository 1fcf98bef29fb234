"""Stopping a command that presses keys: ``--abort-key``, checked before anything
starts, and Ctrl-C or that key guarding the session while it plays."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator

from logo_bot.bot.errors import DisplayError
from logo_bot.bot.fuse.assembly import SessionOptions
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.profile import Profile
from logo_bot.bot.x11.abort import abort_displays, check_abort_key
from logo_bot.bot.x11.abort import guard as abort_guard


def add_abort_option(group: argparse._ArgumentGroup | argparse.ArgumentParser) -> None:
    """``--abort-key``, for every command that presses keys."""
    group.add_argument(
        "--abort-key",
        metavar="KEY",
        help="a key that stops the bot from any window, grabbed on the X display: an X key "
        "name such as Pause (the profile's default), F12 or Scroll_Lock, or 'none' "
        "(not F1-F10, which are Fuse's)",
    )


def abort_key_from(args: argparse.Namespace, profile: Profile) -> str | None:
    """The abort key asked for (``--abort-key``, else the profile's), checked."""
    return check_abort_key(args.abort_key or profile.abort_key, game_keys(profile))


def game_keys(profile: Profile) -> set[str]:
    k = profile.keys
    return {k.up, k.down, k.left, k.right, k.act, k.reset, "space", "enter", "return"}


def check_abort_key_free(key: str | None, session: SessionOptions) -> None:
    """Before any folder or Fuse exists: the abort key can be grabbed on the display the
    person uses (``UsageError`` when another program has taken it)."""
    display = session.display or os.environ.get("DISPLAY")
    if key is None or not display:
        return
    try:
        with abort_guard(display, key, lambda: None):
            pass
    except DisplayError:
        return  # said later, with the display's own error


@contextlib.contextmanager
def abort_guarded(session: Session, key: str | None) -> Iterator[None]:
    """Ctrl-C and the abort key stop ``session``'s keys at once while the block runs."""
    displays = abort_displays(session.xserver.display, session.xserver.process is not None)
    with abort_guard(displays, key, lambda: session.keys):
        yield


@contextlib.contextmanager
def noting_whose_fuse(attached: bool) -> Iterator[None]:
    """An interrupt leaving the block says whether Fuse is the person's (attached: it runs
    on) or the bot's (stopped); ``logo-bot`` words its message from that."""
    try:
        yield
    except KeyboardInterrupt as exc:
        exc.fuse_left_running = attached  # type: ignore[attr-defined]
        raise
