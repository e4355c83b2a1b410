"""The reference rules (RULES §1-3): hand-made positions for each rule, and random playouts
that check the invariants after every move."""
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import QUEEN, card_name, parse_card, rank_of, suit_of
from solver.deals import deal_from_number, parse_cards
from solver.errors import IllegalMoveError
from solver.games import GAMES, find_game
from solver.moves import CELL, DEAL, DOWN, PARK, REDEAL, UP, WASTE, Move
from solver.rules import initial_position

GAME_IDS = [g.id for g in GAMES]
UP_RANKS = "6789TJ"
DOWN_RANKS = "5432AK"


def deal_starting_with(game_id: str, first: str):
    """An explicit deal: the cards ``first`` in that order, then the rest of the deck(s)."""
    game = find_game(game_id)
    head = first.split()
    rest = Counter({card_name(c): game.decks for c in range(52)})
    rest.subtract(head)
    tail = [name for name in sorted(rest) for _ in range(rest[name])]
    return parse_cards(game, " ".join(head + tail))


def play(position, *moves):
    for text in moves:
        position = position.apply(Move.parse(text))
    return position


def cards(text: str) -> list:
    return [parse_card(t) for t in text.split()]


# -- Salic family ------------------------------------------------------------------------------

def test_salic_dealing_first_queen_and_piles():
    pos = initial_position("intrigue", deal_starting_with("intrigue", "6S QC 5C QS 7D"))
    assert pos.layout()["queens"] == ["QC"] and pos.layout()["stock"][:3] == ["6S", "5C", "QS"]
    pos = play(pos, "deal", "deal", "deal", "deal")
    layout = pos.layout()
    assert layout["queens"] == ["QC", "QS"]
    assert layout["piles"] == [["6S", "5C"], ["7D"]]
    assert len(layout["up"]) == len(layout["down"]) == 2


def test_intrigue_starts_any_queens_slot_glencoe_only_its_suit():
    start = "QC 6S 5C QS"
    intrigue = play(initial_position("intrigue", deal_starting_with("intrigue", start)), "deal", "deal", "deal")
    assert Move.parse("1>d1") in intrigue.legal_moves() and Move.parse("1>d2") in intrigue.legal_moves()
    glencoe = play(initial_position("glencoe", deal_starting_with("glencoe", start)), "deal", "deal", "deal")
    assert glencoe.refusal(Move.parse("1>d1")) is None
    assert "queen's suit (queen QS)" in glencoe.refusal(Move.parse("1>d2"))
    glencoe = play(glencoe, "1>d1")
    assert glencoe.refusal(Move.parse("1>u2")) is None
    assert "queen's suit (queen QC)" in glencoe.refusal(Move.parse("1>u1"))
    with pytest.raises(IllegalMoveError, match=r"1>u1: 6S cannot start u1"):
        glencoe.apply(Move.parse("1>u1"))


def test_slot_exists_only_once_its_queen_is_laid_down():
    pos = play(initial_position("intrigue", deal_starting_with("intrigue", "QC 6S")), "deal")
    assert pos.refusal(Move.parse("1>u2")) == "there is no slot u2: queen 2 is not on the table"
    pysol = play(initial_position("pysol-intrigue", deal_starting_with("pysol-intrigue", "QC 6S")), "deal")
    assert pysol.refusal(Move.parse("1>u8")) is None          # 8 up and 8 down slots from the start
    assert len(pysol.up) == len(pysol.down) == 8


def test_slot_refusals_say_why():
    pos = initial_position("pysol-intrigue", deal_starting_with("pysol-intrigue", "QC"))
    pos.piles[0] = cards("7H")
    pos.up[2] = cards("6D 7S 8C")
    assert pos.refusal(Move(UP, 1, 3)) == "7H does not fit on u3 (top 8C)"
    assert pos.refusal(Move(UP, 1, 4)) == "7H cannot start u4 (it starts with a 6)"
    pos.up[3] = cards("6D 7S 8C 9C TD JH")
    assert pos.refusal(Move(UP, 1, 4)) == "u4 is complete"
    pos.piles[0] = cards("KH")
    pos.down[0] = cards("5D 4S 3C 2C AD")
    assert pos.refusal(Move(DOWN, 1, 1)) is None             # down slots end A then K
    pos.piles[0] = []
    assert pos.refusal(Move(DOWN, 1, 1)) == "pile 1 is empty"


