"""``--name``: the player's name, checked before any game starts against what the game's
name entry takes (the profile's ``start.name_length`` and ``start.name_chars``). A name
the game cannot take would otherwise be typed again and again into a full field, or
stop the run at a key the display has no keycode for."""

from __future__ import annotations

from logo_bot.bot.errors import ProfileError, UsageError
from logo_bot.bot.profile import Profile, Start


def checked_name(name: str | None, profile: Profile) -> str | None:
    """``name`` (``--name``) when the game can take it; None (the profile's own name,
    which must fit too) when none was given. ``UsageError`` for a name that does not
    fit, ``ProfileError`` for a profile whose own name does not."""
    start = profile.start
    if name is None:
        if problem := name_problem(start.name, start):
            raise ProfileError(
                f"the profile's player name {start.name!r} {problem}",
                hint="give one that fits with --name NAME (or --set start.name=NAME)",
            )
        return None
    if problem := name_problem(name, start):
        raise UsageError(f"--name {name!r} {problem}", hint=f"give a name of {takes(start)}")
    return name


def name_problem(name: str, start: Start) -> str | None:
    """Why the game's name entry cannot take ``name``, or None when it can."""
    limit = start.name_length
    if limit is not None and len(name) > limit:
        return f"has {len(name)} characters: the game's name entry takes at most {limit}"
    refused = [ch for ch in dict.fromkeys(name) if ch.upper() not in start.name_chars]
    if refused:
        which = ", ".join("space" if ch == " " else repr(ch) for ch in refused)
        return f"has {which}, which the game's name entry cannot take"
    return None


def takes(start: Start) -> str:
    """What the name entry takes, in words: "at most 10 of A-Z, 0-9"."""
    chars = spelled(start.name_chars)
    return chars if start.name_length is None else f"at most {start.name_length} of {chars}"


def spelled(chars: str) -> str:
    """``chars`` with runs of consecutive characters written as ranges: "A-Z, 0-9, space"."""
    runs: list[list[str]] = []
    for ch in dict.fromkeys(chars):
        if runs and ord(ch) == ord(runs[-1][-1]) + 1:
            runs[-1].append(ch)
        else:
            runs.append([ch])
    words: list[str] = []
    for run in runs:
        words += [f"{run[0]}-{run[-1]}"] if len(run) > 2 else run
    return ", ".join("space" if word == " " else word for word in words)
