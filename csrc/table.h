/* Transposition table: the set of canonical positions already searched.
 *
 * Open addressing with linear probing over entries that are the whole 24-byte key, plus a tag
 * byte per slot in an array of its own (7 bits of the key's hash, table.c): a position counts
 * as seen only when all 192 bits match, never on a hash or a tag alone.  The table starts small
 * and doubles, in place (table.c, grow), so the last size takes all of max_bytes; it never grows
 * past max_bytes, and a full table is reported to the search, which then ends with "unknown
 * (memory)".  A slot is in use exactly when its tag is not 0, so a reset (one search of a deal
 * to the next) clears the tags alone and keeps the memory already taken.
 */
#ifndef TABLE_H
#define TABLE_H

#include "core.h"

/* Ask the kernel for 2 MiB pages on the aligned part of [p, p + bytes): a hint (table.c).  Also
 * for any large zeroed block read and written at random while another thread of the process
 * runs (solver threads=2): the first write to each page of fresh zeroed memory replaces the
 * shared zero page that a read mapped, and that change must be flushed from every core running
 * the process (an inter-processor interrupt); with 2 MiB pages it happens 512 times less. */
void advise_huge(void *p, size_t bytes);

/* What one slot costs: the key and its tag. */
#define TABLE_ENTRY_BYTES (sizeof(Key) + 1)

/* Memory that several tables share (solver threads=2: two searches of one deal side by side):
 * the bytes their arrays hold together never pass max.  Updated with atomic operations. */
typedef struct {
    size_t max;
    size_t used;
    size_t peak;            /* the most used has been */
} MemPool;

typedef struct Table {
    Key *slots;
    uint8_t *tags;          /* per slot: 0 empty, else 0x80 | 7 bits of the key's hash */
    uint64_t capacity;
    uint64_t allocated;     /* slots the arrays hold (at least capacity: a reset keeps them) */
    uint64_t tag_slots;     /* the tags array's length: allocated, or more if a grow failed */
    uint64_t count;
    uint64_t limit;         /* grow (or report full) when count reaches this */
    size_t max_bytes;
    MemPool *pool;          /* NULL, or the memory this table shares with others */
    double deadline;        /* table_set_deadline; <= 0: none */
    double grow_rate;       /* seconds per unit of work the last grow took (table.c, grow_units) */
} Table;

enum { TABLE_NEW = 1, TABLE_SEEN = 0, TABLE_FULL = -1, TABLE_TIME = -2 };

/* Take bytes from the pool (NULL: always granted); 0 when the pool has not that much left.
 * pool_give returns them. */
int pool_take(MemPool *pool, size_t bytes);
void pool_give(MemPool *pool, size_t bytes);

int table_init(Table *t, size_t max_bytes);
/* The same, the arrays' memory drawn from pool (NULL: none) as well as bounded by max_bytes. */
int table_init_pool(Table *t, size_t max_bytes, MemPool *pool);
void table_free(Table *t);
/* Empty the table, keeping the memory it holds, at the first of the sizes it grows through
 * (table_init's, then each next_capacity) whose limit reaches want, or the largest of them
 * that fits in that memory: a search that will store at most want keys then never grows it,
 * and it pays neither a rehash nor new pages. */
void table_reset(Table *t, uint64_t want);
/* Insert key; TABLE_NEW if it was not there, TABLE_SEEN if it was, TABLE_FULL if out of memory,
 * TABLE_TIME if it needs a grow that would end after the deadline (table_set_deadline).  The
 * table is unchanged by TABLE_FULL and TABLE_TIME. */
int table_insert(Table *t, const Key *key);
/* Ask the cache for the tag and the slot where a table_insert of key begins its probe: a hint,
 * nothing more (the table is not changed, and a grow in between only makes it useless). */
void table_prefetch(const Table *t, const Key *key);
/* A time (search_clock's, CLOCK_MONOTONIC seconds; <= 0: none) that no grow may end
 * after, by its estimate: GROW_MARGIN (1.5) times the seconds per unit of work that the last grow
 * took (grow_rate to start with; 0: no estimate until a grow has been timed) or, if more, that
 * one of the process's last big grows took (table.c, recent_rate), times the units of this one
 * (table.c, grow_units: the keys it rehashes and the new slots it touches).  A grow
 * that would end later is not started: the table fills to 7/8 at its present size, as the last
 * size does, and then says TABLE_TIME.  table_init sets none; a reset keeps it. */
void table_set_deadline(Table *t, double deadline, double grow_rate);
/* Forget the process's recent grow rates (for the tests). */
void table_forget_rates(void);
size_t table_bytes(const Table *t);
/* The memory the arrays hold: table_bytes, or more after a reset. */
size_t table_held_bytes(const Table *t);
/* The hash that places key (for the tests, which craft keys with chosen hashes). */
uint64_t table_key_hash(const Key *key);
/* Whether key is in the table (nothing is inserted). */
int table_contains(const Table *t, const Key *key);

#endif