def test_empty_queens_any_time_in_seed_rules_after_the_stock_in_pysol_profiles():
    for game, allowed in [("intrigue", True), ("glencoe", True), ("pysol-laggard-lady", False),
                          ("pysol-glencoe", False), ("pysol-intrigue", False)]:
        pos = initial_position(game, deal_starting_with(game, "QC 9S 8S QS"))
        pos = play(pos, "deal", "deal", "deal")
        why = pos.refusal(Move.parse("1>2"))
        if allowed:
            after = pos.apply(Move.parse("1>2"))
            assert after.layout()["piles"] == [["9S"], ["8S"]]
            # only one card: queen 2 is no longer empty
            assert after.refusal(Move.parse("1>2")) == "9S cannot go onto queen 2: it is not empty (top 8S)"
        else:
            assert why == "cards go onto empty queens only once the stock is empty"
    pos = initial_position("pysol-laggard-lady", deal_starting_with("pysol-laggard-lady", "QC 9S 8S QS"))
    while pos.stock:
        pos = pos.apply(Move(DEAL))
    empty = [i for i, pile in enumerate(pos.piles, start=1) if not pile]
    full = [i for i, pile in enumerate(pos.piles, start=1) if pile]
    if empty:
        assert pos.refusal(Move(PARK, full[0], empty[0])) is None


def full_salic_foundations(pos):
    pos.up = [cards("6C 7C 8C 9C TC JC") for _ in range(8)]
    pos.down = [cards("5C 4C 3C 2C AC KC") for _ in range(8)]
    pos.piles = [[] for _ in pos.piles]


@pytest.mark.parametrize("game, needs_empty_stock", [
    ("intrigue", False), ("glencoe", False), ("pysol-intrigue", True),
    ("pysol-laggard-lady", True), ("pysol-glencoe", True)])
def test_salic_win_and_pysol_empty_stock(game, needs_empty_stock):
    pos = initial_position(game, deal_from_number(game, 1))
    pos.queens = pos.queens + [c for c in pos.stock if rank_of(c) == QUEEN][:7]
    pos.piles = [[] for _ in pos.queens]
    full_salic_foundations(pos)
    pos.stock = cards("QH")
    assert pos.is_won() is not needs_empty_stock
    pos.stock = []
    assert pos.is_won()
    pos.up[0] = pos.up[0][:-1]
    assert not pos.is_won()


# -- Banner family ---------------------------------------------------------------------------

def test_banner_layout_foundation_base_and_refill():
    # reserve 2C 3C 4C 5C (top 5C: the foundation takes a 6), cells, waste 6D, stock 7H 8H ...
    deal = deal_starting_with("forget-me-not", "2C 3C 4C 5C 6C AH 9D KD 6D 7H 8H 9H")
    pos = initial_position("forget-me-not", deal)
    layout = pos.layout()
    assert layout["reserve"] == ["2C", "3C", "4C", "5C"] and layout["cells"] == ["6C", "AH", "9D", "KD"]
    assert layout["waste"] == ["6D"] and layout["stock"][:3] == ["7H", "8H", "9H"]
    assert [str(m) for m in pos.legal_moves()] == ["w>f", "c1>f", "deal"]
    assert pos.refusal(Move.parse("c2>f")) == \
        "AH does not fit on the foundation (empty, reserve top 5C: it takes a 6)"
    pos = play(pos, "c1>f")                         # cell 1 refilled from the waste top
    assert pos.layout()["cells"][0] == "6D" and pos.layout()["waste"] == []
    assert pos.refusal(Move.parse("c1>f")) == "6D does not fit on the foundation (top 6C: it takes a 7)"
    pos = play(pos, "deal", "w>f", "deal", "w>f")   # waste empty: nothing is turned by itself
    assert pos.layout()["foundation"] == ["6C", "7H", "8H"] and pos.layout()["waste"] == []
    pos.cells[1] = parse_card("9S")
    pos = play(pos, "c2>f")                          # waste empty: refill from the stock
    assert pos.layout()["cells"][1] == "9H"


