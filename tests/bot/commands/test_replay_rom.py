"""Which ROM a replay uses: never OpenSE in place of a ROM that is gone without saying so."""

from __future__ import annotations

import logging

import pytest

from logo_bot.bot.commands.replay import run_rom
from logo_bot.bot.errors import InputError
from logo_bot.bot.fuse.builds import OPENSE_ROM
from logo_bot.bot.recording.manifest import sha256


def recorded(path, digest) -> dict:
    return {"versions": {"rom": {"path": str(path) if path else None, "sha256": digest}}}


def test_a_rom_that_is_gone_is_an_input_error_naming_it(tmp_path):
    gone = tmp_path / "48.rom"
    with pytest.raises(InputError, match=f"played with the ROM {gone}, which is no longer") as e:
        run_rom(recorded(gone, "ab" * 32))
    assert e.value.exit_code == 3 and "--rom FILE" in e.value.hint


def test_opense_moved_is_the_same_rom_and_found_again(tmp_path):
    assert run_rom(recorded(tmp_path / "opense.rom", sha256(OPENSE_ROM))) == OPENSE_ROM


def test_the_rom_recorded_then_the_one_given_then_opense(tmp_path):
    rom = tmp_path / "mine.rom"
    rom.write_bytes(OPENSE_ROM.read_bytes())
    assert run_rom(recorded(rom, sha256(rom))) == rom
    other = tmp_path / "given.rom"
    other.write_bytes(OPENSE_ROM.read_bytes())
    assert run_rom(recorded(tmp_path / "gone.rom", "cd" * 32), given=other) == other
    assert run_rom({}) == OPENSE_ROM


def test_a_rom_given_that_differs_from_the_one_recorded_is_warned_about(tmp_path, caplog):
    given = tmp_path / "other.rom"
    given.write_bytes(b"\0" * 16384)
    with caplog.at_level(logging.WARNING):
        assert run_rom(recorded(tmp_path / "gone.rom", sha256(OPENSE_ROM)), given) == given
    assert "is not the ROM the run was played with" in caplog.text
