/* The depth-first search of search.c, as an inline body: search.c makes the generic one from it,
 * and each game's file (GAME_DFS) one with its own GameOps, known at compile time, so that the
 * calls into the game are direct, and the small ones inlined (docs/solver.md, "Build flags").
 * Every copy runs the same code, so they search node for node the same. */
#ifndef DFS_H
#define DFS_H
#include <stdlib.h>
#include <string.h>
#include "search.h"
#include "table.h"

/* Each game's search made in its own file (0: every game uses search.c's generic one). */
#ifndef GAME_DFS
#define GAME_DFS 1
#endif
/* Work out the next sibling's position before the current one's table lookup, and ask the cache
 * for its table slot then (0: each position is worked out when its turn comes). */
#ifndef SEARCH_PREFETCH
#define SEARCH_PREFETCH 1
#endif
/* ... but only in a search whose node budget is above this: a smaller one's table stays in the
 * cache (the short search before any probe, search.c's FIRST_NODES, is one), and it mostly walks
 * one greedy line, whose siblings, worked out ahead, would never be visited. */
#ifndef AHEAD_MIN_NODES
#define AHEAD_MIN_NODES 1024
#endif

#define CLOCK_EVERY 1024          /* nodes between clock reads, at most */
#define CLOCK_GAP 0.004           /* seconds between clock reads, about (dfs: slow nodes) */
#define POLL_EVERY 32768          /* nodes between polls for Ctrl-C (takes the GIL) */

typedef struct {
    StateBuf state;
    MoveCode moves[MAX_MOVES];
    uint8_t n, i;
    uint8_t disc;                 /* discrepancies spent on the way here (probes) */
    uint8_t cost;                 /* discrepancies per step down this position's move list */
    int8_t smode;                 /* GameOps.sealed of the position (-1: not sealed) */
    uint8_t root;                 /* sealed, and its parent is not */
    uint8_t next;                 /* SEARCH_PREFETCH: 1 + the move whose position next_state
                                     holds (0: none) */
    StateBuf next_state;          /* the position after the move after the one being searched */
    Key next_key;                 /* its key, whose table slot has been asked for */
} Frame;

static int collect_path(const Frame *frames, int depth, SearchResult *out) {
    out->path = malloc(sizeof(MoveCode) * (size_t)(depth > 0 ? depth : 1));
    if (!out->path) return -1;
    for (int d = 0; d < depth; d++) out->path[d] = frames[d].moves[frames[d].i - 1];
    out->path_len = depth;
    return 0;
}

/* One depth-first search, over the deal's table emptied first.  max_disc >= 0 makes it a probe:
 * trying the i-th move of a position (0-based, in the generator's order) costs i *
 * GameOps.choice_cost (in the probe's mode) discrepancies, and a line may spend at most
 * max_disc; a probe proves nothing when it finds no win.
 *
 * dead (or NULL; docs/solver.md, "dead-cache") holds the keys of sealed subtrees' roots
 * (GameOps.sealed) that an earlier search of this deal searched whole without a win: such a
 * subtree is skipped.  A sealed root is added when its frame is done, if this search searched
 * it whole: an exhaustive search always does, a probe when its mode is the root's, since every
 * move in the subtree then costs nothing.  Searched whole means every position reachable from
 * the root was visited by this search and none was won: a position is skipped only when this
 * search saw it before, when a sound test calls it dead, or when this cache holds it; and the
 * positions seen before but not searched whole (the root's ancestors, and in a probe those
 * whose moves the discrepancy limit cut) are not sealed, so not reachable from the root.
 * With PRUNE_DEAL_CACHE it also holds roots entered by a deal or turn (GameOps.level up),
 * added by exhaustive searches only: their ancestors are all at lower levels, and levels never
 * go down, so again no position seen before but not searched whole is reachable from them. */
