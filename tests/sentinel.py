"""A small X window that counts every key event it receives (a focus thief for tests)."""

from __future__ import annotations

from Xlib import X

from bot.xserver import open_display


class Sentinel:
    """An override-redirect-free, mapped 100x100 window that can take the input focus."""

    def __init__(self, display: str) -> None:
        self._dpy = open_display(display)
        screen = self._dpy.screen()
        self.window = screen.root.create_window(
            400,
            400,
            100,
            100,
            0,
            screen.root_depth,
            event_mask=X.KeyPressMask | X.KeyReleaseMask | X.StructureNotifyMask,
        )
        self.window.set_wm_class("logo-bot-sentinel", "Sentinel")
        self.window.map()
        self._dpy.sync()
        self._received = 0

    def take_focus(self) -> None:
        self.window.set_input_focus(X.RevertToParent, X.CurrentTime)
        self._dpy.sync()

    def keys_received(self) -> int:
        """How many key presses and releases reached this window so far."""
        while self._dpy.pending_events():
            event = self._dpy.next_event()
            if event.type in (X.KeyPress, X.KeyRelease):
                self._received += 1
        return self._received

    def close(self) -> None:
        self.window.destroy()
        self._dpy.close()

    def __enter__(self) -> Sentinel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
