"""Snapshots cut short or damaged are refused before Fuse sees them (Fuse would print
"read_v2_block: not enough data in buffer" and boot the ROM instead), and whole ones
of every kind pass."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from logo_bot.bot.errors import InputError
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.fuse.spectrum_files import snapshot_problem, unpacked_size

ROOT = Path(__file__).resolve().parents[3]
PRACTICE = ROOT / "game" / "build" / "practice.z80"
CUT = "the file is cut short"


def saved(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def v1_header(compressed: bool) -> bytes:
    """A version 1 .z80 header: PC is not 0; flag bit 5 says the memory is compressed."""
    header = bytearray(30)
    header[6:8] = (0x8000).to_bytes(2, "little")
    header[12] = 0x20 if compressed else 0
    return bytes(header)


# 48K of zeros, .z80-compressed: 256 runs of 192 zeros (ED ED count byte)
ZERO_RUNS = b"\xed\xed\xc0\x00" * 256
END = b"\x00\xed\xed\x00"


def szx(tmp_path: Path) -> bytes:
    """An .szx snapshot as skoolkit writes it: KEYB, SPCR, Z80R and three RAMP blocks."""
    from skoolkit import bin2sna

    binary = saved(tmp_path, "p.bin", bytes(range(256)) * 20)
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        bin2sna.main(["-o", "32768", str(binary), str(tmp_path / "p.szx")])
    return (tmp_path / "p.szx").read_bytes()


def test_the_practice_snapshot_passes():
    assert snapshot_problem(PRACTICE) is None


@pytest.mark.parametrize(
    ("size", "words"),
    [
        (1000, "the .z80 memory block of page 4 at byte 86 needs 9555 bytes, the file has 911"),
        (31, "ends inside its header"),
        (60, "ends inside its 54-byte extra header"),
        (86, "no memory block for pages 4, 5, 8 of the 48K"),
        (88, "ends inside a memory block's header at byte 86"),
        (9907, "no memory block for page 8 of the 48K"),
        (-1, "the .z80 memory block of page 8"),
    ],
)
def test_a_z80_snapshot_cut_short_is_refused(tmp_path, size, words):
    """A file of the first 1000 bytes of practice.z80 is refused; a cut anywhere else in
    the header or the memory blocks, or between two blocks, is seen too."""
    path = saved(tmp_path, "cut.z80", PRACTICE.read_bytes()[:size])
    problem = snapshot_problem(path)
    assert problem is not None and words in problem and problem.endswith(CUT), problem


def test_version_1_z80_memory_whole_and_cut_short(tmp_path):
    plain = v1_header(compressed=False) + bytes(49152)
    assert snapshot_problem(saved(tmp_path, "a.z80", plain)) is None
    problem = snapshot_problem(saved(tmp_path, "b.z80", plain[:-1]))
    assert problem == "the .z80 memory is 49152 bytes, the file has 49151 after its header: " + CUT
    packed = v1_header(compressed=True) + ZERO_RUNS + END
    assert snapshot_problem(saved(tmp_path, "c.z80", packed)) is None
    problem = snapshot_problem(saved(tmp_path, "d.z80", packed[:-10]))
    assert problem == f"the .z80 compressed memory has no end marker (00 ED ED 00): {CUT}"
    short = v1_header(compressed=True) + ZERO_RUNS[4:] + END
    problem = snapshot_problem(saved(tmp_path, "e.z80", short))
    assert problem == "the .z80 compressed memory unpacks to 48960 bytes, not 49152"


def test_z80_compression_counts_runs_and_single_bytes():
    assert unpacked_size(b"\xed\xed\x05\x41") == 5
    assert unpacked_size(b"\x01\xed\x02") == 3, "a lone ED is itself"
    assert unpacked_size(b"\x01\xed\xed\x02") == 4, "a run cut short is its bytes"


def test_a_z80_page_that_does_not_unpack_to_16k_is_refused(tmp_path):
    data = bytearray(PRACTICE.read_bytes())
    data[86:88] = (9555 - 4).to_bytes(2, "little")  # page 4 four bytes shorter
    del data[86 + 3 : 86 + 3 + 4]
    problem = snapshot_problem(saved(tmp_path, "bad.z80", bytes(data)))
    assert problem is not None and "page 4 unpacks to" in problem and "not 16384" in problem


def test_szx_whole_cut_short_and_damaged(tmp_path):
    data = szx(tmp_path)
    assert snapshot_problem(saved(tmp_path, "whole.szx", data)) is None
    for size in (4, 12, 500, len(data) - 1):
        problem = snapshot_problem(saved(tmp_path, "cut.szx", data[:size]))
        assert problem is not None and problem.endswith(CUT), (size, problem)
    ramp = data.index(b"RAMP")
    damaged = bytearray(data)
    damaged[ramp + 8 + 3 : ramp + 8 + 6] = b"\xff\xff\xff"  # the zlib stream's start
    problem = snapshot_problem(saved(tmp_path, "damaged.szx", bytes(damaged)))
    assert problem is not None and "does not unpack (zlib)" in problem


def test_sna_cut_short(tmp_path):
    assert snapshot_problem(saved(tmp_path, "a.sna", bytes(49179))) is None
    problem = snapshot_problem(saved(tmp_path, "b.sna", bytes(1000)))
    assert problem is not None and "49179 bytes" in problem and problem.endswith(CUT)


def test_fuse_is_not_started_with_a_snapshot_cut_short(tmp_path):
    """The refusal names the file and says to copy it again (no display is needed: the
    files are checked first)."""
    path = saved(tmp_path, "practice.z80", PRACTICE.read_bytes()[:1000])
    with pytest.raises(InputError) as info:
        Fuse.start(FuseConfig(snapshot=path), ":986")
    assert info.value.exit_code == 3
    assert f"{path} cannot be loaded: the .z80 memory block of page 4" in info.value.message
    assert info.value.hint is not None and "copy the whole file again" in info.value.hint
