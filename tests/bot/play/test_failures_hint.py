"""When the game never showed: the hint names what the person can change. An attached
run was given no game files, so it never names --snapshot or --tape."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from logo_bot.bot.errors import GaveUp, LevelFailed
from logo_bot.bot.play.failures import Failures
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.run_report import RunReport


class Recovery:
    def recover(self, reason: str) -> str:
        return "restart"


def never_shown(attached: bool, tmp_path) -> GaveUp:
    fuse = SimpleNamespace(alive=lambda: True)
    session = SimpleNamespace(attached=attached, fuse=fuse)
    env = SimpleNamespace(note=lambda *a, **k: None)
    failures = Failures(session, env, Recovery(), RunReport(1, 3), Progress(3))  # type: ignore[arg-type]
    failures.evidence = lambda obs, note: f"picture: {tmp_path / 'failure.png'}"  # type: ignore[method-assign]
    failures.recover(
        1, LevelFailed("no level appeared on screen within 15 s", None), game_seen=False
    )
    with pytest.raises(GaveUp) as gave_up:
        failures.recover(
            1, LevelFailed("no level appeared on screen within 15 s", None), game_seen=False
        )
    return gave_up.value


def test_an_attached_run_is_told_to_look_at_its_fuse_not_at_game_files(tmp_path):
    hint = never_shown(True, tmp_path).hint
    assert "--snapshot" not in hint and "--tape" not in hint
    assert "your Fuse shows the game" in hint and "failure.png" in hint


def test_a_run_with_its_own_fuse_is_told_to_check_the_game_given(tmp_path):
    hint = never_shown(False, tmp_path).hint
    assert "--snapshot" in hint and "failure.png" in hint
