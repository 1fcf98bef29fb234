"""Calibration profiles: TOML data -> frozen settings, with ``--set`` overrides.

The settings layer is: the profile file, then ``--set key.path=value`` overrides
(values in TOML syntax, bare words taken as strings), then ``--show-config``. Reading
the TOML, the overrides and the checks on it are in ``bot.profile_toml``.

One piece over 300 lines: each setting is declared once in a frozen dataclass here and
read from the TOML in ``_build`` beside it (and written back by ``show_config`` and
``with_probed_timing``), so a setting added or changed is one edit in one file.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from logo_bot.bot.errors import ProfileError
from logo_bot.bot.frames import FRAME_MS
from logo_bot.bot.installation import checkout_root, is_package_data, package_file
from logo_bot.bot.profile_toml import (
    EXAMPLE,
    REQUIRED_TABLES,
    apply_override,
    check_codes,
    checked_alternates,
    checked_flag,
    checked_frames,
    level_count_of,
    load_raw,
    missing_settings,
)

RGB = tuple[int, int, int]
Point = tuple[int, int]


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
    # a second key the game takes for a direction (``up`` -> key), chosen by the start
    # sequence: the same move twice then needs no gap, one key going up as the other
    # goes down (with rollover)
    alternates: dict[str, str] = field(default_factory=dict)

    def other(self, key: str) -> str | None:
        """The other key for the same move as ``key`` (None when it has none)."""
        for direction, alternate in self.alternates.items():
            main = getattr(self, direction)
            if key in (main, alternate):
                return alternate if key == main else main
        return None


@dataclass(frozen=True)
class Timing:
    hold_ms: dict[int, float]
    gap_ms: dict[int, float]
    settle_frames: int
    rollover: bool = False  # a different key may go down as soon as the last is up
    # the game queues every press and takes them in order, also while it draws a stone:
    # a stone's act and the moves after it may go in one burst (bot.play.player)
    queued: bool = False
    # in play each key is held down until the screen shows what it did, then let go, the
    # next key going down at once: as long as the game takes to see it, and no longer
    until_seen: bool = False
    probe: bool = False  # measure the timing at the start of a run (bot.play.key_probe)
    repeat_delay_frames: float | None = None  # a held key moves again after this (probed)
    repeat_every_frames: float | None = None  # and then every this many frames

    def for_speed(self, speed: int) -> tuple[float, float]:
        """Hold and gap for ``speed``: the entry for the highest listed speed <= it."""
        steps = sorted(s for s in self.hold_ms if s <= speed) or [min(self.hold_ms)]
        return self.hold_ms[steps[-1]], self.gap_ms[steps[-1]]


# What one key of the Spectrum's keyboard types: the default of ``start.name_chars``.
SPECTRUM_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "


@dataclass(frozen=True)
class Start:
    sequence: tuple[dict[str, Any], ...]
    code: tuple[dict[str, Any], ...]
    loaded_wait: float
    name: str
    # what the game's name entry takes: at most ``name_length`` characters (None: not
    # known), each one of ``name_chars`` (upper case; a lower-case letter is typed as it)
    name_length: int | None = None
    name_chars: str = SPECTRUM_CHARS


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

    @property
    def level_count(self) -> int:
        """How many levels the game has (``game.level_count``)."""
        return level_count_of(self.game)

    def resolve(self, value: str) -> Path:
        """A path from the profile (see ``resolve_path``)."""
        return resolve_path(value)


def resolve_path(value: str) -> Path:
    """A path a profile names: absolute; or the bot's own data, its first part a package
    (``game/build/practice.z80``, ``calibration/practice/font.txt``); or relative to the
    repository root in a checkout, to the current folder when installed."""
    path = Path(value)
    if path.is_absolute():
        return path
    if is_package_data(value):
        return package_file(value)
    return (checkout_root() or Path.cwd()) / path


def load_profile(name_or_path: str = "practice", overrides: list[str] | tuple = ()) -> Profile:
    """Load a profile and apply ``--set`` overrides; errors say which setting is wrong."""
    raw, path = load_raw(name_or_path)
    data = copy.deepcopy(raw)
    for assignment in overrides:
        apply_override(data, assignment)
    if missing := missing_settings(data):
        raise ProfileError(
            f"the profile {path} has no {', '.join(missing)}",
            hint=f"a profile needs a name and the tables {', '.join(REQUIRED_TABLES)}: start "
            f"from {EXAMPLE} (or another profile in calibration/) and change what differs",
        )
    try:
        profile = _build(data, path)
    except (KeyError, TypeError, ValueError) as exc:
        raise ProfileError(
            f"the profile {path} is incomplete or wrong: {exc!r}",
            hint=f"compare it with {EXAMPLE}, which has every setting",
        ) from None
    check_codes(data, raw, path)
    return profile


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
    keys = Keys(
        k["up"],
        k["down"],
        k["left"],
        k["right"],
        k["act"],
        k["reset"],
        checked_flag(k["wrap"], "keys.wrap"),
        checked_alternates(k.get("alternates", {})),
    )
    t = data["timing"]
    timing = Timing(
        hold_ms={int(s): float(v) for s, v in t["hold_ms"].items()},
        gap_ms={int(s): float(v) for s, v in t["gap_ms"].items()},
        settle_frames=int(t["settle_frames"]),
        rollover=checked_flag(t.get("rollover", False), "timing.rollover"),
        queued=checked_flag(t.get("queued", False), "timing.queued"),
        until_seen=checked_flag(t.get("until_seen", False), "timing.until_seen"),
        probe=checked_flag(t.get("probe", False), "timing.probe"),
        repeat_delay_frames=checked_frames(
            t.get("repeat_delay_frames"), "timing.repeat_delay_frames"
        ),
        repeat_every_frames=checked_frames(
            t.get("repeat_every_frames"), "timing.repeat_every_frames"
        ),
    )
    s = data["start"]
    start = Start(
        tuple(s["sequence"]),
        tuple(s["code"]),
        float(s["loaded_wait"]),
        str(s["name"]),
        int(s["name_length"]) if "name_length" in s else None,
        str(s.get("name_chars", SPECTRUM_CHARS)).upper(),
    )
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
        "font": resolve_path(font) if font else None,
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
    """The merged settings as TOML (what ``--show-config`` prints; run.json reads it back)."""
    header = f"# profile {profile.name!r} from {str(profile.path)!r}\n"
    return header + tomli_w.dumps(profile.data)


def with_probed_timing(
    profile: Profile,
    speed: int,
    hold_frames: float,
    gap_frames: float,
    rollover: bool,
    repeat: tuple[float, float | None] | None,
    note: str,
) -> str:
    """The profile as TOML with a probe's findings as its timing (``--save-profile``):
    hold and gap at ``speed`` (the other speeds keep theirs: X's timing does not scale
    with the emulation's), the rollover, the repeat, and no probe at the next run."""
    data = copy.deepcopy(profile.data)
    timing = data.setdefault("timing", {})
    frame_ms = FRAME_MS * 100 / speed
    timing.setdefault("hold_ms", {})[str(speed)] = round(hold_frames * frame_ms, 1)
    timing.setdefault("gap_ms", {})[str(speed)] = round(gap_frames * frame_ms, 1)
    timing["rollover"] = rollover
    timing["probe"] = False
    for key in ("repeat_delay_frames", "repeat_every_frames"):
        timing.pop(key, None)
    if repeat is not None:
        timing["repeat_delay_frames"] = repeat[0]
        if repeat[1] is not None:
            timing["repeat_every_frames"] = repeat[1]
    header = (
        f"# profile {profile.name!r} with the key timing probed {note}\n"
        f"# (from {str(profile.path)!r}; use it with --profile THIS_FILE)\n"
    )
    return header + tomli_w.dumps(data)
