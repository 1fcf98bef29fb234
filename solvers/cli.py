"""``logo-solve``: solve a level file and print the plan, the keys or the solutions.

Exit status: 0 solved, 1 unsolvable (the reason is printed), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from logo_bot.solvers.board import Board, Cell
from logo_bot.solvers.cursor import DEFAULT_KEYS
from logo_bot.solvers.levels import Level, LevelFormatError, parse_level_list, read_text
from logo_bot.solvers.order import Ordering, fewest_presses, keys_for
from logo_bot.solvers.planner import Unsolvable, count_solutions, solutions, solve
from logo_bot.solvers.resume import Resumed, resume

PROG = "logo-solve"
COUNT_LIMIT = 1_000_000

EXAMPLE = """\
example:
  $ printf '6 10\\n..........\\n....2.....\\n...212....\\n....2.....\\n' > one.txt
  $ printf '..........\\n..........\\n' >> one.txt
  $ logo-solve one.txt
  2 5
  3 4
  3 6
  4 5
  3 5
  5 moves, 17 key presses from 1,1; proven fewest (lower bound 17)   <- on stderr

  $ logo-solve game/levels.txt --level 2 --keys
  $ logo-solve one.txt --json --start 3,5 --wrap
  $ logo-solve one.txt --from-board now.txt --start 4,2

--from-board finishes a level already in progress: FILE is the board as it stands,
in the same text format. When its stones rule the target out, every stone must be
taken back first (the board alone does not tell the order they went in, and RESET
undoes the last one placed); the RESETs to press are printed on stderr.

The level text is an 'R C' line and R rows of '.1234' ('.' is empty); a list holds
levels separated by blank lines (docs/levels.md in the source). Each printed line
is 'row col' of one move, first move first, rows and columns counted from 1. The
order printed needs the fewest key presses found within --budget seconds (cursor
keys one cell per press, one press per action). Two solutions are distinct when some
pair of neighbouring stones goes in a different order.

exit status: 0 solved, 1 no plan exists (the reason is printed), 2 bad input.
"""


class BadSolveInput(ValueError):
    """Input that cannot be solved as given (exit status 2)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Solve a Logo: Part 1 target: print the moves that build it, in the order\n"
            "that needs the fewest key presses, or say why no order can build it."
        ),
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="level file, or - to read standard input")
    parser.add_argument(
        "--level", type=int, metavar="N", help="which level of a level-list file (from 1)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of plain text"
    )
    show = parser.add_mutually_exclusive_group()
    show.add_argument(
        "--keys",
        nargs="?",
        const=DEFAULT_KEYS,
        metavar="KEYS",
        help=(
            "print the key string instead of the moves; KEYS names the up, down, left, "
            f"right and act keys (default {DEFAULT_KEYS!r})"
        ),
    )
    show.add_argument(
        "--all", type=int, metavar="N", help="print up to N distinct solutions (blank-line apart)"
    )
    show.add_argument(
        "--count", action="store_true", help="print how many distinct solutions there are"
    )
    parser.add_argument(
        "--start",
        default="1,1",
        metavar="R,C",
        help="cell where the cursor starts (default 1,1)",
    )
    parser.add_argument(
        "--from-board",
        metavar="FILE",
        help="the board as it stands now (level text format): finish the level from there",
    )
    parser.add_argument(
        "--wrap", action="store_true", help="the cursor wraps round the board edges"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="time allowed to search for the fewest key presses (default 1)",
    )
    return parser


def _read(file: str, stdin: TextIO) -> tuple[str, str]:
    if file == "-":
        return stdin.read(), "<stdin>"
    return read_text(file), file


def _pick_level(levels: list[Level], wanted: int | None, source: str) -> Level:
    if wanted is None:
        if len(levels) > 1:
            raise BadSolveInput(
                f"{source} holds {len(levels)} levels; choose one with --level N (1..{len(levels)})"
            )
        return levels[0]
    if not 1 <= wanted <= len(levels):
        held = "1 level" if len(levels) == 1 else f"{len(levels)} levels"
        raise BadSolveInput(
            f"{source} holds {held}; --level must be 1..{len(levels)}, not {wanted}"
        )
    return levels[wanted - 1]


def _parse_start(text: str, board: Board) -> Cell:
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise BadSolveInput(f"--start wants ROW,COL such as 1,1, not {text!r}")
    row, col = int(parts[0]), int(parts[1])
    if not (1 <= row <= board.rows and 1 <= col <= board.cols):
        raise BadSolveInput(f"--start {row},{col} is outside the {board.rows}x{board.cols} board")
    return row, col


