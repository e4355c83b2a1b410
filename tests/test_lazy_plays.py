"""The lazy-plays rule (docs/solver.md, "lazy-plays"), PySol profiles only.

While dealing, with no parking, a play from a pile other than the last is *lazy*: no deal follows
it directly, and a play from the last pile follows it only when it is of the rank laid next on
the lazy card. The argument moves lazy plays later in any winning line until the line obeys
this; here that construction is run on real winning lines, and the result must replay, move by
move, through the rule's own move generator and win. ``tests/test_pruning.py`` also runs the
rule alone against the unpruned search, like every rule.
"""
from __future__ import annotations

import pytest

from solver import _core
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game, run
from solver.deals import deal_from_number
from solver.games import find_game
from solver.result import Verdict

from test_core import salic_core_order

LAZY = PRUNING_RULES["lazy-plays"]
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


@pytest.mark.parametrize("game_id", PROFILES)
def test_winning_lines_in_normal_form_replay_under_the_rule(game_id):
    game = find_game(game_id)
    checked = swapped = 0
    for number in range(1, 41):
        deal = deal_from_number(game, number)
        core = core_game(game, deal)
        cards = salic_core_order(deal.cards)
        status, line, *_ = core.search(200_000, 0.0, 1 << 28, DEFAULT_RULES)
        if status != "win":
            continue
        moves, swaps = normal_form(annotated_line(core, cards, line))
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
    default rules on; it is not one of them) the verdicts agree, while the node counts differ
    on some deals."""
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
    decided = changed = 0
    for number in range(1, 31):
        deal = deal_from_number(game, number)
        with_rule = run(game, deal, max_nodes=200_000, prune=DEFAULT_RULES | LAZY, line=False)
        without = run(game, deal, max_nodes=200_000, prune=DEFAULT_RULES, line=False)
        if Verdict.UNKNOWN not in (with_rule.verdict, without.verdict):
            assert with_rule.verdict is without.verdict, (game_id, number)
            decided += 1
        changed += with_rule.stats.nodes != without.stats.nodes
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
