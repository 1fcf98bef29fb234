"""Calibration profiles: TOML data -> frozen settings, with ``--set`` overrides.

The settings layer is: the profile file, then ``--set key.path=value`` overrides
(values in TOML syntax, bare words taken as strings), then ``--show-config``.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.errors import BotError
from calibration import profile_names, profile_path

REPO_ROOT = Path(__file__).resolve().parents[1]
RGB = tuple[int, int, int]
Point = tuple[int, int]


class ProfileError(BotError):
    """A profile that is missing, malformed, or overridden with a bad value."""

    exit_code = 2


@dataclass(frozen=True)
class Grid:
    """A grid of square cells; cell (r, c), 1-based, starts at origin + cell*(c-1, r-1)."""

    origin: Point
    cell: int
    rows: int
    cols: int

    def cell_origin(self, row: int, col: int) -> Point:
        return (self.origin[0] + self.cell * (col - 1), self.origin[1] + self.cell * (row - 1))


@dataclass(frozen=True)
class Geometry:
    window: Point
    board: Grid
    preview: Grid
    cursor_columns: tuple[int, ...]
    cursor_rows: tuple[int, ...]
    preview_stone: Point
    preview_background: Point
    level_marker: Point
    board_probes: tuple[Point, ...]


@dataclass(frozen=True)
class Palette:
    colours: dict[str, RGB]
    max_distance: float
    preview_values: dict[int, str]
    board_values: dict[int, str]


@dataclass(frozen=True)
class Keys:
    up: str
    down: str
    left: str
    right: str
    act: str
    reset: str
    wrap: bool


@dataclass(frozen=True)
class Timing:
    hold_ms: dict[int, float]
    gap_ms: dict[int, float]
    settle_frames: int
    rollover: bool = False  # a different key may go down as soon as the last is up

    def for_speed(self, speed: int) -> tuple[float, float]:
        """Hold and gap for ``speed``: the entry for the highest listed speed <= it."""
        steps = sorted(s for s in self.hold_ms if s <= speed) or [min(self.hold_ms)]
        return self.hold_ms[steps[-1]], self.gap_ms[steps[-1]]


@dataclass(frozen=True)
class Start:
    sequence: tuple[dict[str, Any], ...]
    code: tuple[dict[str, Any], ...]
    loaded_wait: float
    name: str


@dataclass(frozen=True)
class TextSpot:
    """A text (or, with ``text`` empty, a field of ``width`` cells) at a character cell."""

    row: int
    col: int
    text: str = ""
    width: int = 0


@dataclass(frozen=True)
class Screens:
    """Texts that identify whole screens, fields on them, keys that skip them, and how
    many frames they stay when not skipped."""

    marks: dict[str, TextSpot]
    fields: dict[str, TextSpot]
    skip: dict[str, str]
    frames: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    path: Path
    game: dict[str, Any]
    geometry: Geometry
    palette: Palette
    keys: Keys
    timing: Timing
    start: Start
    data: dict[str, Any]  # the merged raw settings, for --show-config and extensions
    font: Path | None = None  # the screen font, when the game's text can be read
    paper: tuple[int, int, int] = (0, 0, 0)
    panel: dict[str, TextSpot] | None = None
    screens: Screens | None = None
    abort_key: str = "Pause"  # a global key that stops the bot ("none": no such key)

    def resolve(self, value: str) -> Path:
        """A path from the profile, relative to the repository root."""
        path = Path(value)
        return path if path.is_absolute() else REPO_ROOT / path


def load_raw(name_or_path: str) -> tuple[dict[str, Any], Path]:
    """The profile's TOML as a dict: ``name_or_path`` is a profile name or a file."""
    path = Path(name_or_path)
    if not path.suffix:
        path = profile_path(name_or_path)
        if not path.is_file():
            raise ProfileError(
                f"there is no calibration profile called {name_or_path!r}",
                hint=f"choose one of: {', '.join(profile_names())}, or give a profile.toml path",
            )
    try:
        return tomllib.loads(path.read_text(encoding="utf-8")), path
    except OSError as exc:
        raise ProfileError(f"cannot read the profile {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"the profile {path} is not valid TOML: {exc}") from None


def apply_override(data: dict[str, Any], assignment: str) -> None:
    """Apply one ``key.path=value`` override in place (value parsed as TOML)."""
    key, sep, text = assignment.partition("=")
    if not sep or not key.strip():
        raise ProfileError(f"--set expects key.path=value, got {assignment!r}")
    try:
        value = tomllib.loads(f"v = {text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = text.strip()
    node = data
    parts = key.strip().split(".")
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            raise ProfileError(f"--set {key}: there is no settings table {part!r}")
        node = child
    if parts[-1] not in node:
        raise ProfileError(
            f"--set {key}: no such setting",
            hint=f"settings here: {', '.join(sorted(node))} (see --show-config)",
        )
    node[parts[-1]] = value


def load_profile(name_or_path: str = "practice", overrides: list[str] | tuple = ()) -> Profile:
    """Load a profile and apply ``--set`` overrides; errors say which setting is wrong."""
    raw, path = load_raw(name_or_path)
    data = copy.deepcopy(raw)
    for assignment in overrides:
        apply_override(data, assignment)
    try:
        return _build(data, path)
    except (KeyError, TypeError, ValueError) as exc:
        raise ProfileError(f"the profile {path} is incomplete or wrong: {exc!r}") from None


def _point(value: Any) -> Point:
    x, y = value
    return (int(x), int(y))


def _grid(value: dict[str, Any]) -> Grid:
    return Grid(_point(value["origin"]), int(value["cell"]), int(value["rows"]), int(value["cols"]))


def _spot(value: dict[str, Any]) -> TextSpot:
    return TextSpot(
        int(value["row"]),
        int(value["col"]),
        str(value.get("text", "")),
        int(value.get("width", len(str(value.get("text", ""))))),
    )


def _build(data: dict[str, Any], path: Path) -> Profile:
    g = data["geometry"]
    geometry = Geometry(
        window=_point(g["window"]),
        board=_grid(g["board"]),
        preview=_grid(g["preview"]),
        cursor_columns=tuple(int(v) for v in g["cursor_columns"]),
        cursor_rows=tuple(int(v) for v in g["cursor_rows"]),
        preview_stone=_point(g["preview_stone"]),
        preview_background=_point(g["preview_background"]),
        level_marker=_point(g["level_marker"]),
        board_probes=tuple(_point(p) for p in g["board_probes"]),
    )
    p = data["palette"]
    colours = {k: tuple(int(c) for c in v) for k, v in p.items() if isinstance(v, list)}
    values = data["values"]
    palette = Palette(
        colours=colours,  # type: ignore[arg-type]
        max_distance=float(p["max_distance"]),
        preview_values={int(k): v for k, v in values["preview"].items()},
        board_values={int(k): v for k, v in values["board"].items()},
    )
    for table in (palette.preview_values, palette.board_values):
        for value, colour in table.items():
            if colour not in colours:
                raise ValueError(f"value {value} uses colour {colour!r}, not in [palette]")
    k = data["keys"]
    keys = Keys(k["up"], k["down"], k["left"], k["right"], k["act"], k["reset"], bool(k["wrap"]))
    t = data["timing"]
    timing = Timing(
        hold_ms={int(s): float(v) for s, v in t["hold_ms"].items()},
        gap_ms={int(s): float(v) for s, v in t["gap_ms"].items()},
        settle_frames=int(t["settle_frames"]),
        rollover=bool(t.get("rollover", False)),
    )
    s = data["start"]
    start = Start(tuple(s["sequence"]), tuple(s["code"]), float(s["loaded_wait"]), str(s["name"]))
    text = data.get("text", {})
    font = text.get("font")
    sc = data.get("screens")
    screens = None
    if sc is not None:
        screens = Screens(
            marks={k: _spot(v) for k, v in sc.items() if k not in ("fields", "skip", "frames")},
            fields={k: _spot(v) for k, v in sc.get("fields", {}).items()},
            skip={k: str(v) for k, v in sc.get("skip", {}).items()},
            frames={k: int(v) for k, v in sc.get("frames", {}).items()},
        )
    extra = {
        "font": (Path(font) if Path(font).is_absolute() else REPO_ROOT / font) if font else None,
        "paper": tuple(int(c) for c in text.get("paper", (0, 0, 0))),
        "panel": {k: _spot(v) for k, v in data["panel"].items()} if "panel" in data else None,
        "screens": screens,
        "abort_key": str(data.get("abort", {}).get("key", "Pause")),
    }
    return Profile(
        name=str(data["name"]),
        description=str(data.get("description", "")),
        path=path,
        game=dict(data["game"]),
        geometry=geometry,
        palette=palette,
        keys=keys,
        timing=timing,
        start=start,
        data=data,
        **extra,  # type: ignore[arg-type]
    )


def show_config(profile: Profile) -> str:
    """The merged settings as TOML-like text (what ``--show-config`` prints)."""
    lines: list[str] = [f"# profile {profile.name} from {profile.path}"]

    def emit(table: dict[str, Any], prefix: str) -> None:
        def nested(v: Any) -> bool:
            return isinstance(v, dict) and (
                not prefix or any(isinstance(x, dict) for x in v.values())
            )

        inline = {k: v for k, v in table.items() if not nested(v)}
        if prefix and (inline or not table):
            lines.append(f"\n[{prefix}]")
        for key, value in inline.items():
            lines.append(f"{key} = {_toml(value)}")
        for key, value in table.items():
            if nested(value):
                emit(value, f"{prefix}.{key}" if prefix else key)

    emit(profile.data, "")
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)
