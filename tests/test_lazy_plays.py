"""The lazy-plays rule (docs/solver.md, "lazy-plays"), PySol profiles only.

While dealing, with no parking, a play from a pile other than the last is *lazy*: no deal follows
it directly, and a play from the last pile follows it only when it is of the rank laid next on
the lazy card. The argument moves lazy plays later in any winning line until the line obeys
this; here that construction is run on real winning lines, and the result must replay, move by
move, through the rule's own move generator and win. ``tests/test_pruning.py`` also runs the
rule alone against the unpruned search, like every rule.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import find_game

from rule_helpers import dealing_positions, feed_rank, same_search, with_and_without
from test_core import salic_core_order

LAZY = PRUNING_RULES["lazy-plays"]
FEED = PRUNING_RULES["lazy-feed"]
NEXT_RANK = {0: 12, 1: 0, 2: 1, 3: 2, 4: 3, 5: 6, 6: 7, 7: 8, 8: 9, 9: 10}
PROFILES = ["pysol-glencoe", "pysol-laggard-lady", "pysol-intrigue"]


def annotated_line(core, cards, line):
    """Each move of a core line with its card's rank and whether it is a lazy play."""
    pos, out = core.position(), []
    for move in line:
        state = pos.describe()
        play = move[0] == _core.FOUND
        rank = cards[state["tops"][move[1]]] % 13 if play else None
        lazy = play and state["dealt"] < 104 and move[1] != state["queens"] - 1
        out.append({"move": tuple(move), "rank": rank, "lazy": lazy})
        pos = pos.play(tuple(move))
    assert pos.is_won()
    return out


def normal_form(moves):
    """The construction of the argument: swap a lazy play with the move after it while that is
    a deal, or a play from the last pile not of the rank laid next on it. Returns the new line
    and the number of swaps."""
    moves, swaps, changed = list(moves), 0, True
    while changed:
        changed = False
        dealt = 0
        for i in range(len(moves) - 1):
            p, x = moves[i], moves[i + 1]
            dealing = dealt < 103                   # 1 + dealt cards turned: the stock lasts
            if p["lazy"] and dealing and (
                    x["move"][0] == _core.DEAL
                    or (x["move"][0] == _core.FOUND and not x["lazy"]
                        and x["rank"] != NEXT_RANK.get(p["rank"]))):
                moves[i], moves[i + 1] = x, p
                swaps += 1
                changed = True
            if moves[i]["move"][0] == _core.DEAL:
                dealt += 1
    return moves, swaps


def normal_form_lines(game, numbers, rules):
    """For each deal of ``numbers`` that the core wins within 200,000 nodes under ``rules``:
    (number, its core game, its winning line in normal form, the swaps that took)."""
    for number in numbers:
        deal = deal_from_number(game, number)
        core = core_game(game, deal)
        status, line, *_ = core.search(200_000, 0.0, 1 << 28, rules)
        if status == "win":
            yield (number, core,
                   *normal_form(annotated_line(core, salic_core_order(deal.cards), line)))


@pytest.mark.parametrize("game_id", PROFILES)
def test_winning_lines_in_normal_form_replay_under_the_rule(game_id):
    game = find_game(game_id)
    checked = swapped = 0
    for number, core, moves, swaps in normal_form_lines(game, range(1, 41),
                                                        DEFAULT_RULES & ~LAZY):
        pos = core.position()
        for i, m in enumerate(moves):
            allowed = pos.moves(True, LAZY)
            same = [a for a in allowed if a == m["move"]
                    or (a[0] == _core.FOUND and a[:2] == m["move"][:2])]
            assert same, (game_id, number, i, m, allowed)
            state = pos.describe()
            lazy = m["lazy"] and state["dealt"] < 104 and m["move"][1] != state["queens"] - 1
            if m["move"][0] == _core.FOUND:          # marked lazy exactly then
                assert same[0][2] == int(lazy), (game_id, number, i)
            pos = pos.play(same[0])
        assert pos.is_won(), (game_id, number)
        checked += 1
        swapped += swaps > 0
    assert checked >= 30 and swapped >= 10, (checked, swapped)


