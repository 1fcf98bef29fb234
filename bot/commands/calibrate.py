"""``logo-bot calibrate``: check a profile against a live game or a screenshot."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.commands.common import (
    add_game_options,
    add_output_options,
    add_probe_options,
    add_profile_options,
    profile_from,
    save_probed_profile,
    session_options,
    setup_logging,
)
from bot.commands.show import add_source_options, describe, source_frame, text
from bot.errors import UsageError, exit_codes_help
from bot.profile import Profile
from bot.see.annotate import save_annotated
from bot.see.locate import window_of
from bot.see.vision import Vision


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


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    setup_logging(args.verbose)
    profile = profile_from(args)
    if profile is None:
        return 0
    if args.probe_keys or args.save_profile:
        return probe(args, profile)
    image = source_frame(args, profile)
    frame, placement = window_of(profile, image)
    vision = Vision.for_frame(profile, frame)
    info = describe(profile, frame)
    where = (
        f"the picture is the game window at {vision.scale}x"
        if placement is None
        else f"found the game at {placement.scale}x, window origin ({placement.left}, "
        f"{placement.top}) in a {image.shape[1]}x{image.shape[0]} image"
    )
    out = args.out or Path(f"calibrate-{profile.name}.png")
    save_annotated(out, frame, vision, [where])
    print(where)
    print(text(info))
    problems = [k for k in info if k.endswith("_error")] + (
        ["unsolvable"] if "unsolvable" in info else []
    )
    print(f"annotated picture: {out}")
    print(
        "profile OK: every cell read"
        if not problems
        else f"profile problems: {', '.join(problems)} (see the picture)"
    )
    return 0 if not problems else 1


def probe(args: argparse.Namespace, profile: Profile) -> int:
    """``--probe-keys``: measure the key timing on a level and print (and keep) it."""
    from bot.fuse.session import Session
    from bot.play.env import LogoEnv
    from bot.play.probe_io import probe_keys
    from bot.play.unattended import Walkthrough

    if args.screenshot:
        raise UsageError(
            "--probe-keys presses keys: it needs a live game, not a screenshot",
            hint="leave out --screenshot (your Fuse window is used), or add --launch",
        )
    options = session_options(args)
    if args.launch:
        session = Session.open(profile, options)
    else:
        from bot.commands.fuse_window import attach_window

        session = Session.attach(profile, options, attach_window(options.display, args.window))
    with session:
        walk = Walkthrough(session, LogoEnv(session), profile, args.level, args.level, args.name)
        if args.launch:
            walk.reach(args.level)
        else:
            walk.player.wait_level()
        if session.attached:
            walk.measure_speed()
        _, result = probe_keys(session, walk.player, budget_s=60.0)
        print(f"key timing probed on level {args.level if args.launch else 'shown'}:")
        for line in result.lines():
            print(f"  {line}")
        if args.save_profile:
            print(save_probed_profile(args.save_profile, profile, result, session.options.speed))
    return 0 if result.usable else 1
