#include "banner.h"

#include <stddef.h>
#include <string.h>

#if defined(__SSE2__) && !defined(BANNER_SCALAR_SWEEP)
#define BANNER_SSE2 1
#include <emmintrin.h>
#endif

#define SIX 5

_Static_assert(offsetof(BannerState, trace) == 32 && sizeof(BannerState) == 48,
               "the trace is the state's third 16-byte word");
_Static_assert(BANNER_TRACE <= BANNER_TRACE_N, "the trace's values come before its count");
_Static_assert(sizeof(BannerState) <= sizeof(StateBuf), "a Banner state fits a StateBuf");

static inline uint64_t below_mask(int p, int word) {
    /* bits of talon positions < p within word */
    int lo = word * 64;
    if (p <= lo) return 0;
    if (p >= lo + 64) return ~0ULL;
    return (1ULL << (p - lo)) - 1;
}

/* The cards in the stock with the waste/stock split at p: the present talon cards from p on. */
static inline int stock_from(const BannerState *s, int p) {
    return __builtin_popcountll(s->present[0] & ~below_mask(p, 0)) +
           __builtin_popcountll(s->present[1] & ~below_mask(p, 1));
}

static inline int stock_count(const BannerState *s) { return stock_from(s, s->p); }

int banner_waste_top(const BannerState *s) {
    uint64_t hi = s->present[1] & below_mask(s->p, 1);
    if (hi) return 127 - __builtin_clzll(hi);
    uint64_t lo = s->present[0] & below_mask(s->p, 0);
    if (lo) return 63 - __builtin_clzll(lo);
    return -1;
}

int banner_stock_next(const BannerDeal *d, const BannerState *s) {
    (void)d;
    uint64_t lo = s->present[0] & ~below_mask(s->p, 0);
    if (lo) return __builtin_ctzll(lo);
    uint64_t hi = s->present[1] & ~below_mask(s->p, 1);
    if (hi) return 64 + __builtin_ctzll(hi);
    return -1;
}

int banner_needed(const BannerDeal *d, const BannerState *s) {
    if (s->run == d->reserve) return -1;      /* won: nothing more is needed */
    return (d->base[s->run] + 1 + s->k) % 13;
}

int banner_setup(BannerDeal *d, BannerState *s, const uint8_t *cards, int ncards, int reserve,
                 int cells, int passes, int sixes_reserve) {
    memset(d, 0, sizeof *d);
    memset(s, 0, sizeof *s);
    uint8_t rest[BANNER_MAX_TALON + 16], res[8];
    int nrest = 0, nres = 0;
    if (reserve > 8 || cells > BANNER_MAX_CELLS || ncards > BANNER_MAX_TALON) return -1;
    for (int i = 0; i < ncards; i++) {
        int r = cards[i] % 13;
        if (sixes_reserve ? r == SIX : i < reserve) {
            if (nres >= reserve) return -1;
            res[nres++] = (uint8_t)r;
        } else {
            rest[nrest++] = (uint8_t)r;
        }
    }
    if (nres != reserve || nrest < cells + 1) return -1;
    d->reserve = reserve;
    d->cells = cells;
    d->passes = passes;
    for (int j = 0; j < reserve; j++) d->base[j] = res[reserve - 1 - j];
    for (int i = 0; i < cells; i++) s->cell[i] = rest[i];
    for (int i = cells; i < BANNER_MAX_CELLS; i++) s->cell[i] = BANNER_EMPTY;
    d->talon = nrest - cells;
    memcpy(d->rank, rest + cells, (size_t)d->talon);
    for (int i = 0; i < d->talon; i++) {
        s->present[i >> 6] |= 1ULL << (i & 63);
        d->rank_mask[d->rank[i]][i >> 6] |= 1ULL << (i & 63);
    }
    for (int j = 0; j < reserve; j++)
        for (int k = 0; k < RUN_LENGTH; k++) d->need[j * RUN_LENGTH + k] = (uint8_t)((d->base[j] + 1 + k) % 13);
    s->p = 1;
    s->passes = 1;
    s->trace[BANNER_TRACE_N] = BANNER_TRACE_NONE;
    return 0;
}

/* Whether rank r is wanted within the next 8 + cells plays beyond the copies in the cells (the
 * horizon was tuned on deals 1..200 and checked on 201..300; it orders moves, it prunes nothing). */
