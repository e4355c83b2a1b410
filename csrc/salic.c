#include "salic.h"
#include "search.h"    /* search_clock: a whole walk reads the search's clock */
#include "table.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
/* The grid walk's arithmetic in SSE2 where the compiler offers it (every x86-64), else plain C
 * (also with -DSALIC_SCALAR_EVAL, to check the two agree). */
#if defined(__SSE2__) && !defined(SALIC_SCALAR_EVAL)
#define GRID_SSE2 1
#include <emmintrin.h>
#endif

#define SIX 5
#define FIVE 4
#define QUEEN 11
#define PARK_NONE SALIC_NONE

/* Down slots run 5 4 3 2 A K: the rank each down card is laid on. */
static const int8_t DOWN_BELOW[13] = {1, 2, 3, 4, -1, -1, -1, -1, -1, -1, -1, -1, 0};

static inline int is_up_rank(int r) { return r >= SIX && r <= 10; }

/* The rank laid on each rank in its chain (6 7 8 9 10 J, 5 4 3 2 A K), or -1. */
static const int8_t NEXT_RANK[13] = {12, 0, 1, 2, 3, 6, 7, 8, 9, 10, -1, -1, -1};

/* A card's face: its rank, and for Glencoe's fives and sixes its suit too (13 + 13 * suit +
 * rank).  Cards of one face are interchangeable everywhere; cards of different faces never
 * compete for the same foundation room. */
static inline int face_index(const SalicDeal *d, int pos) {
    int r = d->rank[pos];
    return d->suited_slots && (r == SIX || r == FIVE) ? 13 + 13 * d->suit[pos] + r : r;
}

static inline int highest_bit(uint64_t lo, uint64_t hi) {
    if (hi) return 127 - __builtin_clzll(hi);
    if (lo) return 63 - __builtin_clzll(lo);
    return -1;
}

int salic_setup(SalicDeal *d, SalicState *s, const uint8_t *cards, int suited_slots,
                int slots_from_start, int park_after_stock, int win_needs_empty_stock) {
    memset(d, 0, sizeof *d);
    memset(s, 0, sizeof *s);
    if (cards[0] % 13 != QUEEN) return -1;
    int q = -1;
    for (int i = 0; i < SALIC_CARDS; i++) {
        int c = cards[i];
        if (c >= 52) return -1;
        d->rank[i] = (uint8_t)(c % 13);
        d->suit[i] = (uint8_t)(c / 13);
        if (c % 13 == QUEEN) {
            q++;
            if (q >= SALIC_QUEENS) return -1;
            d->queen_no[i] = (uint8_t)q;
            d->queen_suit[q] = d->suit[i];
        } else {
            d->queen_no[i] = SALIC_NONE;
            d->seg_mask[q][i >> 6] |= 1ULL << (i & 63);
        }
    }
    d->suited_slots = (uint8_t)suited_slots;
    for (int i = 0; i < SALIC_CARDS; i++) {
        int f = face_index(d, i);
        d->face_mask[f][i >> 6] |= 1ULL << (i & 63);
    }
    if (q != SALIC_QUEENS - 1) return -1;
    for (int n = 1; n <= SALIC_QUEENS; n++) {
        memcpy(d->suit_queens[n], d->suit_queens[n - 1], 4);
        d->suit_queens[n][d->queen_suit[n - 1]]++;
    }
    d->slots_from_start = (uint8_t)slots_from_start;
    d->park_after_stock = (uint8_t)park_after_stock;
    d->win_needs_empty_stock = (uint8_t)win_needs_empty_stock;
    s->sp = 1;
    s->nq = 1;
    memset(s->parked, PARK_NONE, sizeof s->parked);
    return 0;
}

int salic_top(const SalicDeal *d, const SalicState *s, int q) {
    int t = highest_bit(s->present[0] & d->seg_mask[q][0], s->present[1] & d->seg_mask[q][1]);
    if (t >= 0) return t;
    return s->parked[q] == PARK_NONE ? -1 : s->parked[q];
}

int salic_below_top(const SalicDeal *d, const SalicState *s, int q) {
    uint64_t lo = s->present[0] & d->seg_mask[q][0], hi = s->present[1] & d->seg_mask[q][1];
    if (!(lo | hi)) return -1;                       /* the top is the parked card, if any */
    if (hi) hi &= ~(1ULL << (63 - __builtin_clzll(hi)));
    else lo &= ~(1ULL << (63 - __builtin_clzll(lo)));
    int t = highest_bit(lo, hi);
    if (t >= 0) return t;
    return s->parked[q] == PARK_NONE ? -1 : s->parked[q];
}

int salic_pile_size(const SalicDeal *d, const SalicState *s, int q) {
    return __builtin_popcountll(s->present[0] & d->seg_mask[q][0]) +
           __builtin_popcountll(s->present[1] & d->seg_mask[q][1]) + (s->parked[q] != PARK_NONE);
}

/* Free slots that a five (down) or a six (up) of this suit could start. */
static int free_start_slots(const SalicDeal *d, const SalicState *s, int rank, int suit) {
    const uint8_t *played_suit = rank == SIX ? s->six_suit : s->five_suit;
    if (d->suited_slots) return d->suit_queens[s->nq][suit] - played_suit[suit];
    return (d->slots_from_start ? SALIC_QUEENS : s->nq) - s->cnt[rank];
}

/* The rank a card of this rank is laid on in its chain; -1 for a six or a five (they start a
 * slot) and for a queen. */
static inline int rank_below(int rank) {
    if (rank == SIX || rank == FIVE) return -1;
    return is_up_rank(rank) ? rank - 1 : DOWN_BELOW[rank];
}

/* Slots whose top is the rank this card is laid on (or free slots it may start). */
static int room(const SalicDeal *d, const SalicState *s, int rank, int suit) {
    if (rank == SIX || rank == FIVE) return free_start_slots(d, s, rank, suit);
    int below = rank_below(rank);
    if (below < 0) return 0;   /* a queen */
    return s->cnt[below] - s->cnt[rank];
}

/* Copies of pos's face not yet on foundations. */
static int copies_left(const SalicDeal *d, const SalicState *s, int pos) {
    int r = d->rank[pos];
    if (d->suited_slots && (r == SIX || r == FIVE))
        return 2 - (r == SIX ? s->six_suit[d->suit[pos]] : s->five_suit[d->suit[pos]]);
    return 8 - s->cnt[r];
}

/* Cards of pos's face in queen q's pile (pos itself included when it is there). */
static int copies_in_pile(const SalicDeal *d, const SalicState *s, int pos, int q) {
    int f = face_index(d, pos);
    int n = __builtin_popcountll(s->present[0] & d->seg_mask[q][0] & d->face_mask[f][0]) +
            __builtin_popcountll(s->present[1] & d->seg_mask[q][1] & d->face_mask[f][1]);
    return n + (s->parked[q] != PARK_NONE && face_index(d, s->parked[q]) == f);
}

/* PRUNE_SAFE_FOUNDATION: no other card can ever compete with this one for a slot, because
 * there is room for every copy of its rank (or suit, for Glencoe's starts) still to be played. */
static int is_safe(const SalicDeal *d, const SalicState *s, int pos) {
    return room(d, s, d->rank[pos], d->suit[pos]) >= copies_left(d, s, pos);
}

/* The rank the card t (the last pile's top) is laid on in its chain, or -1 (no card, a six or
 * a five): the plays of that rank feed the last pile (PRUNE_FEED_FIRST). */
static int feed_rank(const SalicDeal *d, int t) {
    return t < 0 ? -1 : rank_below(d->rank[t]);
}

/* PRUNE_LAZY_FEED (docs/solver.md, "lazy-feed"): whether a run of lazy plays can end by feeding
 * t, the last pile's top.  A relaxation of the run: take from the tops of the piles other than
 * the last every card that fits, counting each taken card as room for the rank laid on it but
 * never as room taken from its own rank (fives and sixes: the free slots now), until none
 * fits; the run can feed t only if this reaches a card of the rank t is laid on that fits.
 * Every card a real run plays is reached: it is on top once the cards the run played above it
 * are gone, and its room is at most what the relaxation counts. */
static int can_feed(const SalicDeal *d, const SalicState *s, int last, int t) {
    int f = feed_rank(d, t);
    if (f < 0) return 0;
    uint64_t pile[SALIC_QUEENS][2];
    int gain[13] = {0};
    for (int q = 0; q < last; q++) {
        pile[q][0] = s->present[0] & d->seg_mask[q][0];
        pile[q][1] = s->present[1] & d->seg_mask[q][1];
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int q = 0; q < last; q++)
            while (pile[q][0] | pile[q][1]) {
                int c = highest_bit(pile[q][0], pile[q][1]), r = d->rank[c];
                int below = rank_below(r);
                int fits = below >= 0 ? s->cnt[below] + gain[below] - s->cnt[r] > 0
                                      : room(d, s, r, d->suit[c]) > 0;
                if (!fits) break;
                if (r == f) return 1;
                pile[q][c >> 6] &= ~(1ULL << (c & 63));
                gain[r]++;
                changed = 1;
            }
    }
    return 0;
}

static int gen_moves(const void *dv, const void *sv, MoveCode *out, int reduced, unsigned prune) {
    const SalicDeal *d = dv;
    const SalicState *s = sv;
    /* Once the stock is empty no queen is "last": nothing more is dealt onto any of them. */
    int n = 0, nq = s->nq, last = s->sp == SALIC_CARDS ? -1 : nq - 1;
    int top[SALIC_QUEENS];
    int first_empty = -1;               /* first empty queen other than the last */
    for (int q = 0; q < nq; q++) {
        top[q] = salic_top(d, s, q);
        if (top[q] < 0 && q != last && first_empty < 0) first_empty = q;
    }
    int can_park = !d->park_after_stock || s->sp == SALIC_CARDS;
    /* PRUNE_LAZY_PLAYS (docs/solver.md): while dealing, without parking, a play from a pile
     * other than the last is lazy (dst 1).  After one, no deal follows, and a play from the last
     * pile only of the rank laid next on it in its chain. */
    int lazy = (prune & PRUNE_LAZY_PLAYS) && !can_park;
    int after_lazy = lazy && s->lazy;
    int may_deal = s->sp < SALIC_CARDS && !after_lazy;
    int forced = -1;                    /* a pile whose foundation play is forced (pruning) */
    for (int q = 0; q < nq; q++) {
        int t = top[q];
        if (t < 0 || room(d, s, d->rank[t], d->suit[t]) <= 0) continue;
        if (after_lazy && q == last && d->rank[t] != NEXT_RANK[s->lazy - 1]) continue;
        out[n++] = MOVE(MV_FOUND, q, lazy && q != last);
        if (forced >= 0) continue;
        if ((prune & PRUNE_SAFE_FOUNDATION) && is_safe(d, s, t)) forced = q;
        /* Once the stock is empty (docs/solver.md): a lone card that fits, or a card whose face
         * has no copy left outside its own pile. */
        else if (last < 0 && (prune & PRUNE_LONE_CARD) && salic_pile_size(d, s, q) == 1)
            forced = q;
    }
    if (forced < 0 && last < 0 && (prune & PRUNE_LAST_COPIES))
        for (int q = 0; q < nq && forced < 0; q++)
            if (top[q] >= 0 && room(d, s, d->rank[top[q]], d->suit[top[q]]) > 0 &&
                copies_in_pile(d, s, top[q], q) == copies_left(d, s, top[q]))
                forced = q;
    if (forced >= 0) {
        out[0] = MOVE(MV_FOUND, forced, 0);
        return 1;
    }
    if (!reduced || !can_park) {
        if (lazy && n > 0) {
            /* Order only: the play from the last pile, then lazy plays of the rank the last
             * pile's top is laid on, then the deal, then the other lazy plays.  With
             * PRUNE_LAZY_FEED, no lazy play where no run of them can feed the last pile's top. */
            int feed = last >= 0 && (prune & PRUNE_FEED_FIRST) ? feed_rank(d, top[last]) : -1;
            int no_lazy = (prune & PRUNE_LAZY_FEED) && !can_feed(d, s, last, top[last]);
            MoveCode first[MAX_MOVES], rest[MAX_MOVES];
            int nf = 0, nr = 0;
            for (int i = 0; i < n; i++) {
                int q = MOVE_SRC(out[i]);
                if (q == last) first[nf++] = out[i];
            }
            for (int i = 0; i < n && !no_lazy; i++) {
                int q = MOVE_SRC(out[i]);
                if (q == last) continue;
                if (feed >= 0 && d->rank[top[q]] == feed) first[nf++] = out[i];
                else rest[nr++] = out[i];
            }
            n = 0;
            for (int i = 0; i < nf; i++) out[n++] = first[i];
            if (may_deal) out[n++] = MOVE(MV_DEAL, 0, 0);
            for (int i = 0; i < nr; i++) out[n++] = rest[i];
            return n;
        }
        if (may_deal) out[n++] = MOVE(MV_DEAL, 0, 0);
        if (!can_park) return n;
        for (int q = 0; q < nq; q++)
            if (top[q] >= 0)
                for (int e = 0; e < nq; e++)
                    if (top[e] < 0) out[n++] = MOVE(MV_PARK, q, e);
        return n;
    }
    /* Order only: parks that uncover a card which fits a foundation now come before the deal,
     * the other parks after it.  PRUNE_LAZY_ORDER (docs/solver.md, "lazy-order"), while dealing:
     * of the plays, only those from the last pile and those of the rank its top is laid on come
     * before the parks and the deal; the others wait after the deal. */
    MoveCode later[MAX_MOVES], waiting[MAX_MOVES];
    int nl = 0, nw = 0;
    if ((prune & PRUNE_LAZY_ORDER) && last >= 0 && n > 0) {
        int feed = (prune & PRUNE_FEED_FIRST) ? feed_rank(d, top[last]) : -1;
        int kept = 0;
        for (int i = 0; i < n; i++) {
            int q = MOVE_SRC(out[i]);
            if (q == last || d->rank[top[q]] == feed) out[kept++] = out[i];
            else waiting[nw++] = out[i];
        }
        n = kept;
    }
    for (int q = 0; q < nq; q++) {
        if (top[q] < 0) continue;
        int under = salic_below_top(d, s, q);
        int useful = under >= 0 && room(d, s, d->rank[under], d->suit[under]) > 0;
        MoveCode *dst = useful ? out : later;
        int *nd = useful ? &n : &nl;
        /* Empty queens other than the last are interchangeable: try the first only.  Moving the
         * only card of a pile other than the last onto one of them just renames the queens. */
        if (first_empty >= 0 && !(q != last && salic_pile_size(d, s, q) == 1))
            dst[(*nd)++] = MOVE(MV_PARK, q, first_empty);
        if (last >= 0 && top[last] < 0) dst[(*nd)++] = MOVE(MV_PARK, q, last);
    }
    if (s->sp < SALIC_CARDS) out[n++] = MOVE(MV_DEAL, 0, 0);
    for (int i = 0; i < nw; i++) out[n++] = waiting[i];
    for (int i = 0; i < nl; i++) out[n++] = later[i];
    return n;
}

