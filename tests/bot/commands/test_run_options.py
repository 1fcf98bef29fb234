"""Parse once: ``walkthrough`` and ``level`` turn their command line into one frozen
``RunOptions``, and the run is given that alone (never the argparse Namespace)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.commands import walkthrough
from logo_bot.bot.commands.game_options import Attach
from logo_bot.bot.recording.recording import RecordOptions


@pytest.fixture
def asked(monkeypatch) -> list[walkthrough.RunOptions]:
    """The options each run was given (the run itself is not started)."""
    runs: list[walkthrough.RunOptions] = []
    monkeypatch.setattr(walkthrough, "run", lambda options: runs.append(options) or 0)
    return runs


def test_level_asks_for_its_one_level(asked):
    argv = ["level", "7", "--no-record", "--name", "ZED", "--max-attempts", "3", "--speed", "200"]
    assert main(argv) == 0
    (options,) = asked
    assert options.mode == "level" and options.command == ("logo-bot", *argv)
    assert options.levels == walkthrough.Levels(7, 7, from_screen=False)
    assert (options.player, options.max_attempts, options.session.speed) == ("ZED", 3, 200)
    assert options.record is None and options.attach is None


def test_walkthrough_from_a_code_to_the_end_of_a_range(asked, tmp_path):
    argv = ["walkthrough", "--from-code", "picar", "--levels", "1-14"]
    assert main([*argv, "--video-dir", str(tmp_path), "--no-video", "--probe-keys"]) == 0
    (options,) = asked
    assert options.mode == "walkthrough" and options.levels == walkthrough.Levels(11, 14)
    assert options.record == RecordOptions(tmp_path, video=False, annotate=False)
    assert options.probe is True and options.save_profile is None
    assert options.abort_key == "Pause"  # the profile's


@pytest.mark.parametrize(
    ("extra", "from_screen"),
    [([], True), (["--levels", "5-9"], False), (["--from-code", "BIHIZ"], False)],
)
def test_an_attached_walkthrough_without_a_range_starts_from_the_screen(asked, extra, from_screen):
    assert main(["walkthrough", "--attach", "--window", "0x40", "--no-record", *extra]) == 0
    (options,) = asked
    assert options.attach == Attach("0x40") and options.levels.from_screen is from_screen


def test_an_attached_level_plays_that_level(asked):
    assert main(["level", "5", "--attach", "--no-record"]) == 0
    assert asked[0].levels == walkthrough.Levels(5, 5, from_screen=False)


@pytest.mark.parametrize(
    ("extra", "probe"),
    [([], False), (["--probe-keys"], True), (["--save-profile", "p.toml"], True)],
)
def test_when_the_keys_are_probed(asked, extra, probe):
    """--probe-keys, --save-profile, or the profile's timing.probe."""
    no_probe = ["--set", "timing.probe=false"]
    assert main(["walkthrough", "--no-record", *no_probe, *extra]) == 0
    assert asked[0].probe is probe
    assert asked[0].save_profile == (Path("p.toml") if "--save-profile" in extra else None)


def test_the_options_are_frozen(asked):
    assert main(["level", "2", "--no-record"]) == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        asked[0].levels = walkthrough.Levels(1, 1)  # type: ignore[misc]


def test_bad_options_stop_before_the_run(asked, capsys):
    assert main(["walkthrough", "--no-record", "--annotate"]) == 2
    assert "--no-record leaves no folder" in capsys.readouterr().err
    assert main(["level", "3", "--attach", "--tape", str(Path("LOGO.TAP"))]) == 2
    assert "--attach plays your Fuse as it is: --tape" in capsys.readouterr().err
    assert asked == []


def test_the_run_reads_no_namespace():
    """``run`` takes the options alone: a reader sees what a run needs in ``RunOptions``."""
    import inspect

    (parameter,) = inspect.signature(walkthrough.run).parameters.values()
    assert parameter.annotation in ("RunOptions", walkthrough.RunOptions)
