"""One frame length for the whole bot: Fuse's 48K frame, and no copy of it elsewhere."""

from __future__ import annotations

import io
import tokenize
from fractions import Fraction
from pathlib import Path

import pytest

from logo_bot import bot
from logo_bot.bot import frames

T_STATES = 69888  # per 48K frame (FUSE-FACTS.md §4)
CLOCK_HZ = 3_500_000
LITERALS = {"19968", "19.96", "19.968", "50.08", "0.019968", "0.01996"}


def test_the_frame_is_fuses_48k_frame():
    frame = Fraction(T_STATES, CLOCK_HZ)  # seconds
    assert frame == Fraction(frames.FRAME_US, 1_000_000)
    assert 1 / frame == frames.FRAME_RATE
    assert float(frame) == pytest.approx(frames.FRAME_S, rel=1e-15)
    assert float(frame * 1000) == pytest.approx(frames.FRAME_MS, rel=1e-15)
    assert float(1 / frame) == pytest.approx(frames.FPS, rel=1e-15)
    assert round(frames.FPS, 2) == 50.08


def numbers_in(source: str) -> set[str]:
    """The number literals of ``source``'s code (not of its comments or strings)."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.string.replace("_", "") for t in tokens if t.type == tokenize.NUMBER}


def test_the_scan_sees_code_but_not_prose():
    source = '"""50.08 frames"""\nx = 1 / 50.08  # 19968 us\ny = "19.96"\nz = 19_968\n'
    assert numbers_in(source) & LITERALS == {"50.08", "19968"}


def test_no_other_module_of_the_bot_writes_the_frame_time():
    root = Path(bot.__file__).resolve().parent
    own = root / "frames.py"
    assert own.is_file()
    wrong = {
        str(path.relative_to(root)): sorted(found)
        for path in sorted(root.rglob("*.py"))
        if path != own and (found := numbers_in(path.read_text()) & LITERALS)
    }
    assert wrong == {}
