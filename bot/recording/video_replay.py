"""Replaying a run that has no input recording (attached to someone's Fuse): its video.

The whole run or one level of it (the stretch ``video_start_s``..``video_end_s`` that
run.json gives for attached runs) is played with ffplay on a display, or cut into a
file with ffmpeg.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from logo_bot.bot import interrupts, processes
from logo_bot.bot.errors import InputError, UsageError, VideoError, installed

EXACT = (
    "this run was attached to a Fuse the bot did not start, which recorded no input, so "
    "its video is played instead: an exact replay needs a run the bot started itself"
)


def level_stretch(run: dict[str, Any], number: int) -> tuple[float, float | None]:
    """Where level ``number`` is in the run's video (seconds)."""
    entry = next((e for e in run.get("levels", []) if e["level"] == number), None)
    if entry is None:
        played = ", ".join(str(e["level"]) for e in run.get("levels", [])) or "none"
        raise UsageError(f"level {number} is not in this run (levels played: {played})")
    if "video_start_s" not in entry:
        raise InputError(f"run.json does not say where level {number} is in the video")
    return float(entry["video_start_s"]), entry.get("video_end_s")


def cut(video: Path, out: Path, start: float, end: float | None) -> Path:
    """``out``: the stretch ``start``..``end`` of ``video`` (re-encoded, frame-exact)."""
    binary = installed("ffmpeg", "ffmpeg", VideoError)
    command = [binary, "-y", "-loglevel", "error", "-nostdin", "-ss", f"{start:.3f}"]
    if end is not None:
        command += ["-t", f"{end - start:.3f}"]
    command += ["-i", str(video), "-c:v", "libx264", "-preset", "veryfast", "-an", str(out)]
    result = processes.run(command)
    if result.returncode != 0:
        raise VideoError(f"ffmpeg could not cut {video.name}: {result.stderr.strip()[-300:]}")
    return out


def show(video: Path, display: str, start: float = 0.0, end: float | None = None) -> int:
    """Play ``video`` (from ``start`` to ``end``) with ffplay on ``display``; its status."""
    binary = installed("ffplay", "ffmpeg", VideoError)
    command = [binary, "-autoexit", "-loglevel", "error", "-ss", f"{start:.3f}"]
    if end is not None:
        command += ["-t", f"{end - start:.3f}"]
    process = processes.start(
        [*command, str(video)], env={"DISPLAY": display, "PATH": "/usr/bin:/bin"}
    )
    try:
        while process.poll() is None:
            interrupts.sleep(0.05)  # a safe point: a stop ends the playing
        return process.returncode
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