static int wanted_soon(const BannerDeal *d, const BannerState *s, int r) {
    int have = 0;
    for (int i = 0; i < d->cells; i++) have += s->cell[i] == r;
    int j = s->run * RUN_LENGTH + s->k, end = d->reserve * RUN_LENGTH;
    int horizon = 8 + d->cells;
    for (int m = 0; m < horizon && j + m < end; m++)
        if (d->need[j + m] == r && --have < 0) return 1;
    return 0;
}

static int gen_moves(const void *dv, const void *sv, MoveCode *out, int reduced, unsigned prune) {
    const BannerDeal *d = dv;
    const BannerState *s = sv;
    if (s->run == d->reserve) return 0;
    int need = banner_needed(d, s);
    int w = banner_waste_top(s);
    /* Playing the needed rank from a cell or from the waste gives the same position once cells
     * are read as a multiset, and so does playing it from either of two cells: one play suffices.
     * The list is: one play, the turn (deal or redeal), then, unreduced, the other plays, so
     * that a probe (search.c) counts a turn as one step down the list in both modes. */
    MoveCode plays[1 + BANNER_MAX_CELLS];
    int np = 0, n = 0;
    if (w >= 0 && d->rank[w] == need) plays[np++] = MOVE(MV_WASTE, 0, 0);
    for (int i = 0; i < d->cells; i++)
        if (s->cell[i] == need) plays[np++] = MOVE(MV_CELL, i, 0);
    if (np) out[n++] = plays[0];
    int next = banner_stock_next(d, s);
    if (next >= 0) out[n++] = MOVE(MV_DEAL, 0, 0);
    else if (w >= 0 && s->passes < d->passes) out[n++] = MOVE(MV_REDEAL, 0, 0);
    /* PRUNE_CELL_WAIT, an order only (docs/solver.md, "cell-wait"): before the last pass, a
     * play from a cell is tried after the turn when the waste top it would pull into the cell
     * is not wanted soon. */
    if ((prune & PRUNE_CELL_WAIT) && np && n == 2 && MOVE_KIND(out[0]) == MV_CELL && w >= 0 &&
        s->passes < d->passes && !wanted_soon(d, s, d->rank[w])) {
        MoveCode play = out[0];
        out[0] = out[1];
        out[1] = play;
    }
    for (int i = 1; i < np && !reduced; i++) out[n++] = plays[i];
    return n;
}

/* Take the highest talon position out of mask and return its rank. */
static inline int next_down(const BannerDeal *d, uint64_t *mask) {
    int w = mask[1] ? 1 : 0;
    int top = 63 - __builtin_clzll(mask[w]);
    mask[w] &= ~(1ULL << top);
    return d->rank[64 * w + top];
}

/* Put p just above the waste top, so equal positions have equal pointers. */
static inline void settle(BannerState *s) {
    s->p = (uint8_t)(banner_waste_top(s) + 1);
}

static inline void take(BannerState *s, int i) { s->present[i >> 6] &= ~(1ULL << (i & 63)); }

static inline int trace_n(const BannerState *s) { return s->trace[BANNER_TRACE_N]; }
static inline int trace_stock(const BannerState *s) { return s->trace[BANNER_TRACE_STOCK]; }

/* Write the trace word whole: values (16 bytes, the first n of them the trace's; NULL: none),
 * their count n and the stock count of the position they are of. */
static inline void put_trace(BannerState *s, const uint8_t *values, int n, int stock) {
#ifdef BANNER_SSE2
    __m128i v = values ? _mm_loadu_si128((const __m128i *)values) : _mm_setzero_si128();
    _mm_storeu_si128((__m128i *)s->trace, _mm_insert_epi16(v, n | stock << 8, 7));
#else
    uint8_t w[16] = {0};
    if (values) memcpy(w, values, BANNER_TRACE);
    w[BANNER_TRACE_N] = (uint8_t)n;
    w[BANNER_TRACE_STOCK] = (uint8_t)stock;
    memcpy(s->trace, w, sizeof w);
#endif
}

/* The sweep's trace after a play (docs/solver.md, "banner-prefix", *The sweep's trace*): where
 * the waste was empty, the waste is empty after it too, and its sweep has no stage; else, where
 * the trace was the position's own, the play captured the waste top at play 0 (so K_1 = 0), and
 * the child's sweep is the rest of the parent's: its K_i is the parent's K_(i+1), over the same
 * stock.  Otherwise nothing is known. */
