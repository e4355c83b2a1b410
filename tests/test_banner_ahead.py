"""The banner-ahead rule (docs/solver.md, "banner-ahead"), Banner family: the prefix bound run at
the end of the chain of deals that a position with no play must go through.

In the last pass, where the rank needed is neither in a cell nor on the waste top, the only move
is a deal, and so on until the first stock card of that rank is dealt. The rule tests the
position at the end of that chain (its waste reaching up to that card) with the prefix bound, and
calls the position dead outright when no stock card has the rank. The search skips the test
inside a chain, which the argument allows because a deal never weakens the bound: checked here
on the plain statement of the bound (tests/test_prefix_bound.py) for arbitrary rank lists, and on
the core's positions. ``tests/test_pruning.py`` also runs the rule alone against the unpruned
search, like every rule.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import DEFAULT_RULES, PRUNING_RULES
from solver.games import find_game

from rule_helpers import decided_and_changed, same_search
from test_prefix_bound import (BANNER_IDS, EMPTY, last_pass_positions, needs_left,
                               plain_prefix_dead)

AHEAD = PRUNING_RULES["banner-ahead"]
PREFIX = PRUNING_RULES["banner-prefix"]
FAMILY = BANNER_IDS
DEAL = (_core.DEAL, 0, 0)


def plain_ahead_dead(cells, waste, stock, needs, prefix: bool) -> bool:
    """The rule written out: with a play possible, the prefix bound itself (when ``prefix``);
    without one, the prefix bound after dealing up to the first stock card of the rank needed,
    or dead when the stock has none."""
    need = needs[0]
    if need in cells or (waste and waste[-1] == need):
        return prefix and bool(waste) and plain_prefix_dead(cells, waste, stock, needs)
    if need not in stock:
        return True
    cut = stock.index(need) + 1
    return plain_prefix_dead(cells, waste + stock[:cut], stock[cut:], needs)


@pytest.mark.parametrize("game_id", FAMILY)
def test_core_rule_is_the_plain_one(game_id):
    """On last-pass positions (empty wastes included), the core's test with the rule, with and
    without the prefix bound, calls exactly the positions dead that the plain statement does."""
    game = find_game(game_id)
    rng = random.Random(f"ahead-{game_id}")
    seen = Counter()
    for deal, pos in last_pass_positions(game, rng, deals=12, empty_waste=True):
        if pos.is_won():
            continue
        state = pos.describe()
        args = (state["cells"], state["waste"], state["stock"], needs_left(game, deal, state))
        for bits, prefix in ((AHEAD | PREFIX, True), (AHEAD, False)):
            plain = plain_ahead_dead(*args, prefix=prefix)
            assert pos.is_dead(bits) == plain, (game_id, deal.number, state, bits)
        cells, waste, _, needs = args
        if not (needs[0] in cells or (waste and waste[-1] == needs[0])):
            seen["no play", plain_ahead_dead(*args, prefix=False)] += 1
        # the rule is stronger than the bound where no play is possible: count where it adds
        seen["adds"] += pos.is_dead(AHEAD) and not pos.is_dead(PREFIX)
    # every outcome seen, so the comparison is not vacuous
    assert seen["no play", True] >= 100 and seen["no play", False] >= 100, dict(seen)
    assert seen["adds"] >= 10, dict(seen)


ranks = st.integers(0, 12)


@settings(max_examples=400)
@given(cells=st.lists(st.integers(0, EMPTY), max_size=8), waste=st.lists(ranks, max_size=12),
       stock=st.lists(ranks, min_size=1, max_size=12), needs=st.lists(ranks, max_size=30))
def test_a_deal_never_weakens_the_plain_bound(cells, waste, stock, needs):
    """The argument's lemma, on any rank lists: if the bound calls a position dead, it calls
    dead the position after a deal (the first stock card moved onto the waste)."""
    if plain_prefix_dead(cells, waste, stock, needs):
        assert plain_prefix_dead(cells, waste + stock[:1], stock[1:], needs)


@pytest.mark.parametrize("game_id", FAMILY)
def test_a_deal_never_weakens_the_core_bound(game_id):
    """The same lemma on the core's last-pass positions, for the prefix bound as the core runs
    it, and for the rule itself (both tested with no move before, so in full)."""
    game = find_game(game_id)
    rng = random.Random(f"ahead-lemma-{game_id}")
    dead = 0
    for _, pos in last_pass_positions(game, rng, deals=12, empty_waste=True):
        if DEAL not in pos.moves():
            continue
        child = pos.play(DEAL)
        for bits in (PREFIX, AHEAD | PREFIX):
            if pos.is_dead(bits):
                dead += 1
                assert child.is_dead(bits), (game_id, pos.describe(), bits)
    assert dead >= 200, dead


def test_the_rule_keeps_the_verdicts_and_changes_the_search():
    """Deals searched with every default rule, with and without this one: the same verdicts
    wherever both decide, and node counts that differ, so the rule is in use."""
    decided, changed = decided_and_changed(FAMILY, range(1, 41), DEFAULT_RULES,
                                           DEFAULT_RULES & ~AHEAD, max_nodes=150_000)
    assert decided >= 150 and changed >= 50, (decided, changed)


def test_salic_games_are_untouched():
    """The bit means nothing in the Salic family: node for node the same search (checked in
    same_search), on deals that go on past the first short search."""
    probed = sum(same_search(find_game(game_id), range(1, 21), DEFAULT_RULES, DEFAULT_RULES & ~AHEAD)
                 for game_id in ("glencoe", "pysol-intrigue"))
    assert probed >= 3, probed
