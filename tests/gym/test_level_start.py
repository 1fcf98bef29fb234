"""A level's start as a snapshot: the practice game's start-up run, its variables as the
menu leaves them, the CPU where the menu returns to."""

from __future__ import annotations

import pytest
from skoolkit.snapshot import Snapshot

from logo_bot.bot.errors import InputError
from logo_bot.bot.profile import load_profile
from logo_bot.gym.level_start import LevelStarts, symbols

PROFILE = load_profile("practice")
GAME = PROFILE.resolve(PROFILE.game["snapshot"])


def test_a_levels_snapshot_enters_the_game_at_that_level(tmp_path):
    starts = LevelStarts(GAME, tmp_path, name="tester")
    sym = starts.symbols
    snap = Snapshot.get(str(starts.path(37)))
    memory = [0] * 0x4000 + list(snap.ram())
    assert snap.pc == sym["play_game"] and snap.im == 2 and snap.i == 0xFE and snap.iff1
    assert memory[sym["start_level"]] == 37
    assert memory[sym["control"]] == sym["CONTROL_CURSOR"] and memory[sym["sound_on"]] == 0
    name = bytes(memory[sym["player_name"] : sym["player_name"] + sym["NAME_LENGTH"]])
    assert name == b"TESTER    "
    # the game's own start-up ran: the interrupt vector table and its jump to the isr
    assert memory[0xFE00:0xFF01] == [0xFD] * 257 and memory[0xFDFD] == 0xC3
    # play_game returns to the main loop's jump back to the title
    back = memory[snap.sp] + 256 * memory[snap.sp + 1]
    assert back == sym["main_loop"] + 9


def test_a_level_outside_the_game_is_refused(tmp_path):
    starts = LevelStarts(GAME, tmp_path)
    with pytest.raises(InputError, match="1-100"):
        starts.path(101)


def test_a_game_without_its_symbol_table_says_how_to_make_one(tmp_path):
    game = tmp_path / "practice.z80"
    game.write_bytes(GAME.read_bytes())
    with pytest.raises(InputError, match="symbol table") as raised:
        LevelStarts(game, tmp_path)
    assert "game.build" in raised.value.hint


def test_the_symbol_table_is_read_as_pasmo_writes_it(tmp_path):
    sym = tmp_path / "x.sym"
    sym.write_text("start\t\tEQU 08000H\nNAME_LENGTH\tEQU 0000AH\n", encoding="ascii")
    assert symbols(sym) == {"start": 0x8000, "NAME_LENGTH": 10}
