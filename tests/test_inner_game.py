"""The inner and outer games: where a game's own search runs out, ``solve()`` searches a nested
smaller game and returns its winning line, which must win the game itself (docs/solver.md,
"Inner game"); where limits are still left after that, a larger game that nests it, whose
UNWINNABLE is the game's too ("Outer game").

These hold the feature to its promise: every inner game is nested in its game and the game in
its outer game (the pairs that tests/test_nested_games.py checks by replay), a line found "via"
the inner game replays and wins under the game's own reference rules, the nested searches never
change a verdict the game's own search reaches, they run only where the own search ran out and
only with what it left, and ``inner=False`` turns both off.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from solver import solve
from solver.core import DEFAULT_RULES, PRUNING_RULES
from solver.deals import deal_from_number
from solver.games import GAME_IDS, INNER_GAME, NESTED_PAIRS, OUTER_GAME
from solver.result import Verdict
from solver.rules import initial_position

#: Small node limits: the own search often runs out, and the inner one often wins in the rest.
CAPS = (2000, 4000, 8000)
#: (game, deal, limit): found with the limit where the game's own search alone (inner=False) is
#: unknown at the share it keeps, and the inner search wins in what is left.
KNOWN = [("glencoe", 10, 4000), ("intrigue", 2, 4000), ("devils-solitaire", 22, 4000)]


def closure(pairs):
    """Every (smaller, larger) the nesting implies, through chains of pairs."""
    pairs = set(pairs)
    while True:
        more = {(a, d) for a, b in pairs for c, d in pairs if b == c} - pairs
        if not more:
            return pairs
        pairs |= more


def replays_and_wins(game, number, moves) -> bool:
    position = initial_position(game, deal_from_number(game, number))
    for move in moves:
        assert position.refusal(move) is None, (game, number, move)
        position = position.apply(move)
    return position.is_won()


def test_every_inner_game_is_nested_in_its_game():
    nested = closure(NESTED_PAIRS)
    assert set(INNER_GAME) <= set(GAME_IDS)
    for game, (inner, share) in INNER_GAME.items():
        assert (inner, game) in nested, (game, inner)
        assert 0 < share < 1, (game, share)


def test_every_outer_game_nests_its_game():
    nested = closure(NESTED_PAIRS)
    assert OUTER_GAME and set(OUTER_GAME) <= set(GAME_IDS)
    for game, outer in OUTER_GAME.items():
        assert (game, outer) in nested, (game, outer)
        assert (outer, game) not in nested, (game, outer)     # strictly larger


def test_the_closure_finds_chains():
    assert ("pysol-glencoe", "intrigue") in closure(NESTED_PAIRS)
    assert ("glencoe", "pysol-glencoe") not in closure(NESTED_PAIRS)


@pytest.mark.parametrize("game, number, limit", KNOWN)
def test_the_inner_game_wins_where_the_own_search_runs_out(game, number, limit):
    inner, share = INNER_GAME[game]
    own = solve(game, number, max_nodes=int(limit * (1 - share)), inner=False)
    assert own.verdict is Verdict.UNKNOWN and own.reason == "nodes"
    result = solve(game, number, max_nodes=limit)
    assert result.verdict is Verdict.WINNABLE and result.via == inner
    assert result.game == game and result.length == len(result.moves) > 0
    assert replays_and_wins(game, number, result.moves)
    assert result.stats.nodes <= limit
    assert result.to_json()["via"] == inner
    alone = solve(game, number, max_nodes=limit, inner=False)
    assert alone.via is None and "via" not in alone.to_json()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(INNER_GAME)), number=st.integers(1, 10 ** 6),
       limit=st.sampled_from(CAPS))
def test_inner_results_win_and_never_contradict_the_own_search(game, number, limit):
    inner, share = INNER_GAME[game]
    result = solve(game, number, max_nodes=limit)
    own = solve(game, number, max_nodes=int(limit * (1 - share)), inner=False)
    assert result.stats.nodes <= limit
    if own.verdict is not Verdict.UNKNOWN:
        # decided by the own search: the inner one never ran
        assert result.via is None and result.verdict is own.verdict
        assert result.stats.nodes == own.stats.nodes
        return
    if result.via is None:
        assert result.verdict is Verdict.UNKNOWN and result.reason == own.reason
        return
    if result.via == OUTER_GAME.get(game):
        assert result.verdict is Verdict.UNWINNABLE and result.moves == []
        longer = solve(game, number, max_nodes=20 * limit, inner=False)
        assert longer.verdict is not Verdict.WINNABLE
        return
    assert result.via == inner and result.verdict is Verdict.WINNABLE
    assert replays_and_wins(game, number, result.moves)
    # the same line wins the inner game, whose own search agrees
    assert replays_and_wins(inner, number, result.moves)
    longer = solve(game, number, max_nodes=20 * limit, inner=False)
    assert longer.verdict is not Verdict.UNWINNABLE


def test_games_without_an_inner_game_keep_the_whole_limit():
    for game in ("pysol-glencoe", "banner", "forget-me-not", "clover"):
        assert game not in INNER_GAME
        a = solve(game, 3, max_nodes=3000, line=False)
        b = solve(game, 3, max_nodes=3000, line=False, inner=False)
        assert (a.verdict, a.stats.nodes, a.via) == (b.verdict, b.stats.nodes, None)


def test_without_line_the_length_is_still_given():
    game, number, limit = KNOWN[0]
    result = solve(game, number, max_nodes=limit, line=False)
    full = solve(game, number, max_nodes=limit)
    assert result.via == full.via and result.moves == []
    assert result.length == full.length


def test_cli_names_the_inner_game_and_check_reads_it(run_solver):
    game, number, limit = KNOWN[0]
    inner = INNER_GAME[game][0]
    result = run_solver("solve", game, number, "--max-nodes", limit)
    assert result.returncode == 0, result.stderr
    header, *lines = result.stdout.splitlines()
    assert header == f"{game} {number}: winnable in {len(lines)} moves (via {inner})"
    checked = run_solver("check", game, number, "-", stdin=result.stdout)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == f"{game} {number}: wins in {len(lines)} moves"
    as_json = json.loads(run_solver("solve", game, number, "--max-nodes", limit, "--json").stdout)
    assert as_json["via"] == inner and as_json["verdict"] == "winnable"
    alone = run_solver("solve", game, number, "--max-nodes", limit, "--no-inner")
    assert alone.returncode == 3 and "via" not in alone.stdout, alone.stdout
    assert "--no-inner" in run_solver("solve", "--help").stdout


def test_ctrl_c_in_the_inner_search_reports_the_game_itself(monkeypatch):
    """Ctrl-C during the inner search raises SearchInterrupted with a result of the game asked
    for (not of the inner game), reason "interrupted", and the work of both searches."""
    from solver import core
    real_run = core.run
    calls = []

    def run(game, deal, **kwargs):
        calls.append(game.id)
        result = real_run(game, deal, **kwargs)
        if len(calls) == 2:
            raise core.SearchInterrupted(result)
        return result

    monkeypatch.setattr(core, "run", run)
    game, number, limit = KNOWN[0]
    with pytest.raises(core.SearchInterrupted) as caught:
        solve(game, number, max_nodes=limit)
    assert calls == [game, INNER_GAME[game][0]]
    interrupted = caught.value.result
    assert interrupted.game == game and interrupted.verdict is Verdict.UNKNOWN
    assert interrupted.reason == "interrupted" and interrupted.via is None
    assert interrupted.stats.nodes > int(limit * (1 - INNER_GAME[game][1]))


def test_check_skips_the_verdict_line_with_via_only():
    from solver.errors import InvalidMoveError
    from solver.moves import parse_moves
    text = "intrigue 9509: winnable in 2 moves (via glencoe)\n1. deal  3D\n2. 1>d1  5H\n"
    assert [str(m) for m in parse_moves(text, "salic")] == ["deal", "1>d1"]
    with pytest.raises(InvalidMoveError):
        parse_moves("intrigue 9509: winnable in 2 moves (via 3>d1)\n1. deal\n", "salic")


# --- the outer game ------------------------------------------------------------------------------

OUTER = sorted(OUTER_GAME)


def scripted_runs(monkeypatch, outcomes):
    """Replace core.run: its i-th call returns ``outcomes[i]`` ((verdict, reason, nodes, seconds),
    or an exception to raise) as a Result of the game it was given. Returns the list of calls
    made, as (game, max_nodes, timeout)."""
    from solver import core
    from solver.result import Result, Stats
    calls = []

    def run(game, deal, *, max_nodes=None, timeout=None, **kwargs):
        calls.append((game.id, max_nodes, timeout))
        outcome = outcomes[len(calls) - 1]
        if isinstance(outcome, BaseException):
            raise outcome
        verdict, reason, nodes, seconds = outcome
        return Result(game.id, deal.number, verdict, [], Stats(nodes, nodes, seconds, 1 << 20),
                      reason=reason)

    monkeypatch.setattr(core, "run", run)
    return calls


@pytest.mark.parametrize("game", OUTER)
def test_the_outer_game_gets_what_is_left_and_its_loss_is_the_games(monkeypatch, game):
    from solver.commands.solve import verdict_line
    inner, share = INNER_GAME[game]
    outer = OUTER_GAME[game]
    calls = scripted_runs(monkeypatch, [(Verdict.UNKNOWN, "time", 400, 40.0),
                                        (Verdict.UNWINNABLE, None, 30, 3.0),
                                        (Verdict.UNWINNABLE, None, 200, 12.5)])
    result = solve(game, 6913, timeout=60, max_nodes=1000)
    assert [c[0] for c in calls] == [game, inner, outer]
    assert calls[0][1] == int(1000 * (1 - share)) and calls[0][2] == pytest.approx(60 * (1 - share))
    assert calls[1][1:] == (600, pytest.approx(20.0))          # what the own search left
    assert calls[2][1:] == (570, pytest.approx(17.0))          # what both left
    assert result.game == game and result.verdict is Verdict.UNWINNABLE
    assert result.via == outer and result.moves == [] and result.reason is None
    assert result.stats.nodes == 630 and result.stats.seconds == pytest.approx(55.5)
    assert result.to_json()["via"] == outer
    assert verdict_line(f"{game} 6913", result) == f"{game} 6913: unwinnable (via {outer})"


@pytest.mark.parametrize("outer_verdict", [Verdict.WINNABLE, Verdict.UNKNOWN])
def test_an_outer_win_or_unknown_proves_nothing(monkeypatch, outer_verdict):
    game = OUTER[0]
    calls = scripted_runs(monkeypatch, [(Verdict.UNKNOWN, "nodes", 666, 1.0),
                                        (Verdict.UNWINNABLE, None, 34, 0.5),
                                        (outer_verdict, None, 100, 2.0)])
    result = solve(game, 5, max_nodes=1000)
    assert [c[0] for c in calls] == [game, INNER_GAME[game][0], OUTER_GAME[game]]
    assert calls[2][1:] == (300, None)
    assert result.verdict is Verdict.UNKNOWN and result.reason == "nodes" and result.via is None
    assert result.stats.nodes == 800


def test_the_outer_game_does_not_run_with_nothing_left(monkeypatch):
    game = OUTER[0]
    # the inner search used the rest of the time
    calls = scripted_runs(monkeypatch, [(Verdict.UNKNOWN, "time", 400, 40.0),
                                        (Verdict.UNKNOWN, "time", 300, 20.001)])
    result = solve(game, 5, timeout=60)
    assert [c[0] for c in calls] == [game, INNER_GAME[game][0]]
    assert result.verdict is Verdict.UNKNOWN and result.reason == "time" and result.via is None
    # ... or the rest of the nodes
    calls = scripted_runs(monkeypatch, [(Verdict.UNKNOWN, "nodes", 666, 1.0),
                                        (Verdict.UNWINNABLE, None, 334, 1.0)])
    assert solve(game, 5, max_nodes=1000).verdict is Verdict.UNKNOWN
    assert len(calls) == 2
    # a decided own search, and inner=False, run nothing else
    calls = scripted_runs(monkeypatch, [(Verdict.WINNABLE, None, 10, 0.01)])
    assert solve(game, 5, timeout=60, line=False).via is None and len(calls) == 1
    calls = scripted_runs(monkeypatch, [(Verdict.UNKNOWN, "time", 10, 60.0)])
    assert solve(game, 5, timeout=60, inner=False).verdict is Verdict.UNKNOWN
    assert calls == [(game, None, 60)]


def test_ctrl_c_in_the_outer_search_reports_the_game_itself(monkeypatch):
    from solver import core
    from solver.result import Result, Stats
    game = OUTER[0]
    partial = Result(OUTER_GAME[game], "5", Verdict.UNKNOWN, [], Stats(77, 77, 1.0, 0),
                     reason="interrupted")
    calls = scripted_runs(monkeypatch, [(Verdict.UNKNOWN, "time", 400, 40.0),
                                        (Verdict.UNWINNABLE, None, 30, 3.0),
                                        core.SearchInterrupted(partial)])
    with pytest.raises(core.SearchInterrupted) as caught:
        solve(game, 5, timeout=60)
    assert len(calls) == 3
    interrupted = caught.value.result
    assert interrupted.game == game and interrupted.verdict is Verdict.UNKNOWN
    assert interrupted.reason == "interrupted" and interrupted.via is None
    assert interrupted.stats.nodes == 507


#: The default rules without random-lines (tests/test_random_lines.py), for the node counts below.
NO_RANDOM = DEFAULT_RULES & ~PRUNING_RULES["random-lines"]


def test_a_deal_lost_in_the_outer_game_is_lost_in_the_game():
    """PySol Laggard Lady 10722: its own search needs about 959,000 nodes to prove it lost,
    PySol Glencoe (the inner game) about 170,000 and PySol Intrigue about 59,000. At 900,000
    nodes the own search stops at 600,000, and the two others decide within the rest (with a
    budget of 900,000 nodes of its own, its schedule differs and it decides in 865,000). The
    counts are those without random-lines, whose share of the probe rounds moves them (with it,
    1,200,000 nodes decide via the outer game, 1,500,000 by the own search)."""
    game, outer = "pysol-laggard-lady", "pysol-intrigue"
    result = solve(game, 10722, max_nodes=900_000, line=False, prune=NO_RANDOM)
    assert result.verdict is Verdict.UNWINNABLE and result.via == outer
    assert 600_000 < result.stats.nodes <= 900_000
    # (via is set only where the own search ran out of its 600,000 nodes)
    for other in (INNER_GAME[game][0], outer):
        assert solve(other, 10722, max_nodes=300_000, inner=False,
                     prune=NO_RANDOM).verdict is Verdict.UNWINNABLE


def test_the_outer_game_with_two_threads():
    """With threads=2 the usual searches, the outer one last, run in the first thread; the
    exhaustive search alone in the second needs about 1,007,000 nodes on 10722, more than the
    900,000 it gets, so the outer game's proof is the verdict, as with one thread (without
    random-lines, as above)."""
    result = solve("pysol-laggard-lady", 10722, max_nodes=900_000, line=False, threads=2,
                   prune=NO_RANDOM)
    assert result.verdict is Verdict.UNWINNABLE and result.via == "pysol-intrigue"
    assert result.stats.nodes <= 2 * 900_000


@pytest.mark.slow
def test_pysol_laggard_lady_6913_is_lost_through_pysol_intrigue():
    """The deal the outer game is for: PySol Laggard Lady's own search does not decide 6913 in
    30,000,000 nodes (nor in 400 s); PySol Glencoe, its inner game, proves it lost in about
    830,000 and PySol Intrigue in about 10,900,000 (docs/solver.md, "Outer game"). About 75 s."""
    game, outer = "pysol-laggard-lady", "pysol-intrigue"
    assert OUTER_GAME[game] == outer
    result = solve(game, 6913, max_nodes=45_000_000, max_memory=2 << 30, line=False,
                   prune=NO_RANDOM)
    assert result.verdict is Verdict.UNWINNABLE and result.via == outer
    assert result.stats.nodes <= 45_000_000
    alone = solve(outer, 6913, max_nodes=15_000_000, max_memory=2 << 30, inner=False)
    assert alone.verdict is Verdict.UNWINNABLE
