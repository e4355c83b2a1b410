"""Glue between the games and the compiled core (solver._core)."""
from __future__ import annotations

from . import _core
from .deals import Deal
from .games import BannerGame, Game, SalicGame
from .moves import CELL, DEAL, PARK, REDEAL, WASTE, Move
from .result import Result, Stats, Verdict
from .rules import SalicPosition, BannerPosition

DEFAULT_MAX_MEMORY = 1 << 30

#: Pruning rules by name, with their bit in the core (docs/solver.md argues each one).
PRUNING_RULES = dict(_core.RULE_BITS)
ALL_RULES = _core.PRUNE_ALL_FLAGS
#: What ``prune=True`` turns on: every rule but ``banner-reach``, which ``banner-prefix`` made
#: redundant in practice (docs/solver.md) while it costs a fifth of the Banner search time.
DEFAULT_RULES = ALL_RULES & ~PRUNING_RULES["banner-reach"]

_REASONS = {"nodes": "nodes", "time": "time", "memory": "memory", "interrupted": "interrupted",
            "stopped": "stopped"}


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a search; ``result`` is the UNKNOWN result with the statistics so far."""

    def __init__(self, result: Result):
        super().__init__("search interrupted")
        self.result = result


def game_params(game: Game) -> tuple:
    if isinstance(game, SalicGame):
        return (int(game.suited_slots), int(game.slots_from_start), int(game.park_after_stock),
                int(game.win_needs_empty_stock))
    assert isinstance(game, BannerGame)
    return (game.reserve_size, game.cells, game.max_passes, int(game.sixes_reserve))


def core_game(game: Game, deal: Deal) -> "_core.CoreGame":
    cards = list(deal.cards)
    if game.family == "salic":
        # RULES §1: the first queen in deal order is laid down first.
        q = next(i for i, c in enumerate(cards) if c % 13 == 11)
        cards.insert(0, cards.pop(q))
    return _core.CoreGame(game.family, game_params(game), bytes(cards))


def initial_reference(game: Game, deal: Deal):
    return SalicPosition(game, deal.cards) if game.family == "salic" else BannerPosition(game, deal.cards)


def to_move(pos, code: tuple) -> Move:
    """The notation of a core move in the reference position ``pos``."""
    kind, src, dst = code
    if kind == _core.DEAL:
        return Move(DEAL)
    if kind == _core.REDEAL:
        return Move(REDEAL)
    if kind == _core.WASTE:
        return Move(WASTE)
    if kind == _core.CELL:
        return Move(CELL, src + 1)
    if kind == _core.PARK:
        return Move(PARK, src + 1, dst + 1)
    # A foundation play: every slot it fits is the same position (docs/solver.md); take the first.
    pile = pos.piles[src] if src < len(pos.piles) else None
    if pile:
        card = pile[-1]
        for kind, j in pos.fitting_slots(card):
            return Move(kind, src + 1, j)
    raise RuntimeError(f"core move {code} has no legal counterpart")


def to_notation(game: Game, deal: Deal, path: list) -> list:
    """Translate a core line into notation, replaying it with the reference rules."""
    pos = initial_reference(game, deal)
    moves = []
    for code in path:
        move = to_move(pos, code)
        pos.play(move)       # raises IllegalMoveError if the core and the rules disagree
        moves.append(move)
    if not pos.is_won():
        raise RuntimeError("the core's line does not win under the reference rules")
    return moves


def _flags(prune) -> int:
    """``prune`` as run() takes it (True, False or PRUNE_* flags) as flags."""
    return DEFAULT_RULES if prune is True else 0 if prune is False else int(prune)


def random_lines(game: Game, deal: Deal, prune=True) -> bool:
    """Whether run() on this deal begins its probe rounds with random lines (random-lines), so
    that its ``seed`` changes the search."""
    return core_game(game, deal).random_lines(_flags(prune))


def release_kept_memory() -> int:
    """Free what the searches keep between them: the room memos of the Salic family (up to two,
    each within the memory bound of the search that made it, at most 224 MiB; docs/solver.md,
    "deep-room", *Room memo*, "Kept"). Returns the bytes freed. The next search that needs a
    memo makes one again; nothing else changes."""
    return _core.release_kept_memos()


def run(game: Game, deal: Deal, *, max_nodes=None, timeout=None, max_memory=None,
        prune=True, prefix=(), line=True, probes=True, shared=None, seed=0,
        lines_only=False) -> Result:
    """Search ``deal``; ``prefix`` (core moves) starts the search after those moves, and the
    winning line returned then includes them.  ``line=False`` skips translating the line into
    notation (and replaying it through the reference rules); ``Result.length`` still counts it.
    ``probes=False``: the exhaustive search alone, no probes first.  ``shared``
    (``_core.SharedSearch``): another search of the deal runs beside this one
    (``solve(threads=2)``); once it is stopped this search ends unknown, reason "stopped" (a
    Ctrl-C still raises).  ``seed``: the random lines' (random-lines; 0 the usual lines, another
    value other ones).  ``lines_only``: where the search has random lines, its probe rounds are
    those lines alone, then the final search (threads=2's second search)."""
    if max_memory is None:
        max_memory = DEFAULT_MAX_MEMORY
    flags = _flags(prune)
    core = core_game(game, deal)
    start = core.position()
    for code in prefix:
        start = start.play(tuple(code))
    status, path, nodes, states, table_bytes, peak, seconds, _ = core.search(
        max_nodes or 0, float(timeout or 0.0), int(max_memory), flags, start,
        _core.PROBES if probes else 0, shared, seed=seed, lines_only=lines_only)
    if status == "interrupted" and shared is not None and not shared.signalled:
        status = "stopped"
    stats = Stats(nodes=nodes, states=states, seconds=seconds, table_bytes=table_bytes)
    label = deal.number or "custom"
    if status == "win":
        full = [tuple(c) for c in prefix] + path
        moves = to_notation(game, deal, full) if line else []
        return Result(game.id, label, Verdict.WINNABLE, moves, stats, length=len(full))
    if status == "no_win":
        return Result(game.id, label, Verdict.UNWINNABLE, [], stats)
    result = Result(game.id, label, Verdict.UNKNOWN, [], stats, _REASONS[status])
    if status == "interrupted":
        raise SearchInterrupted(result)
    return result
