#include "table.h"

#include <stdlib.h>
#include <string.h>

#define INITIAL_CAPACITY (1u << 12)
/* Linear probing stays fast up to about 3/4 full; at the final size we let it reach 7/8 rather
 * than give up memory the caller allowed. */
#define GROW_NUM 3
#define GROW_DEN 4
#define LAST_NUM 7
#define LAST_DEN 8

static inline uint64_t mix64(uint64_t x) {
    /* splitmix64's finaliser: every input bit reaches every output bit. */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline uint64_t key_hash(const Key *k) {
    return mix64(k->w[0] ^ mix64(k->w[1] ^ mix64(k->w[2])));
}

static inline int key_empty(const Key *k) { return k->w[1] == 0; }

static inline int key_equal(const Key *a, const Key *b) {
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2];
}

/* The next capacity: double, but never past max_bytes counting both arrays alive during the
 * resize; 0 when the table cannot grow by at least a quarter. */
static uint64_t next_capacity(const Table *t) {
    uint64_t total = t->max_bytes / sizeof(Key);
    uint64_t room = total > t->capacity ? total - t->capacity : 0;
    uint64_t cap = t->capacity * 2 < room ? t->capacity * 2 : room;
    return cap >= t->capacity + t->capacity / 4 ? cap : 0;
}

static int can_grow(const Table *t) { return next_capacity(t) != 0; }

/* Any capacity works: the hash picks a slot by multiply-high ("fast range") rather than a mask,
 * so the last resize can use all the memory it is given. */
static inline uint64_t slot_of(uint64_t hash, uint64_t cap) {
    return (uint64_t)(((unsigned __int128)hash * cap) >> 64);
}

static void set_limit(Table *t) {
    if (can_grow(t))
        t->limit = t->capacity / GROW_DEN * GROW_NUM;
    else
        t->limit = t->capacity / LAST_DEN * LAST_NUM;
}

int table_init(Table *t, size_t max_bytes) {
    memset(t, 0, sizeof *t);
    t->max_bytes = max_bytes;
    uint64_t cap = INITIAL_CAPACITY;
    while (cap > 16 && cap * sizeof(Key) > max_bytes) cap >>= 1;
    t->slots = calloc(cap, sizeof(Key));
    if (!t->slots) return -1;
    t->capacity = cap;
    set_limit(t);
    return 0;
}

void table_free(Table *t) {
    free(t->slots);
    t->slots = NULL;
    t->capacity = t->count = 0;
}

size_t table_bytes(const Table *t) { return (size_t)t->capacity * sizeof(Key); }

static void place(Key *slots, uint64_t cap, const Key *k) {
    uint64_t i = slot_of(key_hash(k), cap);
    while (!key_empty(&slots[i])) i = i + 1 == cap ? 0 : i + 1;
    slots[i] = *k;
}

static int grow(Table *t) {
    uint64_t cap = next_capacity(t);
    Key *fresh = calloc(cap, sizeof(Key));
    if (!fresh) return -1;
    for (uint64_t i = 0; i < t->capacity; i++)
        if (!key_empty(&t->slots[i])) place(fresh, cap, &t->slots[i]);
    free(t->slots);
    t->slots = fresh;
    t->capacity = cap;
    set_limit(t);
    return 0;
}

int table_contains(const Table *t, const Key *key) {
    uint64_t cap = t->capacity;
    uint64_t i = slot_of(key_hash(key), cap);
    while (!key_empty(&t->slots[i])) {
        if (key_equal(&t->slots[i], key)) return 1;
        i = i + 1 == cap ? 0 : i + 1;
    }
    return 0;
}

int table_insert(Table *t, const Key *key) {
    uint64_t cap = t->capacity;
    uint64_t i = slot_of(key_hash(key), cap);
    while (!key_empty(&t->slots[i])) {
        if (key_equal(&t->slots[i], key)) return TABLE_SEEN;
        i = i + 1 == cap ? 0 : i + 1;
    }
    if (t->count >= t->limit) {
        if (!can_grow(t) || grow(t) != 0) return TABLE_FULL;
        return table_insert(t, key);
    }
    t->slots[i] = *key;
    t->count++;
    return TABLE_NEW;
}
