"""The C deal generator (solver._dealgen) against pysol_cards, number for number (RULES §4).

Two references: pysol_cards' own classes driven directly from RULES §4 (independent of
solver.deals), and solver.deals.deal_order_reference (the pure-Python path deals.py keeps).
"""
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysol_cards.cards import ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom
from pysol_cards.random import shuffle as pysol_cards_shuffle
from pysol_cards.random_base import RandomBase

from solver import _dealgen
from solver.cards import card_name
from solver.deals import deal_from_number, deal_order, deal_order_reference
from solver.games import GAMES, find_game

MS_MAX = 2 ** 33 - 1
# (family, decks): the three the games use, plus combinations the C code handles alike.
CONFIGS = [("salic", 2), ("banner", 2), ("banner", 1), ("salic", 1)]


def around(n: int, radius: int) -> list:
    return list(range(max(1, n - radius), n + radius + 1))


# -- the independent reference: pysol_cards' classes, straight from RULES §4 -------------------

def reference_shuffle(decks: int, seed: int, ms: bool) -> list:
    """PySol card ids in shuffled-list order (the last is dealt first)."""
    ids = list(range(52 * decks))
    if ms or seed < 32000:
        rng = LCRandom31()
        rng.setSeed(seed)
        ids = ms_rearrange(ids)          # a no-op unless there are 52 cards
    else:
        rng = MTRandom(seed)
    return rng.shuffle(ids)


def reference_deal_order(family: str, decks: int, seed: int, ms: bool) -> bytes:
    values = [i % 52 for i in reference_shuffle(decks, seed, ms)]
    if family == "salic":
        queen = next(i for i, v in enumerate(values) if v % 13 == 11)
        values = values[:queen] + values[queen + 1:] + [values[queen]]
    return bytes(reversed(values))


# -- the two generators ---------------------------------------------------------------------

LC_SEEDS = [1, 2, 3, 31999, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 1, 2 ** 32,
            2 ** 32 + 1, 2 ** 32 + 2 ** 31, MS_MAX - 1, MS_MAX]


@pytest.mark.parametrize("seed", LC_SEEDS)
def test_lcrandom31_outputs_match_pysol_cards(seed):
    rng = LCRandom31()
    rng.setSeed(seed)
    assert _dealgen.lc_randoms(seed, 500) == [rng.random() for _ in range(500)]


@given(st.integers(1, MS_MAX))
def test_lcrandom31_outputs_match_pysol_cards_for_any_seed(seed):
    rng = LCRandom31()
    rng.setSeed(seed)
    assert _dealgen.lc_randoms(seed, 120) == [rng.random() for _ in range(120)]


MT_SEEDS = [1, 31999, 32000, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40, 2 ** 64 - 1, 2 ** 64,
            10 ** 20, 10 ** 30, 2 ** 200, 3 ** 500, 2 ** 19967 + 5, 2 ** 19968 + 5, 2 ** 25000 - 1]


@pytest.mark.parametrize("seed", MT_SEEDS, ids=lambda seed: f"{seed.bit_length()}-bits")
def test_mersenne_twister_matches_python_random(seed):
    """Keys of 1 word up to more than 624 words (where init_by_array wraps around)."""
    rng = random.Random(seed)
    expected = [rng.random() for _ in range(700)]   # past the first twist too
    assert _dealgen.mt_randoms(seed, 700) == expected
    mt = MTRandom(seed)
    assert _dealgen.mt_randoms(seed, 5) == [mt.random() for _ in range(5)]


@given(st.integers(1, 2 ** 300))
def test_mersenne_twister_matches_python_random_for_any_seed(seed):
    rng = random.Random(seed)
    assert _dealgen.mt_randoms(seed, 210) == [rng.random() for _ in range(210)]


# -- shuffles and deal orders -----------------------------------------------------------------

PLAIN_SEEDS = (list(range(1, 151)) + around(31995, 5) + around(32000, 10)
               + list(range(32011, 32150)) + around(2 ** 31, 10) + around(2 ** 32, 10)
               + around(2 ** 33, 5) + around(2 ** 40, 10) + around(2 ** 64, 10)
               + around(10 ** 30, 5) + around(2 ** 200, 5))
