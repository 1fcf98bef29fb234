"""``logo-bot calibrate --probe-keys`` on the real practice game: it prints the timing it
measured, and ``--save-profile`` keeps it in a profile that the next run plays with and
that needs no probe."""

from __future__ import annotations

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.profile import load_profile

pytestmark = pytest.mark.fuse


def test_calibrate_probes_the_keys_and_keeps_the_result(xserver, tmp_path, capsys):
    saved = tmp_path / "mine.toml"
    argv = ["calibrate", "--probe-keys", "--launch", "--display", xserver.display]
    assert main([*argv, "--speed", "200", "--save-profile", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "key timing probed on level 1:" in out, out
    assert "rollover safe" in out and "does not repeat" in out, out
    assert f"kept the probed key timing in {saved}" in out
    kept = load_profile(str(saved))
    assert kept.timing.probe is False and kept.timing.rollover is True
    hold, gap = kept.timing.for_speed(200)
    # the practice game queues every press: one or two frames (10 ms each) and the margin
    assert 10 <= hold <= 35 and 10 <= gap <= 35, (hold, gap)
    assert kept.timing.for_speed(100) == load_profile("practice").timing.for_speed(100)
