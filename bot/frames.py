"""Fuse's 48K frame: 69888 T-states at 3.5 MHz, 19968 µs, 50.08 frames per second."""

from __future__ import annotations

from fractions import Fraction

FRAME_US = 19968  # one emulated frame at 100 % speed, in microseconds
FRAME_MS = FRAME_US / 1000  # 19.968 ms
FRAME_S = FRAME_US / 1_000_000  # 0.019968 s
FRAME_RATE = Fraction(1_000_000, FRAME_US)  # emulated frames per second, exactly
FPS = float(FRAME_RATE)  # 50.08 emulated frames per second
