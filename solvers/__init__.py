"""Pure-Python model and planner for Logo: Part 1 (no I/O, never imports the bot)."""
