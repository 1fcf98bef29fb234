"""Key reliability on the real practice game: presses registered per hold/gap timing.

    .venv/bin/python benchmarks/keys.py --speed 100 --timings 40/40,30/30,25/25 --presses 400
    .venv/bin/python benchmarks/keys.py --rollover --timings 40/40,35/35,30/30

At level 1 the cursor is driven back and forth along row 1 in bursts of nine presses
(right, then left); after every burst the cursor is read and the difference from where
it should be counts lost (or doubled) presses. The cursor stops at the edges, so each
burst starts from a known column and a miss cannot hide.

With ``--rollover`` every key goes down as soon as the previous one is up (no gap
between different keys): the cursor zigzags between rows 2 and 3 (down, right, up,
right, ...), eight presses a burst, so no key follows itself; a lost or doubled up or
down press shows as a wrong row, a right or left one as a wrong column.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.level_io import move_keys
from logo_bot.bot.play.player import Player
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import Profile, load_profile
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.x11.keys import KeyTiming


def measure(session: Session, player: Player, timing: KeyTiming, presses: int) -> tuple[int, int]:
    """(presses sent, presses missing or extra) for ``timing``, until ``presses`` are sent
    or the level's clock runs low."""
    keys = session.keys
    keys.timing = timing
    sent = wrong = 0
    col = player.read("cursor")[1]  # type: ignore[index]
    screens = ScreenReader(session.profile, 1)
    while sent < presses and screens.panel_number(session.frame(), "time") > 8:
        step, name = (1, "p") if col < 5 else (-1, "o")
        count = 9
        keys.burst([name] * count)
        sent += count
        session.wait_frames(4)
        want = min(10, max(1, col + step * count))
        seen = player.read("cursor")[1]  # type: ignore[index]
        # At an edge the overshoot is clipped; only the shortfall or excess inside counts.
        wrong += abs(want - seen)
        col = seen
        if seen not in (1, 10):  # put the cursor back on an edge for the next burst
            keys.burst(["o"] * (seen - 1) if step < 0 else ["p"] * (10 - seen))
            session.wait_frames(4)
            col = player.read("cursor")[1]  # type: ignore[index]
    return sent, wrong


def zigzag(session: Session, player: Player, timing: KeyTiming, presses: int) -> tuple[int, int]:
    """Like ``measure``, with rollover and no key twice in a row (rows 2 and 3)."""
    keys = session.keys
    keys.timing = timing
    sent = wrong = 0
    screens = ScreenReader(session.profile, 1)
    home = (2, 1)
    keys.burst(["a"] + ["o"] * 9)  # from (1, 1) at level start: row 2, column 1
    session.wait_frames(4)
    at = player.read("cursor")
    while sent < presses and screens.panel_number(session.frame(), "time") > 8:
        row, col = at  # type: ignore[misc]
        side = "p" if col < 5 else "o"
        burst = ["a", side, "q", side] * 2
        keys.burst(burst)
        sent += len(burst)
        session.wait_frames(4)
        want = (row, col + (4 if side == "p" else -4))
        seen = player.read("cursor")
        wrong += abs(want[0] - seen[0]) + abs(want[1] - seen[1])  # type: ignore[index]
        at = seen
        if seen[0] != home[0] or seen[1] not in (1, 5):  # type: ignore[index]
            target = (home[0], 5 if side == "p" else 1)
            fix = move_keys(session.profile.keys, seen, target, 6, 10)  # type: ignore[arg-type]
            keys.timing = KeyTiming(40, 40)
            keys.burst(fix)
            keys.timing = timing
            session.wait_frames(4)
            at = player.read("cursor")
    return sent, wrong


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--speed", type=int, default=100)
    p.add_argument("--timings", default="40/40,35/35,30/30,25/25", help="hold/gap ms list")
    p.add_argument("--presses", type=int, default=450, help="presses per timing")
    p.add_argument("--rollover", action="store_true", help="zigzag, no gap between keys")
    args = p.parse_args(argv)
    profile = load_profile("practice")
    how = "rows 2-3 zigzag, rollover" if args.rollover else "row 1, bursts of 9"
    print(f"key reliability at {args.speed} % (practice game, {how})")
    print(f"{'hold/gap ms':>12} {'presses':>8} {'wrong':>6} {'rate':>8} {'ms/press':>9}")
    for text in args.timings.split(","):
        hold, gap = (float(v) for v in text.split("/"))
        sent = wrong = 0
        spent = 0.0
        while sent < args.presses:  # a fresh game whenever level 1's clock runs low
            with open_session(profile, SessionOptions(headless=True, speed=args.speed)) as s:
                player = enter(s, profile)
                started = time.monotonic()
                timing = KeyTiming(hold, gap, args.rollover)
                run = zigzag if args.rollover else measure
                more, bad = run(s, player, timing, args.presses - sent)
                spent += time.monotonic() - started
                sent, wrong = sent + more, wrong + bad
        print(f"{text:>12} {sent:>8} {wrong:>6} {wrong / sent:>8.2%} {spent / sent * 1000:>9.1f}")
    return 0


def enter(session: Session, profile: Profile) -> Player:
    """Start the game and wait for level 1."""
    env = LogoEnv(session)
    Walkthrough(session, env, profile, 1, 1, "KEYS").enter(1)
    player = Player(env, profile)
    player.wait_level()
    return player


if __name__ == "__main__":
    sys.exit(main())
