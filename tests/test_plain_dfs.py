"""The search made the fast way and the plain way (csrc/dfs.h): node for node the same.

Each game's file makes its own copy of the depth-first search with its GameOps known at compile
time (GameOps.dfs), and the search works out the next sibling's position ahead of its turn to
ask the cache for its table slot (SEARCH_PREFETCH). Neither may change what is searched. The
flags of ``CoreGame.search(plain=...)`` make the same search the plain way: search.c's generic
copy, which calls the game through its GameOps, and each position worked out when its turn
comes. On random deals of every game, at node caps, with the default rules and with none, all
four ways give the same status, winning line, nodes, states and table size, and the same log of
searches (probes, exhaustive searches) with the nodes of each.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import DEFAULT_RULES, core_game
from solver.deals import deal_from_number
from solver.games import GAMES, find_game

GAME_IDS = [g.id for g in GAMES]
WAYS = [0, _core.PLAIN_FLAGS["generic-dfs"], _core.PLAIN_FLAGS["no-prefetch"],
        _core.PLAIN_FLAGS["generic-dfs"] | _core.PLAIN_FLAGS["no-prefetch"]]


def run(core, nodes, rules, plain):
    status, line, n, states, table_bytes, _peak, _seconds, final_start = core.search(
        nodes, 0.0, 1 << 28, rules, plain=plain)
    _status, _nodes, steps = core.search_steps(nodes, 0.0, 1 << 28, rules, plain=plain)
    return status, line, n, states, table_bytes, final_start >= 0, steps


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=15, deadline=None)
@given(number=st.integers(1, 10**6), nodes=st.sampled_from([300, 5_000, 60_000]),
       rules=st.sampled_from([DEFAULT_RULES, 0]))
def test_the_plain_ways_search_node_for_node_the_same(game_id, number, nodes, rules):
    game = find_game(game_id)
    core = core_game(game, deal_from_number(game, number))
    fast = run(core, nodes, rules, 0)
    for plain in WAYS[1:]:
        assert run(core, nodes, rules, plain) == fast, (game_id, number, nodes, rules, plain)


@pytest.mark.parametrize("game_id, number", [("banner", 6), ("pysol-glencoe", 24), ("glencoe", 6),
                                             ("clover", 10)])
def test_a_whole_search_is_the_same_every_way(game_id, number):
    """Searches that run through probes and exhaustive searches to a verdict (Clover 10 is
    unwinnable)."""
    game = find_game(game_id)
    core = core_game(game, deal_from_number(game, number))
    results = [run(core, 0, DEFAULT_RULES, plain) for plain in WAYS]
    assert results[0][0] in ("win", "no_win")
    assert len(results[0][6]) > 1            # more than the first short search
    assert all(r == results[0] for r in results[1:])
