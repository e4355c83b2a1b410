"""The prefix sweep's trace (docs/solver.md, "banner-prefix", *The sweep's trace*), Banner family.

A position that passes the prefix bound keeps the first values K_1, K_2, ... of its greedy sweep
in its state (outside its key); after a deal the child's sweep stops where its values meet its
parent's, since from there the two sweeps are the same steps. The trace only makes the test
cheaper: the verdicts must be those of the test without it. Checked here the way the search uses
it: along lines through the last pass, each position is tested as the search tests it (reached
by its move, with the trace its parent left), and

- its verdict equals the verdict of the same test on a copy that carries no trace;
- the trace it carries afterwards is right: the position it names (on its line of deals) passes
  the prefix bound, and the values are the start of that position's greedy sweep, computed
  whole by the plain C sweep (``CorePosition.trace_check``).

The lines are random walks into the last pass and the core's winning lines; hypothesis picks the
deals and walks. ``tests/test_prefix_bound.py`` holds the fast sweep's trace to the plain one's.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import find_game

from test_prefix_bound import BANNER_IDS

PLAYS = (_core.WASTE, _core.CELL)
# The rule sets whose tests run the sweep: the default, the prefix bound without banner-ahead
# (a sweep at every position but those reached by a play), and banner-ahead alone (sweeps at the
# ends of chains of deals only).
RULE_SETS = {
    "default": DEFAULT_RULES,
    "no-ahead": DEFAULT_RULES & ~PRUNING_RULES["banner-ahead"],
    "ahead-only": DEFAULT_RULES & ~PRUNING_RULES["banner-prefix"],
}


def walk_and_check(game, core, rng, prune, play_chance, tally, line=None) -> None:
    """Follow ``line`` (core moves), or a random walk (plays with probability ``play_chance``,
    else the turn), testing every position reached as the search does; stop at a dead end."""
    pos = core.position()
    assert pos.dead_check(prune) is not None
    for step in range(10_000):
        moves = pos.moves(True, prune)
        if pos.is_won() or not moves:
            return
        if line is not None:
            if step == len(line):
                return
            move = tuple(line[step])
        else:
            plays = [m for m in moves if m[0] in PLAYS]
            turns = [m for m in moves if m[0] not in PLAYS]
            move = (rng.choice(plays) if plays and (rng.random() < play_chance or not turns)
                    else turns[0])
        child = pos.play(move)
        before = child.trace()
        state = child.describe()
        last_pass = state["passes"] == game.max_passes
        merge = (before is not None and before["stock"] == len(state["stock"]) + 1
                 and move[0] == _core.DEAL)
        verdict = child.dead_check(prune, move)
        assert verdict is not None, (move, state, before, child.trace())
        assert child.trace_check() is not None, (move, state, before, child.trace())
        if last_pass:
            tally["tested"] += 1
            tally["dead" if verdict else "alive"] += 1
            tally["merge offered"] += merge
            tally["carried"] += child.trace() is not None
        if verdict:
            return
        pos = child


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
@pytest.mark.parametrize("game_id", BANNER_IDS)
def test_trace_keeps_the_verdicts_and_is_right(game_id, rules):
    game = find_game(game_id)
    prune = RULE_SETS[rules]
    rng = random.Random(f"trace-{game_id}-{rules}")
    tally = Counter()
    for _ in range(25):
        deal = deal_from_number(game, rng.randint(1, 10 ** 6))
        core = core_game(game, deal)
        for chance in (0.5, 0.8, 0.95):
            walk_and_check(game, core, rng, prune, chance, tally)
        status, line, *_ = core.search(100_000, 0.0, 1 << 28, DEFAULT_RULES)
        if status == "win":
            walk_and_check(game, core, rng, prune, 0.0, tally, line=line)
    # The checks are not vacuous: last-pass tests, dead and alive, many of them offered the
    # parent's trace (where the sweep runs after a deal) and leaving a trace behind.
    assert tally["dead"] >= 10 and tally["alive"] >= 100, dict(tally)
    assert tally["carried"] >= 100, dict(tally)
    if rules != "ahead-only":
        assert tally["merge offered"] >= 100, dict(tally)


@settings(max_examples=60, deadline=None)
@given(game_id=st.sampled_from(BANNER_IDS), number=st.integers(1, 10 ** 6),
       seed=st.integers(0, 1 << 30), chance=st.floats(0.3, 1.0),
       rules=st.sampled_from(sorted(RULE_SETS)))
def test_trace_on_any_deal_and_walk(game_id, number, seed, chance, rules):
    game = find_game(game_id)
    core = core_game(game, deal_from_number(game, number))
    tally = Counter()
    walk_and_check(game, core, random.Random(seed), RULE_SETS[rules], chance, tally)
    assert tally["tested"] == tally["dead"] + tally["alive"]


def test_a_wrong_trace_is_caught():
    """trace_check is a real check: a trace with any one value changed is called wrong."""
    game = find_game("banner")
    rng = random.Random("wrong-trace")
    for _ in range(50):
        core = core_game(game, deal_from_number(game, rng.randint(1, 10 ** 6)))
        pos = core.position()
        while not pos.is_won() and pos.moves(True, DEFAULT_RULES):
            moves = pos.moves(True, DEFAULT_RULES)
            move = moves[0]
            child = pos.play(move)
            if child.dead_check(DEFAULT_RULES, move):
                break
            trace = child.trace()
            if trace is not None and trace["values"]:
                assert child.trace_check() is True
                for i in range(len(trace["values"])):
                    assert child.trace_check(change=i) is None
                return
            pos = child
    pytest.fail("no position with a trace of at least one value")
