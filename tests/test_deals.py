"""Deals (RULES §4): deal numbers against pysol_cards, explicit card lists, and bad input."""
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom
from pysol_cards.random import shuffle as pysol_cards_shuffle
from pysol_cards.random_base import RandomBase

from solver.cards import card_name
from solver.deals import deal_from_number, parse_cards, read_deal_file
from solver.errors import InvalidDealError, UnknownGameError
from solver.games import GAMES, find_game
from solver.rules import initial_position

GAME_IDS = [g.id for g in GAMES]


# -- an independent generator, written from RULES §4 straight onto pysol_cards ----------------

def pysol_cards_deal(game_id: str, number: str) -> list:
    """Deal order as card names, computed with pysol_cards' own Card objects and shuffle.

    pysol_cards.random.shuffle picks LCRandom31 for game numbers <= 32000, PySolFC (and
    RULES §4.2) for numbers < 32000: for exactly 32000 the Mersenne Twister is used here.
    """
    game = find_game(game_id)
    cards = createCards(game.decks)
    if number.startswith("ms"):
        shuffled = pysol_cards_shuffle(cards, int(number[2:]), RandomBase.DEALS_MS)
    elif int(number) == 32000:
        shuffled = MTRandom(32000).shuffle(list(cards))
    else:
        shuffled = pysol_cards_shuffle(cards, int(number), RandomBase.DEALS_PYSOLFC)
    shuffled = list(shuffled)
    if game.family == "salic":
        first_queen = next(i for i, c in enumerate(shuffled) if c.rank == 12)
        shuffled.append(shuffled.pop(first_queen))
    return ["A23456789TJQK"[c.rank - 1] + "CSHD"[c.suit] for c in reversed(shuffled)]


def names(deal) -> list:
    return [card_name(c) for c in deal.cards]


NUMBERS = ["1", "2", "617", "11982", "31999", "32000", "32001", "123456", "ms1", "ms31999",
           "ms32000", "ms123456", "ms5000000000", "ms8589934591", str(2 ** 40), str(2 ** 40 + 12345),
           "99999999999999999999999"]


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("number", NUMBERS)
def test_deal_numbers_match_pysol_cards(game, number):
    assert names(deal_from_number(game, number)) == pysol_cards_deal(game, number)


@given(st.sampled_from(GAME_IDS), st.one_of(st.integers(1, 2 ** 45),
                                            st.integers(1, 2 ** 33 - 1).map(lambda n: f"ms{n}")))
def test_random_deal_numbers_match_pysol_cards(game, number):
    assert names(deal_from_number(game, number)) == pysol_cards_deal(game, str(number))


def test_lcrandom31_below_32000_and_mersenne_twister_from_32000():
    rng = LCRandom31()
    rng.setSeed(31999)
    lc = ["A23456789TJQK"[c.rank - 1] + "CSHD"[c.suit]
          for c in reversed(rng.shuffle(ms_rearrange(createCards(1))))]
    mt = ["A23456789TJQK"[c.rank - 1] + "CSHD"[c.suit]
          for c in reversed(MTRandom(32000).shuffle(list(createCards(1))))]
    assert names(deal_from_number("forget-me-not", 31999)) == lc
    assert names(deal_from_number("forget-me-not", "ms31999")) == lc
    assert names(deal_from_number("forget-me-not", 32000)) == mt
    assert names(deal_from_number("forget-me-not", "ms32000")) != mt


# -- held vectors: prefixes computed once with pysol_cards_deal, so a change anywhere shows ---

PUBLIC_INTRIGUE_1 = "QD 3D 5H JC KH 5S 5H KC KC 8D JD AS 8C 6C 6H TC 8D 4C JS QC".split()

HELD = {
    ("glencoe", "31999"): "QC 3D 5S 2H 7H AH QS JS 7S 9C",
    ("intrigue", "32000"): "QH KH 9H TD 6D 3D 9C TH JS JS",
    ("pysol-intrigue", "32001"): "QH 8C AC JD 4S TH KH 5D 5H TS",
    ("pysol-laggard-lady", "ms123456"): "QS 7D 4C AC 8C 7C 9S 9H KH 9C",
    ("pysol-glencoe", "1099511627776"): "QS JC 5S 5D AD JC 8C 2S 7D 5H",
    ("forget-me-not", "1"): "JD 2D 9H JC 5D 7H 7C 5H KD KC",
    ("forget-me-not", "31999"): "JD JH AD QH KH 6S 6D JC AC TH",
    ("forget-me-not", "ms5000000000"): "9D 8C 4H KD JS 7H 9H 2H KS TC",
    ("clover", "1099511627777"): "TC 4D AH JH QC 7H 3D TS 9S 3C",
}


@pytest.mark.parametrize("game, number", sorted(HELD))
def test_held_vectors(game, number):
    assert names(deal_from_number(game, number))[:10] == HELD[game, number].split()


@pytest.mark.parametrize("game", ["intrigue", "glencoe", "pysol-intrigue", "pysol-laggard-lady",
                                  "pysol-glencoe"])
def test_public_vector_intrigue_1(game):
    deal = deal_from_number(game, 1)
    assert names(deal)[:20] == PUBLIC_INTRIGUE_1
    position = initial_position(game, deal)
    pile_one = [card_name(position.queens[0])] + names(deal)[1:19]
    assert pile_one[0] == "QD" and pile_one[-1] == "JS" and len(pile_one) == 19
    assert "Q" not in {c[0] for c in pile_one[1:]}


