/* The compiled search core: shared types.
 *
 * A game is a fixed deal (stored once, in a *Deal struct) and a small search state that holds only
 * what changes.  Each family supplies a move generator, a move applier and a canonical key; the
 * depth-first search in search.c is written once against that interface (GameOps).
 */
#ifndef CORE_H
#define CORE_H

#include <stddef.h>
#include <stdint.h>

/* A canonical key: three 64-bit words, compared whole.  Word 1 always has KEY_VALID set, so the
 * all-zero key never occurs and marks an empty table slot. */
#define KEY_WORDS 3
#define KEY_VALID (1ULL << 63)
typedef struct { uint64_t w[KEY_WORDS]; } Key;

/* A move: kind in the top bits, then source and destination (0-based). */
typedef uint16_t MoveCode;
enum {
    MV_DEAL = 0,      /* turn the next stock card                      */
    MV_FOUND = 1,     /* Salic: top of pile src to a foundation slot   */
    MV_PARK = 2,      /* Salic: top of pile src onto empty queen dst   */
    MV_WASTE = 3,     /* Banner: waste top to the foundation           */
    MV_CELL = 4,      /* Banner: cell src to the foundation            */
    MV_REDEAL = 5     /* Banner: turn the waste over as the new stock  */
};
#define MOVE_NONE ((MoveCode)0xFFFF)   /* "no move": the position is a search's start */
#define MOVE(kind, src, dst) ((MoveCode)(((kind) << 8) | ((src) << 4) | (dst)))
#define MOVE_KIND(m) ((m) >> 8)
#define MOVE_SRC(m) (((m) >> 4) & 15)
#define MOVE_DST(m) ((m) & 15)

#define MAX_MOVES 32

/* Probes of one round run with at most this many rule sets (GameOps.twin_rules). */
#define MAX_TWINS 3

/* Pruning switches (bit flags); docs/solver.md argues each one's soundness. */
enum {
    PRUNE_SAFE_FOUNDATION = 1,   /* Salic: a foundation move no other card can compete for is forced */
    PRUNE_BANNER_REACH = 2,      /* Banner: the last pass's capture bound                         */
    PRUNE_SYMMETRY = 4,          /* moves whose result is a relabelling of a sibling's are skipped */
    PRUNE_BANNER_PREFIX = 8,     /* Banner: the last pass's prefix bound                          */
    PRUNE_LONE_CARD = 16,        /* Salic: once the stock is empty, a lone card that fits is played */
    PRUNE_LAST_COPIES = 32,      /* Salic: ... and so is a top card whose face is left in its pile only */
    PRUNE_PARKING_ROOM = 64,     /* Salic: the piles cannot be dug out with the queens there are  */
    PRUNE_DEAD_CACHE = 128,      /* sealed subtrees a probe searched whole are skipped later       */
    PRUNE_LAZY_PLAYS = 256,      /* Salic (PySol profiles): after a play from a pile no deal reaches,
                                    no deal, and a last-pile play only of the rank laid next on it */
    PRUNE_DEEP_ROOM = 512,       /* Salic: parking-room with a larger grid, run at every deal
                                    once the search is past its first deals */
    PRUNE_DEAL_CACHE = 1024,     /* subtrees entered by a deal (or turn) that an exhaustive search
                                    searched whole are skipped by the later ones */
    PRUNE_LAZY_ORDER = 2048,     /* Salic (seed rules): an order only, no cut: while dealing, plays
                                    from piles no deal reaches come after the deal */
    PRUNE_FEED_FIRST = 4096,     /* Salic: an order only: in the lazy orders (lazy-plays, lazy-order),
                                    the plays of the rank the last pile's top is laid on come
                                    before the deal */
    PRUNE_CELL_WAIT = 8192,      /* Banner family: an order only: before the last pass, a cell play
                                    waits after the turn when the waste top it would pull into
                                    the cell is not wanted soon */
    PRUNE_BANNER_AHEAD = 16384,  /* Banner: the prefix bound where no play is possible is run at the
                                    end of the chain of deals that must follow */
    PRUNE_LAZY_FEED = 32768,     /* Salic (PySol profiles, with lazy-plays): no lazy play where no
                                    run of them can end by feeding the last pile's top */
    PRUNE_STUCK_STOCK = 65536,   /* Salic (PySol profiles, with deep-room): the stock cards that
                                    cannot leave their pile while the stock lasts are piles of
                                    the grid */
    PRUNE_SEALED_CAP = 131072,   /* an order of work only, no cut: a probe leaves a sealed subtree
                                    it searches whole after node_budget / sealed_cap_div nodes */
    PRUNE_RANDOM_LINES = 262144, /* an order of work only, no cut: before each round of probes,
                                    lines chosen at random up to the sealed part, each of whose
                                    subtrees is searched whole (GameOps.random_lines) */
    PRUNE_GUIDED_LINES = 524288, /* an order of work only, with random-lines: most random lines
                                    go on from a point of the line whose end game came nearest
                                    to a way out (the game's root_score) */
    PRUNE_ROOT_WALK_CAP = 1048576, /* an order of work only, with random-lines: a random line's
                                    sealed root whose dead-end test runs past a cap is left,
                                    neither searched nor cached (the game's root_undecided) */
    PRUNE_ALL = 0x1fffff
};

