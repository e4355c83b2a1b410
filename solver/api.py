"""The public entry point: ``solve(game, deal)``."""
from __future__ import annotations

import os
import threading
import time
from dataclasses import replace

from .deals import Deal, as_deal
from .games import INNER_GAME, OUTER_GAME, find_game
from .result import Result, Stats, Verdict


def solve(game, deal, *, max_nodes: int | None = None, timeout: float | None = None,
          max_memory: int | None = None, prune: "bool | int" = True, line: bool = True,
          inner: bool = True, threads: int = 1, seed: int = 0) -> Result:
    """Decide whether ``deal`` of ``game`` can be won.

    ``deal`` is a deal number, ``"msN"`` or a :class:`~solver.deals.Deal`. Limits:
    ``max_nodes`` positions, ``timeout`` seconds, ``max_memory`` bytes for the search's tables
    (the transposition table and the cache and memo it keeps beside it; default 1 GiB); reaching one gives ``Verdict.UNKNOWN`` with ``reason`` set.
    The Salic games' room memo outlives the search: up to two are kept for the next searches of
    the process, which then do not pay for making one (``solver.core.release_kept_memory()``
    frees them).
    ``prune=True`` uses the default rules (``solver.core.DEFAULT_RULES``: all but
    ``banner-reach``), ``prune=False`` turns every pruning rule off (docs/solver.md); an int
    selects rules by bit (``solver.core.PRUNING_RULES``). ``line=False`` skips building the
    winning line in notation (``Result.moves`` stays empty, ``Result.length`` still gives its
    length): for surveys.

    ``inner=True`` (the default): where the game has an inner game (``solver.games.INNER_GAME``,
    a game whose moves are a subset of its moves on the same cards) and the game's own search
    ends at a limit, the inner game's search gets what is left; its winning line wins this game
    too, move for move, and is returned with ``Result.via`` naming the inner game. The game's
    own search then gets the time and node limits less the inner game's share (a third, for
    Intrigue a half: ``INNER_GAME``), and the inner one what it left; with neither
    limit set, the inner search runs only where the memory limit stopped the first one.
    Then, where the game has an outer game (``solver.games.OUTER_GAME``, a larger game with lost
    deals that nests it) and limits are left (the inner game was proved lost, say), the outer
    game's search gets them; its UNWINNABLE is this game's too (a line winning this game would
    win that one), returned with ``Result.via`` naming it.
    ``inner=False`` runs the game's own search alone, with the whole limits.

    ``seed`` chooses the random lines where the game's search begins its probe rounds with
    them (``random-lines``: the PySol profiles; elsewhere it changes nothing): 0, the default,
    gives the lines every run makes; another value other ones, so the search, its time and its
    winning line change, never its verdict where both decide. ``benchmarks/tail_compare.py
    --seeds`` uses it to tell a change's effect from the luck of the lines.

    ``threads=2`` runs, beside the searches above, a second search of the game in a second
    thread, with the whole node limit and the time left: where the game's search begins its
    probe rounds with random lines (the PySol profiles), other random lines alone and then the
    final search, else the exhaustive search alone (no probes); the first verdict on the
    game stops the other search (docs/solver.md, "Two threads"). The second thread starts
    ``SECOND_THREAD_DELAY`` (2 ms) after the first, or as soon as that ends undecided; a deal
    decided sooner runs in one thread. Their tables share ``max_memory``, the second thread's at
    most half of it. The verdict is the same as with one thread where
    that decides; the winning line may differ from run to run.

    Ctrl-C raises :class:`~solver.core.SearchInterrupted` (a KeyboardInterrupt) whose
    ``result`` holds the statistics so far.
    """
    from . import core
    g = find_game(game)
    d = as_deal(g, deal)
    for name, value in (("max_nodes", max_nodes), ("timeout", timeout), ("max_memory", max_memory)):
        if value is not None and not value > 0:
            raise ValueError(f"{name} must be positive, got {value!r}")
    if threads not in (1, 2):
        raise ValueError(f"threads must be 1 or 2, got {threads!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise ValueError(f"seed must be an int from 0 to 2**64 - 1, got {seed!r}")
    limits = dict(max_nodes=max_nodes, timeout=timeout, max_memory=max_memory, prune=prune,
                  line=line, seed=seed)
    if threads == 1:
        return _solve(g, d, inner, **limits)
    return _solve_two_threads(g, d, inner, **limits)


def _solve(g, d, inner: bool, *, max_nodes, timeout, max_memory, prune, line, seed=0,
           shared=None) -> Result:
    """The game's own search, then (inner) the inner game's with what it left, then the outer
    game's with what both left."""
    from . import core
    if not inner or (g.id not in INNER_GAME and g.id not in OUTER_GAME):
        return core.run(g, d, max_nodes=max_nodes, timeout=timeout, max_memory=max_memory,
                        prune=prune, line=line, shared=shared, seed=seed)
    share = INNER_GAME[g.id][1] if g.id in INNER_GAME else 0
    own_nodes = max(1, int(max_nodes * (1 - share))) if max_nodes else None
    own_timeout = timeout * (1 - share) if timeout else None
    result = core.run(g, d, max_nodes=own_nodes, timeout=own_timeout, max_memory=max_memory,
                      prune=prune, line=line, shared=shared, seed=seed)
    if result.verdict is not Verdict.UNKNOWN:
        return result
    if g.id in INNER_GAME:
        result = _nested(g, d, INNER_GAME[g.id][0], result, Verdict.WINNABLE, max_nodes=max_nodes,
                         timeout=timeout, max_memory=max_memory, prune=prune, line=line,
                         seed=seed, shared=shared)
    if result.verdict is Verdict.UNKNOWN and g.id in OUTER_GAME:
        result = _nested(g, d, OUTER_GAME[g.id], result, Verdict.UNWINNABLE, max_nodes=max_nodes,
                         timeout=timeout, max_memory=max_memory, prune=prune, line=line,
                         seed=seed, shared=shared)
    return result


def _nested(g, d, other_id, result, proves, *, max_nodes, timeout, max_memory, prune, line,
            seed, shared) -> Result:
    """``result`` (UNKNOWN, the work so far on ``g``) after the search of the nested game
    ``other_id`` with what is left of the limits: that search's verdict ``proves`` (WINNABLE for
    an inner game, UNWINNABLE for an outer one) is ``g``'s too, with ``via`` naming it; any
    other outcome of it proves nothing about ``g`` and leaves ``result`` UNKNOWN, its work added
    to the statistics.  With nothing left, or the search stopped by the other thread, it is not
    run."""
    from . import core
    if shared is not None and shared.stopped:
        return result
    nodes_left = max_nodes - result.stats.nodes if max_nodes else None
    time_left = timeout - result.stats.seconds if timeout else None
    if (nodes_left is not None and nodes_left < 1) or (time_left is not None and time_left <= 0):
        return result
    other = find_game(other_id)
    try:
        found = core.run(other, Deal(other.id, d.cards, d.number), max_nodes=nodes_left,
                         timeout=time_left, max_memory=max_memory, prune=prune, line=line,
                         shared=shared, seed=seed)
    except core.SearchInterrupted as interrupted:
        raise core.SearchInterrupted(replace(result, stats=_sum(result.stats,
                                                                interrupted.result.stats),
                                             reason="interrupted")) from None
    stats = _sum(result.stats, found.stats)
    if found.verdict is not proves:
        return replace(result, stats=stats)        # proves nothing about g
    if proves is Verdict.UNWINNABLE:
        return Result(g.id, result.deal, Verdict.UNWINNABLE, [], stats, via=other.id)
    moves = _replay(g, d, found.moves) if line else []
    return Result(g.id, result.deal, Verdict.WINNABLE, moves, stats,
                  length=len(moves) if line else found.length, via=other.id)


# threads=2: the second thread's search starts only if the first has not decided the deal within
# this many seconds (most deals take well under it; docs/solver.md, "Two threads", *Late start*).
SECOND_THREAD_DELAY = 0.002
# threads=2, on a deal whose search begins its probe rounds with random lines (the PySol
# profiles): the second thread's search makes its random lines with this seed (docs/solver.md,
# "Two threads", *Other lines*).
SECOND_SEED = 1


def second_search(game, deal, prune=True, seed=0) -> dict:
    """threads=2: what the second thread's search is, as core.run's keywords.  Where the deal's
    search has random lines (the PySol profiles), other random lines (seed ^ SECOND_SEED: never
    the first thread's seed) and no probes or searches between rounds (lines_only), then the
    final search; elsewhere the exhaustive search alone."""
    from . import core
    lines = core.random_lines(game, deal, prune)
    return dict(probes=lines, seed=seed ^ SECOND_SEED if lines else 0, lines_only=lines)

_second_threads = None          # (pid, ThreadPoolExecutor): threads kept for the second searches
_second_threads_lock = threading.Lock()


def _second_thread_pool():
    """The executor that runs the second searches of threads=2. Its threads are kept between
    calls (making a thread costs about as much as deciding a median deal), made on first use,
    and made again in a forked child, which inherits the executor but not its threads."""
    global _second_threads
    with _second_threads_lock:
        if _second_threads is None or _second_threads[0] != os.getpid():
            from concurrent.futures import ThreadPoolExecutor
            _second_threads = (os.getpid(), ThreadPoolExecutor(
                max_workers=8, thread_name_prefix="solver-second"))
        return _second_threads[1]


def _solve_two_threads(g, d, inner: bool, *, max_nodes, timeout, max_memory, prune,
                       line, seed=0, delay: float = SECOND_THREAD_DELAY) -> Result:
    """threads=2 (docs/solver.md, "Two threads"): a second search of the game in a second thread,
    with the whole node limit but at most half the memory, beside _solve in this one; their
    tables share max_memory.  The second search is second_search()'s: other random lines where
    the deal's search has random lines, else the exhaustive search alone.
    The first verdict on the game stops the other search.  The second search starts ``delay``
    seconds after the first, or as soon as that one ends undecided, and not at all if it
    decided; its time limit counts from the start of the first."""
    from . import _core, core
    memory = max_memory if max_memory is not None else core.DEFAULT_MAX_MEMORY
    shared = _core.SharedSearch(memory)
    box = {}
    wake = threading.Event()        # set when the first search ends: no more waiting
    gate = threading.Lock()         # orders the second search's start against the first's end
    state = {"cancelled": False, "started": False}

    def second():
        wake.wait(delay)
        with gate:
            if state["cancelled"] or shared.stopped:
                return                                    # decided (or interrupted) meanwhile
            state["started"] = True
        kind = second_search(g, d, prune, seed)    # worked out only where it runs
        box["start"] = time.perf_counter() - t0
        left = None if timeout is None else timeout - box["start"]
        if left is not None and left <= 0:
            return
        try:
            found = core.run(g, d, max_nodes=max_nodes, timeout=left,
                             max_memory=max(1, memory // 2), prune=prune, line=line,
                             shared=shared, **kind)
        except core.SearchInterrupted as interrupted:     # Ctrl-C: this thread's poll
            found = interrupted.result                    # sees the flag the main thread set
        if found.verdict is not Verdict.UNKNOWN:
            shared.stop()
        box["result"] = found

    def first_ended(decided: bool) -> bool:
        """Stop or release the second search; whether it started (and must be waited for)."""
        if decided:
            shared.stop()
        with gate:
            state["cancelled"] = decided
            started = state["started"]
        wake.set()
        return started or not decided

    t0 = time.perf_counter()
    worker = _second_thread_pool().submit(second)
    try:
        main = _solve(g, d, inner, max_nodes=max_nodes, timeout=timeout, max_memory=memory,
                      prune=prune, line=line, seed=seed, shared=shared)
    except BaseException:
        if first_ended(True):
            _join(worker)
        raise
    # A second search that has not started never will: it is not waited for (its thread wakes
    # at once, sees the flag and goes back to the pool).
    interrupted = _join(worker) if first_ended(main.verdict is not Verdict.UNKNOWN) else False
    other = box.get("result")
    # The search time as one thread counts it (Stats.seconds: the searches, not the line built
    # after them): thread 0's, or up to the end of thread 1's search where that ends later.
    seconds = main.stats.seconds if other is None else \
        max(main.stats.seconds, box["start"] + other.stats.seconds)
    if main.verdict is Verdict.UNKNOWN and other is not None and \
            other.verdict is not Verdict.UNKNOWN:
        chosen = other
    else:
        chosen = main
    # table_bytes: the most the tables (with the dead-end caches) held at once, together
    stats = replace(_sum(main.stats, other.stats) if other is not None else main.stats,
                    seconds=seconds, table_bytes=shared.pool_peak)
    result = replace(chosen, stats=stats)
    if interrupted and result.verdict is Verdict.UNKNOWN:
        raise core.SearchInterrupted(replace(result, reason="interrupted"))
    return result


def _join(worker) -> bool:
    """Wait for the other search (a Future: stopped, or at its limits); True if Ctrl-C came
    meanwhile. An error in it is raised here."""
    interrupted = False
    while True:
        try:
            worker.result()
            return interrupted
        except KeyboardInterrupt:
            interrupted = True


def _sum(a: Stats, b: Stats) -> Stats:
    """Two searches' statistics as one: work adds up, memory is the larger (one at a time)."""
    return Stats(nodes=a.nodes + b.nodes, states=max(a.states, b.states),
                 seconds=a.seconds + b.seconds, table_bytes=max(a.table_bytes, b.table_bytes))


def _replay(game, deal, moves) -> list:
    """Play ``moves`` from the deal's start under ``game``'s reference rules; they must win.
    Returns them up to the win (the same list: the inner game's win is this game's win)."""
    from .rules import initial_position
    position = initial_position(game, deal)
    for played, move in enumerate(moves):
        if position.is_won():
            return list(moves[:played])
        position = position.apply(move)      # raises IllegalMoveError on a move the rules refuse
    if not position.is_won():
        raise RuntimeError(f"the inner game's line does not win {game.id}")
    return list(moves)
