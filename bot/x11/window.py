"""Finding Fuse windows on an X display (either build, under any window manager), their
geometry, and the windows stacked over them (python-xlib)."""

from __future__ import annotations

from dataclasses import dataclass

from Xlib import X
from Xlib import display as xdisplay
from Xlib.error import XError
from Xlib.ext import res
from Xlib.protocol import request

from logo_bot.bot.errors import DisplayError, Unreadable

FUSE_CLASSES = ("fuse-sdl", "fuse-gtk")
MIN_SIDE = 100  # fuse-gtk keeps an unmapped 10x10 client of its class: not the picture


@dataclass(frozen=True)
class Region:
    """A rectangle in root-window coordinates."""

    left: int
    top: int
    width: int
    height: int

    def intersects(self, other: Region) -> bool:
        return (
            self.left < other.left + other.width
            and other.left < self.left + self.width
            and self.top < other.top + other.height
            and other.top < self.top + self.height
        )


def window_pid(dpy: xdisplay.Display, window_id: int) -> int | None:
    """The PID of the local client that created ``window_id`` (X-Resource), if known."""
    mask = dpy.display.info.resource_id_mask
    base = window_id & ~mask
    try:
        reply = dpy.res_query_client_ids([{"client": base, "mask": res.LocalClientPIDMask}])
    except XError:
        return None
    for entry in reply.ids:
        if entry.spec.mask == res.LocalClientPIDMask and entry.value:
            return int(entry.value[0])
    return None


def _wm_class(window) -> tuple[str, ...]:
    try:
        return tuple(window.get_wm_class() or ())
    except XError:
        return ()


def _walk(window):
    """``window`` and every window below it, depth first (windows that vanish are skipped)."""
    try:
        children = window.query_tree().children
    except XError:
        return
    for child in children:
        yield child
        yield from _walk(child)


def _shown(window) -> bool:
    """Mapped and viewable, and larger than GTK's hidden helper windows."""
    try:
        if window.get_attributes().map_state != X.IsViewable:
            return False
        geometry = window.get_geometry()
    except XError:
        return False
    return geometry.width >= MIN_SIDE and geometry.height >= MIN_SIDE


def fuse_windows(dpy: xdisplay.Display) -> list:
    """Every shown window of class ``fuse-sdl`` or ``fuse-gtk``, at any depth of the window
    tree (window managers nest client windows two or three levels below the root)."""
    found = []
    for window in _walk(dpy.screen().root):
        wm_class = _wm_class(window)
        if wm_class and wm_class[0] in FUSE_CLASSES and _shown(window):
            found.append(window)
    return found


def build_of(window) -> str:
    """``"gtk"`` or ``"sdl"``: which Fuse build made ``window``."""
    return "gtk" if "fuse-gtk" in _wm_class(window) else "sdl"


def fuse_window_of(dpy: xdisplay.Display, pid: int | None = None):
    """The one Fuse window (of process ``pid`` when given); None when there is none or
    when, without a PID, several Fuse windows make the choice ambiguous."""
    windows = fuse_windows(dpy)
    if pid is not None:
        windows = [w for w in windows if window_pid(dpy, w.id) == pid]
    return windows[0] if len(windows) == 1 else None


def describe_window(dpy: xdisplay.Display, window) -> str:
    """``0x400007 "Fuse - 100%" (fuse-gtk) 640x532 at (320, 246)``."""
    try:
        r = region_of(dpy, window)
    except XError:
        return f"{window.id:#x} (gone)"
    wm_class = _wm_class(window)
    kind = f" ({wm_class[0]})" if wm_class else ""
    where = f"{r.width}x{r.height} at ({r.left}, {r.top})"
    return f'{window.id:#x} "{window_title(window)}"{kind} {where}'


def choose_window(dpy: xdisplay.Display, name: str | None = None):
    """The Fuse window to use: the one named (``--window ID|TITLE``: an X window id in
    decimal or hex, or a title or part of one), else the only Fuse window on the display.
    Only Fuse windows are ever chosen: keys go to no other. ``DisplayError`` lists the
    candidates when there is none or more than one."""
    if name is None:
        candidates = fuse_windows(dpy)
        what = "Fuse windows"
    else:
        candidates = _named(dpy, name)
        what = f"Fuse windows matching --window {name!r}"
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise DisplayError(
            f"no {what} on this display",
            hint="start Fuse with the game (fuse-sdl or fuse-gtk), or name its window with "
            "--window ID|TITLE (xwininfo shows ids and titles)",
        )
    listing = "; ".join(describe_window(dpy, w) for w in candidates)
    raise DisplayError(
        f"{len(candidates)} {what}: {listing}",
        hint="name one with --window ID (the first number above) or close the others",
    )


