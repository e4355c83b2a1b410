"""The dead-cache and the deal-cache (docs/solver.md): subtrees an earlier search of the same
deal searched whole are skipped by the later searches. Each must keep every verdict, and each
must be in use (otherwise the agreement below would be vacuous): on these deals it changes how
many nodes some searches take, and only ever downwards here. Each is measured with the other
off, since with both on one can hide the other (the sealed roots are roots of both).

``tests/test_pruning.py`` also runs each alone against the unpruned search, like every rule."""
from __future__ import annotations

import pytest

from solver.core import DEFAULT_RULES, PRUNING_RULES, run
from solver.deals import deal_from_number
from solver.games import find_game
from solver.result import Verdict

CACHES = ("dead-cache", "deal-cache")


@pytest.mark.parametrize("cache, game_id, changed_at_least", [
    ("dead-cache", "banner", 3), ("dead-cache", "devils-solitaire", 3),
    ("dead-cache", "forget-me-not", 3), ("dead-cache", "clover", 3),
    ("dead-cache", "glencoe", 1), ("dead-cache", "pysol-glencoe", 1),
    ("deal-cache", "banner", 3), ("deal-cache", "devils-solitaire", 1),
    ("deal-cache", "forget-me-not", 3), ("deal-cache", "clover", 2),
    ("deal-cache", "glencoe", 1), ("deal-cache", "pysol-glencoe", 1)])
def test_cache_keeps_the_verdicts_and_is_used(cache, game_id, changed_at_least):
    other = next(c for c in CACHES if c != cache)
    with_cache = DEFAULT_RULES & ~PRUNING_RULES[other]
    without_cache = with_cache & ~PRUNING_RULES[cache]
    game = find_game(game_id)
    decided = changed = 0
    for number in range(1, 31):
        deal = deal_from_number(game, number)
        on = run(game, deal, max_nodes=200_000, prune=with_cache, line=False)
        off = run(game, deal, max_nodes=200_000, prune=without_cache, line=False)
        if Verdict.UNKNOWN not in (on.verdict, off.verdict):
            assert on.verdict is off.verdict, (cache, game_id, number)
            decided += 1
        if on.stats.nodes != off.stats.nodes:
            changed += 1
            assert on.stats.nodes < off.stats.nodes, (cache, game_id, number)
    assert decided >= 25
    assert changed >= changed_at_least
