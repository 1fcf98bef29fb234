"""The level on screen, read and pressed: each read tried again on later frames, each
step only while the level shows, the keys for a cursor move (tapped, held down in a game
that repeats a held key, or alternated), and what a step waits to see. ``Player``
(``bot.play.player``) builds the level's loop on it."""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from typing import Literal, overload

from logo_bot.bot import interrupts
from logo_bot.bot.errors import LevelFailed, LevelGone, Unreadable
from logo_bot.bot.play.env import EnvWrapper, LogoEnv, StepResult
from logo_bot.bot.play.observation import ByCells, Expectation, Observation
from logo_bot.bot.profile import Keys, Profile
from logo_bot.solvers.board import Board, Cell
from logo_bot.solvers.cursor import alternating, moves, walk

_LEVEL_SHOWN = ByCells(lambda obs: obs.level_shown)


def move_keys(
    keys: Keys, start: Cell, goal: Cell, rows: int, cols: int, alternate: bool = False
) -> list[str]:
    """The profile's key presses that take the cursor from ``start`` to ``goal``, the two
    directions in turn (see ``solvers.cursor.alternating``); with ``alternate``, the same
    move twice in a row takes the direction's other key (``keys.alternates``) the second
    time, so that no key is pressed twice in a row where the profile has one."""
    pressed = [getattr(keys, step) for step in move_steps(keys, start, goal, rows, cols)]
    return alternated(keys, pressed) if alternate else pressed


def move_steps(keys: Keys, start: Cell, goal: Cell, rows: int, cols: int) -> list[str]:
    """The cursor steps ("up", "left", ...) from ``start`` to ``goal``, the two directions
    in turn: what ``move_keys`` presses, one key a step."""
    return alternating(moves(start, goal, keys.wrap, (rows, cols)))


def alternated(keys: Keys, pressed: list[str]) -> list[str]:
    """``pressed`` with each key that repeats the one before it swapped for the
    direction's other key (``keys.alternates``), where it has one."""
    out: list[str] = []
    for key in pressed:
        out.append(keys.other(key) or key if out and out[-1] == key else key)
    return out