static void take_top(const SalicDeal *d, SalicState *s, int q, int t) {
    uint64_t bit = 1ULL << (t & 63);
    if ((d->seg_mask[q][t >> 6] & bit) && (s->present[t >> 6] & bit))
        s->present[t >> 6] &= ~bit;
    else
        s->parked[q] = PARK_NONE;
}

static void apply(const void *dv, const void *sv, MoveCode m, void *outv) {
    const SalicDeal *d = dv;
    SalicState *s = outv;
    memcpy(s, sv, sizeof *s);
    int kind = MOVE_KIND(m), q = MOVE_SRC(m);
    s->lazy = 0;
    if (kind == MV_DEAL) {
        int pos = s->sp++;
        if (d->queen_no[pos] != SALIC_NONE)
            s->nq++;
        else
            s->present[pos >> 6] |= 1ULL << (pos & 63);
        return;
    }
    int t = salic_top(d, s, q);
    take_top(d, s, q, t);
    if (kind == MV_PARK) {
        int e = MOVE_DST(m);
        /* A card parked back on its own (empty) queen lies just as if it had never left. */
        if (d->seg_mask[e][t >> 6] & (1ULL << (t & 63)))
            s->present[t >> 6] |= 1ULL << (t & 63);
        else
            s->parked[e] = (uint8_t)t;
        return;
    }
    int r = d->rank[t];
    s->cnt[r]++;
    s->on_found++;
    if (r == SIX) s->six_suit[d->suit[t]]++;
    if (r == FIVE) s->five_suit[d->suit[t]]++;
    if (MOVE_DST(m)) s->lazy = (uint8_t)(1 + r);
}

static int is_won(const void *dv, const void *sv) {
    const SalicDeal *d = dv;
    const SalicState *s = sv;
    return s->on_found == 96 && (!d->win_needs_empty_stock || s->sp == SALIC_CARDS);
}

/* The canonical key.  Word 0 and the low 40 bits of word 1: present bits; then the stock
 * pointer, and from bit 47 the state's lazy field (PRUNE_LAZY_PLAYS).  Word 2: one 6-bit entry per queen, the card at the bottom of its pile by face
 * (1 + rank, plus 13 * (suit + 1) for Glencoe's fives and sixes), 0 for none.
 *
 * Queens other than the last that hold at most one card are interchangeable (nothing is dealt
 * onto them; once the stock is empty that includes the last), so their single cards are
 * written as faces, sorted, whether the card is parked or its own segment's.  Every other pile
 * keeps its place, its bottom card written as a face (parked or not), the rest as present bits.
 * Suits are dropped wherever they cannot matter: every face except Glencoe's fives and sixes. */
static inline uint64_t face(const SalicDeal *d, int pos) {
    return 1 + (uint64_t)face_index(d, pos);
}

static void make_key(const void *dv, const void *sv, Key *k) {
    const SalicDeal *d = dv;
    const SalicState *s = sv;
    uint64_t present[2] = {s->present[0], s->present[1]};
    uint64_t entry[SALIC_QUEENS] = {0};
    uint64_t single[SALIC_QUEENS];
    int in_class[SALIC_QUEENS] = {0};
    int ns = 0, last = s->sp == SALIC_CARDS ? -1 : s->nq - 1;
    for (int q = 0; q < s->nq; q++) {
        int size = salic_pile_size(d, s, q);
        if (q != last && size <= 1) {
            in_class[q] = 1;
            uint64_t f = 0;
            int t = size == 1 ? salic_top(d, s, q) : -1;
            if (t >= 0) {
                f = face(d, t);
                if (s->parked[q] == PARK_NONE) present[t >> 6] &= ~(1ULL << (t & 63));
            }
            /* insertion sort, descending */
            int i = ns++;
            while (i > 0 && single[i - 1] < f) { single[i] = single[i - 1]; i--; }
            single[i] = f;
        } else if (s->parked[q] != PARK_NONE) {
            entry[q] = face(d, s->parked[q]);
        } else {
            /* The bottom card is written as a face whether it is parked or its own segment's:
             * the pile reads the same either way. */
            uint64_t lo = present[0] & d->seg_mask[q][0], hi = present[1] & d->seg_mask[q][1];
            if (lo | hi) {
                int t = lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi);
                present[t >> 6] &= ~(1ULL << (t & 63));
                entry[q] = face(d, t);
            }
        }
    }
    for (int q = 0, i = 0; q < s->nq; q++)
        if (in_class[q]) entry[q] = single[i++];
    uint64_t w2 = 0;
    for (int q = 0; q < SALIC_QUEENS; q++) w2 |= entry[q] << (6 * q);
    k->w[0] = present[0];
    k->w[1] = present[1] | ((uint64_t)s->sp << 40) | ((uint64_t)s->lazy << 47) | KEY_VALID;
    k->w[2] = w2;
}

/* PRUNE_PARKING_ROOM (docs/solver.md, "parking room").  The relaxation: the cards of the
 * relaxed piles leave them from the top, one at a time; every other card not on a foundation is
 * playable whenever its rank allows.  A card taken off a relaxed pile is then on a foundation or
 * parked on a queen of its own, and no queen that still holds relaxed cards can hold it.  A point
 * of the grid says how many cards have left each relaxed pile.  There the foundations hold at
 * most cnt[r] cards of rank r (the chain bound in grid_eval), found[r] of them the cards there
 * now, so at least need = sum over r of max(0, removed[r] - (cnt[r] - found[r])) taken cards are
 * parked, and at most 8 - (relaxed piles not yet empty) can be.  Every line from the position
 * walks the grid one card at a time through such feasible points, so if no monotone path of
 * feasible points joins the origin to the end, no line wins.
 *
 * The walk takes two kinds of card as soon as they are on top (grid_close), which keeps every
 * feasible point feasible: a pile's last card (need grows by at most one, and so does the room),
 * and a card of a free rank (grid_eval), which never adds to need. */
#ifndef GRID_MAX
#define GRID_MAX (1 << 16)
#endif
#ifndef GRID_VISITS
#define GRID_VISITS 1000
#endif
#define DEEP_GRID (1 << 20)          /* deep-room's grid (below) */
/* PRUNE_ROOT_WALK_CAP (docs/solver.md, "`root-walk-cap`"): the steps the walk at a random
 * line's root may take before the root is left. */
#ifndef ROOT_WALK_CAP
#define ROOT_WALK_CAP 8000
#endif

/* The walk keeps ranks by their place in the chains, a slot: 8 * chain + place (6 7 8 9 10 J are
 * slots 0..5, 5 4 3 2 A K slots 8..13), so that the two chains are the two halves of 16 bytes.
 * Slots 6, 7, 14 and 15 hold no card. */
static const uint8_t SLOT[13] = {12, 11, 10, 9, 8, 0, 1, 2, 3, 4, 5, 7, 13};

/* A point of the grid: what changes along the walk. */
typedef struct {
    _Alignas(16) uint8_t inpile[16];   /* relaxed cards of each slot not yet taken */
    uint8_t idx[SALIC_QUEENS];      /* cards taken from each relaxed pile */
    uint8_t left, nonempty;         /* relaxed cards not yet taken; relaxed piles not yet empty */
    uint8_t open;                   /* the piles with cards left, a bit each */
    uint16_t free_ranks;            /* the free slots at a closed point (grid_eval) */
    uint16_t tight;                 /* at a closed point the walk has reached with no room to
                                       spare, the slots a card of which, taken, makes it
                                       infeasible (grid_tight); else 0 */
    uint64_t at;                    /* the point's index: sum of idx[p] * stride[p] */
} GridPoint;

typedef struct {
    int k;                          /* relaxed piles */
    int len[SALIC_QUEENS];
    uint64_t stride[SALIC_QUEENS];
    uint8_t card[SALIC_QUEENS][SALIC_CARDS];   /* slots, top first */
    uint8_t found[16], total[16];   /* by slot: on foundations; relaxed copies */
    uint8_t bound[16];              /* found + total */
    int8_t partner[SALIC_QUEENS];   /* the pile sharing this pile's queen (stuck-stock), or -1 */
    uint8_t cand[SALIC_QUEENS];     /* what grid_build made the pile of: 0..7 a queen's pile,
                                       8..15 its stuck stock cards (point_signature) */
    int pairs;                      /* piles with a partner, over two */
    int stuck;                      /* piles of stuck stock cards */
    GridPoint pt;                   /* the origin */
} Grid;

/* The least number of taken cards that are parked at the point (the return value), and the free
 * ranks there (*free_ranks, a bit per slot): ranks whose every relaxed copy, once taken, has a
 * place on the foundations at every later point, as the chain before the rank already allows
 * found[r] + all relaxed copies.  M runs through the greatest inpile of the chain so far, so
 * after rank r it is 8 - cnt[r], and removed[r] - (cnt[r] - found[r]) is
 * bound[r] + M - (inpile[r] + 8); the rank is free when its chain before it has M + bound <= 8.
 * With SSE2 both chains are done at once: a running maximum by three shifts within each 8-byte
 * half, a saturating subtraction for max(0, .), and a sum of bytes. */
static inline int grid_eval_plain(const Grid *g, const GridPoint *pt, unsigned *free_ranks) {
    int need = 0;
    unsigned fr = 0;
    for (int c = 0; c < 16; c += 8) {
        int m = 0;
        for (int s = c; s < c + 6; s++) {
            if (m + g->bound[s] <= 8) fr |= 1u << s;
            if (pt->inpile[s] > m) m = pt->inpile[s];
            int over = g->bound[s] + m - (pt->inpile[s] + 8);
            if (over > 0) need += over;
        }
    }
    *free_ranks = fr;
    return need;
}

#ifdef GRID_SSE2
/* The greatest inpile of the chain so far at each slot: a running maximum by three shifts within
 * each 8-byte half. */
