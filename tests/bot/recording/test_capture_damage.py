"""The screen capture of attached runs grabs only once the window was drawn in: a slot
with nothing drawn since the last grab gets the same picture again, without asking X."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from logo_bot.bot.recording.screen_capture import grab_opener
from tests.bot.canvas import RED, Canvas, canvas_on


@pytest.fixture
def canvas(xserver) -> Iterator[Canvas]:
    with canvas_on(xserver.display) as canvas:
        yield canvas


def test_a_slot_with_nothing_drawn_reuses_the_last_grab(canvas, xserver):
    grab, close = grab_opener(xserver.display, canvas.id)()
    try:
        first = grab()
        assert grab() is first, "grabbed again with nothing drawn"
        canvas.paint(RED)
        changed = grab()
        assert changed is not first
        assert tuple(changed[5, 5]) == (255, 0, 0) and not np.array_equal(changed, first)
        assert grab() is changed
    finally:
        close()
