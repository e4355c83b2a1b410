"""Card notation: parse/print round-trips (RULES: ranks A..K with T or 10, suits C S H D, any case)."""
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import (RANKS, SUITS, card_name, card_symbol, full_deck, make_card, parse_card,
                          rank_of, suit_of)

cards = st.integers(min_value=0, max_value=51)


@given(cards)
def test_name_round_trips(card):
    assert parse_card(card_name(card)) == card


@given(cards, st.sampled_from([str.upper, str.lower, str.title, str.swapcase]))
def test_any_case_parses(card, case):
    assert parse_card(case(card_name(card))) == card


@given(st.sampled_from(SUITS), st.booleans())
def test_ten_accepts_t_and_10_and_prints_t(suit, lower):
    text = "10" + suit
    card = parse_card(text.lower() if lower else text)
    assert card == parse_card("T" + suit)
    assert card_name(card) == "T" + suit


def test_names_follow_pysol_order():
    assert [card_name(c) for c in full_deck(1)[:14]] == [r + "C" for r in RANKS] + ["AS"]
    assert card_name(make_card(rank=11, suit=3)) == "QD"
    assert (rank_of(parse_card("QH")), suit_of(parse_card("QH"))) == (11, 2)


def test_two_decks_repeat_every_card():
    deck = full_deck(2)
    assert len(deck) == 104 and sorted(deck) == sorted(list(range(52)) * 2)


@given(cards)
def test_symbol_has_the_rank_and_a_suit_symbol(card):
    plain = card_symbol(card)
    assert plain[0] == card_name(card)[0] and plain[1] in "♣♠♥♦"
    coloured = card_symbol(card, colour=True)
    assert ("\x1b[31m" in coloured) == (suit_of(card) in (2, 3))


@pytest.mark.parametrize("token", ["", "Q", "QX", "1H", "11H", "ZH", "QHH", "10", "AH,"])
def test_bad_tokens_are_rejected_naming_the_token(token):
    with pytest.raises(ValueError, match=re.escape(repr(token))):
        parse_card(token)
