import pytest

from bot.errors import BotError
from bot.menus import expand_steps, run_steps
from bot.profile import load_profile
from tests.bot.fake_game import FakeKeys

START = load_profile("practice").start


def tables():
    return {"code": START.code}


def test_sequence_without_a_code_skips_the_code_steps():
    steps = expand_steps(START.sequence, tables(), "ANN 2", None)
    keys = [k for kind, v in steps if kind == "keys" for k in v]
    assert keys == ["space", "2", "5", "enter", "7", "a", "n", "n", "space", "2", "enter"]


def test_sequence_with_a_code_types_it_before_the_name():
    steps = expand_steps(START.sequence, tables(), "ANN", "BAKED")
    keys = [k for kind, v in steps if kind == "keys" for k in v]
    assert keys[: keys.index("7")][-7:] == ["6", "b", "a", "k", "e", "d", "enter"]


def test_bad_steps_are_named():
    with pytest.raises(BotError, match="unknown steps 'x'"):
        expand_steps([{"steps": "x"}], {}, "A", None)
    with pytest.raises(BotError, match="must have key, text, wait or steps"):
        expand_steps([{"jump": 1}], {}, "A", None)


class Recorder(FakeKeys):
    def __init__(self):
        self.sent = []
        super().__init__(game=None)

    def _send(self, key, down):
        if down:
            self.sent.append(key)
        return True


def test_run_steps_presses_and_waits_in_emulated_time():
    waits = []
    keys = Recorder()
    steps = [("keys", ["space"]), ("wait", 2.0), ("keys", ["2", "5"])]
    assert run_steps(keys, steps, frame_s=0.01, sleep=waits.append) == 3
    assert keys.sent == ["space", "2", "5"]
    assert waits == [pytest.approx(2.0 * 50.08 * 0.01)]
