"""The key-timing options: ``--probe-keys`` and ``--save-profile``, whose file is
checked before the run and written after it with what the probe measured."""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from logo_bot.bot.errors import InputError, UsageError
from logo_bot.bot.profile import Profile

if TYPE_CHECKING:
    from logo_bot.bot.play.probe_findings import ProbeResult


def add_probe_options(parser: argparse.ArgumentParser, always: bool = False) -> None:
    """``--probe-keys`` and ``--save-profile`` (``always``: the command is the probe)."""
    group = parser.add_argument_group(
        "key timing",
        "How long a key must be held, and how long all keys must be up, for the game to see "
        "each press once: the profile's figures, or measured on the first level by pressing "
        "cursor moves with varied timing and watching the cursor (a few seconds; the cursor "
        "is put back). A profile with timing.probe = true (logo-part1) always measures.",
    )
    if not always:
        group.add_argument(
            "--probe-keys",
            action="store_true",
            help="measure the key timing at the start of the run and play with it",
        )
    group.add_argument(
        "--save-profile",
        type=Path,
        metavar="FILE",
        help="write the profile with the measured timing to FILE (use it with --profile FILE "
        "and the next run needs no probe)",
    )


def check_writable(path: Path, what: str) -> None:
    """Before a run: ``path`` can be written later, else ``UsageError`` now, not after the
    run. Tried for real (``os.access`` says yes to root everywhere): an existing file is
    opened to append, nothing written; else a file is made and removed in the nearest
    folder that exists."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        if path.exists():
            with open(path, "ab"):
                pass
        else:
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".logo-bot-check-"):
                pass
    except OSError as exc:
        raise UsageError(
            f"{what} {path} cannot be written: {exc.strerror}",
            hint="choose a file in a folder you can write to",
        ) from None


def save_probed_profile(path: Path, profile: Profile, result: ProbeResult, speed: int) -> str:
    """Write ``profile`` with ``result`` as its timing; the line to print."""
    from logo_bot.bot.profile import with_probed_timing

    if not result.usable:
        raise InputError(
            "the probe found no safe key timing, so no profile was written",
            hint="check that keys reach Fuse (logo-bot show) and the profile's [keys]",
        )
    delay = result.repeat_delay_frames
    repeat = (delay, result.repeat_every_frames) if result.repeats and delay is not None else None
    note = time.strftime("%Y-%m-%d %H:%M") + f" at {speed} % speed"
    assert result.hold_frames is not None and result.gap_frames is not None  # usable
    text = with_probed_timing(
        profile,
        speed,
        result.hold_frames,
        result.gap_frames,
        bool(result.rollover),
        repeat,
        note,
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write the profile {path}: {exc.strerror}") from None
    return f"kept the probed key timing in {path} (use it with --profile {path})"
