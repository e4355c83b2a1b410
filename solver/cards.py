"""Cards as small ints, with paired parse/print functions.

A card is ``suit * 13 + rank`` with rank 0..12 for A..K and suit 0..3 for C, S, H, D
(PySol's order). Two decks hold every card twice; the copies are the same value.
"""
from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CSHD"
SUIT_SYMBOLS = "♣♠♥♦"

Card = int

ACE, FIVE, SIX, JACK, QUEEN, KING = 0, 4, 5, 10, 11, 12
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)


def rank_of(card: Card) -> int:
    return card % 13


def suit_of(card: Card) -> int:
    return card // 13


def make_card(rank: int, suit: int) -> Card:
    return suit * 13 + rank


def parse_card(text: str) -> Card:
    """Parse ``QH``, ``td``, ``10S``; raise ValueError naming the token otherwise."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return make_card(RANKS.index(t[0]), SUITS.index(t[1]))


def card_name(card: Card) -> str:
    """``QH``-style name; tens print as ``T``."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def card_symbol(card: Card, colour: bool = False) -> str:
    """``Q♥``-style name for terminals; red suits in red when ``colour``."""
    text = RANKS[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]
    if colour and suit_of(card) in (HEARTS, DIAMONDS):
        return f"\x1b[31m{text}\x1b[0m"
    return text


def full_deck(decks: int) -> list[Card]:
    """The cards of ``decks`` decks in PySol's id order (deck, suit C S H D, rank A..K)."""
    return [c for _ in range(decks) for c in range(52)]
