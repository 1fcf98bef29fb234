"""The practice game's layout, colours, texts and timings (``game/layout.toml``).

``load_layout`` reads the file, checks it (every name the game's code needs is
there, every text fits on the 32x24 screen, every style and colour exists) and
resolves centred texts to columns and styles to Spectrum attribute bytes.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LAYOUT_FILE = Path(__file__).with_name("layout.toml")
SCREEN_COLS, SCREEN_ROWS = 32, 24
COLOURS = ("black", "blue", "red", "magenta", "green", "cyan", "yellow", "white")

# Names the assembler source refers to.
REQUIRED_GEOMETRY = ("rows", "cols", "board_col", "board_row", "preview_col", "preview_row")
REQUIRED_STYLES = (
    "clear",
    "empty_cell",
    "stone",
    "cursor",
    "preview_stone",
    "preview_empty",
    "text",
)
REQUIRED_TIMING = (
    "frames_per_second",
    "base_seconds",
    "seconds_per_stone",
    "transition_frames",
    "code_screen_frames",
    "time_up_frames",
    "game_over_frames",
)
FRAME_COUNTS = (  # the [timing] values counted in frames (single bytes in the game)
    "frames_per_second",
    "transition_frames",
    "code_screen_frames",
    "time_up_frames",
    "game_over_frames",
)
REQUIRED_SCORE = ("per_level", "per_second_left")
REQUIRED_FIELDS = (
    "name",
    "score",
    "time",
    "level",
    "message",
    "menu_marker",
    "menu_start_level",
    "menu_input",
    "menu_status",
    "code_level",
    "code_word",
    "code_done",
    "game_over_score",
    "game_over_level",
    "final_score",
)
REQUIRED_MESSAGES = (
    "well_done",
    "time_up",
    "code_prompt",
    "name_prompt",
    "code_ok",
    "code_wrong",
    "sound_on",
    "sound_off",
)
REQUIRED_SCREENS = ("title", "menu", "play", "code", "game_over", "final")


class LayoutError(ValueError):
    """A layout file that the game cannot be built from."""

    def __init__(self, source: str, message: str) -> None:
        self.source, self.message = source, message
        super().__init__(f"{source}: {message}")


@dataclass(frozen=True)
class Style:
    """Colours of a character cell; ``None`` ink/paper is filled in at run time."""

    ink: str | None
    paper: str | None
    bright: bool = False
    flash: bool = False

    def attr(self, ink: str | None = None, paper: str | None = None) -> int:
        """The attribute byte, with ``ink``/``paper`` given where the style leaves them open."""
        ink_name, paper_name = ink or self.ink, paper or self.paper
        if ink_name is None or paper_name is None:
            raise ValueError("this style needs its ink or paper colour given")
        return (
            (0x80 if self.flash else 0)
            | (0x40 if self.bright else 0)
            | COLOURS.index(paper_name) << 3
            | COLOURS.index(ink_name)
        )


@dataclass(frozen=True)
class Text:
    """A text drawn at a character position."""

    row: int
    col: int
    text: str
    style: str


@dataclass(frozen=True)
class Field:
    """A place where a value is printed at run time, ``width`` characters wide."""

    row: int
    col: int
    width: int
    style: str


@dataclass(frozen=True)
class Layout:
    geometry: dict[str, int]
    styles: dict[str, Style]
    value_colours: tuple[str, ...]
    border: str
    timing: dict[str, int]
    score: dict[str, int]
    name_length: int
    default_name: str
    fields: dict[str, Field]
    messages: dict[str, Text]
    screens: dict[str, tuple[Text, ...]]
    source: str = "<layout>"

    def attr(self, style: str, ink: str | None = None, paper: str | None = None) -> int:
        return self.styles[style].attr(ink, paper)

    def texts(self) -> list[Text]:
        """Every fixed text: messages and all screens."""
        return list(self.messages.values()) + [t for s in self.screens.values() for t in s]


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, message: str) -> LayoutError:
        return LayoutError(self.source, message)

    def table(self, data: dict[str, Any], key: str, where: str = "") -> dict[str, Any]:
        value = data.get(key)
        if not isinstance(value, dict):
            raise self.fail(f"missing table [{where}{key}]")
        return value

    def ints(self, table: dict[str, Any], names: tuple[str, ...], where: str) -> dict[str, int]:
        out = {}
        for name in names:
            value = table.get(name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise self.fail(f"[{where}] {name} must be a whole number >= 0, not {value!r}")
            out[name] = value
        for name, value in table.items():
            if name not in out:
                if not isinstance(value, int):
                    raise self.fail(f"[{where}] {name} must be a whole number")
                out[name] = value
        return out

    def colour(self, value: Any, where: str) -> str:
        if value not in COLOURS:
            raise self.fail(f"{where}: colour must be one of {', '.join(COLOURS)}, not {value!r}")
        return str(value)

    def position(self, item: dict[str, Any], where: str, width: int) -> tuple[int, int]:
        row = item.get("row")
        if not isinstance(row, int) or not 0 <= row < SCREEN_ROWS:
            raise self.fail(f"{where}: row must be 0..{SCREEN_ROWS - 1}, not {row!r}")
        col = item.get("col", (SCREEN_COLS - width) // 2)
        if not isinstance(col, int) or col < 0 or col + width > SCREEN_COLS:
            raise self.fail(
                f"{where}: {width} characters from column {col!r} do not fit in "
                f"columns 0..{SCREEN_COLS - 1}"
            )
        return row, col

    def style_name(self, item: dict[str, Any], where: str, styles: dict[str, Style]) -> str:
        style = item.get("style")
        if style not in styles:
            raise self.fail(f"{where}: style {style!r} is not defined in [styles]")
        return str(style)

    def text(self, item: Any, where: str, styles: dict[str, Style]) -> Text:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str) or not item["text"]:
            raise self.fail(f"{where}: expected a table with a non-empty text")
        row, col = self.position(item, where, len(item["text"]))
        return Text(row, col, item["text"], self.style_name(item, where, styles))


def parse_layout(data: dict[str, Any], source: str = "<layout>") -> Layout:
    """Check parsed TOML ``data`` and build the ``Layout``."""
    rd = _Reader(source)
    geometry = rd.ints(rd.table(data, "geometry"), REQUIRED_GEOMETRY, "geometry")
    styles: dict[str, Style] = {}
    for name, spec in rd.table(data, "styles").items():
        if not isinstance(spec, dict):
            raise rd.fail(f"[styles] {name} must be a table like {{ ink = 'white' }}")
        ink = rd.colour(spec["ink"], f"[styles] {name} ink") if "ink" in spec else None
        paper = rd.colour(spec["paper"], f"[styles] {name} paper") if "paper" in spec else None
        styles[name] = Style(ink, paper, bool(spec.get("bright")), bool(spec.get("flash")))
    for name in REQUIRED_STYLES:
        if name not in styles:
            raise rd.fail(f"[styles] lacks {name}")
    values = rd.table(data, "values").get("colours")
    if not isinstance(values, list) or len(values) != 4:
        raise rd.fail("[values] colours must list the 4 colours of stone values 1..4")
    value_colours = tuple(rd.colour(v, "[values] colours") for v in values)
    if "black" in value_colours or len(set(value_colours)) != 4:
        raise rd.fail("[values] colours must be 4 different colours other than black")
    border = rd.colour(rd.table(data, "screen").get("border"), "[screen] border")
    timing = rd.ints(rd.table(data, "timing"), REQUIRED_TIMING, "timing")
    score = rd.ints(rd.table(data, "score"), REQUIRED_SCORE, "score")
    # The game counts frames and seconds in single bytes and adds a level's score in 16 bits.
    for name in FRAME_COUNTS:
        if not 1 <= timing[name] <= 255:
            raise rd.fail(f"[timing] {name} must be 1..255 frames, not {timing[name]}")
    cells = geometry["rows"] * geometry["cols"]
    longest = timing["base_seconds"] + timing["seconds_per_stone"] * cells
    if timing["base_seconds"] < 1 or longest > 255:
        raise rd.fail(
            "[timing] base_seconds + seconds_per_stone * (rows * cols) must be 1..255 seconds, "
            f"not {timing['base_seconds']}..{longest}"
        )
    if score["per_level"] + score["per_second_left"] * 255 > 0xFFFF:
        raise rd.fail("[score] per_level + per_second_left * 255 must stay below 65536")
    inputs = rd.table(data, "input")
    name_length = rd.ints({"name_length": inputs.get("name_length")}, ("name_length",), "input")[
        "name_length"
    ]
    default_name = inputs.get("default_name")
    if (
        not isinstance(default_name, str)
        or not 1 <= len(default_name) <= name_length
        or not all(ch.isdigit() or "A" <= ch <= "Z" for ch in default_name)
    ):
        raise rd.fail(
            f"[input] default_name must be 1..{name_length} capital letters or digits, "
            f"not {default_name!r}"
        )
    fields: dict[str, Field] = {}
    for name, spec in rd.table(data, "fields").items():
        where = f"[fields] {name}"
        width = spec.get("width") if isinstance(spec, dict) else None
        if not isinstance(width, int) or width < 1:
            raise rd.fail(f"{where}: width must be a whole number >= 1")
        row, col = rd.position(spec, where, width)
        fields[name] = Field(row, col, width, rd.style_name(spec, where, styles))
    messages = {
        name: rd.text(spec, f"[messages] {name}", styles)
        for name, spec in rd.table(data, "messages").items()
    }
    screens: dict[str, tuple[Text, ...]] = {}
    for name, items in rd.table(data, "screens").items():
        if not isinstance(items, list) or not items:
            raise rd.fail(f"[[screens.{name}]] must be a list of texts")
        screens[name] = tuple(
            rd.text(item, f"[[screens.{name}]] #{i}", styles) for i, item in enumerate(items, 1)
        )
    for kind, names, have in (
        ("fields", REQUIRED_FIELDS, fields),
        ("messages", REQUIRED_MESSAGES, messages),
        ("screens", REQUIRED_SCREENS, screens),
    ):
        if lacking := [n for n in names if n not in have]:
            raise rd.fail(f"[{kind}] lacks {', '.join(lacking)}")
    if name_length > min(fields["menu_input"].width, fields["name"].width):
        raise rd.fail("[input] name_length is wider than [fields] menu_input or name")
    return Layout(
        geometry,
        styles,
        value_colours,
        border,
        timing,
        score,
        name_length,
        default_name,
        fields,
        messages,
        screens,
        source,
    )


def load_layout(path: str | Path = LAYOUT_FILE) -> Layout:
    """Read and check the layout file at ``path``."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise LayoutError(str(path), f"cannot read the file: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LayoutError(str(path), f"not valid TOML: {exc}") from None
    return parse_layout(data, str(path))
