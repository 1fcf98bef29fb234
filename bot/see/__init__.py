"""See: read the game from a frame through a profile (boards, cursor, screens, text).

Pure numpy on frames; imports only ``bot.errors``, ``bot.frames`` and
``bot.profile`` from the bot.
"""
