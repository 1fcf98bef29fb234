"""benchmarks/cpu_parts.py: each part's CPU time, and the code put back afterwards."""

from __future__ import annotations

import time

from benchmarks.cpu_parts import Parts

MODULE = __name__


class Base:
    def shared(self) -> int:
        return 1


class Worker(Base):
    def busy(self, seconds: float) -> int:
        end, spins = time.thread_time() + seconds, 0
        while time.thread_time() < end:
            spins += 1
        return spins

    def idle(self, seconds: float) -> None:
        time.sleep(seconds)


def helper() -> str:
    return "helped"


PARTS = (
    (MODULE, "Worker.busy", "busy", ""),
    (MODULE, "Worker.idle", "idle", ""),
    (MODULE, "Worker.shared", "shared", ""),
    (MODULE, "helper", "helper", ""),
)


def test_a_part_is_charged_its_cpu_time_and_a_wait_costs_nothing():
    parts = Parts(PARTS)
    worker = Worker()
    with parts.timed():
        assert worker.busy(0.05) > 0
        worker.busy(0.05)
        worker.idle(0.2)
        assert worker.shared() == 1 and helper() == "helped"
    busy, idle = parts.spent["busy"], parts.spent["idle"]
    assert busy.calls == 2 and 0.1 <= busy.seconds < 0.5
    assert idle.calls == 1 and idle.seconds < 0.05, "a sleep is not CPU"
    assert parts.spent["shared"].calls == 1 and parts.spent["helper"].calls == 1
    table = parts.table(1.0)
    assert table.splitlines()[2].startswith("| busy |"), "the costliest part first"


def test_the_parts_are_put_back_afterwards_an_inherited_method_too():
    before = (Worker.__dict__["busy"], helper)
    with Parts(PARTS).timed():
        assert "shared" in Worker.__dict__ and Worker.busy is not before[0]
    assert Worker.__dict__["busy"] is before[0] and helper is before[1]
    assert "shared" not in Worker.__dict__, "the inherited method is Base's again"
    assert Worker().shared() == 1
