"""One running game: an X display, Fuse, a grabber, a key driver and the vision layer.

One piece over 300 lines: opening, attaching, restarting and closing a session touch the
same five parts in the same order, and each must undo what the others did.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from logo_bot.bot import interrupts
from logo_bot.bot.errors import DisplayLost, EmulatorError, InputError, Unreadable
from logo_bot.bot.frames import FPS, FRAME_S
from logo_bot.bot.fuse.attached import AttachedFuse
from logo_bot.bot.fuse.emulator import OPENSE_ROM, Fuse, FuseConfig
from logo_bot.bot.profile import Profile
from logo_bot.bot.see.vision import Vision, detect_scale
from logo_bot.bot.x11.cover import CoverWatch
from logo_bot.bot.x11.display import XServer, open_display, runs_headless, xvfb_program
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.grab import Grabber, open_grabber
from logo_bot.bot.x11.keys import KeyDriver, KeyTiming, XTestKeys
from logo_bot.bot.x11.picture import window_size
from logo_bot.bot.x11.tiling import check_drawn, float_fuse
from logo_bot.bot.x11.title_speed import TitleSpeed, frames_per_s
from logo_bot.bot.x11.window import build_of, window_pid
from logo_bot.bot.x11.window_keys import WindowKeys
from logo_bot.bot.x11.xwayland import DisplayType, portal_note

OPENSE_PAPER = (192, 192, 192)  # BASIC's white paper: the ROM is ready for typing

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


@dataclass(frozen=True)
class Segment:
    """One run of Fuse within a session (a restart starts the next one) and its files."""

    number: int
    started_at: float  # time.monotonic() when Fuse was started
    started_wall: float  # time.time() at the same moment
    speed: int
    rzx: Path | None
    movie: Path | None


def segment_path(path: Path | None, number: int) -> Path | None:
    """``run.rzx`` for the first segment, ``run-2.rzx`` for the second, ..."""
    if path is None or number == 1:
        return path
    return path.with_name(f"{path.stem}-{number}{path.suffix}")


KeyWrapper = Callable[[KeyDriver], KeyDriver]


@dataclass
class Session:
    """The live game the bot plays; close it to stop Fuse (and Xvfb if it started one).

    ``focus_policy`` outlives restarts (listeners stay attached); so does ``wrap_keys``,
    which wraps every new key driver (the fault layer uses it).
    """

    profile: Profile
    options: SessionOptions
    xserver: XServer
    fuse: Fuse
    grabber: Grabber
    keys: KeyDriver
    vision: Vision
    frame_s: float
    focus_policy: FocusPolicy
    wrap_keys: KeyWrapper | None = None
    cover: CoverWatch | None = None  # is another window over the picture?
    target: XTestKeys | None = None  # the unwrapped key driver: the focus policy's target
    start_s: float = 0.0  # how long the last start of Fuse took (wall seconds)
    segments: list[Segment] = field(default_factory=list)
    killed_segments: list[int] = field(default_factory=list)  # Fuse had to be SIGKILLed
    _closed: bool = field(default=False, repr=False)
    tape_pending: bool = False  # a tape OpenSE cannot load by itself: LOAD "" to type
    _checked_at: float = field(default=0.0, repr=False)
    _title: TitleSpeed | None = field(default=None, repr=False)  # Fuse's speed, for waits

    @classmethod
    def open(
        cls, profile: Profile, options: SessionOptions, wrap_keys: KeyWrapper | None = None
    ) -> Session:
        config = fuse_config(profile, options)
        config.check_files()
        log_dir = options.log_dir
        xserver = (
            XServer.start(log_path=log_dir / "xvfb.log" if log_dir else None)
            if runs_headless(options.headless, options.display)
            else XServer.existing(options.display)
        )
        options = found_display(options, xserver)
        policy = focus_policy(options)
        started = time.monotonic()
        fuse: Fuse | None = None
        try:  # one stretch: an interrupt anywhere in it stops what was started
            fuse = Fuse.start(
                config, xserver.display, log_path=log_dir / "fuse.log" if log_dir else None
            )
            float_on_tiler(xserver, fuse, options.scale)
            grabber = open_grabber(xserver.display, fuse.window_id)
            hold, gap = profile.timing.for_speed(options.speed)
            timing = KeyTiming(hold, gap, profile.timing.rollover)
            keys = make_keys(options, xserver.display, fuse.window_id, timing, policy)
            cover = watch_cover(options, fuse.window_id, grabber, keys)
            first_focus(options, keys)  # once, as a window manager gives a new window the focus
        except BaseException:
            if fuse is not None:
                fuse.stop()
            xserver.stop()
            raise
        session = cls(
            profile,
            options,
            xserver,
            fuse,
            grabber,
            wrap_keys(keys) if wrap_keys else keys,
            Vision(profile, options.scale),
            FRAME_S * 100 / options.speed,
            policy,
            wrap_keys,
            cover,
            keys,
            time.monotonic() - started,
        )
        session._add_segment()
        return session

    @classmethod
    def attach(
        cls,
        profile: Profile,
        options: SessionOptions,
        window_id: int,
        wrap_keys: KeyWrapper | None = None,
    ) -> Session:
        """The person's own Fuse on their display: the bot only looks and presses keys
        (``AttachedFuse``). ``options.speed`` stands until ``set_speed`` gives the
        measured one; the scale is read from the picture."""
        xserver = XServer.existing(options.display)
        options = found_display(options, xserver)
        dpy = open_display(xserver.display)
        try:
            pid = window_pid(dpy, window_id)
            build = build_of(dpy.create_resource_object("window", window_id))
        finally:
            dpy.close()
        # the person's build, not the option's; their Fuse records no RZX and no movie
        options = replace(options, fuse_build=build, record_rzx=None, movie=None)
        fuse = AttachedFuse(window_id, pid)
        policy = focus_policy(options)
        grabber = open_grabber(xserver.display, window_id)
        try:
            own = [window_size(build, scale) for scale in (1, 2, 3)]
            check_drawn(xserver.display, window_id, grabber.grab, own)  # a tiler's size
            vision = Vision.for_frame(profile, grabber.grab())
            options = replace(options, scale=vision.scale, headless=False, display=xserver.display)
            hold, gap = profile.timing.for_speed(options.speed)
            timing = KeyTiming(hold, gap, profile.timing.rollover)
            keys = make_keys(options, xserver.display, window_id, timing, policy)
            cover = watch_cover(options, window_id, grabber, keys)
            first_focus(options, keys)  # the person ran the command from a terminal
        except BaseException:
            grabber.close()
            raise
        session = cls(
            profile,
            options,
            xserver,
            fuse,  # type: ignore[arg-type]
            grabber,
            wrap_keys(keys) if wrap_keys else keys,
            vision,
            FRAME_S * 100 / options.speed,
            policy,
            wrap_keys,
            cover,
            keys,
        )
        session.segments.append(Segment(1, fuse.started_at, time.time(), options.speed, None, None))
        return session

    @property
    def attached(self) -> bool:
        """Whether this is the person's own Fuse (never restarted, never stopped)."""
        return getattr(self.fuse, "attached", False)

    def set_speed(self, percent: float) -> None:
        """Play at the measured emulation speed: frame time, key timing, the segment."""
        self.options = replace(self.options, speed=round(percent))
        self.frame_s = FRAME_S * 100 / percent
        hold, gap = self.profile.timing.for_speed(self.options.speed)
        self.use_timing(KeyTiming(hold, gap, self.profile.timing.rollover))
        if self.segments:
            self.segments[-1] = replace(self.segments[-1], speed=self.options.speed)

    def use_timing(self, timing: KeyTiming) -> None:
        """Press keys with ``timing`` from now on (the driver and any wrapper around it;
        a restarted Fuse keeps it)."""
        self.keys.timing = timing
        if self.target is not None:
            self.target.timing = timing

    @contextlib.contextmanager
    def timed(self, timing: KeyTiming) -> Iterator[None]:
        """Press keys with ``timing`` inside the block, with the timing before after it."""
        before = self.keys.timing
        self.use_timing(timing)
        try:
            yield
        finally:
            self.use_timing(before)

    def type_load(self, timeout_s: float = 15.0) -> list[str]:
        """Type LOAD "" and ENTER in OpenSE BASIC, which cannot auto-load a tape; the keys
        pressed. Called through the env (``LogoEnv.load_tape``), so they are recorded."""
        scale = self.options.scale
        deadline = time.monotonic() + timeout_s
        while not basic_ready(self.frame(), scale):
            if time.monotonic() > deadline:
                raise EmulatorError("OpenSE BASIC did not come up to load the tape")
            interrupts.sleep(0.02)
        self.wait_frames(25)
        self.keys.type_text("load")
        self.keys.chord("symbol", ["p", "p"], gap_ms=150)
        self.keys.press("enter")
        self.tape_pending = False
        return ["l", "o", "a", "d", "symbol", "p", "p", "enter"]

    def frame(self) -> np.ndarray:
        """The picture now; ``EmulatorError`` if Fuse has died. While another window covers
        the picture this waits, as the focus policy says (it may raise Fuse)."""
        if self.attached:
            self._check_attached()
        elif not self.fuse.alive():
            if self.xserver.gone():  # Fuse ended with its display: no restart, no warnings
                raise DisplayLost(self.xserver.display)
            raise EmulatorError(
                f"Fuse has stopped (exit {self.fuse.process.returncode})",
                hint="the run can resume from the last level code",
            )
        if self.cover is not None and self.target is not None and self.cover.covered():
            self.focus_policy.regain(self.target)
        return self._follow_scale(self.grabber.grab())

    def glance(self) -> np.ndarray:
        """The picture now, even while another window has the focus or covers Fuse (the
        window's own picture when covered may show the cover): a look while paused."""
        return self._follow_scale(self.grabber.grab())

    def _follow_scale(self, frame: np.ndarray) -> np.ndarray:
        """Read ``frame`` at the scale Fuse draws it now: a tiler or the person resized its
        window, and fuse-gtk drew the picture larger or smaller."""
        w, h = self.profile.geometry.window
        scale = self.vision.scale
        if frame.shape[:2] != (h * scale, w * scale):
            with contextlib.suppress(Unreadable):  # a size no scale gives: said when read
                now = detect_scale(self.profile, frame)
                log.info("Fuse now draws its picture at %dx (it was %dx)", now, scale)
                self.vision = Vision(self.profile, now)
        return frame

    def _check_attached(self, every_s: float = 0.25) -> None:
        """Every ``every_s``: the person's Fuse still runs and its window still exists."""
        now = time.monotonic()
        if self.fuse.alive() and now - self._checked_at < every_s:
            return
        self._checked_at = now
        try:
            if not self.fuse.alive():
                raise EmulatorError("gone")
            self.grabber.refresh_region()
        except EmulatorError:
            self.fuse.gone()  # type: ignore[attr-defined]
            raise EmulatorError(
                "the Fuse the bot was attached to has been closed",
                hint="start Fuse and the game again, then attach again "
                "(the bot never starts a Fuse in place of yours)",
            ) from None

    def restart(self) -> None:
        """Stop Fuse (SIGTERM, or it is already dead) and start it again the same way."""
        if self.attached:
            raise EmulatorError(
                "the attached Fuse cannot be restarted: the bot never starts one in its place",
                hint="bring the game back yourself, then attach again",
            )
        with contextlib.suppress(Exception):
            self.keys.release_all()
        self._close_parts()
        self._stop_fuse()
        log_dir = self.options.log_dir
        started = time.monotonic()
        number = len(self.segments) + 1
        config = replace(
            self.fuse.config,
            record=segment_path(self.options.record_rzx, number),
            movie=segment_path(self.options.movie, number),
        )
        for attempt in (1, 2):  # a Fuse slow to show its window on a busy machine: once more
            try:
                self.fuse = Fuse.start(
                    config,
                    self.xserver.display,
                    log_path=log_dir / f"fuse-{number}.log" if log_dir else None,
                )
                break
            except EmulatorError as exc:
                if attempt == 2:
                    raise
                log.warning("Fuse did not start again (%s): trying once more", exc.message)
        self._add_segment()
        float_on_tiler(self.xserver, self.fuse, self.options.scale)
        self.grabber = open_grabber(self.xserver.display, self.fuse.window_id)
        keys = make_keys(
            self.options,
            self.xserver.display,
            self.fuse.window_id,
            self.keys.timing,
            self.focus_policy,
        )
        self.cover = watch_cover(self.options, self.fuse.window_id, self.grabber, keys)
        self.target = keys
        first_focus(self.options, keys)
        self.keys = self.wrap_keys(keys) if self.wrap_keys else keys
        self.start_s = time.monotonic() - started

    def _stop_fuse(self) -> None:
        """Stop this segment's Fuse, noting when it had to be killed (its files may be
        cut short)."""
        self.fuse.stop()
        if self.fuse.killed:
            self.killed_segments.append(len(self.segments))

    def _add_segment(self) -> None:
        """A Fuse just started: its segment of the run, and its tape still to load."""
        config = self.fuse.config
        self.tape_pending = config.tape is not None and _is_opense(config.rom)
        wall = time.time() - (time.monotonic() - self.fuse.started_at)
        self.segments.append(
            Segment(
                len(self.segments) + 1,
                self.fuse.started_at,
                wall,
                config.speed,
                config.record,
                config.movie,
            )
        )

    def wait_frames(self, frames: float, slice_s: float = 0.2) -> None:
        """Wait while Fuse emulates about ``frames`` frames: at the speed its title shows
        over its last emulated second when that is below the session's (a busy machine
        runs Fuse slower than asked: game screens then come later), else at the
        session's speed. The speed is read again every ``slice_s``."""
        left = max(frames, 0.0)
        while left > 0:
            per_s = self._frames_per_s()
            step = min(slice_s, left / per_s)
            interrupts.sleep(step)
            left -= step * per_s

    def _frames_per_s(self) -> float:
        """Emulated frames per wall second now (at least 1 % of the nominal rate)."""
        nominal = 1 / self.frame_s
        if self._title is None:
            try:
                self._title = TitleSpeed(self.xserver.display, self.fuse.window_id)
            except Exception as exc:  # no title to read: the session's speed
                log.debug("no title speed: %s", exc)
                return nominal
        return frames_per_s(self._title.percent(), nominal, FPS)

    def with_options(self, **changes: object) -> SessionOptions:
        return replace(self.options, **changes)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._close_parts()
            self._stop_fuse()
        finally:
            self.xserver.stop()

    def _close_parts(self) -> None:
        """Close the keys, the grabber and the cover watch, each even when another fails
        (closing one twice does nothing: a restart that failed half-way closed them)."""
        title, self._title = self._title, None
        for part in (self.keys, self.grabber, self.cover, title):
            if part is not None:
                try:
                    part.close()
                except Exception as exc:  # the display may be gone already
                    log.debug("closing %s: %s", type(part).__name__, exc)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def float_on_tiler(xserver: XServer, fuse: Fuse, scale: int) -> None:
    """On the person's display, a tiling window manager floats the Fuse the bot started,
    at the size of the scale asked (``bot.x11.tiling``)."""
    if xserver.process is None:
        float_fuse(xserver.display, fuse.window_id, window_size(fuse.config.build, scale))