static inline __m128i chain_max(__m128i in) {
    __m128i m = _mm_max_epu8(in, _mm_slli_epi64(in, 8));
    m = _mm_max_epu8(m, _mm_slli_epi64(m, 16));
    return _mm_max_epu8(m, _mm_slli_epi64(m, 32));
}
#endif

static inline int grid_eval(const Grid *g, const GridPoint *pt, unsigned *free_ranks) {
#ifdef GRID_SSE2
    __m128i in = _mm_load_si128((const __m128i *)pt->inpile);
    __m128i bound = _mm_loadu_si128((const __m128i *)g->bound);
    __m128i m = chain_max(in);
    __m128i over = _mm_subs_epu8(_mm_add_epi8(bound, m), _mm_add_epi8(in, _mm_set1_epi8(8)));
    __m128i sums = _mm_sad_epu8(over, _mm_setzero_si128());
    __m128i before = _mm_add_epi8(_mm_slli_epi64(m, 8), bound);
    *free_ranks = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(before, _mm_set1_epi8(9))) & 0x3f3f;
    return _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
#else
    return grid_eval_plain(g, pt, free_ranks);
#endif
}

/* Tight slots (docs/solver.md, "parking-room", *Steps known infeasible*): slots r with
 * removed[r] - (cnt[r] - found[r]) >= 0 whose inpile is at most the greatest inpile of the slots
 * before r in the chain.  Taking a card of such a slot leaves every cnt as it is and adds one to
 * need, so at a point with no room to spare (need = 8 - piles not empty) the step is infeasible
 * unless it empties its pile. */
#ifndef TIGHT_STEPS
#define TIGHT_STEPS 1
#endif
static inline unsigned grid_tight_plain(const Grid *g, const GridPoint *pt) {
    unsigned t = 0;
    for (int c = 0; c < 16; c += 8) {
        int m = 0;
        for (int s = c; s < c + 6; s++) {
            int before = m;
            if (pt->inpile[s] > m) m = pt->inpile[s];
            if (g->bound[s] + m >= pt->inpile[s] + 8 && pt->inpile[s] <= before) t |= 1u << s;
        }
    }
    return t;
}

static inline unsigned grid_tight(const Grid *g, const GridPoint *pt) {
#ifdef GRID_SSE2
    __m128i in = _mm_load_si128((const __m128i *)pt->inpile);
    __m128i bound = _mm_loadu_si128((const __m128i *)g->bound);
    __m128i m = chain_max(in);
    __m128i zero = _mm_setzero_si128();
    __m128i over_ok = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_add_epi8(in, _mm_set1_epi8(8)),
                                                   _mm_add_epi8(bound, m)), zero);
    __m128i under = _mm_cmpeq_epi8(_mm_subs_epu8(in, _mm_slli_epi64(m, 8)), zero);
    return (unsigned)_mm_movemask_epi8(_mm_and_si128(over_ok, under)) & 0x3f3f;
#else
    return grid_tight_plain(g, pt);
#endif
}

/* The pile sharing p's queen (stuck-stock), if any, is empty: once p is empty too, the queen is
 * free. */
static inline int grid_partner_empty(const Grid *g, const GridPoint *pt, int p) {
    int q = g->partner[p];
    return q < 0 || pt->idx[q] == g->len[q];
}

static inline void grid_take(const Grid *g, GridPoint *pt, int p) {
    int r = g->card[p][pt->idx[p]++];
#ifdef GRID_SSE2
    /* All 16 bytes at once: a byte store followed by grid_eval's 16-byte load would stall. */
    __m128i in = _mm_load_si128((const __m128i *)pt->inpile);
    __m128i minus_one = _mm_cmpeq_epi8(_mm_set1_epi8((char)r),
                                       _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    _mm_store_si128((__m128i *)pt->inpile, _mm_add_epi8(in, minus_one));
#else
    pt->inpile[r]--;
#endif
    pt->left--;
    pt->at += g->stride[p];
    if (pt->idx[p] == g->len[p]) {
        pt->open &= (uint8_t)~(1u << p);
        if (grid_partner_empty(g, pt, p)) pt->nonempty--;
    }
}

static inline int grid_takes_top(const Grid *g, const GridPoint *pt, int p, unsigned fr) {
    int i = pt->idx[p];
    return i < g->len[p] &&
           ((i == g->len[p] - 1 && grid_partner_empty(g, pt, p)) || (fr >> g->card[p][i] & 1));
}

/* Take every top card that is its pile's last or of a free rank, until none is left.  check: the
 * piles whose top may be one (every other pile's top is neither under fr); fr: the free ranks
 * at pt.  A card that may be taken stays so while others are taken (free ranks only grow), so the
 * closed point does not depend on the order. */
static void grid_close(const Grid *g, GridPoint *pt, unsigned check, unsigned fr) {
    unsigned all = (1u << g->k) - 1;
    while (check) {
        int p = __builtin_ctz(check);
        check &= check - 1;
        if (!grid_takes_top(g, pt, p, fr)) continue;
        do grid_take(g, pt, p); while (grid_takes_top(g, pt, p, fr));
        /* Once p is empty, its partner's last card frees their queen. */
        if (g->partner[p] >= 0 && pt->idx[p] == g->len[p]) check |= 1u << g->partner[p];
        unsigned now;
        grid_eval(g, pt, &now);
        if (now != fr) {
            fr = now;
            check = all;
        }
    }
    pt->free_ranks = (uint16_t)fr;
}

/* Close pt after a step that took a card from pile p (the walk's and the replay's steps alike):
 * fr, the free ranks now; before, those at the closed point the step left.  Only p's top
 * changed, so the other piles need a look only if the free ranks did (and p's partner, once p
 * is empty).  Most steps close nothing: only p to look at, its top not one to take, and no
 * call to grid_close. */
static inline void grid_close_step(const Grid *g, GridPoint *pt, int p, unsigned before,
                                   unsigned fr) {
    unsigned check = fr == before ? 1u << p : (1u << g->k) - 1;
    if (g->partner[p] >= 0 && pt->idx[p] == g->len[p]) check |= 1u << g->partner[p];
    if (check == 1u << p && !grid_takes_top(g, pt, p, fr))
        pt->free_ranks = (uint16_t)fr;
    else
        grid_close(g, pt, check, fr);
}

/* The room memo (docs/solver.md, "deep-room", *Room memo*): the verdicts and step counts of
 * the tests a search has run, by the grid each was run on.  A test is a function of its grid
 * and its step budget: the piles in the grid's order with their cards, the foundations' counts,
 * and visits (the budget follows from these).  So where both match a test run before, that
 * test's verdict and steps are its own, and the search goes on exactly as if it had run it.
 * The memo compares the whole signature, never a hash alone.  Its slots are two-way
 * set-associative by the signature's hash (memo_set): a test looks in both slots of its pair,
 * and a new one goes into the first, the entry there moving to the second, whose entry is
 * dropped (the least recently used; a hit in the second moves it to the first).
 * -DROOM_MEMO=0 builds the search without it. */
#ifndef ROOM_MEMO
#define ROOM_MEMO 1
#endif
#ifndef MEMO_SLOTS
#define MEMO_SLOTS (1 << 21)         /* 224 MiB: docs/solver.md, *Room memo*, "Size" */
#endif
#define SIG_MAX 98                   /* a signature's bytes at most: a slot is 112 bytes */
#define MEMO_MIN_SLOTS 1024          /* fewer slots than this: no memo */

typedef struct {
    uint64_t hash;                  /* 0: an empty slot */
    uint32_t steps;                 /* what the test added to its step count */
    uint8_t dead, len;
    uint8_t sig[SIG_MAX];
} MemoEntry;

typedef struct {
    MemoEntry *slot;                /* a power of two of them, or NULL: no memo */
    size_t mask;                    /* their number less one */
    uint64_t salt;                  /* even, mixed into every hash: this search's (memo_take) */
} RoomMemo;

/* The signature of a test: visits, the number of piles (and of pairs of piles sharing a queen,
 * with each pair after its first pile's length), each pile's length, the cards two to
 * a byte (slots are below 16), and the foundations' counts by slot two to a byte (at most 8
 * each).  Returns its length, or -1 where it would not fit.
 *
 * point_signature gives it for the grid of what is left at a point pt of g (POINT_DEPTH, in
 * grid_walk): the piles with cards left, in grid_build's order (the queens' piles before the
 * stuck cards, then the larger first, then by queen), each holding the cards not yet taken,
 * two piles sharing a queen while both hold cards, and on the foundations found + the cards
 * taken, which is bound - inpile.  That grid's walk from its origin is g's walk from pt: the
 * same cards left, the same bounds (bound is found + cards in the grid in both), so the same
 * need at every point, and the same queens not yet free (a pair with one pile empty counts
 * one queen, as a lone pile does).  At g's origin it is the signature of g itself. */
static int point_signature(const Grid *g, const GridPoint *pt, int visits, uint8_t *sig) {
    int ord[SALIC_QUEENS], pos[SALIC_QUEENS], m = 0;
    for (int p = 0; p < g->k; p++) {
        pos[p] = -1;
        int size = g->len[p] - pt->idx[p];
        if (size < 1) continue;
        int i = m++;
        for (; i > 0; i--) {
            int q = ord[i - 1], qsize = g->len[q] - pt->idx[q];
            if (g->cand[q] / SALIC_QUEENS != g->cand[p] / SALIC_QUEENS ||
                qsize > size || (qsize == size && g->cand[q] < g->cand[p]))
                break;
            ord[i] = q;
        }
        ord[i] = p;
    }
    int pairs = 0;
    for (int i = 0; i < m; i++) pos[ord[i]] = i;
    for (int i = 0; i < m; i++) {
        int q = g->partner[ord[i]];
        pairs += q >= 0 && pos[q] > i;
    }
    int n = 0;
    uint32_t v = (uint32_t)visits;
    for (int i = 0; i < 4; i++) sig[n++] = (uint8_t)(v >> (8 * i));
    sig[n++] = (uint8_t)(m | pairs << 4);
    int cards = 0;
    for (int i = 0; i < m; i++) {
        int p = ord[i], q = g->partner[p];
        sig[n++] = (uint8_t)(g->len[p] - pt->idx[p]);
        cards += g->len[p] - pt->idx[p];
        if (q >= 0 && pos[q] > i) sig[n++] = (uint8_t)(i | pos[q] << 4);   /* stuck-stock */
    }
    if (n + (cards + 1) / 2 + 8 > SIG_MAX) return -1;
    int half = 0;
    for (int i = 0; i < m; i++)
        for (int j = pt->idx[ord[i]]; j < g->len[ord[i]]; j++, half ^= 1) {
            if (half) sig[n++] |= (uint8_t)(g->card[ord[i]][j] << 4);
            else sig[n] = g->card[ord[i]][j];
        }
    if (half) n++;
    for (int i = 0; i < 16; i += 2)
        sig[n++] = (uint8_t)((g->bound[i] - pt->inpile[i]) | (g->bound[i + 1] - pt->inpile[i + 1]) << 4);
    return n;
}

static int grid_signature(const Grid *g, int visits, uint8_t *sig) {
    return point_signature(g, &g->pt, visits, sig);
}

static uint64_t signature_hash(const uint8_t *sig, int n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < n; i++) h = (h ^ sig[i]) * 0x100000001b3ULL;
    h ^= h >> 31;
    return h | 1;
}

/* Dead points (docs/solver.md, "deep-room", *Dead points*): a whole walk (never cut short) puts
 * into the room memo, as dead, the grid left at each point it has left behind within
 * POINT_DEPTH cards of its closed origin, and looks its closed origin up there.  A point the
 * depth-first walk has left behind has no path to the end (every point after it has been seen,
 * and each seen one was infeasible or left behind: the grid has no cycles), and the grid left
 * there (point_signature) has the same walk.  Where another position's test is on such a grid,
 * as after a few more foundation plays than a position tested before, the memo answers it.
 * Only the whole walks' entries (visits -1 in the signature) are so written and read, and those
 * tests count their steps apart (the near zone, is_dead): the search is node for node the
 * search without them.  -DPOINT_DEPTH=-1 builds it without. */
#ifndef POINT_DEPTH
#define POINT_DEPTH 2
#endif

/* A signature's hash in this memo: odd, so never an empty slot's 0, and with the memo's salt,
 * so that an entry a search before this one left (memo_take) never matches. */