/* The start of every search's scratch (GameOps.is_dead): set by search.c, read by the game. */
typedef struct {
    int final_search;       /* 1 in the exhaustive search after the probes, else 0 */
    int probe_mode;         /* the running probe's mode (GameOps.choice_cost), else -1 */
    int probe_round;        /* the running probe's round, from 0 (read where probe_mode >= 0) */
    size_t memo_bytes;      /* the memory the game's memo may take (GameOps.memo_size), 0: none */
    size_t memo_held;       /* what the game's memo holds now (set by the game) */
    int shared;             /* 1 where another search of the deal runs beside this one (a pool) */
    double deadline;        /* the running search's time limit on search_clock (0: none), for
                               the game's long tests (Salic: whole walks) */
    int expired;            /* set by the game where such a test found the deadline passed:
                               the search then ends "unknown (time)" at once */
    int random_root;        /* 1 in the search of a random line's sealed subtree
                               (PRUNE_RANDOM_LINES): the game runs its whole dead-end test at
                               the start, however early in the search */
    int root_score;         /* PRUNE_GUIDED_LINES: set by the game's dead-end test at a random
                               line's sealed root, how near that root came to a way out (the
                               greater the nearer); -1: not known (search.c sets it so) */
    int walk_left;          /* the game's (Salic): at a random line's root, the fewest cards
                               left at a point of its last whole walk; -1 where none ran */
    int root_walk_cap;      /* PRUNE_ROOT_WALK_CAP: SearchLimits.root_walk_cap (0: the game's) */
    int walk_cap;           /* the game's (Salic, PRUNE_ROOT_WALK_CAP): the steps the walk at a
                               random line's root may take; 0: no cap */
    int root_undecided;     /* PRUNE_ROOT_WALK_CAP: set by the game where its test at a random
                               line's sealed root was cut short by the cap: the root is then
                               left, neither searched nor cached (search.c sets it to 0) */
} ScratchHead;

/* Search state: big enough for either family's state. */
typedef struct { uint64_t raw[12]; } StateBuf;

struct SearchLimits;
struct SearchResult;
struct Table;

