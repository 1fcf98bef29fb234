"""Key timing: hold and gap from the previous event, and rollover between different keys."""

import time
from itertools import pairwise

import pytest

from logo_bot.bot.x11.keys import KeyDriver, KeyTiming


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


def test_taps_until_holds_each_key_until_it_is_seen():
    """Each key stays down until ``seen`` says so, the next going down at once after it."""
    keys = Timed(KeyTiming(10, 30, rollover=True))
    looks = {0: 3, 1: 1, 2: 5}  # looks until each key is seen

    def seen(i):
        looks[i] -= 1
        return looks[i] == 0

    taps = keys.taps_until(["p", "a", "p"], seen, longest_ms=500)
    assert (taps.pressed, taps.seen) == (3, 3)
    assert [(k, d) for k, d, _ in keys.events] == [
        ("p", True),
        ("p", False),
        ("a", True),
        ("a", False),
        ("p", True),
        ("p", False),
    ]
    assert all(n == 0 for n in looks.values())
    assert all(w < 10 for w in waits_before_presses(keys))  # no fixed hold, no gap


def test_taps_until_lets_go_of_a_key_not_seen_and_ends_the_burst():
    keys = Timed(KeyTiming(10, 30, rollover=True))
    started = time.perf_counter()
    taps = keys.taps_until(["p", "a", "p"], lambda i: i == 0, longest_ms=30)
    assert (taps.pressed, taps.seen) == (2, 1)
    assert [(k, d) for k, d, _ in keys.events] == [
        ("p", True),
        ("p", False),
        ("a", True),
        ("a", False),
    ]
    (_, _, down), (_, _, up) = keys.events[2:]
    assert (up - down) * 1000 >= 29  # held for the longest, then let go
    assert time.perf_counter() - started < 1
    assert keys.held() == frozenset()


def test_taps_until_waits_the_gap_before_the_same_key_again():
    keys = Timed(KeyTiming(10, 30, rollover=True))
    keys.taps_until(["p", "p"], lambda i: True, longest_ms=100)
    assert waits_before_presses(keys)[0] >= 29


def test_time_spent_looking_is_not_counted_as_held():
    keys = Timed(KeyTiming(10, 30, rollover=True))

    def slow_look(i):
        time.sleep(0.02)
        return True

    keys.taps_until(["p"], slow_look, longest_ms=100)
    (_, _, down), (_, _, up) = keys.events
    assert (up - down) >= 0.02 and keys.clock.held_s < 0.01


def seen_at_third_look():
    """A ``seen`` for one key that says yes at its third look, and its looks left."""
    looks = {0: 3}

    def seen(i):
        looks[i] -= 1
        return looks[i] == 0

    return looks, seen


class Frames:
    """A picture watch whose every wait says Fuse drew (no wait for a real drawing)."""

    def __init__(self):
        self.waits = 0

    def wait(self, until, also=()):
        self.waits += 1
        return True


def test_a_wait_that_says_drawn_is_not_asked_again_before_the_look():
    """With a picture watch, a key held until seen looks once its wait says Fuse drew:
    one question to the watch before the first look, then one wait between looks."""
    keys = Timed(KeyTiming(10, 30, rollover=True))
    keys.picture = Frames()
    looks, seen = seen_at_third_look()
    taps = keys.taps_until(["p"], seen, longest_ms=500)
    assert (taps.pressed, taps.seen, looks[0]) == (1, 1, 0)
    assert keys.picture.waits == 3  # drawn since the press? then a wait per look


class EventStream(Timed):
    """A driver whose every wait for a drawing ends at once for an event of its own (as
    a stream of focus or window events on its connection would), saying only whether
    Fuse has drawn meanwhile."""

    def _wait_drawn(self, end):
        return self.picture.wait(time.monotonic())


def test_a_key_held_until_seen_is_still_looked_at_while_events_keep_waking_the_wait():
    keys = EventStream(KeyTiming(10, 30, rollover=True))
    keys.picture = Frames()
    looks, seen = seen_at_third_look()
    taps = keys.taps_until(["p"], seen, longest_ms=2000)
    assert (taps.pressed, taps.seen, looks[0]) == (1, 1, 0)


def test_with_a_picture_watch_the_first_look_waits_for_a_drawing_not_the_clock():
    """The watch says when Fuse drew: the first look does not sit out ``first_look_ms``
    (a sleep that cost a wake-up a key), while without a watch it does."""
    keys = Timed(KeyTiming(10, 30, rollover=True))
    keys.picture = Frames()
    looked = []

    def seen(i):
        looked.append(time.perf_counter())
        return True

    keys.taps_until(["p"], seen, longest_ms=60_000, first_look_ms=30_000)
    pressed = keys.events[0][2]
    assert keys.picture.waits == 1
    assert looked[0] - pressed < 10  # long before the 30 s a clock-timed first look waits

    unwatched = Timed(KeyTiming(10, 30, rollover=True))
    looked.clear()
    unwatched.taps_until(["p"], seen, longest_ms=500, first_look_ms=50)
    assert looked[0] - unwatched.events[0][2] >= 0.05
