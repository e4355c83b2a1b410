"""The order of work under a time limit (docs/solver.md, "Order of work"): the probes may take
at most half of the time, and the exhaustive search that follows them keeps the rest. A probe
that fails proves nothing, so a probe that ran on to the limit would leave the deal unknown
without the search that can decide it; these deals are among the few that a second is not
enough for, so the time limit is reached here."""
from __future__ import annotations

import pytest

from solver.core import DEFAULT_RULES, core_game
from solver.deals import deal_from_number
from solver.games import find_game

LIMIT = 1.0
# Deals that take seconds or more at the 60 s limit, most of them never decided there
# (benchmarks/results/limits-60s-2GiB.md); the test needs two per game that outlast LIMIT.
HARD = {
    "pysol-glencoe": (79, 222, 602, 7077),
    "pysol-intrigue": (1545, 4332, 9509),
    "glencoe": (79, 1315, 1545, 2693),
    "banner": (1770, 2064, 5720, 6848),
}


@pytest.mark.parametrize("game_id", sorted(HARD))
def test_the_final_search_begins_before_the_time_is_up(game_id):
    game = find_game(game_id)
    timed_out = 0
    for number in HARD[game_id]:
        core = core_game(game, deal_from_number(game, number))
        status, _, nodes, _, _, _, seconds, final_start = core.search(
            0, LIMIT, 1 << 28, DEFAULT_RULES)
        if status != "time":
            continue
        timed_out += 1
        # The probes stop at the first clock check past LIMIT / 2 (every 1,024 nodes), so the
        # final search begins then: well before the limit, which ends it.
        assert 0.0 < final_start < LIMIT, (game_id, number, final_start, seconds)
        assert seconds >= LIMIT > final_start, (game_id, number, seconds)
    assert timed_out >= 2, (game_id, timed_out)


def test_without_a_time_limit_the_node_share_still_holds():
    """With a node limit only, the probes take at most half of the nodes: the final search
    begins, and the search stops at the limit."""
    game = find_game("pysol-glencoe")
    core = core_game(game, deal_from_number(game, 79))
    status, _, nodes, _, _, _, _, final_start = core.search(400_000, 0.0, 1 << 28, DEFAULT_RULES)
    assert status == "nodes" and final_start > 0.0, (status, final_start)
    assert nodes >= 400_000, nodes
