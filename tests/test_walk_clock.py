"""The room test's whole walks read the clock (docs/solver.md, "Time limit", *Long walks*): a
walk that finds the search's deadline passed leaves undecided and the search ends "unknown
(time)". Where the deadline is not reached, nothing may change: the clock decides only when the
search stops, never which nodes it searches. These deals reach the whole walks of the end game
(the near-end zone) within the node limits used here."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core import DEFAULT_RULES, core_game
from solver.deals import deal_from_number
from solver.games import find_game

MEMORY = 1 << 28
# Deals whose searches at 2 s ended late before the walks read the clock (survey-2s-1-100000.md).
SLOW_WALKS = [("glencoe", 23979), ("intrigue", 23979), ("pysol-glencoe", 17404),
              ("pysol-laggard-lady", 25030)]


def search(game_id, number, nodes, seconds):
    """(status, nodes, states) of a fresh core's search."""
    game = find_game(game_id)
    core = core_game(game, deal_from_number(game, number))
    status, _, searched, states, *_ = core.search(nodes, seconds, MEMORY, DEFAULT_RULES)
    return status, searched, states


@pytest.mark.parametrize(("game_id", "number"), SLOW_WALKS)
def test_a_far_time_limit_changes_no_node(game_id, number):
    plain = search(game_id, number, 120_000, 0.0)
    timed = search(game_id, number, 120_000, 3600.0)
    assert plain == timed
    assert plain[0] == "nodes" and plain[1] >= 120_000   # the limit, not a verdict, ended both


@settings(max_examples=12, deadline=None)
@given(game_id=st.sampled_from(["glencoe", "intrigue", "pysol-glencoe", "pysol-intrigue",
                                "pysol-laggard-lady"]),
       number=st.integers(1, 1_000_000))
def test_any_deal_searches_the_same_nodes_under_a_far_time_limit(game_id, number):
    assert search(game_id, number, 30_000, 0.0) == search(game_id, number, 30_000, 3600.0)


@pytest.mark.parametrize(("game_id", "number"), SLOW_WALKS[:2])
def test_a_search_that_reaches_its_time_limit_says_time(game_id, number):
    status, nodes, _ = search(game_id, number, 0, 0.3)
    assert status == "time" and 0 < nodes
