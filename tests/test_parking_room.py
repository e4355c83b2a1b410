"""The parking-room test (docs/solver.md) against a plain statement of its relaxation.

The core walks the grid with shortcuts (cards taken at once, a first-copy check, a step budget);
here the relaxation is written out directly: every monotone path over the grid of cards taken
from each pile, each point checked against the eight queens. A position the core calls dead must
be dead here too, and so never won.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import GAMES, find_game

from test_pruning import endgame_walks

ROOM = PRUNING_RULES["parking-room"]
CHAINS = ([5, 6, 7, 8, 9, 10], [4, 3, 2, 1, 0, 12])   # 6..J and 5 4 3 2 A K, as rank indices
MAX_POINTS = 8000


def core_cards(game, number) -> list:
    """The deal in the core's order: the first queen moved to the front (RULES §1)."""
    cards = list(deal_from_number(game, number).cards)
    q = next(i for i, c in enumerate(cards) if c % 13 == 11)
    cards.insert(0, cards.pop(q))
    return cards


def queen_of(cards: list) -> dict:
    """The queen (0-based) each non-queen deal position lands on."""
    out, q = {}, -1
    for i, card in enumerate(cards):
        if card % 13 == 11:
            q += 1
        else:
            out[i] = q
    return out


def piles_of(core_cards: list, pos) -> list:
    """Ranks of each non-empty pile, top first."""
    state = pos.describe()
    queen_of_ = queen_of(core_cards)
    piles = [[] for _ in range(state["queens"])]
    for q, parked in enumerate(state["parked"]):
        if parked is not None:
            piles[q].append(core_cards[parked] % 13)
    for i in range(state["dealt"]):
        if state["present"] >> i & 1:
            piles[queen_of_[i]].append(core_cards[i] % 13)
    return [list(reversed(p)) for p in piles if p]


def need(piles, taken, found) -> int:
    inpile, removed = Counter(), Counter()
    for pile, t in zip(piles, taken):
        removed.update(pile[:t])
        inpile.update(pile[t:])
    total = 0
    for chain in CHAINS:
        cnt = 8
        for r in chain:
            cnt = min(cnt, 8 - inpile[r])
            total += max(0, removed[r] - (cnt - found[r]))
    return total


def relaxation_dead(piles, found, queens=None, limit=None):
    """No monotone path of feasible points from nothing taken to everything taken. queens: the
    queen each pile lies on (stuck-stock: two piles may share one, which then holds no parked
    card while either holds a relaxed card); by default each pile its own. limit: give up
    (None) once that many points have been seen."""
    queens = list(range(len(piles))) if queens is None else queens
    ends = tuple(len(p) for p in piles)
    start = tuple(0 for _ in piles)
    seen, stack = {start}, [start]
    while stack:
        if limit is not None and len(seen) > limit:
            return None
        point = stack.pop()
        if point == ends:
            return False
        for i in range(len(piles)):
            if point[i] == ends[i]:
                continue
            nxt = point[:i] + (point[i] + 1,) + point[i + 1:]
            if nxt in seen:
                continue
            seen.add(nxt)
            not_empty = len({q for q, t, e in zip(queens, nxt, ends) if t < e})
            if need(piles, nxt, found) <= 8 - not_empty:
                stack.append(nxt)
    return True


def grid_points(piles) -> int:
    n = 1
    for p in piles:
        n *= len(p) + 1
    return n


def positions_with_piles(game, rng, deals):
    """positions(), each with its piles (ranks, top first)."""
    cache = {}
    for number, core, pos in positions(game, rng, deals):
        if number not in cache:
            cache[number] = core_cards(game, number)
        yield number, core, pos, piles_of(cache[number], pos)


def random_walk(pos, rng, p, end_game=False):
    """The positions after each deal along a random walk from pos that plays a foundation move
    with probability p, else deals; with end_game, once the stock is empty, the positions after
    each random move too."""
    while not pos.is_won():
        moves = pos.moves(True, 0)
        plays = [m for m in moves if m[0] == _core.FOUND]
        deals_ = [m for m in moves if m[0] == _core.DEAL]
        if plays and (rng.random() < p or not deals_):
            pos = pos.play(rng.choice(plays))
        elif deals_:
            pos = pos.play(deals_[0])
            yield pos
        elif end_game and moves:
            pos = pos.play(rng.choice(moves))
            yield pos
        else:
            break


