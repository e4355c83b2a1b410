#include "salic.h"

#include <string.h>

#define SIX 5
#define FIVE 4
#define QUEEN 11
#define PARK_NONE SALIC_NONE

/* Down slots run 5 4 3 2 A K: the rank each down card is laid on. */
static const int8_t DOWN_BELOW[13] = {1, 2, 3, 4, -1, -1, -1, -1, -1, -1, -1, -1, 0};

static inline int is_up_rank(int r) { return r >= SIX && r <= 10; }

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
    if (q != SALIC_QUEENS - 1) return -1;
    for (int n = 1; n <= SALIC_QUEENS; n++) {
        memcpy(d->suit_queens[n], d->suit_queens[n - 1], 4);
        d->suit_queens[n][d->queen_suit[n - 1]]++;
    }
    d->suited_slots = (uint8_t)suited_slots;
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

/* Slots whose top is the rank this card is laid on (or free slots it may start). */
static int room(const SalicDeal *d, const SalicState *s, int rank, int suit) {
    if (rank == SIX || rank == FIVE) return free_start_slots(d, s, rank, suit);
    int below = is_up_rank(rank) ? rank - 1 : DOWN_BELOW[rank];
    if (below < 0) return 0;   /* a queen */
    return s->cnt[below] - s->cnt[rank];
}

/* PRUNE_SAFE_FOUNDATION: no other card can ever compete with this one for a slot, because
 * there is room for every copy of its rank (or suit, for Glencoe's starts) still to be played. */
static int is_safe(const SalicDeal *d, const SalicState *s, int rank, int suit) {
    int copies = (d->suited_slots && (rank == SIX || rank == FIVE))
        ? 2 - (rank == SIX ? s->six_suit[suit] : s->five_suit[suit])
        : 8 - s->cnt[rank];
    return room(d, s, rank, suit) >= copies;
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
    for (int q = 0; q < nq; q++) {
        int t = top[q];
        if (t < 0) continue;
        int r = d->rank[t], su = d->suit[t];
        if (room(d, s, r, su) > 0) {
            if ((prune & PRUNE_SAFE_FOUNDATION) && is_safe(d, s, r, su)) {
                out[0] = MOVE(MV_FOUND, q, 0);
                return 1;
            }
            out[n++] = MOVE(MV_FOUND, q, 0);
        }
    }
    if (!reduced || !can_park) {
        if (s->sp < SALIC_CARDS) out[n++] = MOVE(MV_DEAL, 0, 0);
        if (!can_park) return n;
        for (int q = 0; q < nq; q++)
            if (top[q] >= 0)
                for (int e = 0; e < nq; e++)
                    if (top[e] < 0) out[n++] = MOVE(MV_PARK, q, e);
        return n;
    }
    /* Order only: parks that uncover a card which fits a foundation now come before the deal,
     * the other parks after it. */
    MoveCode later[MAX_MOVES];
    int nl = 0;
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
}

static int is_won(const void *dv, const void *sv) {
    const SalicDeal *d = dv;
    const SalicState *s = sv;
    return s->on_found == 96 && (!d->win_needs_empty_stock || s->sp == SALIC_CARDS);
}

/* The canonical key.  Word 0 and the low 40 bits of word 1: present bits; then the stock
 * pointer.  Word 2: one 6-bit entry per queen, the card at the bottom of its pile by face
 * (1 + rank, plus 13 * (suit + 1) for Glencoe's fives and sixes), 0 for none.
 *
 * Queens other than the last that hold at most one card are interchangeable (nothing is dealt
 * onto them; once the stock is empty that includes the last), so their single cards are
 * written as faces, sorted, whether the card is parked or its own segment's.  Every other pile
 * keeps its place, its bottom card written as a face (parked or not), the rest as present bits.
 * Suits are dropped wherever they cannot matter: every face except Glencoe's fives and sixes. */
static inline uint64_t face(const SalicDeal *d, int pos) {
    int r = d->rank[pos];
    uint64_t f = 1 + (uint64_t)r;
    if (d->suited_slots && (r == SIX || r == FIVE)) f += 13 * (1 + (uint64_t)d->suit[pos]);
    return f;
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
    k->w[1] = present[1] | ((uint64_t)s->sp << 40) | KEY_VALID;
    k->w[2] = w2;
}

static int is_dead(const void *dv, const void *sv, unsigned prune, MoveCode via) {
    (void)dv; (void)sv; (void)prune; (void)via;
    return 0;
}

const GameOps SALIC_OPS = {sizeof(SalicState), gen_moves, apply, is_won, make_key, is_dead, NULL,
                           1};
