"""The options of the game a command plays: the calibration profile, the emulator
(display, scale, build, speed, what to load, how keys are sent), your own Fuse
(``--attach``) and unattended play (the abort key, the focus, attempts); each argparse
group beside the code that turns it into the frozen settings the session assembler reads
(``session_options``, ``attach_from``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from logo_bot.bot.commands.aborting import add_abort_option
from logo_bot.bot.errors import UsageError
from logo_bot.bot.fuse.assembly import SessionOptions
from logo_bot.bot.profile import Profile, load_profile, show_config


def add_profile_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("calibration profile")
    group.add_argument(
        "--profile",
        default="practice",
        metavar="NAME|FILE",
        help="calibration profile: 'practice' (the bundled game, default), 'logo-part1' "
        "(the original tape) or a profile.toml file",
    )
    group.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one profile setting, e.g. --set keys.reset=z (repeatable)",
    )
    group.add_argument(
        "--show-config",
        action="store_true",
        help="print the profile with every override applied, then exit",
    )


def profile_from(args: argparse.Namespace) -> Profile | None:
    """The profile; with --show-config it is printed and None is returned."""
    profile = load_profile(args.profile, args.overrides)
    if args.show_config:
        sys.stdout.write(show_config(profile))
        return None
    return profile


def add_game_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("emulator")
    where = group.add_mutually_exclusive_group()
    where.add_argument(
        "--headless",
        action="store_true",
        default=None,
        help="run Fuse on a private virtual display (Xvfb); the default when DISPLAY is unset",
    )
    where.add_argument("--display", metavar=":N", help="X display to show Fuse on")
    group.add_argument(
        "--scale", type=int, choices=(1, 2, 3), default=1, help="Fuse graphics filter (1x-3x)"
    )
    group.add_argument(
        "--fuse",
        dest="fuse_build",
        choices=("sdl", "gtk"),
        default="sdl",
        help="which Fuse build the bot starts: sdl (fuse-sdl, the default) or gtk (fuse-gtk, "
        "with a menu bar and a status bar; the bot finds the picture between them)",
    )
    group.add_argument(
        "--speed",
        type=int,
        default=100,
        metavar="PERCENT",
        help="emulation speed in percent (100 = real time; 200 halves every wait)",
    )
    group.add_argument("--snapshot", type=Path, metavar="FILE", help="load this .z80/.szx/.sna")
    group.add_argument("--tape", type=Path, metavar="FILE", help="load this .tap/.tzx")
    group.add_argument("--rom", type=Path, metavar="FILE", help="48K ROM (default: OpenSE BASIC)")
    group.add_argument(
        "--keys",
        dest="key_backend",
        choices=("window", "xtest", "pyautogui"),
        default="window",
        help=(
            "how keys are sent: window (default) addresses each event to Fuse's window, so "
            "no key can reach another one, even on a Wayland desktop; xtest and pyautogui "
            "type as a keyboard would, into the window with the focus (checked first)"
        ),
    )
    group.add_argument(
        "--no-take-focus",
        dest="take_focus",
        action="store_false",
        help="never take the keyboard focus back or raise a covered Fuse: pause and say so instead",
    )
    group.add_argument("--name", help="player name typed at the start (default: the profile's)")


# --speed in percent: one range for every command that starts Fuse, to play or to replay.
# Fuse sets no upper limit ("if your machine isn't fast enough to keep up with the
# requested speed, Fuse will just run as fast as it can", fuse(1)), so the limit is what
# it keeps up with: asked for 5000 it ran at 4808 %, asked for 20000 at only 15385 %,
# CPU-bound (../shared/FUSE-FACTS.md, section 3). Above that, every wait the bot works out
# from the speed asked (frame time, key timing) would be too short. A replay needs no
# more: its time in Fuse is small beside encoding the video. 10 is the slowest either had.
MIN_SPEED, MAX_SPEED = 10, 5000


def checked_speed(speed: int) -> int:
    """``speed`` (``--speed``) when it is in the one range, else ``UsageError``."""
    if not MIN_SPEED <= speed <= MAX_SPEED:
        raise UsageError(f"--speed {speed}: choose {MIN_SPEED}..{MAX_SPEED} percent")
    return speed


def add_attach_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "your own Fuse",
        "With --attach the bot plays in the Fuse window already on the display (your own, "
        "with your tape loaded), from whatever the game shows: a level in progress, a menu, "
        "a code screen, GAME OVER. It never starts, stops, restarts or reconfigures that "
        "Fuse and never opens its menus; it measures the emulation speed from the screen, "
        "and records the run's video from the picture itself (Fuse records nothing).",
    )
    group.add_argument(
        "--attach", action="store_true", help="take over the Fuse already running on the display"
    )
    group.add_argument(
        "--window",
        metavar="ID|TITLE",
        help="with --attach: the Fuse window to play in (an X window id, or its title or part "
        "of it), when the display has more than one",
    )


ATTACH_CONFLICTS = {
    "headless": "--headless",
    "snapshot": "--snapshot",
    "tape": "--tape",
    "rom": "--rom",
}


@dataclass(frozen=True)
class Attach:
    """Play in the person's own Fuse (``--attach``): the window named (``--window``),
    else the only one on the display."""

    window: str | None = None


def attach_from(args: argparse.Namespace) -> Attach | None:
    """``--attach`` and ``--window`` (None: the bot starts its own Fuse); ``UsageError``
    for options that would change a Fuse the bot does not own."""
    if not args.attach:
        if args.window:
            raise UsageError("--window names your Fuse to attach to", hint="add --attach")
        return None
    given = [flag for name, flag in ATTACH_CONFLICTS.items() if getattr(args, name)]
    if args.scale != 1:
        given.append("--scale")
    if given:
        raise UsageError(
            f"--attach plays your Fuse as it is: {', '.join(given)} cannot change it",
            hint="drop " + " and ".join(given) + " (the scale and speed are read from the screen)",
        )
    return Attach(args.window)


def add_safety_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "unattended play",
        "The bot never types into a window that is not Fuse. Ctrl-C or the abort key "
        "releases every key at once, stops Fuse cleanly and finishes the run folder.",
    )
    add_abort_option(group)
    group.add_argument(
        "--focus-grace",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="when another window takes the keyboard focus or covers Fuse, wait this long "
        "before taking it back or raising Fuse (default 1; with --no-take-focus the bot waits "
        "until you click Fuse or the other window goes)",
    )
    group.add_argument(
        "--focus-timeout",
        type=non_negative,
        metavar="SECONDS",
        help="stop (exit 6, the run folder finished) when Fuse has not had the keyboard, "
        "uncovered, for this long (default 600; with --no-take-focus none unless given; "
        "0: wait for ever)",
    )
    group.add_argument(
        "--max-attempts",
        type=int,
        default=5,
        metavar="N",
        help="give up when one level fails N times in a row (default 5); after each "
        "failure the game is entered again through the last code and played on",
    )


def non_negative(text: str) -> float:
    """An argparse type: a number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds, not {text}")
    return value


FOCUS_TIMEOUT_S = 600.0  # an unattended run waits this long for the focus, then exit 6


def focus_timeout(given: float | None, take_focus: bool) -> float | None:
    """Seconds to wait for the focus before giving up: as given (0: for ever), else 600 s
    when the bot takes the focus back, and for ever with --no-take-focus (a person
    clicks Fuse when they are ready)."""
    if given is not None:
        return given or None
    return FOCUS_TIMEOUT_S if take_focus else None


def session_options(args: argparse.Namespace) -> SessionOptions:
    """The session the game options ask for (``--speed`` checked)."""
    return SessionOptions(
        headless=True if args.headless else (False if args.display else None),
        display=args.display,
        scale=args.scale,
        speed=checked_speed(args.speed),
        snapshot=args.snapshot,
        tape=args.tape,
        rom=args.rom,
        key_backend=args.key_backend,
        take_focus=args.take_focus,
        focus_grace_s=max(0.0, getattr(args, "focus_grace", 1.0)),  # show has no --focus-grace
        focus_timeout_s=focus_timeout(getattr(args, "focus_timeout", None), args.take_focus),
        fuse_build=args.fuse_build,
    )
