"""Benchmark: the project's planner against the published search, CP-SAT and clingo.

Prints, for every class of seeded targets, the median and worst time of each
solver, the ratios of the others' median to ours, the keypresses of the
published search's plans against ``fewest_presses`` and its lower bound over
the 6x10 targets, and the project's speed targets marked PASS or FAIL.

    python benchmarks/solver.py                 # 20 targets per class, about 10 min
    python benchmarks/solver.py --quick         # 3 per class, under a minute
    python benchmarks/solver.py --classes "6x10 full,32x32 full unsat" --per-class 50

The exit code is 1 when any solver gave a wrong answer (a verdict against the
target's label, or a plan that does not build the target), 2 on bad options.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as benchmarks/solver.py

from benchmarks import contenders, corpus, keypresses, targets
from benchmarks.measure import Contender, Tally, measure
from benchmarks.report import Progress, ms, ratio, spread, table
from logo_bot.solvers import planner
from logo_bot.solvers.board import Board

WARM_UP = Board.from_rows(["..........", "....2.....", "...212....", "....2....."])


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="benchmarks/solver.py",
        description=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="classes: " + ", ".join(c.name for c in corpus.CLASSES),
    )
    parser.add_argument("--quick", action="store_true", help="3 targets per class, 0.2 s cap")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument("--per-class", type=int, metavar="N", help="targets per class")
    parser.add_argument(
        "--classes",
        metavar="LIST",
        help="comma-separated class or family names (a family name takes all three kinds)",
    )
    parser.add_argument(
        "--cap",
        type=float,
        metavar="S",
        help="the reference's time cap per target in seconds (default 1, 0.2 with --quick)",
    )
    parser.add_argument(
        "--order-budget",
        type=float,
        default=1.0,
        metavar="S",
        help="time budget of fewest_presses per target (default 1 s)",
    )
    args = parser.parse_args(argv)
    args.per_class = args.per_class or (3 if args.quick else 20)
    args.cap = args.cap or (0.2 if args.quick else 1.0)
    if args.per_class < 1:
        parser.error("--per-class must be at least 1")
    try:
        args.selected = select(args.classes)
    except ValueError as exc:
        parser.error(str(exc))
    return args


def select(spec: str | None) -> list[corpus.BoardClass]:
    if not spec:
        return list(corpus.CLASSES)
    chosen: list[corpus.BoardClass] = []
    for name in (part.strip() for part in spec.split(",") if part.strip()):
        family = [c for c in corpus.CLASSES if c.family.name == name]
        for board_class in family or [corpus.class_named(name)]:
            if board_class not in chosen:
                chosen.append(board_class)
    return sorted(chosen, key=corpus.CLASSES.index)


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    ours = contenders.ours()
    field: list[Contender | str] = [ours, contenders.published(args.cap), *contenders.peers()]
    racing = [c for c in field if isinstance(c, Contender)]
    n = args.per_class
    six_by_ten = [c for c in args.selected if c.solvable and c.family.rows == 6]
    work = sum(n * (3 if c.kind == corpus.ADVERSARIAL else 1) for c in args.selected)
    progress = Progress(work + n * len(args.selected) * len(racing) + n * len(six_by_ten))

    for contender in racing:
        contender.run(WARM_UP)

    def decide(target: Board) -> bool:
        return planner.solve(target).solved

    results: dict[str, dict[str, Tally | None]] = {}
    corpora: dict[str, list[Board]] = {}
    for board_class in args.selected:
        progress.phase(f"generating {board_class.name}")
        corpora[board_class.name] = corpus.generate(board_class, n, args.seed, decide)
        progress.done += n * (3 if board_class.kind == corpus.ADVERSARIAL else 1)
        row: dict[str, Tally | None] = {}
        for contender in field:
            if isinstance(contender, str):
                row[contender] = None
                continue
            progress.phase(f"{board_class.name}: {contender.name}")
            row[contender.name] = measure(
                contender, corpora[board_class.name], board_class.solvable, progress.tick
            )
        results[board_class.name] = row

    presses: keypresses.PressTotals | None = None
    if six_by_ten:
        progress.phase("fewest_presses on the 6x10 targets")
        targets, theirs, mine = [], [], []
        for board_class in six_by_ten:
            row = results[board_class.name]
            targets += corpora[board_class.name]
            theirs += row["reference"].plans  # type: ignore[union-attr]
            mine += row["ours"].plans  # type: ignore[union-attr]
        presses = keypresses.compare(targets, theirs, mine, args.order_budget, progress.tick)
    progress.close()

    print_report(args, field, results, presses)
    wrong = sum(t.wrong for row in results.values() for t in row.values() if t)
    wrong += presses.wrong if presses else 0
    if wrong:
        print(f"\n{wrong} WRONG answer(s): see the 'wrong' column; this is a solver bug.")
    return 1 if wrong else 0


def print_report(
    args: argparse.Namespace,
    field: list[Contender | str],
    results: dict[str, dict[str, Tally | None]],
    presses: keypresses.PressTotals | None,
) -> None:
    names = [c if isinstance(c, str) else c.name for c in field]
    plural = "s" if args.per_class != 1 else ""
    print(
        f"logo-bot solver benchmark: seed {args.seed}, {args.per_class} target{plural} per class,"
        f" reference cap {args.cap:g} s"
    )
    print(
        f"Python {platform.python_version()} on {os.cpu_count()} CPUs; "
        f"ortools {version('ortools')} (CP-SAT, 1 worker); clingo {version('clingo')}"
    )
    families = sorted({c.family for c in args.selected}, key=corpus.FAMILIES.index)
    sizes = [
        f"{f.name} {f.stones[0]}" + (f"-{f.stones[1]}" if f.stones[1] != f.stones[0] else "")
        for f in families
    ]
    print("Stones per target: " + ", ".join(sizes[:4]) + ("," if sizes[4:] else "."))
    if sizes[4:]:
        print("  " + ", ".join(sizes[4:]) + ".")
    print(
        "unsat: two values moved +1/-1 or one stone moved, every counting condition kept;\n"
        "adversarial: the third of such targets on which the reference wanders longest."
    )
    print(
        "\nTime per target in ms (best of up to 3 calls within 50 ms), median / max over the"
        " class;\n't/o': the reference hit its cap; ratios are of medians."
    )
    header = ["class", "n", *names, "ref/ours", "CP-SAT/ours", "clingo/ours", "wrong", "targets"]
    rows = []
    for board_class in args.selected:
        row = results[board_class.name]
        base = row["ours"]
        assert base is not None
        wrong = [f"{name} {t.wrong}" for name, t in row.items() if t and t.wrong]
        rows.append(
            [
                board_class.name,
                str(len(base.seconds)),
                *(spread(row[name]) for name in names),
                ratio(row["reference"], base),
                ratio(row.get("CP-SAT"), base),
                ratio(row.get("clingo"), base),
                ", ".join(wrong) or "0",
                targets.verdict(targets.class_checks(board_class, row)),
            ]
        )
    print(table(header, rows, right_from=1, left=(len(header) - 1,)))
    if presses is not None:
        print_presses(presses)
    print("\nTargets")
    verdicts = {True: "PASS", False: "FAIL", None: "n/a"}
    summary = [
        (s.goal, s.measured, verdicts[s.passed]) for s in targets.summarise(results, presses)
    ]
    print(table(["target", "measured", "result"], summary, right_from=2))


def print_presses(p: keypresses.PressTotals) -> None:
    print(
        f"\nKeypresses (cursor moves and actions) over the {p.boards} solvable 6x10 targets, "
        "cursor from 1 1, no wrap"
    )
    rows = [
        ["reading order (row-major, as the solution allows)", str(p.reading)],
        ["ours: fewest_presses", str(p.fewest)],
        ["lower bound", str(p.lower_bound)],
        [
            f"published search's plan, on the {p.published_boards} it solved within its cap",
            str(p.published),
        ],
        [f"ours on those {p.published_boards}", str(p.fewest_where_published)],
    ]
    print(table(["order", "presses"], rows))
    if p.boards:
        saved = 100 * (p.reading - p.fewest) / p.reading
        gap = 100 * (p.fewest - p.lower_bound) / p.lower_bound
        print(
            f"fewest_presses: {saved:.1f}% fewer than reading order, {gap:.1f}% above the bound;"
            f" proven optimal on {p.optimal} of {p.boards};\ntime per order {ms(p.median)} ms"
            f" median, {ms(p.worst)} ms max"
        )


if __name__ == "__main__":
    sys.exit(main())
