"""logo-bot's one import name.

Installed (a wheel), this package holds the bot's parts: ``logo_bot.bot``,
``logo_bot.solvers``, ``logo_bot.calibration`` (the profiles), ``logo_bot.gym`` (the
Gymnasium environment) and ``logo_bot/game/`` (the built practice game, as data). In a
checkout those parts are the folders at the repository's top, beside this one, and they
join this package here, so the code reads the same in both: ``from logo_bot.bot.x11 import keys``.
"""

from __future__ import annotations

from pathlib import Path

_TOP = Path(__file__).resolve().parent.parent


def _in_checkout(top: Path) -> bool:
    """Whether ``top`` is logo-bot's own repository (never site-packages, where another
    distribution's ``bot`` or ``solvers`` may sit)."""
    try:
        text = (top / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return False
    return 'name = "logo-bot"' in text and (top / "bot" / "__init__.py").is_file()


if _in_checkout(_TOP):
    __path__.append(str(_TOP))
