/* Banner family (Banner, Devil's Solitaire, Forget-me-not, Clover) for the compiled core.
 *
 * Suits never matter, so the deal is stored as ranks.  The talon is the card first turned onto
 * the waste followed by the stock in turn order; waste and stock are always the talon cards not
 * yet taken, split at a pointer p (waste = below p, top = the highest; stock = from p up, next =
 * the lowest).  A redeal sets p back to 0, which keeps the order of the pass before.
 */
#ifndef BANNER_H
#define BANNER_H

#include "core.h"

#define BANNER_MAX_TALON 104
#define BANNER_MAX_CELLS 8
#define BANNER_EMPTY 13
#define RUN_LENGTH 12

typedef struct {
    int reserve, cells, passes, talon;
    uint8_t base[8];                    /* rank of the reserve card that closes run j (top first) */
    uint8_t rank[BANNER_MAX_TALON];     /* talon ranks in turn order */
    uint8_t need[8 * RUN_LENGTH];       /* the ranks the foundation takes, in order, all runs */
    uint64_t rank_mask[13][2];          /* talon positions holding each rank */
} BannerDeal;

/* The prefix sweep's trace (banner.c, "The sweep's trace"): the state's third 16-byte word,
 * always written and read whole (a read that spans two writes still in flight waits for both).
 * Bytes 0..13: the first values K_1, K_2, ... of the greedy sweep of the position on this one's
 * line of deals whose stock holds as many cards as byte 15 says, which passes the prefix bound;
 * byte 14: how many of them are known (BANNER_TRACE_NONE: nothing is known). */
#define BANNER_TRACE 14
#define BANNER_TRACE_N 14
#define BANNER_TRACE_STOCK 15
#define BANNER_TRACE_NONE 255

typedef struct {
    uint64_t present[2];                /* talon cards not yet played or taken into a cell */
    uint8_t p;                          /* waste = present talon cards below p; stock = from p */
    uint8_t passes;                     /* passes begun, the first included */
    uint8_t run;                        /* runs completed */
    uint8_t k;                          /* cards on the active foundation */
    uint8_t cell[BANNER_MAX_CELLS];     /* rank in each cell, or BANNER_EMPTY */
    uint8_t pad[4];                     /* the trace at byte 32 (_Static_assert in banner.c) */
    uint8_t trace[16];                  /* not part of the position: make_key leaves it out */
} BannerState;

/* cards: the full deal in deal order (suit*13+rank). Returns 0, or -1 on a bad deal. */
int banner_setup(BannerDeal *d, BannerState *s, const uint8_t *cards, int ncards, int reserve,
                 int cells, int passes, int sixes_reserve);
int banner_waste_top(const BannerState *s);
int banner_stock_next(const BannerDeal *d, const BannerState *s);
int banner_needed(const BannerDeal *d, const BannerState *s);
/* For the tests: the prefix bound's sweep with the waste below p (p < 0: the position's own),
 * done both ways (SSE2 where built, and plain C): its verdict (1 dead), or -1 if they differ. */
int banner_prefix_check(const BannerDeal *d, const BannerState *s, int p);
/* For the tests: whether the state's trace is what it says (1), or nothing is known (0), or
 * not (-1): the position on its line of deals whose stock holds trace[BANNER_TRACE_STOCK] cards
 * passes the prefix bound, and the trace's known values are the first of its greedy sweep. */
int banner_trace_check(const BannerDeal *d, const BannerState *s);
/* For the tests: the last pass's dead-end test (GameOps.is_dead) on s, reached by via, with its
 * trace as the search leaves it, and on a copy whose trace says nothing.  -1 where the two
 * verdicts differ, else the verdict; s keeps the trace the test left in it. */
int banner_dead_check(const BannerDeal *d, BannerState *s, unsigned prune, MoveCode via);

extern const GameOps BANNER_OPS;

#endif
