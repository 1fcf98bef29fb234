"""The bot: see -> plan -> press -> check, around the real Fuse emulator."""
