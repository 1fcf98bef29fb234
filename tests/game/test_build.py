import shutil
import struct

import pytest
from skoolkit.snapshot import Snapshot

from game import build
from game.build import ORG, BuildError, Inputs

from .levelfiles import easy_levels_with


@pytest.fixture
def built(game_build):
    return game_build


def tap_blocks(data: bytes) -> list[bytes]:
    blocks, pos = [], 0
    while pos < len(data):
        (length,) = struct.unpack_from("<H", data, pos)
        blocks.append(data[pos + 2 : pos + 2 + length])
        pos += 2 + length
    return blocks


def test_same_inputs_give_the_same_bytes(built, tmp_path):
    again = build.build(tmp_path / "again")
    for name in ("bin", "sym", "z80", "tap"):
        assert getattr(built, name).read_bytes() == getattr(again, name).read_bytes(), name
    for gen in (built.bin.parent / "gen").iterdir():
        assert gen.read_bytes() == (tmp_path / "again" / "gen" / gen.name).read_bytes()


def test_snapshot_starts_the_code_with_interrupts_off_and_a_black_border(built):
    snap = Snapshot.get(str(built.z80))
    assert snap.pc == ORG
    assert snap.iff1 == 0
    assert snap.border == 0
    code = built.bin.read_bytes()
    assert bytes(snap.memory[ORG : ORG + len(code)]) == code
    assert code[:1] == b"\xf3", "the program starts with DI"


def test_tape_has_a_basic_loader_and_the_code(built):
    blocks = tap_blocks(built.tap.read_bytes())
    assert len(blocks) == 4
    header, basic, code_header, code = blocks
    assert header[1] == 0 and header[2:12] == b"practice  "  # a BASIC program
    assert b'\xfd\xb0"32767":' in basic  # CLEAR VAL "32767":
    assert b'\xef""\xaf:' in basic  # LOAD ""CODE:
    assert b'\xf9\xc0\xb0"32768"' in basic  # RANDOMIZE USR VAL "32768"
    program = built.bin.read_bytes()
    kind, _name, length, start = struct.unpack_from("<B10sHH", code_header, 1)
    assert (kind, length, start) == (3, len(program), ORG)
    assert code[1:-1] == program


def test_level_data_is_compiled_from_the_level_file(built):
    gen = (built.bin.parent / "gen" / "level_data.asm").read_text()
    assert "LEVEL_COUNT              EQU 100" in gen
    assert gen.count("; level ") == 100
    # Level 1's third row "...212...." as bytes.
    assert "DEFB 0x00,0x00,0x00,0x02,0x01,0x02,0x00,0x00,0x00,0x00" in gen


def test_missing_pasmo_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BuildError, match=r"pasmo .* is not installed.*setup\.sh"):
        build.build(tmp_path / "out")


def test_assembler_errors_are_passed_on(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(build.SRC_DIR, src)
    board = src / "board.asm"
    board.write_text(board.read_text().replace("ld (hl), 1\n", "ld (hl), nowhere\n", 1))
    with pytest.raises(BuildError) as info:
        build.build(tmp_path / "out", Inputs(src=src))
    message = str(info.value)
    assert "board.asm" in message and "failed" in message
    assert not (tmp_path / "out" / "practice.z80").exists()


def test_bad_levels_stop_the_build_before_assembling(tmp_path):
    levels = easy_levels_with(
        tmp_path / "levels.txt", "# level 3\n6 10\n..1.......\n", "# level 3\n5 10\n"
    )
    with pytest.raises(BuildError, match="level 3 is 5x10"):
        build.build(tmp_path / "out", Inputs(levels=levels))
    assert not (tmp_path / "out" / "practice.bin").exists()


def test_a_text_the_font_cannot_draw_stops_the_build(tmp_path):
    layout = tmp_path / "layout.toml"
    layout.write_text(build.Inputs().layout.read_text().replace("WELL DONE!", "WELL DONE~"))
    with pytest.raises(BuildError, match="'WELL DONE~' uses '~'"):
        build.build(tmp_path / "out", Inputs(layout=layout))


def test_main_reports_errors_with_exit_status_1(tmp_path, capsys):
    levels = tmp_path / "levels.txt"
    levels.write_text("6 10\n" + "..........\n" * 6)
    assert build.main(["--out", str(tmp_path / "o"), "--levels", str(levels)]) == 1
    assert "game.build: error:" in capsys.readouterr().err
    assert build.main(["--out", str(tmp_path / "o")]) == 0
    assert "practice.z80" in capsys.readouterr().out


def test_a_code_field_too_narrow_for_a_code_stops_the_build(tmp_path):
    layout = tmp_path / "layout.toml"
    text = build.Inputs().layout.read_text()
    old = "code_word = { row = 13, col = 13, width = 5,"
    assert old in text
    layout.write_text(text.replace(old, "code_word = { row = 13, col = 13, width = 4,"))
    with pytest.raises(BuildError, match="code_word must be at least 5 wide"):
        build.build(tmp_path / "out", Inputs(layout=layout))
