"""``Recorder``: an environment wrapper that writes down everything the bot sees and does.

It wraps the game loop from outside (like a video-recording wrapper around a Gymnasium
environment): every key burst with what the bot read afterwards (the key probe's too,
marked ``probe`` and with the timing it tried), every note the player makes (target,
plan, corrections, unreadable frames), pictures at the start and end of each level and
of every failure. Its own time is the ``recording`` kind of the time spent.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from logo_bot.bot.errors import BotError
from logo_bot.bot.play.env import EnvWrapper, LogoEnv, Pressed, StepResult, when_seen
from logo_bot.bot.play.level_io import move_keys
from logo_bot.bot.play.observation import Expectation, Observation
from logo_bot.bot.recording.run_state import RunLog
from logo_bot.bot.see.annotate import save_annotated
from logo_bot.bot.x11.keys import KeyTiming

log = logging.getLogger(__name__)

READINGS = ("level_shown", "cursor", "board", "target", "screen")
UNTIL_SEEN = {"until_seen": True}  # a stretch of a burst of keys held until seen
FAILURE_EVENTS = ("unreadable", "failure", "target_unsolvable", "correction", "level_gone")


def readings(obs: Observation) -> dict[str, Any]:
    """What the bot already read from ``obs`` (nothing is read here for the record)."""
    return {name: obs.__dict__[name] for name in READINGS if name in obs.__dict__}


@dataclass
class Stretch:
    """The part of a burst not yet written down: its first key, and since when."""

    first: int
    since: float


class Recorder(EnvWrapper):
    """Writes events, level pictures and failure pictures through a ``RunLog``."""

    def __init__(
        self, env: LogoEnv | EnvWrapper, recording: RunLog, max_failure_pictures: int = 100
    ) -> None:
        super().__init__(env)
        self.recording = recording
        self.state = recording.state
        self.max_failure_pictures = max_failure_pictures
        self.last_obs: Observation | None = None
        self.level: int | None = None
        self.failure_pictures = 0

    def _seen(self, obs: Observation) -> Observation:
        self.last_obs = obs
        with self.spent.on("recording"):
            self.recording.seen(obs)
        return obs

    def observe(self) -> Observation:
        return self._seen(self.env.observe())

    def wait_for(self, expect: Expectation, timeout_frames: float) -> tuple[Observation, bool]:
        obs, met = self.env.wait_for(expect, timeout_frames)
        self._seen(obs)
        return obs, met

    def step(
        self, keys: Sequence[str], expect: Expectation | None = None, timeout_frames: float = 6
    ) -> StepResult:
        return self._keys_event(self.env.step(keys, expect, timeout_frames))

    def step_seen(
        self,
        keys: Sequence[str],
        expects: Sequence[Expectation],
        longest_frames: float,
        ends: Sequence[int] = (),
    ) -> StepResult:
        """The burst, written down a stretch at a time: the keys up to each of ``ends``
        (a stone's act) as soon as it is seen, with that look; the rest when the burst
        ends. An annotated video also gets the look that saw each key."""
        every = self.recording.every_look
        if not (ends or every):
            return self._keys_event(self.env.step_seen(keys, expects, longest_frames))
        stretch = Stretch(0, time.monotonic())
        closing = frozenset(ends)

        def written(i: int, obs: Observation) -> None:
            if i in closing:
                now = time.monotonic()
                done = tuple(keys[stretch.first : i + 1])
                self._keys_event(StepResult(obs, True, done, stretch.since, now, UNTIL_SEEN))
                stretch.first, stretch.since = i + 1, now
            elif every:
                self._seen(obs)

        result = self.env.step_seen(keys, when_seen(expects, written), longest_frames, ends)
        rest = result.keys[stretch.first :]
        if rest:
            since, info = stretch.since, result.info
            self._keys_event(StepResult(result.obs, result.met, rest, since, result.ended, info))
        else:
            self._seen(result.obs)
        return result

    def hold(
        self, key: str, expect: Expectation, longest_frames: float, timeout_frames: float = 6
    ) -> StepResult:
        return self._keys_event(self.env.hold(key, expect, longest_frames, timeout_frames))

    def press(self, keys: Sequence[str], timing: KeyTiming, **info: Any) -> Pressed:
        return self._pressed(self.env.press(keys, timing, **info))

    def press_until(
        self, key: str, until: Callable[[], bool], longest_ms: float, **info: Any
    ) -> Pressed:
        return self._pressed(self.env.press_until(key, until, longest_ms, **info))

    def load_tape(self) -> Pressed | None:
        pressed = self.env.load_tape()
        return self._pressed(pressed) if pressed is not None else None

    def _keys_event(self, result: StepResult) -> StepResult:
        self._seen(result.obs)
        self._write_keys(result, readings(result.obs))
        return result

    def _pressed(self, pressed: Pressed) -> Pressed:
        self._write_keys(pressed, {})  # nothing was read after these keys
        return pressed

    def _write_keys(self, sent: StepResult | Pressed, read: dict[str, Any]) -> None:
        with self.spent.on("recording"):
            self._keys_written(sent, read)

    def _keys_written(self, sent: StepResult | Pressed, read: dict[str, Any]) -> None:
        self.recording.event(
            "keys",
            at_time=sent.started,
            level=self.level,
            keys=list(sent.keys),
            met=sent.met,
            seconds=round(sent.ended - sent.started, 4),
            **sent.info,
            **read,
        )

    def note(self, event: str, **data: Any) -> None:
        self.env.note(event, **data)
        with self.spent.on("recording"):
            self._noted(event, data)

    def _noted(self, event: str, data: dict[str, Any]) -> None:
        # the event's frame is the moment it was noted, not after its pictures were saved
        # (a level's chapter and its start in an attached run's video then agree)
        at = time.monotonic()
        obs = data.pop("obs", None) or self.last_obs
        for key in ("target", "board"):
            if isinstance(data.get(key), str):
                data[key] = data[key].splitlines()  # boards as rows, like everywhere else
        if event == "level_shown":
            self.level = data["level"]
            self.recording.level_started(self.level)
            if obs is not None:
                save_frame(self._level_dir() / "start.png", obs.frame)
        elif event == "plan":
            self._write_plan(data)
        elif event == "level_done" and obs is not None:
            save_frame(self._level_dir() / "end.png", obs.frame)
        if event in FAILURE_EVENTS and obs is not None:
            data["picture"] = self._failure_picture(event, data, obs)
        data.setdefault("level", self.level)
        self.recording.event(event, at_time=at, **data)

    # -- files ------------------------------------------------------------------------------
    def _level_dir(self):
        return self.state.folder.level_dir(self.level or 0)

    def _write_plan(self, data: dict[str, Any]) -> None:
        plan = list(data.get("plan", ()))
        profile = self.state.profile
        lines = [f"level {self.level}"]
        target = self.state.current_target
        if target is not None:
            lines += ["target:", *(f"  {row}" for row in str(target).splitlines())]
        by_file = ", by the level file" if data.get("bound") == "level file" else ""
        lines.append(
            f"{len(plan)} moves, {data.get('presses')} key presses"
            f" ({'proven fewest' if data.get('optimal') else 'lower bound'}"
            f" {data.get('lower_bound')}{by_file}), first move first:"
        )
        lines += [f"  {r} {c}" for r, c in plan]
        at = self.state.current_cursor
        if profile is not None and at is not None:
            grid, press = profile.geometry.board, []
            for cell in plan:
                press += [*move_keys(profile.keys, at, tuple(cell), grid.rows, grid.cols)]
                press.append(profile.keys.act)
                at = tuple(cell)
            lines.append(f"keys from the cursor at {self.state.current_cursor}:")
            lines.append("  " + " ".join(press))
        path = self._level_dir() / "plan.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n")

    def _failure_picture(self, event: str, data: dict[str, Any], obs: Observation) -> str | None:
        if self.failure_pictures >= self.max_failure_pictures:
            return None
        self.failure_pictures += 1
        name = f"{self.failure_pictures:03d}-level{self.level or 0:03d}-{event}"
        kind = data.get("kind") or data.get("what")
        if kind:
            name += f"-{kind}"
        path = self.state.folder.failures / f"{name}.png"
        detail = ", ".join(f"{k}={v}" for k, v in data.items() if k not in ("level", "board"))
        notes = [f"level {self.level}: {event}" + (f" ({detail})" if detail else "")]
        try:
            frame = obs.frame  # a glimpse's is looked at now: the display may be gone
        except BotError as exc:
            log.info("no picture of the failure: %s", exc)
            return None
        save_annotated(path, frame, obs.vision, notes)
        return str(path.relative_to(self.state.folder.path))


def save_frame(path: Path, frame: np.ndarray) -> None:
    """``frame`` as a PNG at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(frame).save(path)
