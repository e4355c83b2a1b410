"""Two threads (``solve(threads=2)``, ``solver solve --threads 2``; docs/solver.md, "Two
threads"): the usual schedule and the exhaustive search alone, side by side, sharing the memory
limit; the first to decide stops the other."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from solver import solve
from solver.core import DEFAULT_RULES, core_game, run
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
    """The usual schedule runs unchanged in the pair, so whatever it decides alone the pair
    decides too (memory is no limit here); every verdict the pair gives agrees with one thread's
    where that decided, and a winning line replays through the reference rules."""
    game = find_game(game_id)
    deal = deal_from_number(game, number)
    one = run(game, deal, max_nodes=nodes)
    two = run(game, deal, max_nodes=nodes, threads=2)
    if one.verdict is not Verdict.UNKNOWN:
        assert two.verdict is one.verdict, (game_id, number)
    if two.verdict is Verdict.WINNABLE:
        assert replays_to_a_win(game, deal, two.moves)
        assert len(two.moves) == two.length
    if two.verdict is not Verdict.UNKNOWN and one.verdict is Verdict.UNKNOWN:
        # decided only by the exhaustive search alone: the no-probe search agrees given room
        alone = core_game(game, deal).search(0, 0.0, 1 << 30, DEFAULT_RULES, None, 0)
        assert alone[0] == ("win" if two.verdict is Verdict.WINNABLE else "no_win")


def exhaustive_first_deal():
    """A deal whose exhaustive search alone ends in a tenth of the nodes of the usual schedule
    (node counts do not depend on time): looked up among a few where it was so (PySol Glencoe
    24: 5,519 against 60,209; Glencoe 1150: 74,383 against 779,564; Banner 147)."""
    for game_id, number in (("glencoe", 1150), ("pysol-glencoe", 24), ("banner", 147)):
        game = find_game(game_id)
        core = core_game(game, deal_from_number(game, number))
        alone = core.search(0, 0.0, 1 << 30, DEFAULT_RULES, None, 0)
        usual = core.search(0, 0.0, 1 << 30, DEFAULT_RULES)
        if usual[2] >= 10 * alone[2]:
            return core, alone, usual
    pytest.fail("the exhaustive search alone is no longer 10 times quicker on any deal tried")


def test_the_first_to_decide_stops_the_other():
    core, alone, usual = exhaustive_first_deal()
    status, path, nodes, *_, winner = core.search_pair(0, 0.0, 1 << 30, DEFAULT_RULES)
    assert winner == 1 and status == alone[0] == usual[0]
    assert path == alone[1]                     # the same search, so the same line
    # the usual schedule was stopped long before its end (alone, it would have run to it)
    assert alone[2] <= nodes < usual[2]


def test_the_tables_share_the_memory_limit(hard_deal):
    """Each search alone fills the limit; side by side their tables together stay within it."""
    game = find_game(hard_deal[0])
    core = core_game(game, deal_from_number(game, int(hard_deal[1])))
    limit = 4 << 20
    alone = core.search(0, 20.0, limit, DEFAULT_RULES, None, 0)
    assert alone[0] == "memory" and alone[4] > limit // 2
    status, _, _, _, table_bytes, *_ = core.search_pair(0, 20.0, limit, DEFAULT_RULES)
    assert status == "memory"
    assert table_bytes <= limit


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


def test_ctrl_c_with_two_threads_stops_both(tmp_path, hard_deal):
    status, stdout, stderr = interrupt_after(
        tmp_path, [*hard_deal, "--json", "--timeout", "100", "--threads", "2"])
    assert status == 130, stderr
    out = json.loads(stdout)
    assert out["verdict"] == "unknown" and out["reason"] == "interrupted"
    assert out["stats"]["nodes"] > 0 and out["stats"]["seconds"] < 60
