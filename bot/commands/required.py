"""Before a run starts: the parts of this machine it needs, asked with doctor's own checks
(``machine_checks``). A run that lacks one is refused at once with the Debian package to
install and the option that does without, e.g. "video needs ffmpeg (sudo apt-get install
ffmpeg); --no-video plays without it", and the exit status of that part (bot/errors.py):
no run folder is made and no program started (nothing is asked its version; a display is
only opened, as the run would).

Each command that runs calls one function here first: ``for_run`` (walkthrough, level),
``for_launch`` (show and calibrate with --launch) and ``for_replay``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from logo_bot.bot.commands import machine_checks as checks
from logo_bot.bot.errors import (
    BotError,
    DisplayError,
    EmulatorError,
    InputError,
    MovieError,
    VideoError,
)

if TYPE_CHECKING:
    from logo_bot.bot.profile import Profile
    from logo_bot.bot.recording.folder import RunFolder


class Replay(Protocol):
    """What ``for_replay`` reads of replay's options (``ReplayOptions``, frozen)."""

    @property
    def folder(self) -> RunFolder: ...
    @property
    def headless(self) -> bool: ...
    @property
    def display(self) -> str | None: ...
    @property
    def video(self) -> str | None: ...
    @property
    def want_video(self) -> bool: ...


@dataclass(frozen=True)
class Need:
    """One part a run needs: whether it is there, and if not what the refusal says."""

    ok: bool
    said: str  # "video needs ffmpeg (sudo apt-get install ffmpeg); --no-video plays without it"
    error: type[BotError]
    item: str  # what is missing, in a word ("ffmpeg")


def need(check: checks.Check, needs: str, without: str, error: type[BotError]) -> Need:
    """``check`` as a need: "NEEDS ITEM (how to install it); WITHOUT" when it is missing."""
    how = check.fix.removeprefix("install: ").removeprefix("do: ")
    said = f"{needs} {check.item} ({how})" + (f"; {without}" if without else "")
    return Need(check.ok, said, error, check.item)


def require(needs: list[Need]) -> None:
    """Refuse the run with the first part missing (its error, so its exit status); the
    hint names any others, and doctor."""
    missing = [n for n in needs if not n.ok]
    if not missing:
        return
    others = [n.item for n in missing[1:]]
    also = f"also missing: {', '.join(others)}; " if others else ""
    raise missing[0].error(missing[0].said, hint=f"{also}logo-bot doctor checks the whole machine")


def fuse_needs(build: str, rom_default: bool, practice_game: bool) -> list[Need]:
    """A Fuse the bot starts: its build, and the ROM and game files that come with the
    bot (a ROM or game given by the user is checked by the session, with its path)."""
    from logo_bot.bot.fuse.builds import BUILDS

    other = next(b for b in BUILDS if b != build)
    there = checks.program(f"fuse-{other}", BUILDS[other], "").ok
    fuse = checks.program(f"fuse-{build}", BUILDS[build], "", checks.LAUNCHED)
    without = f"--fuse {other} plays with fuse-{other}, which is installed" if there else ""
    found = [
        Need(
            fuse.ok,
            f"fuse-{build} is not installed ({fuse.fix.removeprefix('install: ')})"
            + (f"; {without}" if without else ""),
            EmulatorError,
            fuse.item,
        )
    ]
    if rom_default:
        rom = checks.rom()
        found.append(
            need(rom, "Fuse needs the", "--rom FILE starts it with a 48K ROM of yours", InputError)
        )
    if practice_game:
        game = checks.practice_game()
        without = "--snapshot FILE or --tape FILE plays another game"
        found.append(need(game, "playing needs the", without, InputError))
    return found


def display_needs(headless: bool, display: str | None, keys: str) -> list[Need]:
    """Where the launched Fuse shows: Xvfb on PATH for a headless run (not started here),
    else the display opened once as the run would (its own ``DisplayError`` when it does
    not open); and XTEST there for the keys that type through it."""
    if headless:
        xvfb = checks.xvfb_program()
        without = "--display :N plays on a display of yours"
        return [need(xvfb, "a headless run needs", without, DisplayError)]
    from logo_bot.bot.x11.display import XServer, open_display

    server = XServer.existing(display)
    if keys == "window":
        return []
    dpy = open_display(server.display)
    try:
        xtest = dpy.has_extension("XTEST")
    finally:
        dpy.close()
    said = (
        f"--keys {keys} needs the XTEST extension, which the X display {server.display} "
        "lacks; --keys window (the default) needs none"
    )
    return [Need(xtest, said, DisplayError, "XTEST")]