MS_SEEDS = (list(range(1, 121)) + around(31999, 3) + around(2 ** 31, 10) + around(2 ** 32, 10)
            + list(range(MS_MAX - 20, MS_MAX + 1)))


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_shuffle_matches_pysol_cards_classes(decks):
    """Card ids, not just values: which copy of a card lands where must match too.
    Three and four decks use the one-at-a-time path the batch falls back to."""
    for seed in PLAIN_SEEDS[::3]:
        assert _dealgen.shuffle(decks, seed) == reference_shuffle(decks, seed, False), seed
    for seed in MS_SEEDS[::3]:
        assert _dealgen.shuffle(decks, seed, True) == reference_shuffle(decks, seed, True), seed


@pytest.mark.parametrize("decks", [1, 2])
def test_shuffle_matches_pysol_cards_shuffle_function(decks):
    """pysol_cards.random.shuffle itself, except at 32000: it picks LCRandom31 for N <= 32000,
    RULES §4.2 (and PySolFC) for N < 32000 only."""
    for seed in [1, 2, 31999, 32001, 40000, 2 ** 40, 10 ** 19]:
        expected = pysol_cards_shuffle(list(range(52 * decks)), seed, RandomBase.DEALS_PYSOLFC)
        assert _dealgen.shuffle(decks, seed) == expected, seed
    for seed in [1, 32000, 2 ** 31 + 7, 2 ** 32 + 7, MS_MAX]:
        expected = pysol_cards_shuffle(list(range(52 * decks)), seed, RandomBase.DEALS_MS)
        assert _dealgen.shuffle(decks, seed, True) == expected, seed
    lc_at_32000 = pysol_cards_shuffle(list(range(52 * decks)), 32000, RandomBase.DEALS_PYSOLFC)
    assert _dealgen.shuffle(decks, 32000) == MTRandom(32000).shuffle(list(range(52 * decks)))
    assert _dealgen.shuffle(decks, 32000) != lc_at_32000


@pytest.mark.parametrize("family, decks", CONFIGS)
def test_deal_order_matches_pysol_cards(family, decks):
    for seed in PLAIN_SEEDS:
        assert _dealgen.deal_order(family, decks, seed) == reference_deal_order(family, decks, seed, False), seed
    for seed in MS_SEEDS:
        assert _dealgen.deal_order(family, decks, seed, True) == reference_deal_order(family, decks, seed, True), seed


@given(st.sampled_from(CONFIGS), st.one_of(st.integers(1, 40000), st.integers(1, 2 ** 130)),
       st.booleans())
def test_deal_order_matches_pysol_cards_for_any_number(config, seed, ms):
    family, decks = config
    if ms:
        seed = seed % MS_MAX + 1
    assert _dealgen.deal_order(family, decks, seed, ms) == reference_deal_order(family, decks, seed, ms)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_deals_py_routes_through_c_and_keeps_the_reference(game):
    for seed in [1, 2, 31999, 32000, 32001, 2 ** 40, 10 ** 30]:
        assert deal_order(game, seed, False) == deal_order_reference(game, seed, False), seed
    for seed in [1, 2 ** 31 + 3, 2 ** 32 + 3, MS_MAX]:
        assert deal_order(game, seed, True) == deal_order_reference(game, seed, True), seed
    expected = reference_deal_order(game.family, game.decks, 777, False)
    assert deal_from_number(game, 777).cards == tuple(expected)
    assert isinstance(deal_order(game, 777, False), list)


# -- the batch --------------------------------------------------------------------------------

def split(blob: bytes, size: int) -> list:
    return [blob[i:i + size] for i in range(0, len(blob), size)]


BATCH_RANGES = [  # (first, count, ms): LC -> MT, MT key 1 -> 2 -> 3 words, ms regimes, ends
    (1, 5, False), (31950, 100, False), (32000, 1, False), (32000, 33, False),
    (2 ** 32 - 40, 80, False), (2 ** 64 - 17, 40, False), (10 ** 30, 65, False),
    (2 ** 260 - 3, 6, False),
    (1, 50, True), (31990, 20, True), (2 ** 31 - 25, 50, True), (2 ** 32 - 25, 50, True),
    (MS_MAX - 30, 31, True), (MS_MAX, 1, True),
]


