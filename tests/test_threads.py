"""Two threads (``solve(threads=2)``, ``solver solve --threads 2``; docs/solver.md, "Two
threads"): the usual schedule and a second search side by side, sharing the memory limit; the
first to decide stops the other. The second search is the usual one with other random lines
where the deal's search has them (the PySol profiles), else the exhaustive search alone."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from solver import solve
from solver.api import SECOND_SEED, second_search
from solver.core import random_lines, run
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
    """The usual searches run unchanged beside the second one, so whatever one thread
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
        # decided by the second search: it agrees when run on its own
        alone = run(game, deal, max_nodes=nodes, **second_search(game, deal))
        assert alone.verdict is two.verdict


def exhaustive_first_deal():
    """A deal whose exhaustive search alone ends in a tenth of the nodes of the usual schedule
    (node counts do not depend on time), in a game whose second search is the exhaustive one:
    looked up among a few where it was so (Glencoe 1150: 279,545 against 2,069,517 with the
    inner game; Banner 147)."""
    for game_id, number in (("glencoe", 1150), ("banner", 147)):
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


def test_other_lines_in_the_second_thread_on_the_pysol_profiles():
    """PySol Glencoe 5449: the usual search wins it after 1.85 million nodes; SECOND_SEED's
    random lines alone, after a tenth of that. With two threads the second search is that one:
    its line is returned, and the usual search was stopped long before its end. In the other
    games the second search is the exhaustive one."""
    game = find_game("pysol-glencoe")
    deal = deal_from_number(game, 5449)
    assert random_lines(game, deal) and SECOND_SEED != 0
    assert second_search(game, deal) == dict(probes=True, seed=SECOND_SEED, lines_only=True)
    for other_game in ("glencoe", "banner", "forget-me-not"):
        g = find_game(other_game)
        assert second_search(g, deal_from_number(g, 5449)) == dict(probes=False, seed=0,
                                                                   lines_only=False)
    usual = solve(game, deal)
    other = run(game, deal, seed=SECOND_SEED, lines_only=True)
    assert usual.verdict is other.verdict is Verdict.WINNABLE
    assert usual.stats.nodes >= 5 * other.stats.nodes, (usual.stats.nodes, other.stats.nodes)
    two = solve(game, deal, threads=2)
    assert two.verdict is Verdict.WINNABLE and two.moves == other.moves
    assert replays_to_a_win(game, deal, two.moves)
    assert other.stats.nodes <= two.stats.nodes < usual.stats.nodes


def test_the_second_search_starts_late_and_only_where_needed(hard_deal):
    """The second search starts SECOND_THREAD_DELAY after the usual one: not at all where
    that one decides first (the result is then one thread's, node for node), at once where it
    ends undecided sooner, and its time limit counts from the start of the first."""
    import time

    from solver.api import SECOND_THREAD_DELAY, _solve_two_threads
    assert 0 < SECOND_THREAD_DELAY <= 0.01
    game = find_game("intrigue")
    deal = deal_from_number(game, 3)                 # greedily won: 201 nodes
    one = solve(game, deal)
    started = time.perf_counter()
    two = _solve_two_threads(game, deal, True, max_nodes=None, timeout=None, max_memory=None,
                             prune=True, line=True, delay=60.0)
    assert time.perf_counter() - started < 30        # it did not sit out the delay
    assert (two.verdict, two.moves, two.stats.nodes) == (one.verdict, one.moves, one.stats.nodes)

    game = find_game(hard_deal[0])
    deal = deal_from_number(game, int(hard_deal[1]))
    one = solve(game, deal, max_nodes=20_000, inner=False)
    assert one.verdict is Verdict.UNKNOWN and one.reason == "nodes"
    started = time.perf_counter()
    two = _solve_two_threads(game, deal, False, max_nodes=20_000, timeout=None, max_memory=None,
                             prune=True, line=True, delay=60.0)
    assert time.perf_counter() - started < 30        # started as soon as the first ended
    assert two.stats.nodes == 2 * 20_000             # both ran to the node limit

    two = _solve_two_threads(game, deal, False, max_nodes=None, timeout=1.0, max_memory=None,
                             prune=True, line=True, delay=0.8)
    assert two.verdict is Verdict.UNKNOWN and two.stats.nodes > one.stats.nodes
    # both end at the limit counted from the start: about 1 s, not 0.8 + 1 s
    assert two.stats.seconds < 1.6


def test_two_threads_count_the_searches_seconds_not_the_lines(monkeypatch):
    """Stats.seconds with two threads is what one thread reports, the searches' time (not the
    building of the line after them): thread 0's own, or up to the end of thread 1's search."""
    import time

    import solver.api as api
    from solver import core
    from solver.result import Result, Stats
    game = find_game("intrigue")
    deal = deal_from_number(game, 3)
    kw = dict(max_nodes=None, timeout=None, max_memory=None, prune=True, line=True)

    def first(verdict, seconds):
        def fake(g, d, inner, **limits):
            time.sleep(0.05)                        # the wall time is longer than the seconds
            return Result(g.id, "3", verdict, [], Stats(nodes=7, seconds=seconds))
        return fake

    monkeypatch.setattr(api, "_solve", first(Verdict.WINNABLE, 0.0125))
    two = api._solve_two_threads(game, deal, True, delay=60.0, **kw)
    assert (two.stats.seconds, two.stats.nodes) == (0.0125, 7)     # thread 1 never started

    monkeypatch.setattr(api, "_solve", first(Verdict.UNKNOWN, 0.0125))
    monkeypatch.setattr(core, "run", lambda g, d, **limits: Result(
        g.id, "3", Verdict.UNWINNABLE, [], Stats(nodes=5, seconds=1.0)))
    two = api._solve_two_threads(game, deal, True, delay=60.0, **kw)
    # thread 1 started when thread 0 ended, about 0.05 s in, and searched for 1 s
    assert two.verdict is Verdict.UNWINNABLE and two.stats.nodes == 12
    assert 1.05 <= two.stats.seconds < 2.0


def _second_search_runs(game_id, number, queue):
    from solver.api import _solve_two_threads
    game = find_game(game_id)
    two = _solve_two_threads(game, deal_from_number(game, number), False, max_nodes=5_000,
                             timeout=None, max_memory=None, prune=True, line=False, delay=60.0)
    queue.put(two.stats.nodes)


def test_the_second_searchs_threads_are_made_again_after_fork(hard_deal):
    """The second searches run on threads kept between calls; a forked child inherits the
    executor but not its threads, so it must make its own (else its second search would never
    start, and the call never end)."""
    import multiprocessing
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    _second_search_runs(*hard_deal[:1], int(hard_deal[1]), queue := multiprocessing.Queue())
    assert queue.get(timeout=60) == 2 * 5_000
    child = multiprocessing.get_context("fork").Process(
        target=_second_search_runs, args=(hard_deal[0], int(hard_deal[1]), queue))
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
        pytest.fail("the forked child's second search never ran")
    assert child.exitcode == 0 and queue.get(timeout=10) == 2 * 5_000


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
    """PySol Glencoe 222 (never decided at 60 s): the second search would run on for the
    whole 100 s (its 1 GiB lasts), past communicate()'s 60 s, if Ctrl-C did not stop it."""
    status, stdout, stderr = interrupt_after(
        tmp_path, ["pysol-glencoe", "222", "--json", "--timeout", "100", "--max-memory", "2G",
                   "--threads", "2"])
    assert status == 130, stderr
    out = json.loads(stdout)
    assert out["verdict"] == "unknown" and out["reason"] == "interrupted"
    assert out["stats"]["nodes"] > 0 and out["stats"]["seconds"] < 60
