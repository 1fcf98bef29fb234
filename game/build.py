"""Build the practice game: ``python -m game.build``.

Reads the data files (levels, font, tiles, layout), checks them, writes the
generated assembler includes to ``OUT/gen/``, assembles ``game/src/main.asm``
with Debian's ``pasmo`` into ``OUT/practice.bin`` (plus ``practice.sym``), and
turns the binary into ``OUT/practice.z80`` (a 48K snapshot that Fuse starts
instantly with any ROM) and ``OUT/practice.tap`` (a BASIC loader and the code,
for the Sinclair ROM or real hardware) with skoolkit. The same inputs always
give the same bytes.
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from game import asmgen
from game.bitmaps import BitmapFormatError, load_bitmaps
from game.font import FONT_FILE, load_font
from game.keyreading import MODES, KeyReading, KeyReadingError
from game.layout import LAYOUT_FILE, LayoutError, load_layout
from game.leveldata import CODE_LENGTH, LEVELS_FILE, LevelDataError, load_game_levels

GAME_DIR = Path(__file__).resolve().parent
SRC_DIR = GAME_DIR / "src"
OUT_DIR = GAME_DIR / "build"
TILES_FILE = GAME_DIR / "tiles.txt"
ORG = 0x8000  # where the code is loaded and started (ORG in main.asm)
CLEAR = ORG - 1  # BASIC loader's CLEAR for the tape
ASM_MAIN = "main.asm"


class BuildError(Exception):
    """Anything that stops the build; the message says what to do."""


@dataclass(frozen=True)
class Inputs:
    levels: Path = LEVELS_FILE
    font: Path = FONT_FILE
    tiles: Path = TILES_FILE
    layout: Path = LAYOUT_FILE
    src: Path = SRC_DIR


@dataclass(frozen=True)
class Outputs:
    bin: Path
    sym: Path
    z80: Path
    tap: Path


QUEUED = KeyReading()


def generate_includes(
    inputs: Inputs, gen_dir: Path, key_reading: KeyReading = QUEUED
) -> list[Path]:
    """Check the data files and write the generated includes into ``gen_dir``."""
    try:
        levels = load_game_levels(inputs.levels)
        font = load_font(inputs.font)
        tiles = load_bitmaps(inputs.tiles)
        layout = load_layout(inputs.layout)
    except (LevelDataError, BitmapFormatError, LayoutError) as exc:
        raise BuildError(str(exc)) from None
    for name in ("menu_input", "code_word"):
        if layout.fields[name].width < CODE_LENGTH:
            raise BuildError(
                f"{layout.source}: [fields] {name} must be at least {CODE_LENGTH} wide "
                "to hold a code"
            )
    for text in layout.texts():
        if missing := font.missing(text.text):
            raise BuildError(
                f"{layout.source}: text {text.text!r} uses {missing!r}, which {font.source} "
                "has no glyph for: draw it there or change the text"
            )
    try:
        files = {
            "config.asm": asmgen.config_asm(layout),
            "table_data.asm": asmgen.tables_asm(layout),
            "font_data.asm": asmgen.font_asm(font),
            "tile_data.asm": asmgen.tiles_asm(tiles, str(inputs.tiles)),
            "text_data.asm": asmgen.texts_asm(layout),
            "level_data.asm": asmgen.levels_asm(levels),
            "keyreading.asm": key_reading.asm(),
        }
    except (KeyError, ValueError) as exc:
        raise BuildError(str(exc).strip("'\"")) from None
    gen_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = gen_dir / name
        path.write_text(text, encoding="ascii")
        written.append(path)
    return written


def assemble(src_dir: Path, gen_dir: Path, binary: Path, symbols: Path) -> None:
    """Run pasmo on ``src_dir/main.asm``; raise ``BuildError`` with its messages on failure."""
    pasmo = shutil.which("pasmo")
    if pasmo is None:
        raise BuildError(
            "pasmo (the Z80 assembler) is not installed: run ./scripts/setup.sh "
            "or 'sudo apt-get install pasmo'"
        )
    cmd = [
        pasmo,
        "--bin",
        "--alocal",
        "-I",
        str(gen_dir),
        "-I",
        str(src_dir),
        str(src_dir / ASM_MAIN),
        str(binary),
        str(symbols),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, cwd=src_dir, check=False)
    if result.returncode != 0 or not binary.is_file():
        messages = (result.stderr + result.stdout).strip() or f"exit status {result.returncode}"
        raise BuildError(f"assembling {src_dir / ASM_MAIN} failed:\n{messages}")


def _skoolkit(module: str, args: list[str]) -> None:
    from skoolkit import SkoolKitError, bin2sna, bin2tap

    tool = {"bin2sna": bin2sna, "bin2tap": bin2tap}[module]
    out = io.StringIO()
    try:
        with redirect_stdout(out), redirect_stderr(out):
            tool.main(args)
    except (SkoolKitError, SystemExit) as exc:
        raise BuildError(
            f"skoolkit {module}.py {' '.join(args)} failed: {exc} {out.getvalue()}"
        ) from None


def build(
    out_dir: Path = OUT_DIR, inputs: Inputs = Inputs(), key_reading: KeyReading = QUEUED
) -> Outputs:
    """Build everything into ``out_dir``; return the paths of the results (named
    ``practice<suffix>.*``, the suffix naming a key reading other than queued)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    gen_dir = out_dir / "gen"
    generate_includes(inputs, gen_dir, key_reading)
    stem = "practice" + key_reading.suffix
    outputs = Outputs(
        out_dir / f"{stem}.bin",
        out_dir / f"{stem}.sym",
        out_dir / f"{stem}.z80",
        out_dir / f"{stem}.tap",
    )
    for path in (outputs.bin, outputs.z80, outputs.tap):
        path.unlink(missing_ok=True)
    assemble(inputs.src.resolve(), gen_dir.resolve(), outputs.bin, outputs.sym)
    origin, start = str(ORG), str(ORG)
    _skoolkit(
        "bin2sna",
        ["-o", origin, "-s", start, "-b", "0", "-S", "iff=0", str(outputs.bin), str(outputs.z80)],
    )
    _skoolkit(
        "bin2tap",
        ["-o", origin, "-s", start, "-c", str(CLEAR), str(outputs.bin), str(outputs.tap)],
    )
    return outputs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.build",
        description="Build the practice game (a 48K Spectrum snapshot and tape) from game/src "
        "and the data files game/levels.txt, game/font.txt, game/tiles.txt, game/layout.toml.",
    )
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder (%(default)s)")
    parser.add_argument("--levels", type=Path, default=LEVELS_FILE, help="level list to compile")
    parser.add_argument("--font", type=Path, default=FONT_FILE, help="font file")
    parser.add_argument("--tiles", type=Path, default=TILES_FILE, help="board tiles file")
    parser.add_argument("--layout", type=Path, default=LAYOUT_FILE, help="layout file")
    parser.add_argument("--src", type=Path, default=SRC_DIR, help="assembler source folder")
    keys = parser.add_argument_group("key reading (game/keyreading.py)")
    keys.add_argument(
        "--key-reading",
        choices=MODES,
        default="queued",
        help="queued: every press counts (default); polled: keys read every --poll-frames "
        "frames, a press between reads is lost; polled-repeat: also a held key repeats",
    )
    keys.add_argument("--poll-frames", type=int, default=None, metavar="N", help="frames per read")
    keys.add_argument("--repeat-delay", type=int, default=0, metavar="D", help="frames to repeat")
    keys.add_argument("--repeat-every", type=int, default=0, metavar="E", help="frames per repeat")
    keys.add_argument(
        "--describe", type=Path, metavar="SNAPSHOT", help="print how a built snapshot reads keys"
    )
    args = parser.parse_args(argv)
    try:
        if args.describe:
            print(f"{args.describe}: {describe(args.describe).describe()}")
            return 0
        poll = args.poll_frames or (1 if args.key_reading == "queued" else 2)
        reading = KeyReading(args.key_reading, poll, args.repeat_delay, args.repeat_every)
        inputs = Inputs(args.levels, args.font, args.tiles, args.layout, args.src)
        outputs = build(args.out, inputs, reading)
    except (BuildError, KeyReadingError) as exc:
        print(f"game.build: error: {exc}", file=sys.stderr)
        return 1
    size = outputs.bin.stat().st_size
    print(f"built {outputs.z80} and {outputs.tap} ({size} bytes of code and data at {ORG:#06x})")
    print(f"key reading: {reading.describe()}")
    return 0


def describe(snapshot: Path) -> KeyReading:
    """The key reading of a built snapshot (or tape or binary), from its memory."""
    from skoolkit import SkoolKitError
    from skoolkit.snapshot import Snapshot

    try:
        snap = None if snapshot.suffix.lower() in (".bin", ".tap") else Snapshot.get(str(snapshot))
        memory = bytes(snap.memory[ORG:0x10000]) if snap else snapshot.read_bytes()
    except (OSError, SkoolKitError) as exc:
        raise BuildError(f"cannot read {snapshot}: {exc}") from None
    return KeyReading.from_memory(memory)


if __name__ == "__main__":
    sys.exit(main())