def test_public_vector_devils_solitaire_1():
    layout = initial_position("devils-solitaire", 1).layout()
    assert layout["reserve"] == "3D 5H JC KH 5S 5H KC KC".split()
    assert layout["cells"] == "8D JD AS 8C 6C 6H TC 8D".split()
    assert layout["waste"] == ["4C"]
    assert layout["stock"][:8] == "JS QC 4H KD 2H TD 8S AC".split()


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_deal_is_a_full_deck_and_salic_deals_start_with_a_queen(game):
    g = find_game(game)
    for number in ("5", "ms77", "40000"):
        deal = deal_from_number(g, number)
        assert sorted(deal.cards) == sorted(list(range(52)) * g.decks)
        if g.family == "salic":
            assert card_name(deal.cards[0])[0] == "Q"


def test_clover_reserve_is_its_sixes_in_deal_order():
    deal = deal_from_number("clover", 7)
    sixes = [c for c in names(deal) if c[0] == "6"]
    rest = [c for c in names(deal) if c[0] != "6"]
    layout = initial_position("clover", deal).layout()
    assert layout["reserve"] == sixes
    assert layout["cells"] + layout["waste"] + layout["stock"] == rest


def test_separators_are_stripped_as_pysol_does():
    assert deal_from_number("banner", "12,345").cards == deal_from_number("banner", 12345).cards
    assert deal_from_number("banner", " 1_2.3#45 ").cards == deal_from_number("banner", 12345).cards


# -- explicit deals --------------------------------------------------------------------------

def test_card_list_with_comments_and_ten_spellings_round_trips():
    deal = deal_from_number("intrigue", 9)
    tokens = names(deal)
    tokens = [("10" + t[1]).lower() if t[0] == "T" else t for t in tokens]
    text = "# intrigue 9\n" + " ".join(tokens[:50]) + "  # half\n" + "\n".join(tokens[50:])
    assert parse_cards("intrigue", text).cards == deal.cards


def test_json_deal_and_deal_file(tmp_path):
    deal = deal_from_number("forget-me-not", 3)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal.to_json()))
    assert read_deal_file("forget-me-not", str(path)).cards == deal.cards
    plain = tmp_path / "deal.txt"
    plain.write_text(" ".join(names(deal)))
    assert read_deal_file("forget-me-not", str(plain)).cards == deal.cards


# -- bad input: one test per class, each message names the token and its position -------------

def full_list(game="forget-me-not", number=3) -> list:
    return names(deal_from_number(game, number))


def test_unknown_token_names_token_and_position():
    tokens = full_list()
    tokens[6] = "XQ"
    with pytest.raises(InvalidDealError, match=r"unknown card 'XQ' at position 7"):
        parse_cards("forget-me-not", " ".join(tokens))


def test_wrong_count():
    with pytest.raises(InvalidDealError, match="needs 52 cards, got 51"):
        parse_cards("forget-me-not", " ".join(full_list()[:-1]))
    with pytest.raises(InvalidDealError, match="needs 104 cards, got 52"):
        parse_cards("banner", " ".join(full_list()))


def test_card_missing_is_named():
    tokens = full_list()
    last = tokens.pop()
    with pytest.raises(InvalidDealError, match=f"missing: {last}"):
        parse_cards("forget-me-not", " ".join(tokens))


def test_card_present_too_often_names_token_and_position():
    tokens = full_list()
    tokens[20] = tokens[3]
    with pytest.raises(InvalidDealError,
                       match=re.escape(f"card {tokens[3]!r} at position 21 is present more than once")):
        parse_cards("forget-me-not", " ".join(tokens))
    two = full_list("banner", 4)
    two[60] = two[0]            # a third copy: two decks hold each card twice
    with pytest.raises(InvalidDealError, match=re.escape(f"card {two[0]!r} at position")):
        parse_cards("banner", " ".join(two))


@pytest.mark.parametrize("number, why", [
    ("0", "deal numbers start at 1"), (0, "deal numbers start at 1"),
    ("-5", "deal numbers are positive"), (-5, "deal numbers are positive"),
    ("seven", "expected N or msN"), ("12a", "expected N or msN"), ("", "expected N or msN"),
    ("ms0", "ms numbers run from 1 to 8589934591"), ("ms8589934592", "ms numbers run from 1"),
    ("msx", "expected N or msN"), ("ms-1", "expected N or msN")])
def test_bad_deal_numbers_name_the_input(number, why):
    with pytest.raises(InvalidDealError, match=re.escape(f"bad deal number {str(number)!r}: {why}")):
        deal_from_number("intrigue", number)


def test_unknown_game_suggests_the_nearest_ids():
    with pytest.raises(UnknownGameError, match=r"unknown game 'glenco'; did you mean glencoe"):
        find_game("glenco")
    with pytest.raises(UnknownGameError, match=r"unknown game 'xyzzy'; known games: glencoe"):
        deal_from_number("xyzzy", 1)
    assert isinstance(UnknownGameError("x"), ValueError)


def test_json_deal_for_another_game_is_rejected():
    with pytest.raises(InvalidDealError, match="for game 'banner', not 'forget-me-not'"):
        parse_cards("forget-me-not", json.dumps({"game": "banner", "cards": full_list()}))
