"""Level codes: the 5-letter words shown after levels 5, 10, ..., 95.

Each code starts the game at the level after the one that shows it. Codes
alternate consonant and vowel so they are easy to read off the screen and
type, come from a seeded generator, and are all different.
"""

from __future__ import annotations

import random

CONSONANTS = "BCDFGHJKLMNPRSTVZ"
VOWELS = "AEIOU"
LENGTH = 5


def make_codes(count: int, seed: str) -> list[str]:
    """``count`` distinct codes, the same for the same seed."""
    rng = random.Random(seed)
    codes: list[str] = []
    while len(codes) < count:
        code = "".join(rng.choice(VOWELS if k % 2 else CONSONANTS) for k in range(LENGTH))
        if code not in codes:
            codes.append(code)
    return codes
