"""The lossy key wrapper: seeded, counted, and faithful to what it claims."""

import time
from collections import Counter

from faults.hog import CpuHog
from faults.lossy_keys import FaultyKeys, KeyFaults
from logo_bot.bot.x11.keys import KeyDriver, KeyTiming


class Recording(KeyDriver):
    def __init__(self):
        super().__init__(KeyTiming(0, 0))
        self.events = []

    def check_focus(self):
        return None

    def _send(self, key, down):
        self.events.append((key, down))
        return True


def presses(driver):
    return [key for key, down in driver.events if down]


def test_no_faults_passes_every_key_once():
    inner = Recording()
    keys = FaultyKeys(inner, KeyFaults())
    keys.burst(["q", "a", "o", "p", "space"])
    assert presses(inner) == ["q", "a", "o", "p", "space"]
    assert not keys.counts


def test_drops_and_doubles_are_counted_and_seeded():
    def run(seed):
        inner = Recording()
        keys = FaultyKeys(inner, KeyFaults(drop=0.2, double=0.05, seed=seed))
        keys.burst(["p"] * 2000)
        return inner, keys.counts

    inner, counts = run(7)
    sent = len(presses(inner))
    assert sent == 2000 - counts["dropped"] + counts["doubled"]
    assert 300 < counts["dropped"] < 500 and 50 < counts["doubled"] < 150
    assert all(down is False for _, down in inner.events[1::2]), "every press is released"
    again, counts_again = run(7)
    assert again.events == inner.events and counts_again == counts
    assert run(8)[1] != counts


def test_latency_delays_presses():
    inner = Recording()
    keys = FaultyKeys(inner, KeyFaults(latency_ms=20, seed=1))
    started = time.perf_counter()
    keys.burst(["q"] * 10)
    assert time.perf_counter() - started > 0.03
    assert keys.counts["delayed"] == 10 and len(presses(inner)) == 10


def test_counts_can_be_shared_across_drivers():
    shared = Counter()
    for _ in range(2):
        FaultyKeys(Recording(), KeyFaults(drop=1.0), counts=shared).burst(["q"] * 3)
    assert shared["dropped"] == 6


def test_cpu_hog_runs_busy_processes_and_stops_them_by_pid():
    with CpuHog(2) as hog:
        processes = list(hog.processes)
        pids = [p.pid for p in processes]
        assert len(pids) == 2
        time.sleep(0.3)
        for pid in pids:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            assert fields[0] == "R" or int(fields[11]) > 0, "busy: running, or has used CPU"
    assert all(p.returncode is not None for p in processes), "stopped and reaped"
    assert not hog.processes


def test_taps_until_drops_a_press_unseen_and_doubles_one_after_it_was_seen():
    """A dropped press is never sent, so never seen: the burst ends there. A doubled
    press is tapped again once the first was seen."""
    inner = Recording()
    keys = FaultyKeys(inner, KeyFaults(drop=0.1, double=0.5, seed=1))
    taps = keys.taps_until(["p", "a", "o", "q"] * 5, lambda i: True, longest_ms=1)
    sent = presses(inner)
    assert keys.counts["dropped"] == 1, "the burst ends at the first press dropped"
    assert keys.counts["doubled"] >= 1
    assert len(sent) == taps.seen + keys.counts["doubled"]
    assert taps.pressed == taps.seen + 1


class FocusGoesAfter(Recording):
    """Fuse loses the focus for good after ``presses`` presses were sent (a long wait)."""

    def __init__(self, presses: int):
        super().__init__()
        self.left = presses

    def _send(self, key, down):
        if down and self.left == 0:
            return False
        self.left -= down
        return super()._send(key, down)

    def regain_focus(self):
        return 60.0  # waited a minute: the burst is cut


def test_a_doubled_press_cut_by_a_lost_focus_ends_the_burst_quietly():
    """The doubled press's own tap finds the focus gone: the burst ends, as a cut burst
    does, instead of the cut escaping to the player."""
    inner = FocusGoesAfter(presses=1)
    keys = FaultyKeys(inner, KeyFaults(double=1.0, seed=1))
    taps = keys.taps_until(["p", "a"], lambda i: True, longest_ms=1)
    assert (taps.pressed, taps.seen) == (1, 1)
    assert presses(inner) == ["p"]
