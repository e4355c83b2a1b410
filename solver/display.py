"""Render reference positions as text for a terminal (``solver deal``, ``solver check --show``).

Works on any position of :mod:`solver.rules`, initial or mid-game: it reads the position's
attributes (and nothing is changed). Cards print as ``Q♥`` (red suits coloured when asked)
or, with ``ascii=True``, as ``QH``.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from .cards import RANKS, card_name, card_symbol, rank_of
from .moves import DEAL, Move

EMPTY = "·"


@dataclass(frozen=True)
class Style:
    """How cards print: suit symbols or plain letters, coloured red suits or not."""

    ascii: bool = False
    colour: bool = False

    def card(self, card) -> str:
        if card is None:
            return "--" if self.ascii else EMPTY
        if self.ascii:
            return card_name(card)
        return card_symbol(card, colour=self.colour)

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in cards)

    @property
    def empty(self) -> str:
        return "-" if self.ascii else EMPTY

    @property
    def arrow(self) -> str:
        return "->" if self.ascii else "→"


def terminal_style(ascii_only: bool, stream=None) -> Style:
    """Symbols unless ``ascii_only``; colour only on a tty and when NO_COLOR is unset."""
    stream = stream or sys.stdout
    if ascii_only:
        return Style(ascii=True, colour=False)
    colour = "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()
    return Style(ascii=False, colour=colour)


def render_position(position, style: Style = Style()) -> str:
    """The whole position, several lines, no trailing newline."""
    if position.game.family == "salic":
        return _render_salic(position, style)
    return _render_banner(position, style)


def render_deal(position, style: Style = Style()) -> str:
    """An initial layout for ``solver deal``: for the Salic family the piles as they form
    if the whole stock were dealt without playing; for the Banner family the position itself."""
    if position.game.family == "salic":
        return render_salic_piles_if_dealt(position, style)
    return _render_banner(position, style)


# -- Salic family ---------------------------------------------------------------------------

def piles_if_dealt(position) -> list[tuple[int, list]]:
    """(queen, cards bottom first) for every queen once the rest of the stock is dealt."""
    pos = position
    while pos.stock:
        pos = pos.apply(Move(DEAL))
    return list(zip(pos.queens, pos.piles))


def render_salic_piles_if_dealt(position, style: Style = Style()) -> str:
    game = position.game
    already = len(position.queens)
    lines = []
    if already == 1 and not position.piles[0]:
        lines.append(f"Queen 1: {style.card(position.queens[0])}; "
                     f"stock: {len(position.stock)} cards.")
    lines.append("Piles as they form if the whole stock is dealt without playing "
                 "(queen, her cards bottom to top, count with the queen):")
    for number, (queen, pile) in enumerate(piles_if_dealt(position), start=1):
        cards = style.cards(pile) if pile else style.empty
        lines.append(f"{number:>2}  {style.card(queen)} | {cards}  ({len(pile) + 1})")
    if game.slots_from_start:
        lines.append("Foundations: 8 up (6..J) and 8 down (5..A,K), not tied to queens.")
    elif game.suited_slots:
        lines.append("Each queen gets an up slot (6..J) and a down slot (5..A,K), "
                     "started only by a 6 / 5 of her suit.")
    else:
        lines.append("Each queen gets an up slot (6..J) and a down slot (5..A,K), "
                     "started by any 6 / 5.")
    return "\n".join(lines)


def _slot_text(slot, style: Style) -> str:
    return style.cards(slot) if slot else style.empty


def _render_salic(position, style: Style) -> str:
    game = position.game
    done = position.foundation_count()
    stock = position.stock
    lines = [f"Stock: {len(stock)} card{'s' if len(stock) != 1 else ''}"
             + (f", next {style.card(stock[0])}" if stock else "")
             + f"   Foundations: {done} of 96"]
    width = 6 * 3 - 1          # a complete slot: six two-character cards
    if game.slots_from_start:
        for k, (up, down) in enumerate(zip(position.up, position.down), start=1):
            lines.append(f"u{k} {_pad(_slot_text(up, style), width, style)}   "
                         f"d{k} {_slot_text(down, style)}")
        for k, (queen, pile) in enumerate(zip(position.queens, position.piles), start=1):
            lines.append(f"{k:>2}  {style.card(queen)} | {style.cards(pile) if pile else style.empty}")
    else:
        lines.append(f"{'':>2}  {'Q':<2}   {'up':<{width}}   {'down':<{width}}   pile")
        for k, (queen, pile) in enumerate(zip(position.queens, position.piles), start=1):
            up = _pad(_slot_text(position.up[k - 1], style), width, style)
            down = _pad(_slot_text(position.down[k - 1], style), width, style)
            cards = style.cards(pile) if pile else style.empty
            lines.append(f"{k:>2}  {style.card(queen)}   {up}   {down}   {cards}")
    return "\n".join(lines)


def _pad(text: str, width: int, style: Style) -> str:
    """Pad to ``width`` visible columns (colour escapes take no room)."""
    visible = len(text)
    if style.colour:
        visible -= text.count("\x1b[31m") * len("\x1b[31m") + text.count("\x1b[0m") * len("\x1b[0m")
    return text + " " * max(0, width - visible)


# -- Banner family --------------------------------------------------------------------------

def _render_banner(position, style: Style) -> str:
    game = position.game
    lines = []
    reserve = position.reserve
    runs_done = len(position.runs)
    runs_total = runs_done + len(reserve)
    if reserve:
        below = [style.card(c) for c in reserve[:-1]]
        top = style.card(reserve[-1])
        need = RANKS[position.needed_rank()]
        lines.append(f"Reserve (bottom {style.arrow} top): {' '.join(below + ['[' + top + ']'])}")
        if position.foundation:
            lines.append(f"Foundation: {style.cards(position.foundation)}  "
                         f"({len(position.foundation)} of 12, next {need}; run {runs_done + 1} "
                         f"of {runs_total} closes with {style.card(reserve[-1])})")
        else:
            lines.append(f"Foundation: empty, takes {need} (top of reserve "
                         f"{RANKS[rank_of(reserve[-1])]} + 1); run {runs_done + 1} of {runs_total}")
    else:
        lines.append(f"Reserve: used up, all {runs_total} runs complete")
    cells = "  ".join(f"{k}:{style.card(c)}" for k, c in enumerate(position.cells, start=1))
    lines.append(f"Cells: {cells}")
    waste = position.waste
    if waste:
        lines.append(f"Waste ({len(waste)}, top last): {style.cards(waste)}")
    else:
        lines.append("Waste: empty")
    stock = position.stock
    if stock:
        lines.append(f"Stock ({len(stock)}, in turn order): {style.cards(stock)}")
    else:
        lines.append("Stock: empty")
    lines.append(f"Pass {position.passes} of {game.max_passes}")
    return "\n".join(lines)
