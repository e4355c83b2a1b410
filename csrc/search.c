#define _POSIX_C_SOURCE 199309L
#include "search.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "table.h"
#include "dfs.h"

/* The depth-first search (dfs.h): the game's own where it has one (GameOps.dfs), else the
 * generic one, which calls the game through its GameOps. */
static int dfs(DFS_ARGS) {
    if (ops->dfs && !(lim->plain & PLAIN_GENERIC_DFS))
        return ops->dfs(ops, deal, start, lim, max_disc, mode, node_budget, t0, scratch, dead,
                        table, out);
    return DFS_BODY(ops);
}

#define PROBE_NODES 20000         /* node budget of the first probe; each next one doubles it */
#define PROBE_SHARE 2             /* probes take at most 1/PROBE_SHARE of the budget */
#ifndef PROBE_TIME_CAP
#define PROBE_TIME_CAP 1          /* probes end at 1/PROBE_SHARE of the time limit (0: they may
                                     run on to the limit; -DPROBE_TIME_CAP=0 builds that) */
#endif
#ifndef WHOLE_SHIFT
#define WHOLE_SHIFT 3             /* after probe round k, an exhaustive search of PROBE_NODES *
                                     2^k >> WHOLE_SHIFT nodes (-DWHOLE_SHIFT=-1: none) */
#endif
#ifndef WHOLE_FROM
#define WHOLE_FROM 1              /* the first round of probes followed by such a search (0: from
                                     the first; the rounds count from 0) */
#endif
#ifndef LATE_TWIN_ROUNDS
#define LATE_TWIN_ROUNDS 4        /* twin probes past the second (GameOps.twin_rules) run in the
                                     first rounds only (-DLATE_TWIN_ROUNDS=24: in every round) */
#endif
#ifndef SKIP_NESTED_MODES
#define SKIP_NESTED_MODES 1       /* with GameOps.modes_nested, the wide mode is step 0 of the
                                     fixed order, and a probe in another mode is skipped when
                                     the wide one of its round and rule set has run and ended
                                     without a win, its lines all tried (0: modes in order 0,
                                     1, ..., none skipped) */
#endif
#ifndef CHEAP_FIRST
#define CHEAP_FIRST 1             /* from the second round on, a round's probes run in the order
                                     of the nodes each took in the round before, fewest first
                                     (0: in the fixed order, mode by mode, rule set by rule set) */
#endif
#define MAX_MODES 4               /* probe modes a round runs at most (every game has 2) */
#define MAX_PROBES 24
#define FIRST_NODES 1000          /* the short exhaustive search before any probe */
#define DEAD_SHARE 8              /* the cache of searched subtrees: 1/8 of the memory (docs/solver.md) */
#define MEMO_SHARE 8              /* the game's memo: at most this share of the memory */


double search_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}



/* The limits of a search in the probes' share: with PROBE_TIME_CAP it stops at 1/PROBE_SHARE
 * of the time limit. */
static SearchLimits in_probe_share(const SearchLimits *lim) {
    SearchLimits shared = *lim;
    if (PROBE_TIME_CAP && lim->max_seconds > 0) shared.max_seconds = lim->max_seconds / PROBE_SHARE;
    return shared;
}

/* What is left of the probes' node share after a search that began at `before` nodes. */
static uint64_t share_left(uint64_t left, uint64_t before, const SearchResult *out) {
    uint64_t used = out->nodes - before;
    return used < left ? left - used : 0;
}

static void log_step(SearchResult *out, int kind, int round, int mode, int twin, int max_disc,
                     uint64_t budget, uint64_t before, int status) {
    if (out->n_steps == MAX_STEPS) return;
    SearchStep *st = &out->steps[out->n_steps++];
    st->budget = budget;
    st->nodes = out->nodes - before;
    st->max_disc = (int16_t)max_disc;
    st->kind = (int8_t)kind;
    st->round = (int8_t)round;
    st->mode = (int8_t)mode;
    st->twin = (int8_t)twin;
    st->status = (int8_t)status;
}

void search_stop(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }

