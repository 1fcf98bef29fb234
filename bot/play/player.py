"""The closed loop for one level: read it, plan it, press, check, correct.

Every move is checked by re-reading the cursor, every action by re-reading the
board; a lost action is pressed again once the cursor has been read again (acting
on a stone does nothing, so that is safe), a wrong stone is taken back with RESET,
and the plan resumes from the last board state that matches it.

One piece over 300 lines: the moves, their checks and each correction share the level's
state (plan, boards, cursor) and are read as one loop.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial

from logo_bot.bot import interrupts
from logo_bot.bot.errors import LevelFailed, LevelGone, Unreadable
from logo_bot.bot.play.env import EnvWrapper, Expectation, LogoEnv, Observation, StepResult
from logo_bot.bot.play.plan_ahead import PlanAhead, plan_ahead
from logo_bot.bot.profile import Keys, Profile
from logo_bot.solvers.board import Board, Cell, act
from logo_bot.solvers.cursor import alternating, moves, walk
from logo_bot.solvers.order import Ordering, fewest_presses
from logo_bot.solvers.planner import solve
from logo_bot.solvers.resume import plan_from, resume


@dataclass
class LevelReport:
    target: Board
    plan: tuple[Cell, ...]
    planned_presses: int
    lower_bound: int
    optimal: bool
    keys_sent: int = 0
    corrections: Counter[str] = field(default_factory=Counter)
    end_board: Board | None = None
    seconds: float = 0.0
    plan_seconds: float = 0.0
    held_moves: int = 0  # straight moves made by holding one key (a repeating game)


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


class Player:
    """Plays the level on screen to the end, correcting whatever goes wrong."""

    def __init__(
        self,
        env: LogoEnv | EnvWrapper,
        profile: Profile,
        settle_frames: float | None = None,
        max_corrections: int = 60,
    ) -> None:
        self.env = env
        self.profile = profile
        self.keys = profile.keys
        self.board_grid = profile.geometry.board
        self.settle = settle_frames if settle_frames is not None else profile.timing.settle_frames
        self.max_corrections = max_corrections
        self.recent: Observation | None = None  # the last step's observation
        self.start_cursor: Cell | None = None  # where the cursor began the last level
        self.ahead: PlanAhead | None = None  # the next level's plan, made before it shows
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

    # -- reading ----------------------------------------------------------------------------
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
            interrupts.sleep(0.002)

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
        if hold_frames is not None:
            result = self.env.hold(keys[0], expect, hold_frames, timeout_frames)
        else:
            result = self.env.step(keys, expect, timeout_frames)
        self.recent = result.obs
        return result

    def step_seen(self, keys: list[str], expects: list[Expectation]) -> StepResult:
        """``env.step_seen`` (each key held until the screen shows ``expects[i]``), but
        only while the level is on screen, as ``step``."""
        self.check_level_shown()
        result = self.env.step_seen(keys, expects, self.seen_frames)
        self.recent = result.obs
        return result

    def check_level_shown(self) -> None:
        """``level_gone`` unless the level is on screen, seen in the last step's
        observation when it is younger than a frame, else in a new one."""
        obs = self.recent
        if obs is None or time.monotonic() - obs.at > self.env.frame_s:
            obs = self.env.observe()
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
        """Wait until a level is steady on screen: shown, with the same target twice."""
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
                    interrupts.sleep(self.env.frame_s)
                    continue
            except Unreadable:
                pass
            previous = None
            interrupts.sleep(0.005)
        shown = f" (the screen shows: {obs.screen.replace('_', ' ')})" if obs and obs.screen else ""
        raise LevelFailed(f"no level appeared on screen within {timeout_s:.0f} s{shown}", obs)

    def plan_ahead(self, target: Board) -> None:
        """Plan ``target`` before its level shows (while the game draws its transition),
        from the cell the cursor began the last level at; the level uses the plan when
        it shows that target with the cursor there (``bot.play.plan_ahead``)."""
        self.ahead = None
        if self.start_cursor is not None:
            with self.env.spent.on("planning"):
                self.ahead = plan_ahead(target, self.start_cursor, self.keys.wrap)

    def take_ahead(self, target: Board, cursor: Cell, board: Board) -> PlanAhead | None:
        """The plan made ahead, when it fits the level as it shows: that target, the
        cursor on its cell, no stone yet. A plan ahead serves one level either way."""
        ahead, self.ahead = self.ahead, None
        fits = ahead is not None and not board.stone_count and ahead.fits(target, cursor)
        return ahead if fits else None

    def read_target(self, first: Observation, rereads: int = 5) -> Board:
        """The target, re-read on later frames when it does not solve (a target planned
        ahead solves)."""
        target = first.target
        if self.ahead is not None and self.ahead.target == target:
            return target
        for _ in range(rereads):
            with self.env.spent.on("planning"):
                verdict = solve(target)
            if verdict.solved:
                return target
            self.env.note("target_unsolvable", target=str(target), reason=verdict.reason)
            interrupts.sleep(2 * self.env.frame_s)
            target = self.read("target")
        verdict = solve(target)
        if not verdict.solved:
            raise LevelFailed(
                f"the target read from the screen cannot be solved: {verdict.reason}", first
            )
        return target

    # -- acting -----------------------------------------------------------------------------
    def onward(self, cell: Cell, following: Cell) -> list[str] | None:
        """The moves from ``cell`` to the plan's ``following`` cell, to press right after
        acting on ``cell`` in one burst and check with one look (the board with the new
        stone, the cursor at ``following``): in a game that queues its keys in order
        (``timing.queued``) and sees each key's own press (rollover). None for a game
        that may not, or a move held down (a repeating game), which then wait for the
        stone to show first."""
        if not (self.until_seen or (self.profile.timing.queued and self.env.key_timing.rollover)):
            return None
        keys, held = self.move_keys(cell, following)
        if self.trial_alternate(keys) is not None:
            return None  # whether the game takes it is learnt in ``move_to``, on its own
        return keys if held is None else None

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

    def move_to(self, cell: Cell, cursor: Cell, report: LevelReport) -> Cell:
        """Move the cursor to ``cell`` and confirm it; returns the confirmed cursor. While
        it is not known whether the game takes the alternate keys, a burst ends with the
        first one, and where the cursor stops says (``trial_alternate``): a move the game
        ignored for that reason is no correction."""
        for _ in range(self.max_corrections):
            if cursor == cell:
                return cursor
            keys, held = self.move_keys(cursor, cell)
            path = self.move_path(cursor, cell)
            trial = self.trial_alternate(keys) if held is None else None
            if trial is not None:
                keys, path = keys[: trial + 1], path[: trial + 1]
            goal = path[-1]
            if held is None and self.until_seen:
                result = self.step_seen(keys, _cursor_on(path))
            else:
                result = self.step(keys, lambda o, g=goal: o.cursor == g, self.settle + 4, held)
            report.keys_sent += len(result.keys)
            if held is not None:
                report.held_moves += 1
            seen = goal if result.met else self.read("cursor")
            before = [cursor, *path][-2]  # where the last key moves from
            if trial is not None and seen == goal:
                self.learn_alternates(True, keys[-1])
            elif trial is not None and len(result.keys) == len(keys) and seen == before:
                self.learn_alternates(False, keys[-1])  # all but the alternate key moved
                cursor = seen
                continue
            if seen != goal:
                report.corrections["cursor"] += 1
                self.env.note("correction", kind="cursor", want=goal, seen=seen)
            cursor = seen
        if cursor == cell:
            return cursor
        raise LevelFailed(f"the cursor would not reach {cell[0]} {cell[1]}")

    def play_level(self, first: Observation | None = None) -> LevelReport:
        """Play the level now on screen until its board equals the target (the ``level``
        phase of the time spent)."""
        with self.env.spent.phase("level"):
            return self._play_level(first)

    def _play_level(self, first: Observation | None) -> LevelReport:
        started = time.monotonic()
        self.recent = None
        first = first or self.wait_level()
        target = self.read_target(first)
        cursor = first.cursor
        self.env.note("target", target=str(target), cursor=cursor)
        board = first.board
        planning = time.monotonic()
        ahead = self.take_ahead(target, cursor, board)
        if board.stone_count:  # a level someone else began: finish it from its board
            board, cursor, ordering, taken = self.pick_up(target, board, cursor)
        elif ahead is not None:
            ordering, taken = ahead.ordering, 0
        else:
            self.start_cursor = cursor
            with self.env.spent.on("planning"):
                ordering = fewest_presses(target, start=cursor, wrap=self.keys.wrap)
            taken = 0
        plan = tuple(ordering.plan) if ordering else ()
        presses, bound, optimal = (
            (ordering.presses, ordering.lower_bound, ordering.optimal) if ordering else (0, 0, True)
        )
        report = LevelReport(target, plan, presses, bound, optimal)
        report.keys_sent += taken
        if taken:
            report.corrections["taken_back"] += taken
        report.plan_seconds = ahead.seconds if ahead else time.monotonic() - planning
        made = {"ahead": True} if ahead else {}  # planned while the transition was drawn
        note = {"presses": presses, "lower_bound": bound, "optimal": optimal, **made}
        self.env.note("plan", plan=plan, **note)
        states = [board]
        for cell in plan:
            states.append(act(states[-1], cell))
        done = 0
        corrections = 0
        while done < len(plan):
            if corrections > self.max_corrections:
                raise LevelFailed("too many corrections; the game does not follow the keys")
            cell = plan[done]
            cursor = self.move_to(cell, cursor, report)
            want = states[done + 1]
            last = done + 1 == len(plan)
            following = None if last else plan[done + 1]
            onward = None if following is None else self.onward(cell, following)
            keys = [self.keys.act, *(onward or [])]
            if self.until_seen:  # the act seen placed, then each move seen made
                placed = partial(_placed, want=want, last=last)
                path = self.move_path(cell, following) if onward and following else []
                result = self.step_seen(keys, [placed, *_cursor_on(path)])
            elif onward is None:
                result = self.step(keys, partial(_placed, want=want, last=last), self.settle + 4)
            else:  # act, and go on to the next cell in the same burst, checked with one look
                expect = partial(_placed_and_moved, want=want, cursor=following)
                result = self.step(keys, expect, self.settle + 4)
            report.keys_sent += len(result.keys)
            if result.met:
                done += 1
                if onward is not None:
                    cursor = plan[done]
                elif last:
                    report.end_board = _board_or(result.obs, want)
                continue
            if last and not self.env.observe().level_shown:
                done += 1  # solved; the game moved on before the board was seen
                continue
            seen = self.read("board")
            if seen == want:
                done += 1
                if onward is not None:  # placed; the cursor is checked, move_to mends it
                    cursor = self.read("cursor")
                    if cursor != plan[done]:
                        report.corrections["cursor"] += 1
                        self.env.note("correction", kind="cursor", want=plan[done], seen=cursor)
                continue
            corrections += 1
            if seen == states[done]:
                report.corrections["lost_action"] += 1
                self.env.note("correction", kind="lost_action", cell=cell)
                # nothing changed: the press was lost, or the cursor moved on after it was
                # confirmed (a doubled move taken in a frame late) onto a stone, where
                # acting does nothing; look again before pressing again
                cursor = self.read("cursor")
                continue
            done, cursor = self.resync(states, seen, report)
        report.seconds = time.monotonic() - started
        if report.end_board is None:
            report.end_board = states[-1]
        return report

    def pick_up(
        self, target: Board, board: Board, cursor: Cell
    ) -> tuple[Board, Cell, Ordering | None, int]:
        """A level with stones on it: the plan from its board; when the target cannot be
        reached from there, RESET takes stones back (the game's last first) until it can.
        Returns the board, the cursor, the ordering (None: nothing left to place) and how
        many stones were taken back."""
        taken = 0
        while True:
            with self.env.spent.on("planning"):
                verdict = plan_from(target, board)
            why = {} if verdict.solved else {"reason": verdict.reason}  # a string, or none
            self.env.note("pick_up", board=str(board), reachable=verdict.solved, **why)
            if verdict.solved:
                if not verdict.plan:
                    return board, cursor, None, taken
                with self.env.spent.on("planning"):
                    ordering = resume(target, board, cursor, wrap=self.keys.wrap).ordering
                return board, cursor, ordering, taken
            if not board.stone_count:
                raise LevelFailed(f"the target cannot be built: {verdict.reason}")
            if taken > target.rows * target.cols:
                raise LevelFailed("RESET does not take the stones back")
            step = self.step([self.keys.reset], lambda o, b=board: o.board != b, self.settle + 4)
            taken += 1
            board = step.obs.board if step.met else self.read("board")
            cursor = self.read("cursor")

    def resync(self, states: list[Board], seen: Board, report: LevelReport) -> tuple[int, Cell]:
        """Press RESET until the board is one of the plan's states; returns its index."""
        for _ in range(len(states) + 8):
            if seen in states:
                index = states.index(seen)
                return index, self.read("cursor")
            report.corrections["wrong_stone"] += 1
            self.env.note("correction", kind="wrong_stone", board=str(seen))
            result = self.step([self.keys.reset], lambda o: o.board in states, self.settle + 4)
            report.keys_sent += 1
            seen = result.obs.board if result.met else self.read("board")
        raise LevelFailed(f"RESET did not bring the board back to the plan:\n{seen}")


def _placed(obs: Observation, want: Board, last: bool) -> bool:
    if obs.board == want:
        return True
    return last and not obs.level_shown


def _cursor_on(cells: list[Cell]) -> list[Expectation]:
    """One expectation per move: the cursor on each cell in turn."""
    return [partial(_cursor_at, cell=cell) for cell in cells]


def _cursor_at(obs: Observation, cell: Cell) -> bool:
    return obs.cursor == cell


def _placed_and_moved(obs: Observation, want: Board, cursor: Cell) -> bool:
    return obs.board == want and obs.cursor == cursor


def _board_or(obs: Observation, fallback: Board) -> Board:
    try:
        return obs.board
    except Unreadable:
        return fallback