def on_xwayland(options: SessionOptions) -> bool:
    return options.display_type == DisplayType.XWAYLAND.value


def found_display(options: SessionOptions, xserver: XServer) -> SessionOptions:
    """``options`` with the display's type; says it (--verbose), and on an XWayland new
    enough to pass XTest keys through the desktop's remote-control portal, what the person
    will be asked (in the run's first lines, whatever the verbosity) when the keys are
    XTest's (``--keys xtest`` or ``pyautogui``; keys sent to Fuse's window are not).

    Under XWayland the focus is the compositor's, which undoes an X client's
    SetInputFocus: the bot never takes it (``take_focus`` off), it pauses until the
    person clicks Fuse."""
    log.info("playing on X display %s", xserver.describe())
    if xserver.kind is not DisplayType.XWAYLAND:
        return replace(options, display_type=xserver.kind.value)
    xtest = options.key_backend != "window"
    note = portal_note(xserver.version) if xserver.version and xtest else None
    if note is not None:
        log.warning(note)
    if options.take_focus:
        log.info("XWayland: the desktop gives the keyboard focus, so the bot never takes it")
    return replace(options, display_type=xserver.kind.value, take_focus=False)


def first_focus(options: SessionOptions, keys: XTestKeys) -> None:
    """Give Fuse the focus once at the start, as a window manager does a new window; not
    under XWayland, where only the person (or the desktop) gives it."""
    if not on_xwayland(options):
        keys.focus()