def positions(game, rng, deals):
    """Positions after each deal along random walks that play a foundation move with
    probability p (else deal; p from 0.1 to 0.6, so some walks bury what they need), then
    positions after the stock is empty."""
    for _ in range(deals):
        number = rng.randint(1, 10 ** 6)
        core = core_game(game, deal_from_number(game, number))
        for pos in random_walk(core.position(), rng, rng.uniform(0.1, 0.6)):
            yield number, core, pos
    yield from endgame_walks(game, rng, deals)


@pytest.mark.parametrize("game_id", [g.id for g in GAMES if g.family == "salic"])
def test_core_dead_ends_are_dead_in_the_relaxation(game_id):
    game = find_game(game_id)
    rng = random.Random(f"room-{game_id}")
    tally = Counter()
    for number, core, pos, piles in positions_with_piles(game, rng, deals=30):
        if grid_points(piles) > MAX_POINTS:
            continue
        found = pos.describe()["counts"]
        core_dead = pos.is_dead(ROOM)
        spec_dead = relaxation_dead(piles, found)
        if core_dead:
            assert spec_dead, (game_id, number, piles, found)
            if tally[True, True] < 5:   # and the plain search finds no win from it
                assert core.search(200_000, 0.0, 1 << 28, 0, pos)[0] != "win", (game_id, number)
        tally[core_dead, spec_dead] += 1
    # Both verdicts occur, and the core finds most of the relaxation's dead ends.
    assert tally[True, True] >= 10, dict(tally)
    assert tally[False, False] >= 10, dict(tally)
    assert tally[True, True] >= 0.9 * (tally[True, True] + tally[False, True]), dict(tally)


DEEP = PRUNING_RULES["deep-room"]
SALIC_GAMES = [g.id for g in GAMES if g.family == "salic"]


@pytest.mark.parametrize("game_id", SALIC_GAMES)
def test_deep_room_dead_ends_are_dead_in_the_relaxation(game_id):
    """deep-room is the same test with a larger grid: where the grid is small enough to write
    out, what it calls dead is dead in the relaxation. Where only the larger grid holds every
    pile, it finds dead ends the default grid misses, and the plain search wins none of them."""
    game = find_game(game_id)
    rng = random.Random(f"deep-{game_id}")
    tally = Counter()
    for number, core, pos, piles in positions_with_piles(game, rng, deals=30):
        deep_dead = pos.is_dead(DEEP)
        if grid_points(piles) <= MAX_POINTS:
            found = pos.describe()["counts"]
            if deep_dead:
                assert relaxation_dead(piles, found), (game_id, number, piles, found)
            tally["small", deep_dead] += 1
        elif deep_dead and not pos.is_dead(ROOM):
            if tally["more"] < 3:
                assert core.search(200_000, 0.0, 1 << 28, 0, pos)[0] != "win", (game_id, number)
            tally["more"] += 1
    assert tally["small", True] >= 5 and tally["small", False] >= 5, dict(tally)
    assert tally["more"] >= 1, dict(tally)


@pytest.mark.parametrize("game_id", SALIC_GAMES)
def test_whole_walk_decides_the_relaxation_exactly(game_id):
    """Near the end of the stock deep-room's walk is never cut short, and its grid holds every
    pile, however many points that grid has (*The whole grid*). Uncut, it decides the relaxation
    of all the piles exactly: dead there and only there, on small grids and on grids far over
    deep-room's 2^20 points alike (where the plain walk below sees few enough points to finish),
    and it calls dead every position that the walks cut short by their budget call dead."""
    game = find_game(game_id)
    rng = random.Random(f"deep-{game_id}")
    tally = Counter()
    for number, core, pos, piles in positions_with_piles(game, rng, deals=30):
        whole = pos.room_dead(deep=True, whole=True)
        for deep in (False, True):
            if pos.room_dead(deep=deep, whole=False):
                assert whole, (game_id, number, deep)
        found = pos.describe()["counts"]
        if grid_points(piles) <= MAX_POINTS:
            assert whole == relaxation_dead(piles, found), (game_id, number, piles, found)
            tally["small", whole] += 1
        elif grid_points(piles) > 1 << 20 and tally["large", whole] < 5:
            plain = relaxation_dead(piles, found, limit=5000)
            if plain is not None:
                assert whole == plain, (game_id, number, piles, found)
                tally["large", whole] += 1
    assert tally["small", True] >= 5 and tally["small", False] >= 5, dict(tally)
    assert tally["large", True] >= 1 and tally["large", False] >= 1, dict(tally)


