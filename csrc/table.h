/* Transposition table: the set of canonical positions already searched.
 *
 * Open addressing with linear probing over 24-byte entries that are the whole key: a position
 * counts as seen only when all 192 bits match, never on a hash alone.  The table starts small and
 * doubles, in place (table.c, grow), so the last size takes all of max_bytes; it never grows past
 * max_bytes, and a full table is reported to the search, which then ends with "unknown (memory)".
 */
#ifndef TABLE_H
#define TABLE_H

#include "core.h"

typedef struct {
    Key *slots;
    uint64_t capacity;
    uint64_t count;
    uint64_t limit;         /* grow (or report full) when count reaches this */
    size_t max_bytes;
} Table;

enum { TABLE_NEW = 1, TABLE_SEEN = 0, TABLE_FULL = -1 };

int table_init(Table *t, size_t max_bytes);
void table_free(Table *t);
/* Insert key; TABLE_NEW if it was not there, TABLE_SEEN if it was, TABLE_FULL if out of memory. */
int table_insert(Table *t, const Key *key);
size_t table_bytes(const Table *t);
/* Whether key is in the table (nothing is inserted). */
int table_contains(const Table *t, const Key *key);

#endif
