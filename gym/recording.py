"""Episodes recorded as the bot records its runs, by a wrapper (as Gymnasium's
``RecordVideo``): each episode leaves a run folder of the bot's (``bot.recording``) with
its events (every key and look), Fuse's RZX, the video with the level's chapter,
``run.json`` and ``report.html``. Without the wrapper nothing is written."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import gymnasium

from logo_bot.bot.play.level_report import LevelReport
from logo_bot.bot.play.run_report import LevelResult, RunReport
from logo_bot.bot.recording.recording import Recording
from logo_bot.bot.recording.run_state import RecordOptions
from logo_bot.gym.env import SOLVED, LogoGym


class RecordEpisodes(gymnasium.Wrapper[dict[str, Any], Any, dict[str, Any], Any]):
    """One run folder under ``runs`` per episode (a ``level`` run), finished when the
    episode ends, at the next reset or at close; ``video``: with the video.
    ``folders`` lists the folders written."""

    def __init__(self, env: gymnasium.Env, runs: Path, video: bool = True) -> None:
        super().__init__(env)
        self.game: LogoGym = env.unwrapped  # type: ignore[assignment]
        self.options = RecordOptions(root=Path(runs), video=video)
        self.folders: list[Path] = []
        self._recording: Recording | None = None
        self._episode: dict[str, Any] = {}

    def reset(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        self._finish()
        level = int((kwargs.get("options") or {}).get("level", 1))
        command = ["logo_bot.gym", "reset", f"level={level}"]
        recording = Recording.start(self.options, "level", command, self.game.profile)
        recording.__enter__()
        recording.requested = (level, level)
        self._recording = recording
        self.folders.append(recording.folder.path)
        self.game.record_into(recording)
        obs, info = self.env.reset(**kwargs)
        self._episode = {"level": level, "keys": 0, "started": time.monotonic(), "reward": 0.0}
        return obs, info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._episode["keys"] += 1
        self._episode["reward"] = float(reward)
        if terminated or truncated:
            self._finish()
        return obs, float(reward), terminated, truncated, info

    def close(self) -> None:
        self._finish()
        super().close()

    def _finish(self) -> None:
        """Stop the episode's Fuse (its movie is then whole) and write the folder."""
        recording, self._recording = self._recording, None
        if recording is None:
            return
        self.game.record_into(None)
        recording.report = self._report()
        recording.__exit__(None, None, None)

    def _report(self) -> RunReport:
        """The episode as the walkthrough reports a level: done when solved."""
        episode, game = self._episode, self.game
        level = episode.get("level", game.level)
        solved = episode.get("reward") == SOLVED
        played = LevelReport(game.target, (), 0, 0, False, episode.get("keys", 0))
        played.end_board = game.board
        played.seconds = time.monotonic() - episode.get("started", time.monotonic())
        reason = None if solved else "the episode ended without solving the level"
        result = LevelResult(level, "done" if solved else "failed", played, reason)
        status = "complete" if solved else "failed"
        return RunReport(level, level, {level: result}, seconds=played.seconds, status=status)
