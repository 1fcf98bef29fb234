"""An abort key that another program has taken is refused before anything starts: no run
folder, no Fuse."""

from __future__ import annotations

from Xlib import XK, X

from logo_bot.bot.x11.display import open_display
from tests.bot.bot_process import bot_process


def test_a_taken_abort_key_is_refused_before_the_run_folder_or_fuse(xserver, tmp_path):
    other = open_display(xserver.display)  # another program, holding F12 for itself
    try:
        f12 = other.keysym_to_keycode(XK.string_to_keysym("F12"))
        other.screen().root.grab_key(f12, X.AnyModifier, True, X.GrabModeAsync, X.GrabModeAsync)
        other.sync()
        args = ["walkthrough", "--levels", "1", "--display", xserver.display]
        args += ["--abort-key", "F12", "--video-dir", str(tmp_path / "runs")]
        with bot_process(args) as process:
            _, err = process.communicate(timeout=60)
    finally:
        other.close()
    assert process.returncode == 2, err
    assert err == (
        "logo-bot walkthrough: error: another program has taken the F12 key, so it cannot "
        "abort the bot\n  what to do: choose another with --abort-key KEY (or --abort-key none)\n"
    )
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
