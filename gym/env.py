"""The practice game in the real Fuse as a Gymnasium environment.

``reset`` starts Fuse (on a private Xvfb when headless, the first time; later resets
start Fuse again in the same display) with the snapshot of a level's start
(``logo_bot.gym.level_start``) and waits until the game shows the level. ``step`` presses
one primitive action as a real key event through the bot's own loop
(``bot.play.level_io.LevelIO.step_seen``): the key is held down until the screen shows
what it should do (the cursor on the next cell, the stone on the board) or a bound of
a few emulated frames runs out, and the observation is read from the screen after it.
"""

from __future__ import annotations

import tempfile
import time
import weakref
from dataclasses import replace
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from logo_bot.bot.errors import InputError, LevelGone, Unreadable
from logo_bot.bot.fuse.assembly import SessionOptions, open_session, run_record, with_files
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.level_io import LevelIO
from logo_bot.bot.play.observation import Observation
from logo_bot.bot.profile import Profile, load_profile
from logo_bot.bot.recording.recording import Recording
from logo_bot.gym.actions import MOVES, PLACE, TAKE_BACK, Level, key_for
from logo_bot.gym.level_start import LevelStarts
from logo_bot.solvers.board import Board, Cell

SOLVED, FAILED = 1.0, -1.0
LOST_SCREENS = ("time_up", "game_over")  # the level ended without being solved