static inline __attribute__((always_inline)) int dfs_body(const GameOps *ops, const void *deal, const void *start, const SearchLimits *lim,
               int max_disc, int mode, uint64_t node_budget, double t0, void *scratch,
               Table *dead, Table *table, SearchResult *out) {
    size_t frame_cap = 256;
    Frame *frames = malloc(frame_cap * sizeof(Frame));
    if (!frames) return SEARCH_LIMIT_MEMORY;
    /* Emptied, at a size that holds node_budget keys if the memory an earlier search of this
     * deal took allows (table_reset; search_run). */
    table_reset(table, node_budget < UINT64_MAX ? node_budget + 1 : node_budget);
    unsigned prune = lim->prune;
    int reduced = (prune & PRUNE_SYMMETRY) != 0;
    int weighted = prune && ops->choice_cost;
    int ahead = SEARCH_PREFETCH && !(lim->plain & PLAIN_NO_PREFETCH) &&
                node_budget > AHEAD_MIN_NODES;
    Key key;
    int status = SEARCH_NO_WIN, depth = 0;
    uint64_t nodes = 0;
    /* The clock is read every clock_mask + 1 nodes: CLOCK_EVERY, or fewer where nodes are slow
     * (the PySol profiles' final search, whose dead-end tests are not capped, expands about ten
     * nodes a millisecond), so that a search ends within about CLOCK_GAP of its time limit. Where
     * the clock is read never changes which nodes are searched. */
    uint64_t clock_mask = CLOCK_EVERY - 1;
    double last_clock = lim->max_seconds > 0 ? search_clock() : 0.0;
    /* The game's long tests read the clock too, against this search's limit (ScratchHead). */
    ScratchHead *head = scratch;
    head->deadline = lim->max_seconds > 0 ? t0 + lim->max_seconds : 0.0;
    head->expired = 0;

    /* PRUNE_SEALED_CAP (docs/solver.md, "`sealed-cap`"): in a probe whose mode is a sealed
     * subtree's (where its moves cost nothing) and whose budget is at most
     * GameOps.sealed_cap_max, the subtree entered at depth cap_depth (its
     * root's frame is frames[cap_depth - 1]) is left once the search reaches node cap_at.  Its
     * positions stay in the table as seen, though not searched whole, so from then on (capped)
     * no sealed root goes into the cache (one might reach them), and the probe does not end
     * SEARCH_NO_WIN, which would say it tried every line within its limit. */
    uint64_t cap = max_disc >= 0 && (prune & PRUNE_SEALED_CAP) && ops->sealed &&
                   ops->sealed_cap_div > 0 &&
                   (ops->sealed_cap_max == 0 || node_budget <= ops->sealed_cap_max)
                   ? node_budget / ops->sealed_cap_div : 0;
    uint64_t cap_at = 0;
    int cap_depth = 0, capped = 0;

    ops->key(deal, start, &key);
    table_insert(table, &key);
    memcpy(&frames[0].state, start, ops->state_size);
    if (ops->is_won(deal, start)) {
        status = SEARCH_WIN;
    } else if (!(prune && ops->is_dead(deal, &frames[0].state, prune, MOVE_NONE, scratch))) {
        frames[0].n = (uint8_t)ops->gen_moves(deal, &frames[0].state, frames[0].moves, reduced,
                                              prune);
        frames[0].i = 0;
        frames[0].disc = 0;
        frames[0].cost = (uint8_t)(weighted ? ops->choice_cost(deal, &frames[0].state, mode) : 1);
        frames[0].smode = (int8_t)(dead || cap ? ops->sealed(deal, &frames[0].state) : -1);
        frames[0].root = 0;
        frames[0].next = 0;
        depth = 1;
    }
    while (depth > 0) {
        if (cap_depth && nodes >= cap_at) {
            depth = cap_depth - 1;       /* leave the sealed subtree, unfinished */
            cap_depth = 0;
            capped = 1;
            continue;
        }
        Frame *f = &frames[depth - 1];
        int disc = f->disc + f->i * f->cost;
        if (f->i == f->n || (max_disc >= 0 && disc > max_disc)) {
            if (depth == cap_depth) cap_depth = 0;
            if (f->root && f->i == f->n && !capped &&
                (max_disc < 0 || (f->root == 1 && mode == f->smode))) {
                ops->key(deal, &f->state, &key);
                table_insert(dead, &key);          /* when full, the cache just stops growing */
            }
            depth--;
            continue;
        }
        MoveCode m = f->moves[f->i++];
        if ((size_t)depth == frame_cap) {
            Frame *bigger = realloc(frames, 2 * frame_cap * sizeof(Frame));
            if (!bigger) { status = SEARCH_LIMIT_MEMORY; break; }
            frames = bigger;
            frame_cap *= 2;
            f = &frames[depth - 1];
        }
        Frame *child = &frames[depth];
        /* SEARCH_PREFETCH: the position of the move after m is worked out now, and its table
         * slot asked for, so that the cache has it by the time its lookup comes (at once when
         * m's position is seen before or dead, which is most of the time), rather than the
         * search waiting on it then.  Only where that move is within the probe's discrepancies,
         * so that no position is worked out that would not have been.  The position depends
         * on f's state and the move alone, and f's state no longer changes (is_dead wrote into
         * it before its moves were made), so it is the one the move would give later. */
        if (ahead && f->next == f->i) {
            memcpy(&child->state, &f->next_state, ops->state_size);
            key = f->next_key;
        } else {
            ops->apply(deal, &f->state, m, &child->state);
            ops->key(deal, &child->state, &key);
        }
        f->next = 0;
        if (ahead && f->i < f->n &&
            (max_disc < 0 || f->disc + f->i * f->cost <= max_disc)) {
            ops->apply(deal, &f->state, f->moves[f->i], &f->next_state);
            ops->key(deal, &f->next_state, &f->next_key);
            table_prefetch(table, &f->next_key);
            f->next = (uint8_t)(f->i + 1);
        }
        int seen = table_insert(table, &key);
        if (seen == TABLE_SEEN) continue;
        if (seen == TABLE_FULL) { status = SEARCH_LIMIT_MEMORY; break; }
        if (seen == TABLE_TIME) { status = SEARCH_LIMIT_TIME; break; }
        nodes++;
        if (ops->is_won(deal, &child->state)) {
            status = SEARCH_WIN;
            break;
        }
        if (nodes >= node_budget) { status = SEARCH_LIMIT_NODES; break; }
        if ((nodes & clock_mask) == 0) {
            if (lim->max_seconds > 0) {
                double now = search_clock(), gap = now - last_clock;
                if (now - t0 > lim->max_seconds) {
                    status = SEARCH_LIMIT_TIME;
                    break;
                }
                last_clock = now;
                if (gap > CLOCK_GAP && clock_mask > 0) clock_mask >>= 1;
                else if (gap < CLOCK_GAP / 4 && clock_mask < CLOCK_EVERY - 1)
                    clock_mask = 2 * clock_mask + 1;
            }
            if (lim->stop && __atomic_load_n(lim->stop, __ATOMIC_RELAXED)) {
                status = SEARCH_INTERRUPTED;
                break;
            }
            if ((nodes & (POLL_EVERY - 1)) == 0 && lim->poll && lim->poll(lim->poll_ctx)) {
                status = SEARCH_INTERRUPTED;
                break;
            }
        }
        if (prune) {
            int gone = ops->is_dead(deal, &child->state, prune, m, scratch);
            if (head->expired) { status = SEARCH_LIMIT_TIME; break; }
            if (gone) continue;
        }
        child->smode = f->smode;
        child->root = 0;
        if (cap && f->smode < 0 && !dead) child->smode = (int8_t)ops->sealed(deal, &child->state);
        if (dead && f->smode < 0) {
            /* A root of the cache: a sealed root (dead-cache), else a position entered by a
             * deal or turn (deal-cache, level up), which only exhaustive searches add (and,
             * in a game with GameOps.probes_skip_deal_cache, look up). */
            child->smode = (int8_t)ops->sealed(deal, &child->state);
            if (child->smode >= 0 && (prune & PRUNE_DEAD_CACHE))
                child->root = 1;
            else if ((prune & PRUNE_DEAL_CACHE) && ops->level &&
                     (max_disc < 0 || !ops->probes_skip_deal_cache) &&
                     ops->level(deal, &child->state) > ops->level(deal, &f->state))
                child->root = 2;
            if (child->root && table_contains(dead, &key)) continue;
        }
        child->n = (uint8_t)ops->gen_moves(deal, &child->state, child->moves, reduced, prune);
        child->i = 0;
        child->next = 0;
        child->disc = (uint8_t)(disc < 255 ? disc : 255);
        child->cost = (uint8_t)(weighted ? ops->choice_cost(deal, &child->state, mode) : 1);
        depth++;
        if (cap && f->smode < 0 && child->smode == mode && !cap_depth) {   /* a sealed root */
            cap_depth = depth;
            cap_at = nodes + cap;
        }
    }
    if (capped && status == SEARCH_NO_WIN) status = SEARCH_LIMIT_NODES;   /* not every line */
    if (status == SEARCH_WIN && collect_path(frames, depth, out) != 0) status = SEARCH_LIMIT_MEMORY;
    out->nodes += nodes;
    out->states = table->count;
    if (table_bytes(table) > out->table_bytes) out->table_bytes = table_bytes(table);
    size_t peak = table_held_bytes(table) + frame_cap * sizeof(Frame) +
                  (dead ? table_held_bytes(dead) : 0) + ((const ScratchHead *)scratch)->memo_held;
    if (peak > out->peak_bytes) out->peak_bytes = peak;
    free(frames);
    return status;
}

/* The parameters of a dfs (GameOps.dfs), and the body called with them for the game o. */
#define DFS_ARGS const GameOps *ops, const void *deal, const void *start, const SearchLimits *lim, \
    int max_disc, int mode, uint64_t node_budget, double t0, void *scratch, Table *dead, \
    Table *table, SearchResult *out
#define DFS_BODY(o) dfs_body(o, deal, start, lim, max_disc, mode, node_budget, t0, scratch, dead, \
    table, out)
#endif
