"""Search outcomes: a verdict enum, limits and statistics as small dataclasses."""
from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field

from .moves import Move


class Verdict(enum.Enum):
    WINNABLE = "winnable"        # a winning line was found (Result.moves)
    UNWINNABLE = "unwinnable"    # the whole space was searched
    UNKNOWN = "unknown"          # a limit ended the search first (Result.reason)

    def __str__(self) -> str:
        return self.value


@dataclass
class Stats:
    nodes: int = 0               # positions expanded
    states: int = 0              # distinct positions stored in the table
    seconds: float = 0.0
    table_bytes: int = 0         # memory held by the transposition table at the end

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class Result:
    game: str
    deal: str
    verdict: Verdict
    moves: list = field(default_factory=list)      # list[Move] when WINNABLE
    stats: Stats = field(default_factory=Stats)
    reason: str | None = None                      # why UNKNOWN: "nodes", "time", "memory", "interrupted"
    length: int = 0                                # moves in the winning line (also when not built)
    via: str | None = None                         # the nested game that decided (api.solve)

    def __post_init__(self):
        if self.moves and not self.length:
            self.length = len(self.moves)

    @property
    def solved(self) -> bool:
        return self.verdict is not Verdict.UNKNOWN

    def to_json(self) -> dict:
        out = {"game": self.game, "deal": self.deal, "verdict": self.verdict.value,
               "moves": [str(m) for m in self.moves], "length": self.length,
               "stats": self.stats.to_json()}
        if self.reason:
            out["reason"] = self.reason
        if self.via:
            out["via"] = self.via
        return out


__all__ = ["Verdict", "Stats", "Result", "Move"]