class LogoGym(gymnasium.Env[dict[str, Any], np.int64]):
    """Logo on the real Fuse: ``Discrete`` primitive actions (``ACTIONS``), a ``Dict``
    observation read from the screen (board and target 0-4 per cell, the cursor's row
    and column from 0, the seconds left, the level), +1 when the level is solved and -1
    when its time runs out (both end the episode), truncated after ``max_steps``."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 50}  # noqa: RUF012

    def __init__(
        self,
        render_mode: str | None = None,
        speed: int = 200,
        headless: bool | None = None,
        display: str | None = None,
        fuse: str = "sdl",
        scale: int = 1,
        max_steps: int = 1000,
        profile: str = "practice",
        name: str = "LOGOBOT",
    ) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'rgb_array', not {render_mode!r}")
        self.render_mode = render_mode
        self.profile: Profile = load_profile(profile)
        self.options = SessionOptions(
            headless=headless, display=display, scale=scale, speed=speed, fuse_build=fuse
        )
        self.max_steps = max_steps
        grid = self.profile.geometry.board
        self.size = (grid.rows, grid.cols)
        keys = self.profile.keys
        self.actions = (*MOVES, PLACE, *((TAKE_BACK,) if keys.reset else ()))
        self.action_space = spaces.Discrete(len(self.actions))
        cells = spaces.Box(0, 4, self.size, dtype=np.int8)
        self.observation_space = spaces.Dict(
            {
                "board": cells,
                "target": cells,
                "cursor": spaces.MultiDiscrete(list(self.size)),
                "time_left": spaces.Discrete(1000),
                "level": spaces.Discrete(self.profile.level_count + 1),
            }
        )
        if not self.profile.game.get("snapshot"):
            raise InputError(
                f"the {self.profile.name} profile's game is a tape: the environment starts "
                "a level from a snapshot of the game, which only the practice game has",
                hint="play the practice game (profile='practice')",
            )
        self._folder = tempfile.TemporaryDirectory(prefix="logo-gym-")
        game = self.profile.resolve(self.profile.game["snapshot"])
        self.starts = LevelStarts(game, Path(self._folder.name), name)
        self.session: Session | None = None
        self.env: LogoEnv | EnvWrapper | None = None
        self.recording: Recording | None = None  # the episode's (``RecordEpisodes``)
        self.io: LevelIO | None = None
        self._sessions: list[Session] = []  # closed with the folder, also at exit
        self._closer = weakref.finalize(self, _close, self._folder, self._sessions)
        self._reset_state(1)

    # -- the episode ------------------------------------------------------------------------
    def _reset_state(self, level: int) -> None:
        self.level = level
        self.steps = 0
        self.ended = True
        self.last_key: str | None = None
        self.board = Board.empty(*self.size)
        self.target = Board.empty(*self.size)
        self.cursor: Cell = (1, 1)
        self.time_left = 0
        self.placed: list[Board] = []  # the board before each stone seen placed
        self.asked_at = time.monotonic()
        self.last: Observation | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Show level ``options["level"]`` (default: the last reset's, 1 at first) at its
        start, in a Fuse started from that level's snapshot."""
        super().reset(seed=seed)
        if not self._closer.alive:
            raise RuntimeError("the environment is closed: make another one")
        level = int((options or {}).get("level", self.level))  # the last one asked
        snapshot = self.starts.path(level)
        asked_at = time.monotonic()  # the level's clock can have run since, no longer
        if self.session is None:
            self._open(snapshot)
        else:
            self.session.restart(snapshot)
        self._reset_state(level)
        assert self.io is not None and self.env is not None
        first = self.io.wait_level()
        self.asked_at = asked_at
        self.ended = False
        self._read(first)
        if self.recording is not None:
            self.recording.level_started(level)
        self.env.note("target", target=str(self.target), cursor=self.cursor)
        return self._observation(), self._info()

    def _open(self, snapshot: Path) -> None:
        """Start the display and Fuse; with a recording, Fuse writes its movie and RZX
        into the recording's folder and every key and look goes through its recorder."""
        options = _with_snapshot(self.options, snapshot)
        recording = self.recording
        if recording is not None:
            options = with_files(options, recording.fuse_files())
            recording.note_session(run_record(options))
        self.session = open_session(self.profile, options)
        self._sessions.append(self.session)
        self.env = LogoEnv(self.session)
        if recording is not None:
            recording.record_fuse(self.session)
            self.env = recording.wrap(self.env)
        self.io = LevelIO(self.env, self.profile)

    def record_into(self, recording: Recording | None) -> None:
        """Record from the next reset into ``recording`` (None: record no more): the
        running Fuse is stopped (its movie and RZX are then whole), and the reset starts
        one that writes into the recording's folder."""
        session, self.session, self.env, self.io = self.session, None, None, None
        if session is not None:
            self._sessions.remove(session)
            session.close()
        self.ended = True
        self.recording = recording

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.ended or self.io is None:
            raise RuntimeError("the episode has ended (or not begun): call reset() first")
        name = self.actions[int(action)]
        now = Level(self.board, self.target, self.cursor, tuple(self.placed), self.last_key)
        key, expect, after = key_for(name, self.profile.keys, now, self.size)
        self.steps += 1
        reward, terminated, seen = 0.0, False, False
        try:
            result = self.io.step_seen([key], [expect])
        except LevelGone as gone:  # the time ran out before the key
            reward, terminated = self._level_ended(gone.screen, solving=False)
        else:
            self.last_key = key
            if name == PLACE and result.met and self.board[self.cursor] == 0:
                self.placed.append(self.board)
            elif name == TAKE_BACK and result.met and self.placed:
                self.placed.pop()
            obs, met = result.obs, result.met
            seen = met
            del result
            if not obs.level_shown:  # gone for good, or a frame caught mid-drawing
                shown = self._screen_after()
                obs, solving = shown, met and after == self.target
                if not shown.level_shown:
                    reward, terminated = self._level_ended(shown.screen, solving)
            if obs.level_shown:
                self._read(obs)
                if self.board == self.target:  # solved: the game's transition follows
                    reward, terminated = SOLVED, True
        truncated = not terminated and self.steps >= self.max_steps
        self.ended = terminated or truncated
        return self._observation(), reward, terminated, truncated, self._info(name, seen)

    def _screen_after(self) -> Observation:
        """The picture once the level or a named screen shows (a screen is drawn over a
        few frames, and a level may be caught mid-drawing)."""
        assert self.env is not None
        obs, _ = self.env.wait_for(lambda o: o.level_shown or o.screen is not None, 30)
        return obs

    def _level_ended(self, screen: str | None, solving: bool) -> tuple[float, bool]:
        """-1 on TIME UP or game over; +1 when the key just pressed made the target
        (``solving``) or the game says WELL DONE; any other screen ends the episode
        with 0."""
        if screen in LOST_SCREENS:
            self.time_left = 0
            return FAILED, True
        if solving or screen == "well_done":
            self.board = self.target
            return SOLVED, True
        return 0.0, True

    def _read(self, obs: Observation) -> None:
        """The board, the cursor and the target from ``obs``, the time left from its panel."""
        try:
            self.board, self.cursor = obs.board, obs.cursor
            self.target = obs.target
            if obs.screens is not None:
                self.time_left = obs.screens.panel_number(obs.frame, "time")
        except Unreadable:
            pass  # the last values stand (a frame caught mid-drawing)
        self.last = obs

    def _observation(self) -> dict[str, Any]:
        return {
            "board": _cells(self.board, self.size),
            "target": _cells(self.target, self.size),
            "cursor": np.array([self.cursor[0] - 1, self.cursor[1] - 1], dtype=np.int64),
            "time_left": min(max(self.time_left, 0), 999),
            "level": self.level,
        }

    def _info(self, action: str | None = None, seen: bool | None = None) -> dict[str, Any]:
        """The level and its time left; after a reset the most emulated frames the level's
        clock can have run (from the moment its snapshot was asked for, at the session's
        speed, which Fuse never runs faster than), after a step the action and whether the game
        was seen to take its key (wall-clock figures vary from run to run, so a step's
        info, which Gymnasium's checker compares between two runs, holds none)."""
        info: dict[str, Any] = {"level": self.level, "time_left": self.time_left}
        if action is None:
            frame_s = self.session.frame_s if self.session is not None else 0.02
            info["frames"] = round((time.monotonic() - self.asked_at) / frame_s)
        else:
            info["action"], info["seen"] = action, seen
        return info

    def render(self) -> np.ndarray | None:
        """The Fuse window's picture now (``rgb_array``), as RGB."""
        if self.render_mode != "rgb_array" or self.env is None:
            return None
        return np.ascontiguousarray(self.env.glance().frame[..., :3])

    def close(self) -> None:
        """Stop Fuse and the Xvfb this environment started, and remove its snapshots."""
        self.session = self.env = self.io = None
        self.ended = True
        self._closer()


def _with_snapshot(options: SessionOptions, snapshot: Path) -> SessionOptions:
    return replace(options, snapshot=snapshot)


def _close(folder: tempfile.TemporaryDirectory[str], sessions: list[Session]) -> None:
    while sessions:
        sessions.pop().close()
    folder.cleanup()


def _cells(board: Board, size: tuple[int, int]) -> np.ndarray:
    return np.array(board.cells, dtype=np.int8).reshape(size)