def video_needs(movie: bool, video: bool, annotate: bool, without: str) -> list[Need]:
    """What the run's videos need: fmfconv for Fuse's ``movie``, and ffmpeg (else OpenCV)
    to write an MP4, for the ``video`` and for ``annotate``'s (``without``: the option
    that plays without the video)."""
    found = []
    if video and movie:
        found.append(need(checks.fmfconv(versions=False), "video needs", without, MovieError))
    found_writer = checks.video_writer(versions=False)  # not blocking: OpenCV writes it
    writer = checks.Check(
        "ffmpeg", found_writer.ok or not found_writer.blocks, "", found_writer.fix
    )
    if video:
        found.append(need(writer, "video needs", without, VideoError))
    if annotate:
        found.append(need(writer, "--annotate needs", "leave out --annotate", VideoError))
    return found


def launched(args: argparse.Namespace, profile: Profile) -> list[Need]:
    """A Fuse this command starts, where the game options put it."""
    from logo_bot.bot.x11.display import runs_headless

    rom_default = args.rom is None and profile.game.get("rom", "opense") == "opense"
    given = args.snapshot is not None or args.tape is not None
    practice = not given and profile.game.get("snapshot") == checks.PRACTICE_GAME
    headless = runs_headless(args.headless, args.display)
    return [
        *fuse_needs(args.fuse_build, rom_default, practice),
        *display_needs(headless, args.display, args.key_backend),
        *keys_needs(args.key_backend),
    ]


def keys_needs(keys: str) -> list[Need]:
    """``--keys pyautogui``: the optional Python package it types with."""
    if keys != "pyautogui":
        return []
    said = (
        "--keys pyautogui needs the Python package pyautogui (pip install pyautogui, "
        "then pip install --force-reinstall --no-deps python-xlib); "
        "--keys window (the default) needs none"
    )
    return [Need(checks.importable("pyautogui"), said, DisplayError, "pyautogui")]


def for_run(args: argparse.Namespace, profile: Profile) -> None:
    """``walkthrough`` and ``level``: Fuse, its files and its display when the bot starts
    it (an attached run finds the person's Fuse before its folder is made), and the
    video tools unless --no-video or --no-record."""
    needs = keys_needs(args.key_backend) if args.attach else launched(args, profile)
    if args.record:
        without = "--no-video plays without it"
        needs += video_needs(not args.attach, args.video, args.annotate, without)
    require(needs)


def for_launch(args: argparse.Namespace, profile: Profile) -> None:
    """``show`` and ``calibrate``: with --launch, the Fuse they start (no video)."""
    if args.launch:
        require(launched(args, profile))


def for_replay(options: Replay) -> None:
    """``replay``: a launched run's recording played in fuse-sdl, its movie decoded by
    fmfconv (every frame is compared), and the video written when asked or headless; an
    attached run's video cut by ffmpeg, and shown by ffplay on a display."""
    if (options.folder.read().get("fuse") or {}).get("attached"):
        needs = []
        if options.video is not None or options.headless:
            cut = checks.program("ffmpeg", "ffmpeg", "")
            needs.append(need(cut, "cutting the video needs", "", VideoError))
        if not options.headless:
            show = checks.program("ffplay", "ffmpeg", "")
            without = "--headless writes the video to a file instead"
            needs.append(need(show, "playing the video needs", without, VideoError))
        require(needs)
        return
    needs = [
        *fuse_needs("sdl", rom_default=False, practice_game=False),
        *display_needs(options.headless, options.display, "window"),
        need(checks.fmfconv(versions=False), "a replay needs", "", MovieError),
    ]
    if options.want_video:
        without = "on a display (--display :N) it plays without one"
        needs += video_needs(False, True, False, without)  # fmfconv is in already
    require(needs)