/* PRUNE_RANDOM_LINES (docs/solver.md, "`random-lines`"): lines from the start, each move the
 * first of its position's list with probability 1/2, else one of the others at random, until a
 * sealed position (GameOps.sealed); each such root not already in the cache of searched
 * subtrees is searched whole (an exhaustive search from it, of at most RANDOM_END_NODES
 * nodes), and a win there is a win of the deal: the line, then that search's path.  Until
 * budget nodes (the lines' moves and those searches') are spent.  A line proves nothing when
 * it ends without a win; a root searched whole without a win goes into the cache, as a probe's
 * sealed roots do.  The choices come from a generator seeded per round, so that the search
 * stays the same node for node from run to run. */
#ifndef RANDOM_END_NODES
#define RANDOM_END_NODES 65536
#endif
#ifndef RANDOM_SHIFT
#define RANDOM_SHIFT 2            /* the random lines of a round take a probe's budget << this */
#endif
#ifndef RANDOM_STALE
#define RANDOM_STALE 256          /* the lines of a round stop after this many in a row found no
                                     end game not searched before (a dead end on the way, or a
                                     root in the cache): where the probes' lines are few */
#endif
#ifndef RANDOM_RATIO
#define RANDOM_RATIO 4            /* from round 1 on, the random lines take at most this many
                                     times the nodes the probes of the round before took */
#endif
#ifndef RANDOM_RESTART
#define RANDOM_RESTART 2          /* a guided line starts afresh with probability this / 8 */
#endif
#ifndef RANDOM_STRAY
#define RANDOM_STRAY 2            /* a move strays from the first with probability this / 4 */
#endif

static uint64_t rng_next(uint64_t *x) {
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1DULL;
}

int search_random_lines(const GameOps *ops, const void *deal, unsigned prune) {
    return (prune & PRUNE_RANDOM_LINES) && ops->sealed && ops->random_lines &&
           ops->random_lines(deal);
}

/* The generator's seed for round k's random lines: seed 0 gives the lines every run has made
 * since random-lines was built; another seed mixes into it, so that its lines are other ones. */
static uint64_t round_seed(uint64_t seed, int k) {
    return 0x9E3779B97F4A7C15ULL * (uint64_t)(k + 1) ^ seed * 0xD1B54A32D192ED03ULL;
}

