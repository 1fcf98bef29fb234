"""The session assembler: the ``SessionOptions`` that commands/ made from the command line
turned into a running ``Session``, launched (``open_session``) or the person's own Fuse
taken over (``attach_session``).

The options stop here. Each part gets only the values it uses: the display a name, Fuse
its command line (``fuse_config``), the focus policy its delays, the key driver a backend,
a window and a timing (``Controls``), and the session the files of a restarted Fuse
(``FuseFiles``) and, for run.json, a plain record of what it runs with (``run_record``).
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from logo_bot.bot.errors import InputError
from logo_bot.bot.fuse.attached import AttachedFuse
from logo_bot.bot.fuse.builds import OPENSE_ROM
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.fuse.session_parts import (
    Controls,
    FuseFiles,
    KeyWrapper,
    Segment,
    key_timing,
    open_picture,
)
from logo_bot.bot.profile import Profile
from logo_bot.bot.see.vision import Vision
from logo_bot.bot.x11.display import XServer, open_display, runs_headless, xvfb_program
from logo_bot.bot.x11.filter_check import check_filter
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.grab import Grabber, open_grabber
from logo_bot.bot.x11.tiling import check_drawn
from logo_bot.bot.x11.watch_choice import watch_window
from logo_bot.bot.x11.window import build_of, window_pid
from logo_bot.bot.x11.xwayland import DisplayType, portal_note

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SessionOptions:
    """How to run the game: display, scale, speed and what to load."""

    headless: bool | None = None  # None: headless when there is no DISPLAY
    display: str | None = None
    scale: int = 1
    speed: int = 100
    snapshot: Path | None = None
    tape: Path | None = None
    rom: Path | None = None
    key_backend: str = "window"
    take_focus: bool = True  # take the focus back after focus_grace_s, or pause until it returns
    focus_grace_s: float = 1.0
    focus_timeout_s: float | None = None  # then FocusLost (exit 6); None: wait for ever
    record_rzx: Path | None = None
    movie: Path | None = None
    log_dir: Path | None = None
    fuse_build: str = "sdl"  # "sdl" (fuse-sdl) or "gtk" (fuse-gtk)
    display_type: str | None = None  # "x11" or "xwayland": what the display was found to be


def with_files(options: SessionOptions, files: FuseFiles) -> SessionOptions:
    """``options`` with Fuse's input recording, movie and logs going to ``files``."""
    return replace(options, record_rzx=files.rzx, movie=files.movie, log_dir=files.log_dir)


def run_record(options: SessionOptions) -> dict[str, Any]:
    """What run.json says about the session: the options, paths as text."""
    return {k: str(v) if isinstance(v, Path) else v for k, v in asdict(options).items()}


def fuse_config(profile: Profile, options: SessionOptions) -> FuseConfig:
    """The Fuse command line for ``profile`` and ``options`` (options win)."""
    rom_setting = profile.game.get("rom", "opense")
    rom = options.rom or (OPENSE_ROM if rom_setting == "opense" else profile.resolve(rom_setting))
    snapshot = options.snapshot
    tape = options.tape
    if snapshot is None and tape is None:
        if profile.game.get("snapshot"):
            snapshot = profile.resolve(profile.game["snapshot"])
        elif profile.game.get("tape"):
            tape = profile.resolve(profile.game["tape"])
        else:
            raise InputError(
                f"the {profile.name} profile needs a game to load",
                hint="give the tape with --tape FILE (or a snapshot with --snapshot FILE)",
            )
    return FuseConfig(
        rom=rom,
        snapshot=snapshot,
        tape=tape,
        scale=options.scale,
        speed=options.speed,
        record=options.record_rzx,
        movie=options.movie,
        build=options.fuse_build,
        statusbar=options.fuse_build == "gtk",  # GTK's own bar below the picture, as people see it
    )


def open_session(
    profile: Profile, options: SessionOptions, wrap_keys: KeyWrapper | None = None
) -> Session:
    """Start the display (a private Xvfb when headless) and Fuse, and put the parts
    together; whatever was started is stopped again if a part fails."""
    config = fuse_config(profile, options)
    config.check_files()
    log_dir = options.log_dir
    xserver = (
        XServer.start(log_path=log_dir / "xvfb.log" if log_dir else None)
        if runs_headless(options.headless, options.display)
        else XServer.existing(options.display)
    )
    controls = controls_for(options, xserver)
    policy = focus_policy(options, controls)
    started = time.monotonic()
    fuse: Fuse | None = None
    grabber: Grabber | None = None
    try:  # one stretch: an interrupt anywhere in it stops what was started
        fuse = Fuse.start(
            config, xserver.display, log_path=log_dir / "fuse.log" if log_dir else None
        )
        grabber = open_picture(xserver, fuse, options.scale)
        watch = watch_window(xserver.display, fuse.window_id, grabber, xserver.framebuffer)
        timing = key_timing(profile, options.speed)
        # the first focus once, as a window manager gives a new window the focus
        keys, cover = controls.fit(xserver.display, fuse.window_id, grabber, watch, timing, policy)
    except BaseException:
        if grabber is not None:
            grabber.close()
        if fuse is not None:
            fuse.stop()
        xserver.stop()
        raise
    session = Session(
        profile,
        xserver,
        fuse,
        grabber,
        wrap_keys(keys) if wrap_keys else keys,
        Vision(profile, options.scale),
        options.speed,
        policy,
        controls,
        FuseFiles(options.record_rzx, options.movie, log_dir),
        run_record(found(options, xserver, controls)),
        wrap_keys,
        cover,
        keys,
        time.monotonic() - started,
        watch=watch,
    )
    session.add_segment()
    return session