static void trace_after_play(const void *pv, BannerState *s) {
    const BannerState *parent = pv;
    int n = trace_n(parent);
    if (banner_waste_top(parent) < 0) {
        put_trace(s, NULL, 0, stock_count(s));
    } else if (n != BANNER_TRACE_NONE && n >= 1 && trace_stock(parent) == stock_count(parent) &&
               parent->trace[0] == 0) {
#ifdef BANNER_SSE2
        __m128i v = _mm_srli_si128(_mm_loadu_si128((const __m128i *)parent->trace), 1);
        _mm_storeu_si128((__m128i *)s->trace,
                         _mm_insert_epi16(v, (n - 1) | trace_stock(parent) << 8, 7));
#else
        uint8_t w[16] = {0};
        memcpy(w, parent->trace + 1, BANNER_TRACE - 1);
        put_trace(s, w, n - 1, trace_stock(parent));
#endif
    } else {
        put_trace(s, NULL, BANNER_TRACE_NONE, 0);
    }
}

/* A deal leaves the trace as it is: the position it is of is on the child's line of deals too.
 * A redeal empties the waste: a sweep with no stage. */
static void apply(const void *dv, const void *sv, MoveCode m, void *outv) {
    const BannerDeal *d = dv;
    BannerState *s = outv;
    memcpy(s, sv, sizeof *s);
    switch (MOVE_KIND(m)) {
    case MV_DEAL: {
        /* Canonical positions (docs/solver.md, "canonical keys"): the card dealt moves to the
         * first talon position of its rank above the waste top.  That position is free: it is
         * at most the card's own, and nothing lies between the waste top and the stock. */
        int q = banner_stock_next(d, s), r = d->rank[q], from = banner_waste_top(s) + 1;
        uint64_t m0 = d->rank_mask[r][0] & ~below_mask(from, 0);
        int c = m0 ? __builtin_ctzll(m0)
                   : 64 + __builtin_ctzll(d->rank_mask[r][1] & ~below_mask(from, 1));
        take(s, q);
        s->present[c >> 6] |= 1ULL << (c & 63);
        s->p = (uint8_t)(c + 1);
        return;
    }
    case MV_REDEAL: {
        /* The waste becomes the stock, in the same order: its cards move to the rightmost
         * positions that hold their ranks in that order (canonical keys). */
        uint64_t waste[2] = {s->present[0], s->present[1]};
        int limit = d->talon;
        s->present[0] = s->present[1] = 0;
        while (waste[0] | waste[1]) {
            int r = next_down(d, waste);
            uint64_t m1 = d->rank_mask[r][1] & below_mask(limit, 1);
            limit = m1 ? 127 - __builtin_clzll(m1)
                       : 63 - __builtin_clzll(d->rank_mask[r][0] & below_mask(limit, 0));
            s->present[limit >> 6] |= 1ULL << (limit & 63);
        }
        s->p = 0;
        s->passes++;
        put_trace(s, NULL, 0, stock_count(s));
        return;
    }
    case MV_WASTE:
        take(s, banner_waste_top(s));
        settle(s);
        break;
    default: {          /* MV_CELL: the cell is refilled from the waste top, else the stock */
        int i = MOVE_SRC(m), w = banner_waste_top(s);
        if (w >= 0) {
            s->cell[i] = d->rank[w];
            take(s, w);
            settle(s);
        } else {
            int next = banner_stock_next(d, s);
            if (next >= 0) {
                s->cell[i] = d->rank[next];
                take(s, next);
            } else {
                s->cell[i] = BANNER_EMPTY;
            }
        }
    }
    }
    trace_after_play(sv, s);
    if (++s->k == RUN_LENGTH) {
        s->k = 0;
        s->run++;
    }
}

static int is_won(const void *dv, const void *sv) {
    const BannerDeal *d = dv;
    const BannerState *s = sv;
    return s->run == d->reserve;
}

/* Key: talon bits (up to 104: word 0 and the low 40 bits of word 1; the positions are
 * canonical, see apply), then p (7 bits) and the pass (2 bits) in word 1; word 2 the cells as a
 * multiset: a 4-bit count per rank (BANNER_EMPTY included, 14 counts of at most 8).  The runs done and the foundation height follow from the
 * cards left, so they need no bits. */