@pytest.mark.parametrize("game_id", PROFILES)
def test_the_rule_cuts_moves_and_keeps_the_verdicts(game_id):
    """In use: after a lazy play the deal is not offered. And with and without the rule (the
    other default rules on) the verdicts agree, while the node counts differ on some deals."""
    game = find_game(game_id)
    deal = deal_from_number(game, 1)
    pos = core_game(game, deal).position()
    cut = 0
    while not pos.is_won() and pos.describe()["dealt"] < 104:
        moves = pos.moves(True, LAZY)
        lazy = [m for m in moves if m[0] == _core.FOUND and m[2] == 1]
        if lazy:
            after = pos.play(lazy[0])
            cut += (_core.DEAL, 0, 0) not in after.moves(True, LAZY)
            assert (_core.DEAL, 0, 0) in after.moves(True, 0)
        plain = pos.moves(True, 0)
        if not plain:
            break
        pos = pos.play(plain[0])
    assert cut >= 1
    decided, nodes = with_and_without(game, range(1, 31), DEFAULT_RULES, DEFAULT_RULES & ~LAZY,
                                      200_000)
    changed = sum(on != off for _, on, off in nodes)
    assert decided >= 25 and changed >= 1, (decided, changed)


def test_the_seed_rules_have_no_lazy_plays():
    """Where cards may be parked while dealing, the argument does not hold: no move is lazy."""
    for game_id in ("glencoe", "intrigue"):
        game = find_game(game_id)
        pos = core_game(game, deal_from_number(game, 3)).position()
        for _ in range(60):
            moves = pos.moves(True, DEFAULT_RULES | LAZY)
            if not moves:
                break
            assert all(m[2] == 0 for m in moves if m[0] == _core.FOUND), game_id
            pos = pos.play(moves[-1] if moves[-1][0] == _core.DEAL else moves[0])


def test_the_rule_is_a_default_rule():
    assert DEFAULT_RULES & LAZY


def same_plays(moves):
    """A move list as a set, a play marked lazy taken as the same play unmarked."""
    return {(m[0], m[1], 0) if m[0] == _core.FOUND else tuple(m) for m in moves}


@settings(max_examples=15, deadline=None)
@given(game_id=st.sampled_from(PROFILES), number=st.integers(1, 10 ** 6),
       seed=st.integers(0, 2 ** 32 - 1))
def test_the_rule_changes_only_the_moves_after_a_lazy_play(game_id, number, seed):
    """Along a random line of unmarked moves (so no lazy play is ever made): the rule offers the
    same moves while dealing (it only marks and orders them), and once the stock is empty it
    changes nothing at all, so the probes run with and without it (search.c, twin rules) share
    their sealed end games."""
    game = find_game(game_id)
    pos = core_game(game, deal_from_number(game, number)).position()
    rng = random.Random(seed)
    end_game = 0
    for _ in range(1000):
        plain = pos.moves(True, DEFAULT_RULES & ~LAZY)
        ruled = pos.moves(True, DEFAULT_RULES & ~FEED)     # lazy-feed cuts lazy plays: its own test
        assert same_plays(ruled) == same_plays(plain) and len(ruled) == len(plain)
        if pos.describe()["dealt"] == 104:
            assert ruled == plain == pos.moves(True, DEFAULT_RULES)
            end_game += 1
        if not plain or end_game >= 50:
            break
        pos = pos.play(rng.choice(plain))
    assert end_game >= 1


def test_the_order_for_the_rule():
    """While dealing, before any lazy play (csrc/salic.c): the play from the last pile, then the
    lazy plays of the rank the last pile's top is laid on, then the deal, then the other lazy
    plays."""
    def first_play_else_last(pos):
        plain = pos.moves(True, DEFAULT_RULES & ~LAZY)
        if not plain:
            return None
        return plain[0] if plain[0][0] == _core.FOUND else plain[-1]
    seen = fed = 0
    for game_id in PROFILES:
        walk = dealing_positions(find_game(game_id), range(1, 40), first_play_else_last)
        for pos, state, cards in walk:
            moves = pos.moves(True, DEFAULT_RULES)
            last, tops = state["queens"] - 1, state["tops"]
            if len(moves) > 1:
                feed = feed_rank(cards, state)

                def place(m):
                    if m[0] == _core.DEAL:
                        return 2
                    if m[1] == last:
                        return 0
                    assert m[2] == 1           # a play from another pile is lazy
                    return 1 if cards[tops[m[1]]] % 13 == feed else 3
                places = [place(m) for m in moves]
                assert places == sorted(places), (game_id, moves)
                seen += 1
                fed += 1 in places
    assert seen >= 100 and fed >= 5, (seen, fed)


def test_the_seed_rules_search_the_same_with_or_without_the_rule():
    """The rule changes no move of the seed rules, nor the probes (no twin probes there): the
    search is the same node for node. Deals past the first short search are included."""
    probed = sum(same_search(find_game(game_id), range(1, 25), DEFAULT_RULES,
                             DEFAULT_RULES & ~LAZY) for game_id in ("glencoe", "intrigue"))
    assert probed >= 3, probed
