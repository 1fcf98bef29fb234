"""The end of a tape's loading, seen on the border: a fake Fuse on a fake clock."""

from __future__ import annotations

import numpy as np
import pytest

from logo_bot.bot.errors import EmulatorError
from logo_bot.bot.fuse import tape_end
from logo_bot.bot.fuse.tape_end import TapeEnd, loading_stripes

PLAIN = (192, 192, 192)


def picture(striped: bool, scale: int = 1) -> np.ndarray:
    frame = np.zeros((240 * scale, 320 * scale, 3), np.uint8)
    frame[:] = PLAIN
    if striped:  # bands of red and cyan down the border, as the ROM's pilot tone draws
        for row in range(0, 240 * scale, 6):
            frame[row : row + 3] = (192, 0, 0) if row % 12 else (0, 192, 192)
    return frame


STRIPED, CLEAR = picture(True), picture(False)


class FakeTape:
    """A border striped during ``blocks`` (wall seconds from 0), on a clock that moves
    only when the watcher waits."""

    def __init__(self, blocks: list[tuple[float, float]], per_s: float = 100.0) -> None:
        self.blocks = blocks
        self.per_s = per_s
        self.now = 0.0
        self.looks = 0

    def striped(self) -> bool:
        return any(a <= self.now < b for a, b in self.blocks)

    def look(self) -> np.ndarray:
        self.looks += 1
        return STRIPED if self.striped() else CLEAR

    def wait_drawn(self, until: float) -> bool:
        """Until the border changes (a block starts or ends) or ``until``."""
        changes = [t for block in self.blocks for t in block if t > self.now]
        self.now = min([until, *changes])
        return self.now < until

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clocked(monkeypatch):
    def make(blocks, per_s=100.0, longest_s=300.0, tape=True):
        fake = FakeTape(blocks, per_s)
        monkeypatch.setattr(tape_end.time, "monotonic", lambda: fake.now)
        monkeypatch.setattr(tape_end.interrupts, "sleep", fake.sleep)
        end = TapeEnd(fake.look, fake.wait_drawn, lambda: fake.per_s, 1, longest_s, tape=tape)
        return fake, end

    return make


def test_stripes_are_told_from_a_plain_border_at_every_scale():
    for scale in (1, 2, 3):
        assert loading_stripes(picture(True, scale), scale)
        assert not loading_stripes(picture(False, scale), scale)
    game = picture(False)
    game[40:200, 40:280] = (0, 0, 0)  # the picture inside the border does not count
    assert not loading_stripes(game, 1)


def test_without_a_tape_it_waits_the_frames_asked_and_looks_little(clocked):
    fake, end = clocked([])
    assert end.wait(300) is False
    assert fake.now == pytest.approx(3.0)  # 300 frames at 100 a second
    assert fake.looks <= 3


def test_a_gap_between_blocks_is_not_the_end(clocked):
    # header 0-1 s, a plain gap of 0.6 s, data 1.6-9 s: the wait ends 3 s after the data
    fake, end = clocked([(0.0, 1.0), (1.6, 9.0)])
    assert end.wait(300) is True
    assert fake.now == pytest.approx(12.0, abs=0.02)


def test_a_slow_fuse_is_waited_for_longer(clocked):
    fake, end = clocked([(0.0, 2.0)], per_s=50.0)  # Fuse at half the speed asked
    assert end.wait(300) is True
    assert fake.now == pytest.approx(8.0, abs=0.04)


def test_a_tape_that_never_ends_is_an_error_that_says_so(clocked):
    fake, end = clocked([(0.0, 1e9)], longest_s=30.0)
    with pytest.raises(EmulatorError, match="loading stripes for 30 s") as info:
        end.wait(300)
    assert "check the tape" in info.value.hint
    assert 30.0 < fake.now < 30.1


def test_stripes_in_a_snapshot_run_are_no_tape_and_said_soon(clocked, caplog):
    """A run given a snapshot loads no tape: a border that keeps changing there is not the
    game's picture, said after ``no_tape_s``, never as a tape loading."""
    fake, end = clocked([(0.0, 1e9)], tape=False)
    caplog.set_level("INFO", logger=tape_end.__name__)
    with pytest.raises(EmulatorError, match="snapshot, not a tape") as info:
        end.wait(300)
    assert "logo-bot show" in info.value.hint
    assert end.no_tape_s < fake.now < end.no_tape_s + 0.1
    assert "tape" not in caplog.text


def test_stripes_in_a_persons_fuse_are_not_called_a_tape(clocked, caplog):
    _, end = clocked([(0.0, 25.0)], tape=None)
    caplog.set_level("INFO", logger=tape_end.__name__)
    assert end.wait(300) is True
    assert "the border shows loading stripes (10 s so far)" in caplog.text
    assert "the tape is loading" not in caplog.text
