/* Salic family (Glencoe, Intrigue and the PySol profiles) for the compiled core.
 *
 * The deal is stored once: for each deal position its rank and suit, which pile it lands on and
 * where each queen's segment of the stock begins and ends.  A pile is then fully described by
 * which cards of its segment are still on it ("present" bits, one per deal position) plus at most
 * one card parked at its bottom, so the search state is 56 bytes.
 */
#ifndef SALIC_H
#define SALIC_H

#include "core.h"

#define SALIC_CARDS 104
#define SALIC_QUEENS 8
#define SALIC_NONE 0xff

typedef struct {
    uint8_t rank[SALIC_CARDS];        /* by deal position; position 0 is queen 1 */
    uint8_t suit[SALIC_CARDS];
    uint8_t queen_no[SALIC_CARDS];    /* queen number (0-based) at a queen's position, else NONE */
    uint8_t queen_suit[SALIC_QUEENS];
    uint8_t suit_queens[SALIC_QUEENS + 1][4];  /* queens of each suit among the first n queens */
    uint64_t seg_mask[SALIC_QUEENS][2];        /* deal positions that land on queen q's pile */
    uint64_t face_mask[13 + 4 * 13][2];        /* deal positions of each face (see face_index) */
    uint8_t suited_slots, slots_from_start, park_after_stock, win_needs_empty_stock;
} SalicDeal;

typedef struct {
    uint64_t present[2];              /* dealt non-queen cards still on their own pile */
    uint8_t sp;                       /* deal positions dealt so far; the stock is sp..103 */
    uint8_t nq;                       /* queens on the table */
    uint8_t on_found;                 /* cards on foundations (won at 96) */
    uint8_t parked[SALIC_QUEENS];     /* deal position of the card parked on queen q, or NONE */
    uint8_t cnt[13];                  /* cards of each rank on foundations */
    uint8_t six_suit[4], five_suit[4];/* Glencoe: sixes / fives of each suit on foundations */
    uint8_t lazy;                     /* PRUNE_LAZY_PLAYS: 1 + rank of the lazy play that led here, or 0 */
} SalicState;

/* Fill deal and the initial state from 104 cards (suit*13+rank) in deal order, the first a queen.
 * Returns 0, or -1 if the cards are not a deal of this family. */
int salic_setup(SalicDeal *deal, SalicState *start, const uint8_t *cards, int suited_slots,
                int slots_from_start, int park_after_stock, int win_needs_empty_stock);

/* The top card (deal position) of queen q's pile, or -1 when the queen is empty. */
int salic_top(const SalicDeal *d, const SalicState *s, int q);
int salic_pile_size(const SalicDeal *d, const SalicState *s, int q);
/* The card just under the top of queen q's pile, or -1. */
int salic_below_top(const SalicDeal *d, const SalicState *s, int q);

/* Test hook: the parking-room walk's fast and plain arithmetic agree along one random path
 * through the position's grid (the points compared, or -1). */
int salic_grid_eval_check(const SalicDeal *d, const SalicState *s, uint64_t seed, int stock);
int salic_grid_tight_check(const SalicDeal *d, const SalicState *s, uint64_t seed, int stock);
/* Test hook: the parking-room test alone (deep: deep-room's grid; whole: the walk never cut
 * short). */
int salic_room_dead(const SalicDeal *d, const SalicState *s, int deep, int whole, int stock);
int salic_room_capped(const SalicDeal *d, const SalicState *s, int cap);
/* Test hook: the same test without the room memo and through one that the calls share (reset:
 * emptied first): -1 where they differ (verdict or steps), else the verdict, plus 2 where the
 * memo had it. */
int salic_room_memo_check(const SalicDeal *d, const SalicState *s, int deep, int whole, int reset,
                          int stock);
/* Test hook: deep-room's whole test on its own and through witness paths that the calls share
 * (reset: none to start with): -1 where the verdicts differ, else the verdict, plus 2 where a
 * replay answered (salic.c, WITNESS). */
int salic_room_witness_check(const SalicDeal *d, const SalicState *s, int reset, int stock);
/* Test hook: the room memo's two ways, on a memo of one pair of slots (salic.c). */
int salic_memo_ways_check(const int *ops, int n, int *out);
/* Test hook (docs/solver.md, "deep-room", *Room memo*, "Kept"): a memo taken, an entry put in,
 * given back and taken again as the next search's; returns 1 if the same memo came back, + 2 if
 * the next search found the entry (it must not), + 4 if its own search found it; -2 no memory. */
int salic_memo_keep_check(void);
/* Free the room memos kept between searches; returns their bytes. */
size_t salic_memo_release(void);

extern const GameOps SALIC_OPS;

#endif
