"""A calibration profile's TOML before it becomes settings: reading it, the ``--set
key.path=value`` overrides (values in TOML syntax, bare words taken as strings), and the
checks that name what is missing or wrong in it (``bot.profile`` builds the settings)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from logo_bot.bot.errors import ProfileError, UsageError
from logo_bot.calibration import profile_names, profile_path


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


OPEN_TABLES = ("codes",)  # tables of the user's own entries: any key may be added


def parse_value(text: str, like: Any = None) -> Any:
    """``text`` as a TOML value; a bare word is a string. ``like`` (the setting's value
    now) fixes the type: a string setting takes the text as it is written."""
    text = text.strip()
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        value = text
    if isinstance(like, str):
        return value if isinstance(value, str) else text
    if like is None or isinstance(like, dict):
        return value
    kinds = (
        (int, float)
        if isinstance(like, int | float) and not isinstance(like, bool)
        else (type(like),)
    )
    if isinstance(value, bool) != isinstance(like, bool) or not isinstance(value, kinds):
        words = {bool: "true or false", int: "a number", float: "a number", list: "a [list]"}
        raise UsageError(
            f"{text!r} is not a value this setting takes",
            hint=f"give {words.get(type(like), 'a value like it')} (it is {json.dumps(like)} now)",
        )
    return value


def apply_override(data: dict[str, Any], assignment: str) -> None:
    """Apply one ``key.path=value`` override in place (the value parsed as TOML)."""
    key, sep, text = assignment.partition("=")
    if not sep or not key.strip():
        raise UsageError(f"--set expects key.path=value, got {assignment!r}")
    node = data
    parts = key.strip().split(".")
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            raise UsageError(f"--set {key}: there is no settings table {part!r}")
        node = child
    name = parts[-1]
    open_table = not node or (len(parts) == 2 and parts[0] in OPEN_TABLES)
    if name not in node and not open_table:
        raise UsageError(
            f"--set {key}: no such setting",
            hint=f"settings here: {', '.join(sorted(node))} (see --show-config)",
        )
    try:
        node[name] = parse_value(text, node.get(name))
    except UsageError as exc:
        raise UsageError(f"--set {key}: {exc.message}", hint=exc.hint) from None


EXAMPLE = "calibration/practice/profile.toml"
GRID_PARTS = ("origin", "cell", "rows", "cols")
REQUIRED_TABLES = ("[game]", "[geometry]", "[palette]", "[values]", "[keys]", "[timing]", "[start]")
# What _build reads without a default, as dotted paths; a table missing whole is named alone.
REQUIRED = (
    "name",
    "game",
    *(
        f"geometry.{key}"
        for key in (
            *(f"{grid}.{part}" for grid in ("board", "preview") for part in GRID_PARTS),
            "window",
            "cursor_columns",
            "cursor_rows",
            "preview_stone",
            "preview_background",
            "level_marker",
            "board_probes",
        )
    ),
    "palette.max_distance",
    "values.preview",
    "values.board",
    *(f"keys.{key}" for key in ("up", "down", "left", "right", "act", "reset", "wrap")),
    "timing.hold_ms",
    "timing.gap_ms",
    "timing.settle_frames",
    *(f"start.{key}" for key in ("sequence", "code", "loaded_wait", "name")),
)


def missing_settings(data: dict[str, Any]) -> list[str]:
    """The required settings ``data`` lacks: ``[table]`` for a table missing whole (or
    not a table), else the dotted name of the setting."""
    missing: list[str] = []
    for dotted in REQUIRED:
        node: Any = data
        parts = dotted.split(".")
        for depth, part in enumerate(parts):
            if not isinstance(node, dict) or part not in node:
                name = ".".join(parts[: depth + 1])
                name = f"[{name}]" if depth == 0 and name != "name" else name
                if name not in missing:
                    missing.append(name)
                break
            node = node[part]
    return missing


def level_count_of(game: dict[str, Any]) -> int:
    """``game.level_count`` (100 when not given): a whole number above 0."""
    count = game.get("level_count", 100)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ProfileError(f"game.level_count must be a whole number above 0, not {count!r}")
    return count


def check_codes(data: dict[str, Any], raw: dict[str, Any], path: Path) -> None:
    """Every ``[codes]`` entry is ``LEVEL = "WORD"`` for a level of the game: a bad
    ``--set codes.X`` is a ``UsageError``, a bad entry in the file a ``ProfileError``."""
    codes = data.get("codes", {})
    if not isinstance(codes, dict):
        raise ProfileError(f'the profile {path}: codes must be a table of LEVEL = "WORD"')
    count = level_count_of(data["game"])
    in_file = raw.get("codes", {}) if isinstance(raw.get("codes"), dict) else {}
    for key, code in codes.items():
        if key.isascii() and key.isdigit() and 1 <= int(key) <= count:
            continue
        problem = f"a code's key is the level it starts, 1 to {count}, not {key!r}"
        if key in in_file:
            raise ProfileError(f"the profile {path}: [codes] {key}: {problem}")
        raise UsageError(
            f"--set codes.{key}: {problem}", hint=f"e.g. --set codes.6={str(code).upper()}"
        )


def checked_flag(value: Any, name: str) -> bool:
    """``value`` of the setting ``name``, which must be true or false."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")
    return value


def checked_alternates(value: Any) -> dict[str, str]:
    """``keys.alternates``: directions (up, down, left, right) to a second key each."""
    if not isinstance(value, dict):
        raise ValueError(f'keys.alternates must be a table such as {{ up = "7" }}, not {value!r}')
    for direction, key in value.items():
        if direction not in ("up", "down", "left", "right"):
            raise ValueError(
                f"keys.alternates.{direction}: not a direction (up, down, left, right)"
            )
        if not isinstance(key, str) or not key:
            raise ValueError(f"keys.alternates.{direction} must be a key name, not {key!r}")
    return {str(direction): str(key) for direction, key in value.items()}


def checked_frames(value: Any, name: str) -> float | None:
    """``value`` of the setting ``name``: a number of frames above 0, or None when not given."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"{name} must be a number of frames above 0, not {value!r}")
    return float(value)