static void make_key(const void *dv, const void *sv, Key *k) {
    const BannerDeal *d = dv;
    const BannerState *s = sv;
    uint64_t w2 = 0;
    for (int i = 0; i < d->cells; i++) w2 += 1ULL << (4 * s->cell[i]);
    k->w[0] = s->present[0];
    k->w[1] = s->present[1] | ((uint64_t)s->p << 40) | ((uint64_t)s->passes << 48) | KEY_VALID;
    k->w[2] = w2;
}

/* PRUNE_BANNER_REACH (docs/solver.md, "capture bound").  In the last pass every play takes the
 * waste top ("captures" it: it is played or goes into the cell just emptied), and a deal pushes
 * the top down.  So before play m exactly m+1 talon cards have been captured, and with the cells
 * they must hold every rank the plays 0..m need.  Captured waste cards are always a top segment
 * of the waste (a card is reached only after all above it); stock cards are taken to be free to
 * capture in any order (a relaxation).  Taking the a top waste cards leaves m+1-a captures for
 * the stock; if for some m no a works, no line wins.  The smallest a that leaves no rank short
 * of stock copies is the best a: every deeper card costs one capture and saves at most one. */
static int capture_bound_dead(const BannerDeal *d, const BannerState *s) {
    int have[13] = {0};      /* cells + captured waste top segment */
    int stock[13];
    for (int i = 0; i < d->cells; i++)
        if (s->cell[i] != BANNER_EMPTY) have[s->cell[i]]++;
    uint64_t below[2] = {s->present[0] & below_mask(s->p, 0), s->present[1] & below_mask(s->p, 1)};
    uint64_t above[2] = {s->present[0] & ~below[0], s->present[1] & ~below[1]};
    for (int r = 0; r < 13; r++)
        stock[r] = __builtin_popcountll(above[0] & d->rank_mask[r][0]) +
                   __builtin_popcountll(above[1] & d->rank_mask[r][1]);
    int nwaste = __builtin_popcountll(below[0]) + __builtin_popcountll(below[1]);
    /* need[r]: copies of r the plays so far take; from_stock: captures the stock must supply */
    int need[13] = {0}, from_stock = 0, short_ranks = 0, a = 0;
    int j = s->run * RUN_LENGTH + s->k, end = d->reserve * RUN_LENGTH;
    for (int m = 0; j + m < end; m++) {
        int r = d->need[j + m];
        need[r]++;
        if (need[r] > have[r]) {
            from_stock++;
            if (need[r] - have[r] == stock[r] + 1) short_ranks++;
        }
        while (short_ranks > 0) {            /* the stock cannot cover: go deeper in the waste */
            if (a == nwaste) return 1;
            int c = next_down(d, below);
            a++;
            if (need[c] > have[c]) {
                from_stock--;
                if (need[c] - have[c] == stock[c] + 1) short_ranks--;
            }
            have[c]++;
        }
        if (from_stock > m + 1 - a) return 1;
        /* With the waste all taken, the stock covers every later play: nothing more to learn. */
        if (a == nwaste) return 0;
    }
    return 0;
}

/* PRUNE_BANNER_PREFIX (docs/solver.md, "prefix bound").  In the last pass every waste card must
 * be captured, the i-th from the top after the (i-1)-th; and when it is captured, every stock
 * card dealt so far sits above it and has been captured already, so the stock cards captured by
 * then are exactly the first K_i of the stock, with K_i never falling as i grows.  That capture
 * is play i-1+K_i, so the cells, the top i waste cards and the first K_i stock cards must hold
 * every rank plays 0..i-1+K_i need.  The smallest K_i that meets this (and is at least K_(i-1))
 * is the best choice for every later i, which only asks K_(i+1) >= K_i; if the stock runs out
 * first, no line wins.  The waste is the present talon cards below p, the stock those from p.
 *
 * The sweep's trace (docs/solver.md, "banner-prefix", *The sweep's trace*): a sweep that passes
 * writes its first BANNER_TRACE values K_1, K_2, ... into out (*out_n of them).  z (zn values,
 * or zn < 0: none) is the trace of the position before the last deal, Z, whose stock began with
 * the card now on top of the waste.  This position's waste is that card and then Z's, and its
 * stock Z's without that card, so its stage i and Z's stage i - 1 weigh the same cards against
 * the same plays when K_i + 1 = Z's K_(i-1); once that holds at the end of a stage, the rest of
 * this sweep is the rest of Z's, which passed: it passes, with K_t = Z's K_(t-1) - 1 after. */
