"""The closed loop for one level: read it, plan it, press, check, correct.

Every move is checked by re-reading the cursor, every action by re-reading the
board; a lost action is pressed again once the cursor has been read again (acting
on a stone does nothing, so that is safe), a wrong stone is taken back with RESET,
and the plan resumes from the last board state that matches it. Reading and pressing on
the level, and the keys for each move, are ``LevelIO``'s (``bot.play.level_io``).

In a game whose keys are held until the screen shows them (``timing.until_seen``), the
rest of the level goes as one burst, each key checked as it is held: a key not seen ends
the burst, and the next starts from what the screen then shows. One burst a level spares
each stone a burst's own start and end (the cover check and the round trip after the last
release: ``bot.x11.x11_keys``).
"""

from __future__ import annotations

import time
from functools import partial

from logo_bot.bot import interrupts
from logo_bot.bot.errors import LevelFailed
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.level_io import LevelIO, board_or, cursor_on, placed, placed_and_moved
from logo_bot.bot.play.level_report import LevelInPlay, LevelReport
from logo_bot.bot.play.observation import Observation
from logo_bot.bot.play.plan_ahead import Expected, PlanAhead, plan_ahead
from logo_bot.bot.play.take_back import mended, pick_up, unseen_act
from logo_bot.bot.profile import Profile
from logo_bot.solvers.board import Board, Cell, act
from logo_bot.solvers.order import fewest_presses
from logo_bot.solvers.planner import solve


