/* Depth-first search with a transposition table, written once for every game (GameOps).
 *
 * Iterative: an explicit stack of frames (a state, its moves, the next to try), grown as needed,
 * so depth is limited by memory only.  The winning line is the stack itself: frame d's chosen move
 * is its moves[i - 1], so no path is stored per position.
 */
#ifndef SEARCH_H
#define SEARCH_H

#include "core.h"
#include "table.h"

enum {
    SEARCH_WIN = 0,
    SEARCH_NO_WIN = 1,           /* the whole space was searched */
    SEARCH_LIMIT_NODES = 2,
    SEARCH_LIMIT_TIME = 3,
    SEARCH_LIMIT_MEMORY = 4,
    SEARCH_INTERRUPTED = 5
};

typedef struct SearchLimits {
    uint64_t max_nodes;          /* 0: no limit */
    double max_seconds;          /* <= 0: no limit */
    size_t max_bytes;            /* the bound on the tables, the cache and the game's memo */
    unsigned prune;              /* PRUNE_* flags */
    int probes;                  /* bounded-discrepancy probes before the full search (0: none) */
    int (*poll)(void *ctx);      /* called now and then; nonzero stops the search (Ctrl-C) */
    void *poll_ctx;
    int *stop;                   /* NULL, or a flag read every CLOCK_EVERY nodes without the GIL:
                                    once set (search_stop), the search ends "interrupted" */
    MemPool *pool;               /* NULL, or memory the tables share with another search */
    int plain;                   /* PLAIN_* flags: the same search, node for node, made the plain
                                    way (for the tests that hold the two to each other) */
    int root_walk_cap;           /* PRUNE_ROOT_WALK_CAP's cap (Salic: walk steps), for the tests;
                                    0: the game's own (ROOT_WALK_CAP) */
    uint64_t seed;               /* the random lines' choices (PRUNE_RANDOM_LINES): 0 the usual
                                    ones; another value, other lines (threads=2's second
                                    search: docs/solver.md, "Two threads") */
    int lines_only;              /* where the deal has random lines: its probe rounds are those
                                    lines alone, no probes and no searches between rounds; then
                                    the final search (threads=2's second search) */
} SearchLimits;

/* SearchLimits.plain (dfs.h): search.c's generic search even where the game has its own
 * (GameOps.dfs); no position worked out ahead of its turn (SEARCH_PREFETCH). */
enum { PLAIN_GENERIC_DFS = 1, PLAIN_NO_PREFETCH = 2 };

/* One search of a deal's run (search_run), as the log keeps it. */
enum { STEP_FIRST = 0, STEP_PROBE = 1, STEP_WHOLE = 2, STEP_FINAL = 3, STEP_RANDOM = 4 };
#define MAX_STEPS 256

typedef struct {
    uint64_t budget, nodes;      /* nodes allowed and taken */
    int16_t max_disc;            /* discrepancies allowed (-1: exhaustive) */
    int8_t kind;                 /* STEP_* */
    int8_t round;                /* the probe round (probes and the searches between rounds) */
    int8_t mode, twin;           /* a probe's mode and rule set (0: the rules asked for) */
    int8_t status;               /* SEARCH_* */
} SearchStep;

typedef struct SearchResult {
    int status;
    uint64_t nodes;              /* positions generated and stored */
    uint64_t states;             /* entries in the table at the end */
    size_t table_bytes;
    size_t peak_bytes;           /* tables, the game's memo and the stack */
    double seconds;
    double final_start;          /* seconds from the start to the final exhaustive search, the
                                    one after all the probes (< 0: it never began) */
    MoveCode *path;              /* the winning line (malloc'd; caller frees), or NULL */
    int path_len;
    SearchStep steps[MAX_STEPS]; /* every search run, in order (the first MAX_STEPS) */
    int n_steps;
} SearchResult;

/* Whether a search of this deal under these rules begins its probe rounds with random lines
 * (PRUNE_RANDOM_LINES, where the game has them), so that SearchLimits.seed and lines_only
 * matter. */
int search_random_lines(const GameOps *ops, const void *deal, unsigned prune);
int search_run(const GameOps *ops, const void *deal, const void *start, const SearchLimits *lim,
               SearchResult *out);

double search_clock(void);

/* Set a SearchLimits.stop flag (from any thread). */
void search_stop(int *flag);

#endif