@pytest.mark.parametrize("game_id", SALIC_GAMES)
def test_whole_grid_decides_end_games_exactly(game_id):
    """Once the stock is empty the whole grid's relaxation is the game itself (docs/solver.md,
    *The whole grid*): a position is dead to the whole walk exactly when the plain search (no
    pruning) finds no win from it. On the grid of at most 2^20 points, which gives the cards of
    the piles left out away, some lost end games were alive."""
    game = find_game(game_id)
    rng = random.Random(f"end-exact-{game_id}")
    tally = Counter()
    for number, core, pos in endgame_walks(game, rng, deals=10):
        dead = pos.room_dead(deep=True, whole=True)
        status = core.search(300_000, 0.0, 1 << 28, 0, pos)[0]
        if status == "nodes":
            continue
        assert dead == (status == "no_win"), (game_id, number, dead, status)
        tally[dead] += 1
    assert tally[True] >= 5 and tally[False] >= 5, dict(tally)


@pytest.mark.parametrize("game_id", SALIC_GAMES)
def test_deep_room_never_calls_a_winning_line_dead(game_id):
    """Every position after a deal on a winning line the search found is alive to the deep
    test (a position from which a win follows cannot be dead)."""
    lines = winning_lines_after_deals(find_game(game_id), range(1, 16),
                                      PRUNING_RULES["safe-foundation"])
    for number, positions in lines.items():
        for pos in positions:
            assert not pos.is_dead(DEEP), (game_id, number)
    assert len(lines) >= 10, len(lines)


def winning_lines_after_deals(game, numbers, rules) -> dict:
    """For each deal the search wins (200,000 nodes, these rules): the positions after each
    deal along its winning line."""
    lines = {}
    for number in numbers:
        core = core_game(game, deal_from_number(game, number))
        status, line, *_ = core.search(200_000, 0.0, 1 << 28, rules)
        if status != "win":
            continue
        pos, lines[number] = core.position(), []
        for move in line:
            pos = pos.play(tuple(move))
            if move[0] == _core.DEAL:
                lines[number].append(pos)
    return lines


def deal_walks(core, rng, walks):
    """Positions after each deal along `walks` random walks over one deal (each plays a
    foundation move with its own probability, else deals), then along its end games."""
    for _ in range(walks):
        yield from random_walk(core.position(), rng, rng.uniform(0.1, 0.9), end_game=True)


@pytest.mark.parametrize("game_id", SALIC_GAMES)
@settings(max_examples=4, deadline=None)
@given(deal=st.integers(1, 10 ** 6), seed=st.integers(0, 2 ** 32))
def test_room_memo_gives_each_test_its_own_verdict(game_id, deal, seed):
    """The room memo (csrc/salic.c) hands back a test's verdict and step count where the grid
    and the budget match one it holds. The positions of many random walks over one deal go
    through one memo, as in a search (walks share grids, and meet grids that differ from a
    held one only in the foundations, the pile order or the budget); at every one the memo's
    answer is the test's own, verdict and steps (the steps drive the tests' throttle, so a
    search with the memo is node for node the search without it)."""
    game = find_game(game_id)
    core = core_game(game, deal_from_number(game, deal))
    rng = random.Random(seed)
    tally = Counter()
    first = True
    for pos in deal_walks(core, rng, walks=12):
        for deep, whole in ((False, False), (True, False), (True, True)):
            verdict, hit, points = pos.room_memo_check(deep, whole, reset=first)
            first = False
            assert verdict is not None, (game_id, deal, seed, deep, whole)
            assert whole or not points
            tally[hit] += 1
    assert tally[True] > 0 and tally[False] > 0, dict(tally)


