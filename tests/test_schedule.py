"""The order of work under a time limit (docs/solver.md, "Order of work"): the probes may take
at most half of the time, and the exhaustive search that follows them keeps the rest. A probe
that fails proves nothing, so a probe that ran on to the limit would leave the deal unknown
without the search that can decide it; these deals are among the few that a second is not
enough for, so the time limit is reached here."""
from __future__ import annotations

import pytest

from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
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
        status, _, nodes, states, table_bytes, _, seconds, final_start = core.search(
            0, LIMIT, 1 << 28, DEFAULT_RULES)
        if status != "time":
            continue
        timed_out += 1
        # The probes stop at the first clock check past LIMIT / 2 (every 1,024 nodes), so the
        # final search begins then: well before the limit, which ends it -- or a little before
        # it, when the table, 7/8 full, needed a grow that would have outlasted it (docs/solver.md,
        # "Time limit").
        assert 0.0 < final_start < LIMIT, (game_id, number, final_start, seconds)
        capacity = table_bytes // 25
        refused_grow = states == capacity // 8 * 7      # a table stops only 7/8 full
        assert seconds >= LIMIT or refused_grow, (game_id, number, seconds, states, capacity)
        assert seconds > final_start, (game_id, number, seconds)
    assert timed_out >= 2, (game_id, timed_out)


def test_without_a_time_limit_the_node_share_still_holds():
    """With a node limit only, the probes take at most half of the nodes: the final search
    begins, and the search stops at the limit."""
    game = find_game("pysol-glencoe")
    core = core_game(game, deal_from_number(game, 79))
    status, _, nodes, _, _, _, _, final_start = core.search(400_000, 0.0, 1 << 28, DEFAULT_RULES)
    assert status == "nodes" and final_start > 0.0, (status, final_start)
    assert nodes >= 400_000, nodes


# Deals that go through several probe rounds, in both families and with one, two and three
# rule sets per round (Banner's cell-wait twin; the PySol profiles' lazy-plays and feed-first).
ROUNDS = [("banner", 123), ("banner", 55), ("banner", 179), ("devils-solitaire", 214),
          ("forget-me-not", 1), ("glencoe", 160), ("glencoe", 184), ("pysol-laggard-lady", 81),
          ("pysol-glencoe", 128), ("pysol-intrigue", 184), ("pysol-intrigue", 102)]
FIRST_NODES, PROBE_NODES, WHOLE_SHIFT, LATE_TWIN_ROUNDS = 1000, 20000, 3, 4
#: The probes' schedule is checked without random-lines, which in the PySol profiles opens
#: each round with a step of its own and wins most of these deals in the first rounds
#: (tests/test_random_lines.py checks its place in the rounds).
RULES = DEFAULT_RULES & ~PRUNING_RULES["random-lines"]


def run_steps(game_id, number):
    game = find_game(game_id)
    core = core_game(game, deal_from_number(game, number))
    status, nodes, steps = core.search_steps(0, 60.0, 1 << 30, RULES)
    assert sum(s["nodes"] for s in steps) == nodes
    return core, status, steps


@pytest.mark.parametrize("game_id,number", ROUNDS)
def test_the_probe_rounds_follow_the_schedule(game_id, number):
    """The log of a run (CoreGame.search_steps) against docs/solver.md, "Order of work": a
    first short search, then rounds of probes, round k allowing k times round 1's
    discrepancies and 20,000 * 2^k nodes, each round from the second on followed by an
    exhaustive search of 1/8 of that; within a round, another mode's probe is skipped exactly
    when the wide one with the same rules ran before it and tried all its lines (nested
    modes), and from the second round on the probes run in the order of the nodes each took
    in the round before, fewest first (cheap first)."""
    core, status, steps = run_steps(game_id, number)
    assert status == "win", (game_id, number, status)
    assert steps[0]["kind"] == "first" and steps[0]["budget"] == FIRST_NODES
    modes, wide = core.probe_modes, core.wide_mode
    rounds = {}
    for s in steps[1:]:
        rounds.setdefault(s["round"], []).append(s)
    assert sorted(rounds) == list(range(len(rounds))) and len(rounds) >= 3, sorted(rounds)
    unit = next(s["max_disc"] for s in rounds[1] if s["kind"] == "probe")
    assert unit > 0
    twins = 1 + max(s["twin"] for s in rounds[0])

    def fixed(s):          # the fixed order: the wide mode first, then rule set by rule set
        return ((s["mode"] - wide) % modes, s["twin"])

    used = {}              # (mode, twin) -> the nodes it counts for in the next round's order
    for k in sorted(rounds):
        probes = [s for s in rounds[k] if s["kind"] == "probe"]
        wholes = [s for s in rounds[k] if s["kind"] == "whole"]
        last_round = k == max(rounds)
        assert rounds[k][: len(probes)] == probes, "the probes come before the round's search"
        for s in probes:
            assert s["max_disc"] == k * unit and s["budget"] <= PROBE_NODES << k, s
        if not last_round:
            assert len(wholes) == (1 if k >= 1 else 0), k
            for s in wholes:
                assert s["max_disc"] == -1 and s["budget"] <= (PROBE_NODES << k) >> WHOLE_SHIFT
        # Nested modes: who ran, who was skipped.
        ran = {(s["mode"], s["twin"]): i for i, s in enumerate(probes)}
        assert len(ran) == len(probes), "each mode and rule set at most once a round"
        for twin in range(twins):
            if twin >= 2 and k >= LATE_TWIN_ROUNDS:
                assert all(t != twin for _, t in ran), (k, twin)
                continue
            w = ran.get((wide, twin))
            done = w is not None and probes[w]["status"] == "no_win"
            for mode in range(modes):
                if mode == wide:
                    continue
                i = ran.get((mode, twin))
                if i is not None:
                    assert not (done and w < i), ("ran after its wide probe finished", k, twin)
                elif not last_round:
                    assert done and w is not None, ("skipped though not nested", k, mode, twin)
        # Cheap first: the order of the nodes taken in the round before, ties in fixed order.
        if k >= 1:
            keys = [(used[(s["mode"], s["twin"])], fixed(s)) for s in probes
                    if (s["mode"], s["twin"]) in used]
            assert keys == sorted(keys), (k, keys)
        used = {}
        for s in probes:
            used[(s["mode"], s["twin"])] = s["nodes"]
        for twin in range(twins):
            for mode in range(modes):
                if (mode, twin) not in used and (wide, twin) in used:
                    used[(mode, twin)] = used[(wide, twin)]      # skipped as nested
    final = [s for s in steps if s["kind"] == "final"]
    assert not final or final == steps[-1:], "the final search comes last"
