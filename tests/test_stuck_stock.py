"""stuck-stock (docs/solver.md): in the PySol profiles, the stock cards that cannot reach a
foundation while the stock lasts join deep-room's grid as piles of their own.

Here both halves are written out plainly: which stock cards are stuck (a least fixpoint over
what may be played while dealing), and the relaxation with those cards as piles, each sharing its
queen with the queen's own pile. The core's whole walk must agree with it exactly where the grid
is small enough to write out; what it calls dead must not be won; the positions of winning lines
must stay alive; and searches with and without the rule must agree.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import find_game

from test_parking_room import (CHAINS, core_cards, queen_of, random_walk, relaxation_dead,
                               winning_lines_after_deals)

STUCK = PRUNING_RULES["stuck-stock"]
PYSOL = ["pysol-glencoe", "pysol-laggard-lady", "pysol-intrigue"]
MAX_POINTS = 20000
# The rank each rank is laid on in its chain; None for the fives and sixes, which start a slot.
LAID_ON = {r: (chain[i - 1] if i else None) for chain in CHAINS for i, r in enumerate(chain)}


def layout(cards, pos):
    """(piles, stock): each queen's pile as deal positions bottom first (the queens on the
    table), and the stock as (deal position, queen it lands on), non-queens only."""
    state = pos.describe()
    lands = queen_of(cards)
    piles = [[] for _ in range(state["queens"])]
    for i in range(state["dealt"]):
        if state["present"] >> i & 1:
            piles[lands[i]].append(i)
    stock = [(i, lands[i]) for i in range(state["dealt"], 104) if i in lands]
    return piles, stock


def stuck_stock(cards, pos) -> set:
    """The stock cards (deal positions) that no line can play to a foundation before the stock
    is empty: m[r] bounds the cards of rank r on foundations while dealing; a card can be played
    only if it starts a slot or m of the rank it is laid on exceeds its rank's count now, and a
    pile card only once every card above it can be; iterate until nothing changes."""
    piles, stock = layout(cards, pos)
    counts = pos.describe()["counts"]
    rank = [c % 13 for c in cards]
    m = list(counts)
    playable = set()

    def can(i):
        below = LAID_ON[rank[i]]
        return below is None or m[below] > counts[rank[i]]

    changed = True
    while changed:
        changed = False
        for pile in piles:
            for i in reversed(pile):
                if i in playable:
                    continue
                if not can(i):
                    break
                playable.add(i)
                changed = True
        for i, _ in stock:
            if i not in playable and can(i):
                playable.add(i)
                changed = True
        played = Counter(rank[i] for i in playable)
        for chain in CHAINS:
            before = 8
            for r in chain:
                m[r] = before = min(before, counts[r] + played[r])
    return {i for i, _ in stock if i not in playable}


def grid_piles(cards, pos, stock: bool):
    """The relaxed piles as (queen, ranks top first): every non-empty pile, and with stock the
    stuck cards of each queen's segment as a pile on the same queen."""
    piles, stock_cards = layout(cards, pos)
    out = [(q, [cards[i] % 13 for i in reversed(p)]) for q, p in enumerate(piles) if p]
    if stock:
        stuck = stuck_stock(cards, pos)
        for q in range(8):
            mine = [cards[i] % 13 for i, at in reversed(stock_cards) if at == q and i in stuck]
            if mine:
                out.append((q, mine))
    return out


def points(piles) -> int:
    n = 1
    for _, p in piles:
        n *= len(p) + 1
    return n


# Deals whose searches the rule shortens most (PySol Glencoe 1318: 16.3 M nodes to prove it
# unwinnable without it, 3.3 M with it); random walks over them meet many positions that only
# the stuck cards show dead, some with grids small enough to write out.
HARD = {"pysol-glencoe": [1318, 1770], "pysol-laggard-lady": [1315, 6913],
        "pysol-intrigue": [6913, 1545]}


