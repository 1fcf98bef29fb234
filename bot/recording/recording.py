"""``Recording``: one run's folder, from the first event to the finished ``run.json``.

Use it as a context manager around the session and the game loop; on the way out, even
after a failure or Ctrl-C, it writes ``run.json`` at once, then turns Fuse's movie into
``video.mp4`` (and ``annotated.mp4``), finds the exact frames of each level, and writes
``run.json`` again with all of it.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
import time
import tomllib
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from bot.env import LogoEnv, Observation
from bot.errors import BotError
from bot.profile import Profile, show_config
from bot.recording import manifest
from bot.recording.encode import Encoded, encode
from bot.recording.events import EventLog, jsonable
from bot.recording.folder import RunFolder
from bot.recording.recorder import Recorder
from bot.recording.scan import LevelSpan
from bot.rzx import RzxError, frame_count
from bot.session import Session, SessionOptions
from bot.video import EMULATED_RATE
from bot.vision import Vision

log = logging.getLogger(__name__)
FPS = float(EMULATED_RATE)


@dataclass(frozen=True)
class RecordOptions:
    """What to keep of a run (``--video-dir``, ``--no-video``, ``--annotate``)."""

    root: Path
    video: bool = True
    annotate: bool = False
    zoom: int = 2  # the video is drawn at 2x so that every Spectrum pixel keeps its colour


@dataclass
class LevelStart:
    level: int
    segment: int | None
    frame: int | None  # estimated from the wall clock


class Terminated(KeyboardInterrupt):
    """SIGTERM, taken like Ctrl-C so that the run folder is finished all the same."""


def _raise_terminated(signum: int, frame: object) -> None:
    from bot.keys import interrupt_or_defer  # never inside a key event (logo-bot issue 6)

    interrupt_or_defer(Terminated("stopped by SIGTERM"))


def iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds")


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
        self.folder = folder
        self.options = options
        self.mode = mode
        self.command = command
        self.profile = profile
        self.started = time.time()
        self.events = EventLog(folder.events)
        self.session: Session | None = None
        self.session_options: SessionOptions | None = None
        self.report: Any = None  # the walkthrough's RunReport, kept up to date
        self.requested: tuple[int, int] | None = None
        self.level_starts: list[LevelStart] = []
        self.current_target: str | None = None
        self.current_cursor: tuple[int, int] | None = None
        self.movie_frames: dict[int, int] = {}
        self._sigterm: Any = None
        self.frames_seen = None
        if options.annotate:
            from bot.recording.annotated import FrameStore

            self.frames_seen = FrameStore(folder.path / "frames.tmp")
        self._log_handler = _file_log(folder.log)
        self.event("run_start", mode=mode, command=command, folder=str(folder.path))
        log.info("recording this run in %s", folder.path)

    @classmethod
    def start(
        cls, options: RecordOptions, mode: str, command: list[str], profile: Profile | None
    ) -> Recording:
        return cls(RunFolder.create(options.root, mode), options, mode, command, profile)

    # -- during the run ---------------------------------------------------------------------
    def fuse_files(self, options: SessionOptions) -> SessionOptions:
        """``options`` with Fuse's input recording, movie and logs going into the folder."""
        from dataclasses import replace

        self.session_options = replace(
            options,
            record_rzx=self.folder.rzx,
            movie=self.folder.movie if self.options.video else None,
            log_dir=self.folder.path,
        )
        return self.session_options

    def attach(self, session: Session) -> None:
        self.session = session
        self.event("fuse_started", pid=session.fuse.pid, display=session.xserver.display)

    def wrap(self, env: LogoEnv) -> Recorder:
        return Recorder(env, self)

    def frame_at(self, t: float | None = None) -> tuple[int | None, int | None]:
        """(segment, emulated frame) at monotonic time ``t``, estimated from the wall clock:
        Fuse keeps its emulation in step with real time at the session's speed."""
        if self.session is None or not self.session.segments:
            return None, None
        t = time.monotonic() if t is None else t
        segment = self.session.segments[-1]
        for candidate in self.session.segments:
            if candidate.started_at <= t:
                segment = candidate
        frames = (t - segment.started_at) * FPS * segment.speed / 100
        return segment.number, max(0, round(frames))

    def event(self, name: str, /, *, at_time: float | None = None, **data: Any) -> None:
        segment, frame = self.frame_at(at_time)
        if name == "target":
            target = data.get("target")
            self.current_target = "\n".join(target) if isinstance(target, list) else target
            self.current_cursor = tuple(data["cursor"]) if data.get("cursor") else None
        if name == "plan" and self.frames_seen is not None:
            self.frames_seen.plan = tuple(tuple(cell) for cell in data.get("plan", ()))
        self.events.write(name, frame, segment, **data)

    def level_started(self, level: int) -> None:
        segment, frame = self.frame_at()
        self.level_starts.append(LevelStart(level, segment, frame))
        if self.frames_seen is not None:
            self.frames_seen.level, self.frames_seen.plan = level, ()

    def seen(self, obs: Observation) -> None:
        if self.frames_seen is not None:
            self.frames_seen.add(obs, *self.frame_at(obs.at))

    def save_frame(self, path: Path, frame: np.ndarray) -> None:
        from PIL import Image

        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(frame).save(path)

    # -- the end ----------------------------------------------------------------------------
    def __enter__(self) -> Recording:
        if threading.current_thread() is threading.main_thread():
            self._sigterm = signal.signal(signal.SIGTERM, _raise_terminated)
        return self

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> None:
        try:
            self.finish(exc)
        finally:
            if self._sigterm is not None:
                signal.signal(signal.SIGTERM, self._sigterm)

    def finish(self, exc: BaseException | None = None) -> dict[str, Any]:
        """Write everything; returns run.json's content. Safe to interrupt once more: the
        first run.json is written before the slow part, and Fuse's movie is kept until
        the video exists."""
        status, error = self._status(exc)
        self.event("run_end", status=status, error=error)
        summary = self._summary(status, error, Encoded())
        self._write_json(summary)
        try:
            encoded = self._encode()
            self.movie_frames = encoded.frames
            if encoded.video is not None:
                log.info(
                    "%s: %d frames (%s) in %.1f s",
                    encoded.video.name,
                    encoded.video_frames,
                    encoded.codec,
                    encoded.seconds,
                )
            summary = self._summary(status, error, encoded)
            summary["annotated"] = self._annotated(encoded)
            self._write_json(summary)
            if encoded.video is not None:
                for segment in self._segments():
                    if segment.movie is not None:
                        segment.movie.unlink(missing_ok=True)
        finally:
            self.events.close()
            logging.getLogger().removeHandler(self._log_handler)
            self._log_handler.close()
        return summary

    def _status(self, exc: BaseException | None) -> tuple[str, str | None]:
        if isinstance(exc, Terminated):
            return "aborted", "stopped by SIGTERM"
        if isinstance(exc, KeyboardInterrupt):
            return "aborted", str(exc) or "stopped by Ctrl-C"  # or the abort key
        if exc is not None:
            message = exc.message if isinstance(exc, BotError) else f"{type(exc).__name__}: {exc}"
            return "failed", message
        status = getattr(self.report, "status", None)
        return (status if status in ("complete", "failed") else "failed"), None

    def _segments(self):
        return list(self.session.segments) if self.session else []

    def _encode(self) -> Encoded:
        if not self.options.video or self.profile is None:
            return Encoded()
        log.info("writing %s", self.folder.video)
        try:
            return encode(
                self._segments(), Vision(self.profile, 1), self.folder.video, self.options.zoom
            )
        except KeyboardInterrupt:
            log.warning("video interrupted: Fuse's movie files are kept in %s", self.folder.path)
            return Encoded(error="interrupted by Ctrl-C; the movie files (.fmf) are kept")

    def _annotated(self, encoded: Encoded) -> dict[str, Any] | None:
        if self.frames_seen is None:
            return None
        from bot.recording.annotated import render

        total = sum(encoded.frames.values()) or None
        return render(self.frames_seen, self.folder.annotated, self, total)

    def _summary(self, status: str, error: str | None, encoded: Encoded) -> dict[str, Any]:
        ended = time.time()
        segments = []
        for segment in self._segments():
            try:
                rzx_frames = frame_count(segment.rzx) if segment.rzx else None
            except RzxError:
                rzx_frames = None
            segments.append(
                {
                    "number": segment.number,
                    "started": iso(segment.started_wall),
                    "speed": segment.speed,
                    "rzx": _relative(segment.rzx, self.folder.path),
                    "rzx_frames": rzx_frames,
                    "movie_frames": encoded.frames.get(segment.number),
                    "final_board": jsonable(encoded.final_boards.get(segment.number)),
                }
            )
        levels = self._levels(encoded.spans)
        report = self.report
        corrections: dict[str, int] = {}
        for entry in levels:
            for kind, n in entry.get("corrections", {}).items():
                corrections[kind] = corrections.get(kind, 0) + n
        config = self.session_options
        return {
            "schema": manifest.SCHEMA_VERSION,
            "name": self.folder.name,
            "mode": self.mode,
            "status": status,
            "error": error,
            "command": self.command,
            "started": iso(self.started),
            "ended": iso(ended),
            "seconds": round(ended - self.started, 3),
            "versions": self._versions(),
            "profile": self._profile(),
            "session": _session(config),
            "requested": (
                {"first": self.requested[0], "last": self.requested[1]} if self.requested else None
            ),
            "levels": levels,
            "totals": {
                "levels_done": sum(1 for e in levels if e["status"] == "done"),
                "levels_failed": sum(1 for e in levels if e["status"] == "failed"),
                "keys_sent": sum(e.get("keys_sent", 0) for e in levels),
                "fewest_presses": sum(e.get("planned_presses", 0) for e in levels),
                "lower_bound": sum(e.get("lower_bound", 0) for e in levels),
                "corrections": corrections,
                "restarts": getattr(report, "restarts", 0),
                "events": self.events.count,
            },
            "segments": segments,
            "frames": {
                "movie": sum(encoded.frames.values()) if encoded.frames else None,
                "rzx": (
                    sum(s["rzx_frames"] for s in segments)
                    if segments and all(s["rzx_frames"] is not None for s in segments)
                    else None
                ),
            },
            "video": {
                "path": _relative(encoded.video, self.folder.path),
                "codec": encoded.codec,
                "frames": encoded.video_frames if encoded.video else None,
                "zoom": self.options.zoom,
                "seconds_to_encode": round(encoded.seconds, 3),
                "error": encoded.error if self.options.video else "not recorded (--no-video)",
            },
            "annotated": None,
        }

    def _levels(self, spans: list[LevelSpan]) -> list[dict[str, Any]]:
        results = getattr(self.report, "results", {}) or {}
        out = []
        for number in sorted(results):
            result = results[number]
            entry: dict[str, Any] = {
                "level": number,
                "status": result.status,
                "reason": result.reason,
                "attempts": result.attempts,
            }
            if result.report is not None:
                r = result.report
                entry.update(
                    keys_sent=r.keys_sent,
                    planned_presses=r.planned_presses,
                    lower_bound=r.lower_bound,
                    optimal=r.optimal,
                    corrections=dict(r.corrections),
                    seconds=round(r.seconds, 3),
                    target=jsonable(r.target),
                    end_board=jsonable(r.end_board),
                )
            entry.update(self._frames_of(number, spans))
            out.append(entry)
        if self.level_starts:
            last = self.level_starts[-1].level
            if last not in results and (
                self.requested is None or self.requested[0] <= last <= self.requested[1]
            ):
                entry = {"level": last, "status": "aborted", "reason": "the run stopped here"}
                entry.update(self._frames_of(last, spans))
                out.append(entry)
        return out

    def _frames_of(self, level: int, spans: list[LevelSpan]) -> dict[str, Any]:
        """The movie frames of the last time ``level`` was shown."""
        for start in reversed(self.level_starts):
            if start.level != level or start.segment is None or start.frame is None:
                continue
            candidates = [
                s for s in spans if s.segment == start.segment and s.start <= start.frame + 50
            ]
            if not candidates:
                return {}
            span = max(candidates, key=lambda s: s.start)
            return {
                "segment": span.segment,
                "start_frame": span.start,
                "end_frame": span.end,
                "movie_end_board": jsonable(span.end_board) if span.end_board else None,
            }
        return {}

    def _versions(self) -> dict[str, Any]:
        config = self.session.fuse.config if self.session else None
        game = (config.snapshot or config.tape) if config else None
        fuse_log = self.folder.path / "fuse.log"
        return manifest.versions(config.rom if config else None, game, fuse_log)

    def _profile(self) -> dict[str, Any] | None:
        if self.profile is None:
            return None
        return {"name": self.profile.name, "settings": tomllib.loads(show_config(self.profile))}

    def _write_json(self, summary: dict[str, Any]) -> None:
        tmp = self.folder.run_json.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(summary, indent=2) + "\n")
        os.replace(tmp, self.folder.run_json)


def _session(options: SessionOptions | None) -> dict[str, Any] | None:
    if options is None:
        return None
    data = asdict(options)
    return {k: str(v) if isinstance(v, Path) else v for k, v in data.items()}


def _relative(path: Path | None, root: Path) -> str | None:
    if path is None or not Path(path).exists():
        return None
    try:
        return str(Path(path).relative_to(root))
    except ValueError:
        return str(path)


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
