"""Quick checks that a file really is a whole Spectrum snapshot or tape, before Fuse sees it.

Fuse silently ignores a snapshot it cannot read and boots the ROM instead (it only
prints, say, "read_v2_block: not enough data in buffer"), so a bad or cut-short file
must be caught here with a message that names it. The snapshot checks walk the
structure each format defines: the .z80 header and memory blocks, the .szx blocks,
the .sna size.
"""

from __future__ import annotations

import zlib
from pathlib import Path

PAGE = 16384  # bytes in a memory page
SNA_SIZES = {49179, 131103, 147487}  # 48K; 128K, and 128K with a repeated page
CUT = "the file is cut short"

Z80_HEADER = 30
Z80_EXTRA_HEADERS = {23: 2, 54: 3, 55: 3}  # extra header length -> version
Z80_MEMORY_48K = 3 * PAGE
Z80_48K_PAGES = (4, 5, 8)  # the 48K RAM pages of a version 2 or 3 file
Z80_48K_MACHINES = {2: {0, 1, 2}, 3: {0, 1, 2, 3}}  # hardware modes that are a 48K Spectrum
Z80_END_MARKER = b"\x00\xed\xed\x00"  # ends the memory of a compressed version 1 file
SLT_SIGNATURE = b"\x00\x00\x00SLT"  # level data after the memory (an extension)

SZX_HEADER = 8  # 'ZXST', version (2 bytes), machine, flags
SZX_BLOCK_HEADER = 8  # block id (4 bytes), length (4 bytes)


def snapshot_problem(path: Path) -> str | None:
    """Why ``path`` is not a whole, loadable snapshot, or None if it looks fine."""
    kind = path.suffix.lower()
    check = {".z80": z80_problem, ".szx": szx_problem, ".sna": sna_problem}.get(kind)
    if check is None:
        return f"unknown snapshot type {kind!r} (use .z80, .szx or .sna)"
    return check(path.read_bytes())


def sna_problem(data: bytes) -> str | None:
    if len(data) in SNA_SIZES:
        return None
    sizes = f"an .sna snapshot is 49179 bytes (48K) or 131103 or 147487 (128K), not {len(data)}"
    return f"{sizes}: {CUT}" if len(data) < max(SNA_SIZES) else sizes


def z80_problem(data: bytes) -> str | None:
    """The .z80 header, then its memory: one 48K block (version 1) or 16K pages."""
    if len(data) < Z80_HEADER + 1:
        return f"a .z80 snapshot has a 30-byte header and memory, this file is {len(data)} bytes"
    pc = data[6] | data[7] << 8
    if pc != 0:
        return _z80_v1_memory_problem(data)
    if len(data) < Z80_HEADER + 2:
        return f"the .z80 file ends inside its header: {CUT}"
    extra = data[Z80_HEADER] | data[Z80_HEADER + 1] << 8
    if extra not in Z80_EXTRA_HEADERS:
        return f"the .z80 extra header length is {extra}, expected 23, 54 or 55"
    start = Z80_HEADER + 2 + extra
    if len(data) < start:
        return f"the .z80 file ends inside its {extra}-byte extra header: {CUT}"
    machine = data[Z80_HEADER + 4]
    pages = _z80_pages(data, start)
    if isinstance(pages, str):
        return pages
    if machine in Z80_48K_MACHINES[Z80_EXTRA_HEADERS[extra]]:
        missing = [page for page in Z80_48K_PAGES if page not in pages]
        if missing:
            names = ", ".join(str(page) for page in missing)
            what = "pages" if len(missing) > 1 else "page"
            return f"the .z80 file has no memory block for {what} {names} of the 48K: {CUT}"
    return None


