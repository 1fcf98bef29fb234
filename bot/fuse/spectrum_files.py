"""Quick checks that a file really is a Spectrum snapshot or tape, before Fuse sees it.

Fuse silently ignores a snapshot it cannot read and boots the ROM instead, so a bad
file must be caught here with a message that names it.
"""

from __future__ import annotations

from pathlib import Path

SNA_SIZES = {49179, 131103, 147487}


def snapshot_problem(path: Path) -> str | None:
    """Why ``path`` is not a loadable 48K snapshot, or None if it looks fine."""
    data = path.read_bytes()[:64]
    size = path.stat().st_size
    kind = path.suffix.lower()
    if kind == ".szx":
        return None if data[:4] == b"ZXST" else "an .szx snapshot starts with 'ZXST'"
    if kind == ".sna":
        return None if size in SNA_SIZES else f"an .sna snapshot is 49179 bytes, not {size}"
    if kind == ".z80":
        if size < 30 + 1:
            return f"a .z80 snapshot has a 30-byte header and memory, this file is {size} bytes"
        pc = data[6] | data[7] << 8
        if pc == 0:  # version 2/3: an extra header follows
            extra = data[30] | data[31] << 8 if len(data) > 31 else 0
            if extra not in (23, 54, 55):
                return f"the .z80 extra header length is {extra}, expected 23, 54 or 55"
        return None
    return f"unknown snapshot type {kind!r} (use .z80, .szx or .sna)"


def tape_problem(path: Path) -> str | None:
    """Why ``path`` is not a tape image, or None if it looks fine."""
    data = path.read_bytes()
    kind = path.suffix.lower()
    if kind == ".tzx":
        return None if data[:8] == b"ZXTape!\x1a" else "a .tzx tape starts with 'ZXTape!'"
    if kind == ".tap":
        pos = blocks = 0
        while pos < len(data):
            if pos + 2 > len(data):
                return f"the .tap file ends inside a block header at byte {pos}"
            length = data[pos] | data[pos + 1] << 8
            pos += 2 + length
            blocks += 1
        if pos != len(data) or blocks == 0:
            return "the .tap block lengths do not add up to the file size"
        return None
    return f"unknown tape type {kind!r} (use .tap or .tzx)"
