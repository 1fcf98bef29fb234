"""A window that covers part of the screen without taking the focus, like a desktop
notification (override-redirect: no window manager places, frames or focuses it), and
counts the key events that reach it (none must)."""

from __future__ import annotations

from Xlib import X

from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.window import Region


class CoverWindow:
    """An override-redirect window over ``area`` of ``display``; ``show``/``hide`` map
    and unmap it."""

    def __init__(self, display: str, area: Region) -> None:
        self.dpy = open_display(display)
        screen = self.dpy.screen()
        self.window = screen.root.create_window(
            area.left,
            area.top,
            area.width,
            area.height,
            0,
            screen.root_depth,
            background_pixel=screen.black_pixel,
            override_redirect=True,
            event_mask=X.KeyPressMask | X.KeyReleaseMask,
        )
        self.window.set_wm_name("logo-bot cover")
        self.keys = 0

    def show(self) -> None:
        self.window.map()
        self.window.configure(stack_mode=X.Above)
        self.dpy.sync()

    def hide(self) -> None:
        self.window.unmap()
        self.dpy.sync()

    def keys_received(self) -> int:
        """Key events this window has received so far."""
        self.dpy.sync()
        while self.dpy.pending_events():
            if self.dpy.next_event().type in (X.KeyPress, X.KeyRelease):
                self.keys += 1
        return self.keys

    def close(self) -> None:
        self.window.destroy()
        self.dpy.close()

    def __enter__(self) -> CoverWindow:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