def _lines(plan: Sequence[Sequence[int]]) -> str:
    return "".join(f"{r} {c}\n" for r, c in plan)


def _summary(found: Ordering, start: Cell, budget: float) -> str:
    head = f"{len(found.plan)} moves, {found.presses} key presses from {start[0]},{start[1]}"
    if found.optimal:
        return f"{head}; proven fewest (lower bound {found.lower_bound})"
    return f"{head}; not proven fewest within {budget:g} s (lower bound {found.lower_bound})"


def _now(args: argparse.Namespace, stdin: TextIO, target: Board) -> Board | None:
    """The board as it stands (``--from-board``), checked against the target's size."""
    if args.from_board is None:
        return None
    if args.all is not None or args.count:
        raise BadSolveInput("--from-board plans moves; it does not go with --all or --count")
    if args.from_board == "-" and args.file == "-":
        raise BadSolveInput("the target and --from-board cannot both come from standard input")
    text, source = _read(args.from_board, stdin)
    now = _pick_level(parse_level_list(text, source), None, source).board
    if (now.rows, now.cols) != (target.rows, target.cols):
        raise BadSolveInput(
            f"{source} is {now.rows}x{now.cols} but the target is {target.rows}x{target.cols}"
        )
    return now


def _resets(done: Resumed) -> str:
    if done.resets == 0:
        return "no RESET needed"
    return f"press RESET {done.resets} time(s) first, back to an empty board"


def _run(args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO) -> int:
    text, source = _read(args.file, stdin)
    level = _pick_level(parse_level_list(text, source), args.level, source)
    board = level.board
    start = _parse_start(args.start, board)
    now = _now(args, stdin, board)
    if args.keys is not None and len(args.keys) != 5:
        raise BadSolveInput(f"--keys wants 5 keys (up, down, left, right, act), not {args.keys!r}")
    if args.all is not None and args.all < 1:
        raise BadSolveInput(f"--all wants a number of solutions from 1, not {args.all}")
    report: dict[str, object] = {
        "source": source,
        "level": level.number,
        "rows": board.rows,
        "cols": board.cols,
        "start": list(start),
        "wrap": args.wrap,
    }
    verdict = solve(board)
    report["solved"] = verdict.solved
    if not verdict.solved:
        report["reason"] = verdict.reason
        if args.count:
            report["count"] = 0
        if args.json:
            out.write(json.dumps(report) + "\n")
        else:
            if args.count:
                out.write("0\n")
            err.write(f"{PROG}: unsolvable: {verdict.reason}\n")
        return 1
    if args.count:
        total = count_solutions(board, limit=COUNT_LIMIT)
        report["count"] = total
        report["count_capped"] = total >= COUNT_LIMIT
        if not args.json:
            out.write(f"at least {total}\n" if total >= COUNT_LIMIT else f"{total}\n")
    elif args.all is not None:
        found_all = [list(map(list, p)) for p in solutions(board, limit=args.all)]
        report["solutions"] = found_all
        if not args.json:
            out.write("\n".join(_lines(p) for p in found_all))
    else:
        if now is None:
            found = fewest_presses(board, start=start, wrap=args.wrap, budget_s=args.budget)
        else:
            try:
                done = resume(board, now, start, wrap=args.wrap, budget_s=args.budget)
            except Unsolvable as exc:  # solve() said yes above: cannot happen
                raise BadSolveInput(str(exc)) from None
            found = done.ordering
            report["resets"] = done.resets
            report["board_after_resets"] = done.board.rows_text()
            err.write(f"{_resets(done)}\n")
        size = (board.rows, board.cols)
        report.update(
            plan=[list(c) for c in found.plan],
            presses=found.presses,
            lower_bound=found.lower_bound,
            optimal=found.optimal,
        )
        if args.keys is not None:
            report["keys"] = keys_for(found.plan, start, args.wrap, args.keys, size)
        if not args.json:
            if args.keys is not None:
                out.write(f"{report['keys']}\n")
            else:
                out.write(_lines(found.plan))
            err.write(_summary(found, start, args.budget) + "\n")
    if args.json:
        out.write(json.dumps(report) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args, sys.stdin, sys.stdout, sys.stderr)
    except (LevelFormatError, BadSolveInput) as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
