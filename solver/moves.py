"""Moves and their notation (RULES §5).

``str(move)`` is the notation and ``Move.parse(str(m), family) == m``.
Salic family: ``deal``, ``3>u5``, ``3>d5``, ``3>7``. Banner family: ``deal``, ``redeal``,
``w>f``, ``c3>f``. Numbers are 1-based, as the player sees them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InvalidMoveError

DEAL, REDEAL, UP, DOWN, PARK, WASTE, CELL = "deal", "redeal", "up", "down", "park", "waste", "cell"

_SALIC = re.compile(r"([1-8])>([ud]?)([1-8])")
_CELL = re.compile(r"c([1-8])>f")


@dataclass(frozen=True)
class Move:
    """One move. ``kind`` is one of deal, redeal, up, down, park, waste, cell."""

    kind: str
    src: int = 0    # pile (queen) number, or cell number
    dst: int = 0    # slot or queen number

    def __str__(self) -> str:
        if self.kind in (DEAL, REDEAL):
            return self.kind
        if self.kind == UP:
            return f"{self.src}>u{self.dst}"
        if self.kind == DOWN:
            return f"{self.src}>d{self.dst}"
        if self.kind == PARK:
            return f"{self.src}>{self.dst}"
        if self.kind == WASTE:
            return "w>f"
        return f"c{self.src}>f"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, family: str | None = None) -> "Move":
        """Parse one move token; ``family`` ("salic" / "banner") rejects the other family's moves."""
        t = text.strip().lower()
        if t in (DEAL, REDEAL):
            if t == REDEAL and family == "salic":
                raise InvalidMoveError(f"invalid move {text!r}: no redeal in this game")
            return cls(t)
        m = _SALIC.fullmatch(t)
        if m and family != "banner":
            kind = {"u": UP, "d": DOWN, "": PARK}[m.group(2)]
            return cls(kind, int(m.group(1)), int(m.group(3)))
        if family != "salic":
            if t == "w>f":
                return cls(WASTE)
            m = _CELL.fullmatch(t)
            if m:
                return cls(CELL, int(m.group(1)))
        expect = {"salic": "deal, P>uQ, P>dQ or P>Q",
                  "banner": "deal, redeal, w>f or cK>f"}.get(family, "RULES §5 notation")
        raise InvalidMoveError(f"invalid move {text!r}: expected {expect}")


#: The line ``solver solve`` prints above a winning line.
_VERDICT_LINE = re.compile(r".*: winnable in \d+ moves?( \(via [a-z-]+\))?", re.IGNORECASE)


def parse_moves(text: str, family: str | None = None) -> list[Move]:
    """Moves separated by white space; ``#`` starts a comment.

    A line in the form ``solver solve`` prints (``12. 3>u5  7H``) gives its one move: the
    index and the card after the move are ignored, and its first line (``glencoe 7: winnable
    in 212 moves``) is skipped, so a printed solution can be checked as is.
    """
    moves = []
    for line in text.splitlines():
        if _VERDICT_LINE.fullmatch(line.strip()):
            continue
        tokens = line.split("#", 1)[0].split()
        if tokens and re.fullmatch(r"\d+\.", tokens[0]):
            tokens = tokens[1:2]
        moves.extend(Move.parse(token, family) for token in tokens)
    return moves
