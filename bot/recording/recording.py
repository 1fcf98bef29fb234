"""``Recording``: one run's folder, from the first event to the finished ``run.json``.

Use it as a context manager around the session and the game loop; on the way out, even
after a failure or a stop (Ctrl-C, a signal, the abort key), it writes ``run.json`` at
once (status: complete, failed or aborted, as play ended; the video marked unfinished),
then turns Fuse's movie into ``video.mp4`` (and ``annotated.mp4``), finds the exact
frames of each level, and writes ``run.json`` again with all of it. That writing runs
inside ``interrupts.finishing``: a stop may let it end, or cut it short at a safe point,
and then the status stands and the video not written is marked unfinished, with how to
make it later. A forced end (``interrupts.on_force``) marks the folder too, at once.

One piece over 300 lines: the folder's lifetime (start, events, finish on any exit) is
one sequence; what it writes is built in the modules it calls.
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from logo_bot.bot import interrupts
from logo_bot.bot.errors import BotError
from logo_bot.bot.frames import FPS
from logo_bot.bot.fuse.session import Session, SessionOptions
from logo_bot.bot.play.env import LogoEnv, Observation
from logo_bot.bot.profile import Profile
from logo_bot.bot.recording.chapters import Timeline, chapters, write_chapters
from logo_bot.bot.recording.encode import Encoded, encode
from logo_bot.bot.recording.events import EventLog, read_events
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.recorder import Recorder
from logo_bot.bot.recording.run_state import LevelStart, RecordOptions, RunState
from logo_bot.bot.recording.screen_capture import ScreenCapture, grab_opener
from logo_bot.bot.recording.summary import build_summary
from logo_bot.bot.recording.unwritten import how_later, mark_unwritten, unfinished
from logo_bot.bot.see.vision import Vision

log = logging.getLogger(__name__)


class Recording:
    """The folder of one run and everything written into it."""

    def __init__(
        self,
        folder: RunFolder,
        options: RecordOptions,
        mode: str,
        command: list[str],
        profile: Profile | None,
    ) -> None:
        self.state = RunState(
            folder=folder,
            options=options,
            mode=mode,
            command=command,
            profile=profile,
            started=time.time(),
            events=EventLog(folder.events),
        )
        self.folder = folder
        self.options = options
        self.profile = profile
        self.events = self.state.events
        self.interrupted: KeyboardInterrupt | None = None  # while the recording was written
        self._remove_force: Callable[[], None] = lambda: None
        self._ended: tuple[str, str | None] | None = None  # status, error: play is over
        self._encoded: Encoded | None = None  # the video is written
        self._content: dict[str, Any] | None = None  # run.json as last written by finish
        self._finished = False
        # one writer of the folder at a time: the forced end's thread, once it runs, alone
        self._writing = threading.Lock()
        self._forcing: threading.Thread | None = None
        self.capture: ScreenCapture | None = None  # the video of an attached Fuse
        self.capture_info: dict[str, Any] | None = None  # what rendering it said
        self.frames_seen = None
        if options.annotate:
            from logo_bot.bot.recording.annotated_video import FramesSeen
            from logo_bot.bot.recording.frame_store import FrameStore

            self.frames_seen = FramesSeen(FrameStore(folder.path / "frames.tmp"))
        self._log_level = logging.getLogger().level
        self._log_handler = _file_log(folder.log)
        self.event("run_start", mode=mode, command=command, folder=str(folder.path))
        log.info("recording this run in %s", folder.path)

    @property
    def report(self) -> Any:
        return self.state.report

    @report.setter
    def report(self, report: Any) -> None:
        self.state.report = report

    @property
    def requested(self) -> tuple[int, int] | None:
        return self.state.requested

    @requested.setter
    def requested(self, levels: tuple[int, int] | None) -> None:
        self.state.requested = levels

    @classmethod
    def start(
        cls, options: RecordOptions, mode: str, command: list[str], profile: Profile | None
    ) -> Recording:
        return cls(RunFolder.create(options.root, mode), options, mode, command, profile)

    # -- during the run ---------------------------------------------------------------------
    def fuse_files(self, options: SessionOptions) -> SessionOptions:
        """``options`` with Fuse's input recording, movie and logs going into the folder."""
        from dataclasses import replace

        self.state.session_options = replace(
            options,
            record_rzx=self.folder.rzx,
            movie=self.folder.movie if self.options.video else None,
            log_dir=self.folder.path,
        )
        return self.state.session_options

    def attach(self, session: Session) -> None:
        self.state.session = session
        display = session.xserver.display
        if not session.attached:
            self.event("fuse_started", pid=session.fuse.pid, display=display)
            return
        window = session.fuse.window_id
        self.event("fuse_attached", pid=session.fuse.pid, window=window, display=display)
        if self.options.video:
            self.capture = ScreenCapture(
                grab_opener(display, window),
                self.folder.path / "capture.tmp",
                session.options.speed,
            ).start()

    def wrap(self, env: LogoEnv) -> Recorder:
        return Recorder(env, self)

    def frame_at(self, t: float | None = None) -> tuple[int | None, int | None]:
        """(segment, emulated frame) at monotonic time ``t``, estimated from the wall clock:
        Fuse keeps its emulation in step with real time at the session's speed."""
        segments = self.state.segments()
        if not segments:
            return None, None
        t = time.monotonic() if t is None else t
        segment = segments[-1]
        for candidate in segments:
            if candidate.started_at <= t:
                segment = candidate
        frames = (t - segment.started_at) * FPS * segment.speed / 100
        return segment.number, max(0, round(frames))

    def event(self, name: str, /, *, at_time: float | None = None, **data: Any) -> None:
        segment, frame = self.frame_at(at_time)
        if name == "target":
            target = data.get("target")
            self.state.current_target = "\n".join(target) if isinstance(target, list) else target
            self.state.current_cursor = tuple(data["cursor"]) if data.get("cursor") else None
        if name == "speed_measured" and self.capture is not None:
            self.capture.retime(data["percent"])
        if name == "plan" and self.frames_seen is not None:
            self.frames_seen.plan = tuple(tuple(cell) for cell in data.get("plan", ()))
        with self._folder_write():
            self.events.write(name, frame, segment, **data)

    @contextlib.contextmanager
    def _folder_write(self) -> Iterator[None]:
        """One write into the folder (an event, run.json, the report), never beside the
        forced end's: once the end is forced, any other thread waits here for the exit."""
        if threading.current_thread() is self._forcing:
            yield  # the forced end holds the lock already (or could not get it)
            return
        while True:
            interrupts.hold_if_forcing()
            with self._writing:
                if not interrupts.forcing():
                    yield
                    return

    def level_started(self, level: int) -> None:
        segment, frame = self.frame_at()
        self.state.level_starts.append(LevelStart(level, segment, frame))
        if self.frames_seen is not None:
            self.frames_seen.level, self.frames_seen.plan = level, ()

    def seen(self, obs: Observation) -> None:
        if self.capture is not None:
            self.capture.offer(obs.frame, obs.at)
        if self.frames_seen is not None:
            self.frames_seen.add(obs, *self.frame_at(obs.at))

    # -- the end ----------------------------------------------------------------------------
    def __enter__(self) -> Recording:
        self._remove_force = interrupts.on_force(self._forced)
        return self

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> None:
        try:
            self.finish(exc)
        finally:
            self._remove_force()
        if isinstance(exc, KeyboardInterrupt):
            return
        stop = self.interrupted or interrupts.requested()
        if stop is not None:
            raise stop  # stopped while the folder was written: exit 130, as in play

    def finish(self, exc: BaseException | None = None) -> dict[str, Any]:
        """Write everything; returns run.json's content. run.json is written at once, its
        video marked unfinished; then the videos, chapters, run.json again and the report,
        inside ``interrupts.finishing``. A stop that cuts that short (``interrupted``)
        leaves no half-written video, and run.json and the report say what was not
        written and how to make it; the status stays what play ended with. Fuse's movie is
        kept (it is small and lossless: replays are compared with it frame by frame)."""
        status, error = self._status(exc)
        self.state.ended = time.time()  # the end of play; writing the video comes after
        session = self.state.session
        if session is not None:  # attached: scale and speed as found; any: the display type
            self.state.session_options = session.options
        try:
            with interrupts.finishing():
                self.event("run_end", status=status, error=error)
                self._ended = (status, error)
                content = build_summary(self.state, status, error, Encoded())
                if self._video_expected():
                    unfinished(content["video"], "not written yet", self._later())
                self._content = content
                self._write_json(content)
                try:
                    content = self._write_recording(status, error)
                except KeyboardInterrupt as stop:
                    content = self._stopped_writing(stop, status, error)
        finally:
            self._finished = True
            self.events.close()
            root = logging.getLogger()
            root.removeHandler(self._log_handler)
            root.setLevel(self._log_level)
            self._log_handler.close()
        return content

    def _video_expected(self) -> bool:
        return self.options.video and self.profile is not None

    def _later(self) -> str:
        return how_later(self.folder.path, self.state.segments())

    def _unwritten(self, content: dict[str, Any], why: str) -> dict[str, Any]:
        """``content`` with what the stop left unwritten marked unfinished."""
        video = self._encoded is None and self._video_expected()
        return mark_unwritten(
            content, why, self._later(), video=video, annotated=self.options.annotate
        )

    def _write_recording(self, status: str, error: str | None) -> dict[str, Any]:
        """The slow part: the videos, their chapters, run.json again and the report."""
        encoded = self._encode()
        self._encoded = encoded
        self.state.movie_frames = encoded.frames
        if encoded.video is not None:
            log.info(
                "%s: %d frames (%s) in %.1f s",
                encoded.video.name,
                encoded.video_frames,
                encoded.codec,
                encoded.seconds,
            )
        content = build_summary(self.state, status, error, encoded)
        if self.capture is not None:
            content["video"]["captured"] = self.capture_info
        self._content = content
        content["annotated"] = self._annotated(encoded)
        self._chapters(content, encoded)
        self._write_json(content)
        self._report()
        return content

    def _stopped_writing(
        self, stop: KeyboardInterrupt, status: str, error: str | None
    ) -> dict[str, Any]:
        """run.json and the report after ``stop`` cut the writing short: the status is
        what play ended with, and the video (or the annotated one) not written is marked
        unfinished, with how to make it later."""
        self.interrupted = stop
        how = str(stop) or "stopped by Ctrl-C"
        log.warning("%s while writing the recording: %s", how, self._later())
        content = self._content or build_summary(self.state, status, error, Encoded())
        self._write_json(self._unwritten(content, f"{how} while it was written"))
        self._report()
        return content

    def _forced(self, reason: str) -> None:
        """The end is forced (a second stop, or the orderly one took too long): every
        thread's stack into run.log, then run.json, run_end and the report (without its
        plots) saying so, at once, no video. Runs on another thread just before the
        process exits."""
        with open(self.folder.log, "a", encoding="utf-8") as file:
            file.write(f"--- ended at once ({reason}): every thread's stack ---\n")
            file.flush()
            faulthandler.dump_traceback(file, all_threads=True)
        self._forcing = threading.current_thread()
        # the other writer, if in the middle of a write, ends it (it waits at its next)
        if not self._writing.acquire(timeout=interrupts.HOOK_S / 2):
            return  # stuck in a write: what it wrote last stands
        try:
            self._mark_forced(reason)
        finally:
            self._writing.release()

    def _mark_forced(self, reason: str) -> None:
        if self._finished:
            return  # the folder is complete already
        if self._encoded is not None and self._encoded.error is not None:
            self._encoded = None  # ffmpeg killed by this end: the video is unwritten
        if self._encoded is None:  # a video ffmpeg was writing: no half-written file
            for path in (self.folder.video, self.folder.annotated):
                for part in (path, path.with_suffix(".ffmpeg.log")):
                    part.unlink(missing_ok=True)
        stop = interrupts.requested()
        how = str(stop) if stop is not None else "stopped"
        note = f"{how}, then ended at once: {reason}"
        if self._ended is None:  # still playing
            status, error = "aborted", note
            self.state.ended = self.state.ended or time.time()
            content = build_summary(self.state, status, error, Encoded())
        else:  # the folder was being written: what play ended with stands
            status, error = self._ended
            content = self._content or build_summary(self.state, status, error, Encoded())
            self._unwritten(content, note)
        self._write_json(content)
        self.event("run_end", status=status, error=error, forced=reason)
        self._report(plots=False)  # the page without its plots: milliseconds

    def _status(self, exc: BaseException | None) -> tuple[str, str | None]:
        if isinstance(exc, KeyboardInterrupt):
            return "aborted", str(exc) or "stopped by Ctrl-C"  # or the abort key
        if exc is not None:
            message = exc.message if isinstance(exc, BotError) else f"{type(exc).__name__}: {exc}"
            return "failed", message
        status = getattr(self.state.report, "status", None)
        return (status if status in ("complete", "failed") else "failed"), None

    def _encode(self) -> Encoded:
        if not self.options.video or self.profile is None:
            return Encoded()
        if self.capture is not None:
            return self._encode_capture(self.capture)
        log.info("writing %s", self.folder.video)
        show = _progress_line(self.folder.video.name)
        try:
            return encode(
                self.state.segments(),
                Vision(self.profile, 1),
                self.folder.video,
                self.options.zoom,
                show,
                signatures=self.frames_seen is not None,
            )
        finally:
            if show is not None:
                with contextlib.suppress(OSError, ValueError):
                    sys.stderr.write("\r\033[K")

    def _encode_capture(self, capture: ScreenCapture) -> Encoded:
        """The video of an attached Fuse, from the bot's own grabs."""
        log.info("writing %s from the captured picture", self.folder.video)
        session = self.state.session
        speed = session.options.speed if session else 100
        info = capture.render(self.folder.video, speed)
        self.capture_info = info
        video = self.folder.video if info["path"] else None
        return Encoded(
            video=video,
            codec=info["codec"],
            video_frames=info["frames"] or 0,
            error=info["error"],
            seconds=info["seconds_to_encode"],
        )

    def _annotated(self, encoded: Encoded) -> dict[str, Any] | None:
        if self.frames_seen is None:
            return None
        from logo_bot.bot.recording.annotated_video import render

        return render(self.frames_seen, self.folder.annotated, self.state, encoded)

    def _video_frames(self, encoded: Encoded) -> dict[int, int]:
        """Emulated frames each segment has in video.mp4: Fuse's movie frames, or for an
        attached run the captured time at the measured speed (one segment)."""
        info = self.capture_info
        if self.capture is None or not info or not info.get("frames"):
            return encoded.frames
        return {1: round(info["captured_s"] * info["speed"] / 100 * FPS)}

    def _chapters(self, content: dict[str, Any], encoded: Encoded) -> None:
        """Chapters (levels, menus, code screens, recoveries) into video.mp4 and
        annotated.mp4; run.json says how many each got."""
        events = read_events(self.folder.events)
        levels = content.get("levels", [])
        if encoded.video is not None and encoded.video.is_file():
            items = chapters(Timeline.of_segments(self._video_frames(encoded)), levels, events)
            failed = write_chapters(encoded.video, items)
            content["video"]["chapters"] = 0 if failed else len(items)
        annotated = content.get("annotated")
        if annotated and annotated.get("path") and self.frames_seen is not None:
            from logo_bot.bot.recording.annotated_video import segment_frames

            timeline = Timeline.of_segments(segment_frames(self.state, self.frames_seen))
            items = chapters(timeline, levels, events)
            failed = write_chapters(self.folder.annotated, items)
            annotated["chapters"] = 0 if failed else len(items)

    def _report(self, plots: bool = True) -> None:
        """report.html; a run is never lost over its page, so a failure is only logged."""
        from logo_bot.bot.recording.report_page import write_report

        if (
            interrupts.requested() is not None
            and time.monotonic() + PLOTS_S > interrupts.finish_by()
        ):
            plots = False  # stopped: the page at once ('logo-bot report RUN' draws them later)
        try:
            path = write_report(self.folder, plots=plots, writing=self._folder_write)
            log.info("report: %s", path)
        except Exception as exc:  # the run folder is complete without it
            log.warning("no report.html: %s: %s", type(exc).__name__, exc)

    def _write_json(self, content: dict[str, Any]) -> None:
        """run.json, whole or not at all (written beside it, then renamed over it)."""
        with self._folder_write():
            tmp = self.folder.run_json.with_suffix(f".json.{threading.get_ident()}.tmp")
            tmp.write_text(json.dumps(content, indent=2) + "\n")
            os.replace(tmp, self.folder.run_json)


PLOTS_S = 3.0  # the report's plots take up to this long (matplotlib, cold)


def _progress_line(name: str):
    """A callback that shows how far the video is, on a terminal only (a terminal gone
    meanwhile is no error)."""
    try:
        if not sys.stderr.isatty():
            return None
    except (OSError, ValueError):
        return None

    def show(frames: int) -> None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(f"\r\033[Kwriting {name}: {frames} frames ({frames / FPS:.0f} s)")
            sys.stderr.flush()

    return show


def _file_log(path: Path) -> logging.Handler:
    """Python logging at INFO into ``run.log``, whatever the console shows."""
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    console_level = root.level
    if console_level > logging.INFO:
        for existing in root.handlers:
            if existing.level == logging.NOTSET:
                existing.setLevel(console_level)
        root.setLevel(logging.INFO)
    root.addHandler(handler)
    return handler
