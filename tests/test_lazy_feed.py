"""The lazy-feed rule (docs/solver.md, "lazy-feed"), PySol profiles, with lazy-plays.

Under lazy-plays a run of lazy plays can only end, while the stock lasts, with the play of the
last pile's top *t*, of the rank laid next on the run's last card. The rule offers no lazy play
where no run can: where *t* is missing or a five or six, or where taking from the piles other
than the last every card that fits (counting room optimistically) never reaches a card of the
rank *t* is laid on that fits. Here the core's move lists are held to that statement written
out plainly, the normal form of real winning lines (test_lazy_plays.py) must replay through the
rule's move generator, and the verdicts must not change.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import find_game

from rule_helpers import RANK_BELOW, with_and_without
from test_core import salic_core_order
from test_lazy_plays import PROFILES, normal_form_lines

LAZY = PRUNING_RULES["lazy-plays"]
FEED = PRUNING_RULES["lazy-feed"]
QUEEN, SIX, FIVE = 11, 5, 4


def piles_of(cards, state):
    """Each queen's pile, bottom first, as deal positions (no card is parked while dealing)."""
    starts = [i for i in range(state["dealt"]) if cards[i] % 13 == QUEEN]
    piles = []
    for q, start in enumerate(starts):
        end = starts[q + 1] if q + 1 < len(starts) else state["dealt"]
        piles.append([i for i in range(start + 1, end) if state["present"] >> i & 1])
    return piles


def free_starts(game_id, cards, state, card):
    """Slots a five or six could start now (RULES: Glencoe's by suit, PySol Intrigue's all 8)."""
    rank, suit = card % 13, card // 13
    dealt = range(state["dealt"])
    played = [i for i in dealt if cards[i] % 13 != QUEEN and not state["present"] >> i & 1]
    if game_id == "pysol-glencoe":
        queens = sum(1 for i in dealt if cards[i] % 13 == QUEEN and cards[i] // 13 == suit)
        return queens - sum(1 for i in played if cards[i] == card)
    slots = 8 if game_id == "pysol-intrigue" else state["queens"]
    return slots - sum(1 for i in played if cards[i] % 13 == rank)


def can_feed(game_id, cards, state) -> bool:
    """The rule's relaxation, written out: True where a run of lazy plays may feed the top."""
    piles = piles_of(cards, state)
    last = len(piles) - 1
    if not piles[last]:
        return False
    want = RANK_BELOW.get(cards[piles[last][-1]] % 13)
    if want is None:                                   # a five or a six
        return False
    counts = list(state["counts"])                     # on foundations, plus taken ranks below
    rest = [list(p) for p in piles[:last]]
    while True:
        for pile in rest:
            if not pile:
                continue
            card = cards[pile[-1]]
            rank = card % 13
            if rank in (FIVE, SIX):
                fits = free_starts(game_id, cards, state, card) > 0
            else:
                fits = counts[RANK_BELOW[rank]] - state["counts"][rank] > 0
            if fits:
                if rank == want:
                    return True
                pile.pop()
                counts[rank] += 1
                break
        else:
            return False


def dealing_walk(game, number, rng, steps=400):
    """Positions along a random line of the rule-less lazy order while the stock lasts, taking
    a lazy play one time in three where there is one (a run of them soon runs out of moves)."""
    pos = core_game(game, deal_from_number(game, number)).position()
    for _ in range(steps):
        if pos.describe()["dealt"] == 104:
            return
        yield pos
        moves = pos.moves(True, DEFAULT_RULES & ~FEED)
        other = [m for m in moves if not (m[0] == _core.FOUND and m[2] == 1)]
        if not moves:
            return
        pos = pos.play(rng.choice(other if other and rng.random() < 2 / 3 else moves))


def check_walk(game_id, number, seed) -> tuple[int, int]:
    """Along a random walk, the rule drops exactly the lazy plays where the relaxation says no
    run can feed the top, and nothing else. Returns (positions with lazy plays, cut ones)."""
    game = find_game(game_id)
    cards = salic_core_order(deal_from_number(game, number).cards)
    offered = cut = 0
    for pos in dealing_walk(game, number, random.Random(seed)):
        plain = pos.moves(True, DEFAULT_RULES & ~FEED)
        ruled = pos.moves(True, DEFAULT_RULES)
        lazy = [m for m in plain if m[0] == _core.FOUND and m[2] == 1]
        if lazy:
            offered += 1
            if can_feed(game_id, cards, pos.describe()):
                assert ruled == plain, (game_id, number, seed)
            else:
                cut += 1
                assert ruled == [m for m in plain if m not in lazy], (game_id, number, seed)
        else:
            assert ruled == plain, (game_id, number, seed)
    return offered, cut


@pytest.mark.parametrize("game_id", PROFILES)
def test_the_rule_drops_exactly_the_lazy_plays_that_cannot_feed(game_id):
    offered = cut = 0
    for number in range(1, 21):
        o, c = check_walk(game_id, number, number)
        offered, cut = offered + o, cut + c
    assert cut >= 20 and offered - cut >= 20, (offered, cut)


@settings(max_examples=15, deadline=None)
@given(game_id=st.sampled_from(PROFILES), number=st.integers(1, 10 ** 6),
       seed=st.integers(0, 2 ** 32 - 1))
def test_the_rule_matches_its_statement_on_any_deal(game_id, number, seed):
    check_walk(game_id, number, seed)


@pytest.mark.parametrize("game_id", PROFILES)
def test_winning_lines_in_normal_form_replay_under_the_rule(game_id):
    """The argument: in the normal form of lazy-plays every run while the stock lasts ends with
    the last pile's top, so the rule offers each of its moves."""
    game = find_game(game_id)
    checked = runs = 0
    for number, core, moves, _ in normal_form_lines(game, range(1, 41),
                                                    DEFAULT_RULES & ~LAZY & ~FEED):
        pos = core.position()
        for i, m in enumerate(moves):
            allowed = pos.moves(True, LAZY | FEED)
            same = [a for a in allowed if a == m["move"]
                    or (a[0] == _core.FOUND and a[:2] == m["move"][:2])]
            assert same, (game_id, number, i, m, allowed)
            runs += bool(m["lazy"])
            pos = pos.play(same[0])
        assert pos.is_won(), (game_id, number)
        checked += 1
    assert checked >= 30 and runs >= 10, (checked, runs)


def test_the_rule_keeps_the_verdicts():
    """With and without it (the other default rules on): the same verdicts, and node counts
    that differ where searches run long enough to meet lazy runs that cannot feed."""
    decided = changed = 0
    for game_id in PROFILES:
        both, nodes = with_and_without(find_game(game_id), [*range(1, 21), 102, 184, 222, 357, 730],
                                       DEFAULT_RULES, DEFAULT_RULES & ~FEED, 200_000)
        decided += both
        changed += sum(on != off for _, on, off in nodes)
    assert decided >= 55 and changed >= 2, (decided, changed)


def test_the_rule_does_nothing_without_lazy_plays():
    """Its cut is of lazy plays, which only lazy-plays marks: the seed rules, and the PySol
    profiles without lazy-plays, search node for node the same with or without it."""
    from rule_helpers import same_search
    for game_id in ("glencoe", "pysol-glencoe"):
        game = find_game(game_id)
        base = DEFAULT_RULES if game_id == "glencoe" else DEFAULT_RULES & ~LAZY
        same_search(game, range(1, 16), base, base & ~FEED)
