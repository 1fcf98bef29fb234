"""``logo-bot calibrate``: check a profile against a live game or a screenshot."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.commands.common import (
    add_game_options,
    add_output_options,
    add_profile_options,
    profile_from,
    setup_logging,
)
from bot.commands.show import add_source_options, describe, source_frame, text
from bot.errors import exit_codes_help
from bot.see.annotate import save_annotated
from bot.see.locate import locate
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
        "  logo-bot calibrate --launch --headless --out check.png" + "\n\n" + exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_source_options(p)
    p.add_argument("--out", type=Path, help="annotated PNG (default: calibrate-PROFILE.png)")
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
    image = source_frame(args, profile)
    placement = locate(profile, image)
    frame = placement.crop(image, profile)
    vision = Vision(profile, placement.scale)
    info = describe(profile, frame)
    where = (
        f"found the game at {placement.scale}x, window origin ({placement.left}, "
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
