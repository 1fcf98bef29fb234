"""``logo-bot show``: read one screen and print the target, board, cursor and plan."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from logo_bot.bot.commands import required
from logo_bot.bot.commands.aborting import (
    abort_guarded,
    abort_key_from,
    add_abort_option,
    check_abort_key_free,
)
from logo_bot.bot.commands.common import add_output_options, checked_level, setup_logging
from logo_bot.bot.commands.game_options import (
    add_game_options,
    add_profile_options,
    profile_from,
    session_options,
)
from logo_bot.bot.commands.game_window import game_window
from logo_bot.bot.commands.player_name import checked_name
from logo_bot.bot.errors import (
    DisplayError,
    InputError,
    Unreadable,
    UsageError,
    exit_codes_help,
)
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.profile import Profile
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.see.shown import what_is_shown
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.lost import LostDisplay


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="logo-bot show",
        description="Read a screen of the game and print what the bot sees: the target, "
        "the main board, the cursor, and the fewest-keypress plan from there. The screen is "
        "a PNG (--screenshot), the Fuse window already open on the display, or (--launch) a "
        "game the command starts itself.",
        epilog="examples:\n"
        "  logo-bot show --screenshot frame.png\n"
        "  logo-bot show                    the Fuse window on $DISPLAY\n"
        "  logo-bot show --window 0x400003  that window (when there are several)\n"
        "  logo-bot show --launch --level 6 --headless" + "\n\n" + exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_source_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    add_profile_options(p)
    add_game_options(p)
    add_output_options(p)
    return p


def add_source_options(p: argparse.ArgumentParser) -> None:
    """Where the screen comes from: a PNG, a game this command starts, else the live window."""
    src = p.add_mutually_exclusive_group()
    src.add_argument("--screenshot", type=Path, metavar="PNG", help="read this image")
    src.add_argument("--launch", action="store_true", help="start the game and read a level")
    src.add_argument(
        "--window",
        metavar="ID|TITLE",
        help="the Fuse window to read (an X window id, or its title or part of it); by "
        "default the one fuse-sdl or fuse-gtk window on the display",
    )
    p.add_argument(
        "--level", type=int, metavar="N", help="with --launch: the level to reach (default 1)"
    )
    add_abort_option(p)


@dataclass(frozen=True)
class Screenshot:
    """``--screenshot PNG``: a picture on disk."""

    path: Path


@dataclass(frozen=True)
class Launch:
    """``--launch``: a game this command starts and plays up to ``level``."""

    session: SessionOptions
    level: int
    player: str | None  # the name typed at the start (None: the profile's)
    abort_key: str | None = None  # stops the game's keys from any window (None: Ctrl-C only)


@dataclass(frozen=True)
class LiveWindow:
    """The Fuse window on the display: the one named with ``--window``, else the only one."""

    display: str | None
    window: str | None


Source = Screenshot | Launch | LiveWindow


def source_from(args: argparse.Namespace, profile: Profile) -> Source:
    """Where the screen comes from (see ``add_source_options``)."""
    if args.screenshot:
        return Screenshot(args.screenshot)
    level = launch_level(args, profile)
    if args.launch:
        player = checked_name(args.name, profile)
        abort_key = abort_key_from(args, profile)
        session = session_options(args)
        check_abort_key_free(abort_key, session)
        return Launch(session, level, player, abort_key)
    return LiveWindow(args.display, args.window)


def launch_level(args: argparse.Namespace, profile: Profile) -> int:
    """``--level`` (default 1), which only ``--launch`` reaches: ``UsageError`` for a
    level the game does not have, or one given without ``--launch``."""
    if args.level is None:
        return 1
    if not args.launch:
        raise UsageError(
            f"--level {args.level} is the level --launch reaches",
            hint="add --launch, or leave out --level",
        )
    return checked_level(args.level, profile.level_count, "--level")


def source_frame(source: Source, profile: Profile) -> np.ndarray:
    """The picture ``source`` names."""
    if isinstance(source, Screenshot):
        return load_png(source.path)
    if isinstance(source, Launch):
        return launched_frame(source, profile)
    return live_frame(source)


def load_png(path: Path) -> np.ndarray:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            return np.asarray(image.convert("RGB"))
    except FileNotFoundError:
        raise InputError(f"no such screenshot: {path}") from None
    except (UnidentifiedImageError, OSError) as exc:
        raise InputError(f"{path} is not an image: {exc}") from None


def describe(profile: Profile, frame: np.ndarray) -> dict[str, Any]:
    """Every reading of ``frame`` (or why it could not be read) and the plan."""
    from logo_bot.solvers.order import fewest_presses
    from logo_bot.solvers.planner import solve

    out: dict[str, Any] = {}
    try:
        vision = Vision.for_frame(profile, frame)
    except Unreadable as exc:
        return {"error": exc.reason}
    out["scale"] = vision.scale
    out["level_shown"] = vision.level_shown(frame)
    for name, reader in (
        ("target", vision.preview),
        ("board", vision.board),
        ("cursor", vision.cursor),
    ):
        try:
            value = reader(frame)
            out[name] = list(value) if isinstance(value, tuple) else str(value).splitlines()
        except Unreadable as exc:
            out[name + "_error"] = exc.reason
    screens = ScreenReader(profile, vision.scale)
    if screens.available:
        out["screen"] = screens.which(frame)
        if profile.panel:
            out["panel"] = screens.panel(frame)
    if "target" in out:
        target = vision.preview(frame)
        verdict = solve(target)
        if not verdict.solved:
            out["unsolvable"] = verdict.reason
        else:
            start = tuple(out.get("cursor", (1, 1)))
            ordering = fewest_presses(target, start=start, wrap=profile.keys.wrap)
            out["plan"] = [list(cell) for cell in ordering.plan]
            out["presses"] = ordering.presses
            out["lower_bound"] = ordering.lower_bound
            out["optimal"] = ordering.optimal
    return out


def text(info: dict[str, Any]) -> str:
    if "error" in info:
        return f"not the game: {info['error']}"
    lines = [f"scale {info['scale']}x, level on screen: {'yes' if info['level_shown'] else 'no'}"]
    if found := info.get("found_at"):
        where = f"the Fuse window's picture is at ({found['left']}, {found['top']})"
        if smooth := found.get("smoothed"):
            where += f", drawn {smooth}x larger, smoothed (a HiDPI desktop's)"
        lines.append(where)
    for name in ("target", "board"):
        if name in info:
            lines += [f"{name}:"] + [f"  {row}" for row in info[name]]
        else:
            lines.append(f"{name}: unreadable ({info[name + '_error']})")
    if info.get("screen"):
        lines.append(f"screen: {info['screen']}")
    if "panel" in info:
        panel = info["panel"]
        lines.append("panel: " + ", ".join(f"{k} {v}" for k, v in panel.items()))
    cursor = info.get("cursor")
    lines.append(
        f"cursor: {cursor[0]} {cursor[1]}"
        if cursor
        else f"cursor: unreadable ({info.get('cursor_error')})"
    )
    if "unsolvable" in info:
        lines.append(f"the target cannot be solved: {info['unsolvable']}")
    elif "plan" in info:
        optimal = "proven fewest" if info["optimal"] else f"lower bound {info['lower_bound']}"
        placed = sum(ch != "." for row in info.get("board", []) for ch in row)
        start = " for the level from an empty board" if placed else ""
        lines.append(f"plan{start} ({info['presses']} key presses, {optimal}):")
        lines += [f"  {r} {c}" for r, c in info["plan"]]
    return "\n".join(lines)


def live_frame(source: LiveWindow) -> np.ndarray:
    """The picture of the Fuse window on the display (the window ``--attach`` plays in)."""
    from logo_bot.bot.commands.fuse_window import pick_fuse_window
    from logo_bot.bot.x11.filter_check import check_filter
    from logo_bot.bot.x11.grab import open_grabber

    no_display = DisplayError("no display to look at", hint="use --screenshot PNG or --launch")
    fuse = pick_fuse_window(source.display, source.window, no_display)
    with LostDisplay(fuse.display, probe=True), open_grabber(fuse.display, fuse.id) as grabber:
        frame = grabber.grab()
        check_filter(fuse.display, fuse.id, grabber.box if grabber.found else None, "look again")
        return frame


def launched_frame(source: Launch, profile: Profile) -> np.ndarray:
    from logo_bot.bot.play.env import LogoEnv
    from logo_bot.bot.play.unattended import Walkthrough

    with (
        LostDisplay() as lost,
        open_session(profile, source.session) as session,
        abort_guarded(session, source.abort_key),
    ):
        lost.watch(session.xserver)
        level = source.level
        walk = Walkthrough(session, LogoEnv(session), profile, level, level, source.player)
        return walk.reach(level).frame


@dataclass(frozen=True)
class ShowOptions:
    """What ``show`` needs, parsed and checked once."""

    profile: Profile
    source: Source
    json: bool


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    setup_logging(args.verbose)
    profile = profile_from(args)
    if profile is None:
        return 0  # --show-config printed it
    source = source_from(args, profile)  # usage errors first
    required.for_launch(args, profile)  # --launch: a missing part refuses it before Fuse starts
    return show(ShowOptions(profile, source, args.json))


def show(options: ShowOptions) -> int:
    """Print what the bot reads on the screen: 0 when it found a plan, else 1;
    ``Unreadable`` (exit 7) when it shows neither a level nor a screen of the game."""
    profile = options.profile
    frame, placement = game_window(profile, source_frame(options.source, profile))
    what_is_shown(profile, frame)  # Unreadable (exit 7) when the picture is not the game
    info = describe(profile, frame)
    if placement is not None:
        info["found_at"] = {"scale": placement.scale, "left": placement.left, "top": placement.top}
        if placement.smooth > 1:
            info["found_at"]["smoothed"] = placement.smooth
    print(json.dumps(info, indent=2) if options.json else text(info))
    return 0 if "plan" in info else 1