static int random_lines(const GameOps *ops, const void *deal, const void *start,
                        const SearchLimits *lim, uint64_t budget, double t0, void *scratch,
                        Table *dead, Table *table, SearchResult *out, uint64_t seed) {
    ScratchHead *head = scratch;
    int reduced = (lim->prune & PRUNE_SYMMETRY) != 0;
    uint64_t before = out->nodes, rng = seed | 1, lines = 0;
    int line_cap = 256, status = SEARCH_LIMIT_NODES, stale = 0;
    /* The line and the states along it (states[i]: before line[i]), and the same of the
     * nearest root so far (best_score: its root_score, -1 none yet), all line_cap long. */
    MoveCode *line = malloc((size_t)line_cap * sizeof(MoveCode));
    MoveCode *best = malloc((size_t)line_cap * sizeof(MoveCode));
    StateBuf *states = malloc(((size_t)line_cap + 1) * sizeof(StateBuf));
    StateBuf *best_states = malloc(((size_t)line_cap + 1) * sizeof(StateBuf));
    int best_len = 0, best_score = -1;
    StateBuf cur, next;
    MoveCode moves[MAX_MOVES];
    if (!line || !best || !states || !best_states) {
        status = SEARCH_LIMIT_MEMORY;
        goto out;
    }
    while (out->nodes - before < budget) {
        if ((lines & 15) == 0) {
            if (lim->max_seconds > 0 && search_clock() - t0 > lim->max_seconds) {
                status = SEARCH_LIMIT_TIME;
                break;
            }
            if ((lim->stop && __atomic_load_n(lim->stop, __ATOMIC_RELAXED)) ||
                ((lines & 255) == 0 && lim->poll && lim->poll(lim->poll_ctx))) {
                status = SEARCH_INTERRUPTED;
                break;
            }
        }
        lines++;
        if (stale >= RANDOM_STALE) break;
        stale++;
        int len = 0, smode, won = 0;
        /* PRUNE_GUIDED_LINES (docs/solver.md, "`guided-lines`"): most lines go on from a
         * point of the nearest line so far, chosen at random, and the rest from the start. */
        if ((lim->prune & PRUNE_GUIDED_LINES) && best_score >= 0 && best_len > 0 &&
            (int)(rng_next(&rng) & 7) >= RANDOM_RESTART) {
            len = (int)(rng_next(&rng) % (uint64_t)best_len);
            memcpy(line, best, (size_t)len * sizeof(MoveCode));
            memcpy(states, best_states, ((size_t)len + 1) * sizeof(StateBuf));
        } else {
            memcpy(&states[0], start, ops->state_size);
        }
        memcpy(&cur, &states[len], ops->state_size);
        while ((smode = ops->sealed(deal, &cur)) < 0) {
            if (ops->is_won(deal, &cur)) { won = 1; break; }
            int n = ops->gen_moves(deal, &cur, moves, reduced, lim->prune);
            if (n == 0) break;
            int i = n > 1 && (int)(rng_next(&rng) & 3) < RANDOM_STRAY
                    ? 1 + (int)(rng_next(&rng) % (uint64_t)(n - 1)) : 0;
            ops->apply(deal, &cur, moves[i], &next);
            memcpy(&cur, &next, ops->state_size);
            if (len == line_cap) {
                size_t cap = 2 * (size_t)line_cap;
                MoveCode *l2 = realloc(line, cap * sizeof(MoveCode));
                if (l2) line = l2;
                MoveCode *b2 = realloc(best, cap * sizeof(MoveCode));
                if (b2) best = b2;
                StateBuf *s2 = realloc(states, (cap + 1) * sizeof(StateBuf));
                if (s2) states = s2;
                StateBuf *bs2 = realloc(best_states, (cap + 1) * sizeof(StateBuf));
                if (bs2) best_states = bs2;
                if (!l2 || !b2 || !s2 || !bs2) { status = SEARCH_LIMIT_MEMORY; goto out; }
                line_cap = (int)cap;
            }
            line[len++] = moves[i];
            memcpy(&states[len], &cur, ops->state_size);
            if (++out->nodes - before >= budget) break;      /* the budget is spent */
        }
        if (won) {
            out->path = line;
            out->path_len = len;
            line = NULL;
            status = SEARCH_WIN;
            break;
        }
        if (smode < 0) continue;                       /* a dead end before the sealed part */
        Key key;
        ops->key(deal, &cur, &key);
        if (dead && table_contains(dead, &key)) continue;
        uint64_t used = out->nodes - before;
        if (used >= budget) break;
        uint64_t b = budget - used < RANDOM_END_NODES ? budget - used : RANDOM_END_NODES;
        head->probe_mode = smode;
        head->random_root = 1;
        head->root_score = -1;
        head->root_undecided = 0;
        int st = dfs(ops, deal, &cur, lim, -1, smode, b, t0, scratch, NULL, table, out);
        head->random_root = 0;
        if (st == SEARCH_WIN) {
            MoveCode *whole = malloc(((size_t)len + (size_t)out->path_len + 1) * sizeof(MoveCode));
            if (!whole) { status = SEARCH_LIMIT_MEMORY; break; }
            memcpy(whole, line, (size_t)len * sizeof(MoveCode));
            memcpy(whole + len, out->path, (size_t)out->path_len * sizeof(MoveCode));
            free(out->path);
            out->path = whole;
            out->path_len += len;
            status = SEARCH_WIN;
            break;
        }
        if (st != SEARCH_NO_WIN && st != SEARCH_LIMIT_NODES) { status = st; break; }
        /* A line that reached an end game and searched it (or found it dead) is fresh, but for
         * two kinds, which stay stale: a root left by its capped test (PRUNE_ROOT_WALK_CAP),
         * and a line of no moves (the start is in the end game, so every line is that one
         * root: where it is not cached, the cap left it, or the dead-cache is off, the lines,
         * taking no moves, would draw it for ever). */
        if (!head->root_undecided && len > 0) stale = 0;
        if (st == SEARCH_NO_WIN && dead && (lim->prune & PRUNE_DEAD_CACHE) &&
            !head->root_undecided)
            table_insert(dead, &key);
        head->root_undecided = 0;
        if (head->root_score >= 0 && head->root_score >= best_score) {   /* the nearest yet */
            MoveCode *ml = line;
            line = best;
            best = ml;
            StateBuf *ms = states;
            states = best_states;
            best_states = ms;
            best_len = len;
            best_score = head->root_score;
        }
    }
out:
    free(line);
    free(best);
    free(states);
    free(best_states);
    head->probe_mode = -1;
    return status;
}

