"""Which running Fuse is a native Wayland window, read from each process's environment in
a stand-in for /proc (a headless run's fuse-sdl, an X client of the bot's own Xvfb that
inherited WAYLAND_DISPLAY, must not be taken for one by ``--attach``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from logo_bot.bot.fuse.attached import native_wayland_fuses, running_fuses

SESSION = "wayland-1"


def process(proc: Path, pid: int, program: str, **environ: str) -> None:
    entry = proc / str(pid)
    entry.mkdir()
    (entry / "comm").write_text(program + "\n")
    (entry / "environ").write_bytes(b"".join(f"{k}={v}\0".encode() for k, v in environ.items()))


@pytest.fixture
def proc(tmp_path: Path) -> Path:
    """Processes of this user: Fuses of either build, in the session or not, and others."""
    root = tmp_path / "proc"
    root.mkdir()
    (root / "self").mkdir()
    session = {"WAYLAND_DISPLAY": SESSION, "XDG_RUNTIME_DIR": "/run/user/1000"}
    # a headless run's Fuse: an X client of the bot's Xvfb, started in the session
    process(root, 301, "fuse-sdl", DISPLAY=":57", SDL_VIDEODRIVER="x11", **session)
    process(root, 302, "fuse-gtk", DISPLAY=":57", GDK_BACKEND="x11", **session)
    # X clients of the session's XWayland, as both builds are by default
    process(root, 303, "fuse-gtk", DISPLAY=":0", **session)
    process(root, 304, "fuse-gtk", DISPLAY=":0", GDK_BACKEND="x11,wayland", **session)
    # native Wayland windows
    process(root, 401, "fuse-gtk", DISPLAY=":0", GDK_BACKEND="wayland", **session)
    process(root, 402, "fuse-gtk", GDK_BACKEND="wayland,x11", **session)
    process(root, 403, "fuse-gtk", **session)  # no X display at all
    process(root, 404, "fuse-sdl", DISPLAY=":0", SDL_VIDEODRIVER="wayland", **session)
    # a native one of another session, and programs that are not Fuse
    process(root, 501, "fuse-gtk", GDK_BACKEND="wayland", WAYLAND_DISPLAY="wayland-9")
    process(root, 502, "fuse", DISPLAY=":0", **session)
    process(root, 503, "bash", **session)
    return root


def test_every_fuse_of_this_user_is_listed_lowest_pid_first(proc):
    found = [(f.pid, f.program) for f in running_fuses(proc)]
    assert [pid for pid, _ in found] == [301, 302, 303, 304, 401, 402, 403, 404, 501]
    assert dict(found)[301] == "fuse-sdl" and dict(found)[303] == "fuse-gtk"


def test_an_x_client_of_any_display_is_no_native_wayland_fuse(proc):
    assert [f.pid for f in native_wayland_fuses(SESSION, proc)] == [401, 402, 403, 404]


def test_without_a_session_every_native_one_counts(proc):
    assert [f.pid for f in native_wayland_fuses(None, proc)] == [401, 402, 403, 404, 501]
