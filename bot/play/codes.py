"""Level codes: which code starts which level, from the level file and the profile."""

from __future__ import annotations

from logo_bot.bot.errors import InputError, UsageError
from logo_bot.bot.profile import Profile
from logo_bot.solvers.levels import Level, LevelFormatError, load_level_list


def level_list(profile: Profile) -> list[Level]:
    """The levels of the profile's level file (none without one, as the original's
    profile); a file that cannot be read is an ``InputError`` that says what to do."""
    levels_file = profile.game.get("levels")
    if not levels_file:
        return []
    try:
        return load_level_list(profile.resolve(levels_file))
    except LevelFormatError as exc:
        raise InputError(
            f"cannot read the codes: {exc}",
            hint="fix the level file where it says (its format: docs/levels.md), or "
            "point the profile at a good one with --set game.levels=FILE",
        ) from None


def code_table(profile: Profile) -> dict[int, str]:
    """Level number -> code; the profile's ``[codes]`` entries win over the level file."""
    table = {lv.number: lv.meta["code"] for lv in level_list(profile) if "code" in lv.meta}
    for level, code in profile.data.get("codes", {}).items():
        table[int(level)] = str(code).upper()
    return table


def entry_for(level: int, table: dict[int, str]) -> tuple[int, str | None]:
    """The nearest way in to ``level``: (the level the game starts at, the code or None)."""
    best = max((n for n in table if n <= level), default=None)
    return (1, None) if best is None else (best, table[best])


def level_of_code(code: str, table: dict[int, str]) -> int:
    for level, known in table.items():
        if known.upper() == code.upper():
            return level
    raise UsageError(
        f"{code!r} is not a level code of this game",
        hint=f"known codes start levels {', '.join(str(n) for n in sorted(table))}"
        if table
        else "this profile knows no codes; add them with --set codes.N=WORD",
    )
