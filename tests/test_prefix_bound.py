"""The prefix bound (docs/solver.md) against a plain statement of it.

The core sweeps the waste once with a running balance per rank; here the bound is written out
directly: for each waste card w_i from the top, the smallest K >= K_(i-1) for which both cover
conditions hold, each checked by counting cards. On last-pass positions of the four Banner-family
games the core must call exactly the same positions dead.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from solver import _core
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import GAMES, find_game

PREFIX = PRUNING_RULES["banner-prefix"]
EMPTY = 13
BANNER_IDS = [g.id for g in GAMES if g.family == "banner"]


def needs_left(game, deal, state) -> list:
    """The ranks the foundation still takes, in order (RULES §2)."""
    ranks = [c % 13 for c in deal.cards]
    if game.sixes_reserve:
        bases = [5] * game.reserve_size
    else:
        bases = list(reversed(ranks[:game.reserve_size]))     # the reserve top closes run 0
    out = []
    for run in range(state["runs"], game.reserve_size):
        start = state["foundation"] if run == state["runs"] else 0
        out += [(bases[run] + 1 + k) % 13 for k in range(start, 12)]
    return out


def holds(have: Counter, wanted: list) -> bool:
    return not Counter(wanted) - have


def plain_prefix_dead(cells, waste, stock, needs) -> bool:
    """Waste cards w_1.. from the top, stock s_1.. in turn order. w_i is captured by play
    i-1+K_i once the first K_i stock cards are: before that play the cells, w_1..w_(i-1) and
    s_1..s_K must hold the needs of plays 0..i-2+K, and with w_i those of plays 0..i-1+K."""
    cells = Counter(c for c in cells if c != EMPTY)
    top_first = list(reversed(waste))
    k = 0
    for i in range(1, len(top_first) + 1):
        while True:
            if k > len(stock):
                return True
            before = cells + Counter(top_first[:i - 1]) + Counter(stock[:k])
            if holds(before, needs[:i - 1 + k]) and \
                    holds(before + Counter([top_first[i - 1]]), needs[:i + k]):
                break
            k += 1
    return False


def last_pass_positions(game, rng, deals: int, empty_waste: bool = False) -> list:
    """(deal, core position) in the last pass with a non-empty waste (any waste with
    ``empty_waste``): random walks (plays with a varying probability, else a turn) and the
    positions along the core's winning lines."""
    out = []
    for _ in range(deals):
        deal = deal_from_number(game, rng.randint(1, 10 ** 6))
        core = core_game(game, deal)
        p = rng.choice([0.5, 0.8, 0.95])
        pos = core.position()
        walk = []
        while not pos.is_won():
            moves = pos.moves(True, DEFAULT_RULES)
            if not moves:
                break
            plays = [m for m in moves if m[0] in (_core.WASTE, _core.CELL)]
            turns = [m for m in moves if m[0] not in (_core.WASTE, _core.CELL)]
            pos = pos.play(rng.choice(plays) if plays and (rng.random() < p or not turns)
                           else turns[0])
            walk.append(pos)
        status, line, *_ = core.search(100_000, 0.0, 1 << 28, DEFAULT_RULES)
        if status == "win":
            pos = core.position()
            for code in line:
                pos = pos.play(tuple(code))
                walk.append(pos)
        for pos in walk:
            state = pos.describe()
            if state["passes"] == game.max_passes and (state["waste"] or empty_waste):
                out.append((deal, pos))
    return out


@pytest.mark.parametrize("game_id", BANNER_IDS)
def test_core_prefix_bound_is_the_plain_one(game_id):
    game = find_game(game_id)
    rng = random.Random(f"prefix-{game_id}")
    verdicts = Counter()
    for deal, pos in last_pass_positions(game, rng, deals=12):
        state = pos.describe()
        plain = plain_prefix_dead(state["cells"], state["waste"], state["stock"],
                                  needs_left(game, deal, state))
        assert pos.is_dead(PREFIX) == plain, (game_id, deal.number, state)
        verdicts[plain] += 1
    # both outcomes seen often, so the comparison is not vacuous
    assert verdicts[True] >= 20 and verdicts[False] >= 100, dict(verdicts)


def test_plain_bound_waits_for_the_waste_card():
    """A 9 alone on the waste, then a 6 and a 5 in the stock; no cells. The cards captured by
    the third play would hold every rank the first three plays need, but the 9 is needed
    second, while the 6 still covers it."""
    nine, six, five = 8, 5, 4
    assert plain_prefix_dead([], waste=[nine], stock=[six, five], needs=[five, nine, six])
    # needed last, the 9 comes free once the 5 and the 6 are played from the waste top
    assert not plain_prefix_dead([], waste=[nine], stock=[six, five], needs=[five, six, nine])


@pytest.mark.parametrize("game_id", BANNER_IDS)
def test_fast_sweep_is_the_plain_one(game_id):
    """The core's sweep (SSE2 where built) against its plain C twin, verdicts and, where it
    passes, the trace it leaves (tests/test_banner_trace.py), with the waste cut at every talon
    position of last-pass positions (each cut is the position after dealing up to it), and
    against the plain statement at the position's own cut."""
    game = find_game(game_id)
    rng = random.Random(f"sweep-{game_id}")
    verdicts = Counter()
    talon = 104 if game.decks == 2 else 52
    for deal, pos in last_pass_positions(game, rng, deals=6, empty_waste=True):
        state = pos.describe()
        if state["waste"]:
            plain = plain_prefix_dead(state["cells"], state["waste"], state["stock"],
                                      needs_left(game, deal, state))
            assert pos.prefix_sweep_check() == plain, (game_id, deal.number, state)
        for cut in range(talon + 1):
            verdict = pos.prefix_sweep_check(cut)
            assert verdict is not None, (game_id, deal.number, state, cut)
            verdicts[verdict] += 1
    assert verdicts[True] >= 5000 and verdicts[False] >= 5000, dict(verdicts)
