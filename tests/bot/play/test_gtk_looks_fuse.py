"""End-to-end: fuse-gtk on desktops that look otherwise than the test bench: Noto Sans (a
machine with GNOME's or KDE's packages), a large UI font, a dark theme, HiDPI (the
desktop's settings at 200 %). The bars above and below the picture change height and
colour, and on HiDPI GTK draws a person's Fuse twice as large, smoothly; the bot finds
the picture by what it shows, in a Fuse it starts and in a person's Fuse it takes over
mid-level, and plays levels 1-3 with the fewest keys."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from logo_bot.bot.play.plan_ahead import Expected
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.picture import Box
from logo_bot.bot.x11.pixels import window_image
from logo_bot.solvers.levels import load_level_list
from tests.bot.bot_process import bot_process
from tests.bot.desktop import desktop
from tests.bot.play.test_attach_fuse import (
    PROFILE,
    Person,
    assert_played,
    assert_wrong_stone_taken_back,
    run_attached,
)
from tests.bot.play.test_desktop_fuse import FAST, walkthrough
from tests.gtk_look import FAMILIES, desktop_settings, fonts_conf

pytestmark = pytest.mark.fuse

MENU = {"dejavu": 25, "noto": 27}  # fuse-gtk's menu bar, as tall as its font makes it
LOOKS = {  # a person's Fuse at 2x, unless said ("person": how they started it)
    "noto": {"family": "noto"},
    "large-font": {"settings": {"font": "DejaVu Sans 16"}, "person": {"scale": 3}},
    "dark-theme": {"env": {"GTK_THEME": "Adwaita:dark"}, "person": {"scale": 1}},
    # a person's Fuse takes the desktop's scale (the bot's own keeps its picture whole)
    "hidpi": {"settings": {"scale": 2}, "person": {"gtk_scale": None, "scale": 1}},
}


@contextlib.contextmanager
def looking(look: str, display: str, folder: Path, monkeypatch) -> Iterator[None]:
    """The desktop's look for what starts on ``display`` meanwhile."""
    wanted = LOOKS[look]
    if "family" in wanted:
        conf = fonts_conf(folder, FAMILIES[wanted["family"]])
        monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    for name, value in wanted.get("env", {}).items():
        monkeypatch.setenv(name, value)
    with contextlib.ExitStack() as stack:
        if "settings" in wanted:
            stack.enter_context(desktop_settings(display, folder, **wanted["settings"]))
        yield


def menu_bar(person: Person, rows: int) -> np.ndarray:
    """The top ``rows`` of the person's Fuse window, read from the window itself."""
    dpy = open_display(person.fuse.display)
    try:
        window = dpy.create_resource_object("window", person.fuse.window_id)
        return window_image(window, Box(0, 0, person.grabber.region.width, rows))
    finally:
        dpy.close()


def assert_the_look_took(look: str, person: Person) -> None:
    """The look changed fuse-gtk's menu bar as a person's desktop would (so the test is
    one): its height (where the picture was found below it), or its colour."""
    menu = person.grabber.box.top
    assert person.grabber.found, "the person's picture was found"
    assert person.grabber.box.smooth == (2 if look == "hidpi" else 1), person.grabber.box
    if look == "noto":
        assert menu == MENU["noto"], menu
    elif look in ("large-font", "hidpi"):
        assert menu > MENU["dejavu"] + 5, menu
    else:
        assert menu >= MENU["dejavu"], menu
        bar = menu_bar(person, menu // 2)
        assert bar.mean() < 100, f"a dark menu bar, not {bar.mean():.0f} on average"


def assert_fewest_keys(run: dict, first: int = 1, lessons: int = 0) -> None:
    """Each level from ``first`` on was planned from its start with the level file's
    fewest presses and played with each key of the plan sent once, and in all at most
    ``lessons`` keys more (an attached run tries the alternate keys once: one key)."""
    levels = load_level_list(PROFILE.resolve(PROFILE.game["levels"]))
    fewest = {lv.number: Expected.of(lv).fewest for lv in levels}
    extra = 0
    for entry in run["levels"]:
        if entry["level"] < first:
            continue
        assert entry["planned_presses"] == entry["lower_bound"] == fewest[entry["level"]], entry
        # a press a starved Fuse lost on a busy machine is mended, and costs its keys; a
        # misread (a wrong stone, a cursor seen where it is not) never passes
        mended = entry["corrections"]
        assert set(mended) <= {"cursor", "lost_action"}, entry
        extra += entry["keys_sent"] - entry["planned_presses"] - 2 * sum(mended.values())
    assert extra <= lessons, extra


@pytest.mark.parametrize("look", list(LOOKS))
def test_a_fuse_gtk_the_bot_starts_on_a_desktop_of_another_look(look, tmp_path, monkeypatch):
    with desktop("openbox") as server, looking(look, server.display, tmp_path, monkeypatch):
        args = [*walkthrough(server.display, tmp_path, "--fuse", "gtk", "--no-video"), *FAST]
        args[args.index("1-2")] = "1-3"
        with bot_process(args) as bot:
            _, err = bot.communicate(timeout=150)
        assert bot.returncode == 0, err[-3000:]
    (folder,) = [p for p in tmp_path.iterdir() if p.is_dir() and p.name.endswith("walkthrough")]
    run = json.loads((folder / "run.json").read_text())
    assert [lv["status"] for lv in run["levels"]] == ["done"] * 3
    assert_fewest_keys(run)


@pytest.mark.parametrize("look", list(LOOKS))
def test_a_persons_fuse_gtk_on_a_desktop_of_another_look_is_taken_over(look, tmp_path, monkeypatch):
    with desktop("openbox") as server, looking(look, server.display, tmp_path, monkeypatch):
        person = Person(
            server.display, **{"scale": 2, "build": "gtk", **LOOKS[look].get("person", {})}
        )
        try:
            person.to_level_1()
            assert_the_look_took(look, person)
            person.place((4, 5), (1, 1), then=(6, 10))  # a stone of a plan, and a wrong one
            code, err, run = run_attached(server, tmp_path / "runs", "--levels", "1-3", *FAST)
            assert person.fuse.alive()
        finally:
            person.close()
    assert_played(code, err, run, 3)
    assert_wrong_stone_taken_back(run)
    assert_fewest_keys(run, first=2, lessons=1)
    assert run["session"]["scale"] == person.scale, "read at the scale the person chose"