def test_banner_run_completes_with_the_reserve_top_wrapping_k_to_a():
    pos = initial_position("forget-me-not", deal_starting_with("forget-me-not", "2C 3C 4C QC"))
    assert pos.needed_rank() == 12                   # reserve top Q: the run starts with K
    pos.foundation = cards("KH AH 2H 3H 4H 5H 6H 7H 8H 9H TH")
    pos.waste = cards("JS")
    pos = play(pos, "w>f")
    assert pos.layout()["foundation"] == [] and pos.layout()["reserve"] == ["2C", "3C", "4C"]
    assert [card_name(c) for c in pos.runs[0]] == "KH AH 2H 3H 4H 5H 6H 7H 8H 9H TH JS QC".split()
    assert pos.needed_rank() == 4                    # new reserve top 4C: the next run starts with 5
    assert not pos.is_won()
    pos.reserve = []
    assert pos.is_won() and pos.legal_moves() in ([], [Move(DEAL)])


def test_banner_redeal_keeps_the_order_and_counts_passes():
    pos = initial_position("banner", deal_from_number("banner", 5))
    talon = pos.layout()["waste"] + pos.layout()["stock"]
    for passes in (1, 2):
        assert pos.refusal(Move(REDEAL)) == "redeal only once the stock is empty"
        while pos.stock:
            pos = pos.apply(Move(DEAL))
        assert pos.layout()["waste"] == talon and pos.passes == passes
        if passes == 1:
            pos = pos.apply(Move(REDEAL))
            assert pos.layout()["stock"] == talon and pos.layout()["waste"] == []
            pos = pos.apply(Move(DEAL))
    assert pos.refusal(Move(REDEAL)) == "all 2 passes are used"
    assert Move(REDEAL) not in pos.legal_moves()


def test_clover_runs_close_with_sixes():
    pos = initial_position("clover", deal_from_number("clover", 1))
    assert [rank_of(c) for c in pos.reserve] == [5, 5, 5, 5] and pos.needed_rank() == 6
    assert len(pos.cells) == 4 and len(pos.waste) == 1 and len(pos.stock) == 52 - 4 - 4 - 1


# -- random playouts with invariants -------------------------------------------------------------

def every_candidate_move(family: str) -> list:
    """All well-formed moves of both families (numbers 1..8)."""
    moves = [Move(DEAL), Move(REDEAL), Move(WASTE)] + [Move(CELL, k) for k in range(1, 9)]
    moves += [Move(kind, i, j) for kind in (UP, DOWN, PARK) for i in range(1, 9) for j in range(1, 9)]
    return moves


def is_subsequence(part: list, whole: list) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


def check_salic(pos, deal_cards):
    game = pos.game
    first_queen = next(i for i, c in enumerate(deal_cards) if rank_of(c) == QUEEN)
    rest = list(deal_cards[:first_queen]) + list(deal_cards[first_queen + 1:])
    dealt = len(rest) - len(pos.stock)
    assert pos.stock == rest[dealt:]
    assert pos.queens == [deal_cards[first_queen]] + [c for c in rest[:dealt] if rank_of(c) == QUEEN]
    assert len(pos.piles) == len(pos.queens)
    assert all(rank_of(c) != QUEEN for pile in pos.piles for c in pile)
    slots = 8 if game.slots_from_start else len(pos.queens)
    assert len(pos.up) == len(pos.down) == slots
    for kind, group, ranks in (("u", pos.up, UP_RANKS), ("d", pos.down, DOWN_RANKS)):
        for k, slot in enumerate(group):
            assert "".join(card_name(c)[0] for c in slot) == ranks[:len(slot)], (kind, k, slot)
            if slot and game.suited_slots:
                assert suit_of(slot[0]) == suit_of(pos.queens[k])
    assert pos.is_won() == (pos.foundation_count() == 96 and not (game.win_needs_empty_stock and pos.stock))


