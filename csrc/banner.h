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

typedef struct {
    uint64_t present[2];                /* talon cards not yet played or taken into a cell */
    uint8_t p;                          /* waste = present talon cards below p; stock = from p */
    uint8_t passes;                     /* passes begun, the first included */
    uint8_t run;                        /* runs completed */
    uint8_t k;                          /* cards on the active foundation */
    uint8_t cell[BANNER_MAX_CELLS];     /* rank in each cell, or BANNER_EMPTY */
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

extern const GameOps BANNER_OPS;

#endif
