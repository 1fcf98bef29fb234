"""Logo as a Gymnasium environment over the real Fuse: importing ``logo_bot.gym``
registers ``Logo-v0`` (``gymnasium.make("logo_bot.gym:Logo-v0", level=..., speed=...)``).

May import every bot layer and ``solvers``; nothing in the bot imports it."""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from logo_bot.gym.env import LogoGym

ENV_ID = "Logo-v0"

if ENV_ID not in registry:
    # the game is deterministic, but it runs in real time: the time left a step reads
    # depends on how long the machine took (Gymnasium's checker then skips the repeats)
    register(id=ENV_ID, entry_point="logo_bot.gym.env:LogoGym", nondeterministic=True)

__all__ = ["ENV_ID", "LogoGym"]