static inline uint64_t memo_hash(const RoomMemo *memo, const uint8_t *sig, int n) {
    return signature_hash(sig, n) ^ memo->salt;
}

static int memo_holds(const MemoEntry *e, uint64_t h, const uint8_t *sig, int n) {
    return e->hash == h && e->len == n && memcmp(e->sig, sig, (size_t)n) == 0;
}

/* The memo's two ways for a hash: the pair of slots h & mask with its last bit cleared. */
static inline MemoEntry *memo_set(const RoomMemo *memo, uint64_t h) {
    return &memo->slot[h & memo->mask & ~(size_t)1];
}

/* The entry holding sig, or NULL.  A hit in the second way swaps the two (least recently used
 * last). */
static const MemoEntry *memo_find(const RoomMemo *memo, const uint8_t *sig, int n, uint64_t *h) {
    *h = memo_hash(memo, sig, n);
    MemoEntry *w = memo_set(memo, *h);
    if (memo_holds(&w[0], *h, sig, n)) return &w[0];
    if (memo_holds(&w[1], *h, sig, n)) {
        MemoEntry t = w[0];
        w[0] = w[1];
        w[1] = t;
        return &w[0];
    }
    return NULL;
}

/* Store a test's result in the way holding sig, else the first way, the first moving to the
 * second (whose entry is dropped). */
static void memo_put(const RoomMemo *memo, uint64_t h, const uint8_t *sig, int n, int dead,
                     uint64_t steps) {
    MemoEntry *w = memo_set(memo, h), *e = &w[0];
    if (memo_holds(&w[1], h, sig, n)) e = &w[1];
    else if (!memo_holds(&w[0], h, sig, n) && w[0].hash != 0) w[1] = w[0];
    e->hash = h;
    e->steps = (uint32_t)steps;
    e->dead = (uint8_t)dead;
    e->len = (uint8_t)n;
    memcpy(e->sig, sig, (size_t)n);
}

/* The whole grid (docs/solver.md, "deep-room", *The whole grid*): a whole walk (never cut
 * short) relaxes every pile, however many points the grid has, and marks the points it has seen
 * in a hash set instead of a bitmap of the grid, since it sees few of them.  A set of at most
 * max_slots slots (a power of two), grown by doubling from SEEN_FIRST, kept half empty: a walk
 * that would need more stops there and calls the position alive, which only gives up a proof.
 * The slots of earlier walks are told apart by their mark, so a walk does not clear the set.
 * -DBIG_GRID=0 builds whole walks on deep-room's grid of at most DEEP_GRID points. */
#ifndef BIG_GRID
#define BIG_GRID 1
#endif
#define WHOLE_GRID (1ULL << 62)      /* the points a whole grid may have (every pile fits) */
#define SEEN_FIRST 4096
#define SEEN_SLOT_BYTES (sizeof(uint64_t) + sizeof(uint32_t))

typedef struct {
    uint64_t *key;                  /* point indices */
    uint32_t *mark;                 /* a slot holds a point of this walk where its mark is walk */
    size_t mask;                    /* slots less one; no slots while key is NULL */
    size_t max_slots;               /* the most slots it may have (a power of two) */
    size_t used;                    /* the points of this walk */
    uint32_t walk;
} SeenSet;

static inline size_t seen_slot(uint64_t i, size_t mask) {
    uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h ^ h >> 29) & mask;
}

/* Make the set's slots n, keeping the present walk's points; 0, or -1 where memory fails. */
static int seen_resize(SeenSet *t, size_t n) {
    uint64_t *key = malloc(n * sizeof *key);
    uint32_t *mark = calloc(n, sizeof *mark);
    if (!key || !mark) {
        free(key);
        free(mark);
        return -1;
    }
    for (size_t j = 0; t->key && j <= t->mask; j++) {
        if (t->mark[j] != t->walk) continue;
        size_t x = seen_slot(t->key[j], n - 1);
        while (mark[x] == t->walk) x = (x + 1) & (n - 1);
        key[x] = t->key[j];
        mark[x] = t->walk;
    }
    free(t->key);
    free(t->mark);
    t->key = key;
    t->mark = mark;
    t->mask = n - 1;
    return 0;
}

static void seen_free(SeenSet *t) {
    free(t->key);
    free(t->mark);
    t->key = NULL;
    t->mark = NULL;
    t->mask = 0;
}

static size_t seen_bytes(const SeenSet *t) {
    return t->key ? (t->mask + 1) * SEEN_SLOT_BYTES : 0;
}

/* A new walk: 0, or -1 where there are no slots. */
static int seen_begin(SeenSet *t) {
    if (!t->key) {
        t->walk = 1;
        size_t n = SEEN_FIRST < t->max_slots ? SEEN_FIRST : t->max_slots;
        if (n < 2 || seen_resize(t, n) != 0) return -1;
    } else if (++t->walk == 0) {
        memset(t->mark, 0, (t->mask + 1) * sizeof *t->mark);
        t->walk = 1;
    }
    t->used = 0;
    return 0;
}

static inline int seen_has(const SeenSet *t, uint64_t i) {
    for (size_t x = seen_slot(i, t->mask); t->mark[x] == t->walk; x = (x + 1) & t->mask)
        if (t->key[x] == i) return 1;
    return 0;
}

/* Add point i: 1 where it is new, 0 where it was there, -1 where the set is full (a walk that
 * needs more points gives up). */
static inline int seen_add(SeenSet *t, uint64_t i) {
    size_t x = seen_slot(i, t->mask);
    for (; t->mark[x] == t->walk; x = (x + 1) & t->mask)
        if (t->key[x] == i) return 0;
    if (2 * (t->used + 1) > t->mask + 1) {
        if (2 * (t->mask + 1) > t->max_slots || seen_resize(t, 2 * (t->mask + 1)) != 0) return -1;
        for (x = seen_slot(i, t->mask); t->mark[x] == t->walk; x = (x + 1) & t->mask) {}
    }
    t->key[x] = i;
    t->mark[x] = t->walk;
    t->used++;
    return 1;
}

/* GameOps.memo_size: within room, the search's share of its memory bound for them, the bytes of
 * the whole grid's set of seen points and of the room memo.  The set may grow to SEEN_SLOTS
 * (SEEN_BYTES) where room holds that and the memo's least size (WITH_SEEN), else there is no
 * set and whole walks keep to deep-room's grid.  The memo gets the most slots, a power of two
 * and at most MEMO_SLOTS, that fit in the rest; none where fewer than MEMO_MIN_SLOTS fit, or
 * where no room test runs.  The memo's size changes no verdict, step or node (a test's result
 * never depends on it), only how many repeats it catches; the set's is the same at every bound
 * that holds it (about 49 MiB and up, --max-memory), and a walk that fills it gives up.
 * memo_split reads the two parts back from the sum: a memo alone is always under SEEN_BYTES. */
#define SEEN_SLOTS ((size_t)1 << 19)   /* 6 MiB: at most 262,144 points a walk */
#define SEEN_BYTES (SEEN_SLOTS * SEEN_SLOT_BYTES)
#define WITH_SEEN (SEEN_BYTES + MEMO_MIN_SLOTS * sizeof(MemoEntry))

static size_t memo_size(size_t room, unsigned prune) {
    if (!(prune & (PRUNE_PARKING_ROOM | PRUNE_DEEP_ROOM))) return 0;
    size_t seen = BIG_GRID && (prune & PRUNE_DEEP_ROOM) && room >= WITH_SEEN ? SEEN_BYTES : 0;
    size_t slots = ROOM_MEMO ? MEMO_SLOTS : 0;
    while (slots >= MEMO_MIN_SLOTS && (slots * sizeof(MemoEntry) > room - seen ||
                                       (!seen && slots * sizeof(MemoEntry) >= SEEN_BYTES)))
        slots >>= 1;
    return seen + (slots >= MEMO_MIN_SLOTS ? slots * sizeof(MemoEntry) : 0);
}

static void memo_split(size_t bytes, size_t *memo_slots, size_t *seen_slots) {
    *seen_slots = bytes >= SEEN_BYTES ? SEEN_SLOTS : 0;
    *memo_slots = (bytes - *seen_slots * SEEN_SLOT_BYTES) / sizeof(MemoEntry);
}

/* The walk's record of the points it has seen: a bitmap of the grid's points, or (hashed) the
 * set above.  SEEN_NEW adds a point and says whether it is new, in one look; it and SEEN_ADD
 * leave the walk, undecided, where the set is full. */
#define SEEN_HAS(i) (hashed ? seen_has(set, (i)) : (seen[(i) >> 3] >> ((i) & 7) & 1))
#define SEEN_NEW(i, fresh)                                                   \
    do {                                                                     \
        if (!hashed) {                                                       \
            uint8_t bit_ = (uint8_t)(1 << ((i) & 7));                        \
            (fresh) = !(seen[(i) >> 3] & bit_);                              \
            seen[(i) >> 3] |= bit_;                                          \
        } else if (((fresh) = seen_add(set, (i))) < 0) {                     \
            return 1;                                                        \
        }                                                                    \
    } while (0)
#define SEEN_ADD(i)                                                  \
    do {                                                             \
        if (!hashed) seen[(i) >> 3] |= (uint8_t)(1 << ((i) & 7));    \
        else if (seen_add(set, (i)) < 0) return 1;                   \
    } while (0)

/* A whole walk reads the clock every WALK_CLOCK_STEPS steps (about a millisecond): one walk
 * can take seconds, and the search reads the clock only between nodes. */
#ifndef WALK_CLOCK_STEPS
#define WALK_CLOCK_STEPS (1 << 15)
#endif

/* Whether the search's deadline (clock->deadline, 0: none) has passed; if so, it says so in
 * clock->expired too, and the search ends "unknown (time)" after this test (dfs). */
static int walk_expired(ScratchHead *clock) {
    if (clock->deadline > 0 && search_clock() > clock->deadline) clock->expired = 1;
    return clock->expired;
}

/* Witness paths (docs/solver.md, "deep-room", *Witness paths*): a whole walk that reaches the
 * end leaves the path it found, as the card it took at each depth (the cards closing took are
 * not listed), each named by its pile's candidate (Grid.cand: the queen, or her stuck stock
 * cards) and the cards below it there.  The next whole test of that kind of grid first tries to
 * follow it on its own grid (witness_replay): for each card in turn, take from its pile down to
 * the card with as many below it, each card one step checked against the queens and then closed
 * as the walk closes, and at last the cards left, pile by pile.  A monotone path of feasible
 * points to the end is what the walk looks for, so where the replay finds one the grid is alive,
 * the walk's own verdict; where a step is not feasible, the walk runs as before.  Only whole
 * walks, never cut short, replay: their verdict is the grid's, whoever finds the path, and their
 * steps count apart (the near zone, is_dead), so the search is node for node the search without
 * it.  -DWITNESS=0 builds it without. */
#ifndef WITNESS
#define WITNESS 1
#endif

typedef struct {
    uint8_t have;                   /* 0: no path yet */
    uint8_t n;                      /* cards listed */
    uint32_t replayed;              /* tests the replay answered (for the tests) */
    uint8_t cand[SALIC_CARDS];      /* each card's pile, as Grid.cand */
    uint8_t below[SALIC_CARDS];     /* the cards below it in that pile */
} Witness;

/* Follow w on g (above): 1 where it leads to the end through feasible points (g is then alive;
 * w becomes the path followed, as the cards taken one step at a time), 0 where a step is not
 * feasible (w unchanged).  *steps: the cards taken one step at a time. */
static int witness_replay(const Grid *g, Witness *w, uint64_t *steps) {
    int pile_of[2 * SALIC_QUEENS];
    for (int c = 0; c < 2 * SALIC_QUEENS; c++) pile_of[c] = -1;
    for (int p = 0; p < g->k; p++) pile_of[g->cand[p]] = p;
    unsigned all = (1u << g->k) - 1, fr;
    GridPoint pt = g->pt;
    grid_eval(g, &pt, &fr);
    grid_close(g, &pt, all, fr);
    uint8_t cand[SALIC_CARDS], below[SALIC_CARDS];
    int n = 0, i = 0;
    while (pt.left > 0) {
        int p, target;
        if (i < w->n) {
            p = pile_of[w->cand[i]];
            target = p < 0 ? 0 : g->len[p] - w->below[i];
            i++;
            if (p < 0 || target <= pt.idx[p]) continue;
        } else {
            p = __builtin_ctz(pt.open);          /* the cards the path leaves, pile by pile */
            target = g->len[p];
        }
        while (pt.idx[p] < target) {
            unsigned before = pt.free_ranks;
            cand[n] = g->cand[p];
            below[n] = (uint8_t)(g->len[p] - pt.idx[p] - 1);
            n++;
            grid_take(g, &pt, p);
            if (grid_eval(g, &pt, &fr) > SALIC_QUEENS - pt.nonempty) {
                *steps += (uint64_t)n;
                return 0;
            }
            grid_close_step(g, &pt, p, before, fr);
        }
    }
    *steps += (uint64_t)n;
    w->n = (uint8_t)n;
    memcpy(w->cand, cand, (size_t)n);
    memcpy(w->below, below, (size_t)n);
    return 1;
}

