"""``logo-bot calibrate``: check a profile against a live game or a screenshot."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from logo_bot.bot.commands import required
from logo_bot.bot.commands.aborting import (
    abort_guarded,
    abort_key_from,
    check_abort_key_free,
    noting_whose_fuse,
)
from logo_bot.bot.commands.common import add_output_options, setup_logging
from logo_bot.bot.commands.game_options import (
    add_game_options,
    add_profile_options,
    profile_from,
    session_options,
)
from logo_bot.bot.commands.game_window import game_window
from logo_bot.bot.commands.player_name import checked_name
from logo_bot.bot.commands.probe_options import (
    add_probe_options,
    check_writable,
    save_probed_profile,
)
from logo_bot.bot.commands.show import (
    Source,
    add_source_options,
    describe,
    launch_level,
    source_frame,
    source_from,
    text,
)
from logo_bot.bot.errors import UsageError, exit_codes_help
from logo_bot.bot.fuse.assembly import SessionOptions, attach_session, open_session
from logo_bot.bot.profile import Profile
from logo_bot.bot.see.annotate import save_annotated
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.lost import LostDisplay


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="logo-bot calibrate",
        description="Check a calibration profile against a screen of the game: find the Fuse "
        "picture (scale and origin, also inside a whole-desktop screenshot), read the target, "
        "board, cursor and panel through the profile, and write a PNG with every cell it read "
        "outlined and labelled. Use it with your own tape to adjust the logo-part1 profile.",
        epilog="examples:\n"
        "  logo-bot calibrate --screenshot desktop.png --profile logo-part1\n"
        "  logo-bot calibrate --launch --headless --out check.png\n"
        "  logo-bot calibrate --probe-keys --save-profile mine.toml --profile logo-part1\n"
        "      measure the key timing on the level your Fuse shows, keep it in mine.toml"
        + "\n\n"
        + exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_source_options(p)
    p.add_argument("--out", type=Path, help="annotated PNG (default: calibrate-PROFILE.png)")
    p.add_argument(
        "--probe-keys",
        action="store_true",
        help="measure the key timing on a level (of your Fuse, or with --launch one this "
        "command starts) instead of checking a picture: how long a key must be held and "
        "let go, whether keys roll over, whether a held key repeats",
    )
    add_probe_options(p, always=True)
    add_profile_options(p)
    add_game_options(p)
    add_output_options(p)
    return p


@dataclass(frozen=True)
class ProfileCheck:
    """Check the profile on a screen and draw what it read into ``out``."""

    profile: Profile
    source: Source
    out: Path


@dataclass(frozen=True)
class KeyProbeOptions:
    """``--probe-keys``: measure the key timing on a level of a live game."""

    profile: Profile
    session: SessionOptions
    launch: bool  # a game this command starts (--launch), else the person's Fuse
    level: int  # with launch: the level to reach
    window: str | None  # else: the Fuse window to play in (--window)
    player: str | None  # the name typed at the start (None: the profile's)
    save_profile: Path | None  # keep the timing in this profile
    abort_key: str | None  # stops the probe's keys from any window (None: Ctrl-C only)


def options_from(args: argparse.Namespace, profile: Profile) -> ProfileCheck | KeyProbeOptions:
    """What the command line asks for, checked."""
    if not (args.probe_keys or args.save_profile):
        out = args.out or Path(f"calibrate-{profile.name}.png")
        return ProfileCheck(profile, source_from(args, profile), out)
    if args.screenshot:
        raise UsageError(
            "--probe-keys presses keys: it needs a live game, not a screenshot",
            hint="leave out --screenshot (your Fuse window is used), or add --launch",
        )
    level = launch_level(args, profile)
    player = checked_name(args.name, profile)
    session = session_options(args)
    if args.save_profile:
        check_writable(args.save_profile, "--save-profile")
    abort_key = abort_key_from(args, profile)
    check_abort_key_free(abort_key, session)
    return KeyProbeOptions(
        profile,
        session,
        args.launch,
        level,
        args.window,
        player,
        args.save_profile,
        abort_key,
    )


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    setup_logging(args.verbose)
    profile = profile_from(args)
    if profile is None:
        return 0  # --show-config printed it
    options = options_from(args, profile)
    required.for_launch(args, profile)  # --launch: a missing part refuses it before Fuse starts
    return probe(options) if isinstance(options, KeyProbeOptions) else check(options)


def check(options: ProfileCheck) -> int:
    """Read the screen through the profile and write the annotated picture: 0 when every
    cell was read, else 1."""
    profile = options.profile
    image = source_frame(options.source, profile)
    frame, placement = game_window(profile, image)
    vision = Vision.for_frame(profile, frame)
    info = describe(profile, frame)
    where = (
        f"the picture is the game window at {vision.scale}x"
        if placement is None
        else f"found the game at {placement.scale}x, window origin ({placement.left}, "
        f"{placement.top}) in a {image.shape[1]}x{image.shape[0]} image"
        + (f", drawn {placement.smooth}x larger, smoothed (HiDPI)" if placement.smooth > 1 else "")
    )
    save_annotated(options.out, frame, vision, [where])
    print(where)
    print(text(info))
    problems = [k for k in info if k.endswith("_error")] + (
        ["unsolvable"] if "unsolvable" in info else []
    )
    print(f"annotated picture: {options.out}")
    print(
        "profile OK: every cell read"
        if not problems
        else f"profile problems: {', '.join(problems)} (see the picture)"
    )
    return 0 if not problems else 1


def probe(options: KeyProbeOptions) -> int:
    """``--probe-keys``: measure the key timing on a level and print (and keep) it."""
    from logo_bot.bot.commands.fuse_window import attach_window
    from logo_bot.bot.play.env import LogoEnv
    from logo_bot.bot.play.probe_io import probe_keys
    from logo_bot.bot.play.unattended import Walkthrough

    profile, level = options.profile, options.level
    if options.launch:
        session = open_session(profile, options.session)
    else:
        window_id = attach_window(options.session.display, options.window)
        session = attach_session(profile, options.session, window_id)
    with (
        LostDisplay() as lost,
        session,
        noting_whose_fuse(not options.launch),
        abort_guarded(session, options.abort_key),
    ):
        lost.watch(session.xserver)
        walk = Walkthrough(session, LogoEnv(session), profile, level, level, options.player)
        if options.launch:
            walk.reach(level)
        else:
            walk.player.wait_level()
        if session.attached:
            walk.measure_speed()
        _, result = probe_keys(session, walk.player, budget_s=60.0)
        print(f"key timing probed on level {level if options.launch else 'shown'}:")
        for line in result.lines():
            print(f"  {line}")
        if options.save_profile:
            speed = session.speed
            print(save_probed_profile(options.save_profile, profile, result, speed))
    return 0 if result.usable else 1
