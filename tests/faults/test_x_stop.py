"""faults/x_stop.py on a plain X server, without Fuse: a Python process that opens the
bot's cover watch gets its signal at exactly the N-th request of that connection, and
the key events it sends are logged as they reach the server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from faults import ROOT
from faults.display_left import answers, keys_down
from faults.x_stop import XStop, fired, keys_left_down, read_log, role_of, site_dir

PROGRAM = """
import sys
from Xlib import X
from Xlib.ext import xtest
from logo_bot.bot.x11.cover import CoverWatch
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.window import Region

dpy = open_display(sys.argv[1])
window = dpy.screen().root.create_window(0, 0, 50, 50, 0, X.CopyFromParent)
window.map()
xtest.fake_input(dpy, X.KeyPress, 38)
xtest.fake_input(dpy, X.KeyRelease, 38)
xtest.fake_input(dpy, X.KeyPress, 39)
dpy.sync()
xtest.fake_input(dpy, X.KeyRelease, 39)
dpy.sync()
watch = CoverWatch(sys.argv[1], window.id, lambda: Region(0, 0, 10, 10))
for _ in range(20):
    watch.over(fresh=True)
print("never stopped")
"""


def run(tmp_path: Path, stop: XStop, display: str) -> subprocess.CompletedProcess:
    env = stop.env(site_dir(tmp_path), ROOT)
    return subprocess.run(
        [sys.executable, "-c", PROGRAM, display],
        env={**os.environ, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_the_signal_comes_at_the_nth_request_of_the_chosen_connection(tmp_path, xserver):
    log = tmp_path / "x.jsonl"
    stop = XStop("cover", 36, "SIGTERM", log=log, trace=True)
    done = run(tmp_path, stop, xserver.display)
    assert done.returncode == -signal.SIGTERM, done.stdout + done.stderr
    entries = read_log(log)
    shot = fired(entries)
    assert shot is not None and (shot["conn"], shot["n"]) == ("cover", 36)
    before = entries[: entries.index(shot)]
    asked = [e["name"] for e in before if e["what"] == "request" and e["conn"] == "cover"]
    assert len(asked) == 36
    # the 16 of python-xlib's set-up on each of the watch's two connections (questions,
    # reports), the reports' choice of the root's events and their link's round trip as
    # it takes over, the first fresh answer's round trip (the link's own, written by the
    # bot: counted too), then its first question
    assert asked[-2:] == ["raw request 43", "QueryTree"]  # GetInputFocus on the link
    assert shot["name"] == "QueryTree"
    assert {e["conn"] for e in entries if e["what"] == "open"} == {"other", "cover"}
    assert answers(xserver.display) and keys_down(xserver.display) == []


def test_a_connection_that_never_asks_so_much_is_never_signalled(tmp_path, xserver):
    log = tmp_path / "x.jsonl"
    done = run(tmp_path, XStop("keys", 1, "SIGTERM", log=log), xserver.display)
    assert done.returncode == 0 and "never stopped" in done.stdout, done.stderr
    assert fired(read_log(log)) is None


def test_the_key_events_that_reached_the_server_are_logged(tmp_path, xserver):
    log = tmp_path / "x.jsonl"
    run(tmp_path, XStop(None, log=log), xserver.display)
    keys = [(e["code"], e["down"]) for e in read_log(log) if e["what"] == "key"]
    assert keys == [(38, True), (38, False), (39, True), (39, False)]
    assert keys_left_down(read_log(log)) == []


def test_a_press_without_its_release_is_a_key_left_down():
    log = [
        {"what": "key", "window": 5, "code": 38, "down": True},
        {"what": "key", "window": 5, "code": 39, "down": True},
        {"what": "key", "window": 5, "code": 38, "down": False},
    ]
    assert keys_left_down(log) == [(5, 39)]


def test_a_connection_is_named_by_the_bot_module_that_opened_it():
    def opened_in(path: str) -> str:
        code = compile("import sys; frame = sys._getframe()", path, "exec")
        space: dict = {}
        exec(code, space)
        return role_of(space["frame"])

    assert opened_in("/x/bot/x11/window_keys.py") == "keys"
    assert opened_in("/x/bot/x11/title_speed.py") == "title"
    assert opened_in("/x/bot/fuse/session.py") == "other"
    assert opened_in("/x/elsewhere.py") == "other"