def watch_cover(
    options: SessionOptions, window_id: int, grabber: Grabber, keys: XTestKeys
) -> CoverWatch | None:
    """A watch on the windows over the picture, given to ``keys`` (no press while covered).
    None under XWayland: the picture is read from the window's own pixmap, which a window
    over it does not change, and the desktop's Wayland windows are not X windows."""
    if on_xwayland(options):
        return None
    cover = CoverWatch(grabber.display_name, window_id, lambda: grabber.picture)
    keys.cover = cover
    return cover


def focus_policy(options: SessionOptions) -> FocusPolicy:
    """How the session waits for the focus: always a pause (never an error at once), for
    ``focus_timeout_s`` at most."""
    return FocusPolicy(
        take_back=options.take_focus,
        wait=True,
        grace_s=options.focus_grace_s,
        timeout_s=options.focus_timeout_s,
    )


def make_keys(
    options: SessionOptions,
    display: str,
    window_id: int,
    timing: KeyTiming,
    policy: FocusPolicy | None = None,
) -> XTestKeys:
    """The key driver chosen by ``options.key_backend`` (window, xtest or pyautogui)."""
    if options.key_backend == "pyautogui":
        from logo_bot.bot.x11.keys_pyautogui import PyAutoGuiKeys

        return PyAutoGuiKeys(display, window_id, timing, options.take_focus, policy)
    if options.key_backend == "window":
        return WindowKeys(display, window_id, timing, options.take_focus, policy)
    if options.key_backend != "xtest":
        raise EmulatorError(
            f"unknown key backend {options.key_backend!r} (window, xtest or pyautogui)"
        )
    return XTestKeys(display, window_id, timing, options.take_focus, policy)


def basic_ready(frame: np.ndarray, scale: int) -> bool:
    """OpenSE has cleared to white paper and printed its copyright on the bottom line."""
    paper = tuple(frame[30 * scale, 40 * scale]) == OPENSE_PAPER
    bottom = frame[208 * scale : 216 * scale, 32 * scale : 288 * scale]
    return paper and bool((bottom == 0).all(axis=-1).any())


def _is_opense(rom: Path) -> bool:
    return Path(rom).resolve() == OPENSE_ROM.resolve() or "opense" in Path(rom).name.lower()


def preflight(profile: Profile, options: SessionOptions) -> None:
    """What ``Session.open`` would fail on, checked before a run folder exists: the input
    files (``InputError``), the Fuse build (``EmulatorError``), and the display
    (``DisplayError``: Xvfb missing, or the person's display not opening)."""
    config = fuse_config(profile, options)
    config.check_files()
    config.program()
    if runs_headless(options.headless, options.display):
        xvfb_program()
    else:
        XServer.existing(options.display)
