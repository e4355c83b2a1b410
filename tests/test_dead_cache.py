"""The dead-cache (docs/solver.md, "dead-cache"): sealed subtrees a probe searched whole are
skipped by the later searches of the same deal. It must keep every verdict, and it must be in
use (otherwise the agreement below would be vacuous): on these deals it changes how many nodes
some searches take, and only ever downwards here.

``tests/test_pruning.py`` also runs it alone against the unpruned search, like every rule."""
from __future__ import annotations

import pytest

from solver.core import DEFAULT_RULES, PRUNING_RULES, run
from solver.deals import deal_from_number
from solver.games import find_game
from solver.result import Verdict

WITHOUT = DEFAULT_RULES & ~PRUNING_RULES["dead-cache"]


@pytest.mark.parametrize("game_id, changed_at_least", [
    ("banner", 3), ("devils-solitaire", 3), ("forget-me-not", 3), ("clover", 3),
    ("glencoe", 1), ("pysol-glencoe", 1)])
def test_dead_cache_keeps_the_verdicts_and_is_used(game_id, changed_at_least):
    game = find_game(game_id)
    decided = changed = 0
    for number in range(1, 31):
        deal = deal_from_number(game, number)
        with_cache = run(game, deal, max_nodes=200_000, prune=DEFAULT_RULES, line=False)
        without = run(game, deal, max_nodes=200_000, prune=WITHOUT, line=False)
        if Verdict.UNKNOWN not in (with_cache.verdict, without.verdict):
            assert with_cache.verdict is without.verdict, (game_id, number)
            decided += 1
        if with_cache.stats.nodes != without.stats.nodes:
            changed += 1
            assert with_cache.stats.nodes < without.stats.nodes, (game_id, number)
    assert decided >= 25
    assert changed >= changed_at_least
