"""The requests ``bot.x11.packed`` packs with ``struct`` are byte for byte the ones
python-xlib packs field by field, and python-xlib sends them in order and hands their
errors to ``onerror``."""

from __future__ import annotations

import pytest
from Xlib import X
from Xlib.ext import damage
from Xlib.protocol import event, request

from logo_bot.bot.x11 import packed
from logo_bot.bot.x11.display import open_display


@pytest.mark.parametrize("down", [True, False])
@pytest.mark.parametrize(("keycode", "state", "time"), [(38, 0, 1), (255, 0x4D, 0xFFFFFFFF)])
def test_a_key_event_is_python_xlibs_send_event(down, keycode, state, time):
    kind = event.KeyPress if down else event.KeyRelease
    key = kind(
        time=time, root=0x1E5, window=0x400001, same_screen=1, child=X.NONE,
        root_x=0, root_y=0, event_x=0, event_y=0, state=state, detail=keycode,
    )  # fmt: skip
    theirs = request.SendEvent._request.to_binary(
        propagate=False, destination=0x400001, event_mask=0, event=key
    )
    assert packed.key_event(0x1E5, 0x400001, keycode, down, state, time) == theirs


def test_a_damage_subtract_is_python_xlibs():
    theirs = damage.DamageSubtract._request.to_binary(
        opcode=142, damage=0x600003, repair=X.NONE, parts=X.NONE
    )
    assert packed.damage_subtract(142, 0x600003) == theirs


def test_a_damage_destroy_is_python_xlibs():
    theirs = damage.DamageDestroy._request.to_binary(opcode=142, damage=0x600003)
    assert packed.damage_destroy(142, 0x600003) == theirs


@pytest.mark.xserver
def test_a_packed_key_reaches_the_window_and_an_error_goes_to_onerror(xserver):
    dpy = open_display(xserver.display)
    try:
        root = dpy.screen().root
        window = root.create_window(0, 0, 50, 50, 0, X.CopyFromParent, event_mask=X.KeyPressMask)
        dpy.sync()
        errors: list[object] = []
        packed.Packed(dpy.display, packed.key_event(root.id, window.id, 38, True, 0, 7))
        gone = window.id + 1000
        bad = packed.key_event(root.id, gone, 38, True, 0, 8)
        packed.Packed(dpy.display, bad, onerror=lambda error, req: errors.append(error) or True)
        dpy.sync()
        got = dpy.next_event()
        assert (got.type, got.detail, got.window.id, got.send_event) == (
            X.KeyPress,
            38,
            window.id,
            1,
        )
        assert len(errors) == 1 and errors[0].__class__.__name__ == "BadWindow"
        window.destroy()
    finally:
        dpy.close()


def test_the_round_trip_is_python_xlibs_get_input_focus():
    assert request.GetInputFocus._request.to_binary() == packed.GET_INPUT_FOCUS
