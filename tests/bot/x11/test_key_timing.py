"""Key timing: hold and gap from the previous event, and rollover between different keys."""

import time
from itertools import pairwise

import pytest

from bot.x11.keys import KeyDriver, KeyTiming


class Timed(KeyDriver):
    def __init__(self, timing):
        super().__init__(timing)
        self.events = []

    def check_focus(self):
        return None

    def _send(self, key, down):
        self.events.append((key, down, time.perf_counter()))
        return True


def waits_before_presses(driver):
    """Milliseconds between each release and the next press."""
    out = []
    for (_, down, t), (_, down_next, t_next) in pairwise(driver.events):
        if not down and down_next:
            out.append((t_next - t) * 1000)
    return out


def test_without_rollover_every_press_waits_the_gap():
    keys = Timed(KeyTiming(10, 30))
    keys.burst(["p", "a", "p", "p", "space"])
    assert [k for k, down, _ in keys.events if down] == ["p", "a", "p", "p", "space"]
    assert all(w >= 29 for w in waits_before_presses(keys))


def test_with_rollover_only_a_key_pressed_again_waits():
    keys = Timed(KeyTiming(10, 30, rollover=True))
    keys.burst(["p", "a", "p", "p", "space"])
    waits = waits_before_presses(keys)
    assert len(waits) == 4
    assert waits[0] < 10 and waits[1] < 10 and waits[3] < 10  # p->a, a->p, p->space
    assert waits[2] >= 29  # p->p: the game must see p up in between
    holds = [
        (t_up - t_down) * 1000
        for (_, down, t_down), (_, _, t_up) in zip(keys.events[::2], keys.events[1::2], strict=True)
    ]
    assert all(h >= 9 for h in holds) and all(not d for _, d, _ in keys.events[1::2])


def test_rollover_carries_across_bursts():
    keys = Timed(KeyTiming(10, 30, rollover=True))
    keys.burst(["p"])
    keys.burst(["space"])
    keys.burst(["space"])
    assert waits_before_presses(keys)[0] < 10 and waits_before_presses(keys)[1] >= 29


@pytest.mark.parametrize("rollover", [False, True])
def test_typed_text_always_waits_the_gap(rollover):
    keys = Timed(KeyTiming(5, 30, rollover=rollover))
    keys.type_text("load")
    assert all(w >= 29 for w in waits_before_presses(keys))


def test_the_key_clock_times_holds_gaps_and_events():
    keys = Timed(KeyTiming(10, 30))
    before = keys.clock.snapshot()
    keys.burst(["p", "p", "a"])
    parts = keys.clock.since(before)
    assert keys.clock.events == 6  # a press and a release each
    assert parts["keys_held"] >= 3 * 0.0095
    assert parts["keys_up"] >= 2 * 0.029  # the first press follows no recent release
    assert 0 < parts["key_events"] < parts["keys_held"]