def dealing_positions(game, rng, walks):
    """(number, core, cards, position) after each deal while the stock lasts, along random walks
    that play a foundation move with probability p (else deal): over the game's hard deals
    (`walks` each), or over `walks` random deals."""
    numbers = [n for n in HARD.get(game.id, []) for _ in range(walks)] or \
        [rng.randint(1, 10 ** 6) for _ in range(walks)]
    cores = {}
    for number in numbers:
        if number not in cores:
            core = core_game(game, deal_from_number(game, number))
            cores[number] = core, core_cards(game, number)
        core, cards = cores[number]
        for pos in random_walk(core.position(), rng, rng.uniform(0.05, 0.9)):
            if pos.describe()["dealt"] < 104:
                yield number, core, cards, pos


@pytest.mark.parametrize("game_id", PYSOL)
def test_whole_walk_decides_the_relaxation_with_stuck_cards_exactly(game_id):
    """Where the grid with the stuck cards can be written out (and holds every pile), the core's
    uncut walk calls a position dead exactly when the plain relaxation does; where its grid is
    larger, it is never weaker than the grid without the stuck cards."""
    game = find_game(game_id)
    rng = random.Random(f"stuck-{game_id}")
    tally = Counter()
    for number, core, cards, pos in dealing_positions(game, rng, walks=12):
        with_stuck = pos.room_dead(deep=True, whole=True, stock=True)
        without = pos.room_dead(deep=True, whole=True, stock=False)
        assert with_stuck or not without, (game_id, number)
        piles = grid_piles(cards, pos, stock=True)
        if len(piles) <= 8 and points(piles) <= MAX_POINTS:
            found = pos.describe()["counts"]
            dead = relaxation_dead([p for _, p in piles], found, queens=[q for q, _ in piles])
            assert with_stuck == dead, (game_id, number, piles, found)
            tally["small", with_stuck, without] += 1
        tally["stuck cards", len(piles) > len(grid_piles(cards, pos, stock=False))] += 1
    # The cases occur: stuck cards found, alive positions, and (on the hard deals) dead ends
    # only the stuck cards show.
    assert tally["stuck cards", True] >= 20, dict(tally)
    assert tally["small", False, False] >= 20, dict(tally)
    if game_id in HARD:
        assert tally["small", True, False] >= 3, dict(tally)


@pytest.mark.parametrize("game_id", PYSOL)
def test_stuck_cards_are_never_played_while_dealing(game_id):
    """The fixpoint is a bound on play: along random walks, a stock card found stuck at some
    position is never a legal foundation play before the stock is empty."""
    game = find_game(game_id)
    rng = random.Random(f"stuck-play-{game_id}")
    checked = 0
    for _ in range(30):
        number = rng.randint(1, 10 ** 6)
        core = core_game(game, deal_from_number(game, number))
        cards = core_cards(game, number)
        pos, stuck = core.position(), set()
        p = rng.uniform(0.3, 0.9)
        while pos.describe()["dealt"] < 104:
            stuck |= stuck_stock(cards, pos)
            moves = pos.moves(True, 0)
            plays = [m for m in moves if m[0] == _core.FOUND]
            tops = pos.describe()["tops"]
            for move in plays:          # no stuck card is ever a legal play
                assert tops[move[1]] not in stuck, (game_id, number, tops[move[1]])
                checked += 1
            if plays and rng.random() < p:
                move = rng.choice(plays)
            else:
                move = next(m for m in moves if m[0] == _core.DEAL)
            pos = pos.play(move)
    assert checked >= 100, checked


@pytest.mark.parametrize("game_id", PYSOL)
def test_stuck_stock_never_calls_a_winning_line_dead(game_id):
    """Every position after a deal on a winning line the search found without the rule is
    alive to the test with the stuck cards."""
    lines = winning_lines_after_deals(find_game(game_id), range(1, 21), DEFAULT_RULES & ~STUCK)
    for number, positions in lines.items():
        for pos in positions:
            assert not pos.room_dead(deep=True, whole=True, stock=True), (game_id, number)
    assert len(lines) >= 15, len(lines)


