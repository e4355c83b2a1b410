# cython: language_level=3
"""The compiled core: a thin owner of the fixed deal and the start state, and one call into C.

Everything user-facing (parsing, notation, errors) stays in Python; this module takes cards as
bytes and returns moves as (kind, src, dst) tuples with 0-based numbers.
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

# move kinds, as in core.h
DEAL, FOUND, PARK, WASTE, CELL, REDEAL = range(6)
STATUS = ("win", "no_win", "nodes", "time", "memory", "interrupted")
PRUNE_ALL_FLAGS = PRUNE_ALL
# CoreGame.search(plain=...): the same search made the plain way (csrc/dfs.h), for the tests
PLAIN_FLAGS = {"generic-dfs": PLAIN_GENERIC_DFS, "no-prefetch": PLAIN_NO_PREFETCH}
RULE_BITS = {"safe-foundation": PRUNE_SAFE_FOUNDATION, "banner-reach": PRUNE_BANNER_REACH,
             "symmetry": PRUNE_SYMMETRY, "banner-prefix": PRUNE_BANNER_PREFIX,
             "lone-card": PRUNE_LONE_CARD, "last-copies": PRUNE_LAST_COPIES,
             "parking-room": PRUNE_PARKING_ROOM, "dead-cache": PRUNE_DEAD_CACHE,
             "lazy-plays": PRUNE_LAZY_PLAYS, "deep-room": PRUNE_DEEP_ROOM,
             "deal-cache": PRUNE_DEAL_CACHE, "lazy-order": PRUNE_LAZY_ORDER,
             "feed-first": PRUNE_FEED_FIRST, "cell-wait": PRUNE_CELL_WAIT,
             "banner-ahead": PRUNE_BANNER_AHEAD, "lazy-feed": PRUNE_LAZY_FEED,
             "stuck-stock": PRUNE_STUCK_STOCK, "sealed-cap": PRUNE_SEALED_CAP,
             "random-lines": PRUNE_RANDOM_LINES, "guided-lines": PRUNE_GUIDED_LINES,
             "root-walk-cap": PRUNE_ROOT_WALK_CAP}
PROBES = 6      # bounded-discrepancy probes before the exhaustive search


cdef int _poll(void *ctx) noexcept with gil:
    # Runs the Python signal handlers; a KeyboardInterrupt there ends the search.  The exception
    # is dropped here and raised again by the caller, so the partial statistics are not lost.
    try:
        PyErr_CheckSignals()
    except BaseException:
        return 1
    return 0


cdef SearchLimits _limits(uint64_t max_nodes, double max_seconds, size_t max_bytes,
                          unsigned prune, int probes):
    cdef SearchLimits lim
    lim.max_nodes = max_nodes
    lim.max_seconds = max_seconds
    lim.max_bytes = max_bytes
    lim.prune = prune
    lim.probes = probes
    lim.poll = _poll
    lim.poll_ctx = NULL
    lim.stop = NULL
    lim.pool = NULL
    lim.plain = 0
    lim.root_walk_cap = 0
    lim.seed = 0
    lim.lines_only = 0
    return lim


cdef struct PairShared:
    int stop            # set once either search is decided, or on Ctrl-C: both then end
    int signalled       # Ctrl-C (the main thread's poll)
    MemPool pool        # the memory the two searches' tables share


cdef int _poll_pair(void *ctx) noexcept with gil:
    # The poll of a search beside another (SharedSearch): as _poll, and a Ctrl-C stops the other
    # search too.  Outside the main thread PyErr_CheckSignals does nothing.
    cdef PairShared *shared = <PairShared *>ctx
    try:
        PyErr_CheckSignals()
    except BaseException:
        shared.signalled = 1
        search_stop(&shared.stop)
        return 1
    return 0


cdef class SharedSearch:
    """What two searches of one deal running side by side share (solve(threads=2); docs/solver.md,
    "Two threads"): a stop flag, set when either decides or on Ctrl-C, and a pool of max_bytes
    that their tables draw on together."""
    cdef PairShared shared

    def __cinit__(self, size_t max_bytes):
        memset(&self.shared, 0, sizeof(PairShared))
        self.shared.pool.max = max_bytes

    def stop(self):
        """End both searches at their next check (every 1,024 nodes)."""
        search_stop(&self.shared.stop)

    @property
    def stopped(self):
        return self.shared.stop != 0

    @property
    def signalled(self):
        """Whether a Ctrl-C ended a search (not the other's verdict)."""
        return self.shared.signalled != 0

    @property
    def pool_used(self):
        """Bytes the tables of the searches hold now."""
        return self.shared.pool.used

    @property
    def pool_peak(self):
        """The most bytes the tables of the searches have held at once."""
        return self.shared.pool.peak


cdef class CoreGame:
    """A deal set up for the core: ``family`` is "salic" or "banner"."""
    cdef void *deal
    cdef StateBuf start
    cdef const GameOps *ops
    cdef readonly str family

    cdef int _origin(self, CorePosition start, StateBuf *origin) except -1:
        """The state a search starts from: the deal's start, or ``start`` (a position of this
        deal)."""
        if start is None:
            memcpy(origin, &self.start, sizeof(StateBuf))
        else:
            if start.game is not self:
                raise ValueError("start is a position of another deal")
            memcpy(origin, &start.state, sizeof(StateBuf))
        return 0

    def __cinit__(self, str family, tuple params, bytes cards):
        cdef const uint8_t *c = cards
        cdef int rc
        memset(&self.start, 0, sizeof(StateBuf))
        self.family = family
        if family == "salic":
            self.deal = malloc(sizeof(SalicDeal))
            if self.deal == NULL:
                raise MemoryError()
            if len(cards) != 104:
                raise ValueError("a Salic deal has 104 cards")
            rc = salic_setup(<SalicDeal *>self.deal, <SalicState *>&self.start, c,
                             params[0], params[1], params[2], params[3])
            self.ops = &SALIC_OPS
        elif family == "banner":
            self.deal = malloc(sizeof(BannerDeal))
            if self.deal == NULL:
                raise MemoryError()
            rc = banner_setup(<BannerDeal *>self.deal, <BannerState *>&self.start, c, len(cards),
                              params[0], params[1], params[2], params[3])
            self.ops = &BANNER_OPS
        else:
            raise ValueError(f"unknown family {family!r}")
        if rc != 0:
            raise ValueError("the cards are not a deal of this game")

    def __dealloc__(self):
        free(self.deal)

    def search(self, uint64_t max_nodes=0, double max_seconds=0.0, size_t max_bytes=1 << 30,
               unsigned prune=PRUNE_ALL, CorePosition start=None, int probes=PROBES,
               SharedSearch shared=None, int plain=0, int root_walk_cap=0, uint64_t seed=0,
               bint lines_only=False):
        """Run the search from the deal's start (or from ``start``, a position of this deal);
        returns (status, path, nodes, states, table_bytes, peak_bytes, seconds, final_start),
        where final_start is the second at which the final exhaustive search began, the one
        after the probes (-1.0 when it never did: the first short search, a probe or a search
        between probe rounds decided, or a limit came first).  shared: a search of the same
        deal runs beside this one (in another thread); the tables share shared's memory as well
        as max_bytes, and the search ends "interrupted" once shared is stopped (the caller
        stops it where a verdict settles the deal: solver.api).  plain: PLAIN_GENERIC_DFS and
        PLAIN_NO_PREFETCH make the same search the plain way (csrc/dfs.h), for the tests.
        root_walk_cap > 0: root-walk-cap's cap in walk steps instead of the game's, for the
        tests.  seed: the random lines' (random-lines): 0 the usual lines, another value other
        ones (threads=2's second search).  lines_only: where the search has random lines, its
        probe rounds are those lines alone (no probes, no searches between rounds), then the
        final search."""
        cdef SearchLimits lim = _limits(max_nodes, max_seconds, max_bytes, prune, probes)
        lim.plain = plain
        lim.root_walk_cap = root_walk_cap
        lim.seed = seed
        lim.lines_only = lines_only
        if shared is not None:
            lim.stop = &shared.shared.stop
            lim.pool = &shared.shared.pool
            lim.poll = _poll_pair
            lim.poll_ctx = &shared.shared
        cdef SearchResult res
        cdef StateBuf origin
        self._origin(start, &origin)
        with nogil:
            search_run(self.ops, self.deal, &origin, &lim, &res)
        path = []
        if res.path != NULL:
            path = [(m >> 8, (m >> 4) & 15, m & 15) for m in res.path[:res.path_len]]
            free(res.path)
        return (STATUS[res.status], path, res.nodes, res.states, res.table_bytes,
                res.peak_bytes, res.seconds, res.final_start)

    def random_lines(self, unsigned prune=PRUNE_ALL):
        """Whether a search of this deal under ``prune`` begins its probe rounds with random
        lines (random-lines: the game has them and the rule is on), so that its ``seed``
        matters."""
        return bool(search_random_lines(self.ops, self.deal, prune))

    def search_steps(self, uint64_t max_nodes=0, double max_seconds=0.0, size_t max_bytes=1 << 30,
                     unsigned prune=PRUNE_ALL, int plain=0, int root_walk_cap=0,
                     CorePosition start=None, uint64_t seed=0, bint lines_only=False):
        """Run the search from the deal's start (or from ``start``, a position of this deal) and
        return (status, nodes, steps): steps lists
        every search of the run in order (csrc/search.h, SearchStep), each a dict with kind
        ("first", "probe", "whole", "final" or "random"), round, mode, twin (the rule set: 0 the rules
        asked for, i the i-th twin), max_disc (-1: exhaustive), budget, nodes and status.  seed,
        lines_only: as search()'s."""
        cdef SearchLimits lim = _limits(max_nodes, max_seconds, max_bytes, prune, PROBES)
        lim.plain = plain
        lim.root_walk_cap = root_walk_cap
        lim.seed = seed
        lim.lines_only = lines_only
        cdef StateBuf origin
        self._origin(start, &origin)
        cdef SearchResult *res = <SearchResult *>malloc(sizeof(SearchResult))
        cdef int i
        if res == NULL:
            raise MemoryError()
        try:
            with nogil:
                search_run(self.ops, self.deal, &origin, &lim, res)
            free(res.path)
            kinds = ("first", "probe", "whole", "final", "random")
            steps = [dict(kind=kinds[res.steps[i].kind], round=res.steps[i].round,
                          mode=res.steps[i].mode, twin=res.steps[i].twin,
                          max_disc=res.steps[i].max_disc, budget=res.steps[i].budget,
                          nodes=res.steps[i].nodes, status=STATUS[res.steps[i].status])
                     for i in range(res.n_steps)]
            return STATUS[res.status], res.nodes, steps
        finally:
            free(res)

    def replay_seconds(self, list path, int repeat=1):
        """Seconds to replay ``path`` through the core (apply, key, won test per move), best of
        ``repeat``, and whether it wins: the floor for any solver that must print a line."""
        cdef int n = len(path), i, r
        cdef MoveCode *codes = <MoveCode *>malloc(sizeof(MoveCode) * (n + 1))
        cdef StateBuf a, b
        cdef Key key
        cdef double t0, best = 1e300
        cdef int won = 0
        for i in range(n):
            codes[i] = (path[i][0] << 8) | (path[i][1] << 4) | path[i][2]
        with nogil:
            for r in range(repeat):
                t0 = search_clock()
                memcpy(&a, &self.start, sizeof(StateBuf))
                for i in range(n):
                    self.ops.apply(self.deal, &a, codes[i], &b)
                    self.ops.key(self.deal, &b, &key)
                    memcpy(&a, &b, sizeof(StateBuf))
                won = self.ops.is_won(self.deal, &a)
                t0 = search_clock() - t0
                if t0 < best:
                    best = t0
        free(codes)
        return best, bool(won)

    @property
    def probe_modes(self):
        """Probes per round and rule set (GameOps.probe_modes, at least 1)."""
        return max(1, self.ops.probe_modes)

    @property
    def wide_mode(self):
        """The probe mode whose lines include every other mode's (GameOps.modes_nested and
        wide_mode): a probe in another mode is skipped where the wide one of its round and
        rules ran before it and tried all its lines. None where the game declares no such
        mode."""
        return self.ops.wide_mode if self.ops.modes_nested else None

    def position(self):
        """The start position, for tests that compare the core with the reference rules."""
        cdef CorePosition p = CorePosition.__new__(CorePosition)
        p.game = self
        memcpy(&p.state, &self.start, sizeof(StateBuf))
        return p


cdef class CorePosition:
    """A position of a CoreGame: its move generator, applier and key, for the agreement tests."""
    cdef CoreGame game
    cdef StateBuf state

    def moves(self, bint reduced=False, unsigned prune=0):
        cdef MoveCode out[64]
        cdef int n = self.game.ops.gen_moves(self.game.deal, &self.state, out, reduced, prune)
        return [(m >> 8, (m >> 4) & 15, m & 15) for m in out[:n]]

    def play(self, tuple move):
        cdef CorePosition p = CorePosition.__new__(CorePosition)
        cdef MoveCode m = (move[0] << 8) | (move[1] << 4) | move[2]
        p.game = self.game
        # A foundation play marked lazy (dst 1, PRUNE_LAZY_PLAYS) is the same play.
        plain = (move[0], move[1], 0) if move[0] == FOUND else move
        if plain not in self.moves():
            raise ValueError(f"core move {move} is not legal here")
        self.game.ops.apply(self.game.deal, &self.state, m, &p.state)
        return p

    def is_won(self):
        return bool(self.game.ops.is_won(self.game.deal, &self.state))

    def is_dead(self, unsigned prune=PRUNE_ALL):
        return bool(self.game.ops.is_dead(self.game.deal, &self.state, prune, MOVE_NONE, NULL))

    def grid_eval_check(self, uint64_t seed, bint stock=False):
        """Salic family, for the tests: along one path (picked by seed) through the position's
        parking-room grid (stock: with stuck-stock's piles where it applies), the walk's fast
        arithmetic (SSE2 where built) agrees with the plain one. The points compared, or -1
        where they disagree."""
        if self.game.family != "salic":
            raise ValueError("grid_eval_check is for the Salic family")
        return salic_grid_eval_check(<SalicDeal *>self.game.deal, <SalicState *>&self.state, seed,
                                     stock)

    def prefix_sweep_check(self, int p=-1):
        """Banner family, for the tests: the prefix bound's sweep over the waste below talon
        position p (-1: the position's own waste), done with SSE2 (where built) and in plain C.
        Its verdict (True: dead), or None where the two differ, in the verdict or, where the
        sweep passes, in the trace it leaves."""
        if self.game.family != "banner":
            raise ValueError("prefix_sweep_check is for the Banner family")
        cdef int rc = banner_prefix_check(<BannerDeal *>self.game.deal,
                                          <BannerState *>&self.state, p)
        return None if rc < 0 else bool(rc)

    def trace_check(self, int change=-1):
        """Banner family, for the tests: whether the prefix sweep's trace the state carries is
        right (True), nothing is known (False), or it is wrong (None): the position on its
        line of deals with that many stock cards passes the prefix bound, and the trace is the
        start of its greedy sweep (csrc/banner.c, banner_trace_check). change >= 0: check a
        copy with that value of the trace one more, to show that the check can fail."""
        if self.game.family != "banner":
            raise ValueError("trace_check is for the Banner family")
        cdef BannerState copy
        memcpy(&copy, &self.state, sizeof(BannerState))
        if change >= 0:
            if change >= copy.trace[14] or copy.trace[14] == 255:
                raise ValueError("no such value in the trace")
            copy.trace[change] += 1
        cdef int rc = banner_trace_check(<BannerDeal *>self.game.deal, &copy)
        return None if rc < 0 else bool(rc)

    def dead_check(self, unsigned prune=PRUNE_ALL, via=None):
        """Banner family, for the tests: the dead-end test as the search runs it on this
        position reached by the move via (None: the start of a search), with the trace the
        state carries and with none. Its verdict (True: dead), or None where the two differ or
        the trace it leaves is wrong. Like the search's test, it leaves its trace in the
        position."""
        if self.game.family != "banner":
            raise ValueError("dead_check is for the Banner family")
        cdef MoveCode m = MOVE_NONE if via is None else (via[0] << 8) | (via[1] << 4) | via[2]
        cdef int rc = banner_dead_check(<BannerDeal *>self.game.deal, <BannerState *>&self.state,
                                        prune, m)
        return None if rc < 0 else bool(rc)

    def grid_tight_check(self, uint64_t seed, bint stock=False):
        """Salic family, for the tests: along one path (picked by seed) through the position's
        deep grid, the tight slots (csrc/salic.c, grid_tight) are the same worked out with SSE2
        and plainly, and wherever a point has no room to spare, every step taking a card of a
        tight slot that is not its pile's last reaches an infeasible point. The steps so
        checked; -1 where the two masks differ, -2 where such a step is feasible."""
        if self.game.family != "salic":
            raise ValueError("grid_tight_check is for the Salic family")
        return salic_grid_tight_check(<SalicDeal *>self.game.deal, <SalicState *>&self.state,
                                      seed, stock)

    def room_dead(self, bint deep=True, bint whole=False, bint stock=False, int cap=0):
        """Salic family, for the tests: the parking-room test alone (deep: with deep-room's
        larger grid), its walk cut short by the step budget the search gives it or (whole)
        never, as in deep-room near the end of the stock; stock: with stuck-stock's piles of
        stock cards, where it applies (a PySol profile, the stock not empty).  cap > 0: the
        whole deep test as at a random line's root under root-walk-cap, its walk at most cap
        steps (no stock piles): None where the cap cut it short."""
        if self.game.family != "salic":
            raise ValueError("room_dead is for the Salic family")
        cdef int rc
        if cap > 0:
            rc = salic_room_capped(<SalicDeal *>self.game.deal, <SalicState *>&self.state, cap)
            return None if rc < 0 else bool(rc)
        return bool(salic_room_dead(<SalicDeal *>self.game.deal, <SalicState *>&self.state, deep,
                                    whole, stock))

    def room_memo_check(self, bint deep=True, bint whole=False, bint reset=False,
                        bint stock=False):
        """Salic family, for the tests: the parking-room test (as room_dead) without the room
        memo and through one memo that these calls share (reset: emptied first), as a search
        shares one over a deal's positions. (verdict, hit, points): the verdict where the two
        agree (in verdict, and in the steps they count where the walk may be cut short), else
        None; hit, whether the memo had the grid; points, whether dead points a whole walk put
        there answered (the steps then differ: csrc/salic.c, POINT_DEPTH)."""
        if self.game.family != "salic":
            raise ValueError("room_memo_check is for the Salic family")
        cdef int rc = salic_room_memo_check(<SalicDeal *>self.game.deal,
                                            <SalicState *>&self.state, deep, whole, reset,
                                            stock)
        if rc == -2:
            raise MemoryError()
        return (None, False, False) if rc < 0 else (bool(rc & 1), bool(rc & 2), bool(rc & 4))

    def room_witness_check(self, bint reset=False, bint stock=False):
        """Salic family, for the tests: deep-room's whole test (as room_dead with whole) on its
        own and through the witness paths that these calls share (reset: none to start with),
        as the near zone of a search runs it over a deal's positions (csrc/salic.c, WITNESS).
        (verdict, replayed): the verdict where the two agree, else None; replayed, whether the
        path of an earlier test answered."""
        if self.game.family != "salic":
            raise ValueError("room_witness_check is for the Salic family")
        cdef int rc = salic_room_witness_check(<SalicDeal *>self.game.deal,
                                               <SalicState *>&self.state, reset, stock)
        return (None, False) if rc < 0 else (bool(rc & 1), bool(rc & 2))

    def choice_cost(self, int mode):
        """The discrepancies a probe in this mode pays per step down this position's move list
        (GameOps.choice_cost; 1 where the game weighs none)."""
        if self.game.ops.choice_cost == NULL:
            return 1
        return self.game.ops.choice_cost(self.game.deal, &self.state, mode)

    def level(self):
        """How far the stock has gone (GameOps.level; deal-cache): never lower after a move,
        higher after every deal or redeal."""
        return self.game.ops.level(self.game.deal, &self.state)

    def key(self):
        cdef Key k
        self.game.ops.key(self.game.deal, &self.state, &k)
        return (k.w[0], k.w[1], k.w[2])

    def describe(self):
        """The position as plain data (deal positions, not card names)."""
        cdef SalicState *s
        cdef BannerState *b
        cdef BannerDeal *bd
        cdef int q, i, t
        if self.game.family == "salic":
            s = <SalicState *>&self.state
            piles = []
            for q in range(s.nq):
                pile = [s.parked[q]] if s.parked[q] != 0xff else []
                piles.append(pile)
            present = s.present[0] | (<object>s.present[1] << 64)
            return {"dealt": s.sp, "queens": s.nq, "present": present,
                    "parked": [s.parked[q] if s.parked[q] != 0xff else None for q in range(s.nq)],
                    "counts": [s.cnt[i] for i in range(13)], "on_foundations": s.on_found,
                    "tops": [salic_top(<SalicDeal *>self.game.deal, s, q) for q in range(s.nq)]}
        b = <BannerState *>&self.state
        bd = <BannerDeal *>self.game.deal
        present = b.present[0] | (<object>b.present[1] << 64)
        waste = [i for i in range(bd.talon) if (present >> i) & 1 and i < b.p]
        stock = [i for i in range(bd.talon) if (present >> i) & 1 and i >= b.p]
        return {"cells": [b.cell[i] for i in range(bd.cells)],
                "waste": [bd.rank[i] for i in waste], "stock": [bd.rank[i] for i in stock],
                "passes": b.passes, "runs": b.run, "foundation": b.k,
                "needed": banner_needed(bd, b)}

    def trace(self):
        """Banner family, for the tests: the prefix sweep's trace the state carries
        (csrc/banner.h; not part of the position): None where nothing is known, else the stock
        count of the position it is of and its known values."""
        if self.game.family != "banner":
            raise ValueError("trace is for the Banner family")
        cdef BannerState *b = <BannerState *>&self.state
        n = b.trace[14]
        if n == 255:
            return None
        return {"stock": b.trace[15], "values": [b.trace[i] for i in range(n)]}


def memo_keep_check():
    """For the tests: a room memo taken, an entry put in, given back and taken again as the next
    search's (csrc/salic.c, memo_take): (the same memo came back, the next search found the
    entry, its own search found it)."""
    cdef int rc = salic_memo_keep_check()
    if rc < 0:
        raise MemoryError()
    return bool(rc & 1), bool(rc & 2), bool(rc & 4)


def release_kept_memos():
    """Free the room memos the Salic searches keep between searches (docs/solver.md,
    "deep-room", *Room memo*, "Kept"); returns their bytes (0: none was kept)."""
    return salic_memo_release()


def memo_ways(list ops):
    """For the tests: the Salic room memo's replacement on a memo of one pair of slots. Each op
    is ("put", v) or ("find", v) for a small signature v (0..255); returns, per op, whether a
    find found it (False for a put)."""
    cdef int n = len(ops), i, rc
    cdef int *codes = <int *>malloc(sizeof(int) * (n + 1))
    cdef int *out = <int *>malloc(sizeof(int) * (n + 1))
    if codes == NULL or out == NULL:
        free(codes)
        free(out)
        raise MemoryError()
    try:
        for i in range(n):
            kind, v = ops[i]
            if kind not in ("put", "find") or not 0 <= v < 256:
                raise ValueError(f"bad op {ops[i]!r}")
            codes[i] = 2 * v + (kind == "find")
        rc = salic_memo_ways_check(codes, n, out)
        if rc < 0:
            raise AssertionError("an entry found holds another signature's steps")
        return [bool(out[i]) for i in range(n)]
    finally:
        free(codes)
        free(out)


cdef class KeyTable:
    """The core's transposition table on its own, for tests: a set of 3-word keys (word 1 must
    have bit 63 set) that may use at most ``max_bytes``."""
    cdef Table table

    def __cinit__(self, size_t max_bytes):
        if table_init(&self.table, max_bytes) != 0:
            raise MemoryError()

    def __dealloc__(self):
        table_free(&self.table)

    cdef Key _key(self, tuple words) except *:
        cdef Key k
        k.w[0], k.w[1], k.w[2] = words
        if not k.w[1] >> 63:
            raise ValueError("word 1 of a key must have bit 63 set")
        return k

    def insert(self, tuple words):
        """"new", "seen", "full" or "time"."""
        cdef Key k = self._key(words)
        cdef int rc = table_insert(&self.table, &k)
        return ("new" if rc == TABLE_NEW else "seen" if rc == TABLE_SEEN else
                "time" if rc == TABLE_TIME else "full")

    def insert_many(self, uint64_t start, uint64_t n):
        """Insert the n keys (i, 2**63 | i, i ** 2 mod 2**64) for i from start on, fast, until one
        is not new; how many were new."""
        cdef Key k
        cdef uint64_t i
        for i in range(start, start + n):
            k.w[0] = i
            k.w[1] = (<uint64_t>1 << 63) | i
            k.w[2] = i * i
            if table_insert(&self.table, &k) != TABLE_NEW:
                return i - start
        return n

    def set_deadline(self, double seconds, double grow_rate=0.0):
        """No grow may end later than seconds from now (<= 0: no deadline), by an estimate from
        the last grow's seconds per unit of work (grow_rate until one has been timed)."""
        table_set_deadline(&self.table, search_clock() + seconds if seconds > 0 else 0.0,
                           grow_rate)

    @staticmethod
    def forget_rates():
        """Forget the rates of the process's recent big grows, which every table's deadline
        estimate also uses (csrc/table.c, recent_rate)."""
        table_forget_rates()

    @property
    def grow_rate(self):
        """Seconds per unit of work (csrc/table.c, grow_units) that the last timed grow took, or
        the rate set_deadline gave (0: none)."""
        return self.table.grow_rate

    def __contains__(self, tuple words):
        cdef Key k = self._key(words)
        return table_contains(&self.table, &k) != 0

    def __len__(self):
        return self.table.count

    @property
    def capacity(self):
        return self.table.capacity

    @property
    def limit(self):
        """The count at which the table grows next, or is full."""
        return self.table.limit

    def key_hash(self, tuple words):
        """The hash that places a key (csrc/table.c, key_hash)."""
        cdef Key k = self._key(words)
        return table_key_hash(&k)

    def tags_agree(self):
        """Whether every slot in use (tag not 0) has the tag its key says: 0x80 and the low 7
        bits of the key's hash.  (A slot is in use exactly when its tag is not 0; an empty
        slot's key is never read, and after a reset it may hold an old one.)"""
        cdef uint64_t i
        for i in range(self.table.capacity):
            if self.table.tags[i] != 0 and (
                    self.table.tags[i] != 0x80 | (table_key_hash(&self.table.slots[i]) & 0x7f)):
                return False
        return True

    def keys(self):
        """Every stored key (the slots whose tag is not 0), in slot order."""
        cdef uint64_t i
        return [(self.table.slots[i].w[0], self.table.slots[i].w[1], self.table.slots[i].w[2])
                for i in range(self.table.capacity) if self.table.tags[i] != 0]

    def reset(self, uint64_t want=0):
        """Empty the table, keeping its memory (as the search does between its searches), at
        the first of its sizes whose limit reaches want that the memory held allows."""
        table_reset(&self.table, want)

    @property
    def allocated(self):
        """Slots the arrays hold: the capacity, or more after a reset."""
        return self.table.allocated
