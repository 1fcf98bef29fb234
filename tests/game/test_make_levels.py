"""The level generator's parts: the aim, the choice of values, variants, advice."""

from __future__ import annotations

from game import make_levels
from game.designs import Design, load_designs
from game.difficulty import pair_counts
from logo_bot.solvers import order

DESIGNS = load_designs(make_levels.DESIGNS)


def test_the_aim_rises_with_the_level():
    aims = [make_levels.aim(n) for n in range(1, 101)]
    assert aims == sorted(aims) and aims[0] < aims[49] < aims[99]


def test_chosen_values_keep_the_design_and_meet_the_aim():
    for number in (22, 47, 93):  # up arrow, snowflake, keyhole: the aim is reachable
        design = DESIGNS[number - 1]
        target = make_levels.nth_variant(design, make_levels.SEED)
        assert tuple(target.stones()) == design.cells
        assert pair_counts(target)[1] == make_levels.aim(number)


def test_variants_are_reproducible_and_differ():
    design = DESIGNS[60]
    first = list(zip(range(3), make_levels.variants(design, 5), strict=False))
    again = list(zip(range(3), make_levels.variants(design, 5), strict=False))
    assert first == again
    assert len({board for _, board in first}) == 3
    pinned = Design(design.number, design.theme, design.name, design.cells, None, 2)
    assert make_levels.nth_variant(pinned, 5) == first[2][1]


def test_a_fixed_design_has_its_one_target():
    published = DESIGNS[0]
    assert list(make_levels.variants(published, 1)) == [published.fixed]


def test_make_level_records_the_proven_fewest_presses():
    target, difficulty, presses = make_levels.make_level(DESIGNS[0], make_levels.SEED)
    assert target == DESIGNS[0].fixed
    assert difficulty.stones == 5
    best = order.fewest_presses(target, start=(1, 1), wrap=False, budget_s=10)
    assert best.optimal and presses == best.presses


def test_pick_variants_suggests_the_first_variant_that_proves(monkeypatch):
    slow = {board for _, board in zip(range(2), make_levels.variants(DESIGNS[2], 1), strict=False)}

    def prove(target, budget_s):
        plan = order.fewest_presses(target, start=(1, 1), wrap=False, budget_s=budget_s).plan
        return order.Ordering(plan, 99, 0 if target in slow else 99, target not in slow)

    monkeypatch.setattr(make_levels, "prove", prove)
    advice = make_levels.pick_variants(DESIGNS[:4], 1, budget_s=5)
    assert advice == ["level 3 (big plus): use 'variant: 2' (now 0)"]
