"""The cell-wait rule (docs/solver.md, "cell-wait"), Banner family: an order, not a cut.

Before the last pass, a play from a cell is listed after the turn (deal or redeal) when the waste
top it would pull into the cell is not wanted soon: its rank is not among the next 8 + cells
ranks the foundation takes, beyond the copies already in the cells. Each probe also runs without
the rule (search.c, twin rules). The rule must offer exactly the moves the search offers without
it, swapped exactly there, and must be in use. ``tests/test_pruning.py`` also runs it alone
against the unpruned search, like every rule.
"""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from solver import _core
from solver.cards import rank_of
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game, initial_reference
from solver.deals import deal_from_number
from solver.games import find_game
from solver.rules.banner import RUN_LENGTH

from rule_helpers import decided_and_changed, same_search

WAIT = PRUNING_RULES["cell-wait"]
FAMILY = ["banner", "devils-solitaire", "forget-me-not", "clover"]


def coming_ranks(game, deal):
    """The ranks the foundation takes from the start, in order: each run from the rank above its
    reserve card's, the reserve's top card's run first."""
    reserve = initial_reference(game, deal).reserve
    return [(rank_of(c) + 1 + k) % 13 for c in reversed(reserve) for k in range(RUN_LENGTH)]


def wanted_soon(game, state, coming, rank):
    have = state["cells"].count(rank)
    at = state["runs"] * RUN_LENGTH + state["foundation"]
    for r in coming[at:at + 8 + game.cells]:
        if r == rank:
            have -= 1
            if have < 0:
                return True
    return False


def expected(game, state, coming, plain):
    """The list with the rule, from the list without it."""
    turns = ((_core.DEAL, 0, 0), (_core.REDEAL, 0, 0))
    if (len(plain) == 2 and plain[0][0] == _core.CELL and plain[1] in turns and state["waste"]
            and state["passes"] < game.max_passes
            and not wanted_soon(game, state, coming, state["waste"][-1])):
        return [plain[1], plain[0]]
    return plain


def walk(game_id, number, choose, steps=400):
    """(game, position, describe(), coming ranks) along the line ``choose(plain moves)`` picks."""
    game = find_game(game_id)
    deal = deal_from_number(game, number)
    coming = coming_ranks(game, deal)
    pos = core_game(game, deal).position()
    for _ in range(steps):
        yield game, pos, pos.describe(), coming
        plain = pos.moves(True, DEFAULT_RULES & ~WAIT)
        if not plain or pos.is_won():
            return
        pos = pos.play(choose(plain))


@settings(max_examples=30, deadline=None)
@given(game_id=st.sampled_from(FAMILY), number=st.integers(1, 10 ** 6),
       seed=st.integers(0, 2 ** 32 - 1))
def test_the_rule_only_orders_the_moves(game_id, number, seed):
    """Along random lines: the same moves with and without the rule, swapped exactly where the
    rule says."""
    rng = random.Random(seed)
    for game, pos, state, coming in walk(game_id, number, rng.choice):
        plain = pos.moves(True, DEFAULT_RULES & ~WAIT)
        ordered = pos.moves(True, DEFAULT_RULES)
        assert sorted(ordered) == sorted(plain)
        assert ordered == expected(game, state, coming, plain), (game_id, number, state)


def test_the_rule_swaps_cell_plays_on_greedy_lines():
    """In use: on the lines that always take the first move without the rule, it puts a cell
    play after the turn many times in every game, and not every time it could."""
    swapped, kept = {}, {}
    for game_id in FAMILY:
        swapped[game_id] = kept[game_id] = 0
        for number in range(1, 11):
            for game, pos, state, coming in walk(game_id, number, lambda plain: plain[0]):
                plain = pos.moves(True, DEFAULT_RULES & ~WAIT)
                if len(plain) == 2 and plain[0][0] == _core.CELL:
                    ordered = pos.moves(True, DEFAULT_RULES)
                    swapped[game_id] += ordered != plain
                    kept[game_id] += ordered == plain
    assert all(swapped[g] >= 5 and kept[g] >= 5 for g in FAMILY), (swapped, kept)


def test_the_rule_keeps_the_verdicts_and_changes_the_search():
    """With the rule (and the twin probes without it) and without it: the same verdicts, and on
    some deals past the first short search other node counts."""
    decided, changed = decided_and_changed(FAMILY, range(1, 31), DEFAULT_RULES,
                                           DEFAULT_RULES & ~WAIT)
    assert decided >= 100 and changed >= 10, (decided, changed)


def test_the_salic_games_search_the_same_with_or_without_the_rule():
    probed = sum(same_search(find_game(game_id), range(1, 13), DEFAULT_RULES,
                             DEFAULT_RULES & ~WAIT)
                 for game_id in ("glencoe", "pysol-glencoe", "pysol-laggard-lady"))
    assert probed >= 3, probed


def test_the_rule_is_a_default_rule():
    assert DEFAULT_RULES & WAIT
