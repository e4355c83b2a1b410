"""Reference rules of the Banner family: Banner, Devil's Solitaire, Forget-me-not, Clover (RULES §2).

Readable first. ``apply`` returns a new position and leaves the old one as it was; ``play``
makes the move in place.
"""
from __future__ import annotations

from ..cards import SIX, card_name, rank_of
from ..errors import IllegalMoveError
from ..games import BannerGame
from ..moves import CELL, DEAL, REDEAL, WASTE, Move

RUN_LENGTH = 12     # cards collected on the foundation before the reserve top closes the run


class BannerPosition:
    """Reserve (bottom first), cells, the active foundation, waste (bottom first), stock (next first)."""

    def __init__(self, game: BannerGame, cards):
        self.game = game
        cards = list(cards)
        if game.sixes_reserve:
            reserve = [c for c in cards if rank_of(c) == SIX]
            cards = [c for c in cards if rank_of(c) != SIX]
        else:
            reserve, cards = cards[:game.reserve_size], cards[game.reserve_size:]
        self.reserve: list = reserve
        self.cells: list = cards[:game.cells]
        self.waste: list = cards[game.cells:game.cells + 1]
        self.stock: list = cards[game.cells + 1:]
        self.foundation: list = []
        self.runs: list = []          # completed runs, for the invariant checks
        self.passes = 1               # passes begun, the first included

    def copy(self) -> "BannerPosition":
        new = object.__new__(BannerPosition)
        new.game = self.game
        new.reserve = list(self.reserve)
        new.cells = list(self.cells)
        new.waste = list(self.waste)
        new.stock = list(self.stock)
        new.foundation = list(self.foundation)
        new.runs = [list(r) for r in self.runs]
        new.passes = self.passes
        return new

    # -- queries -------------------------------------------------------------------------
    def needed_rank(self) -> int | None:
        """The rank the foundation takes next (None once the game is won)."""
        if not self.reserve:
            return None
        below = self.foundation[-1] if self.foundation else self.reserve[-1]
        return (rank_of(below) + 1) % 13

    def is_won(self) -> bool:
        return not self.reserve

    def legal_moves(self) -> list[Move]:
        moves = []
        for move in [Move(WASTE)] + [Move(CELL, k) for k in range(1, self.game.cells + 1)] \
                + [Move(DEAL), Move(REDEAL)]:
            if self.refusal(move) is None:
                moves.append(move)
        return moves

    def refusal(self, move: Move) -> str | None:
        """Why ``move`` is illegal here, or None when it is legal."""
        if move.kind == DEAL:
            return "the stock is empty" if not self.stock else None
        if move.kind == REDEAL:
            if self.stock:
                return "redeal only once the stock is empty"
            if not self.waste:
                return "the waste is empty"
            if self.passes >= self.game.max_passes:
                return f"all {self.game.max_passes} passes are used"
            return None
        if self.is_won():
            return "the game is over"
        if move.kind == WASTE:
            if not self.waste:
                return "the waste is empty"
            card = self.waste[-1]
        elif move.kind == CELL:
            if not 1 <= move.src <= self.game.cells:
                return f"there is no cell {move.src}"
            card = self.cells[move.src - 1]
            if card is None:
                return f"cell {move.src} is empty"
        else:
            return f"{move} is not a move of this game"
        need = self.needed_rank()
        if rank_of(card) != need:
            below = self.foundation[-1] if self.foundation else None
            what = f"top {card_name(below)}" if below is not None else \
                f"empty, reserve top {card_name(self.reserve[-1])}"
            return f"{card_name(card)} does not fit on the foundation ({what}: it takes a " \
                   f"{'A23456789TJQK'[need]})"
        return None

    # -- moves ---------------------------------------------------------------------------
    def apply(self, move: Move) -> "BannerPosition":
        self._check(move)
        new = self.copy()
        new._make(move)
        return new

    def play(self, move: Move) -> None:
        """Make ``move`` in this position; IllegalMoveError (and no change) if it is not legal."""
        self._check(move)
        self._make(move)

    def _check(self, move: Move) -> None:
        why = self.refusal(move)
        if why is not None:
            raise IllegalMoveError(f"{move}: {why}")

    def _make(self, move: Move) -> None:
        """``play`` once ``move`` is known to be legal."""
        if move.kind == DEAL:
            self.waste.append(self.stock.pop(0))
        elif move.kind == REDEAL:
            self.stock = self.waste   # the bottom waste card was turned first, so it comes first again
            self.waste = []
            self.passes += 1
        elif move.kind == WASTE:
            self._to_foundation(self.waste.pop())
        else:
            card = self.cells[move.src - 1]
            self.cells[move.src - 1] = self._refill()
            self._to_foundation(card)

    def _refill(self):
        if self.waste:
            return self.waste.pop()
        if self.stock:
            return self.stock.pop(0)
        return None

    def _to_foundation(self, card: int) -> None:
        self.foundation.append(card)
        if len(self.foundation) == RUN_LENGTH:
            self.foundation.append(self.reserve.pop())
            self.runs.append(self.foundation)
            self.foundation = []

    def moved_card(self, move: Move) -> int | None:
        if move.kind == DEAL:
            return self.stock[0] if self.stock else None
        if move.kind == WASTE:
            return self.waste[-1] if self.waste else None
        if move.kind == CELL and 1 <= move.src <= self.game.cells:
            return self.cells[move.src - 1]
        return None

    # -- invariants (tests) --------------------------------------------------------------
    def all_cards(self) -> list:
        out = self.reserve + [c for c in self.cells if c is not None] + self.waste + self.stock
        out += self.foundation
        for run in self.runs:
            out += run
        return out

    def key(self) -> tuple:
        return (len(self.reserve), len(self.foundation), tuple(self.cells), tuple(self.waste),
                tuple(self.stock), self.passes)

    def layout(self) -> dict:
        return {
            "reserve": [card_name(c) for c in self.reserve],
            "cells": [card_name(c) if c is not None else None for c in self.cells],
            "waste": [card_name(c) for c in self.waste],
            "stock": [card_name(c) for c in self.stock],
            "foundation": [card_name(c) for c in self.foundation],
            "runs_done": len(self.runs),
            "passes": self.passes,
        }
