"""The sealed-cap rule (docs/solver.md, "sealed-cap"): an order of work, not a cut.

In a probe whose mode searches a sealed subtree at no cost (the Banner family's mode 0, whose
last pass is free), each such subtree is searched for at most a share of the probe's node
budget and then left. A probe proves nothing when it fails, so the verdicts cannot change;
what could go wrong is the cache of sealed subtrees searched whole (dead-cache), which a probe
must not fill once it has left a subtree unfinished, and a probe that left one must not report
that it tried every line (a mode-1 probe would then be skipped). The tests: the same verdicts
with and without the rule, with the cache on and off, and on deals proved unwinnable after
probes (where a wrong entry in the cache would end in a win missed or a proof too soon); the rule
in use (other node counts, probes that end short of their budget); every line won with it
replays; the Salic family, where no game sets a cap, searches node for node the same.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game, run
from solver.deals import deal_from_number
from solver.games import find_game
from solver.result import Verdict

from rule_helpers import agreeing_results, decided_and_changed, replays_to_a_win, same_search

CAP = PRUNING_RULES["sealed-cap"]
CACHE = PRUNING_RULES["dead-cache"]
FAMILY = ["banner", "devils-solitaire", "forget-me-not", "clover"]


def test_the_rule_is_a_default_rule():
    assert DEFAULT_RULES & CAP


def test_the_rule_keeps_the_verdicts_and_changes_the_search():
    """With and without the rule, deals 1..200 of the four games: the same verdicts wherever both
    decide, and on the deals past the first short search other node counts (127 of 800)."""
    decided, changed = decided_and_changed(FAMILY, range(1, 201), DEFAULT_RULES,
                                           DEFAULT_RULES & ~CAP)
    assert decided >= 700 and changed >= 60, (decided, changed)


@settings(max_examples=25, deadline=None)
@given(game_id=st.sampled_from(FAMILY), number=st.integers(1, 10 ** 6))
def test_random_deals_get_the_same_verdict_with_and_without_the_rule(game_id, number):
    """On random deals, the rule with the cache, the rule without the cache and neither: the
    same verdict wherever two decide; a win found with the rule replays to a win."""
    game, deal, results = agreeing_results(
        game_id, number, (DEFAULT_RULES, DEFAULT_RULES & ~CACHE, DEFAULT_RULES & ~CAP))
    won = results[0]
    if won.verdict is Verdict.WINNABLE:
        assert replays_to_a_win(game, deal, won.moves), (game_id, number)


def unwinnable_deals(game_id, numbers, max_nodes):
    """The deals of ``numbers`` the search without the rule proves unwinnable past its first
    short search (so probes ran before the proof)."""
    game = find_game(game_id)
    out = []
    for number in numbers:
        r = run(game, deal_from_number(game, number), max_nodes=max_nodes,
                prune=DEFAULT_RULES & ~CAP, line=False)
        if r.verdict is Verdict.UNWINNABLE and r.stats.nodes > 1000:
            out.append(number)
    return out


def test_proofs_after_probes_stay_proofs():
    """Forget-me-not and Clover deals that need probes and then a proof (the cache at work):
    with the rule, each is still proved unwinnable or left unknown, never won; and the rule
    with the cache off agrees."""
    checked = 0
    for game_id, numbers in (("forget-me-not", range(1, 601)), ("clover", range(1, 1501))):
        game = find_game(game_id)
        for number in unwinnable_deals(game_id, numbers, 300_000):
            deal = deal_from_number(game, number)
            for rules in (DEFAULT_RULES, DEFAULT_RULES & ~CACHE):
                r = run(game, deal, max_nodes=300_000, prune=rules, line=False)
                assert r.verdict is not Verdict.WINNABLE, (game_id, number, rules)
            checked += 1
    assert checked >= 10, checked


def test_a_probe_leaves_a_last_pass_short_of_its_budget():
    """In use where it matters: on Banner deals past the first search, some mode-0 probe ends
    undecided before its node budget (it left a last pass), which without the rule never
    happens (a probe then ends on its budget or having tried every line)."""
    game = find_game("banner")
    short = {True: 0, False: 0}
    for number in range(1, 41):
        core = core_game(game, deal_from_number(game, number))
        for on in (True, False):
            rules = DEFAULT_RULES if on else DEFAULT_RULES & ~CAP
            _, _, steps = core.search_steps(max_nodes=400_000, prune=rules)
            short[on] += sum(1 for s in steps if s["kind"] == "probe" and s["mode"] == 0
                             and s["status"] == "nodes" and s["nodes"] < s["budget"])
    assert short[True] >= 5 and short[False] == 0, short


def test_the_salic_games_search_the_same_with_or_without_the_rule():
    probed = sum(same_search(find_game(game_id), range(1, 13), DEFAULT_RULES,
                             DEFAULT_RULES & ~CAP)
                 for game_id in ("glencoe", "pysol-glencoe", "pysol-laggard-lady"))
    assert probed >= 3, probed


def test_the_long_rounds_run_without_the_cap():
    """Only probes of at most 1,280,000 nodes (rounds 0..6) leave a last pass: on a deal that
    runs to round 7 and beyond, every mode-0 probe with a larger budget that ends undecided has
    spent its whole budget, while some smaller one ended short of it."""
    game = find_game("banner")
    core = core_game(game, deal_from_number(game, 8391))
    _, _, steps = core.search_steps(max_nodes=20_000_000, prune=DEFAULT_RULES)
    probes = [s for s in steps if s["kind"] == "probe" and s["mode"] == 0]
    long = [s for s in probes if s["budget"] > 1_280_000]
    assert long, max(s["round"] for s in steps)
    assert all(s["nodes"] == s["budget"] for s in long if s["status"] == "nodes"), long
    assert any(s["status"] == "nodes" and s["nodes"] < s["budget"] for s in probes
               if s["budget"] <= 1_280_000)


#: Banner deals that took 200,000 to 1,500,000 nodes before the rule (the first twelve such of
#: 1..10,000 at a 10,000,000-node cap): each goes through several probe rounds.
SLOW_BANNER = [55, 76, 123, 175, 179, 247, 285, 494, 545, 552, 559, 571]


def test_slow_deals_keep_their_verdicts_and_lines():
    """Where the rule acts most: slow Banner deals at 1,500,000 nodes, with the rule and the
    cache, the rule without the cache, and neither rule: one verdict per deal wherever decided,
    every win replays to a win, and the rule changes the node count of most of them."""
    game = find_game("banner")
    changed = decided = 0
    for number in SLOW_BANNER:
        deal = deal_from_number(game, number)
        results = [run(game, deal, max_nodes=1_500_000, prune=rules, line=True)
                   for rules in (DEFAULT_RULES, DEFAULT_RULES & ~CACHE, DEFAULT_RULES & ~CAP)]
        verdicts = {r.verdict for r in results} - {Verdict.UNKNOWN}
        assert len(verdicts) <= 1, (number, [r.verdict for r in results])
        decided += bool(verdicts)
        changed += results[0].stats.nodes != results[2].stats.nodes
        for r in results:
            if r.verdict is Verdict.WINNABLE:
                assert replays_to_a_win(game, deal, r.moves), number
    assert decided >= 10 and changed >= 10, (decided, changed)
