"""The display checks of ``logo-bot doctor``: which display runs would use (X11,
XWayland, Wayland only, none) and whether it opens, its window manager, how keys reach
Fuse there, and the Fuse windows open to attach to (or a native-Wayland Fuse that cannot
be). python-xlib and the bot's X modules are imported inside the checks that use them."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from logo_bot.bot.commands.machine_checks import ATTACHED, ON_DISPLAY, Check
from logo_bot.bot.errors import BotError

if TYPE_CHECKING:
    from Xlib.display import Display

    from logo_bot.bot.x11.display import XServer


@dataclass(frozen=True)
class DisplayState:
    """The display runs "on this display" and attached runs use."""

    name: str | None  # $DISPLAY
    kind: str  # "X11", "XWayland", "Wayland only" or "none"
    refused: str = ""  # why runs there are refused (XServer.existing's message), or ""


def display_kind(server: XServer | None = None) -> str:
    """X11, XWayland, Wayland only, or none: what the X server says it is when it opened
    (``server``, whose kind XServer.existing found from the XWAYLAND extension or its
    outputs), else what the session's environment says."""
    from logo_bot.bot.x11.xwayland import DisplayType, wayland_session

    if server is not None:
        return "XWayland" if server.kind is DisplayType.XWAYLAND else "X11"
    if not os.environ.get("DISPLAY"):
        return "Wayland only" if wayland_session() else "none"
    return "XWayland" if wayland_session() else "X11"


def display_state(name: str | None = None) -> DisplayState:
    """The display ``name`` (``$DISPLAY`` when None) opened once, as a run on it would
    (``XServer.existing``)."""
    from logo_bot.bot.x11.display import XServer

    name = name or os.environ.get("DISPLAY") or None
    if name is None:
        return DisplayState(None, display_kind(), "DISPLAY is empty")
    try:
        server = XServer.existing(name)
    except BotError as exc:
        return DisplayState(name, display_kind(), f"{exc}{f' ({exc.hint})' if exc.hint else ''}")
    return DisplayState(name, display_kind(server))


def window_manager(dpy: Display) -> str | None:
    """The name the running window manager gives itself (_NET_SUPPORTING_WM_CHECK), or None."""
    from Xlib import X

    root = dpy.screen().root
    check = root.get_full_property(dpy.intern_atom("_NET_SUPPORTING_WM_CHECK"), X.AnyPropertyType)
    if not check or not check.value:
        return None
    window = dpy.create_resource_object("window", int(check.value[0]))
    name = window.get_full_property(dpy.intern_atom("_NET_WM_NAME"), X.AnyPropertyType)
    if not name or not name.value:
        return "unnamed"
    value = name.value
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def on_display(state: DisplayState) -> list[Check]:
    """The display, how keys reach Fuse there, and the Fuse windows open to attach to."""
    from logo_bot.bot.x11.display import open_display
    from logo_bot.bot.x11.window import build_of, fuse_windows

    blocks = frozenset({ON_DISPLAY, ATTACHED})
    title = f"display {state.name}" if state.name else "display"
    if state.refused:
        fix = "do: run headless (--headless), or log in to an X11 desktop"
        refused = Check(title, False, f"{state.kind}: {state.refused}", fix, blocks)
        native = native_fuse(state.name or "")  # named even where no X display opens
        return [refused] if native is None else [refused, native]
    dpy = open_display(state.name or "")
    try:
        wm = window_manager(dpy)
        xtest = dpy.has_extension("XTEST")
        windows = [f"{w.id:#x} (fuse-{build_of(w)})" for w in fuse_windows(dpy)]
    finally:
        dpy.close()
    checks = [Check(title, True, f"{state.kind}, window manager: {wm or 'none'}")]
    # keys go to Fuse's window by default (core XSendEvent); XTEST serves --keys xtest only
    also = "also through XTest (--keys xtest)" if xtest else "no XTEST here: not --keys xtest"
    checks.append(Check("keys", True, f"sent to Fuse's window; {also}"))
    if not windows:
        checks.append(no_fuse_window(state.name or ""))
    elif len(windows) > 1:
        checks.append(Check("Fuse window", True, f"{', '.join(windows)}: --window ID picks one"))
    else:
        checks.append(Check("Fuse window", True, f"{windows[0]}: --attach takes it over"))
    return checks


def no_fuse_window(display: str) -> Check:
    """No Fuse window on ``display``: none open, or in a Wayland session one that is a
    native Wayland window (``--attach`` refuses it alike)."""
    fix = "do: start your Fuse with the game on this display to use --attach"
    none = Check("Fuse window", False, "none open", fix, frozenset({ATTACHED}))
    return native_fuse(display) or none


def native_fuse(display: str) -> Check | None:
    """A Fuse of this Wayland session that is a native Wayland window, which the bot
    can neither see nor press keys in (``display``: the X display it is not on, or "")."""
    from logo_bot.bot.commands.fuse_window import wayland_fuses
    from logo_bot.bot.x11.xwayland import X_CLIENT_FUSE

    native = wayland_fuses(display)
    if not native:
        return None
    fuse = native[0]
    detail = (
        f"{f'none on {display}' if display else 'no X display'}: {fuse.program} (pid "
        f"{fuse.pid}) is a native Wayland window, which the bot can neither see nor press "
        "keys in"
    )
    fix = f"do: close it and start it as an X client: {X_CLIENT_FUSE}"
    return Check("Fuse window", False, detail, fix, frozenset({ATTACHED}))
