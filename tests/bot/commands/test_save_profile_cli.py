"""--save-profile that cannot be written is refused before anything starts."""

from __future__ import annotations

import pytest

from logo_bot.bot.cli import main


@pytest.mark.parametrize(
    "command", [["walkthrough", "--levels", "1"], ["calibrate", "--probe-keys"]]
)
def test_an_unwritable_save_profile_is_refused_before_any_fuse_or_folder(tmp_path, capsys, command):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    runs = tmp_path / "runs"
    args = [*command, "--headless", "--save-profile", str(blocker / "mine.toml")]
    if command[0] == "walkthrough":
        args += ["--video-dir", str(runs)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == (
        f"logo-bot {command[0]}: error: --save-profile {blocker / 'mine.toml'} cannot be "
        "written: Not a directory\n  what to do: choose a file in a folder you can write to\n"
    )
    assert not runs.exists()
    assert blocker.read_text() == "not a folder"