def check_banner(pos, initial):
    game = pos.game
    assert pos.reserve == initial.reserve[:len(pos.reserve)]
    assert len(pos.runs) + len(pos.reserve) == len(initial.reserve)
    for j, run in enumerate(pos.runs):
        closer = initial.reserve[-1 - j]
        assert len(run) == 13 and run[-1] == closer
        assert [rank_of(c) for c in run] == [(rank_of(closer) + 1 + i) % 13 for i in range(13)]
    if pos.reserve:
        base = rank_of(pos.reserve[-1])
        assert [rank_of(c) for c in pos.foundation] == [(base + 1 + i) % 13 for i in range(len(pos.foundation))]
        assert len(pos.foundation) < 12
    else:
        assert pos.foundation == [] and pos.is_won()
    assert len(pos.cells) == game.cells
    if None in pos.cells:
        assert not pos.waste and not pos.stock
    assert 1 <= pos.passes <= game.max_passes
    # cards only leave the talon, and a redeal keeps their order
    assert is_subsequence(pos.waste + pos.stock, initial.waste + initial.stock)


def check_fits(pos, rng):
    """``fits`` (the fast test that legal moves and the line translation use) says yes exactly
    where ``slot_refusal`` (the rule with its reasons) gives no reason, on every slot number, for
    the pile tops and a few other cards, and ``fitting_slots`` lists exactly those slots."""
    for card in {pile[-1] for pile in pos.piles if pile} | set(rng.sample(range(52), 4)):
        fitting = []
        for kind in (UP, DOWN):
            for j in range(0, 10):
                fits = pos.fits(card, kind, j)
                assert fits == (pos.slot_refusal(card, kind, j) is None), (card_name(card), kind, j)
                if fits:
                    fitting.append((kind, j))
        assert list(pos.fitting_slots(card)) == fitting


def check_invariants(pos, before_key, before_layout, old, deal_cards, initial):
    assert Counter(pos.all_cards()) == Counter(deal_cards)
    assert old.key() == before_key and old.layout() == before_layout      # apply did not mutate
    if pos.game.family == "salic":
        check_salic(pos, deal_cards)
    else:
        check_banner(pos, initial)


def playout(game_id: str, number, seed: int, steps: int):
    game = find_game(game_id)
    deal = deal_from_number(game, number)
    rng = random.Random(seed)
    pos = initial = initial_position(game, deal)
    candidates = every_candidate_move(game.family)
    check_invariants(pos, pos.key(), pos.layout(), pos, deal.cards, initial)
    for _ in range(steps):
        legal = pos.legal_moves()
        assert len(set(legal)) == len(legal)
        illegal = []
        for move in candidates:
            if move in legal:
                assert pos.refusal(move) is None
            else:
                assert pos.refusal(move) is not None
                with pytest.raises(IllegalMoveError):
                    pos.apply(move)
                illegal.append(move)
        key = pos.key()
        for move in rng.sample(illegal, 3):
            with pytest.raises(IllegalMoveError):
                pos.play(move)                  # refused in place: nothing changes
            assert pos.key() == key
        if game.family == "salic":
            check_fits(pos, rng)
        if not legal:
            break
        plays = [m for m in legal if m.kind not in (DEAL, REDEAL)]
        move = rng.choice(plays if plays and rng.random() < 0.85 else legal)
        before_key, before_layout = pos.key(), pos.layout()
        new = pos.apply(move)
        check_invariants(new, before_key, before_layout, pos, deal.cards, initial)
        in_place = pos.copy()
        in_place.play(move)
        assert (in_place.key(), in_place.layout()) == (new.key(), new.layout())
        pos = new
        if pos.is_won():
            break
    return pos


numbers = st.one_of(st.integers(1, 31999), st.integers(32000, 2 ** 40),
                    st.integers(1, 2 ** 33 - 1).map(lambda n: f"ms{n}"))


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=6)
@given(number=numbers, seed=st.integers(0, 2 ** 32))
def test_random_playouts_keep_the_invariants(game, number, seed):
    playout(game, number, seed, steps=260)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=100)
@given(number=numbers, seed=st.integers(0, 2 ** 32))
def test_many_random_playouts_keep_the_invariants(game, number, seed):
    playout(game, number, seed, steps=600)
