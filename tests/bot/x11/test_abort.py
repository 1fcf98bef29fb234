"""The abort key setting."""

import pytest

from logo_bot.bot.errors import UsageError
from logo_bot.bot.x11.abort import check_abort_key

GAME = {"q", "a", "o", "p", "space", "r", "enter"}


@pytest.mark.parametrize("name", ["Pause", "F12", "F11", "Scroll_Lock"])
def test_keys_the_spectrum_lacks_are_fine(name):
    assert check_abort_key(name, GAME) == name


@pytest.mark.parametrize("name", ["none", "off", ""])
def test_none_means_no_abort_key(name):
    assert check_abort_key(name, GAME) is None


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("F1", "Fuse's own menu keys"),
        ("f10", "Fuse's own menu keys"),
        ("space", "the game uses that key"),
        ("x", "the game uses that key"),
        ("NoSuchKey", "X knows no key of that name"),
    ],
)
def test_keys_fuse_or_the_game_need_are_refused(name, words):
    with pytest.raises(UsageError, match=words):
        check_abort_key(name, GAME)
