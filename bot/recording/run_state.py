"""``RunState``: what is known of a run in progress, read by the recorder, run.json and
the annotated video (none of which needs the ``Recording`` that keeps it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from logo_bot.bot.fuse.session import Session
from logo_bot.bot.fuse.session_parts import Segment
from logo_bot.bot.play.observation import Observation
from logo_bot.bot.profile import Profile
from logo_bot.bot.recording.events import EventLog
from logo_bot.bot.recording.folder import RunFolder


@dataclass(frozen=True)
class RecordOptions:
    """What to keep of a run (``--runs-dir``, ``--no-video``, ``--annotate``)."""

    root: Path
    video: bool = True
    annotate: bool = False
    zoom: int = 2  # the video is drawn at 2x so that every Spectrum pixel keeps its colour


@dataclass
class LevelStart:
    level: int
    segment: int | None
    frame: int | None  # estimated from the wall clock


@dataclass
class RunState:
    """One run's facts so far: its folder and settings, the game, and where play is."""

    folder: RunFolder
    options: RecordOptions
    mode: str
    command: list[str]
    profile: Profile | None
    started: float
    events: EventLog
    session: Session | None = None
    session_record: dict[str, Any] | None = None  # run.json's "session"
    report: Any = None  # the walkthrough's RunReport, kept up to date
    requested: tuple[int, int] | None = None
    level_starts: list[LevelStart] = field(default_factory=list)
    current_target: str | None = None
    current_cursor: tuple[int, int] | None = None
    movie_frames: dict[int, int] = field(default_factory=dict)
    ended: float | None = None

    def segments(self) -> list[Segment]:
        return list(self.session.segments) if self.session else []


class RunLog(Protocol):
    """Where a recorder writes: events, level starts and the frames the bot looked at."""

    state: RunState

    def event(self, name: str, /, *, at_time: float | None = None, **data: Any) -> None: ...

    def level_started(self, level: int) -> None: ...

    def seen(self, obs: Observation) -> None: ...

    @property
    def every_look(self) -> bool:
        """Whether ``seen`` wants the look at each key held until seen (an annotated
        video), not only a burst's last."""
        ...
