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
    assert [v for kind, v in steps if kind != "wait"] == [
        ["space"],
        ["2"],
        ["5"],
        ["enter"],
        ["7"],
        "ANN 2",
        ["enter"],
    ]


def test_sequence_with_a_code_types_it_before_the_name():
    steps = expand_steps(START.sequence, tables(), "ANN", "baked")
    typed = [v for kind, v in steps if kind != "wait"]
    assert typed[typed.index(["7"]) - 3 : typed.index(["7"])] == [["6"], "BAKED", ["enter"]]


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


def test_run_steps_presses_and_waits_in_emulated_time():
    waits = []
    keys = Recorder()
    steps = [("keys", ["space"]), ("wait", 2.0), ("keys", ["2", "5"])]
    assert run_steps(keys, steps, frame_s=0.01, sleep=waits.append) == 3
    assert keys.sent == ["space", "2", "5"]
    assert waits == [pytest.approx(2.0 * 50.08 * 0.01)]


class Field:
    """A menu input field that loses chosen key presses (for type_checked)."""

    def __init__(self, lose=(), accept_at=None):
        self.text = ""
        self.lose = set(lose)
        self.count = 0
        self.accept_at = accept_at

    def press(self, key):
        self.count += 1
        if self.count in self.lose:
            return
        if key == "delete":
            self.text = self.text[:-1]
        else:
            self.text += " " if key == "space" else key.upper()


class FieldKeys(Recorder):
    def __init__(self, field):
        super().__init__()
        self.field = field

    def _send(self, key, down):
        if down:
            self.field.press(key)


def checker(field, accepted=None):
    from bot.menus import TypedText

    class Screens:
        def text_at(self, frame, spot):
            if spot.text:  # the accepted mark
                return spot.text if field.text == accepted else ""
            return field.text.ljust(spot.width, "_")

    from bot.profile import TextSpot

    mark = TextSpot(20, 9, "CODE ACCEPTED", 13) if accepted else None
    return TypedText(Screens(), lambda: None, TextSpot(18, 15, "", 10), mark)


def test_typed_text_is_read_back_and_a_lost_letter_typed_again():
    from bot.menus import type_checked

    field = Field(lose={1})  # the L is lost
    sent = type_checked(FieldKeys(field), "LOGOBOT", checker(field), frame_s=0.0001)
    assert field.text == "LOGOBOT"
    assert sent == 7 + 6 + 7  # typed, OGOBOT deleted, typed again


def test_a_letter_lost_at_the_end_is_just_added():
    from bot.menus import type_checked

    field = Field(lose={5})
    assert type_checked(FieldKeys(field), "BIHIZ", checker(field), 0.0001) == 6
    assert field.text == "BIHIZ"


def test_an_accepted_code_needs_no_more_reading():
    from bot.menus import type_checked

    field = Field()
    assert type_checked(FieldKeys(field), "BIHIZ", checker(field, "BIHIZ"), 0.0001) == 5


def test_a_menu_that_never_takes_the_text_is_an_error():
    from bot.menus import type_checked

    field = Field(lose=set(range(1, 200)))
    with pytest.raises(BotError, match="did not take 'ANN'"):
        type_checked(FieldKeys(field), "ANN", checker(field), 0.0001)
