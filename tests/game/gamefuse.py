"""Playing the practice game in the real Fuse for the end-to-end tests.

``Game`` wraps a ``bot.fuse.session.Session`` on the tests' Xvfb with readers built from the
game's own data: panel fields and screen texts are read with game/font.txt at the
positions of game/layout.toml, the board, cursor and preview with the bot's vision and
the practice calibration profile (LOGO-GAME.md section 2).
"""

from __future__ import annotations

import math
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

from game.font import load_font
from game.layout import Layout, Text, load_layout
from game.leveldata import load_game_levels
from logo_bot.bot.frames import FRAME_S
from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.profile import load_profile
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.solvers.board import Board, Cell
from tests.bot.emulated_frames import wait_emulated_frames

PROFILE = load_profile("practice")
LAYOUT: Layout = load_layout()
FONT = load_font()
LEVELS = load_game_levels()
BORDER_X, BORDER_Y = 32, 24
FLASH_FRAMES = 16  # the ULA swaps INK and PAPER of FLASH cells every 16 frames


def read_text(frame: np.ndarray, row: int, col: int, width: int, scale: int = 1) -> str:
    """The characters at screen character (row, col).. with the game's font; any
    non-black pixel is ink, '?' marks a cell that is no glyph."""
    s = scale
    y0 = (BORDER_Y + 8 * row) * s + s // 2
    out = []
    for i in range(width):
        x0 = (BORDER_X + 8 * (col + i)) * s + s // 2
        cell = frame[y0 : y0 + 8 * s : s, x0 : x0 + 8 * s : s]
        ink = cell.any(axis=2)
        rows = tuple(int("".join("1" if v else "0" for v in line), 2) for line in ink)
        out.append(FONT.match(rows) or "?")
    return "".join(out)


def shows(frame: np.ndarray, text: Text, scale: int = 1) -> bool:
    return read_text(frame, text.row, text.col, len(text.text), scale) == text.text


def field(frame: np.ndarray, name: str, scale: int = 1) -> str:
    f = LAYOUT.fields[name]
    return read_text(frame, f.row, f.col, f.width, scale)


# The roomy build's clock (tests/game/conftest.py): as long as the game allows (255 s
# for a full board), for tests that play at their own pace and are not about the clock.
# Side by side on a busy machine a test takes longer, while Fuse's clock runs on.
ROOMY = {"base_seconds": 195, "seconds_per_stone": 1}


def level_seconds(level: int, timing: dict | None = None) -> int:
    """The seconds on the clock at the start of ``level`` (``timing``: a build's own)."""
    timing = LAYOUT.timing if timing is None else timing
    stones = LEVELS.boards[level - 1].stone_count
    return timing["base_seconds"] + timing["seconds_per_stone"] * stones


