"""What run.json says of a video that a stop left unwritten, and how to make it later."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from logo_bot.bot.fuse.session_parts import Segment


def how_later(folder: Path, segments: Sequence[Segment]) -> str:
    """How to make the video later: replay the input recording, if the run has one."""
    if any(segment.rzx for segment in segments):
        return f"'logo-bot replay {folder} --headless' makes it"
    return "it cannot be made later: the run has no input recording"


def unfinished(entry: dict[str, Any], why: str, later: str = "") -> dict[str, Any]:
    """``entry`` (run.json's ``video`` or ``annotated``) marked as a video not written."""
    entry.update(path=None, frames=None, unfinished=True)
    entry["error"] = f"unfinished: {why}" + (f"; {later}" if later else "")
    return entry


def mark_unwritten(
    content: dict[str, Any], why: str, later: str, *, video: bool, annotated: bool
) -> dict[str, Any]:
    """run.json's ``content`` with the video (when ``video``: it was expected and not
    written) and the annotated one (when ``annotated`` was asked and has no file)
    marked unfinished, saying ``why``."""
    if video:
        unfinished(content["video"], why, later)
    if annotated and not (content.get("annotated") or {}).get("path"):
        content["annotated"] = unfinished({"path": None, "frames": None}, why)
    return content
