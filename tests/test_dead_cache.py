"""The dead-cache and the deal-cache (docs/solver.md): subtrees an earlier search of the same
deal searched whole are skipped by the later searches. Each must keep every verdict, and each
must be in use (otherwise the agreement below would be vacuous): on these deals it changes how
many nodes some searches take, and only ever downwards here. Each is measured with the other
off, since with both on one can hide the other (the sealed roots are roots of both).

``tests/test_pruning.py`` also runs each alone against the unpruned search, like every rule."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import GAMES, find_game

from rule_helpers import with_and_without

CACHES = ("dead-cache", "deal-cache")


#: Slow deals that 1,000,000 nodes decide (with the dead-cache off). Since sealed-cap, 161, 76,
#: 111 and 175 are won by probes before an exhaustive search shares a subtree with a later one;
#: these five (of the slow deals of 1..10,000 at a 10,000,000-node cap) still do.
SLOW_BANNER = [55, 7868, 2265, 3935, 4625]
#: Glencoe deals that take a few hundred thousand nodes: since the Salic games' probes run the
#: wide mode first (docs/solver.md, "Nested modes"), deals 1..300 at 300,000 nodes no longer
#: reach the deal-cache, and since the probes run cheap first, deals 1..100 no longer reach the
#: dead-cache.
SLOW_GLENCOE = [448, 859, 184, 915]
#: PySol Glencoe deals that 1,000,000 nodes decide after some probe rounds (since cheap first,
#: deals 1..100 at 300,000 nodes no longer reach the deal-cache).
SLOW_PYSOL_GLENCOE = [102, 128]


@pytest.mark.parametrize("cache, game_id, changed_at_least, deals, max_nodes", [
    ("dead-cache", "banner", 10, range(1, 101), 300_000),
    ("dead-cache", "devils-solitaire", 10, range(1, 201), 300_000),
    ("dead-cache", "forget-me-not", 10, range(1, 101), 300_000),
    ("dead-cache", "clover", 10, range(1, 101), 300_000),
    ("dead-cache", "glencoe", 3, SLOW_GLENCOE, 1_000_000),
    ("dead-cache", "pysol-glencoe", 2, range(1, 201), 300_000),
    ("deal-cache", "banner", 2, SLOW_BANNER, 1_000_000),
    ("deal-cache", "forget-me-not", 5, range(1, 101), 300_000),
    ("deal-cache", "clover", 3, range(1, 101), 300_000),
    ("deal-cache", "glencoe", 2, SLOW_GLENCOE, 1_000_000),
    ("deal-cache", "pysol-glencoe", 1, SLOW_PYSOL_GLENCOE, 1_000_000)])
def test_cache_keeps_the_verdicts_and_is_used(cache, game_id, changed_at_least, deals,
                                              max_nodes):
    """The caches fill only once a deal outlasts the first searches, so most deals never touch
    them. deal-cache roots are added by the exhaustive searches only (between probe rounds, from
    round 1 on, and the final one); in the Banner family only they look them up too
    (GameOps.probes_skip_deal_cache), so there it shows only on deals that reach those searches
    with subtrees left to share: slow Banner deals at 1,000,000 nodes, and Forget-me-not and
    Clover deals 1..100. In the Salic games, where the probes run the wide mode first and,
    from the second round, cheap first, slow Glencoe deals at 1,000,000 nodes (both caches),
    PySol Glencoe deals 1..200 (dead-cache) and slow ones at 1,000,000 nodes (deal-cache);
    Devil's Solitaire's dead-cache on deals 1..200 (1..100 show it on 9).
    No Devil's Solitaire deal tried shows it (deals 1..3000 at 300,000 nodes; its slowest of
    1..200 at 2,000,000), so it has no case here (the agreement would be vacuous);
    tests/test_pruning.py runs the rule there like every rule."""
    other = next(c for c in CACHES if c != cache)
    # Without random-lines, which wins these PySol Glencoe deals before the probes share a
    # subtree with a later search (it changes nothing in the other games).
    with_cache = DEFAULT_RULES & ~PRUNING_RULES[other] & ~PRUNING_RULES["random-lines"]
    without_cache = with_cache & ~PRUNING_RULES[cache]
    decided, nodes = with_and_without(find_game(game_id), deals, with_cache, without_cache,
                                      max_nodes)
    changed = [(number, on, off) for number, on, off in nodes if on != off]
    assert all(on < off for _, on, off in changed), (cache, game_id, changed)
    assert decided >= min(90, len(deals))
    assert len(changed) >= changed_at_least


DEAL, REDEAL = 0, 5   # MV_DEAL and MV_REDEAL in csrc/core.h: a move code's first field


@settings(max_examples=40, deadline=None)
@given(game_id=st.sampled_from([g.id for g in GAMES]), number=st.integers(1, 10 ** 6),
       seed=st.integers(0, 2 ** 32 - 1))
def test_the_level_never_falls_and_rises_on_every_deal(game_id, number, seed):
    """What deal-cache's argument rests on (GameOps.level): no move lowers the level, and every
    deal or redeal raises it (so each one enters a root). In the Salic family nothing else
    does; in the Banner family a cell play refilled from the stock does too, since it takes a
    stock card. Random lines, every move of each position checked."""
    game = find_game(game_id)
    rng = random.Random(seed)
    position = core_game(game, deal_from_number(game, number)).position()
    deals = 0
    for _ in range(400):
        moves = position.moves()
        if not moves or position.is_won():
            break
        level = position.level()
        for move in moves:
            after = position.play(move).level()
            assert after >= level, (game_id, number, move)
            if move[0] in (DEAL, REDEAL):
                assert after > level, (game_id, number, move)
            elif game.family == "salic":
                assert after == level, (game_id, number, move)
        move = rng.choice(moves)
        deals += move[0] in (DEAL, REDEAL)
        position = position.play(move)
    assert deals > 0 or position.is_won()