@pytest.mark.parametrize("game_id", SALIC_GAMES)
def test_dead_points_answer_later_tests_with_their_own_verdict(game_id):
    """A whole walk puts the grids left at the points it has left behind near its origin into
    the room memo as dead (POINT_DEPTH in csrc/salic.c), for later tests on those grids. Over
    the positions of random walks, through one memo, every whole test's verdict is the one it
    gives without the memo, and some of them were answered by such points. With stuck-stock
    (PySol profiles), so that grids with piles sharing a queen are among them."""
    game = find_game(game_id)
    rng = random.Random(5)
    answered = tested = 0
    first = True
    for number in (3, 14, 15):
        core = core_game(game, deal_from_number(game, number))
        for pos in deal_walks(core, rng, walks=20):
            verdict, _, points = pos.room_memo_check(True, True, reset=first, stock=True)
            first = False
            assert verdict is not None, (game_id, number)
            answered += points
            tested += 1
    assert answered > 0, (game_id, tested)


NEAR_END = 104 - 24      # deep-room's near zone: at most 24 stock cards left (DEEP_NEAR_END)


def near_zone_witness_tally(game, deal, rng, walks) -> Counter:
    """Every position of `walks` random walks over one deal with at most 24 stock cards left,
    through room_witness_check (one set of paths for them all, as in a search): each verdict
    must be the plain whole test's. The tally of (verdict, replayed)."""
    core = core_game(game, deal_from_number(game, deal))
    tally = Counter()
    first = True
    for pos in deal_walks(core, rng, walks):
        if pos.describe()["dealt"] < NEAR_END:
            continue
        for stock in (False, True):
            verdict, replayed = pos.room_witness_check(reset=first, stock=stock)
            first = False
            assert verdict is not None, (game.id, deal, stock)
            # a replay finds a path (with stock, a second grid may still be dead)
            assert stock or not (verdict and replayed), (game.id, deal)
            tally[verdict, replayed] += 1
    return tally


@pytest.mark.parametrize("game_id", SALIC_GAMES)
@settings(max_examples=4, deadline=None)
@given(deal=st.integers(1, 10 ** 6), seed=st.integers(0, 2 ** 32))
def test_witness_paths_keep_every_whole_test_verdict(game_id, deal, seed):
    """The near zone's whole tests first follow the path an earlier test found (csrc/salic.c,
    WITNESS): the verdict is the grid's all the same (the search node for node the search
    without them)."""
    near_zone_witness_tally(find_game(game_id), deal, random.Random(seed), walks=8)


@pytest.mark.parametrize("game_id", SALIC_GAMES)
def test_witness_paths_answer_some_tests(game_id):
    """Over the positions of random walks through a few deals, earlier paths answer some alive
    tests, and walks answer others, some of them dead: the test above compares where the paths
    are at work."""
    game = find_game(game_id)
    rng = random.Random(f"witness-{game_id}")
    tally = Counter()
    for deal in (3, 14, 15, 92):
        tally += near_zone_witness_tally(game, deal, rng, walks=10)
    assert tally[False, True] > 0, dict(tally)                       # replays that answered
    assert tally[False, False] > 0 and tally[True, False] > 0, dict(tally)   # walks


def random_play(core, rng):
    """The positions of one game of random moves from the deal, after each move, until it is won
    or stuck."""
    pos = core.position()
    while not pos.is_won():
        moves = pos.moves(True, 0)
        if not moves:
            return
        pos = pos.play(rng.choice(moves))
        yield pos


