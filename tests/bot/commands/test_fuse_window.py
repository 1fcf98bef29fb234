"""The one window chooser: ``walkthrough --attach``, ``calibrate --probe-keys`` and
``show`` find the Fuse window the same way, and each says in its own words when there is
no display to look on."""

from __future__ import annotations

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.commands import fuse_window
from logo_bot.bot.errors import DisplayError


class NoDisplay:
    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    "argv",
    [
        ["walkthrough", "--attach", "--no-record"],
        ["level", "4", "--attach", "--no-record"],
        ["calibrate", "--probe-keys"],
        ["show"],
    ],
)
def test_every_command_chooses_the_fuse_window_through_the_one_chooser(monkeypatch, capsys, argv):
    chosen: list[tuple[str, str | None]] = []

    def choose(dpy: object, name: str | None) -> object:
        chosen.append((opened[-1], name))
        raise DisplayError(f"chose {name}")

    opened: list[str] = []
    monkeypatch.setattr(
        fuse_window, "open_display", lambda name: opened.append(name) or NoDisplay()
    )
    monkeypatch.setattr(fuse_window, "choose_window", choose)
    assert main([*argv, "--display", ":41", "--window", "Fuse - 1"]) == 4
    assert chosen == [(":41", "Fuse - 1")]
    assert capsys.readouterr().err.startswith(f"logo-bot {argv[0]}: error: chose Fuse - 1")


def test_the_display_is_dollar_display_by_default(monkeypatch):
    monkeypatch.setenv("DISPLAY", ":42")
    monkeypatch.setattr(fuse_window, "open_display", lambda name: NoDisplay())
    monkeypatch.setattr(fuse_window, "choose_window", lambda dpy, name: type("W", (), {"id": 7}))
    found = fuse_window.pick_fuse_window(None, None, DisplayError("none"))
    assert found == fuse_window.FuseWindow(":42", 7)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["walkthrough", "--attach", "--no-record"], "--attach needs the display your Fuse is on"),
        (["calibrate", "--probe-keys"], "--attach needs the display your Fuse is on"),
        (["show"], "no display to look at"),
    ],
)
def test_no_display_at_all_is_said_in_each_commands_words(monkeypatch, capsys, argv, words):
    monkeypatch.delenv("DISPLAY", raising=False)
    assert main(argv) == 4
    assert capsys.readouterr().err.startswith(f"logo-bot {argv[0]}: error: {words}\n")
