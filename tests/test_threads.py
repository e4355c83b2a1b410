"""Two threads (``solve(threads=2)``, ``solver solve --threads 2``; docs/solver.md, "Two
threads"): the usual schedule and the exhaustive search alone, side by side, sharing the memory
limit; the first to decide stops the other."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from solver import solve
from solver.core import run
from solver.deals import deal_from_number
from solver.games import GAME_IDS, find_game
from solver.result import Verdict
from solver.rules import initial_position

from test_solve_cli import hard_deal, interrupt_after  # noqa: F401  (a fixture, a helper)


def replays_to_a_win(game, deal, moves) -> bool:
    position = initial_position(game, deal)
    for move in moves:
        position = position.apply(move)
    return position.is_won()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GAME_IDS), st.integers(1, 3000), st.sampled_from([3000, 30000]))
def test_two_threads_decide_what_one_does_with_the_same_verdict(game_id, number, nodes):
    """The usual searches run unchanged beside the exhaustive one, so whatever one thread
    decides two decide too (memory is no limit here); every verdict two threads give agrees
    with one thread's where that decided, and a winning line replays through the reference
    rules."""
    game = find_game(game_id)
    deal = deal_from_number(game, number)
    one = solve(game, deal, max_nodes=nodes)
    two = solve(game, deal, max_nodes=nodes, threads=2)
    if one.verdict is not Verdict.UNKNOWN:
        assert two.verdict is one.verdict, (game_id, number)
    if two.verdict is Verdict.WINNABLE:
        assert replays_to_a_win(game, deal, two.moves)
        assert len(two.moves) == two.length
    if two.verdict is not Verdict.UNKNOWN and one.verdict is Verdict.UNKNOWN:
        # decided by the exhaustive search alone: it agrees when run on its own
        alone = run(game, deal, max_nodes=nodes, probes=False)
        assert alone.verdict is two.verdict


def exhaustive_first_deal():
    """A deal whose exhaustive search alone ends in a tenth of the nodes of the usual schedule
    (node counts do not depend on time): looked up among a few where it was so (Glencoe 1150:
    279,545 against 2,069,517 with the inner game; PySol Glencoe 24: 5,519 against 60,209;
    Banner 147)."""
    for game_id, number in (("glencoe", 1150), ("pysol-glencoe", 24), ("banner", 147)):
        game = find_game(game_id)
        deal = deal_from_number(game, number)
        alone = run(game, deal, probes=False)
        usual = solve(game, deal)
        if usual.stats.nodes >= 10 * alone.stats.nodes and usual.verdict is alone.verdict:
            return deal, alone, usual
    pytest.fail("the exhaustive search alone is no longer 10 times quicker on any deal tried")


def test_the_first_to_decide_stops_the_other():
    deal, alone, usual = exhaustive_first_deal()
    two = solve(deal.game, deal, threads=2)
    assert two.verdict is alone.verdict
    assert two.moves == alone.moves          # the exhaustive search's line: it decided
    # and the usual searches were stopped long before their end (alone, they ran to it)
    assert alone.stats.nodes <= two.stats.nodes < usual.stats.nodes


def test_the_tables_share_the_memory_limit(hard_deal):
    """The usual search alone fills the limit; beside the exhaustive one, the two tables
    together stay within it, and both searches ran."""
    game = find_game(hard_deal[0])
    deal = deal_from_number(game, int(hard_deal[1]))
    limit = 4 << 20
    one = solve(game, deal, timeout=20, max_memory=limit)
    assert one.reason == "memory" and one.stats.table_bytes > limit // 2
    two = solve(game, deal, timeout=20, max_memory=limit, threads=2)
    assert two.verdict is Verdict.UNKNOWN and two.reason == "memory"
    assert one.stats.nodes < two.stats.nodes
    # table_bytes with two threads: the most the tables held at once, together
    assert limit // 2 < two.stats.table_bytes <= limit


def test_two_searches_of_one_pool_never_hold_more_than_it(hard_deal):
    """Two exhaustive searches side by side, each allowed the whole limit: alone each fills it,
    so without the pool they would hold twice the limit; with it, never more than the limit."""
    import threading

    from solver import _core
    from solver.core import DEFAULT_RULES, core_game
    game = find_game(hard_deal[0])
    core = core_game(game, deal_from_number(game, int(hard_deal[1])))
    limit = 8 << 20
    alone = core.search(0, 20.0, limit, DEFAULT_RULES, None, 0)
    assert alone[0] == "memory" and alone[4] > 3 * limit // 4
    shared = _core.SharedSearch(limit)
    out = {}
    other = threading.Thread(target=lambda: out.update(
        other=core.search(0, 20.0, limit, DEFAULT_RULES, None, 0, shared)))
    other.start()
    mine = core.search(0, 20.0, limit, DEFAULT_RULES, None, 0, shared)
    other.join()
    assert mine[0] == out["other"][0] == "memory"
    assert limit // 2 < shared.pool_peak <= limit
    assert shared.pool_used == 0                     # every table gave its memory back


def test_threads_is_one_or_two():
    with pytest.raises(ValueError, match="threads must be 1 or 2"):
        solve("glencoe", 1, threads=3)


def test_cli_threads_option(run_solver):
    won = run_solver("solve", "glencoe", "1", "--threads", "2", "--json")
    assert won.returncode == 0
    out = json.loads(won.stdout)
    assert out["verdict"] == "winnable" and out["length"] == len(out["moves"])
    bad = run_solver("solve", "glencoe", "1", "--threads", "3")
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1 and "--threads" in bad.stderr
    assert "--threads" in run_solver("solve", "--help").stdout


def test_ctrl_c_with_two_threads_stops_both(tmp_path):
    """PySol Glencoe 222 (never decided at 60 s): the exhaustive search would run on for the
    whole 100 s (its 1 GiB lasts), past communicate()'s 60 s, if Ctrl-C did not stop it."""
    status, stdout, stderr = interrupt_after(
        tmp_path, ["pysol-glencoe", "222", "--json", "--timeout", "100", "--max-memory", "2G",
                   "--threads", "2"])
    assert status == 130, stderr
    out = json.loads(stdout)
    assert out["verdict"] == "unknown" and out["reason"] == "interrupted"
    assert out["stats"]["nodes"] > 0 and out["stats"]["seconds"] < 60