typedef struct GameOps {
    size_t state_size;
    /* Legal moves; reduced=1 drops moves whose result is a relabelling of the current position or
     * of an earlier move's result (PRUNE_SYMMETRY), reduced=0 lists every distinct move; prune
     * applies the enabled move-level rules (PRUNE_SAFE_FOUNDATION). */
    int (*gen_moves)(const void *deal, const void *state, MoveCode *out, int reduced, unsigned prune);
    void (*apply)(const void *deal, const void *state, MoveCode m, void *out);
    int (*is_won)(const void *deal, const void *state);
    void (*key)(const void *deal, const void *state, Key *out);
    /* Sound dead-end test (pruning); 1 = no win can follow.  via is the move that led here from
     * a position this test (with the same prune) found alive, or MOVE_NONE.  scratch is
     * scratch_size zeroed bytes kept for one whole search (its probes included), or NULL: the
     * game may keep statistics there to decide how often to run a costly test, and memory of
     * its own, which scratch_free releases.  It starts with
     * a ScratchHead (scratch_size counts it), which says which part of the search is running.
     * The test may write into the state what is not part of its key (Banner: the prefix
     * sweep's trace), for the tests of the positions after it; apply copies it along. */
    int (*is_dead)(const void *deal, void *state, unsigned prune, MoveCode via, void *scratch);
    /* Probes (search.c): taking the i-th move of a position costs i * choice_cost discrepancies
     * (choice_cost NULL: 1), and probe k allows k * probe_step of them.  Each round k runs one
     * probe per mode 0..probe_modes-1 (0 counts as 1), and choice_cost weighs by the mode. */
    int (*choice_cost)(const void *deal, const void *state, int mode);
    int probe_step;
    /* Rules left out of the first short search (search.c): tests that cost more than they save
     * on the deals that search decides. */
    unsigned later_rules;
    /* The twin probes (search.c), or NULL for none: each probe of this deal runs with the
     * rules asked for (prune), then once more for each set of rules this writes into sets, with
     * that set's rules turned off.  Returns how many sets (at most MAX_TWINS - 1); each must
     * hold a rule of prune that changes the search under prune.  Such rules change which lines
     * a probe's discrepancies reach, for better or worse by deal; they must leave sealed
     * positions' subtrees unchanged, so that the cache of them holds. */
    int (*twin_rules)(const void *deal, unsigned prune, unsigned *sets);
    size_t scratch_size;
    int probe_modes;
    /* The probe mode in which this position and every position after it cost nothing
     * (choice_cost 0), so that a probe in that mode searches its subtree whole; -1 if none, and
     * NULL for a game without such positions.  Must hold for every position reachable from one
     * it holds for, with the same mode.  search.c keeps the subtrees so searched without a win
     * and skips them in the later probes and the final search. */
    int (*sealed)(const void *deal, const void *state);
    /* How far the stock has gone: never less after a move than before it, and more after every
     * deal or turn (NULL: not kept).  A position whose level is above its parent's is a root of
     * the deal cache (PRUNE_DEAL_CACHE, search.c): none of its ancestors is reachable from it. */
    int (*level)(const void *deal, const void *state);
    /* 1: probes do not look up deal-cache roots (search.c): in this family they hardly ever
     * hit, and the lookups cost more than the hits save. */
    int probes_skip_deal_cache;
    /* 1 when the modes are nested: at every position choice_cost in mode wide_mode is at most
     * what it is in any other mode, so a probe in that mode allows every line a probe in
     * another mode of its round allows.  search.c then puts wide_mode first in its fixed order
     * of probes, and skips another mode's probe with a rule set when the wide one of its round
     * with that rule set has run and tried all of its lines without a win (docs/solver.md,
     * "Order of work"). */
    int modes_nested;
    int wide_mode;
    /* Releases what is_dead allocated and left in scratch (NULL: nothing to release); search.c
     * calls it once, when the search is over. */
    void (*scratch_free)(void *scratch);
    /* The bytes of a memo that is_dead would keep in scratch, given room bytes for it and the
     * rules prune (NULL, or 0: none).  search.c takes them from the search's memory bound, so
     * that the table, the caches and the memo together stay within it, and passes them in
     * ScratchHead.memo_bytes; the game allocates at most that much. */
    size_t (*memo_size)(size_t room, unsigned prune);
    /* The depth-first search (dfs.h) made for this game, with this GameOps known at compile
     * time so that its calls into the game are direct (GAME_DFS), or NULL: search.c's own,
     * which calls through the pointers above.  The two search node for node the same. */
    int (*dfs)(const struct GameOps *ops, const void *deal, const void *start,
               const struct SearchLimits *lim, int max_disc, int mode, uint64_t node_budget,
               double t0, void *scratch, struct Table *dead, struct Table *table,
               struct SearchResult *out);
    /* PRUNE_SEALED_CAP: a probe in the mode where a sealed subtree costs nothing searches each
     * such subtree for at most node_budget / sealed_cap_div nodes, then leaves it (dfs.h); 0:
     * no cap in this game.  Only in probes whose node budget is at most sealed_cap_max (0: in
     * every probe). */
    int sealed_cap_div;
    uint64_t sealed_cap_max;
    /* PRUNE_RANDOM_LINES (search.c): 1 where the probes of this deal are preceded by random
     * lines into the sealed part (GameOps.sealed), 0 where not; NULL: never. */
    int (*random_lines)(const void *deal);
} GameOps;

#endif