#define TRACE_STAGE_END() do {                                               \
        stage++;                                                             \
        if (stage <= BANNER_TRACE) out[stage - 1] = (uint8_t)taken;          \
        if (stage >= 2 && stage - 1 <= zn && z[stage - 2] == taken + 1) {    \
            int n = zn + 1 < BANNER_TRACE ? zn + 1 : BANNER_TRACE;           \
            for (int t = stage + 1; t <= n; t++) out[t - 1] = (uint8_t)(z[t - 2] - 1); \
            *out_n = n;                                                      \
            return 0;                                                        \
        }                                                                    \
    } while (0)

static int prefix_sweep_scalar(const BannerDeal *d, const BannerState *s, int p, const uint8_t *z,
                               int zn, uint8_t *out, int *out_n) {
    /* bal[r]: copies of rank r held (cells and captures) minus copies wanted (plays counted so
     * far; each capture counts one more play, until the runs end); short_ranks: ranks below 0.
     * Index 13 (BANNER_EMPTY) is an empty cell, never wanted. */
    int bal[14] = {0};
    int short_ranks = 0;
    for (int i = 0; i < d->cells; i++) bal[s->cell[i]]++;
    uint64_t waste[2] = {s->present[0] & below_mask(p, 0), s->present[1] & below_mask(p, 1)};
    uint64_t stock[2] = {s->present[0] & ~waste[0], s->present[1] & ~waste[1]};
    int j = s->run * RUN_LENGTH + s->k;
    const uint8_t *need = d->need + j;
    int left = d->reserve * RUN_LENGTH - j;      /* plays still to come */
    int w = stock[0] ? 0 : 1;
    int last = -1;                               /* the rank of the last play counted */
    int stage = 0, taken = 0;                    /* waste cards and stock cards captured */
#define CAPTURE(r) do {                                                  \
        if (++bal[r] == 0) short_ranks--;                                \
        last = -1;                                                       \
        if (left > 0) { left--; last = *need++; if (--bal[last] == -1) short_ranks++; } \
    } while (0)
    while (waste[0] | waste[1]) {
        int r = next_down(d, waste);
        CAPTURE(r);
        while (short_ranks || (r != last && bal[r] == 0)) {   /* take the next stock card */
            if (!stock[w] && (w == 1 || !stock[w = 1])) return 1;
            int pos = __builtin_ctzll(stock[w]);
            stock[w] &= stock[w] - 1;
            taken++;
            CAPTURE(d->rank[64 * w + pos]);
        }
        TRACE_STAGE_END();
    }
#undef CAPTURE
    *out_n = stage < BANNER_TRACE ? stage : BANNER_TRACE;
    return 0;
}

#ifdef BANNER_SSE2
/* The same sweep with the 14 balances in the bytes of one SSE2 register (each stays within
 * -104..104): a capture adds a one-hot vector, a play subtracts one, and the sign bits say which
 * ranks are short.  Plain C where SSE2 is missing or with -DBANNER_SCALAR_SWEEP;
 * banner_prefix_check (CorePosition.prefix_sweep_check) holds the two to each other. */
static const int8_t ONE_AT_15[32] = {[15] = 1};

static inline __m128i one_hot(int r) {     /* 1 in byte r (0..15); r = -1: all zero */
    return _mm_loadu_si128((const __m128i *)(ONE_AT_15 + 15 - r));
}

static int prefix_sweep_sse2(const BannerDeal *d, const BannerState *s, int p, const uint8_t *z,
                             int zn, uint8_t *out, int *out_n) {
    __m128i bal = _mm_setzero_si128();
    const __m128i zero = _mm_setzero_si128();
    for (int i = 0; i < d->cells; i++) bal = _mm_add_epi8(bal, one_hot(s->cell[i]));
    uint64_t waste[2] = {s->present[0] & below_mask(p, 0), s->present[1] & below_mask(p, 1)};
    /* the stock word being read, its first talon position, and the word after it */
    uint64_t cur = s->present[0] & ~waste[0], later = s->present[1] & ~waste[1];
    int base = 0;
    if (!cur) {
        cur = later;
        later = 0;
        base = 64;
    }
    int j = s->run * RUN_LENGTH + s->k;
    const uint8_t *need = d->need + j;
    int left = d->reserve * RUN_LENGTH - j;
    int last = -1;
    int stage = 0, taken = 0;
    uint64_t acc0 = 0, acc1 = 0;                 /* the trace's first and second 8 values */
#define CAPTURE(r) do {                                                  \
        bal = _mm_add_epi8(bal, one_hot(r));                             \
        last = -1;                                                       \
        if (left > 0) { left--; last = *need++; bal = _mm_sub_epi8(bal, one_hot(last)); } \
    } while (0)
