"""Pure-Python reference rules: the specification in code.

``initial_position(game, deal)`` gives a position with ``legal_moves()``, ``apply(move)``
(a new position), ``play(move)`` (the same move in place), ``refusal(move)``, ``is_won()``,
``layout()`` and ``all_cards()``.
"""
from __future__ import annotations

from ..deals import Deal, as_deal
from ..games import find_game
from .banner import BannerPosition
from .salic import SalicPosition


def initial_position(game, deal):
    """The initial layout of ``deal`` (a Deal, a number or ``"msN"``) in ``game``."""
    g = find_game(game)
    d = as_deal(g, deal)
    if g.family == "salic":
        return SalicPosition(g, d.cards)
    return BannerPosition(g, d.cards)


__all__ = ["initial_position", "SalicPosition", "BannerPosition", "Deal"]
