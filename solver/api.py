"""The public entry point: ``solve(game, deal)``."""
from __future__ import annotations

from .deals import Deal, as_deal
from .games import find_game
from .result import Result


def solve(game, deal, *, max_nodes: int | None = None, timeout: float | None = None,
          max_memory: int | None = None, prune: bool = True) -> Result:
    """Decide whether ``deal`` of ``game`` can be won.

    ``deal`` is a deal number, ``"msN"`` or a :class:`Deal`. Limits: ``max_nodes`` positions,
    ``timeout`` seconds, ``max_memory`` bytes for the transposition table (default 1 GiB).
    ``prune=False`` turns every pruning and dominance rule off (docs/solver.md).
    """
    g = find_game(game)
    d = as_deal(g, deal)
    from .reference_search import reference_solve   # replaced by the compiled core
    return reference_solve(g, d, max_nodes=max_nodes, timeout=timeout)