#define SHORT_MASK 0x1fff
    while (waste[0] | waste[1]) {
        int r = next_down(d, waste);
        CAPTURE(r);
        while ((_mm_movemask_epi8(bal) & SHORT_MASK) ||
               (r != last && ((_mm_movemask_epi8(_mm_cmpeq_epi8(bal, zero)) >> r) & 1))) {
            if (!cur) {
                if (!later) return 1;
                cur = later;
                later = 0;
                base = 64;
            }
            int pos = __builtin_ctzll(cur);
            cur &= cur - 1;
            taken++;
            CAPTURE(d->rank[base + pos]);
        }
        /* The stage's end (TRACE_STAGE_END, with the trace kept in two registers and stored
         * as one 16-byte word). */
        stage++;
        if (stage <= 8) acc0 |= (uint64_t)taken << (8 * (stage - 1));
        else if (stage <= 16) acc1 |= (uint64_t)taken << (8 * (stage - 9));
        if (stage >= 2 && stage - 1 <= zn && z[stage - 2] == taken + 1) {
            /* Bytes from stage on: Z's, one place later, less one. */
            __m128i theirs = _mm_sub_epi8(_mm_slli_si128(_mm_loadu_si128((const __m128i *)z), 1),
                                          _mm_set1_epi8(1));
            __m128i later = _mm_cmpgt_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                                         12, 13, 14, 15),
                                           _mm_set1_epi8((char)(stage - 1)));
            __m128i mine = _mm_set_epi64x((long long)acc1, (long long)acc0);
            _mm_storeu_si128((__m128i *)out, _mm_or_si128(_mm_and_si128(later, theirs),
                                                          _mm_andnot_si128(later, mine)));
            *out_n = zn + 1 < BANNER_TRACE ? zn + 1 : BANNER_TRACE;
            return 0;
        }
    }
#undef SHORT_MASK
#undef CAPTURE
    _mm_storeu_si128((__m128i *)out, _mm_set_epi64x((long long)acc1, (long long)acc0));
    *out_n = stage < BANNER_TRACE ? stage : BANNER_TRACE;
    return 0;
}
#endif
#undef TRACE_STAGE_END

/* The sweep with the waste below p: 1 when it fails; when it passes, out gets its trace. */
static int prefix_sweep(const BannerDeal *d, const BannerState *s, int p, const uint8_t *z, int zn,
                        uint8_t *out, int *out_n) {
#ifdef BANNER_SSE2
    return prefix_sweep_sse2(d, s, p, z, zn, out, out_n);
#else
    return prefix_sweep_scalar(d, s, p, z, zn, out, out_n);
#endif
}

int banner_prefix_check(const BannerDeal *d, const BannerState *s, int p) {
    if (p < 0) p = s->p;
    uint8_t a[16], b[16];
    int na = 0, nb = 0;
    int plain = prefix_sweep_scalar(d, s, p, NULL, -1, a, &na);
    int fast = prefix_sweep(d, s, p, NULL, -1, b, &nb);
    if (plain != fast) return -1;
    if (!plain && (na != nb || memcmp(a, b, (size_t)na) != 0)) return -1;
    return plain;
}

/* Use the trace of the position before a deal (-DBANNER_TRACE_MERGE=0: never; the sweeps then
 * run whole, and the search is node for node the same). */
#ifndef BANNER_TRACE_MERGE
#define BANNER_TRACE_MERGE 1
#endif

/* The prefix bound at the position's own waste, with its parent's trace where the state holds
 * it (the position before the last deal); when it passes, the state keeps its own trace. */
static int own_prefix_dead(const BannerDeal *d, BannerState *s) {
    int count = stock_count(s), zn = -1, n = 0;
    uint8_t z[16], out[16];
    if (BANNER_TRACE_MERGE && trace_n(s) != BANNER_TRACE_NONE && trace_stock(s) == count + 1) {
        zn = trace_n(s);
        memcpy(z, s->trace, sizeof z);
    }
    if (prefix_sweep(d, s, s->p, z, zn, out, &n)) return 1;
    put_trace(s, out, n, count);
    return 0;
}

