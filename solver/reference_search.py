"""The plain pure-Python search: the baseline the compiled core is checked and timed against.

Depth-first over the reference rules, a memo of positions already seen (exact keys), and no
pruning of any kind. It is slow on purpose-free grounds: it must be obviously right.
"""
from __future__ import annotations

import time

from .deals import as_deal
from .games import find_game
from .result import Result, Stats, Verdict
from .rules import initial_position

# Order only, never pruning: plays to a foundation first, then turning a card, parking last.
_ORDER = {"up": 0, "down": 0, "waste": 0, "cell": 0, "deal": 1, "redeal": 2, "park": 3}


def _ordered_moves(pos):
    return sorted(pos.legal_moves(), key=lambda m: _ORDER[m.kind])


def reference_solve(game, deal, *, max_nodes: int | None = None, timeout: float | None = None,
                    position=None) -> Result:
    """Decide ``deal`` (or ``position``, a reference position) by exhaustive DFS."""
    g = find_game(game)
    d = as_deal(g, deal) if position is None else None
    start = position if position is not None else initial_position(g, d)
    label = d.number or "custom" if d is not None else "position"
    t0 = time.perf_counter()
    seen = {start.key()}
    nodes = 0
    # Each frame: (position, its legal moves, index of the next move to try).
    stack = [(start, _ordered_moves(start), 0)]
    path = []
    verdict, reason = Verdict.UNWINNABLE, None
    if start.is_won():
        verdict = Verdict.WINNABLE
        stack = []
    while stack:
        pos, moves, i = stack[-1]
        if i == len(moves):
            stack.pop()
            if path:
                path.pop()
            continue
        stack[-1] = (pos, moves, i + 1)
        child = pos.apply(moves[i])
        key = child.key()
        if key in seen:
            continue
        seen.add(key)
        nodes += 1
        path.append(moves[i])
        if child.is_won():
            verdict = Verdict.WINNABLE
            break
        if max_nodes is not None and nodes >= max_nodes:
            verdict, reason = Verdict.UNKNOWN, "nodes"
            break
        if timeout is not None and nodes % 256 == 0 and time.perf_counter() - t0 > timeout:
            verdict, reason = Verdict.UNKNOWN, "time"
            break
        stack.append((child, _ordered_moves(child), 0))
    stats = Stats(nodes=nodes, states=len(seen), seconds=time.perf_counter() - t0)
    moves = list(path) if verdict is Verdict.WINNABLE else []
    return Result(g.id, label, verdict, moves, stats, reason)
