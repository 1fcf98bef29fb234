"""One running game: an X display, Fuse, a grabber, a key driver and the vision layer,
put together by ``bot.fuse.assembly`` from the run's options, of which it keeps none:
only the values it uses (the speed, how keys reach Fuse, the files of a restarted Fuse).

One piece over 300 lines: reading, restarting and closing a session touch the same five
parts in the same order, and each must undo what the others did.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from logo_bot.bot import interrupts
from logo_bot.bot.errors import DisplayLost, EmulatorError, Unreadable
from logo_bot.bot.frames import FPS, FRAME_S
from logo_bot.bot.fuse.builds import OPENSE_ROM
from logo_bot.bot.fuse.emulator import Fuse
from logo_bot.bot.fuse.menu_wait import MENU_DRAWN_S, sighted_menu, wait_menu_closed
from logo_bot.bot.fuse.session_parts import (
    Controls,
    FuseFiles,
    KeyWrapper,
    Segment,
    key_timing,
    open_picture,
    segment_path,
)
from logo_bot.bot.fuse.tape_end import TapeEnd
from logo_bot.bot.profile import Profile
from logo_bot.bot.see.cell_sight import CellReading, CellSight
from logo_bot.bot.see.vision import Vision, detect_scale
from logo_bot.bot.x11.cover import CoverWatch
from logo_bot.bot.x11.damage import DamageWatch
from logo_bot.bot.x11.display import XServer
from logo_bot.bot.x11.focus import FocusPolicy
from logo_bot.bot.x11.grab import Grabber
from logo_bot.bot.x11.keys import KeyDriver, KeyTiming
from logo_bot.bot.x11.picture_watch import PictureWatch
from logo_bot.bot.x11.title_speed import TitleSpeed, frames_per_s
from logo_bot.bot.x11.watch_choice import watch_window
from logo_bot.bot.x11.x11_keys import X11Keys

OPENSE_PAPER = (192, 192, 192)  # BASIC's white paper: the ROM is ready for typing
# A glimpse (once a key) asks whether Fuse still runs at most this often: a look, always.
# A Fuse that died draws nothing more, so no key is seen meanwhile; and no press goes out
# (its window, which had the focus, is gone).
ALIVE_EVERY_S = 0.1

log = logging.getLogger(__name__)


@dataclass
class Session:
    """The live game the bot plays; close it to stop Fuse (and Xvfb if it started one).

    ``focus_policy`` outlives restarts (listeners stay attached); so does ``wrap_keys``,
    which wraps every new key driver (the fault layer uses it).
    """

    profile: Profile
    xserver: XServer
    fuse: Fuse
    grabber: Grabber
    keys: KeyDriver
    vision: Vision
    speed: int  # emulation speed, percent: as asked, or as measured (``set_speed``)
    focus_policy: FocusPolicy
    controls: Controls
    files: FuseFiles
    record: dict[str, Any]  # what run.json says about the session (``run_record``)
    wrap_keys: KeyWrapper | None = None
    cover: CoverWatch | None = None  # is another window over the picture?
    target: X11Keys | None = None  # the unwrapped key driver: the focus policy's target
    start_s: float = 0.0  # how long the last start of Fuse took (wall seconds)
    segments: list[Segment] = field(default_factory=list)
    killed_segments: list[int] = field(default_factory=list)  # Fuse had to be SIGKILLed
    _closed: bool = field(default=False, repr=False)
    tape_pending: bool = False  # a tape OpenSE cannot load by itself: LOAD "" to type
    _checked_at: float = field(default=0.0, repr=False)
    _alive_at: float = field(default=-1e9, repr=False)  # when Fuse was last seen running
    _title: TitleSpeed | None = field(default=None, repr=False)  # Fuse's speed, for waits
    frame_s: float = 0.0  # wall seconds per emulated frame
    watch: PictureWatch | None = None  # when Fuse draws (``bot.x11.damage``); None: polled
    _sight: CellSight | None = field(default=None, repr=False)  # ``glimpse``'s
    menu_waited_s: float = 0.0  # seconds waited while Fuse's own menu showed, in all
    menu_closed_at: float = -1e9  # when Fuse's own menu was last seen to close (monotonic)
    menu_drawn_s: ClassVar[float] = MENU_DRAWN_S  # the longest Fuse takes to show its menu

    def __post_init__(self) -> None:
        self.frame_s = self.frame_s or FRAME_S * 100 / self.speed
        self._listen()

    def _listen(self) -> None:
        """The watch's waits watch the grabber's and the cover watch's connections too
        (``DamageWatch.listen``): a look right after a wake then asks neither whether the
        window moved or another came over it."""
        if isinstance(self.watch, DamageWatch):
            cover = [self.cover.fileno()] if self.cover is not None else []
            self.watch.listen = [self.grabber.fileno(), *cover]

    @property
    def attached(self) -> bool:
        """Whether this is the person's own Fuse (never restarted, never stopped)."""
        return getattr(self.fuse, "attached", False)

    @property
    def run_record(self) -> dict[str, Any]:
        """What run.json says about the session, with the speed as it is now and how the
        bot saw the picture change."""
        picture = self.watch.record() if self.watch is not None else None
        return {**self.record, "speed": self.speed, "picture": picture}

    def set_speed(self, percent: float) -> None:
        """Play at the measured emulation speed: frame time, key timing, the segment."""
        self.speed = round(percent)
        self.frame_s = FRAME_S * 100 / percent
        self.use_timing(key_timing(self.profile, self.speed))
        if self.segments:
            self.segments[-1] = replace(self.segments[-1], speed=self.speed)

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
        scale = self.vision.scale
        deadline = time.monotonic() + timeout_s
        while not basic_ready(self.frame(), scale):
            if time.monotonic() > deadline:
                raise EmulatorError("OpenSE BASIC did not come up to load the tape")
            self.wait_drawn(deadline)
        self.wait_frames(25)
        self.keys.type_text("load")
        self.keys.chord("symbol", ["p", "p"], gap_ms=150)
        self.keys.press("enter")
        self.tape_pending = False
        return ["l", "o", "a", "d", "symbol", "p", "p", "enter"]

    def frame(self) -> np.ndarray:
        """The picture now; ``EmulatorError`` if Fuse has died. While another window covers
        the picture this waits, as the focus policy says (it may raise Fuse); while Fuse's
        own menu shows over it, this waits for the menu to close (``menu_wait``)."""
        frame, waited = wait_menu_closed(
            self._look(), self._look, self.wait_drawn, self.keys.release_all, self.focus_policy.emit
        )
        if waited:
            self.menu_waited_s += waited
            self.menu_closed_at = time.monotonic()
        return frame

    def _look(self) -> np.ndarray:
        self._may_look()
        return self._follow_scale(self._grab())

    def glimpse(self) -> CellReading | None:
        """The level's cells now, read only where Fuse drew since the last glimpse (a
        ``CellSight`` on the watch's ``sighting``), with a look's checks (``frame``);
        None where the watch cannot give the picture so (then look: ``frame``)."""
        sighting = getattr(self.watch, "sighting", None)
        if sighting is None:
            return None
        self._may_look(ALIVE_EVERY_S)
        picture = sighting()
        vision, sight = self.vision, self._sight
        w, h = self.profile.geometry.window
        size = (w * vision.scale, h * vision.scale)
        if picture is None or (picture.width, picture.height) != size:
            self._sight = None  # the areas drawn meanwhile are not the sight's: read all
            return None
        if sighted_menu(picture):  # read none of it: a look waits for the menu to close
            self._sight = None
            return None
        if sight is None or sight.vision is not vision:
            sight = self._sight = CellSight(vision)
        return sight.update(picture)

    def _may_look(self, alive_every_s: float = 0.0) -> None:
        """Before a look: Fuse still runs (else ``EmulatorError``; asked again only after
        ``alive_every_s``), and no other window covers its picture (else wait, as the
        focus policy says)."""
        now = time.monotonic()
        if self.attached:
            self._check_attached()
        elif now - self._alive_at < alive_every_s:
            pass
        elif self.fuse.alive():
            self._alive_at = now
        else:
            if self.xserver.gone():  # Fuse ended with its display: no restart, no warnings
                raise DisplayLost(self.xserver.display)
            raise EmulatorError(
                f"Fuse has stopped (exit {self.fuse.process.returncode})",
                hint="the run can resume from the last level code",
            )
        if self.cover is not None and self.target is not None and self.cover.covered():
            self.focus_policy.regain(self.target)

    def glance(self) -> np.ndarray:
        """The picture now, even while another window has the focus or covers Fuse (the
        window's own picture when covered may show the cover): a look while paused."""
        return self._follow_scale(self._grab())

    def _grab(self) -> np.ndarray:
        """A grab that the picture watch notes as a look."""
        if self.watch is None:
            return self.grabber.grab()
        return self.watch.look(self.grabber.grab)

    def wait_drawn(self, until: float, poll_s: float = 0.005) -> bool:
        """Wait until Fuse has drawn in its window since the last look (True), or until
        ``until`` (``time.monotonic``; False); a stop asked ends it at once. Without a
        watch, a pause of ``poll_s``."""
        if self.watch is not None:
            return self.watch.wait(until)
        interrupts.sleep(max(0.0, min(poll_s, until - time.monotonic())))
        return time.monotonic() < until

    def drawn_within(self, seconds: float) -> bool | None:
        """Wait up to ``seconds`` for Fuse to draw in its window since the last look: True
        once it did, False when its DAMAGE reports say it drew nothing; None (after a
        pause of ``seconds``) when the picture is polled."""
        watch = self.watch
        if not isinstance(watch, DamageWatch) or watch.polling:
            interrupts.sleep(seconds)
            return None
        drawn = watch.wait(time.monotonic() + seconds)
        return None if watch.polling else drawn

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

    def restart(self, snapshot: Path | None = None) -> None:
        """Stop Fuse (SIGTERM, or it is already dead) and start it again the same way, or
        with another ``snapshot`` of the game (a level's start)."""
        if self.attached:
            raise EmulatorError(
                "the attached Fuse cannot be restarted: the bot never starts one in its place",
                hint="bring the game back yourself, then attach again",
            )
        with contextlib.suppress(Exception):
            self.keys.release_all()
        self._close_parts()
        self._stop_fuse()
        log_dir = self.files.log_dir
        started = time.monotonic()
        number = len(self.segments) + 1
        config = replace(
            self.fuse.config,
            record=segment_path(self.files.rzx, number),
            movie=segment_path(self.files.movie, number),
        )
        if snapshot is not None:
            config = replace(config, snapshot=snapshot, tape=None)
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
        self.add_segment()
        self.grabber = open_picture(self.xserver, self.fuse, config.scale)
        self.watch = watch_window(
            self.xserver.display, self.fuse.window_id, self.grabber, self.xserver.framebuffer
        )
        keys, self.cover = self.controls.fit(
            self.xserver.display,
            self.fuse.window_id,
            self.grabber,
            self.watch,
            self.keys.timing,
            self.focus_policy,
        )
        self.target = keys
        self.keys = self.wrap_keys(keys) if self.wrap_keys else keys
        self._listen()
        self.start_s = time.monotonic() - started

    def _stop_fuse(self) -> None:
        """Stop this segment's Fuse, noting when it had to be killed (its files may be
        cut short)."""
        self.fuse.stop()
        if self.fuse.killed:
            self.killed_segments.append(len(self.segments))

    def add_segment(self) -> None:
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

    def wait_loaded(self, frames: float) -> bool:
        """Wait until no tape loads and ``frames`` emulated frames have passed since one
        did (``bot.fuse.tape_end``); True when a tape was seen loading."""
        config = self.fuse.config  # None for a person's Fuse: whether a tape loads is not known
        tape = None if config is None else config.tape is not None
        end = TapeEnd(self.frame, self.wait_drawn, self._frames_per_s, self.vision.scale, tape=tape)
        return end.wait(frames)

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
        for part in (self.keys, self.grabber, self.cover, title, self.watch):
            if part is not None:
                try:
                    part.close()
                except Exception as exc:  # the display may be gone already
                    log.debug("closing %s: %s", type(part).__name__, exc)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def basic_ready(frame: np.ndarray, scale: int) -> bool:
    """OpenSE has cleared to white paper and printed its copyright on the bottom line."""
    paper = tuple(frame[30 * scale, 40 * scale]) == OPENSE_PAPER
    bottom = frame[208 * scale : 216 * scale, 32 * scale : 288 * scale]
    return paper and bool((bottom == 0).all(axis=-1).any())


def _is_opense(rom: Path) -> bool:
    return Path(rom).resolve() == OPENSE_ROM.resolve() or "opense" in Path(rom).name.lower()
