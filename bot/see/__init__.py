"""See: read the game from a frame through a profile (boards, cursor, screens, text).

Pure numpy on frames; imports only ``bot.errors`` and ``bot.profile`` from the bot.
"""