@pytest.mark.parametrize("game_id", PYSOL)
def test_dead_ends_only_stuck_cards_show_are_not_won(game_id):
    """Positions the test calls dead only with the stuck cards: the search without the rule,
    run from there, does not win (and proves most of them unwinnable)."""
    game = find_game(game_id)
    rng = random.Random(f"stuck-dead-{game_id}")
    tally = Counter()
    for number, core, cards, pos in dealing_positions(game, rng, walks=60):
        if tally["only"] >= 6:
            break
        if pos.room_dead(deep=True, whole=True, stock=True) and \
                not pos.room_dead(deep=True, whole=True, stock=False):
            status = core.search(300_000, 0.0, 1 << 28, DEFAULT_RULES & ~STUCK, pos)[0]
            assert status != "win", (game_id, number)
            tally["only"] += 1
            tally[status] += 1
    assert tally["only"] >= 2 and tally["no_win"] >= 1, dict(tally)


# Deals whose searches run long enough for deep-room to take over (20,000 deals offered), where
# the rule then runs in the exhaustive searches: two unwinnable, the rest won after the probes.
AGREE = [("pysol-glencoe", 915), ("pysol-glencoe", 8385), ("pysol-glencoe", 102),
         ("pysol-glencoe", 231), ("pysol-laggard-lady", 222), ("pysol-laggard-lady", 730),
         ("pysol-intrigue", 222), ("pysol-intrigue", 102)]


def test_searches_agree_with_and_without_stuck_stock():
    """The same verdicts with and without the rule, and other node counts on some deals (the
    rule is in use); solve() replays every winning line under the reference rules."""
    from solver import solve
    from solver.result import Verdict

    changed = 0
    for game_id, number in AGREE:
        game = find_game(game_id)
        core = core_game(game, deal_from_number(game, number))
        with_it = core.search(3_000_000, 0.0, 1 << 28, DEFAULT_RULES)
        without = core.search(3_000_000, 0.0, 1 << 28, DEFAULT_RULES & ~STUCK)
        assert with_it[0] == without[0] and with_it[0] in ("win", "no_win"), (game_id, number)
        changed += with_it[2] != without[2]
        if with_it[0] == "win":
            won = solve(game_id, number, max_nodes=3_000_000, max_memory=1 << 28, inner=False)
            assert won.verdict is Verdict.WINNABLE and won.moves, (game_id, number)
    assert changed >= 4, changed


@pytest.mark.parametrize("game_id", PYSOL)
@settings(max_examples=5, deadline=None)
@given(deal=st.integers(1, 10 ** 6))
def test_searches_agree_on_random_deals(game_id, deal):
    """On random deals (most decided before deep-room takes over, where the rule cannot
    change anything): never a win against a proof of no win."""
    from solver import solve
    from solver.result import Verdict

    verdicts = {solve(game_id, deal, max_nodes=200_000, max_memory=1 << 28, prune=rules,
                      inner=False).verdict for rules in (DEFAULT_RULES, DEFAULT_RULES & ~STUCK)}
    assert verdicts != {Verdict.WINNABLE, Verdict.UNWINNABLE}, (game_id, deal)


@pytest.mark.slow
def test_a_deal_the_rule_shortens_stays_unwinnable():
    """PySol Glencoe 1318: unwinnable with the rule in a fifth of the nodes, and without it."""
    game = find_game("pysol-glencoe")
    core = core_game(game, deal_from_number(game, 1318))
    with_it = core.search(0, 0.0, 2 << 30, DEFAULT_RULES)
    without = core.search(0, 0.0, 2 << 30, DEFAULT_RULES & ~STUCK)
    assert with_it[0] == without[0] == "no_win", (with_it[0], without[0])
    assert with_it[2] < without[2], (with_it[2], without[2])


@pytest.mark.parametrize("game_id", PYSOL)
def test_room_memo_keeps_the_grids_with_stuck_cards_apart(game_id):
    """Through the room memo the test with the stuck cards gives each position its own verdict
    and step count (the signature holds the piles that share a queen), as without the memo
    (steps: where the walk may be cut short)."""
    game = find_game(game_id)
    rng = random.Random(f"stuck-memo-{game_id}")
    tally = Counter()
    first = True
    for number, core, cards, pos in dealing_positions(game, rng, walks=4):
        for whole in (False, True):
            verdict, hit, _ = pos.room_memo_check(True, whole, reset=first, stock=True)
            first = False
            assert verdict is not None, (game_id, number, whole)
            tally[hit, verdict] += 1
    assert tally[True, True] + tally[True, False] > 0 and tally[False, True] > 0, dict(tally)
