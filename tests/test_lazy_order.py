"""The lazy-order rule (docs/solver.md, "lazy-order"), seed rules only: an order, not a cut.

While the stock lasts, of the foundation plays only those from the last pile and those of the
rank its top is laid on come before the parks and the deal; the other plays wait after the deal.
The probes run twice, with the order and without it (search.c, twin rules). The rule must offer
exactly the moves the search offers without it, only in another order, and must be in use.
``tests/test_pruning.py`` also runs the rule alone against the unpruned search, like every rule.
"""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import find_game

from rule_helpers import decided_and_changed, dealing_positions, feed_rank, same_search
from test_core import salic_core_order

ORDER = PRUNING_RULES["lazy-order"]
SEED = ["glencoe", "intrigue"]
PROFILES = ["pysol-glencoe", "pysol-laggard-lady", "pysol-intrigue"]


def expected_order(plain, state, cards):
    """The list without the rule is the plays, the parks worth making now, the deal, the other
    parks. With it, the plays that do not feed the last pile move to just after the deal."""
    last, tops, feed = state["queens"] - 1, state["tops"], feed_rank(cards, state)

    def kept(m):
        return m[1] == last or cards[tops[m[1]]] % 13 == feed
    plays = [m for m in plain if m[0] == _core.FOUND]
    others = [m for m in plain if m[0] != _core.FOUND]
    deal = others.index((_core.DEAL, 0, 0))
    return ([m for m in plays if kept(m)] + others[:deal + 1]
            + [m for m in plays if not kept(m)] + others[deal + 1:])


@settings(max_examples=30, deadline=None)
@given(game_id=st.sampled_from(SEED), number=st.integers(1, 10 ** 6),
       seed=st.integers(0, 2 ** 32 - 1))
def test_the_rule_only_orders_the_moves(game_id, number, seed):
    """Along random lines: the same moves with and without the rule, in the order above while
    dealing, and in the same order once the stock is empty. At least one list is reordered on
    most lines; over all of them, many are (checked below, on fixed deals)."""
    game = find_game(game_id)
    deal = deal_from_number(game, number)
    cards = salic_core_order(deal.cards)
    pos = core_game(game, deal).position()
    rng = random.Random(seed)
    for _ in range(400):
        plain = pos.moves(True, DEFAULT_RULES & ~ORDER)
        ordered = pos.moves(True, DEFAULT_RULES)
        assert sorted(ordered) == sorted(plain) and len(set(ordered)) == len(ordered)
        state = pos.describe()
        if state["dealt"] == 104 or len(plain) <= 1:
            assert ordered == plain
        else:
            assert ordered == expected_order(plain, state, cards), (game_id, number)
        if not plain or pos.is_won():
            break
        pos = pos.play(rng.choice(plain))


def test_the_order_moves_plays_after_the_deal():
    """In use: on the greedy lines of a few deals, the rule often sends a play after the deal
    (the case the property test above cannot count on)."""
    def first_plain(pos):
        plain = pos.moves(True, DEFAULT_RULES & ~ORDER)
        return plain[0] if plain else None
    waited = fed = 0
    for game_id in SEED:
        for pos, state, cards in dealing_positions(find_game(game_id), range(1, 11), first_plain):
            ordered = pos.moves(True, DEFAULT_RULES)
            if len(ordered) > 1:
                kinds = [m[0] for m in ordered]
                after = kinds[kinds.index(_core.DEAL) + 1:] if _core.DEAL in kinds else []
                waited += _core.FOUND in after
                last, tops, feed = state["queens"] - 1, state["tops"], feed_rank(cards, state)
                fed += any(m[0] == _core.FOUND and m[1] != last
                           and cards[tops[m[1]]] % 13 == feed for m in ordered)
    assert waited >= 20 and fed >= 1, (waited, fed)


def test_the_twin_probes_keep_the_verdicts_and_change_the_search():
    """With the rule (twin probes with and without the order) and without it (probes with the
    plain order only): the same verdicts, and on some deals past the first short search other
    node counts."""
    decided, changed = decided_and_changed(SEED, range(1, 41), DEFAULT_RULES,
                                           DEFAULT_RULES & ~ORDER)
    assert decided >= 75 and changed >= 3, (decided, changed)


def test_the_pysol_profiles_search_the_same_with_or_without_the_rule():
    """No parking while dealing there, so the rule never applies: node for node the same
    search (their twin probes are lazy-plays')."""
    probed = sum(same_search(find_game(game_id), range(1, 16), DEFAULT_RULES,
                             DEFAULT_RULES & ~ORDER) for game_id in PROFILES)
    assert probed >= 3, probed


def test_the_rule_is_a_default_rule():
    assert DEFAULT_RULES & ORDER