/* Depth-first walk over the feasible closed points from the origin.  1 when the end is reached
 * or more than budget steps were tried (or the set of seen points is full), 0 when every
 * reachable feasible point has been seen.  seen: a bitmap of the grid's points, or (hashed) set.
 * memo: where dead points go (a whole walk's), or NULL.  clock (a whole walk's, or NULL): every
 * WALK_CLOCK_STEPS steps the walk reads the clock, and past the search's deadline it sets
 * clock->expired and leaves, undecided (docs/solver.md, "Time limit", *Long walks*). */
static inline __attribute__((always_inline)) int walk(const Grid *g, int *budget, uint8_t *seen,
                                                     SeenSet *set, const RoomMemo *memo,
                                                     ScratchHead *clock, Witness *wit,
                                                     int *least, const int hashed,
                                                     const int track) {
    uint8_t todo[SALIC_CARDS + 1];       /* the piles each depth has still to take from */
    uint8_t step[SALIC_CARDS + 1];       /* the pile each depth took its card from (wit) */
    GridPoint saved[SALIC_CARDS + 1];   /* the closed point at each depth */
    unsigned all = (1u << g->k) - 1, fr;
    GridPoint pt = g->pt;
    grid_eval(g, &pt, &fr);
    grid_close(g, &pt, all, fr);
    pt.tight = 0;
    if (TIGHT_STEPS && grid_eval(g, &pt, &fr) == SALIC_QUEENS - pt.nonempty)
        pt.tight = (uint16_t)grid_tight(g, &pt);
    SEEN_ADD(pt.at);
    int low = pt.left;          /* track: the fewest cards left at a point reached (*least) */
    uint8_t sig[SIG_MAX];
    uint64_t h;
    if (memo && pt.left < g->pt.left) {     /* the closed origin, where closing took cards */
        int n = point_signature(g, &pt, -1, sig);
        if (n > 0) {
            const MemoEntry *e = memo_find(memo, sig, n, &h);
            if (e && e->dead) {
                if (track) *least = low;
                return 0;
            }
        }
    }
    /* The budget is checked against stop: 0 without a clock, as a plain budget, else the
     * budget WALK_CLOCK_STEPS steps on, where the clock is read, so a step costs no more. */
    int stop = clock && *budget > WALK_CLOCK_STEPS ? *budget - WALK_CLOCK_STEPS : 0;
    int depth = 0;
    todo[0] = pt.open;
    saved[0] = pt;
    while (pt.left > 0) {
        if (todo[depth]) {
            int p = __builtin_ctz(todo[depth]);   /* in pile order, the empty ones left out */
            todo[depth] &= (uint8_t)(todo[depth] - 1);
            if (--*budget < stop) {
                if (*budget < 0) return 1;            /* undecided: no proof of a dead end */
                if (walk_expired(clock)) return 1;    /* undecided: the search's time is up */
                stop = *budget > WALK_CLOCK_STEPS ? *budget - WALK_CLOCK_STEPS : 0;
            }
            /* A card of a tight slot, not its pile's last: the step is infeasible. */
            if (TIGHT_STEPS && pt.tight && (pt.tight >> g->card[p][pt.idx[p]] & 1) &&
                pt.idx[p] < g->len[p] - 1)
                continue;
            /* The step's point before closing.  Seen: it was infeasible, or its closed point
             * (a function of the point) has been seen; either way nothing new is there. */
            uint64_t raw = pt.at + g->stride[p];
            if (SEEN_HAS(raw)) continue;
            grid_take(g, &pt, p);
            int need = grid_eval(g, &pt, &fr);
            if (need <= SALIC_QUEENS - pt.nonempty) {
                grid_close_step(g, &pt, p, saved[depth].free_ranks, fr);
                int fresh;
                SEEN_NEW(pt.at, fresh);
                if (raw != pt.at) SEEN_ADD(raw);   /* closing took cards */
                if (fresh) {
                    if (track && pt.left < low) low = pt.left;
                    pt.tight = 0;     /* where closing took cards, need is not at hand: none */
                    if (TIGHT_STEPS && raw == pt.at && need == SALIC_QUEENS - pt.nonempty)
                        pt.tight = (uint16_t)grid_tight(g, &pt);
                    depth++;
                    step[depth] = (uint8_t)p;
                    todo[depth] = pt.open;
                    saved[depth] = pt;
                    continue;
                }
            } else {
                SEEN_ADD(raw);   /* infeasible for good */
            }
        } else {
            if (memo && saved[0].left - saved[depth].left <= POINT_DEPTH &&
                (depth > 0 || pt.left < g->pt.left)) {   /* the raw origin: grid_test's entry */
                int n = point_signature(g, &saved[depth], -1, sig);
                if (n > 0) memo_put(memo, memo_hash(memo, sig, n), sig, n, 1, 0);
            }
            if (depth == 0) {
                if (track) *least = low;
                return 0;
            }
            depth--;
        }
        pt = saved[depth];
    }
    if (wit) {                               /* the end: the path, for the next test */
        for (int j = 1; j <= depth; j++) {
            int p = step[j];
            wit->cand[j - 1] = g->cand[p];
            wit->below[j - 1] = (uint8_t)(g->len[p] - saved[j - 1].idx[p] - 1);
        }
        wit->n = (uint8_t)depth;
        wit->have = 1;
    }
    return 1;
}

/* The walk over a grid of points points: on the set where one is given and the grid is larger
 * than DEEP_GRID points (BIG_GRID), else on the bitmap seen, which holds points bits. */
static int grid_walk(const Grid *g, uint64_t points, int *budget, uint8_t *seen, SeenSet *set,
                     const RoomMemo *memo, ScratchHead *clock, Witness *wit) {
    /* The budget and the grid in locals of their own: as far as the compiler knows, *budget
     * and *g might be any byte the walk writes to seen, and would be read again after each.
     * (The copy is about a kilobyte a walk.) */
    int left = *budget, r, least = g->pt.left;
    /* PRUNE_GUIDED_LINES: the fewest cards left, only at a random line's root (its own copies
     * of the walk, so that the others do not pay for it). */
    const int track = clock && clock->random_root;
    Grid own = *g;
    if (set && points > DEEP_GRID) {
        if (seen_begin(set) != 0) return 1;
        r = track ? walk(&own, &left, seen, set, memo, clock, wit, &least, 1, 1)
                  : walk(&own, &left, seen, set, memo, clock, wit, &least, 1, 0);
    } else {
        memset(seen, 0, (size_t)(points + 7) / 8);
        r = track ? walk(&own, &left, seen, NULL, memo, clock, wit, &least, 0, 1)
                  : walk(&own, &left, seen, NULL, memo, clock, wit, &least, 0, 0);
    }
    if (track) clock->walk_left = r ? 0 : least;
    *budget = left;
    return r;
}

/* A quicker test of the same relaxation (docs/solver.md): look at the point just before the first
 * relaxed copy of a rank b is taken.  Every later rank s of b's chain then has at most
 * 8 - total[b] cards on foundations, so each taken card of rank s beyond 8 - total[b] - found[s]
 * is parked.  If that copy comes from pile p, the cards above it are taken; every other pile
 * holding a copy of b is not empty; every other pile is either not empty or wholly taken.  When
 * for every p even the least count of parked cards plus piles not empty exceeds the eight
 * queens, no path gets past that point.  (Taking a pile wholly adds at least what it adds on its
 * own on top of pile p's cards, as the count is convex in the cards taken.) */
static int first_copy_dead(const Grid *g) {
    if (g->pairs) return 0;   /* it counts a queen per pile not empty: not where piles share one */
    /* Per pile, once: the cards of each slot, and where (from the top) the first of each lies
     * (len: none).  Each b then reads only the cards above its first copy. */
    uint8_t whole[SALIC_QUEENS][16];
    int first[SALIC_QUEENS][16];
    for (int p = 0; p < g->k; p++) {
        memset(whole[p], 0, sizeof whole[p]);
        for (int sl = 0; sl < 16; sl++) first[p][sl] = g->len[p];
        for (int i = g->len[p] - 1; i >= 0; i--) {
            whole[p][g->card[p][i]]++;
            first[p][g->card[p][i]] = i;
        }
    }
    for (int c = 0; c < 16; c += 8) {          /* the chains' first slots */
        for (int jb = 0; jb < 5; jb++) {
            int b = c + jb;
            if (g->total[b] == 0) continue;
            int lim[6];
            for (int j = jb + 1; j < 6; j++) lim[j] = 8 - g->total[b] - g->found[c + j];
            int dead = 1;
            for (int p = 0; p < g->k && dead; p++) {
                int top = first[p][b];
                if (top == g->len[p]) continue;   /* no copy of b in pile p */
                int above[6] = {0};
                for (int i = 0; i < top; i++) {
                    int j = g->card[p][i] - c;     /* place in this chain if 0..5 */
                    if (j > jb && j < 6) above[j]++;
                }
                int base = 0;
                for (int j = jb + 1; j < 6; j++)
                    if (above[j] > lim[j]) base += above[j] - lim[j];
                int least = base + 1;      /* pile p is not empty */
                for (int q = 0; q < g->k; q++) {
                    if (q == p) continue;
                    if (first[q][b] < g->len[q]) { least++; continue; }
                    int more = 0;
                    for (int j = jb + 1; j < 6; j++) {
                        int x = above[j] + whole[q][c + j];
                        if (x > lim[j]) more += x - lim[j];
                    }
                    least += more > base;  /* 1 whether kept (not empty) or taken (adds >= 1) */
                }
                if (least <= SALIC_QUEENS) dead = 0;
            }
            if (dead) return 1;
        }
    }
    return 0;
}

/* PRUNE_STUCK_STOCK (docs/solver.md, "stuck-stock"; PySol profiles, stock not empty): the stock
 * cards that cannot reach a foundation before the stock is empty.  While it lasts no card is
 * parked, so a card leaves a pile only to a foundation, and only from the top.  A least fixpoint
 * over what may be played while dealing: m[r] bounds the cards of rank r on foundations then
 * (those there now, plus the copies found playable, and no more than the rank before it in its
 * chain); a card may be played only if a five or a six, or if m of the rank it is laid on
 * exceeds the cards of its own rank there now; a pile card only once every card above it may
 * be.  Every card a line plays while dealing is found playable, by induction on its plays.  The
 * stock cards left over are stuck: each stays on its pile, above the cards there when it came,
 * until the stock is empty, and then leaves it from the top. */
static void stuck_stock(const SalicDeal *d, const SalicState *s, uint64_t stuck[2]) {
    static const int8_t CHAIN[2][6] = {{5, 6, 7, 8, 9, 10}, {4, 3, 2, 1, 0, 12}};
    int m[13], played[13] = {0};
    for (int r = 0; r < 13; r++) m[r] = s->cnt[r];
    uint64_t rest[SALIC_QUEENS][2], all[2] = {0, 0};
    for (int q = 0; q < SALIC_QUEENS; q++) {
        all[0] |= d->seg_mask[q][0];
        all[1] |= d->seg_mask[q][1];
        rest[q][0] = q < s->nq ? s->present[0] & d->seg_mask[q][0] : 0;
        rest[q][1] = q < s->nq ? s->present[1] & d->seg_mask[q][1] : 0;
    }
    uint64_t stock[2] = {s->sp >= 64 ? 0 : all[0] & (~0ULL << s->sp),
                         all[1] & (s->sp >= 64 ? ~0ULL << (s->sp - 64) : ~0ULL)};
    for (int changed = 1; changed;) {
        changed = 0;
        for (int q = 0; q < s->nq; q++)
            for (int t = highest_bit(rest[q][0], rest[q][1]); t >= 0;
                 t = highest_bit(rest[q][0], rest[q][1])) {
                int below = rank_below(d->rank[t]);
                if (below >= 0 && m[below] <= s->cnt[d->rank[t]]) break;
                rest[q][t >> 6] &= ~(1ULL << (t & 63));
                played[d->rank[t]]++;
                changed = 1;
            }
        for (int h = 0; h < 2; h++)
            for (uint64_t w = stock[h]; w; w &= w - 1) {
                int t = 64 * h + __builtin_ctzll(w);
                int below = rank_below(d->rank[t]);
                if (below >= 0 && m[below] <= s->cnt[d->rank[t]]) continue;
                stock[h] &= ~(1ULL << (t & 63));
                played[d->rank[t]]++;
                changed = 1;
            }
        for (int c = 0; c < 2; c++)
            for (int j = 0, before = 8; j < 6; j++) {
                int r = CHAIN[c][j], most = s->cnt[r] + played[r];
                m[r] = before = most < before ? most : before;
            }
    }
    stuck[0] = stock[0];
    stuck[1] = stock[1];
}

