#define _POSIX_C_SOURCE 199309L
#include "search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "table.h"

#define CLOCK_EVERY 1024          /* nodes between clock reads */
#define POLL_EVERY 32768          /* nodes between polls for Ctrl-C (takes the GIL) */

typedef struct {
    StateBuf state;
    MoveCode moves[MAX_MOVES];
    uint8_t n, i;
} Frame;

double search_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int collect_path(const Frame *frames, int depth, SearchResult *out) {
    out->path = malloc(sizeof(MoveCode) * (size_t)(depth > 0 ? depth : 1));
    if (!out->path) return -1;
    for (int d = 0; d < depth; d++) out->path[d] = frames[d].moves[frames[d].i - 1];
    out->path_len = depth;
    return 0;
}

int search_run(const GameOps *ops, const void *deal, const void *start, const SearchLimits *lim,
               SearchResult *out) {
    memset(out, 0, sizeof *out);
    double t0 = search_clock();
    Table table;
    size_t frame_cap = 256;
    Frame *frames = malloc(frame_cap * sizeof(Frame));
    if (!frames || table_init(&table, lim->max_bytes) != 0) {
        free(frames);
        out->status = SEARCH_LIMIT_MEMORY;
        return out->status;
    }
    unsigned prune = lim->prune;
    Key key;
    int status = SEARCH_NO_WIN, depth = 0;
    uint64_t nodes = 0;

    ops->key(deal, start, &key);
    table_insert(&table, &key);
    if (ops->is_won(deal, start)) {
        status = SEARCH_WIN;
    } else if (!(prune && ops->is_dead(deal, start, prune))) {
        memcpy(&frames[0].state, start, ops->state_size);
        frames[0].n = (uint8_t)ops->gen_moves(deal, start, frames[0].moves, 1, prune);
        frames[0].i = 0;
        depth = 1;
    }
    while (depth > 0) {
        Frame *f = &frames[depth - 1];
        if (f->i == f->n) {
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
        ops->apply(deal, &f->state, m, &child->state);
        ops->key(deal, &child->state, &key);
        int seen = table_insert(&table, &key);
        if (seen == TABLE_SEEN) continue;
        if (seen == TABLE_FULL) { status = SEARCH_LIMIT_MEMORY; break; }
        nodes++;
        if (ops->is_won(deal, &child->state)) {
            status = SEARCH_WIN;
            break;
        }
        if (lim->max_nodes && nodes >= lim->max_nodes) { status = SEARCH_LIMIT_NODES; break; }
        if ((nodes & (CLOCK_EVERY - 1)) == 0) {
            if (lim->max_seconds > 0 && search_clock() - t0 > lim->max_seconds) {
                status = SEARCH_LIMIT_TIME;
                break;
            }
            if ((nodes & (POLL_EVERY - 1)) == 0 && lim->poll && lim->poll(lim->poll_ctx)) {
                status = SEARCH_INTERRUPTED;
                break;
            }
        }
        if (prune && ops->is_dead(deal, &child->state, prune)) continue;
        child->n = (uint8_t)ops->gen_moves(deal, &child->state, child->moves, 1, prune);
        child->i = 0;
        depth++;
    }
    if (status == SEARCH_WIN && collect_path(frames, depth, out) != 0) status = SEARCH_LIMIT_MEMORY;
    out->status = status;
    out->nodes = nodes;
    out->states = table.count;
    out->table_bytes = table_bytes(&table);
    out->peak_bytes = out->table_bytes + frame_cap * sizeof(Frame);
    out->seconds = search_clock() - t0;
    table_free(&table);
    free(frames);
    return status;
}
