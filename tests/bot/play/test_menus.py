import pytest

from logo_bot.bot.errors import BotError, MenuFailed
from logo_bot.bot.frames import FPS
from logo_bot.bot.play.menus import MenuDriver, Step, expand_steps, flat_keys
from logo_bot.bot.profile import load_profile
from tests.bot.fake_menu import FakeMenu

START = load_profile("practice").start


def tables():
    return {"code": START.code}


def steps_for(code=None, level=None, name="ANN"):
    return expand_steps(START.sequence, tables(), name, code, level)


def test_sequence_without_a_code_skips_the_code_steps():
    keys = flat_keys(steps_for(name="ANN 2"))
    assert keys == ["space", "4", "5", "enter", "7", "a", "n", "n", "space", "2", "enter"]


def test_sequence_with_a_code_types_it_before_the_name_and_checks_the_level():
    steps = steps_for("BAKED", 6)
    keys = flat_keys(steps)
    assert keys[: keys.index("7")][-7:] == ["6", "b", "a", "k", "e", "d", "enter"]
    group = next(s for s in steps if s.group)
    assert group.retries > 0
    assert group.group[-1] == Step(check="menu_start_level", equals="6")
    assert steps[0] == Step(keys=("space",), until="menu")


def test_bad_steps_are_named():
    with pytest.raises(BotError, match="unknown steps 'x'"):
        expand_steps([{"steps": "x"}], {}, "A", None)
    with pytest.raises(BotError, match="must have key, text, wait, check or steps"):
        expand_steps([{"jump": 1}], {}, "A", None)


def test_clean_keys_go_through_once():
    game = FakeMenu()
    driver = MenuDriver(game, wait_frames=lambda n: None)
    driver.run(steps_for("CUNEB", 51))
    assert game.state == "level" and game.start_level == 51 and game.name == "ANN"
    # every key once, but the ENTER that would end a code entry left open
    assert game.presses == len(flat_keys(steps_for("CUNEB", 51))) - 1
    assert driver.corrections == 0


@pytest.mark.parametrize("seed", range(40))
def test_lost_and_doubled_menu_keys_are_corrected(seed):
    game = FakeMenu(drop=0.2, double=0.05, seed=seed)
    driver = MenuDriver(game, wait_frames=lambda n: None)
    driver.run(steps_for("CUNEB", 51, name="LOGOBOT"))
    assert game.state == "level" and game.start_level == 51
    assert game.name == "LOGOBOT", "the name is read back and corrected too"
    clean = len(flat_keys(steps_for("CUNEB", 51, name="LOGOBOT"))) - 1
    assert (driver.corrections > 0) == (game.presses > clean)


def test_a_wrong_code_fails_with_what_the_screen_said():
    game = FakeMenu()
    driver = MenuDriver(game, wait_frames=lambda n: None)
    with pytest.raises(MenuFailed, match=r"menu_start_level field reads '001', not '51'"):
        driver.run(steps_for("WRONG", 51))
    assert driver.corrections == 15 and game.state == "menu"


def test_a_screen_that_never_comes_is_a_clear_failure():
    game = FakeMenu(drop=1.0)
    driver = MenuDriver(game, wait_frames=lambda n: None, tries=4)
    with pytest.raises(MenuFailed, match="pressed space 4 times, but the menu screen did not"):
        driver.run(steps_for())
    assert game.presses == 4


def test_waits_are_in_emulated_time():
    waits = []
    game = FakeMenu()
    MenuDriver(game, wait_frames=waits.append).run([Step(wait=2.0)])
    assert waits == [pytest.approx(2.0 * FPS)]


class ShortPressesLost(FakeMenu):
    """A game that reads its keys every few frames: a press held shorter than ``needs``
    (in the driver's ``slower`` steps) is never seen."""

    needs = 2
    held = 0

    def key(self, key):
        if self.held >= self.needs:
            super().key(key)


def test_a_key_that_has_no_effect_is_pressed_again_held_longer():
    import contextlib

    game = ShortPressesLost()
    tries = []

    @contextlib.contextmanager
    def slower(n):
        tries.append(n)
        game.held = n
        try:
            yield
        finally:
            game.held = 0

    driver = MenuDriver(game, wait_frames=lambda n: None, slower=slower)
    driver.run(steps_for(name="LOGOBOT"))
    assert game.state == "level" and game.name == "LOGOBOT"
    assert max(tries) == 2 and driver.corrections > 0
    # without holding longer the same game never gets past the title
    with pytest.raises(MenuFailed):
        MenuDriver(ShortPressesLost(), wait_frames=lambda n: None).run(steps_for())