class Player(LevelIO):
    """Plays the level on screen to the end, correcting whatever goes wrong."""

    def __init__(
        self,
        env: LogoEnv | EnvWrapper,
        profile: Profile,
        settle_frames: float | None = None,
        max_corrections: int = 60,
    ) -> None:
        super().__init__(env, profile, settle_frames)
        self.max_corrections = max_corrections
        self.start_cursor: Cell | None = None  # where the cursor began the last level
        self.ahead: PlanAhead | None = None  # the next level's plan, made before it shows

    # -- planning ---------------------------------------------------------------------------
    def plan_ahead(self, level: Expected) -> None:
        """Plan ``level`` (as the level file gives it) before it shows (while the game
        draws its transition), from the cell the cursor began the last level at; the level
        uses the plan when it shows that target with the cursor there
        (``bot.play.plan_ahead``)."""
        self.ahead = None
        cursor, wrap = self.start_cursor, self.keys.wrap
        if cursor is not None:
            fewest = level.proven_from(cursor, wrap)
            with self.env.spent.on("planning"):
                self.ahead = plan_ahead(level.target, cursor, wrap, fewest)

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
                result = self.step_seen(keys, cursor_on(path))
            else:
                result = self.step(keys, cursor_on([goal])[0], self.settle + 4, held)
            sent, met = len(result.keys), result.met
            del result  # its picture let go: the next look may reuse it (bot.x11)
            report.keys_sent += sent
            if held is not None:
                report.held_moves += 1
            seen = goal if met else self.read("cursor")
            before = [cursor, *path][-2]  # where the last key moves from
            if trial is not None and seen == goal:
                self.learn_alternates(True, keys[-1])
            elif trial is not None and sent == len(keys) and seen == before:
                self.learn_alternates(False, keys[-1])  # all but the alternate key moved
                cursor = seen
                continue
            if seen != goal:
                self.cursor_missed(report, goal, seen)
            cursor = seen
        if cursor == cell:
            return cursor
        raise LevelFailed(f"the cursor would not reach {cell[0]} {cell[1]}")

    def cursor_missed(self, report: LevelReport, want: Cell, seen: Cell) -> None:
        """The cursor is not where the keys should have put it: mended (``mended``)."""
        mended(self, report, "cursor", want=want, seen=seen)

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
            board, cursor, ordering, taken = pick_up(self, target, board, cursor)
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
        made: dict[str, object] = {"ahead": True} if ahead else {}  # during the transition
        if ahead is not None and ahead.proven:
            made["bound"] = "level file"  # the search ended on the file's fewest presses
        note = {"presses": presses, "lower_bound": bound, "optimal": optimal, **made}
        self.env.note("plan", plan=plan, **note)
        states = [board]
        for cell in plan:
            states.append(act(states[-1], cell))
        level = LevelInPlay(report, tuple(states))
        done = 0
        corrections = 0
        misses = 0  # moves not seen since the last stone was placed
        while done < len(plan):
            if corrections > self.max_corrections:
                raise LevelFailed("too many corrections; the game does not follow the keys")
            cell = plan[done]
            if not self.until_seen:
                done, cursor, corrected = self.act_then_move(level, done, cursor)
                corrections += corrected
                continue
            before = done
            done, cursor, corrected, missed = self.play_run(level, done, cursor)
            corrections += corrected
            if done > before:  # a stone placed: the count starts again
                misses = 0
            misses += missed
            if misses > self.max_corrections:
                raise LevelFailed(f"the cursor would not reach {cell[0]} {cell[1]}")
        report.seconds = time.monotonic() - started
        if report.end_board is None:
            report.end_board = states[-1]
        return report

    def play_run(self, level: LevelInPlay, done: int, cursor: Cell) -> tuple[int, Cell, int, bool]:
        """In a game whose keys are held until seen: the rest of the plan from stone
        ``done`` as one burst (``run_of``), until a key is not seen. Returns the stones
        placed, the cursor, 1 when the board needed correcting, and whether a move was
        not seen (or the burst was cut short for the focus)."""
        plan, states, report = level.plan, level.states, level.report
        keys, expects, marks = self.run_of(plan, states, done, cursor)
        if not keys:  # the moves are held down, or learn the alternate keys: on their own
            return done, self.move_to(plan[done], cursor, report), 0, False
        acts = [i for i, key in enumerate(keys) if key == self.keys.act]  # a stretch each
        result = self.step_seen(keys, expects, acts)
        report.keys_sent += len(result.keys)
        seen, pressed, met = result.seen or 0, len(result.keys), result.met
        if seen:
            done, cursor = marks[seen - 1]
        if met and done == len(plan):  # the run was the rest of the level
            report.end_board = board_or(result.obs, states[-1])
        del result  # its picture let go: the next look may reuse it (bot.x11)
        if met:
            return done, cursor, 0, False
        if seen < pressed and keys[seen] == self.keys.act:
            done, read, corrected = unseen_act(self, level, done)
            return done, read or cursor, corrected, False
        if seen < pressed:  # a move not seen
            goal = marks[seen][1]
            cursor = self.read("cursor")
            if cursor != goal:
                self.cursor_missed(report, goal, cursor)
        return done, cursor, 0, True

    def act_then_move(self, level: LevelInPlay, done: int, cursor: Cell) -> tuple[int, Cell, int]:
        """In a game whose keys are pressed with a fixed timing and checked by a look after
        them: move to stone ``done``'s cell, then act (in a game that queues its keys, the
        moves to the next cell go in the same burst). Returns the stones placed, the
        cursor, and 1 when the board needed correcting."""
        plan, report = level.plan, level.report
        cell = plan[done]
        cursor = self.move_to(cell, cursor, report)
        want = level.states[done + 1]
        last = done + 1 == len(plan)
        following = None if last else plan[done + 1]
        onward = None if following is None else self.onward(cell, following)
        keys = [self.keys.act, *(onward or [])]
        if onward is None:
            result = self.step(keys, partial(placed, want=want, last=last), self.settle + 4)
        else:  # act, and go on to the next cell in the same burst, checked with one look
            assert following is not None  # an onward path leads to the following cell
            expect = partial(placed_and_moved, want=want, cursor=following)
            result = self.step(keys, expect, self.settle + 4)
        report.keys_sent += len(result.keys)
        if result.met:
            if onward is None and last:
                report.end_board = board_or(result.obs, want)
            return done + 1, cursor if onward is None or following is None else following, 0
        del result  # its picture let go: the next look may reuse it (bot.x11)
        done, read, corrected = unseen_act(self, level, done)
        if read is not None:
            return done, read, corrected
        if onward is not None and not corrected:  # placed; the cursor is checked
            cursor = self.read("cursor")
            if cursor != plan[done]:
                self.cursor_missed(report, plan[done], cursor)
        return done, cursor, corrected