def _named(dpy: xdisplay.Display, name: str) -> list:
    """The Fuse windows ``name`` names: the window of that id (or the one Fuse window
    inside it, such as a window manager's frame), else those titled ``name``, else those
    whose title holds it."""
    fuse = fuse_windows(dpy)
    try:
        wanted = int(name, 0)
    except ValueError:
        wanted = None
    if wanted is not None:
        return [w for w in fuse if w.id == wanted or is_within(dpy, w.id, wanted)]
    exact = [w for w in fuse if window_title(w) == name]
    if exact:
        return exact
    return [w for w in fuse if name.lower() in window_title(w).lower()]


def region_of(dpy: xdisplay.Display, window) -> Region:
    """Where ``window``'s client area lies on the root window."""
    geometry = window.get_geometry()
    pos = window.translate_coords(dpy.screen().root, 0, 0)
    return Region(-pos.x, -pos.y, geometry.width, geometry.height)


def top_level(dpy: xdisplay.Display, window):
    """The child of the root that holds ``window`` (a window manager's frame, or itself)."""
    root_id = dpy.screen().root.id
    while True:
        parent = window.query_tree().parent
        if parent is None or parent.id == root_id or parent.id == 0:
            return window
        window = parent


def is_within(dpy: xdisplay.Display, window_id: int, ancestor_id: int) -> bool:
    """``window_id`` is ``ancestor_id`` or one of its descendants (GTK gives the focus to a
    1x1 child of its client window)."""
    root_id = dpy.screen().root.id
    current = window_id
    while current and current != root_id:
        if current == ancestor_id:
            return True
        try:
            parent = dpy.create_resource_object("window", current).query_tree().parent
        except XError:
            return False
        current = parent.id if parent else 0
    return False


def covering(dpy: xdisplay.Display, window, area: Region) -> list[Region]:
    """Mapped windows stacked above ``window``'s top-level window that overlap ``area``
    (root coordinates): another program's window raised over Fuse, a notification, a menu.
    Input-only windows draw nothing and do not count."""
    top = top_level(dpy, window)
    stack = dpy.screen().root.query_tree().children  # bottom to top
    ids = [w.id for w in stack]
    if top.id not in ids:
        return []
    above = stack[ids.index(top.id) + 1 :]
    # every window's question is sent before the first answer is read: one round trip
    # for all of them (a window manager stacks a dozen unmapped windows over Fuse)
    shown = [
        w
        for w, a in zip(above, _answers(dpy, request.GetWindowAttributes, above), strict=True)
        if a is not None and a.map_state == X.IsViewable and a.win_class != X.InputOnly
    ]
    over = []
    for g in _answers(dpy, request.GetGeometry, shown):
        if g is None:
            continue
        border = g.border_width
        region = Region(g.x, g.y, g.width + 2 * border, g.height + 2 * border)
        if region.intersects(area):
            over.append(region)
    return over


def _answers(dpy: xdisplay.Display, kind, windows: list) -> list:
    """``kind`` (a request taking a window or drawable) asked of every window in
    ``windows`` at once; each answer, or None for a window that has gone meanwhile."""
    field = "drawable" if kind is request.GetGeometry else "window"
    asked = [kind(display=dpy.display, defer=True, **{field: w}) for w in windows]
    answers: list = []
    for question in asked:
        try:
            question.reply()
        except XError:
            answers.append(None)
            continue
        answers.append(question)
    return answers


def window_title(window) -> str:
    try:
        name = window.get_wm_name()
    except XError:
        return ""
    return name.decode("latin-1") if isinstance(name, bytes) else (name or "")


def ask_to_close(dpy: xdisplay.Display, window_id: int) -> None:
    """Send ``window_id`` a WM_DELETE_WINDOW message, as a window manager's close button does
    (fuse-gtk ignores SIGTERM but closes cleanly on this)."""
    from Xlib.protocol import event

    window = dpy.create_resource_object("window", window_id)
    protocols = dpy.intern_atom("WM_PROTOCOLS")
    message = event.ClientMessage(
        window=window,
        client_type=protocols,
        data=(32, [dpy.intern_atom("WM_DELETE_WINDOW"), X.CurrentTime, 0, 0, 0]),
    )
    window.send_event(message, event_mask=X.NoEventMask)
    dpy.sync()


def beyond_screen(
    dpy: xdisplay.Display, window: Region, left: int, top: int, width: int, height: int
) -> Unreadable | None:
    """Where the area (``left``, ``top``, ``width``, ``height``) of ``window`` lies partly
    beyond the screen, which has no pixels there on a plain X server (i3 floats a
    person's 3x fuse-sdl so): the error that names the fix; else None."""
    screen = dpy.screen()
    w, h = screen.width_in_pixels, screen.height_in_pixels
    x, y = window.left + left, window.top + top
    if 0 <= x <= w - width and 0 <= y <= h - height:
        return None
    return Unreadable(
        f"the Fuse window ({window.width}x{window.height} at {window.left},{window.top}) "
        f"reaches beyond the screen ({w}x{h}), and the screen has no picture there",
        hint="move the Fuse window so that all of it shows on the screen (or choose a "
        "smaller scale in Fuse), then run the bot again",
    )
