"""``Recording``: one run's folder, from the first event to the finished ``run.json``.

Use it as a context manager around the session and the game loop; on the way out, even
after a failure or a stop (Ctrl-C, a signal, the abort key), it writes ``run.json`` at
once (status: complete, failed or aborted, as play ended: ``stopping.play_status``; the
video marked unfinished), then turns Fuse's movie into ``video.mp4`` (and
``annotated.mp4``), finds the exact frames of each level, and writes ``run.json`` again
with all of it. The first run.json
says ``writing``: a bot killed before the second (SIGKILL) leaves a folder that reads as
killed (``RunFolder.state``). That writing runs
inside ``interrupts.finishing``: a stop may let it end, or cut it short at a safe point,
and then the status stands and the video not written is marked unfinished, with how to
make it later. A forced end (``interrupts.on_force``) marks the folder too, at once
(``stopping.forced_folder``). The rules of each are in ``bot.stopping``.

One piece over 300 lines: the run's life in its folder (its events during play, then the
end on any exit: the finish, a stop while it writes, a forced end from another thread) is
one sequence over one state, where what is written so far (play's status, the video,
run.json) decides what each later step writes. What it writes is built in the modules it
calls (``run_videos``, ``summary``, ``unwritten``, ``report_page``); ``folder_writer``
keeps the two threads' writes apart.
"""

from __future__ import annotations

import faulthandler
import logging
import time
from collections.abc import Callable
from typing import Any