@pytest.mark.parametrize("family, decks", CONFIGS + [("banner", 3), ("salic", 4)])
@pytest.mark.parametrize("first, count, ms", BATCH_RANGES)
def test_batch_equals_single_calls(family, decks, first, count, ms):
    blob = _dealgen.deal_orders(family, decks, first, count, ms)
    assert len(blob) == count * decks * 52
    singles = [_dealgen.deal_order(family, decks, first + k, ms) for k in range(count)]
    assert split(blob, decks * 52) == singles


@pytest.mark.parametrize("family, decks", CONFIGS[:3])
def test_batch_matches_pysol_cards_on_thousands_of_numbers(family, decks):
    first, count = 30000, 6000     # 2000 LCRandom31 deals, then 4000 Mersenne Twister ones
    blob = _dealgen.deal_orders(family, decks, first, count)
    for k, order in enumerate(split(blob, decks * 52)):
        assert order == reference_deal_order(family, decks, first + k, False), first + k


@given(st.sampled_from(CONFIGS), st.integers(1, 2 ** 70), st.integers(0, 70), st.booleans())
def test_batch_equals_single_calls_anywhere(config, first, count, ms):
    family, decks = config
    if ms:
        first = first % MS_MAX + 1
        count = min(count, MS_MAX - first + 1)
    blob = _dealgen.deal_orders(family, decks, first, count, ms)
    assert split(blob, decks * 52) == [_dealgen.deal_order(family, decks, first + k, ms)
                                       for k in range(count)]


@pytest.mark.slow
@pytest.mark.parametrize("family, decks", CONFIGS[:3])
def test_batch_matches_pysol_cards_on_many_numbers(family, decks):
    for first, count, ms in [(1, 60000, False), (2 ** 32 - 5000, 10000, False),
                             (2 ** 31 - 5000, 10000, True), (MS_MAX - 9999, 10000, True)]:
        blob = _dealgen.deal_orders(family, decks, first, count, ms)
        for k, order in enumerate(split(blob, decks * 52)):
            assert order == reference_deal_order(family, decks, first + k, ms), (first + k, ms)


# -- public vectors (RULES §4) -----------------------------------------------------------------

def names(order) -> list:
    return [card_name(c) for c in order]


def test_public_vector_intrigue_1():
    intrigue = find_game("intrigue")
    expected = "QD 3D 5H JC KH 5S 5H KC KC 8D JD AS 8C 6C 6H TC 8D 4C JS QC".split()
    assert names(_dealgen.deal_order("salic", intrigue.decks, 1))[:20] == expected
    assert names(_dealgen.deal_orders("salic", intrigue.decks, 1, 3)[:104])[:20] == expected


def test_public_vector_devils_solitaire_1():
    order = names(_dealgen.deal_order("banner", find_game("devils-solitaire").decks, 1))
    assert order[:8] == "3D 5H JC KH 5S 5H KC KC".split()     # reserve, bottom to top
    assert order[8:16] == "8D JD AS 8C 6C 6H TC 8D".split()   # cells
    assert order[16] == "4C"                                   # waste
    assert order[17:25] == "JS QC 4H KD 2H TD 8S AC".split()  # stock


# -- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: _dealgen.deal_order("salic", 2, 0),
    lambda: _dealgen.deal_order("salic", 2, -5),
    lambda: _dealgen.deal_order("salic", 2, MS_MAX + 1, True),
    lambda: _dealgen.deal_order("salic", 2, 2 ** 70, True),
    lambda: _dealgen.deal_order("queens", 2, 1),
    lambda: _dealgen.deal_order("banner", 0, 1),
    lambda: _dealgen.deal_order("banner", 5, 1),
    lambda: _dealgen.shuffle(2, 0),
    lambda: _dealgen.deal_orders("banner", 1, MS_MAX - 1, 3, True),
    lambda: _dealgen.deal_orders("banner", 1, 1, -1),
    lambda: _dealgen.deal_orders("banner", 2, 1, 2 ** 62),   # the buffer size would wrap
    lambda: _dealgen.lc_randoms(0, 3),
])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_non_int_deal_numbers_are_type_errors():
    for seed in ["1", 1.0, True, None]:
        with pytest.raises(TypeError):
            _dealgen.deal_order("banner", 1, seed)


def test_empty_batch_and_last_ms_number():
    assert _dealgen.deal_orders("banner", 2, 5, 0) == b""
    assert _dealgen.deal_orders("banner", 1, MS_MAX, 1, True) == reference_deal_order("banner", 1, MS_MAX, True)
