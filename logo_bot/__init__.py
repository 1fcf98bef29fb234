"""logo-bot's one import name.

Its parts are ``logo_bot.bot``, ``logo_bot.solvers``, ``logo_bot.calibration`` (the
profiles) and ``logo_bot.gym`` (the Gymnasium environment), and, installed,
``logo_bot/game/`` (the built practice game, as data). In a checkout the parts are the
folders at the repository's top, and ``logo_bot/bot``, ``logo_bot/solvers``,
``logo_bot/calibration`` and ``logo_bot/gym`` are links to them, so that Python, type
checkers and editors all find ``from logo_bot.bot.x11 import keys`` in the folder itself;
a wheel holds the files in their place.
"""
