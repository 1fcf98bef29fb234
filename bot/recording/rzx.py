"""RZX input recordings: how many frames they hold, and cutting out a stretch of them.

An RZX file is a 10-byte header ("RZX!", version, flags) and blocks of
(id, length including the 5-byte block header, body). Snapshot blocks (0x30) hold the
machine state, input recording blocks (0x80) the frames: per frame a fetch counter, an
IN counter (0xFFFF: repeat the previous frame's values) and the values read from ports.
skoolkit's ``rzxplay.py --stop N`` writes the state after frame N followed by the
frames after it; ``truncate`` then keeps only as many frames as are wanted.
"""

from __future__ import annotations

import contextlib
import io
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

from logo_bot.bot.errors import RzxError

SNAPSHOT, INPUT = 0x30, 0x80
COMPRESSED, ENCRYPTED = 2, 1
REPEAT = 0xFFFF


@dataclass(frozen=True)
class Block:
    kind: int
    data: bytes  # the whole block, header included

    @property
    def body(self) -> bytes:
        return self.data[5:]


def read_blocks(path: Path) -> tuple[bytes, list[Block]]:
    """The file header and every block of the RZX file ``path``."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RzxError(f"cannot read the RZX recording {path}: {exc.strerror}") from None
    if data[:4] != b"RZX!" or len(data) < 10:
        raise RzxError(f"{path} is not an RZX recording")
    blocks = []
    at = 10
    while at + 5 <= len(data):
        kind, length = data[at], struct.unpack_from("<I", data, at + 1)[0]
        if length < 5 or at + length > len(data):
            raise RzxError(f"{path} is damaged: block at byte {at} runs past the end")
        blocks.append(Block(kind, data[at : at + length]))
        at += length
    return data[:10], blocks


def frame_count(path: Path) -> int:
    """The number of emulated frames recorded in ``path``."""
    _, blocks = read_blocks(path)
    return sum(struct.unpack_from("<I", b.body, 0)[0] for b in blocks if b.kind == INPUT)


def _frames(block: Block) -> tuple[list[bytes], int, int]:
    """(frame records, initial T-states, flags) of an input recording block."""
    count, _reserved, tstates, flags = struct.unpack_from("<IBII", block.body, 0)
    if flags & ENCRYPTED:
        raise RzxError("the RZX recording is encrypted (competition mode) and cannot be cut")
    payload = block.body[13:]
    if flags & COMPRESSED:
        payload = zlib.decompress(payload)
    records = []
    at = 0
    for _ in range(count):
        ins = struct.unpack_from("<H", payload, at + 2)[0]
        size = 4 + (0 if ins == REPEAT else ins)
        records.append(payload[at : at + size])
        at += size
    return records, tstates, flags


def _input_block(records: list[bytes], tstates: int, flags: int) -> bytes:
    payload = b"".join(records)
    if flags & COMPRESSED:
        payload = zlib.compress(payload, 9)
    body = struct.pack("<IBII", len(records), 0, tstates, flags) + payload
    return struct.pack("<BI", INPUT, 5 + len(body)) + body


def truncate(source: Path, frames: int, target: Path, pad: int = 0) -> int:
    """Write ``target``: ``source`` with only its first ``frames`` frames (and the blocks
    before them), then ``pad`` more frames repeating the last one's input; returns the
    frames written. (Fuse's movie of a playback lacks the picture of the last frame, so
    one frame of padding makes it show every recorded frame.)"""
    header, blocks = read_blocks(source)
    out = [header]
    kept = 0
    inputs = [i for i, b in enumerate(blocks) if b.kind == INPUT]
    for index, block in enumerate(blocks):
        if kept >= frames:
            break
        if block.kind != INPUT:
            out.append(block.data)
            continue
        records, tstates, flags = _frames(block)
        last = kept + len(records) >= frames or index == inputs[-1]
        if not last or (kept + len(records) == frames and not pad):
            out.append(block.data)
            kept += len(records)
            continue
        records = records[: frames - kept]
        kept += len(records)
        if records and pad:
            repeat = records[-1][:2] + struct.pack("<H", REPEAT)
            records += [repeat] * pad
        out.append(_input_block(records, tstates, flags))
    Path(target).write_bytes(b"".join(out))
    return kept + (pad if kept else 0)


def cut(source: Path, start: int, end: int, target: Path, pad: int = 0) -> int:
    """Write ``target``: the machine state after frame ``start`` of ``source`` (found by
    replaying it with skoolkit's rzxplay), frames ``start``..``end`` - 1 and ``pad``."""
    total = frame_count(source)
    if not 0 <= start < end <= total:
        raise RzxError(f"frames {start}..{end} are not inside the recording ({total} frames)")
    if start == 0:
        return truncate(source, end, target, pad)
    tail = Path(target).with_suffix(".tail.rzx")
    try:
        _rzxplay(["--no-screen", "--quiet", "--stop", str(start), str(source), str(tail)])
        return truncate(tail, end - start, target, pad)
    finally:
        tail.unlink(missing_ok=True)


def _rzxplay(args: list[str]) -> None:
    """Run skoolkit's rzxplay in this process (its messages are not shown)."""
    from skoolkit import SkoolKitError, rzxplay

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            rzxplay.main(args)
        except SkoolKitError as exc:
            raise RzxError(f"skoolkit could not replay the recording: {exc}") from None