@pytest.mark.parametrize("game_id", SALIC_GAMES)
@settings(max_examples=25, deadline=None)
@given(deal=st.integers(1, 10 ** 6), walk=st.integers(0, 2 ** 32), seed=st.integers(1, 2 ** 63))
def test_grid_arithmetic_fast_equals_plain(game_id, deal, walk, seed):
    """The walk computes need and the free ranks with SSE2 where the build has it; along a
    random path through the grid of positions from random play, it agrees with plain C."""
    game = find_game(game_id)
    core = core_game(game, deal_from_number(game, deal))
    compared, longest = 0, 0
    for pos in random_play(core, random.Random(walk)):
        points = pos.grid_eval_check(seed)
        assert points > 0, (game_id, deal, walk, seed)
        compared += points
        longest = max(longest, points)
    assert compared > 0
    assert longest > 1      # some grid held cards


@pytest.mark.parametrize("game_id", SALIC_GAMES)
@settings(max_examples=25, deadline=None)
@given(deal=st.integers(1, 10 ** 6), walk=st.integers(0, 2 ** 32), seed=st.integers(1, 2 ** 63),
       stock=st.booleans())
def test_steps_of_tight_slots_are_infeasible(game_id, deal, walk, seed, stock):
    """The walk passes over a step without taking and evaluating it where the point has no room
    to spare and the card is of a tight slot and not its pile's last (TIGHT_STEPS in
    csrc/salic.c): along a random path through the grid of positions from random play, every
    such step reaches an infeasible point, and the SSE2 mask is the plain one."""
    game = find_game(game_id)
    core = core_game(game, deal_from_number(game, deal))
    for pos in random_play(core, random.Random(walk)):
        n = pos.grid_tight_check(seed, stock)
        assert n >= 0, (game_id, deal, walk, seed, stock, n)


@pytest.mark.parametrize("game_id", SALIC_GAMES)
def test_tight_steps_are_checked(game_id):
    """The property above is not empty: over a few fixed deals and paths, many such steps are
    checked."""
    game = find_game(game_id)
    rng = random.Random(f"tight-{game_id}")
    checked = 0
    for deal in (3, 14, 15):
        core = core_game(game, deal_from_number(game, deal))
        for _ in range(3):
            for pos in random_play(core, rng):
                n = pos.grid_tight_check(rng.getrandbits(63) | 1, True)
                assert n >= 0, (game_id, deal, n)
                checked += n
    assert checked > 100, (game_id, checked)


def test_exhaustive_searches_keep_their_own_deep_record():
    """The deep test's throttle counts the exhaustive searches apart from the probes
    (DEEP_WHOLE_COUNTS in csrc/salic.c). PySol Glencoe 8697's exhaustive search alone is
    short, but only if the test runs where the proof needs it: counted with the probes' misses,
    it ran at one deal in 32 there, and the deal stayed undecided for millions of nodes. Its
    proof needs deep-room and stuck-stock both: without either, no verdict at the same cap."""
    from solver import solve
    from solver.core import DEFAULT_RULES
    from solver.result import Verdict

    result = solve("pysol-glencoe", 8697, max_nodes=400_000, max_memory=1 << 30)
    assert result.verdict is Verdict.UNWINNABLE, (result.verdict, result.reason)
    game = find_game("pysol-glencoe")
    core = core_game(game, deal_from_number(game, 8697))
    for rule in (DEEP, PRUNING_RULES["stuck-stock"]):
        status = core.search(400_000, 0.0, 1 << 30, DEFAULT_RULES & ~rule)[0]
        assert status != "no_win", (rule, status)