class LevelIO:
    """Reads and presses on the level on screen, never on a screen without it."""

    def __init__(
        self,
        env: LogoEnv | EnvWrapper,
        profile: Profile,
        settle_frames: float | None = None,
    ) -> None:
        self.env = env
        self.profile = profile
        self.keys = profile.keys
        self.board_grid = profile.geometry.board
        self.settle = settle_frames if settle_frames is not None else profile.timing.settle_frames
        self.recent: Observation | None = None  # the last step's observation
        self.menu_mark = 0.0  # the env's ``menu_waited_s`` as the last step began (``mended``)
        # whether the game moves the cursor with ``keys.alternates`` (the controls the start
        # sequence chooses): None until learnt from the first one pressed (``move_to``), as
        # in a game someone else entered (or none to learn: the profile has none); False:
        # a key pressed again waits the gap instead
        self.alternates: bool | None = True if self.keys.alternates else None
        t = profile.timing
        # a game that repeats a held key: (delay, every) in frames, from the profile or
        # the key probe; a long straight move may then be one held key
        self.repeat: tuple[float, float] | None = (
            (t.repeat_delay_frames, t.repeat_every_frames)
            if t.repeat_delay_frames and t.repeat_every_frames
            else None
        )

    # -- reading and pressing ---------------------------------------------------------------
    @overload
    def read(self, what: Literal["board", "target"], attempts_frames: float = 10) -> Board: ...
    @overload
    def read(self, what: Literal["cursor"], attempts_frames: float = 10) -> Cell: ...
    def read(self, what: str, attempts_frames: float = 10) -> object:
        """``obs.<what>`` from the first readable frame within ``attempts_frames``."""
        deadline = time.monotonic() + attempts_frames * self.env.frame_s
        last: Unreadable | None = None
        while True:
            obs = self.env.observe()
            try:
                if not obs.level_shown:
                    self.level_gone(obs)
                return getattr(obs, what)
            except Unreadable as exc:
                last = exc
            if time.monotonic() >= deadline:
                self.env.note("unreadable", what=what, reason=last.reason, obs=obs)
                raise LevelFailed(f"cannot read the {what}: {last.reason}", obs)
            self.env.wait_drawn(deadline, 0.002)  # a later frame

    def step(
        self,
        keys: list[str],
        expect: Expectation,
        timeout_frames: float,
        hold_frames: float | None = None,
    ) -> StepResult:
        """``env.step``, but only while the level is on screen: keys are never sent to a
        TIME UP or game-over screen. The last step's observation serves as the check when
        it is younger than a frame (Fuse shows nothing newer yet)."""
        self.check_level_shown()
        self.menu_mark = self.env.menu_waited_s
        if hold_frames is not None:
            result = self.env.hold(keys[0], expect, hold_frames, timeout_frames)
        else:
            result = self.env.step(keys, expect, timeout_frames)
        self.recent = result.obs
        return result

    def step_seen(
        self, keys: list[str], expects: list[Expectation], ends: Sequence[int] = ()
    ) -> StepResult:
        """``env.step_seen`` (each key held until the screen shows ``expects[i]``), but
        only while the level is on screen, as ``step``."""
        self.check_level_shown()
        self.menu_mark = self.env.menu_waited_s
        result = self.env.step_seen(keys, expects, self.seen_frames, ends)
        self.recent = result.obs
        return result

    def check_level_shown(self) -> None:
        """``level_gone`` unless the level is on screen, seen in the last step's
        observation when it is younger than a frame, else in a glimpse (its cells read
        where Fuse drew since the last one: ``LogoEnv.wait_for`` with ``ByCells``)."""
        # taken: the step makes the next one (the picture let go, the watch may reuse it)
        obs, self.recent = self.recent, None
        if obs is None or time.monotonic() - obs.at > self.env.frame_s:
            obs, _ = self.env.wait_for(_LEVEL_SHOWN, 0)
        if not obs.level_shown:
            self.level_gone(obs)

    @property
    def seen_frames(self) -> float:
        """The longest a key is held waiting to see what it did: the settle frames and
        four more, and short of a repeating game's first repeat."""
        longest = self.settle + 4
        return min(longest, self.repeat[0] - 1) if self.repeat else longest

    @property
    def until_seen(self) -> bool:
        """Keys are held until seen (``timing.until_seen``), where a held key does not
        repeat within two frames."""
        return self.profile.timing.until_seen and self.seen_frames >= 2

    def hold_frames(self, keys: list[str], min_every: float = 4) -> float | None:
        """For a straight move (one key, k times) in a game that repeats a held key: the
        longest the key may be held (just before a k+1th move), when holding it is
        sooner than k taps; None to tap. A repeat faster than ``min_every`` frames
        leaves too little time to let go after the screen shows the last move."""
        if self.repeat is None or len(keys) < 3 or len(set(keys)) != 1:
            return None
        delay, every = self.repeat
        if every < min_every:
            return None
        timing = self.env.key_timing
        tapped = len(keys) * (timing.hold_ms + timing.gap_ms) / (self.env.frame_s * 1000)
        held = delay + (len(keys) - 2) * every + 2  # and the screen shows it
        return delay + (len(keys) - 1) * every - 1 if held < tapped else None

    def level_gone(self, obs: Observation) -> None:
        """The level left the screen while being played (TIME UP, say): stop pressing."""
        screen = obs.screen
        shown = screen or "a screen without a level"
        self.env.note("level_gone", screen=shown, obs=obs)
        raise LevelGone(f"the level left the screen: {shown.replace('_', ' ')}", obs, screen)

    def wait_level(self, timeout_s: float = 30.0) -> Observation:
        """Wait until a level is steady on screen: shown, with a target and cursor read,
        and then Fuse drew nothing for a frame (as its reports say), or the same target
        read again a frame later (it drew, or nothing reports draws)."""
        deadline = time.monotonic() + timeout_s
        previous: Board | None = None
        obs: Observation | None = None
        while time.monotonic() < deadline:
            obs = self.env.observe()
            try:
                if obs.level_shown:
                    target = obs.target
                    _ = obs.cursor
                    if target == previous:
                        return obs
                    previous = target
                    frame_s = self.env.frame_s
                    drawn = self.env.drawn_within(frame_s)
                    if drawn is False:
                        return obs
                    if drawn:  # the next look a frame after this one, as without reports
                        interrupts.sleep(max(0.0, obs.at + frame_s - time.monotonic()))
                    continue
            except Unreadable:
                pass
            previous = None
            self.env.wait_drawn(deadline, 0.005)
        shown = f" (the screen shows: {obs.screen.replace('_', ' ')})" if obs and obs.screen else ""
        raise LevelFailed(f"no level appeared on screen within {timeout_s:.0f} s{shown}", obs)

    def move_keys(self, start: Cell, goal: Cell) -> tuple[list[str], float | None]:
        """The keys from ``start`` to ``goal`` and ``hold_frames`` for them: one key held
        down where a repeating game moves on by itself, else taps, the same move twice in
        a row with the direction's two keys in turn (in a game that sees each key's own
        press, the second then goes down as the first goes up, without a gap)."""
        grid = self.board_grid
        keys = move_keys(self.keys, start, goal, grid.rows, grid.cols)
        held = self.hold_frames(keys)
        if held is None and self.env.key_timing.rollover and self.alternates is not False:
            keys = alternated(self.keys, keys)
        return keys, held

    def trial_alternate(self, keys: list[str]) -> int | None:
        """While it is not known whether the game takes the alternate keys: the index of
        the first one in ``keys`` (the burst that learns it ends there); else None."""
        if self.alternates is not None:
            return None
        others = set(self.keys.alternates.values())
        return next((i for i, key in enumerate(keys) if key in others), None)

    def learn_alternates(self, taken: bool, key: str) -> None:
        """The game moved the cursor for alternate ``key`` (``taken``) or did not: use the
        alternate keys from now on, or wait the gap before a key pressed again."""
        self.alternates = taken
        self.env.note("alternates", taken=taken, key=key)

    def move_path(self, start: Cell, goal: Cell) -> list[Cell]:
        """The cell the cursor is on after each of ``move_keys``' keys."""
        grid = self.board_grid
        steps = move_steps(self.keys, start, goal, grid.rows, grid.cols)
        return walk(start, steps, self.keys.wrap, (grid.rows, grid.cols))

    def run_of(
        self, plan: tuple[Cell, ...], states: Sequence[Board], done: int, cursor: Cell
    ) -> tuple[list[str], list[Expectation], list[tuple[int, Cell]]]:
        """The rest of the plan from stone ``done`` as one burst of keys held until seen:
        the keys, what the screen shows after each, and (stones placed, cursor) then. It
        ends before a stone whose moves are held down (a repeating game) or learn whether
        the game takes the alternate keys; empty when the first one's do (``play_run``
        calls it only where keys are held until seen)."""
        keys: list[str] = []
        expects: list[Expectation] = []
        marks: list[tuple[int, Cell]] = []
        last = len(plan) - 1
        for i in range(done, len(plan)):
            cell = plan[i]
            moves, held = self.move_keys(cursor, cell)
            if held is not None or self.trial_alternate(moves) is not None:
                break
            path = self.move_path(cursor, cell)
            keys += moves
            expects += cursor_on(path)
            marks += [(i, step) for step in path]
            keys.append(self.keys.act)
            expects.append(partial(placed, want=states[i + 1], last=i == last))
            marks.append((i + 1, cell))
            cursor = cell
        return keys, expects, marks


def placed(obs: Observation, want: Board, last: bool) -> bool:
    """The board shows ``want`` (or, after the level's ``last`` stone, the level is gone)."""
    if obs.board == want:
        return True
    return last and not obs.level_shown


def cursor_on(cells: list[Cell]) -> list[Expectation]:
    """One expectation per move: the cursor on each cell in turn."""
    return [partial(_cursor_at, cell=cell) for cell in cells]


def _cursor_at(obs: Observation, cell: Cell) -> bool:
    return obs.cursor == cell


def placed_and_moved(obs: Observation, want: Board, cursor: Cell) -> bool:
    """The board shows ``want`` and the cursor is on ``cursor``."""
    return obs.board == want and obs.cursor == cursor


def board_or(obs: Observation, fallback: Board) -> Board:
    """The board ``obs`` shows, or ``fallback`` when it cannot be read."""
    try:
        return obs.board
    except Unreadable:
        return fallback