def _z80_v1_memory_problem(data: bytes) -> str | None:
    """Version 1: 48K of memory after the header, compressed when flag bit 5 is set."""
    flags = 1 if data[12] == 255 else data[12]  # 255 stands for 1 (old files)
    memory = data[Z80_HEADER:]
    if not flags & 0x20:
        if len(memory) < Z80_MEMORY_48K:
            return (
                f"the .z80 memory is {Z80_MEMORY_48K} bytes, the file has {len(memory)} "
                f"after its header: {CUT}"
            )
        return None
    end = memory.find(Z80_END_MARKER)
    if end < 0:
        return f"the .z80 compressed memory has no end marker (00 ED ED 00): {CUT}"
    size = unpacked_size(memory[:end])
    if size != Z80_MEMORY_48K:
        return f"the .z80 compressed memory unpacks to {size} bytes, not {Z80_MEMORY_48K}"
    return None


def _z80_pages(data: bytes, pos: int) -> set[int] | str:
    """The pages of a version 2 or 3 file's memory blocks, or what is wrong with them."""
    pages: set[int] = set()
    while pos < len(data):
        if data[pos : pos + len(SLT_SIGNATURE)] == SLT_SIGNATURE:
            break  # level data follows the memory: Fuse reads it on its own terms
        if pos + 3 > len(data):
            return f"the .z80 file ends inside a memory block's header at byte {pos}: {CUT}"
        length = data[pos] | data[pos + 1] << 8
        page = data[pos + 2]
        body = pos + 3
        stored = PAGE if length == 0xFFFF else length  # 0xFFFF: the page uncompressed
        if body + stored > len(data):
            return (
                f"the .z80 memory block of page {page} at byte {pos} needs {stored} bytes, "
                f"the file has {len(data) - body} left: {CUT}"
            )
        if length != 0xFFFF and (size := unpacked_size(data[body : body + stored])) != PAGE:
            return f"the .z80 memory block of page {page} unpacks to {size} bytes, not {PAGE}"
        pages.add(page)
        pos = body + stored
    return pages


def unpacked_size(packed: bytes) -> int:
    """The length of .z80-compressed ``packed`` unpacked: ED ED n b is n bytes b, any
    other byte is itself."""
    size = pos = 0
    while pos < len(packed):
        if packed[pos : pos + 2] == b"\xed\xed" and pos + 4 <= len(packed):
            size += packed[pos + 2]
            pos += 4
        else:
            size += 1
            pos += 1
    return size


def szx_problem(data: bytes) -> str | None:
    """The 'ZXST' header, then blocks that each fit in the file; RAM pages unpack to 16K."""
    if data[:4] != b"ZXST":
        return "an .szx snapshot starts with 'ZXST'"
    if len(data) < SZX_HEADER:
        return f"the .szx file ends inside its header: {CUT}"
    pos = SZX_HEADER
    while pos < len(data):
        if pos + SZX_BLOCK_HEADER > len(data):
            return f"the .szx file ends inside a block's header at byte {pos}: {CUT}"
        name = data[pos : pos + 4].decode("latin-1")
        length = int.from_bytes(data[pos + 4 : pos + 8], "little")
        body = data[pos + SZX_BLOCK_HEADER : pos + SZX_BLOCK_HEADER + length]
        if len(body) < length:
            return (
                f"the .szx block {name!r} at byte {pos} is {length} bytes, the file has "
                f"{len(body)} left: {CUT}"
            )
        if name == "RAMP" and (problem := _szx_page_problem(body, pos)):
            return problem
        pos += SZX_BLOCK_HEADER + length
    return None


def _szx_page_problem(body: bytes, pos: int) -> str | None:
    """A RAM page block: flags (bit 0: zlib-compressed), page number, the page."""
    if len(body) < 3:
        return f"the .szx RAM page block at byte {pos} is {len(body)} bytes, too short for one"
    compressed, page, memory = body[0] & 1, body[2], body[3:]
    if compressed:
        try:
            memory = zlib.decompress(memory)
        except zlib.error:
            return f"the .szx RAM page {page} at byte {pos} does not unpack (zlib): it is damaged"
    if len(memory) != PAGE:
        return f"the .szx RAM page {page} at byte {pos} is {len(memory)} bytes, not {PAGE}"
    return None


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