from logo_bot.bot import interrupts, processes, stopping
from logo_bot.bot.frames import FPS
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.fuse.session_parts import FuseFiles
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.observation import Observation
from logo_bot.bot.profile import Profile
from logo_bot.bot.recording import run_videos
from logo_bot.bot.recording.encode import Encoded
from logo_bot.bot.recording.events import EventLog
from logo_bot.bot.recording.folder import RunFolder
from logo_bot.bot.recording.folder_writer import FolderWriter, write_json
from logo_bot.bot.recording.log_file import LogFile
from logo_bot.bot.recording.recorder import Recorder
from logo_bot.bot.recording.report_page import write_report  # loaded before any forced end
from logo_bot.bot.recording.run_state import LevelStart, RecordOptions, RunState
from logo_bot.bot.recording.screen_capture import ScreenCapture, grab_opener
from logo_bot.bot.recording.summary import build_summary
from logo_bot.bot.recording.unwritten import how_later, mark_unwritten, unfinished

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
        self._writer = FolderWriter()  # this thread's writes, and a forced end's
        self.capture: ScreenCapture | None = None  # the video of an attached Fuse
        self.capture_info: dict[str, Any] | None = None  # what rendering it said
        self.frames_seen = None
        if options.annotate:
            from logo_bot.bot.recording.annotated_video import FramesSeen
            from logo_bot.bot.recording.frame_store import FrameStore

            self.frames_seen = FramesSeen(FrameStore(folder.path / "frames.tmp"))
        self._log_file = LogFile(folder.log)
        self._temporaries = run_videos.temporary_files(folder)
        processes.remove_if_killed(*self._temporaries)  # by the reaper, if the bot is killed
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
        """The levels asked for, also as an event (a killed run's folder says them)."""
        self.state.requested = levels
        if levels is not None:
            self.event("levels_requested", first=levels[0], last=levels[1])

    @classmethod
    def start(
        cls, options: RecordOptions, mode: str, command: list[str], profile: Profile | None
    ) -> Recording:
        return cls(RunFolder.create(options.root, mode), options, mode, command, profile)

    # -- during the run ---------------------------------------------------------------------
    def fuse_files(self) -> FuseFiles:
        """Where Fuse's input recording, movie and logs go: into the folder."""
        movie = self.folder.movie if self.options.video else None
        return FuseFiles(self.folder.rzx, movie, self.folder.path)

    def note_session(self, record: dict[str, Any]) -> None:
        """What run.json says about the session until one runs (``Session.run_record``):
        the settings it was to start with."""
        self.state.session_record = record

    def record_fuse(self, session: Session) -> None:
        """The session's Fuse into the run: an event for the Fuse started (or taken over),
        and for one taken over, the capture of its picture for the video."""
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
                session.speed,
                origin=session.segments[-1].started_at if session.segments else None,
            ).start()

    def wrap(self, env: LogoEnv | EnvWrapper) -> Recorder:
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
        with self._writer.write():
            self.events.write(name, frame, segment, **data)

    def level_started(self, level: int) -> None:
        segment, frame = self.frame_at()
        self.state.level_starts.append(LevelStart(level, segment, frame))
        if self.frames_seen is not None:
            self.frames_seen.level, self.frames_seen.plan = level, ()

    @property
    def every_look(self) -> bool:
        return self.frames_seen is not None

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
            self.state.session_record = session.run_record
        try:
            with interrupts.finishing():
                self.event("run_end", status=status, error=error)
                self._ended = (status, error)
                content = build_summary(self.state, status, error, Encoded())
                if self._video_expected():
                    unfinished(content["video"], "not written yet", self._later())
                self._content = content
                self._write_json(content, writing=True)
                try:
                    content = self._write_recording(status, error)
                except KeyboardInterrupt as stop:
                    content = self._stopped_writing(stop, status, error)
        finally:
            self._finished = True
            processes.removed(*self._temporaries)
            self.events.close()
            self._log_file.close()
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
        log.warning("%s while writing the recording: %s", stopping.how(stop), self._later())
        content = self._content or build_summary(self.state, status, error, Encoded())
        self._write_json(self._unwritten(content, stopping.written_while(stop)))
        self._report()
        return content

    def _forced(self, reason: str) -> None:
        """The end is forced (a second stop, or the orderly one took too long): run.json,
        run_end and the report (without its plots) saying so, at once, no video; then every
        thread's stack into run.log. Runs on another thread just before the process exits,
        for at most ``stopping.HOOK_S``: the folder's truth comes first (on a starved
        machine the stacks may be cut short, never the report)."""
        if self._writer.force(stopping.FOLDER_WAIT_S):
            try:
                self._mark_forced(reason)
            finally:
                self._writer.release()
        # else the other writer is stuck in a write: what it wrote last stands
        with open(self.folder.log, "a", encoding="utf-8") as file:
            file.write(f"--- ended at once ({reason}): every thread's stack ---\n")
            file.flush()
            faulthandler.dump_traceback(file, all_threads=True)

    def _mark_forced(self, reason: str) -> None:
        if self._finished:
            return  # the folder is complete already
        if self._encoded is not None and self._encoded.error is not None:
            self._encoded = None  # ffmpeg killed by this end: the video is unwritten
        written = self._encoded is not None  # else ffmpeg was writing it: no file
        videos = [] if written else [self.folder.video, self.folder.annotated]
        for part in videos + self._temporaries:
            part.unlink(missing_ok=True)
        status, error, note = stopping.forced_folder(self._ended, interrupts.requested(), reason)
        if self._ended is None:  # still playing
            self.state.ended = self.state.ended or time.time()
            content = build_summary(self.state, status, error, Encoded(), at_once=True)
        else:  # the folder was being written: what play ended with stands
            content = self._content or build_summary(
                self.state, status, error, Encoded(), at_once=True
            )
            self._unwritten(content, note)
        self._write_json(content)
        self.event("run_end", status=status, error=error, forced=reason)
        self._report(plots=False)  # the page without its plots: milliseconds

    def _status(self, exc: BaseException | None) -> tuple[str, str | None]:
        return stopping.play_status(exc, getattr(self.state.report, "status", None))

    def _encode(self) -> Encoded:
        if not self.options.video or self.profile is None:
            return Encoded()
        if self.capture is not None:  # an attached Fuse: from the bot's own grabs
            log.info("writing %s from the captured picture", self.folder.video)
            session = self.state.session
            speed = session.speed if session else 100
            video = self.folder.video
            encoded, self.capture_info = run_videos.encode_capture(self.capture, video, speed)
            return encoded
        log.info("writing %s", self.folder.video)
        signatures = self.frames_seen is not None
        return run_videos.encode_movie(
            self.state, self.profile, self.folder.video, self.options.zoom, signatures
        )

    def _annotated(self, encoded: Encoded) -> dict[str, Any] | None:
        if self.frames_seen is None:
            return None
        from logo_bot.bot.recording.annotated_video import render

        return render(self.frames_seen, self.folder.annotated, self.state, encoded)

    def _chapters(self, content: dict[str, Any], encoded: Encoded) -> None:
        """Chapters (levels, menus, code screens, recoveries) into video.mp4 and
        annotated.mp4; run.json says how many each got."""
        captured = self.capture_info if self.capture is not None else None
        run_videos.write_video_chapters(content, encoded, self.state, self.frames_seen, captured)

    def _report(self, plots: bool = True) -> None:
        """report.html; a run is never lost over its page, so a failure is only logged."""
        stopped = interrupts.requested() is not None
        if not stopping.plots_fit(stopped, time.monotonic(), interrupts.finish_by()):
            plots = False  # stopped: the page at once ('logo-bot report RUN' draws them later)
        try:
            path = write_report(self.folder, plots=plots, writing=self._writer.write)
            log.info("report: %s", path)
        except Exception as exc:  # the run folder is complete without it
            log.warning("no report.html: %s: %s", type(exc).__name__, exc)

    def _write_json(self, content: dict[str, Any], writing: bool = False) -> None:
        """run.json, whole or not at all (written beside it, then renamed over it);
        ``writing``: the folder is still being written after play (the video, the
        report), which run.json says until it is written again."""
        with self._writer.write():
            write_json(self.folder.run_json, {**content, "writing": True} if writing else content)
