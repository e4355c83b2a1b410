"""The feed-first rule (docs/solver.md, "feed-first"): an order, not a cut.

In the two lazy orders (``lazy-plays`` in the PySol profiles, ``lazy-order`` in the seed rules),
while the stock lasts, the plays of the rank the last pile's top is laid on come before the deal.
Without the rule they wait after the deal with the other plays from piles no deal reaches. In the
PySol profiles each probe also runs a third time, without the rule (search.c, twin rules).
The rule must offer exactly the moves the search offers without it, only in another order, and
must be in use. ``tests/test_pruning.py`` also runs it alone against the unpruned search.
"""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import find_game

from rule_helpers import decided_and_changed, dealing_positions, feed_rank, same_search

FEED = PRUNING_RULES["feed-first"]
LAZY = PRUNING_RULES["lazy-plays"] | PRUNING_RULES["lazy-order"]
SEED = ["glencoe", "intrigue"]
PROFILES = ["pysol-glencoe", "pysol-laggard-lady", "pysol-intrigue"]


def without_feed(ordered, last):
    """The list the rule leaves when it is off, from the list with it: the plays from the last
    pile, the other moves before the deal, the deal, every other play in pile order, then the
    moves after the deal that are not plays."""
    def waits(m):
        return m[0] == _core.FOUND and m[1] != last
    cut = ordered.index((_core.DEAL, 0, 0)) if (_core.DEAL, 0, 0) in ordered else len(ordered)
    head = [m for m in ordered[:cut] if not waits(m)]
    deal = ordered[cut:cut + 1]
    tail = [m for m in ordered[cut + 1:] if not waits(m)]
    return head + deal + sorted((m for m in ordered if waits(m)), key=lambda m: m[1]) + tail


@settings(max_examples=30, deadline=None)
@given(game_id=st.sampled_from(SEED + PROFILES), number=st.integers(1, 10 ** 6),
       seed=st.integers(0, 2 ** 32 - 1))
def test_the_rule_only_orders_the_moves(game_id, number, seed):
    """Along random lines: the same moves with and without the rule; while dealing, without it,
    the list above; once the stock is empty, the same list."""
    game = find_game(game_id)
    pos = core_game(game, deal_from_number(game, number)).position()
    rng = random.Random(seed)
    for _ in range(400):
        fed = pos.moves(True, DEFAULT_RULES)
        unfed = pos.moves(True, DEFAULT_RULES & ~FEED)
        assert sorted(fed) == sorted(unfed) and len(set(fed)) == len(fed)
        state = pos.describe()
        if state["dealt"] == 104:
            assert unfed == fed
        else:
            assert unfed == without_feed(fed, state["queens"] - 1), (game_id, number, fed)
        if not fed or pos.is_won():
            break
        pos = pos.play(rng.choice(fed))


def test_the_rule_puts_feeding_plays_before_the_deal():
    """In use: on the first-move lines of a few deals of each game, the rule often puts a play
    of the feeding rank before the deal, which without it comes after."""
    def first(pos):
        moves = pos.moves(True, DEFAULT_RULES)
        return moves[0] if moves else None
    moved = {}
    for game_id in SEED + PROFILES:
        moved[game_id] = 0
        for pos, state, cards in dealing_positions(find_game(game_id), range(1, 11), first):
            fed = pos.moves(True, DEFAULT_RULES)
            if (_core.DEAL, 0, 0) not in fed:
                continue
            last, tops, feed = state["queens"] - 1, state["tops"], feed_rank(cards, state)
            before = fed[:fed.index((_core.DEAL, 0, 0))]
            feeding = [m for m in before if m[0] == _core.FOUND and m[1] != last
                       and cards[tops[m[1]]] % 13 == feed]
            unfed = pos.moves(True, DEFAULT_RULES & ~FEED)
            for m in feeding:
                assert unfed.index(m) > unfed.index((_core.DEAL, 0, 0))
            moved[game_id] += bool(feeding)
    assert all(n >= 1 for n in moved.values()), moved
    assert sum(moved.values()) >= 10, moved


def test_the_rule_keeps_the_verdicts_and_changes_the_search():
    """With the rule (and, in the PySol profiles, the third twin probe without it) and without
    it: the same verdicts, and on some deals past the first short search other node counts."""
    decided, changed = decided_and_changed(PROFILES + SEED, range(1, 31), DEFAULT_RULES,
                                           DEFAULT_RULES & ~FEED)
    assert decided >= 140 and changed >= 5, (decided, changed)


def test_without_the_lazy_orders_the_rule_changes_nothing():
    """The rule reorders only the lazy orders' lists, and with them off there is no twin probe
    for it: node for node the same search with or without it."""
    probed = sum(same_search(find_game(game_id), range(1, 13), DEFAULT_RULES & ~LAZY,
                             DEFAULT_RULES & ~LAZY & ~FEED) for game_id in SEED + PROFILES)
    assert probed >= 3, probed


def test_the_rule_is_a_default_rule():
    assert DEFAULT_RULES & FEED