/* The grid of the position's piles, largest first while it has at most grid_max points and
 * eight piles; returns its number of points (g->k == 0: no pile).  stock: add, for each queen,
 * a pile of its stuck stock cards (stuck_stock), sharing the queen with its pile. */
static uint64_t grid_build(const SalicDeal *d, const SalicState *s, uint64_t grid_max, int stock,
                           Grid *g) {
    memset(g, 0, sizeof *g);
    memset(g->partner, -1, sizeof g->partner);
    /* Candidates 0..7: the queens' piles; 8..15: their stuck stock cards. */
    uint64_t cards[2 * SALIC_QUEENS][2];
    int size[2 * SALIC_QUEENS], order[2 * SALIC_QUEENS], at[2 * SALIC_QUEENS], n = 0;
    uint64_t stuck[2] = {0, 0};
    if (stock) stuck_stock(d, s, stuck);
    for (int c = 0; c < 2 * SALIC_QUEENS; c++) {
        int q = c % SALIC_QUEENS;
        at[c] = -1;
        if (c < SALIC_QUEENS) {
            cards[c][0] = q < s->nq ? s->present[0] & d->seg_mask[q][0] : 0;
            cards[c][1] = q < s->nq ? s->present[1] & d->seg_mask[q][1] : 0;
            size[c] = q < s->nq ? salic_pile_size(d, s, q) : 0;
        } else {
            cards[c][0] = stuck[0] & d->seg_mask[q][0];
            cards[c][1] = stuck[1] & d->seg_mask[q][1];
            size[c] = __builtin_popcountll(cards[c][0]) + __builtin_popcountll(cards[c][1]);
        }
        if (size[c] < 1) continue;
        /* insertion sort, largest first, the queens' piles before the stuck cards, so that
         * the grid holds every pile the grid without them would (it is then no weaker) */
        int i = n++;
        while (i > 0 && order[i - 1] / SALIC_QUEENS == c / SALIC_QUEENS &&
               size[order[i - 1]] < size[c]) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = c;
    }
    for (int r = 0; r < 13; r++) g->found[SLOT[r]] = s->cnt[r];
    GridPoint *pt = &g->pt;
    uint64_t points = 1;
    for (int i = 0; i < n && g->k < SALIC_QUEENS; i++) {
        int c = order[i], q = c % SALIC_QUEENS;
        if (points * (uint64_t)(size[c] + 1) > grid_max) continue;   /* left out: its cards count as free */
        int p = g->k++;
        at[c] = p;
        g->stride[p] = points;
        points *= (uint64_t)(size[c] + 1);
        uint64_t w[2] = {cards[c][0], cards[c][1]};
        for (int t = highest_bit(w[0], w[1]); t >= 0; t = highest_bit(w[0], w[1])) {
            w[t >> 6] &= ~(1ULL << (t & 63));
            g->card[p][g->len[p]++] = SLOT[d->rank[t]];
        }
        if (c < SALIC_QUEENS && s->parked[q] != PARK_NONE)
            g->card[p][g->len[p]++] = SLOT[d->rank[s->parked[q]]];
        for (int j = 0; j < g->len[p]; j++) pt->inpile[g->card[p][j]]++;
        pt->open |= (uint8_t)(1u << p);
        pt->left = (uint8_t)(pt->left + g->len[p]);
        g->stuck += c >= SALIC_QUEENS;
        g->cand[p] = (uint8_t)c;
        int other = at[(c + SALIC_QUEENS) % (2 * SALIC_QUEENS)];
        if (other >= 0) {                          /* one queen for the two */
            g->partner[p] = (int8_t)other;
            g->partner[other] = (int8_t)p;
            g->pairs++;
        } else {
            pt->nonempty++;
        }
    }
    for (int sl = 0; sl < 16; sl++) {
        g->total[sl] = pt->inpile[sl];
        g->bound[sl] = (uint8_t)(g->found[sl] + g->total[sl]);
    }
    return points;
}

/* The test with a grid of points points (seen: that many bits, or set) and visits steps
 * beyond a straight walk; visits < 0: the whole walk, never cut short (but by a full set).
 * memo: the search's room memo, or NULL. */
static int grid_test(const Grid *g, uint64_t points, uint64_t *steps, int visits, uint8_t *seen,
                     SeenSet *set, const RoomMemo *memo, ScratchHead *clock, Witness *wit) {
    uint8_t sig[SIG_MAX];
    int n = memo && memo->slot ? grid_signature(g, visits, sig) : -1;
    uint64_t h = 0;
    if (n > 0) {
        const MemoEntry *e = memo_find(memo, sig, n, &h);
        if (e) {
            *steps += e->steps;
            return e->dead;
        }
    }
    int dead;
    uint64_t added = 0;
    if (!WITNESS || visits >= 0) wit = NULL;    /* whole walks only (above) */
    if (first_copy_dead(g)) {
        dead = 1;
        if (clock) clock->walk_left = g->pt.left;
    } else if (wit && wit->have && witness_replay(g, wit, &added)) {
        dead = 0;
        added += (uint64_t)g->k * 12;
        wit->replayed++;
    } else {
        /* Enough steps for a walk straight to the end (k tries per card), and visits more.
         * Each point is left at most once, by at most k steps: k * points steps always
         * suffice (a whole grid's set fills long before INT_MAX steps). */
        uint64_t all = (uint64_t)g->k * points;
        int budget = visits < 0 ? (all < INT_MAX ? (int)all : INT_MAX) : g->k * g->pt.left + visits;
        /* PRUNE_ROOT_WALK_CAP: at a random line's root, at most walk_cap steps (is_dead). */
        int capped = visits < 0 && clock && clock->walk_cap > 0 && budget > clock->walk_cap;
        if (capped) budget = clock->walk_cap;
        int left = budget;
        int points_on = visits < 0 && POINT_DEPTH >= 0 && memo && memo->slot;
        dead = grid_walk(g, points, &left, seen, set, points_on ? memo : NULL, clock, wit) == 0;
        added += (uint64_t)(budget - (left > 0 ? left : 0)) + (uint64_t)g->k * 12;
        if (clock && clock->expired) return 0;     /* cut by the clock: not a result to keep */
        if (capped && left < 0) {                  /* cut by the cap: neither, and not kept */
            *steps += added;
            clock->root_undecided = 1;
            return 0;
        }
    }
    *steps += added;
    if (n > 0 && added <= UINT32_MAX) memo_put(memo, h, sig, n, dead, added);
    return dead;
}

/* The test on the position's grid; with stock (stuck-stock), where that grid leaves the
 * position alive, again on the grid with the stuck stock cards, which holds every pile of the
 * first and is never weaker (docs/solver.md): the first, smaller grid settles most dead ends
 * more cheaply.  set (or NULL): the grid may have any number of points (WHOLE_GRID), and a
 * grid of more than grid_max has its seen points in the set. */
static int room_dead(const SalicDeal *d, const SalicState *s, uint64_t *steps, uint64_t grid_max,
                     int visits, int stock, uint8_t *seen, SeenSet *set, const RoomMemo *memo,
                     ScratchHead *clock, Witness *wit) {
    Grid g;
    uint64_t most = set ? WHOLE_GRID : grid_max;
    uint64_t points = grid_build(d, s, most, 0, &g);
    if (g.k > 0 && grid_test(&g, points, steps, visits, seen, set, memo, clock, wit)) return 1;
    if (!stock || (clock && clock->expired)) return 0;
    points = grid_build(d, s, most, 1, &g);
    return g.stuck > 0 &&
           grid_test(&g, points, steps, visits, seen, set, memo, clock, wit ? wit + 1 : NULL);
}

static int parking_room_dead(const SalicDeal *d, const SalicState *s, uint64_t *steps,
                             const RoomMemo *memo) {
    uint8_t seen[GRID_MAX / 8];
    return room_dead(d, s, steps, GRID_MAX, GRID_VISITS, 0, seen, NULL, memo, NULL, NULL);
}

/* PRUNE_STUCK_STOCK applies: a PySol profile, the stock not empty (so nothing parked yet).
 * -DSTUCK_STOCK=0 builds the search without it. */
#ifndef STUCK_STOCK
#define STUCK_STOCK 1
#endif
#ifndef STUCK_PROBES
#define STUCK_PROBES 0
#endif
static int stuck_applies(const SalicDeal *d, const SalicState *s, unsigned prune,
                         const ScratchHead *head) {
    if (!STUCK_STOCK || !(prune & PRUNE_STUCK_STOCK) || !d->park_after_stock ||
        s->sp >= SALIC_CARDS)
        return 0;
    if (head && !head->final_search && !STUCK_PROBES) return 0;
    for (int q = 0; q < SALIC_QUEENS; q++)
        if (s->parked[q] != PARK_NONE) return 0;
    return 1;
}

/* PRUNE_DEEP_ROOM (docs/solver.md, "deep-room"): the same test with a larger grid (DEEP_GRID,
 * above) and budget. */
#define DEEP_VISITS 5000

/* set: where the walk is whole (visits < 0), the seen points of a whole grid (BIG_GRID), or
 * NULL: the grid of at most DEEP_GRID points. */
static int deep_room_dead(const SalicDeal *d, const SalicState *s, uint64_t *steps, int visits,
                          int stock, SeenSet *set, const RoomMemo *memo, ScratchHead *clock,
                          Witness *wit) {
    uint8_t seen[DEEP_GRID / 8];     /* 128 KiB of stack */
    return room_dead(d, s, steps, DEEP_GRID, visits, stock, seen,
                     BIG_GRID && visits < 0 ? set : NULL, memo, clock, wit);
}

/* The set of seen points of the test hooks' whole walks (they have no search's memory bound),
 * and the memo salic_room_memo_check runs its tests through (a size changes no result). */
#define HOOK_SEEN_SLOTS (1 << 22)
#define HOOK_MEMO_SLOTS (1 << 19)

/* Test hook (CorePosition.room_dead): the parking-room test (deep: with deep-room's grid, and
 * whole: the whole grid) on its own, its walk cut short as in the search or (whole) never. */
int salic_room_dead(const SalicDeal *d, const SalicState *s, int deep, int whole, int stock) {
    uint64_t ignored = 0;
    stock = stock && stuck_applies(d, s, PRUNE_STUCK_STOCK, NULL);
    if (deep) {
        SeenSet set = {0};
        set.max_slots = HOOK_SEEN_SLOTS;
        int dead = deep_room_dead(d, s, &ignored, whole ? -1 : DEEP_VISITS, stock, &set, NULL,
                                  NULL, NULL);
        seen_free(&set);
        return dead;
    }
    uint8_t seen[GRID_MAX / 8];
    return room_dead(d, s, &ignored, GRID_MAX, whole ? -1 : GRID_VISITS, stock, seen, NULL, NULL,
                     NULL, NULL);
}

/* Test hook (CorePosition.room_dead with cap): deep-room's whole test as at a random line's root
 * under root-walk-cap, its walk at most cap steps: 1 dead, 0 alive, -1 cut short by the cap
 * (where the search leaves the root). */
int salic_room_capped(const SalicDeal *d, const SalicState *s, int cap) {
    ScratchHead head = {0};
    head.walk_cap = cap;
    SeenSet set = {0};
    set.max_slots = HOOK_SEEN_SLOTS;
    uint64_t ignored = 0;
    int dead = deep_room_dead(d, s, &ignored, -1, 0, &set, NULL, &head, NULL);
    seen_free(&set);
    return head.root_undecided ? -1 : dead;
}

