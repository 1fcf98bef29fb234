"""The last lines a program wrote to its log file (Fuse's, ffmpeg's), for an error message."""

from __future__ import annotations

from pathlib import Path


def log_tail(
    path: Path, lines: int = 3, *, unreadable: str = "(no log)", empty: str = "(no output)"
) -> str:
    """The last ``lines`` lines of ``path`` joined with " | "; ``unreadable`` when the file
    cannot be read, ``empty`` when it holds nothing but white space."""
    try:
        text = Path(path).read_text(errors="replace").strip().splitlines()
    except OSError:
        return unreadable
    return " | ".join(text[-lines:]) or empty