def attach_session(
    profile: Profile,
    options: SessionOptions,
    window_id: int,
    wrap_keys: KeyWrapper | None = None,
) -> Session:
    """The person's own Fuse on their display: the bot only looks and presses keys
    (``AttachedFuse``). ``options.speed`` stands until ``set_speed`` gives the
    measured one; the scale is read from the picture."""
    xserver = XServer.existing(options.display)
    controls = controls_for(options, xserver)
    dpy = open_display(xserver.display)
    try:
        pid = window_pid(dpy, window_id)
        build = build_of(dpy.create_resource_object("window", window_id))
    finally:
        dpy.close()
    fuse = AttachedFuse(window_id, pid)
    policy = focus_policy(options, controls)
    grabber = open_grabber(xserver.display, window_id)
    watch = None
    try:
        watch = watch_window(xserver.display, window_id, grabber)
        check_drawn(xserver.display, window_id, grabber.sees_picture)  # a tiler's size
        check_filter(xserver.display, window_id, grabber.box if grabber.found else None)
        if grabber.box.filter:
            log.info(
                "your Fuse draws through its %s filter: the bot reads each block's own pixel",
                grabber.box.filter,
            )
        vision = Vision.for_frame(profile, grabber.grab())
        timing = key_timing(profile, options.speed)
        # the first focus: the person ran the command from a terminal
        keys, cover = controls.fit(xserver.display, window_id, grabber, watch, timing, policy)
    except BaseException:
        grabber.close()
        if watch is not None:
            watch.close()
        raise
    # the person's build and the scale found, not the options'; their Fuse records no
    # RZX and no movie
    used = replace(
        found(options, xserver, controls),
        fuse_build=build,
        record_rzx=None,
        movie=None,
        scale=vision.scale,
        headless=False,
        display=xserver.display,
    )
    session = Session(
        profile,
        xserver,
        fuse,  # type: ignore[arg-type]
        grabber,
        wrap_keys(keys) if wrap_keys else keys,
        vision,
        options.speed,
        policy,
        controls,
        FuseFiles(None, None, options.log_dir),
        run_record(used),
        wrap_keys,
        cover,
        keys,
        watch=watch,
    )
    session.segments.append(Segment(1, fuse.started_at, time.time(), options.speed, None, None))
    return session


def controls_for(options: SessionOptions, xserver: XServer) -> Controls:
    """How keys reach Fuse on this display; says the display (--verbose), and on an
    XWayland new enough to pass XTest keys through the desktop's remote-control portal,
    what the person will be asked (in the run's first lines, whatever the verbosity)
    when the keys are XTest's (``--keys xtest`` or ``pyautogui``; keys sent to Fuse's
    window are not).

    Under XWayland the focus is the compositor's, which undoes an X client's
    SetInputFocus: the bot never takes it (``take_focus`` off), it pauses until the
    person clicks Fuse."""
    log.info("playing on X display %s", xserver.describe())
    if xserver.kind is not DisplayType.XWAYLAND:
        return Controls(options.key_backend, options.take_focus, xwayland=False)
    xtest = options.key_backend != "window"
    note = portal_note(xserver.version) if xserver.version and xtest else None
    if note is not None:
        log.warning(note)
    if options.take_focus:
        log.info("XWayland: the desktop gives the keyboard focus, so the bot never takes it")
    return Controls(options.key_backend, take_focus=False, xwayland=True)


def found(options: SessionOptions, xserver: XServer, controls: Controls) -> SessionOptions:
    """``options`` with what the display turned out to be."""
    return replace(options, display_type=xserver.kind.value, take_focus=controls.take_focus)


def focus_policy(options: SessionOptions, controls: Controls) -> FocusPolicy:
    """How the session waits for the focus: always a pause (never an error at once), for
    ``focus_timeout_s`` at most."""
    return FocusPolicy(
        take_back=controls.take_focus,
        wait=True,
        grace_s=options.focus_grace_s,
        timeout_s=options.focus_timeout_s,
    )


def preflight(profile: Profile, options: SessionOptions) -> None:
    """What ``open_session`` would fail on, checked before a run folder exists: the input
    files (``InputError``), the Fuse build (``EmulatorError``), and the display
    (``DisplayError``: Xvfb missing, or the person's display not opening)."""
    config = fuse_config(profile, options)
    config.check_files()
    config.program()
    if runs_headless(options.headless, options.display):
        xvfb_program()
    else:
        XServer.existing(options.display)