class Game:
    """One Fuse running a practice-game snapshot, with readers and key helpers."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.vision = session.vision
        self.scale = session.vision.scale
        self.speed = session.speed
        # These tests press keys to see what the game does with them, not to test the
        # bot's timing: a press held 4 frames (60 ms at least) and as long up is seen
        # by the game even when a busy machine runs Fuse in fits and starts.
        held_ms = max(60.0, 1000 * self.wall(4))
        session.use_timing(KeyTiming(held_ms, held_ms, rollover=False))

    @classmethod
    def open(
        cls,
        display: str,
        snapshot: Path | None = None,
        tape: Path | None = None,
        speed: int = 200,
        scale: int = 1,
        movie: Path | None = None,
    ) -> Game:
        options = SessionOptions(
            display=display, speed=speed, scale=scale, snapshot=snapshot, tape=tape, movie=movie
        )
        return cls(open_session(PROFILE, options))

    def close(self) -> None:
        self.session.close()

    # -- seeing ---------------------------------------------------------------------------
    def frame(self) -> np.ndarray:
        return self.session.frame()

    def text(self, row: int, col: int, width: int, frame: np.ndarray | None = None) -> str:
        return read_text(self.frame() if frame is None else frame, row, col, width, self.scale)

    def field(self, name: str, frame: np.ndarray | None = None) -> str:
        return field(self.frame() if frame is None else frame, name, self.scale)

    def shows(self, text: Text, frame: np.ndarray | None = None) -> bool:
        return shows(self.frame() if frame is None else frame, text, self.scale)

    def wall(self, frames: float) -> float:
        """Wall seconds for ``frames`` emulated frames at this speed."""
        return frames * FRAME_S * 100 / self.speed

    def wait_for(
        self, predicate: Callable[[np.ndarray], bool], frames: float = 50, what: str = ""
    ) -> np.ndarray:
        """The first frame for which ``predicate`` holds, within ``frames`` emulated frames.

        The wall-clock limit only bounds a hung Fuse: it is ten times the frames' time and
        5 s more, since Fuse falls far behind its --speed when the tests run side by side
        on a busy machine; only what is seen is asserted, never how fast it came."""
        deadline = time.monotonic() + 10 * self.wall(frames) + 5.0
        while True:
            frame = self.frame()
            if predicate(frame):
                return frame
            if time.monotonic() > deadline:
                raise AssertionError(f"not seen within {frames} frames: {what or predicate}")
            time.sleep(0.002)

    def wait_text(self, text: Text, frames: float = 50) -> np.ndarray:
        return self.wait_for(lambda f: self.shows(text, f), frames, f"text {text.text!r}")

    def wait_level(self, frames: float = 100) -> np.ndarray:
        return self.wait_for(self.vision.level_shown, frames, "a level on screen")

    def settle(self, frames: float = 4) -> np.ndarray:
        """The screen after at least ``frames`` more emulated frames, as Fuse's window
        shows them passing (for 'nothing changes' checks: a wall-clock sleep proves
        nothing when a busy machine runs Fuse behind its speed)."""
        session = self.session
        wait_emulated_frames(session.xserver.display, session.fuse.window_id, math.ceil(frames))
        return self.frame()

    # -- keys -----------------------------------------------------------------------------
    def press(self, *keys: str) -> None:
        self.session.keys.burst(list(keys))

    def press_until(
        self, key: str, predicate: Callable[[np.ndarray], bool], frames: float, what: str = ""
    ) -> np.ndarray:
        """Hold ``key`` down until a frame satisfies ``predicate``, then let go; that frame.

        For keys whose effect a test knows: a fixed hold is a wall-clock guess that a busy
        machine can beat (Fuse, run in fits and starts, may take the press and the release
        in one look at the host keys and never see the key), while a key held until its
        effect shows cannot be missed. The queued build moves once per press, however long
        the key is held. The wall-clock bound is ``wait_for``'s."""
        shown: list[np.ndarray] = []

        def seen() -> bool:
            frame = self.frame()
            if predicate(frame):
                shown.append(frame)
            return bool(shown)

        self.session.keys.hold_down(key, seen, 1000 * (10 * self.wall(frames) + 5.0))
        if not shown:
            raise AssertionError(f"not seen within {frames} frames of {key!r}: {what or predicate}")
        return shown[0]

    def type(self, text: str) -> None:
        self.session.keys.type_text(text)

    def wait_frames(self, frames: float) -> None:
        self.session.wait_frames(frames)

    # -- playing --------------------------------------------------------------------------
    def start(self, name: str = "TESTER", code: str | None = None) -> np.ndarray:
        """From the title to the first level, without waits; returns its first frame."""
        self.wait_text(LAYOUT.screens["title"][-1])
        self.press("space")
        self.wait_text(LAYOUT.screens["menu"][0])
        self.press("2", "5", "enter")
        if code is not None:
            self.press("6")
            self.type(code)
            self.wait_text(LAYOUT.messages["code_ok"])
        # held until seen: a busy machine may run Fuse past a fixed press (a polled
        # build reads its keys only every few frames)
        prompt = LAYOUT.messages["name_prompt"]
        self.press_until("7", lambda f: self.shows(prompt, f), 50, "the name prompt")
        self.type(name)
        return self.press_until("enter", self.vision.level_shown, 100, "a level on screen")

    def cursor(self) -> Cell:
        frame = self.wait_for(
            lambda f: len(self.vision.cursor_candidates(f)) == 1, 40, "one cursor cell"
        )
        return self.vision.cursor(frame)

    def move_to(self, cell: Cell) -> None:
        """Move the cursor with Q A O P, re-reading it and correcting (section 3)."""
        keys = PROFILE.keys
        for _ in range(4):
            row, col = self.cursor()
            if (row, col) == cell:
                return
            dr, dc = cell[0] - row, cell[1] - col
            presses = [keys.down if dr > 0 else keys.up] * abs(dr)
            presses += [keys.right if dc > 0 else keys.left] * abs(dc)
            self.press(*presses)
            try:
                self.wait_for(
                    lambda f: self.vision.cursor_candidates(f) == [cell], 12, f"cursor {cell}"
                )
                return
            except AssertionError:
                continue
        raise AssertionError(f"the cursor does not reach {cell}")

    def each_flash_phase(self, cell: Cell, check: Callable[[np.ndarray], None]) -> int:
        """Run ``check`` on every frame grabbed until both FLASH phases of the cursor at
        ``cell`` (its top-left pixel in two colours) have been seen; returns the count."""
        x, y = PROFILE.geometry.board.cell_origin(*cell)
        phases: set[tuple[int, ...]] = set()
        deadline = time.monotonic() + 10 * self.wall(3 * FLASH_FRAMES) + 5.0
        seen = 0
        while len(phases) < 2:
            if time.monotonic() > deadline:
                raise AssertionError(f"the cursor at {cell} does not flash")
            frame = self.frame()
            check(frame)
            phases.add(tuple(self.vision.pixel(frame, x, y)))
            seen += 1
        return seen

    def act_at(self, cell: Cell, expect: Board) -> np.ndarray:
        """Move to ``cell``, press SPACE, and wait until the board reads ``expect``."""
        self.move_to(cell)
        return self.press_until(
            PROFILE.keys.act, lambda f: self.vision.board(f) == expect, 20, f"board\n{expect}"
        )


def movie_frames(fmf: Path, out_dir: Path) -> list[np.ndarray]:
    """Every emulated frame of a Fuse movie (FMF), via fmfconv, as 320x240 RGB arrays."""
    out_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["fmfconv", "-y", "-f", "raw", str(fmf), str(out_dir / "f.png")],
        check=True,
        capture_output=True,
    )
    return [np.asarray(Image.open(p).convert("RGB")) for p in sorted(out_dir.glob("f*.png"))]
