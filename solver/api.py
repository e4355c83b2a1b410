"""The public entry point: ``solve(game, deal)``."""
from __future__ import annotations

from .deals import as_deal
from .games import find_game
from .result import Result


def solve(game, deal, *, max_nodes: int | None = None, timeout: float | None = None,
          max_memory: int | None = None, prune: "bool | int" = True, line: bool = True) -> Result:
    """Decide whether ``deal`` of ``game`` can be won.

    ``deal`` is a deal number, ``"msN"`` or a :class:`~solver.deals.Deal`. Limits:
    ``max_nodes`` positions, ``timeout`` seconds, ``max_memory`` bytes for the transposition
    table (default 1 GiB); reaching one gives ``Verdict.UNKNOWN`` with ``reason`` set.
    ``prune=True`` uses the default rules (``solver.core.DEFAULT_RULES``: all but
    ``banner-reach``), ``prune=False`` turns every pruning rule off (docs/solver.md); an int
    selects rules by bit (``solver.core.PRUNING_RULES``). ``line=False`` skips building the
    winning line in notation (``Result.moves`` stays empty, ``Result.length`` still gives its
    length): for surveys.
    Ctrl-C raises :class:`~solver.core.SearchInterrupted` (a KeyboardInterrupt) whose
    ``result`` holds the statistics so far.
    """
    from . import core
    g = find_game(game)
    d = as_deal(g, deal)
    for name, value in (("max_nodes", max_nodes), ("timeout", timeout), ("max_memory", max_memory)):
        if value is not None and not value > 0:
            raise ValueError(f"{name} must be positive, got {value!r}")
    return core.run(g, d, max_nodes=max_nodes, timeout=timeout, max_memory=max_memory, prune=prune,
                    line=line)
