"""The random-lines rule (docs/solver.md, "`random-lines`"): an order of work, not a cut.

In the PySol profiles, each round of probes begins with lines chosen at random through the
dealing (each move the first of its list or, half the time, another), each ending at the deal
that empties the stock, whose end game is then searched whole. A win there is the deal's win;
a line that ends without one proves nothing, and only an end game searched whole without a win
goes into the cache of searched subtrees (dead-cache), as a probe's do. So the verdicts cannot
change. The tests: the same verdicts with and without the rule (deals 1..150 and random deals),
proofs after probes stay proofs, wins found by a random line replay through the reference
rules, the choices are the same from run to run, the schedule (random lines open each round,
within four times a probe's budget and, from round 1 on, four times what the round before's
probes took), and the other games search node for node as without the rule.

The guided-lines rule (docs/solver.md, "`guided-lines`") changes only where random lines
start: most go on from a point of the line whose end game came nearest to a way out. The same
tests hold with it and without it, and on deals it speeds up its wins replay.

The root-walk-cap rule (docs/solver.md, "`root-walk-cap`") leaves a random line's end game
whose room walk at the root runs past a cap: neither searched nor cached. The same tests hold
with it and without it; the capped walk, where it ends, gives the whole walk's verdict.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import assume, example, given, settings, strategies as st

from solver import _core, solve
from solver.api import SECOND_SEED, _nested, second_search
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game, run, to_notation
from solver.deals import deal_from_number
from solver.games import find_game
from solver.result import Stats, Verdict

from rule_helpers import agreeing_results, decided_and_changed, replays_to_a_win, same_search
from test_pruning import endgame_walks

RANDOM = PRUNING_RULES["random-lines"]
GUIDED = PRUNING_RULES["guided-lines"]
ROOT_CAP = PRUNING_RULES["root-walk-cap"]
ROOT_WALK_CAP = 8000            # csrc/salic.c
CACHE = PRUNING_RULES["dead-cache"]
PYSOL = ["pysol-glencoe", "pysol-laggard-lady", "pysol-intrigue"]
PROBE_NODES, RANDOM_SHIFT, RANDOM_RATIO = 20000, 2, 4


def test_the_rule_is_a_default_rule():
    assert DEFAULT_RULES & RANDOM and DEFAULT_RULES & GUIDED and DEFAULT_RULES & ROOT_CAP


def test_the_rule_keeps_the_verdicts_and_changes_the_search():
    """Deals 1..150 of the three PySol profiles at 200,000 nodes, with and without the rule (and
    with it, unguided; and with it, the root walks uncapped): the same verdicts wherever both
    decide, and other node counts on the deals past the first short search."""
    decided, changed = decided_and_changed(PYSOL, range(1, 151), DEFAULT_RULES,
                                           DEFAULT_RULES & ~RANDOM)
    assert decided >= 400 and changed >= 5, (decided, changed)
    decided, changed = decided_and_changed(PYSOL, range(1, 151), DEFAULT_RULES,
                                           DEFAULT_RULES & ~GUIDED)
    assert decided >= 400 and changed >= 5, (decided, changed)
    decided, changed = decided_and_changed(PYSOL, range(1, 151), DEFAULT_RULES,
                                           DEFAULT_RULES & ~ROOT_CAP)
    assert decided >= 400 and changed >= 3, (decided, changed)


@settings(max_examples=25, deadline=None)
@given(game_id=st.sampled_from(PYSOL), number=st.integers(1, 10 ** 6))
def test_random_deals_get_the_same_verdict_with_and_without_the_rule(game_id, number):
    """On random deals: the rule, the rule without the cache, the rule unguided, the rule with
    its root walks uncapped, and neither: the same verdict wherever two decide; a win found
    with the rule replays to a win."""
    game, deal, results = agreeing_results(
        game_id, number, (DEFAULT_RULES, DEFAULT_RULES & ~CACHE, DEFAULT_RULES & ~GUIDED,
                          DEFAULT_RULES & ~ROOT_CAP, DEFAULT_RULES & ~RANDOM))
    for r in results[:4]:
        if r.verdict is Verdict.WINNABLE:
            assert replays_to_a_win(game, deal, r.moves), (game_id, number)


#: PySol Glencoe deals proved unwinnable after probes (1,000 to 400,000 nodes in
#: bench-20261207-024614); the test checks that the search without the rule proves them.
UNWINNABLE = [915, 1445, 2257, 2693, 2703, 3319, 3660, 4416, 6848, 7807]


def test_proofs_after_probes_stay_proofs():
    """With the rule (with the cache and without it), each deal the search without the rule
    proves unwinnable is proved unwinnable again or left unknown, never won."""
    game = find_game("pysol-glencoe")
    proved = 0
    for number in UNWINNABLE:
        deal = deal_from_number(game, number)
        off = run(game, deal, max_nodes=1_000_000, prune=DEFAULT_RULES & ~RANDOM, line=False)
        if off.verdict is not Verdict.UNWINNABLE:
            continue
        proved += 1
        for rules in (DEFAULT_RULES, DEFAULT_RULES & ~CACHE, DEFAULT_RULES & ~GUIDED,
                      DEFAULT_RULES & ~ROOT_CAP):
            on = run(game, deal, max_nodes=1_000_000, prune=rules, line=False)
            assert on.verdict is not Verdict.WINNABLE, (number, rules)
    assert proved >= 8, proved


#: PySol Glencoe deals that took over a second at 2 s before the rule and that a random line
#: wins in its first rounds (bench-20261207-024614: 725 1.52 s, 730 1.41 s, 8520 1.65 s).
RANDOM_WINS = [725, 730, 8520]


def won_by_a_random_line(game, number, rules=DEFAULT_RULES) -> int:
    """Check that ``rules`` win PySol Glencoe deal ``number`` in a random step, and that the
    line (the random moves, then the end game's search) replays to a win; return the nodes."""
    deal = deal_from_number(game, number)
    status, nodes, steps = core_game(game, deal).search_steps(5_000_000, 0.0, 1 << 30, rules)
    assert status == "win" and steps[-1]["kind"] == "random", (number, steps[-1])
    with_rule = run(game, deal, max_nodes=5_000_000, prune=rules, line=True)
    assert with_rule.verdict is Verdict.WINNABLE and with_rule.stats.nodes == nodes
    assert replays_to_a_win(game, deal, with_rule.moves), number
    return nodes


def test_random_lines_win_and_their_lines_replay():
    """On these deals the step that wins is a random one; the line replays to a win, and the
    search without the rule takes more nodes."""
    game = find_game("pysol-glencoe")
    for number in RANDOM_WINS:
        nodes = won_by_a_random_line(game, number)
        without = run(game, deal_from_number(game, number), max_nodes=5_000_000,
                      prune=DEFAULT_RULES & ~RANDOM, line=False)
        assert without.stats.nodes > nodes, (number, without.stats.nodes, nodes)


#: PySol Glencoe deals a guided random line wins in far fewer nodes than the unguided ones do,
#: the root walks uncapped (792: 2,457 against 255,754; 1380: 2,471 against 627,661; 5492:
#: 66,633 against 1,191,667). root-walk-cap changes which lines are drawn (a root left draws
#: no end game), and its measure is time, not nodes: it is off here.
GUIDED_WINS = [792, 1380, 5492]


def test_guided_lines_win_and_their_lines_replay():
    """On these deals the step that wins is a random one, with guided lines in fewer nodes
    than without them, and the line replays to a win."""
    game = find_game("pysol-glencoe")
    uncapped = DEFAULT_RULES & ~ROOT_CAP
    for number in GUIDED_WINS:
        nodes = won_by_a_random_line(game, number, uncapped)
        core = core_game(game, deal_from_number(game, number))
        _, unguided, steps = core.search_steps(5_000_000, 0.0, 1 << 30, uncapped & ~GUIDED)
        assert unguided > 4 * nodes and steps[-1]["kind"] == "random", (number, nodes, unguided)


def test_guided_lines_and_the_cap_change_nothing_without_random_lines():
    """The guided-lines and root-walk-cap bits without random-lines: node for node the search
    without any of the three."""
    probed = sum(same_search(find_game(game_id), range(1, 9), DEFAULT_RULES & ~RANDOM,
                             DEFAULT_RULES & ~RANDOM & ~GUIDED & ~ROOT_CAP) for game_id in PYSOL)
    assert probed >= 3, probed


@settings(max_examples=12, deadline=None)
@given(game_id=st.sampled_from(PYSOL), seed=st.integers(0, 2 ** 32))
def test_a_capped_root_walk_is_cut_short_or_right(game_id, seed):
    """root-walk-cap's test at end games of random deals (every legal move allowed on the
    way): with a cap of c steps, the whole test's verdict or None (cut short), never the other
    verdict; with the cap far above any walk's steps, the verdict itself; a smaller cap cuts
    short whatever a larger one does."""
    game = find_game(game_id)
    positions = [pos for _, _, pos in endgame_walks(game, random.Random(seed), deals=2)]
    assume(positions)           # a walk may end (won, or no move left) before the stock does
    for pos in positions:
        whole = pos.room_dead(deep=True, whole=True)
        assert pos.room_dead(deep=True, whole=True, cap=1 << 30) is whole
        cut = False
        for cap in (ROOT_WALK_CAP, 500, 20):
            capped = pos.room_dead(deep=True, whole=True, cap=cap)
            assert capped is None or capped is whole, (game_id, seed, cap, capped, whole)
            assert not (cut and capped is not None), (game_id, seed, cap)
            cut = capped is None


def test_a_tiny_cap_leaves_most_roots_and_no_win_is_lost():
    """With a cap of 20 steps (CoreGame.search's root_walk_cap, for the tests) nearly every
    random line's root is left unsearched. Those roots must go neither into the cache nor into
    any later test's verdict: the deals above, all winnable, are won or left undecided, never
    proved lost, and a win replays."""
    game = find_game("pysol-glencoe")
    for number in RANDOM_WINS + GUIDED_WINS:
        deal = deal_from_number(game, number)
        core = core_game(game, deal)
        status, path, nodes = core.search(1_500_000, 0.0, 1 << 30, DEFAULT_RULES,
                                          root_walk_cap=20)[:3]
        assert status in ("win", "nodes"), (number, status, nodes)
        if status == "win":
            assert replays_to_a_win(game, deal, to_notation(game, deal, path)), number


def test_roots_left_stay_out_of_the_cache():
    """From the positions one to three deals before the end of a winning line (found without
    random-lines), with a cap of 20 steps: the random lines leave nearly every end game they
    reach, some of them winning ones; the probes after them still search those and win. (Were
    the roots left put in the cache as searched whole, these searches would end proving the
    positions lost.) The lines replay from the deal's start to a win."""
    game = find_game("pysol-glencoe")
    for number in (725, 8520, 5492):
        deal = deal_from_number(game, number)
        core = core_game(game, deal)
        status, line = core.search(2_000_000, 0.0, 1 << 29, DEFAULT_RULES & ~RANDOM)[:2]
        assert status == "win", number
        deals = [i for i, move in enumerate(line) if move[0] == _core.DEAL]
        for before in (1, 2, 3):
            prefix = line[:deals[-before]]
            start = core.position()
            for move in prefix:
                start = start.play(tuple(move))
            status, path = core.search(400_000, 0.0, 1 << 28, DEFAULT_RULES, start,
                                       root_walk_cap=20)[:2]
            assert status == "win", (number, before, status)
            assert replays_to_a_win(game, deal, to_notation(game, deal, prefix + path))


@pytest.mark.parametrize("game_id", PYSOL)
def test_random_lines_from_a_start_in_the_end_game_end(game_id):
    """From a start whose stock is already empty every random line is the start itself and
    takes no moves, so only the count of stale lines can end them: a root left by the cap, or
    found dead with the dead-cache off, must not count as fresh. (Before, with the cache off, a
    dead start was drawn until the probes' share of the time was spent; with no time limit, for
    ever.) The time limit here only bounds such a failure: every random step of the log ends
    short of it, with the rules, without the cache, and with a cap of 20 steps, at the first
    position of the end game of walks through 30 random deals (about a quarter of them go past
    the first short search, where the random lines run)."""
    game = find_game(game_id)
    rng = random.Random(f"end-start-{game_id}")
    with_lines = 0
    for _ in range(30):
        for _, core, pos in endgame_walks(game, rng, deals=1):
            for rules, cap in ((DEFAULT_RULES, 0), (DEFAULT_RULES & ~CACHE, 0),
                               (DEFAULT_RULES, 20)):
                status, _, steps = core.search_steps(200_000, 20.0, 1 << 27, rules,
                                                     root_walk_cap=cap, start=pos)
                assert status != "time", (game_id, rules, cap)
                randoms = [s for s in steps if s["kind"] == "random"]
                assert all(s["status"] != "time" for s in randoms), randoms
                with_lines += bool(randoms)
            break            # the first position of the end game
    assert with_lines >= 10, with_lines


@settings(max_examples=10, deadline=None)
@given(game_id=st.sampled_from(PYSOL), number=st.integers(1, 10 ** 6))
def test_random_deals_get_the_same_verdict_with_a_tiny_cap(game_id, number):
    """On random deals, the rules with a cap of 20 steps and without random-lines: the same
    verdict wherever both decide."""
    core = core_game(find_game(game_id), deal_from_number(find_game(game_id), number))
    tiny = core.search(300_000, 0.0, 1 << 28, DEFAULT_RULES, root_walk_cap=20)[0]
    off = core.search(300_000, 0.0, 1 << 28, DEFAULT_RULES & ~RANDOM)[0]
    assert "nodes" in (tiny, off) or tiny == off, (game_id, number, tiny, off)


def test_the_cap_cuts_short_some_walks_at_random_roots():
    """At the end games random walks reach, the cap the search uses cuts some whole walks
    short (otherwise the rule would change nothing) and lets most end."""
    tally = Counter()
    for game_id in PYSOL:
        for _, _, pos in endgame_walks(find_game(game_id), random.Random(game_id), deals=12):
            tally[pos.room_dead(deep=True, whole=True, cap=ROOT_WALK_CAP)] += 1
    assert tally[None] >= 1 and tally[True] + tally[False] > 5 * tally[None], tally


def test_the_search_is_the_same_from_run_to_run():
    """The choices come from a generator with a fixed seed: two runs, the same nodes, states
    and line."""
    game = find_game("pysol-glencoe")
    for number in (725, 222):
        core = core_game(game, deal_from_number(game, number))
        first = core.search(600_000, 0.0, 1 << 28, DEFAULT_RULES)
        again = core.search(600_000, 0.0, 1 << 28, DEFAULT_RULES)
        assert first[:4] == again[:4], number


def random_budgets_follow_the_schedule(steps):
    """Check a log against the schedule of random lines: in each round they come first, with
    four times a probe's budget of the round at most, and from round 1 on at most four times
    the nodes the probes of the round before took (none where those took none). Returns the
    random steps."""
    rounds = {}
    for s in steps[1:]:
        if s["kind"] != "final":
            rounds.setdefault(s["round"], []).append(s)
    randoms = []
    for k, work in sorted(rounds.items()):
        mine = [s for s in work if s["kind"] == "random"]
        assert mine == work[:len(mine)] and len(mine) <= 1, (k, work[:2])
        cap = PROBE_NODES << (k + RANDOM_SHIFT)
        if k > 0:
            cap = min(cap, RANDOM_RATIO * sum(s["nodes"] for s in rounds[k - 1]
                                              if s["kind"] == "probe"))
        for s in mine:
            assert 0 < s["budget"] <= cap, (k, s, cap)
        if not mine:
            assert cap == 0 or k == max(rounds), (k, cap)
        randoms += mine
    return randoms


def test_random_lines_open_the_rounds():
    """On a deal that runs through several rounds (PySol Glencoe 222, never decided at 60 s):
    the random lines open each round within their budget, the first with four times a probe's
    budget; the other games' logs hold no random step."""
    game = find_game("pysol-glencoe")
    core = core_game(game, deal_from_number(game, 222))
    _, _, steps = core.search_steps(3_000_000, 0.0, 1 << 30, DEFAULT_RULES)
    randoms = random_budgets_follow_the_schedule(steps)
    assert len(randoms) >= 3 and randoms[0]["budget"] == PROBE_NODES << RANDOM_SHIFT, randoms
    for game_id, number in (("glencoe", 184), ("banner", 123)):
        other = core_game(find_game(game_id), deal_from_number(find_game(game_id), number))
        _, _, steps = other.search_steps(1_000_000, 0.0, 1 << 28, DEFAULT_RULES)
        assert len(steps) > 2 and all(s["kind"] != "random" for s in steps), game_id


def test_few_random_lines_where_the_probes_take_little():
    """PySol Intrigue 10722 (unwinnable): its probes take a few hundred nodes each, so after
    round 0 the random lines take little, and the search proves the deal lost in fewer than
    three times the nodes it takes without the rule."""
    game = find_game("pysol-intrigue")
    core = core_game(game, deal_from_number(game, 10722))
    status, nodes, steps = core.search_steps(0, 0.0, 1 << 30, DEFAULT_RULES)
    assert status == "no_win"
    randoms = random_budgets_follow_the_schedule(steps)
    assert all(s["nodes"] < 20_000 for s in randoms[1:]), randoms
    _, without, _ = core.search_steps(0, 0.0, 1 << 30, DEFAULT_RULES & ~RANDOM)
    assert nodes < 3 * without, (nodes, without)


def test_the_other_games_search_the_same_with_or_without_the_rule():
    probed = sum(same_search(find_game(game_id), range(1, 13), DEFAULT_RULES,
                             DEFAULT_RULES & ~RANDOM)
                 for game_id in ("glencoe", "intrigue", "banner", "forget-me-not"))
    assert probed >= 3, probed


@settings(max_examples=20, deadline=None)
@given(game_id=st.sampled_from(PYSOL), number=st.integers(1, 10 ** 6),
       max_nodes=st.integers(1001, 400_000))
@example(game_id="pysol-glencoe", number=222, max_nodes=1010)   # a line longer than the budget
def test_the_node_limit_holds(game_id, number, max_nodes):
    """A random step stops at its budget, mid-line if need be: however small the node limit,
    the search never takes more nodes than it allows (the final search gets what is left)."""
    core = core_game(find_game(game_id), deal_from_number(find_game(game_id), number))
    status, _, nodes = core.search(max_nodes, 0.0, 1 << 27, DEFAULT_RULES)[:3]
    assert nodes <= max_nodes, (status, nodes)
    if status == "nodes":
        assert nodes == max_nodes


def test_which_searches_have_random_lines():
    """CoreGame.random_lines (solver.core.random_lines): the PySol profiles with the rule on;
    not with it off, and not the other games (their searches have no random lines)."""
    from solver.core import random_lines
    for game_id in PYSOL:
        game = find_game(game_id)
        deal = deal_from_number(game, 7)
        assert random_lines(game, deal) and random_lines(game, deal, DEFAULT_RULES)
        assert not random_lines(game, deal, DEFAULT_RULES & ~RANDOM)
        assert not random_lines(game, deal, False)
    for game_id in ("glencoe", "intrigue", "banner", "devils-solitaire", "forget-me-not"):
        game = find_game(game_id)
        assert not random_lines(game, deal_from_number(game, 7)), game_id


def test_the_seed_changes_the_lines_and_nothing_else():
    """Seed 0 is the usual search, node for node; another seed makes other random lines (PySol
    Glencoe 5449 and 3379 are won after other numbers of nodes), while in the games without
    random lines any seed searches node for node as seed 0."""
    game = find_game("pysol-glencoe")
    changed = 0
    for number in (5449, 3379):
        core = core_game(game, deal_from_number(game, number))
        usual = core.search(3_000_000, 0.0, 1 << 30, DEFAULT_RULES)
        assert core.search(3_000_000, 0.0, 1 << 30, DEFAULT_RULES, seed=0)[:4] == usual[:4]
        for seed in (1, 2):
            other = core.search(3_000_000, 0.0, 1 << 30, DEFAULT_RULES, seed=seed)
            assert other[0] == usual[0] == "win", (number, seed)
            changed += other[2] != usual[2]
    assert changed >= 3, changed
    for game_id, number in (("glencoe", 184), ("banner", 123), ("forget-me-not", 5)):
        core = core_game(find_game(game_id), deal_from_number(find_game(game_id), number))
        usual = core.search(300_000, 0.0, 1 << 28, DEFAULT_RULES)
        assert core.search(300_000, 0.0, 1 << 28, DEFAULT_RULES, seed=12345)[:4] == usual[:4]


def test_lines_only_rounds_are_random_lines_alone():
    """lines_only (threads=2's second search): after the first short search, each round is its
    random lines alone, with four times a probe's budget (doubling each round, with no cap from
    the probes, which do not run), then the final search; in the other games it changes
    nothing."""
    game = find_game("pysol-glencoe")
    core = core_game(game, deal_from_number(game, 222))
    _, nodes, steps = core.search_steps(3_000_000, 0.0, 1 << 30, DEFAULT_RULES, seed=1,
                                        lines_only=True)
    kinds = [s["kind"] for s in steps]
    assert kinds[0] == "first" and kinds[-1] == "final", kinds
    assert set(kinds[1:-1]) == {"random"} and len(kinds) >= 4, kinds
    for k, s in enumerate(steps[1:-1]):
        assert s["round"] == k
        assert s["budget"] == PROBE_NODES << (k + RANDOM_SHIFT) or s is steps[-2], (k, s)
    assert nodes == 3_000_000
    for game_id, number in (("glencoe", 184), ("banner", 123)):
        other = core_game(find_game(game_id), deal_from_number(find_game(game_id), number))
        usual = other.search_steps(1_000_000, 0.0, 1 << 28, DEFAULT_RULES)
        assert other.search_steps(1_000_000, 0.0, 1 << 28, DEFAULT_RULES, seed=1,
                                  lines_only=True) == usual, game_id


@settings(max_examples=20, deadline=None)
@given(game_id=st.sampled_from(PYSOL), number=st.integers(1, 10 ** 6),
       seed=st.integers(1, 2 ** 64 - 1), lines_only=st.booleans())
def test_another_seed_keeps_the_verdict(game_id, number, seed, lines_only):
    """Another seed, and the rounds of random lines alone (threads=2's second search:
    docs/solver.md, "Two threads") make other lines, never another verdict: where the usual
    search and the other one both decide, the same one, and the other one's wins replay
    through the reference rules."""
    game = find_game(game_id)
    deal = deal_from_number(game, number)
    usual = run(game, deal, max_nodes=200_000)
    other = run(game, deal, max_nodes=200_000, seed=seed, lines_only=lines_only)
    if Verdict.UNKNOWN not in (usual.verdict, other.verdict):
        assert other.verdict is usual.verdict, (game_id, number, seed)
    if other.verdict is Verdict.WINNABLE:
        assert replays_to_a_win(game, deal, other.moves), (game_id, number, seed)


def test_solve_takes_the_seed_to_every_search_it_runs(monkeypatch):
    """solve(seed=...) is core.run's search with that seed, node for node (PySol Glencoe 102
    is won after other numbers of nodes with seeds 0 and 7), its wins replay, and seed 0 is
    the usual search. The inner and outer games' searches get the same seed: PySol Laggard
    Lady, whose own search a small node limit leaves undecided, hands the rest to PySol
    Glencoe (its inner game) and then to PySol Intrigue (its outer game)."""
    game = find_game("pysol-glencoe")
    deal = deal_from_number(game, 102)
    nodes = {}
    for seed in (0, 7):
        mine = solve(game, deal, max_nodes=400_000, seed=seed)
        alone = run(game, deal, max_nodes=400_000, seed=seed, line=False)
        assert mine.verdict is alone.verdict is Verdict.WINNABLE, seed
        assert mine.stats.nodes == alone.stats.nodes, seed
        assert replays_to_a_win(game, deal, mine.moves), seed
        nodes[seed] = mine.stats.nodes
    assert nodes[0] != nodes[7]
    assert solve(game, deal, max_nodes=400_000, line=False).stats.nodes == nodes[0]
    from solver import core
    seen = []
    real_run = core.run

    def recording_run(g, d, **kw):
        seen.append((g.id, kw.get("seed")))
        return real_run(g, d, **kw)

    monkeypatch.setattr(core, "run", recording_run)
    lady = find_game("pysol-laggard-lady")
    lady_deal = deal_from_number(lady, 5304)
    first = solve(lady, lady_deal, max_nodes=3000, seed=9, line=False)
    assert seen == [("pysol-laggard-lady", 9), ("pysol-glencoe", 9)]   # no nodes left after
    outer = _nested(lady, lady_deal, "pysol-intrigue", replace(first, stats=Stats(0, 0, 0.0, 0)),
                    Verdict.UNWINNABLE, max_nodes=1000, timeout=None, max_memory=None,
                    prune=True, line=False, seed=9, shared=None)
    assert seen[2:] == [("pysol-intrigue", 9)] and outer.stats.nodes > 0


def test_two_threads_draw_two_seeds_of_lines(monkeypatch):
    """threads=2's first search draws its lines with the seed, the second with seed ^
    SECOND_SEED, never the first's, and the verdict is the one thread's."""
    game = find_game("pysol-glencoe")
    deal = deal_from_number(game, 102)
    for seed in (0, 1, 6, 2 ** 64 - 1):
        other = second_search(game, deal, seed=seed)["seed"]
        assert other == seed ^ SECOND_SEED != seed
    one = solve(game, deal, max_nodes=400_000, seed=6)
    from solver import core
    seen = []
    real_run = core.run

    def recording_run(g, d, **kw):
        seen.append(kw.get("seed"))
        return real_run(g, d, **kw)

    monkeypatch.setattr(core, "run", recording_run)
    two = solve(game, deal, max_nodes=400_000, seed=6, threads=2)
    assert one.verdict is two.verdict is Verdict.WINNABLE
    assert replays_to_a_win(game, deal, two.moves)
    assert sorted(seen) == [6, 6 ^ SECOND_SEED]       # the deal takes far over the 2 ms delay


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 1.0, True, "3", None])
def test_solve_rejects_a_bad_seed(seed):
    with pytest.raises(ValueError, match="seed must be an int"):
        solve("pysol-glencoe", 3, seed=seed)