int search_run(const GameOps *ops, const void *deal, const void *start, const SearchLimits *lim,
               SearchResult *out) {
    memset(out, 0, offsetof(SearchResult, steps));    /* the log is filled as it goes */
    out->n_steps = 0;
    out->final_start = -1.0;
    double t0 = search_clock();
    size_t scratch_size = ops->scratch_size > sizeof(ScratchHead) ? ops->scratch_size
                                                                   : sizeof(ScratchHead);
    void *scratch = calloc(1, scratch_size);
    if (!scratch) {
        out->status = SEARCH_LIMIT_MEMORY;
        return SEARCH_LIMIT_MEMORY;
    }
    uint64_t budget = lim->max_nodes ? lim->max_nodes : UINT64_MAX;
    int status = SEARCH_NO_WIN;
    /* The cache of subtrees searched whole (dfs: sealed ones, and with PRUNE_DEAL_CACHE those
     * entered by a deal) takes up to 1/DEAD_SHARE of the memory
     * allowed, and each search's table the rest.  It is made only when the first search leaves
     * the deal undecided, so that the many deals decided there do not pay for it. */
    Table dead_table, *dead = NULL;
    SearchLimits run_lim = *lim;
    int use_cache = (lim->prune & (PRUNE_DEAD_CACHE | PRUNE_DEAL_CACHE)) && ops->choice_cost &&
                    ops->sealed;
    size_t dead_bytes = lim->max_bytes / DEAD_SHARE;
    if (use_cache) run_lim.max_bytes = lim->max_bytes - dead_bytes;
    /* The game's memo (GameOps.memo_size; Salic: the room memo) within up to 1/MEMO_SHARE of
     * the memory allowed, taken from the table's share (and from the pool, where tables share
     * one), so that all three stay within max_bytes.  It is reserved now, though the game may
     * make it only later (Salic: when the deep test takes over). */
    ScratchHead *head = scratch;
    size_t memo_room = lim->max_bytes / MEMO_SHARE;
    size_t memo_bytes = ops->memo_size ? ops->memo_size(memo_room, lim->prune) : 0;
    if (memo_bytes > memo_room || !pool_take(lim->pool, memo_bytes)) memo_bytes = 0;
    run_lim.max_bytes -= memo_bytes;
    head->memo_bytes = memo_bytes;
    head->shared = lim->pool != NULL;
    head->root_walk_cap = lim->root_walk_cap;
    lim = &run_lim;
    /* One table for all the searches of the deal, each starting with it emptied (dfs). */
    Table table;
    if (table_init_pool(&table, lim->max_bytes, lim->pool) != 0) {
        pool_give(lim->pool, memo_bytes);
        free(scratch);
        out->status = SEARCH_LIMIT_MEMORY;
        return SEARCH_LIMIT_MEMORY;
    }
    /* No grow of a table may outlast the time limit (table_set_deadline). */
    double deadline = lim->max_seconds > 0 ? t0 + lim->max_seconds : 0.0;
    table_set_deadline(&table, deadline, 0.0);
    /* First a short exhaustive search: most deals are decided within it.  If it ends undecided,
     * probes follow: finding a win is usually cheap when the line strays little from the move
     * order, while a plain depth-first search can sink its whole budget under one early mistake.
     * Each round of probes is followed by a short exhaustive search.  Then the exhaustive search
     * starts again with what is left and decides. */
    uint64_t first = budget < FIRST_NODES ? budget : FIRST_NODES;
    SearchLimits first_lim = *lim;
    first_lim.prune &= ~ops->later_rules;
    head->probe_mode = -1;
    status = dfs(ops, deal, start, &first_lim, -1, 0, first, t0, scratch, NULL, &table, out);
    log_step(out, STEP_FIRST, 0, 0, 0, -1, first, 0, status);
    if (status != SEARCH_LIMIT_NODES || out->nodes >= budget) goto done;
    if (use_cache && table_init_pool(&dead_table, dead_bytes, lim->pool) == 0) {
        dead = &dead_table;
        table_set_deadline(dead, deadline, 0.0);
    }
    /* With a time limit, a new probe (each twice the last) may start while less than
     * 1/PROBE_SHARE of the time has gone, and with PROBE_TIME_CAP every probe is stopped there,
     * so that the final search keeps the rest; without a time limit, lim->probes probes are run.
     * All probes together take at most 1/PROBE_SHARE of the node budget.  A probe proves
     * nothing when it fails, so stopping it early loses no verdict: the final search decides. */
    int probes = lim->probes ? MAX_PROBES : 0;
    uint64_t probe_left = (budget - out->nodes) / PROBE_SHARE;
    /* Without a node limit, probes stop at as many nodes as the table could hold. */
    uint64_t table_states = lim->max_bytes / TABLE_ENTRY_BYTES;
    if (!lim->max_nodes && probe_left > table_states) probe_left = table_states;
    uint64_t probe_nodes = PROBE_NODES;
    /* Discrepancies are weighted (GameOps.choice_cost) only with pruning on, as in dfs(). */
    int probe_step = lim->prune && ops->choice_cost ? ops->probe_step : 1;
    int modes = lim->prune && ops->choice_cost && ops->probe_modes > 1 ? ops->probe_modes : 1;
    /* Each probe runs with the rules asked for, then again without each set of the game's
     * twin rules for this deal, if it names any (GameOps.twin_rules); from the third on, in
     * the first LATE_TWIN_ROUNDS rounds only: the wins they add came early, while in the later
     * rounds, which are long, they slowed the long searches, won or not (docs/solver.md,
     * "`feed-first`"). */
    unsigned twin_off[MAX_TWINS] = {0};
    int twins = 1;
    if (ops->twin_rules)
        twins += ops->twin_rules(deal, lim->prune, twin_off + 1);
    /* Nested modes: step 0 is the wide mode, and wide_done says per rule set whether this
     * round's wide probe tried every line it allowed. */
    int nested = SKIP_NESTED_MODES && ops->modes_nested && modes > 1;
    int wide = nested ? ops->wide_mode : 0;
    int wide_done[MAX_TWINS];
    if (modes > MAX_MODES) modes = MAX_MODES;
    /* The probes of a round, as step * MAX_TWINS + rule set: in the fixed order in the first
     * round, then (CHEAP_FIRST) by the nodes each took in the round before, fewest first, ties
     * in the fixed order (docs/solver.md, "Order of work", *Cheap first*).  A probe skipped
     * as nested counts what the wide one of its rule set took. */
    uint64_t used[MAX_MODES * MAX_TWINS] = {0};
    int order[MAX_MODES * MAX_TWINS];
    int randoms = search_random_lines(ops, deal, lim->prune);
    /* SearchLimits.lines_only: the rounds are the random lines alone (docs/solver.md, "Two
     * threads", *Other lines*). */
    int lines_only = randoms && lim->lines_only;
    uint64_t probed = 0;   /* the nodes the probes of the round before took */
    for (int k = 0; k < probes && probe_left > 0; k++, probe_nodes *= 2) {
        /* PRUNE_RANDOM_LINES: random lines first, with four times a probe's budget, and from
         * round 1 on at most RANDOM_RATIO times what the probes of the round before took (where
         * they took little, the deal's lines are few and the probes cover them). */
        uint64_t rb = probe_nodes << RANDOM_SHIFT;
        if (k > 0 && rb / RANDOM_RATIO > probed && !lines_only) rb = probed * RANDOM_RATIO;
        if (rb > probe_left) rb = probe_left;
        probed = 0;
        if (randoms && rb > 0) {
            if (lim->max_seconds > 0 && search_clock() - t0 > lim->max_seconds / PROBE_SHARE)
                goto last;
            uint64_t b = rb;
            uint64_t before = out->nodes;
            SearchLimits random_lim = in_probe_share(lim);
            head->probe_round = k;
            status = random_lines(ops, deal, start, &random_lim, b, t0, scratch, dead, &table,
                                  out, round_seed(lim->seed, k));
            log_step(out, STEP_RANDOM, k, 1, 0, -1, b, before, status);
            probe_left = share_left(probe_left, before, out);
            if (status == SEARCH_LIMIT_TIME && random_lim.max_seconds < lim->max_seconds)
                goto last;
            if (status == SEARCH_WIN || status == SEARCH_LIMIT_TIME ||
                status == SEARCH_INTERRUPTED)
                goto done;
            if (status == SEARCH_LIMIT_MEMORY) goto last;
            if (probe_left == 0) break;
        }
        if (lines_only) continue;
        int n_order = 0;
        for (int step = 0; step < modes; step++) {
            for (int twin = 0; twin < twins; twin++) {
                int id = step * MAX_TWINS + twin, at = n_order++;
                if (CHEAP_FIRST && k > 0)
                    for (; at > 0 && used[order[at - 1]] > used[id]; at--)
                        order[at] = order[at - 1];
                order[at] = id;
            }
        }
        for (int twin = 0; twin < MAX_TWINS; twin++) wide_done[twin] = 0;
        for (int it = 0; it < n_order && probe_left > 0; it++) {
            int step = order[it] / MAX_TWINS, twin = order[it] % MAX_TWINS;
            int mode = (step + wide) % modes;
            if (lim->max_seconds > 0 && search_clock() - t0 > lim->max_seconds / PROBE_SHARE)
                goto last;
            if (twin >= 2 && k >= LATE_TWIN_ROUNDS) continue;
            if (nested && mode != wide && wide_done[twin]) {
                used[order[it]] = used[twin];             /* the wide one's (step 0) */
                continue;
            }
            uint64_t b = probe_nodes < probe_left ? probe_nodes : probe_left;
            uint64_t before = out->nodes;
            SearchLimits probe_lim = in_probe_share(lim);
            probe_lim.prune &= ~twin_off[twin];
            head->probe_mode = mode;
            head->probe_round = k;
            status = dfs(ops, deal, start, &probe_lim, k * probe_step, mode, b, t0, scratch,
                         dead, &table, out);
            log_step(out, STEP_PROBE, k, mode, twin, k * probe_step, b, before, status);
            probed += out->nodes - before;
            head->probe_mode = -1;
            if (mode == wide) wide_done[twin] = status == SEARCH_NO_WIN;
            used[order[it]] = out->nodes - before;
            probe_left = share_left(probe_left, before, out);
            if (status == SEARCH_LIMIT_TIME && probe_lim.max_seconds < lim->max_seconds)
                goto last;                           /* the probes' share of the time */
            if (status == SEARCH_WIN || status == SEARCH_LIMIT_TIME ||
                status == SEARCH_INTERRUPTED)
                goto done;
            if (status == SEARCH_LIMIT_MEMORY) goto last;   /* wider ones would not fit */
        }
        /* An exhaustive search between rounds: it decides either way, and what it searched
         * whole goes into the caches (dead-cache, deal-cache), so the next one and the final
         * search skip it (docs/solver.md, "Order of work"). */
        if (WHOLE_SHIFT >= 0 && k >= WHOLE_FROM && probe_left > 0) {
            uint64_t b = probe_nodes >> (WHOLE_SHIFT >= 0 ? WHOLE_SHIFT : 0);
            if (b > probe_left) b = probe_left;
            uint64_t before = out->nodes;
            SearchLimits whole_lim = in_probe_share(lim);
            head->final_search = 1;
            status = dfs(ops, deal, start, &whole_lim, -1, 0, b, t0, scratch, dead, &table, out);
            log_step(out, STEP_WHOLE, k, 0, 0, -1, b, before, status);
            head->final_search = 0;
            probe_left = share_left(probe_left, before, out);
            if (status == SEARCH_WIN || status == SEARCH_NO_WIN || status == SEARCH_INTERRUPTED)
                goto done;
            if (status == SEARCH_LIMIT_TIME && whole_lim.max_seconds < lim->max_seconds) goto last;
            if (status == SEARCH_LIMIT_TIME || status == SEARCH_LIMIT_MEMORY) goto done;
        }
    }
last:
    head->final_search = 1;
    out->final_start = search_clock() - t0;
    {
        uint64_t before = out->nodes, b = budget - out->nodes;
        status = dfs(ops, deal, start, lim, -1, 0, b, t0, scratch, dead, &table, out);
        log_step(out, STEP_FINAL, 0, 0, 0, -1, b, before, status);
    }
done:
    if (dead) table_free(dead);
    table_free(&table);
    if (ops->scratch_free) ops->scratch_free(scratch);
    pool_give(lim->pool, memo_bytes);
    free(scratch);
    out->status = status;
    out->seconds = search_clock() - t0;
    return status;
}