/* Whether rank r is in a cell. */
static inline int in_cells(const BannerDeal *d, const BannerState *s, int r) {
    for (int i = 0; i < d->cells; i++)
        if (s->cell[i] == r) return 1;
    return 0;
}

/* PRUNE_BANNER_AHEAD (docs/solver.md, "banner-ahead"): where no play is possible the only move
 * is a deal, and so on until the first stock card of the rank needed is dealt.  The prefix
 * bound is then run on the position at the end of that chain (its waste reaching up to that
 * card), which is dead if no stock card has that rank (need, the rank needed).  A deal never makes the bound weaker, so
 * the positions inside the chain need no test of their own. */
static int ahead_dead(const BannerDeal *d, BannerState *s, int need) {
    uint64_t m0 = d->rank_mask[need][0] & s->present[0] & ~below_mask(s->p, 0);
    uint64_t m1 = d->rank_mask[need][1] & s->present[1] & ~below_mask(s->p, 1);
    if (!(m0 | m1)) return 1;
    int pos = m0 ? __builtin_ctzll(m0) : 64 + __builtin_ctzll(m1), n = 0;
    uint8_t out[16];
    if (prefix_sweep(d, s, pos + 1, NULL, -1, out, &n)) return 1;
    /* The chain's end is on this position's line of deals: the state keeps its trace. */
    put_trace(s, out, n, stock_from(s, pos + 1));
    return 0;
}

/* The last pass's dead-end tests, each under its own switch.  After a play from a position the
 * prefix bound found alive it needs no second look: the play captured the waste top at play 0,
 * which is where the parent's sweep put it (a play is possible only when the cells or that top
 * hold the rank needed), so the child's sweep is the rest of the parent's (docs/solver.md).
 * With PRUNE_BANNER_AHEAD a position where no play is possible is tested at the end of its
 * chain of deals (ahead_dead), and the positions inside such a chain (reached by a deal from a
 * position where no play was possible) are not tested again: the test at the chain's start
 * covered them (docs/solver.md, "banner-ahead").  A sweep that passes leaves its trace in the
 * state, for the sweeps of the positions after the next deal. */
static int is_dead(const void *dv, void *sv, unsigned prune, MoveCode via, void *scratch) {
    (void)scratch;
    const BannerDeal *d = dv;
    BannerState *s = sv;
    if (s->passes < d->passes) return 0;
    if ((prune & PRUNE_BANNER_REACH) && s->p != 0 && capture_bound_dead(d, s)) return 1;
    int kind = via == MOVE_NONE ? -1 : MOVE_KIND(via);
    int played = kind == MV_WASTE || kind == MV_CELL;
    int prefix = (prune & PRUNE_BANNER_PREFIX) != 0;
    if (!(prune & PRUNE_BANNER_AHEAD))
        return prefix && s->p != 0 && !played && own_prefix_dead(d, s);
    int need = banner_needed(d, s);
    int cells = in_cells(d, s, need);
    int top = banner_waste_top(s);
    if (kind == MV_DEAL && !cells) {
        /* The parent's waste top is the card below the one dealt. */
        uint64_t below[2] = {s->present[0] & below_mask(top, 0), s->present[1] & below_mask(top, 1)};
        if (!(below[0] | below[1]) || next_down(d, below) != need) return 0;    /* in a chain */
    }
    if (cells || (top >= 0 && d->rank[top] == need))
        return prefix && top >= 0 && !played && own_prefix_dead(d, s);
    return ahead_dead(d, s, need);
}

int banner_trace_check(const BannerDeal *d, const BannerState *s) {
    int tn = trace_n(s), tstock = trace_stock(s);
    if (tn == BANNER_TRACE_NONE) return 0;
    if (tn > BANNER_TRACE) return -1;
    /* The position with tstock cards in its stock: the same cards, the waste/stock split moved. */
    int total = __builtin_popcountll(s->present[0]) + __builtin_popcountll(s->present[1]);
    if (tstock > total) return -1;
    int p = 0;
    for (int i = 0, seen = 0; seen < total - tstock; i++)
        if (s->present[i >> 6] >> (i & 63) & 1) {
            seen++;
            p = i + 1;
        }
    uint8_t out[16];
    int n = 0;
    if (prefix_sweep_scalar(d, s, p, NULL, -1, out, &n)) return -1;
    return n >= tn && memcmp(out, s->trace, (size_t)tn) == 0 ? 1 : -1;
}

