"""A level's start as a snapshot of the practice game: the game's own start-up code run
(skoolkit's Z80 simulator, from ``start`` to ``main_loop``: interrupts and settings),
then its variables set as the menu leaves them (the cursor-keys controls, sound off,
the player's name, the start level) and the CPU put where the menu returns to
(``play_game``). Fuse loads it and the game itself draws the play screen and loads the
level from its own level data: the real game at level N, without the levels before it.

The addresses come from the assembler's symbol table beside the snapshot
(``practice.sym``, written by ``python -m game.build``)."""

from __future__ import annotations

import re
from pathlib import Path

from skoolkit.simulator import Simulator
from skoolkit.snapshot import Snapshot, write_snapshot

from logo_bot.bot.errors import InputError

STACK_TOP = 0xFD00  # game/src/interrupts.asm
CALL_SIZE = 3  # bytes of a CALL nn: main_loop calls the title, the menu, then the game
SYMBOL = re.compile(r"(\w+)\s+EQU\s+0*([0-9A-F]+)H$")
NEEDED = (
    "start",
    "main_loop",
    "play_game",
    "control",
    "sound_on",
    "start_level",
    "player_name",
    "NAME_LENGTH",
    "CONTROL_CURSOR",
    "LEVEL_COUNT",
)


def symbols(sym: Path) -> dict[str, int]:
    """The assembler's symbol table (pasmo's ``NAME EQU 0ABCDH`` lines)."""
    found = {}
    for line in sym.read_text(encoding="ascii").splitlines():
        match = SYMBOL.match(line.strip())
        if match:
            found[match[1]] = int(match[2], 16)
    return found


class LevelStarts:
    """Snapshots of ``game`` (the practice game's ``.z80``) at the start of each level,
    written into ``folder`` when first asked for."""

    def __init__(self, game: Path, folder: Path, name: str = "LOGOBOT") -> None:
        sym = game.with_suffix(".sym")
        if not sym.is_file():
            raise InputError(
                f"no symbol table beside {game} ({sym.name}): a level's start is made from it",
                hint="build the practice game again (python -m game.build) and keep its .sym",
            )
        self.symbols = symbols(sym)
        missing = [n for n in NEEDED if n not in self.symbols]
        if missing:
            raise InputError(f"{sym} lacks {', '.join(missing)}: is it the practice game's?")
        self.game = game
        self.folder = folder
        self.name = name.upper()[: self.symbols["NAME_LENGTH"]]
        self._booted: list[int] | None = None

    @property
    def level_count(self) -> int:
        return self.symbols["LEVEL_COUNT"]

    def path(self, level: int) -> Path:
        """The snapshot that starts at ``level`` (1 .. ``level_count``)."""
        if not 1 <= level <= self.level_count:
            raise InputError(f"level {level} is not a level of the game (1-{self.level_count})")
        path = self.folder / f"level-{level:03d}.z80"
        if not path.is_file():
            self._write(level, path)
        return path

    def booted(self) -> list[int]:
        """The 64 KB memory once the game's start-up code has run (made once)."""
        if self._booted is None:
            sym = self.symbols
            memory = [0] * 0x4000 + list(Snapshot.get(str(self.game)).ram())
            Simulator(memory, {"SP": STACK_TOP}).run(sym["start"], sym["main_loop"])
            self._booted = memory
        return list(self._booted)

    def _write(self, level: int, path: Path) -> None:
        sym = self.symbols
        memory = self.booted()
        memory[sym["control"]] = sym["CONTROL_CURSOR"]
        memory[sym["sound_on"]] = 0
        memory[sym["start_level"]] = level
        name = self.name.ljust(sym["NAME_LENGTH"])
        memory[sym["player_name"] : sym["player_name"] + len(name)] = name.encode("ascii")
        back = sym["main_loop"] + 3 * CALL_SIZE  # where play_game returns to
        sp = STACK_TOP - 2
        memory[sp], memory[sp + 1] = back & 0xFF, back >> 8
        registers = [f"pc={sym['play_game']}", f"sp={sp}", "i=254"]
        state = ["im=2", "iff=1", "border=0"]
        write_snapshot(str(path), memory[0x4000:], registers, state)
