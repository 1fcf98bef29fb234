"""Fixtures of the player's tests."""

import pytest

from logo_bot.bot import interrupts
from logo_bot.bot.play import env as env_module
from logo_bot.bot.play import player as player_module
from logo_bot.bot.play.time_spent import IDLE
from logo_bot.bot.x11 import keys as keys_module
from tests.bot.fake_game import VirtualTime


@pytest.fixture
def clock(monkeypatch) -> VirtualTime:
    """Virtual time for the player, its environment, the key driver, their waits
    (``interrupts.sleep``) and the fake game given ``clock.monotonic``: a wait moves it
    on at once, by what was asked."""
    clock = VirtualTime()
    for module in (player_module, env_module, keys_module, interrupts):
        monkeypatch.setattr(module, "time", clock)
    monkeypatch.setattr(interrupts, "select", clock)  # its sleep's ``select.select``
    observation = env_module.Observation  # stamped with the virtual time, not the wall's

    def observed(frame, vision, screens=None, spent=IDLE):
        return observation(frame, vision, screens, clock.monotonic(), spent)

    monkeypatch.setattr(env_module, "Observation", observed)
    return clock