int banner_dead_check(const BannerDeal *d, BannerState *s, unsigned prune, MoveCode via) {
    BannerState plain = *s;
    plain.trace[BANNER_TRACE_N] = BANNER_TRACE_NONE;
    int v0 = is_dead(d, &plain, prune, via, NULL);
    int v1 = is_dead(d, s, prune, via, NULL);
    if (v0 != v1) return -1;
    if (!v1 && banner_trace_check(d, s) < 0) return -1;
    return v1;
}

/* A probe's discrepancies (docs/solver.md, "order of work").  Before the last pass, straying
 * from the move order costs EARLY_CHOICE_COST.  In the last pass it costs nothing in mode 0,
 * where under each line of the passes before the last pass is searched whole (the prefix bound
 * keeps it small), and 1 in mode 1, which keeps a probe from sinking its budget into one last
 * pass.  Neither wins on every deal.  Mode 1 never costs less than mode 0, so mode 0 is the
 * wide mode (GameOps.modes_nested): a mode-1 probe is skipped where the mode-0 one of its
 * round and rules, run before it, tried all its lines. */
#define EARLY_CHOICE_COST 4

static int choice_cost(const void *dv, const void *sv, int mode) {
    const BannerDeal *d = dv;
    const BannerState *s = sv;
    return s->passes < d->passes ? EARLY_CHOICE_COST : mode == 1;
}

/* The last pass costs nothing in mode 0, and every position after a last-pass one is in it. */
static int sealed(const void *dv, const void *sv) {
    const BannerDeal *d = dv;
    const BannerState *s = sv;
    return s->passes == d->passes ? 0 : -1;
}

/* Passes begun, then cards taken from the stock in this pass (the stock is the present cards
 * from p on): a deal takes one, a cell play takes one when it refills the cell from the stock
 * (the waste being empty), other plays take none (they only move p down to just above the new
 * waste top), and a redeal begins the next pass.  (p itself is no level: a play lowers it.) */
static int level(const void *dv, const void *sv) {
    (void)dv;
    const BannerState *s = sv;
    return s->passes * 256 + (255 - stock_count(s));
}

/* Probes do not look up deal-cache roots (GameOps.probes_skip_deal_cache; docs/solver.md,
 * "deal-cache", "Cost"); -DBANNER_PROBES_SKIP_DEAL_CACHE=0 builds the search that does. */
#ifndef BANNER_PROBES_SKIP_DEAL_CACHE
#define BANNER_PROBES_SKIP_DEAL_CACHE 1
#endif

/* The twin probes (docs/solver.md, "Order of work" and "`cell-wait`"): each probe runs again
 * without cell-wait. */
static int twin_rules(const void *dv, unsigned prune, unsigned *sets) {
    (void)dv;
    if (!(prune & PRUNE_CELL_WAIT)) return 0;
    sets[0] = PRUNE_CELL_WAIT;
    return 1;
}

/* PRUNE_SEALED_CAP (docs/solver.md, "`sealed-cap`"): a mode-0 probe searches a last pass for at
 * most 1/BANNER_SEALED_CAP_DIV of its node budget, in probes of at most BANNER_SEALED_CAP_MAX
 * nodes (rounds 0..6 of search.c's schedule, 20,000 * 2^k nodes): past them, the last passes the
 * probes finish fill the cache that the long searches live on. */
#ifndef BANNER_SEALED_CAP_DIV
#define BANNER_SEALED_CAP_DIV 64
#endif
#ifndef BANNER_SEALED_CAP_MAX
#define BANNER_SEALED_CAP_MAX 1280000
#endif

/* The search made for this game (dfs.h, GAME_DFS): the body with BANNER_OPS known here. */
#include "dfs.h"
extern const GameOps BANNER_OPS;
#if GAME_DFS
static int banner_dfs(DFS_ARGS) {
    (void)ops;
    return DFS_BODY(&BANNER_OPS);
}
#else
#define banner_dfs NULL
#endif

const GameOps BANNER_OPS = {sizeof(BannerState), gen_moves, apply, is_won, make_key, is_dead,
                            choice_cost, EARLY_CHOICE_COST, 0, twin_rules, 0, 2, sealed, level,
                            BANNER_PROBES_SKIP_DEAL_CACHE, 1, 0, NULL, NULL, banner_dfs,
                            BANNER_SEALED_CAP_DIV, BANNER_SEALED_CAP_MAX};