/* Test hook (CorePosition.room_memo_check): the test (as salic_room_dead) run without the room
 * memo and through one memo that the calls share (reset: empty it first), as the search does
 * over the positions of one deal.  Returns -1 where the two differ in verdict, or in the steps
 * they count where the walk may be cut short (a whole walk's dead points count none), or where
 * the grid's piles are not in point_signature's order; else the verdict, plus 2 where the memo
 * had the grid, plus 4 where the steps differ (dead points answered; whole walks only).
 * -2: no memory. */
int salic_room_memo_check(const SalicDeal *d, const SalicState *s, int deep, int whole, int reset,
                          int stock) {
    static RoomMemo memo = {NULL, HOOK_MEMO_SLOTS - 1};
    static uint8_t *seen;
    static SeenSet hook_set = {.max_slots = HOOK_SEEN_SLOTS};
    if (!memo.slot) memo.slot = malloc(HOOK_MEMO_SLOTS * sizeof *memo.slot);
    if (!seen) seen = malloc(DEEP_GRID / 8);
    if (!memo.slot || !seen) return -2;
    if (reset) memset(memo.slot, 0, HOOK_MEMO_SLOTS * sizeof *memo.slot);
    int grid_max = deep ? DEEP_GRID : GRID_MAX;
    int visits = whole ? -1 : deep ? DEEP_VISITS : GRID_VISITS;
    SeenSet *set = BIG_GRID && deep && whole ? &hook_set : NULL;   /* as deep_room_dead */
    uint64_t plain = 0, memo_steps = 0;
    stock = stock && stuck_applies(d, s, PRUNE_STUCK_STOCK, NULL);
    int v0 = room_dead(d, s, &plain, grid_max, visits, stock, seen, set, NULL, NULL, NULL);
    Grid g;
    uint8_t sig[SIG_MAX];
    grid_build(d, s, set ? WHOLE_GRID : (uint64_t)grid_max, stock, &g);
    for (int p = 1; p < g.k; p++) {    /* grid_build's order is point_signature's */
        int a = g.cand[p - 1], b = g.cand[p];
        if (a / SALIC_QUEENS > b / SALIC_QUEENS ||
            (a / SALIC_QUEENS == b / SALIC_QUEENS &&
             (g.len[p - 1] < g.len[p] || (g.len[p - 1] == g.len[p] && a > b))))
            return -1;
    }
    int n = g.k ? grid_signature(&g, visits, sig) : -1, had = 0;
    uint64_t h;
    if (n > 0) {
        had = memo_find(&memo, sig, n, &h) != NULL;
    }
    int v1 = room_dead(d, s, &memo_steps, grid_max, visits, stock, seen, set, &memo, NULL, NULL);
    if (v0 != v1 || (visits >= 0 && plain != memo_steps)) return -1;
    return v0 + 2 * had + 4 * (plain != memo_steps);
}

/* Test hook (CorePosition.room_witness_check): deep-room's whole test (stock: with stuck-stock's
 * piles, as room_dead) on its own and through the witness paths that these calls share (reset:
 * none to start with), as the near zone of a search runs it over a deal's positions.  Returns
 * -1 where the two verdicts differ, else the verdict, plus 2 where a replay answered. */
int salic_room_witness_check(const SalicDeal *d, const SalicState *s, int reset, int stock) {
    static Witness wit[2];
    static SeenSet hook_set = {.max_slots = HOOK_SEEN_SLOTS};
    if (reset) memset(wit, 0, sizeof wit);
    stock = stock && stuck_applies(d, s, PRUNE_STUCK_STOCK, NULL);
    uint64_t ignored = 0;
    int plain = deep_room_dead(d, s, &ignored, -1, stock, &hook_set, NULL, NULL, NULL);
    uint32_t replayed = wit[0].replayed + wit[1].replayed;
    int with = deep_room_dead(d, s, &ignored, -1, stock, &hook_set, NULL, NULL, wit);
    if (plain != with) return -1;
    return with + 2 * (wit[0].replayed + wit[1].replayed != replayed);
}

/* Test hook (solver._core.memo_ways): the room memo's replacement, on a memo of one pair of
 * slots.  ops[i] = 2v puts signature v (its bytes v, 0x5a; steps v), 2v + 1 looks v up; out[i]
 * gets 1 where the lookup found it, else 0.  -1 where an entry found holds other steps. */
int salic_memo_ways_check(const int *ops, int n, int *out) {
    MemoEntry slots[2];
    memset(slots, 0, sizeof slots);
    RoomMemo memo = {slots, 1};
    for (int i = 0; i < n; i++) {
        int v = ops[i] >> 1;
        uint8_t sig[2] = {(uint8_t)v, 0x5a};
        uint64_t h;
        out[i] = 0;
        if (ops[i] & 1) {
            const MemoEntry *e = memo_find(&memo, sig, 2, &h);
            if (e && e->steps != (uint32_t)v) return -1;
            out[i] = e != NULL;
        } else {
            memo_put(&memo, signature_hash(sig, 2), sig, 2, 1, (uint64_t)v);
        }
    }
    return 0;
}

/* The test hooks' random paths: one card from a pile with cards left, picked by a xorshift
 * generator (state *x). */
static void hook_random_take(const Grid *g, GridPoint *pt, uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    int p = (int)(*x % (uint64_t)g->k);
    while (pt->idx[p] == g->len[p]) p = (p + 1) % g->k;
    grid_take(g, pt, p);
}

/* Test hook (CorePosition.grid_eval_check): from the origin of the position's deep grid to its
 * end, one card at a time from piles picked by a xorshift generator seeded with seed, compare
 * grid_eval with grid_eval_plain at every point.  Returns the points compared, or -1 at the first
 * where they disagree. */
int salic_grid_eval_check(const SalicDeal *d, const SalicState *s, uint64_t seed, int stock) {
    Grid g;
    grid_build(d, s, WHOLE_GRID, stock && stuck_applies(d, s, PRUNE_STUCK_STOCK, NULL), &g);
    GridPoint pt = g.pt;
    uint64_t x = seed | 1;
    for (int n = 1;; n++) {
        unsigned fast, plain;
        if (grid_eval(&g, &pt, &fast) != grid_eval_plain(&g, &pt, &plain) || fast != plain)
            return -1;
        if (pt.left == 0) return n;
        hook_random_take(&g, &pt, &x);
    }
}

/* Test hook (CorePosition.grid_tight_check): along a path through the position's deep grid
 * picked as in salic_grid_eval_check, at every point grid_tight must equal grid_tight_plain,
 * and at every point with no room to spare (need = 8 - piles not empty) every step that takes
 * a card of a tight slot, not its pile's last, must reach an infeasible point.  Returns the
 * steps so checked; -1 where the two masks differ, -2 where such a step is feasible. */
int salic_grid_tight_check(const SalicDeal *d, const SalicState *s, uint64_t seed, int stock) {
    Grid g;
    grid_build(d, s, WHOLE_GRID, stock && stuck_applies(d, s, PRUNE_STUCK_STOCK, NULL), &g);
    GridPoint pt = g.pt;
    uint64_t x = seed | 1;
    int checked = 0;
    for (;;) {
        unsigned fr, tight = grid_tight(&g, &pt);
        if (tight != grid_tight_plain(&g, &pt)) return -1;
        if (grid_eval(&g, &pt, &fr) == SALIC_QUEENS - pt.nonempty) {
            for (int p = 0; p < g.k; p++) {
                int i = pt.idx[p];
                if (i >= g.len[p] - 1 || !(tight >> g.card[p][i] & 1)) continue;
                GridPoint next = pt;
                grid_take(&g, &next, p);
                if (grid_eval(&g, &next, &fr) <= SALIC_QUEENS - next.nonempty) return -2;
                checked++;
            }
        }
        if (pt.left == 0) return checked;
        hook_random_take(&g, &pt, &x);
    }
}

/* How often the search runs the parking-room test (scratch kept for one search).  It costs
 * grid steps where a node costs about ROOM_STEPS_PER_DEAL of them, so the tests of a search may
 * spend at most that many steps per deal offered, and once it has been run ROOM_TRIAL times
 * while finding dead ends in fewer than 1 in ROOM_RARE of them, only every ROOM_SAMPLE-th deal is
 * tested.  Testing less never makes the search unsound. */
#define ROOM_TRIAL 4096
#define ROOM_RARE 16
#define ROOM_SAMPLE 32
#define ROOM_STEPS_PER_DEAL 32
/* The deep test (PRUNE_DEEP_ROOM) takes over once the search has offered DEEP_AFTER deals, so
 * that the deals decided sooner do not pay for it.  Once it has been run DEEP_TRIAL times, it is
 * skipped while its steps exceed DEEP_STEPS_PER_DEAL per deal offered to it (except in the seed
 * rules' final search, after the probes, where its steps are not capped), and, if it found dead
 * ends in fewer than 1 in ROOM_RARE of them, only every ROOM_SAMPLE-th deal is tested.
 * The exhaustive searches (between the probe rounds and the final one) keep a record of their
 * own (DEEP_WHOLE_COUNTS 1), so that the probes' misses do not throttle the test where a proof
 * needs it (docs/solver.md, "deep-room", *The exhaustive searches' own record*).
 * -DDEEP_WHOLE_COUNTS=0 keeps one record for the whole search, as before. */
#ifndef DEEP_WHOLE_COUNTS
#define DEEP_WHOLE_COUNTS 1
#endif
#define DEEP_AFTER 20000
#define DEEP_TRIAL 1024
#define DEEP_STEPS_PER_DEAL 64
/* Near the end of the stock (at most DEEP_NEAR_END cards left), the deep test runs at every deal
 * once it has taken over, with no throttle, in the probes that search end games whole (mode 1)
 * and in the final search: there the stock cards it gives away are few, and it finds many
 * positions dead (docs/solver.md, "deep-room").  There its walk has NEAR_VISITS steps beyond a
 * straight walk, or (-1) is never cut short: most walks that ran out of DEEP_VISITS steps there
 * would have found a dead end in a few more.  -DDEEP_NEAR_END=-1 turns the zone off. */
#ifndef DEEP_NEAR_END
#define DEEP_NEAR_END 24
#endif
/* In the probes of the first DEEP_NEAR_ROUNDS rounds the zone is narrower: DEEP_NEAR_PROBE cards
 * left at most, 0 being the deal that empties the stock, the end game's root (docs/solver.md,
 * "deep-room", *The zone in the early probes*).  The later probes and the exhaustive searches
 * (between the rounds and the final one) keep DEEP_NEAR_END, and no zone is wider than it
 * (-DDEEP_NEAR_END=-1 still turns the zone off everywhere).  Where the test runs is an order of
 * work, not a cut.  -DDEEP_NEAR_PROBE=24 builds the zone as before. */
#ifndef DEEP_NEAR_PROBE
#define DEEP_NEAR_PROBE 0
#endif
#ifndef DEEP_NEAR_ROUNDS
#define DEEP_NEAR_ROUNDS 7
#endif
#ifndef NEAR_VISITS
#define NEAR_VISITS (-1)
#endif

typedef struct {
    uint64_t offered, tested, dead, steps;
} TestCounts;

typedef struct {
    ScratchHead head;
    TestCounts room, deep, near;    /* room.offered counts every deal offered */
    TestCounts deep_whole;          /* the deep test in the exhaustive searches */
    RoomMemo memo;                  /* the room memo, made when the deep test takes over (slot
                                       NULL: not yet, or no memory for it; the tests then run
                                       without it), so that the deals decided sooner do not pay
                                       for it; with seen, at most head.memo_bytes */
    SeenSet seen;                   /* the whole grid's (max_slots 0: none), from then on too */
    Witness wit[2];                 /* the near zone's last paths: without, with stuck stock */
} RoomStats;

/* Room memos kept between searches (docs/solver.md, "deep-room", *Room memo*, "Kept"): a
 * search that makes a memo takes one of its size from here if there is one, and gives it back
 * when it ends, so that only the first search of a process that makes one pays for its pages
 * (the kernel's first touch of each).  What an earlier search left in it never matches: each
 * search salts its hashes (memo_hash) with a number of its own, and to memo_find and memo_put
 * an entry of another salt is as an empty slot.  Each place holds one atomic pointer to a
 * KeptMemo that no one else can see while it is there: taken by exchanging it for NULL, given
 * by a compare-and-swap from NULL (no lock, which a fork in the middle could leave held).
 * -DMEMO_KEEP=0 builds the search that frees its memo. */