MEMORY_PROBE = """
import json, resource, sys
from solver.core import DEFAULT_RULES, PRUNING_RULES, core_game
from solver.deals import deal_from_number
from solver.games import find_game
game = find_game("pysol-glencoe")
core = core_game(game, deal_from_number(game, 222))
limit = int(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
# without random-lines, whose share of the probe rounds leaves the cache short of its share
# at 1,000,000 nodes (it takes no memory of its own: its searches use the search's table)
result = core.search(1_000_000, 0.0, limit, DEFAULT_RULES & ~PRUNING_RULES["random-lines"])
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
unit = 1 if sys.platform == "darwin" else 1024          # ru_maxrss: bytes on macOS, else KiB
print(json.dumps({"status": result[0], "table": result[4], "peak": result[5],
                  "growth": (after - before) * unit}))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no resource module (peak resident size)")
def test_room_memo_is_within_the_memory_bound(tmp_path):
    """The room memo (up to 224 MiB, made when the deep test takes over) is taken from the
    search's memory bound with the table and the cache (csrc/search.c, MEMO_SHARE): a search
    given 24 MiB on a deal where the deep test takes over grows the process by about that much,
    and its peak counts the memo. In a fresh process, so that the peak resident size is this
    search's."""
    limit = 24 << 20
    # In a scratch directory, so that the installed package is imported, not the source tree.
    run = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(limit)], capture_output=True,
                         text=True, check=True, cwd=tmp_path)
    got = json.loads(run.stdout)
    assert got["status"] == "nodes", got                     # the deep test took over by then
    assert got["peak"] <= limit + (1 << 20), got              # + the stack of frames
    # Beside the table, the peak holds the cache (its share, 1/8 of the bound, filled here) and
    # the memo: 16,384 slots of 112 bytes, the most that fit in 1/8 of the bound.
    assert got["peak"] - got["table"] >= limit // 8 + 16384 * 112, got
    # The process: the bound, and a little for the interpreter's own work (the earlier build
    # grew it by 54 MiB here).
    assert got["growth"] <= limit + (12 << 20), got


@pytest.mark.slow
def test_deep_room_near_the_end_of_the_stock_keeps_verdicts():
    """In the exhaustive searches and the late probes, past DEEP_AFTER deals, the deep test
    runs at every deal once the stock holds at most DEEP_NEAR_END cards, its walk never cut
    short, and in the early mode-1 probes at the deal that empties the stock (DEEP_NEAR_PROBE,
    DEEP_NEAR_ROUNDS; csrc/salic.c). On deals whose searches go that far: an unwinnable deal
    stays unwinnable without deep-room, and deals won with it (a PySol profile, and the seed
    rules) have lines that the reference rules replay to a win (solve() replays every line it
    returns)."""
    from solver import solve
    from solver.core import DEFAULT_RULES
    from solver.result import Verdict

    game = find_game("pysol-glencoe")
    core = core_game(game, deal_from_number(game, 915))
    with_it = core.search(30_000_000, 0.0, 1 << 30, DEFAULT_RULES)
    without = core.search(30_000_000, 0.0, 1 << 30, DEFAULT_RULES & ~DEEP)
    assert with_it[0] == without[0] == "no_win", (with_it[:1], without[:1])
    for game_id, number in (("pysol-laggard-lady", 81), ("intrigue", 3759)):
        won = solve(game_id, number, max_nodes=10_000_000, max_memory=1 << 30)
        assert won.verdict is Verdict.WINNABLE and won.moves, (game_id, number, won.reason)


def _memo_ways_model(ops):
    """The room memo's two ways (csrc/salic.c, memo_find and memo_put) on one pair of slots:
    a find looks in both and a hit in the second moves it to the first; a put rewrites the
    entry holding its signature in place, else goes into the first slot, the entry there
    moving to the second (whose entry is dropped)."""
    ways = [None, None]
    found = []
    for kind, v in ops:
        if kind == "find":
            if ways[1] == v:
                ways.reverse()
            found.append(ways[0] == v)
        else:
            if v not in ways:
                if ways[0] is not None:
                    ways[1] = ways[0]
                ways[0] = v
            found.append(False)
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["put", "find"]), st.integers(0, 4)), max_size=40))
def test_room_memo_keeps_the_two_most_recent_entries_of_a_pair(ops):
    """Two signatures sharing a pair of slots are both kept, and a third drops the one used
    least recently. Built direct-mapped (each hash naming one slot), a put after two entries
    on the pair drops the wrong one and the model's finds disagree."""
    assert _core.memo_ways(ops) == _memo_ways_model(ops)


def test_room_memo_pair_holds_two_then_drops_the_least_recent():
    ops = [("put", 1), ("put", 2), ("find", 1), ("put", 3), ("find", 1), ("find", 2),
           ("find", 3)]
    assert _core.memo_ways(ops) == [False, False, True, False, True, False, True]