#ifndef MEMO_KEEP
#define MEMO_KEEP 2
#endif
typedef struct {
    MemoEntry *slot;
    size_t slots;
} KeptMemo;
static KeptMemo *memo_kept[MEMO_KEEP > 0 ? MEMO_KEEP : 1];
static uint64_t memo_searches;

/* A memo of slots slots for a new search, and its salt (even: hashes stay odd). */
static MemoEntry *memo_take(size_t slots, uint64_t *salt) {
    *salt = (__atomic_add_fetch(&memo_searches, 1, __ATOMIC_RELAXED) * 0x9E3779B97F4A7C15ULL) << 1;
    for (int i = 0; i < MEMO_KEEP; i++) {
        KeptMemo *k = __atomic_exchange_n(&memo_kept[i], NULL, __ATOMIC_ACQUIRE);
        if (!k) continue;
        if (k->slots == slots) {
            MemoEntry *m = k->slot;
            free(k);
            return m;
        }
        KeptMemo *none = NULL;             /* another size: back in its place, or freed */
        if (!__atomic_compare_exchange_n(&memo_kept[i], &none, k, 0, __ATOMIC_RELEASE,
                                         __ATOMIC_RELAXED)) {
            free(k->slot);
            free(k);
        }
    }
    return calloc(slots, sizeof(MemoEntry));
}

/* A search's memo, at its end: kept where there is a free place, else freed. */
static void memo_give(MemoEntry *m, size_t slots) {
    KeptMemo *k = MEMO_KEEP > 0 ? malloc(sizeof *k) : NULL;
    if (k) {
        k->slot = m;
        k->slots = slots;
        for (int i = 0; i < MEMO_KEEP; i++) {
            KeptMemo *none = NULL;
            if (__atomic_compare_exchange_n(&memo_kept[i], &none, k, 0, __ATOMIC_RELEASE,
                                            __ATOMIC_RELAXED))
                return;
        }
        free(k);
    }
    free(m);
}

size_t salic_memo_release(void) {
    size_t bytes = 0;
    for (int i = 0; i < MEMO_KEEP; i++) {
        KeptMemo *k = __atomic_exchange_n(&memo_kept[i], NULL, __ATOMIC_ACQUIRE);
        if (!k) continue;
        bytes += k->slots * sizeof(MemoEntry);
        free(k->slot);
        free(k);
    }
    return bytes;
}

int salic_memo_keep_check(void) {
    enum { SLOTS = 1024 };
    uint8_t sig[3] = {7, 0x5a, 3};
    uint64_t h;
    int got = 0;
    RoomMemo memo = {NULL, SLOTS - 1, 0};
    memo.slot = memo_take(SLOTS, &memo.salt);
    if (!memo.slot) return -2;
    MemoEntry *first = memo.slot;
    memo_put(&memo, memo_hash(&memo, sig, 3), sig, 3, 1, 7);
    if (memo_find(&memo, sig, 3, &h)) got |= 4;          /* its own search finds it */
    memo_give(memo.slot, SLOTS);
    memo.slot = memo_take(SLOTS, &memo.salt);          /* the next search's */
    if (!memo.slot) return -2;
    if (memo.slot == first) got |= 1;                   /* kept */
    if (memo_find(&memo, sig, 3, &h)) got |= 2;          /* an earlier search's entry: never */
    free(memo.slot);                                   /* not kept: leaves the places as they were */
    return got;
}

/* GameOps.scratch_free: the room memo goes back (memo_give) with the search. */
static void free_scratch(void *scratch) {
    RoomStats *st = scratch;
    if (st->memo.slot) memo_give(st->memo.slot, st->memo.mask + 1);
    st->memo.slot = NULL;
    seen_free(&st->seen);
    st->head.memo_held = 0;
}

/* The throttle above: skip this run of a test so counted (steps_per_deal 0: no cap). */
static int skip_test(const TestCounts *c, uint64_t trial, uint64_t steps_per_deal) {
    return c->tested >= trial &&
           ((steps_per_deal && c->steps > steps_per_deal * c->offered) ||
            (c->dead * ROOM_RARE < c->tested && c->offered % ROOM_SAMPLE != 0));
}

static int is_dead(const void *dv, void *sv, unsigned prune, MoveCode via, void *scratch) {
    const SalicDeal *d = dv;
    const SalicState *s = sv;
    if (!(prune & (PRUNE_PARKING_ROOM | PRUNE_DEEP_ROOM)) ||
        (via != MOVE_NONE && MOVE_KIND(via) != MV_DEAL))
        return 0;
    RoomStats *st = scratch;
    uint64_t ignored = 0;
    int deep = (prune & PRUNE_DEEP_ROOM) != 0;
    if (!st) {
        if (deep)
            return deep_room_dead(d, s, &ignored, DEEP_VISITS, stuck_applies(d, s, prune, NULL),
                                  NULL, NULL, NULL, NULL);
        return (prune & PRUNE_PARKING_ROOM) && parking_room_dead(d, s, &ignored, NULL);
    }
    st->room.offered++;
    if (!st->memo.slot && st->head.memo_bytes && st->room.offered == DEEP_AFTER + 1) {
        size_t slots;
        memo_split(st->head.memo_bytes, &slots, &st->seen.max_slots);
        st->memo.slot = slots ? memo_take(slots, &st->memo.salt) : NULL;
        /* Beside another search (threads=2), 2 MiB pages (table.h, advise_huge): with 4 KiB
         * ones the first writes to the fresh memo cost an interrupt to the other core each, and
         * PySol Glencoe 770 took 1.38 s instead of 0.38 s.  Alone, no: 2 MiB pages make the
         * kernel clear the whole memo where a deal uses a little of it, and bench showed no gain. */
        if (st->memo.slot && st->head.shared) advise_huge(st->memo.slot, slots * sizeof(MemoEntry));
        st->memo.mask = slots - 1;
        st->head.memo_held = st->memo.slot ? slots * sizeof(MemoEntry) : 0;
    }
    TestCounts *c;
    int dead;
    int whole_end_games = st->head.final_search || st->head.probe_mode == 1;
    int zone = st->head.final_search || st->head.probe_round >= DEEP_NEAR_ROUNDS ||
                       DEEP_NEAR_END < DEEP_NEAR_PROBE ? DEEP_NEAR_END : DEEP_NEAR_PROBE;
    if (deep && (st->room.offered > DEEP_AFTER || st->head.random_root) && whole_end_games &&
        SALIC_CARDS - s->sp <= zone) {
        c = &st->near;
        c->offered++;
        c->tested++;
        st->head.walk_left = -1;
        /* PRUNE_ROOT_WALK_CAP (docs/solver.md, "`root-walk-cap`"): at a random line's root the
         * walk stops after ROOT_WALK_CAP steps, and the root is then left (search.c). */
        st->head.walk_cap = !st->head.random_root || !(prune & PRUNE_ROOT_WALK_CAP) ||
                            !(prune & PRUNE_RANDOM_LINES) ? 0
                            : st->head.root_walk_cap > 0 ? st->head.root_walk_cap : ROOT_WALK_CAP;
        st->head.root_undecided = 0;
        dead = deep_room_dead(d, s, &c->steps, NEAR_VISITS, stuck_applies(d, s, prune, &st->head),
                              st->seen.max_slots ? &st->seen : NULL, &st->memo,
                              NEAR_VISITS < 0 ? &st->head : NULL, st->wit);
        int cut = st->head.walk_cap > 0 && st->head.root_undecided;
        st->head.walk_cap = 0;
        if (cut) {                                 /* left: dfs ends, search.c caches nothing */
            st->head.root_score = -2;
            return 1;
        }
        /* PRUNE_GUIDED_LINES: at a random line's root, how near its walk came to taking every
         * card (docs/solver.md, "`guided-lines`"); where no walk ran, not known. */
        if (st->head.random_root && st->head.root_score == -1) {
            int left = st->head.walk_left;
            st->head.root_score = left >= 0 ? (dead ? SALIC_CARDS - left : SALIC_CARDS + 1) : -2;
        }
        st->head.memo_held = (st->memo.slot ? (st->memo.mask + 1) * sizeof(MemoEntry) : 0) +
                             seen_bytes(&st->seen);
    } else if (deep && st->room.offered > DEEP_AFTER) {
        c = DEEP_WHOLE_COUNTS && st->head.final_search ? &st->deep_whole : &st->deep;
        c->offered++;
        int uncapped = st->head.final_search && !d->park_after_stock;
        if (skip_test(c, DEEP_TRIAL, uncapped ? 0 : DEEP_STEPS_PER_DEAL)) return 0;
        c->tested++;
        dead = deep_room_dead(d, s, &c->steps, DEEP_VISITS, stuck_applies(d, s, prune, &st->head),
                              NULL, &st->memo, NULL, NULL);
    } else {
        if (!(prune & PRUNE_PARKING_ROOM)) return 0;
        c = &st->room;
        if (skip_test(c, ROOM_TRIAL, ROOM_STEPS_PER_DEAL)) return 0;
        c->tested++;
        dead = parking_room_dead(d, s, &c->steps, &st->memo);
    }
    c->dead += (uint64_t)dead;
    return dead;
}

/* A probe's discrepancies (docs/solver.md, "order of work"): in mode 0 every step down a move
 * list costs 1; in mode 1 steps cost nothing once the stock is empty, so that under each
 * dealing line with few strays the end game is searched whole.  Mode 1 never costs more, so it
 * is the wide mode (GameOps.modes_nested): a mode-0 probe is skipped where the mode-1 one of
 * its round and rules, run before it, tried all its lines.  (The modes also differ in where
 * deep-room runs: a cut, which leaves every winning line in place.) */
static int choice_cost(const void *dv, const void *sv, int mode) {
    (void)dv;
    const SalicState *s = sv;
    return mode == 0 || s->sp < SALIC_CARDS;
}

/* The end game (stock empty) costs nothing in mode 1, and it never ends. */
static int sealed(const void *dv, const void *sv) {
    (void)dv;
    const SalicState *s = sv;
    return s->sp == SALIC_CARDS ? 1 : -1;
}

/* The twin probes (docs/solver.md, "Order of work" and "`feed-first`"): in the PySol profiles
 * (no parking while dealing) without lazy-plays, then with it but without feed-first; in the
 * seed rules without lazy-order only (a feed-first twin there made the tails longer). */
static int twin_rules(const void *dv, unsigned prune, unsigned *sets) {
    const SalicDeal *d = dv;
    unsigned lazy = d->park_after_stock ? PRUNE_LAZY_PLAYS : PRUNE_LAZY_ORDER;
    if (!(prune & lazy)) return 0;
    sets[0] = lazy;
    if (!d->park_after_stock || !(prune & PRUNE_FEED_FIRST)) return 1;
    sets[1] = PRUNE_FEED_FIRST;
    return 2;
}

static int level(const void *dv, const void *sv) {
    (void)dv;
    return ((const SalicState *)sv)->sp;
}

/* PRUNE_SEALED_CAP (docs/solver.md, "`sealed-cap`"): 0, no cap on a mode-1 probe's end game. */
#ifndef SALIC_SEALED_CAP_DIV
#define SALIC_SEALED_CAP_DIV 0
#endif

/* PRUNE_RANDOM_LINES (docs/solver.md, "`random-lines`"): in the PySol profiles, where no card is
 * parked while dealing and the sealed part (the end game) starts at the last deal. */
static int random_lines(const void *dv) {
    return ((const SalicDeal *)dv)->park_after_stock;
}

/* The search made for this game (dfs.h, GAME_DFS): the body with SALIC_OPS known here. */
#include "dfs.h"
extern const GameOps SALIC_OPS;
#if GAME_DFS
static int salic_dfs(DFS_ARGS) {
    (void)ops;
    return DFS_BODY(&SALIC_OPS);
}
#else
#define salic_dfs NULL
#endif

const GameOps SALIC_OPS = {sizeof(SalicState), gen_moves, apply, is_won, make_key, is_dead,
                           choice_cost, 1,
                           PRUNE_PARKING_ROOM | PRUNE_LAZY_PLAYS | PRUNE_DEEP_ROOM | PRUNE_LAZY_ORDER,
                           twin_rules, sizeof(RoomStats), 2, sealed, level, 0, 1, 1,
                           free_scratch, memo_size, salic_dfs, SALIC_SEALED_CAP_DIV, 0,
                           random_lines};
