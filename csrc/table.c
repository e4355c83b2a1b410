/* madvise, MADV_HUGEPAGE and mremap are outside strict C11: ask glibc for them. */
#define _GNU_SOURCE

#include "table.h"

#include <stdlib.h>
#include <string.h>

#include "search.h"     /* search_clock: the deadline is on the search's clock */
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#define INITIAL_CAPACITY (1u << 12)
/* Linear probing stays fast up to about 3/4 full; at the final size we let it reach 7/8 rather
 * than give up memory the caller allowed. */
#define GROW_NUM 3
#define GROW_DEN 4
#define LAST_NUM 7
#define LAST_DEN 8
/* A grow is not started when it would end after the deadline by this estimate: GROW_MARGIN
 * times the seconds per unit the last grow took, times its units (grow_units; a key rehashed is
 * one unit, a new slot NEW_SLOT_UNITS; table_set_deadline). */
#define GROW_MARGIN 1.5
#define NEW_SLOT_UNITS 3.0

static inline uint64_t mix64(uint64_t x) {
    /* splitmix64's finaliser: every input bit reaches every output bit. */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t key_hash(const Key *k) {
#ifdef TABLE_SLOW_HASH
    return mix64(k->w[0] ^ mix64(k->w[1] ^ mix64(k->w[2])));
#else
    /* Three independent multiplies, then splitmix's last two steps: about 4 % faster on the
     * Banner family than three chained finalisers (-DTABLE_SLOW_HASH), which made every slot
     * wait on six dependent multiplies before its load could start. */
    uint64_t h = k->w[0] * 0x9e3779b97f4a7c15ULL ^ rotl64(k->w[1] * 0xc2b2ae3d27d4eb4fULL, 21) ^
                 rotl64(k->w[2] * 0x165667b19e3779f9ULL, 43);
    h ^= h >> 31; h *= 0x94d049bb133111ebULL;
    h ^= h >> 29;
    return h;
#endif
}

/* A slot's tag: 0 when empty, else 0x80 and the low 7 bits of its key's hash, which slot_of
 * hardly uses (it takes the hash's high bits).  A lookup walks the tags, one byte per slot, and
 * reads a key only where the tag matches: a new key (most inserts) reads no key at all, and its
 * store does not stall the search the way a load that misses the cache does. */
static inline uint8_t tag_of(uint64_t hash) { return (uint8_t)(0x80 | (hash & 0x7f)); }

static inline int key_equal(const Key *a, const Key *b) {
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2];
}

/* The next capacity: double, but never past max_bytes (the table grows in place, so only one
 * array is ever alive); 0 when the table cannot grow by at least an eighth. */
static uint64_t next_capacity(const Table *t) {
    uint64_t total = t->max_bytes / TABLE_ENTRY_BYTES;
    if (t->pool) {
        /* What the pool leaves, plus what this table holds already. */
        size_t used = __atomic_load_n(&t->pool->used, __ATOMIC_RELAXED);
        size_t free_bytes = used < t->pool->max ? t->pool->max - used : 0;
        uint64_t mine = (free_bytes + t->allocated * TABLE_ENTRY_BYTES) / TABLE_ENTRY_BYTES;
        if (mine < total) total = mine;
    }
    uint64_t cap = t->capacity * 2 < total ? t->capacity * 2 : total;
    return cap >= t->capacity + t->capacity / 8 ? cap : 0;
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

/* Take bytes from the pool (none: always granted); 0 when the pool has not that much left. */
int pool_take(MemPool *pool, size_t bytes) {
    if (!pool) return 1;
    size_t used = __atomic_load_n(&pool->used, __ATOMIC_RELAXED);
    do {
        if (used > pool->max || bytes > pool->max - used) return 0;
    } while (!__atomic_compare_exchange_n(&pool->used, &used, used + bytes, 1, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    size_t now = used + bytes, peak = __atomic_load_n(&pool->peak, __ATOMIC_RELAXED);
    while (now > peak && !__atomic_compare_exchange_n(&pool->peak, &peak, now, 1,
                                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return 1;
}

void pool_give(MemPool *pool, size_t bytes) {
    if (pool) __atomic_fetch_sub(&pool->used, bytes, __ATOMIC_RELAXED);
}

/* The arrays' memory.  Arrays below MAP_FROM come from malloc (realloc to grow), and ask for
 * 2 MiB pages on their aligned part.  From MAP_FROM bytes on (Linux) an array is a mapping of
 * its own, grown with mremap, which moves the pages and copies nothing, and asked for 2 MiB
 * pages as a whole.  glibc's realloc also uses mremap for its own large blocks, but madvise on
 * the aligned part of one splits its mapping in three, and then mremap fails and realloc copies
 * the whole array into new pages: measured, the last grow to 2 GiB took 4.6 s of copy and first
 * touch there, and filling 2 GiB took 19.9-21.3 s against 14.1-17.7 s now (3 runs).  MAP_FROM is
 * glibc's largest threshold for its own mappings: below it, in a process that searches deal
 * after deal, glibc serves the arrays from memory already touched, which a fresh mapping is
 * not (mappings from 2 MiB on cost 5 % on Banner deals of about 0.1 s). */
#if defined(__linux__) && defined(MREMAP_MAYMOVE)
#define MAP_FROM ((size_t)32 << 20)

static size_t page_up(size_t bytes) {
    static size_t page;
    if (!page) {
        long p = sysconf(_SC_PAGESIZE);
        page = p > 0 ? (size_t)p : 4096;
    }
    return (bytes + page - 1) / page * page;
}

static void advise_mapping(void *p, size_t bytes) {
#if defined(MADV_HUGEPAGE) && !defined(TABLE_NO_HUGEPAGES)
    madvise(p, page_up(bytes), MADV_HUGEPAGE);      /* the whole mapping: it is not split */
#else
    (void)p; (void)bytes;
#endif
}
#endif

/* Grow an array of old bytes (p; NULL when old is 0) to bytes, keeping its contents; NULL, with
 * p unchanged, when memory runs out.  A new array is zeroed when zero is set. */
static void *array_grow(void *p, size_t old, size_t bytes, int zero) {
#ifdef MAP_FROM
    if (bytes >= MAP_FROM) {
        void *q;
        if (old >= MAP_FROM) {
            q = mremap(p, page_up(old), page_up(bytes), MREMAP_MAYMOVE);
            if (q == MAP_FAILED) return NULL;
        } else {
            q = mmap(NULL, page_up(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
            if (q == MAP_FAILED) return NULL;
            if (old) memcpy(q, p, old);
            free(p);
        }
        advise_mapping(q, bytes);
        return q;
    }
#endif
    void *q = !old && zero ? calloc(bytes, 1) : realloc(p, bytes);
    if (q) advise_huge(q, bytes);
    return q;
}

static void array_free(void *p, size_t bytes) {
#ifdef MAP_FROM
    if (bytes >= MAP_FROM) {
        if (p) munmap(p, page_up(bytes));
        return;
    }
#endif
    (void)bytes;
    free(p);
}

int table_init(Table *t, size_t max_bytes) { return table_init_pool(t, max_bytes, NULL); }

int table_init_pool(Table *t, size_t max_bytes, MemPool *pool) {
    memset(t, 0, sizeof *t);
    t->max_bytes = max_bytes;
    uint64_t cap = INITIAL_CAPACITY;
    while (cap > 16 && cap * TABLE_ENTRY_BYTES > max_bytes) cap >>= 1;
    if (!pool_take(pool, cap * TABLE_ENTRY_BYTES)) return -1;
    t->pool = pool;
    t->slots = array_grow(NULL, 0, cap * sizeof(Key), 0);
    t->tags = array_grow(NULL, 0, cap, 1);
    if (!t->slots || !t->tags) {
        array_free(t->slots, cap * sizeof(Key));
        array_free(t->tags, cap);
        t->slots = NULL;
        t->tags = NULL;
        pool_give(pool, cap * TABLE_ENTRY_BYTES);
        t->pool = NULL;
        return -1;
    }
    t->capacity = t->allocated = t->tag_slots = cap;
    set_limit(t);
    return 0;
}

void table_reset(Table *t, uint64_t want) {
    uint64_t cap = INITIAL_CAPACITY;
    while (cap > 16 && cap * TABLE_ENTRY_BYTES > t->max_bytes) cap >>= 1;
    t->capacity = cap;
    set_limit(t);
    /* Up the sizes the table grows through (so the last is the same), within the memory held. */
    while (t->limit < want) {
        uint64_t cap2 = next_capacity(t);
        if (!cap2 || cap2 > t->allocated) break;
        t->capacity = cap2;
        set_limit(t);
    }
    memset(t->tags, 0, t->capacity);
    t->count = 0;
}

void table_free(Table *t) {
    pool_give(t->pool, (size_t)t->allocated * TABLE_ENTRY_BYTES);
    t->pool = NULL;
    array_free(t->slots, (size_t)t->allocated * sizeof(Key));
    array_free(t->tags, (size_t)t->tag_slots);
    t->slots = NULL;
    t->tags = NULL;
    t->capacity = t->allocated = t->tag_slots = t->count = 0;
}

size_t table_bytes(const Table *t) { return (size_t)t->capacity * TABLE_ENTRY_BYTES; }

size_t table_held_bytes(const Table *t) { return (size_t)t->allocated * TABLE_ENTRY_BYTES; }

static void place(Key *slots, uint8_t *tags, uint64_t cap, const Key *k) {
    uint64_t h = key_hash(k), i = slot_of(h, cap);
    while (tags[i]) i = i + 1 == cap ? 0 : i + 1;
    slots[i] = *k;
    tags[i] = tag_of(h);
}

/* Ask for transparent huge pages on the 2 MiB-aligned part of a large block.  The table is read at
 * random; with 2 MiB pages a table of hundreds of megabytes needs a few hundred TLB entries
 * instead of tens of thousands.  Measured: Banner 1770 at 15,000,000 nodes 5.1 -> 4.9 s, nothing
 * seen at 2 s per deal.  A hint only: where the kernel ignores it (THP off) nothing changes, and
 * the contents are the same either way.  -DTABLE_NO_HUGEPAGES leaves it out.  The Salic room
 * memo asks for them too (salic.c), for another reason: see table.h. */
void advise_huge(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(TABLE_NO_HUGEPAGES)
    const uintptr_t huge = (uintptr_t)1 << 21;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p; (void)bytes;
#endif
}

/* Grow to next_capacity() in place, so that the old and the new array are never both alive and
 * the last size can take all of max_bytes.  -2, with the table unchanged, when its pool has not
 * the memory (another table of the pool took it); -1 when memory runs out: if an array cannot
 * grow the table is unchanged; if the small side buffer cannot grow, the keys that did not fit
 * in it are lost (a valid table that has forgotten some positions: the search then stops, see
 * table_insert).
 *
 * A slot is in use exactly when its tag is not 0: the keys of empty slots are never read, so a
 * reset (table_reset) clears the tags alone, and the arrays keep the memory they have.
 *
 * 1. Unless the arrays are already that large (a table reset after it had grown), grow both
 *    to the new size (array_grow: large arrays are remapped, not copied).
 * 2. Move the keys, in slot order, to the top `count` slots.  Reading down from the top of the
 *    old array and writing down from the top of the new one, the write index never falls below
 *    the read index, so no unread key is overwritten.  Then clear every tag.
 * 3. Take the keys out of the block bottom up and insert each by linear probing under the new
 *    capacity.  All slots below the key's own slot hold only keys already inserted or nothing,
 *    and its own slot has just been taken out, so a probe that starts at or below it stops there
 *    at the latest and never touches a key not yet moved.  A key whose new home slot lies above
 *    its own slot (keys that had wrapped round the old array's end, and a few at the very top)
 *    goes to a side buffer instead.  Every key inserted so far sits where plain linear probing
 *    from its home slot would find it, with no empty slot in between, because slots only fill.
 * 4. Insert the side buffer's keys the usual way (with wrap-round).
 *
 * Step 2 reads the old tags to tell the slots in use; steps 3 and 4 write each key's tag where
 * they put it, and a slot not yet written has tag 0.
 *
 * The slot map is monotone in the hash (slot_of), and step 2 keeps the old slot order, which is
 * nearly the hash order, so step 3's probes are short and it reads and writes memory in order. */
static int grow(Table *t) {
    uint64_t cap = t->capacity, cap2 = next_capacity(t), n = t->count;
    if (cap2 > t->allocated) {
        /* Reserved before it is taken: another table of the pool may have grown meanwhile. */
        if (!pool_take(t->pool, (size_t)(cap2 - t->allocated) * TABLE_ENTRY_BYTES)) return -2;
        /* The tags first; if the slots then fail, the tags array stays larger (tag_slots). */
        if (cap2 > t->tag_slots) {
            uint8_t *tags = array_grow(t->tags, t->tag_slots, cap2, 0);
            if (!tags) {
                pool_give(t->pool, (size_t)(cap2 - t->allocated) * TABLE_ENTRY_BYTES);
                return -1;
            }
            t->tags = tags;
            t->tag_slots = cap2;
        }
        Key *s = array_grow(t->slots, t->allocated * sizeof(Key), cap2 * sizeof(Key), 0);
        if (!s) {
            pool_give(t->pool, (size_t)(cap2 - t->allocated) * TABLE_ENTRY_BYTES);
            return -1;
        }
        t->slots = s;
        t->allocated = cap2;
    }
    Key *s = t->slots;
    uint8_t *tags = t->tags;
    uint64_t w = cap2;
    for (uint64_t r = cap; r-- > 0;)
        if (tags[r] && --w != r) s[w] = s[r];
    memset(tags, 0, cap2);
    Key *side = NULL;
    uint64_t nside = 0, side_cap = 0, lost = 0;
    for (uint64_t src = cap2 - n; src < cap2; src++) {
        Key k = s[src];
        uint64_t h = key_hash(&k), i = slot_of(h, cap2);
        while (i <= src && tags[i]) i++;
        if (i <= src) {
            s[i] = k;
            tags[i] = tag_of(h);
            continue;
        }
        if (nside == side_cap) {
            uint64_t more = side_cap ? 2 * side_cap : 64;
            Key *bigger = realloc(side, more * sizeof(Key));
            if (!bigger) {
                lost++;
                continue;
            }
            side = bigger;
            side_cap = more;
        }
        side[nside++] = k;
    }
    for (uint64_t j = 0; j < nside; j++) place(s, tags, cap2, &side[j]);
    free(side);
    t->capacity = cap2;
    t->count = n - lost;
    set_limit(t);
    return lost ? -1 : 0;
}

/* What a grow to cap2 costs, in units of one key rehashed: each key is moved and placed again,
 * and each new slot's 25 bytes are touched for the first time, which the kernel must clear:
 * about 3 keys' worth, measured (growing to 2 GiB: 20 ns per key, 76 ns per new slot). */
static double grow_units(const Table *t, uint64_t cap2) {
    uint64_t fresh = cap2 > t->allocated ? cap2 - t->allocated : 0;
    return (double)t->count + NEW_SLOT_UNITS * (double)fresh;
}

/* The rates of the last RECENT_GROWS grows of at least BIG_GROW units, by any table of the
 * process, in picoseconds per unit.  A grow's first touch of memory costs several times more
 * when the memory is new to the process than when the kernel hands back pages the process freed
 * a moment ago (a deal before, in bench or a survey), so a table whose earlier grows reused such
 * pages would guess its next grow, into new memory, far too low (measured: 4.2 then 22 ns per
 * unit, Banner 5879 at 2 s).  The estimate takes the largest of these recent rates and the
 * table's own: a grow that was slow once is expected slow again, for RECENT_GROWS big grows.
 * Updated with relaxed atomics (two searches run side by side): a lost update only forgets a
 * rate. */
#define RECENT_GROWS 8
#define BIG_GROW 1e6
static uint64_t recent_ps[RECENT_GROWS];
static unsigned recent_next;

static void note_rate(double rate) {
    unsigned i = __atomic_fetch_add(&recent_next, 1, __ATOMIC_RELAXED) % RECENT_GROWS;
    __atomic_store_n(&recent_ps[i], (uint64_t)(rate * 1e12), __ATOMIC_RELAXED);
}

static double recent_rate(void) {
    uint64_t most = 0;
    for (int i = 0; i < RECENT_GROWS; i++) {
        uint64_t ps = __atomic_load_n(&recent_ps[i], __ATOMIC_RELAXED);
        if (ps > most) most = ps;
    }
    return (double)most * 1e-12;
}

void table_forget_rates(void) {
    for (int i = 0; i < RECENT_GROWS; i++) __atomic_store_n(&recent_ps[i], 0, __ATOMIC_RELAXED);
}

/* grow(), and with a deadline the seconds per unit it took, for too_late(). */
static int timed_grow(Table *t) {
    if (t->deadline <= 0) return grow(t);
    double units = grow_units(t, next_capacity(t)), start = search_clock();
    int grown = grow(t);
    if (grown == 0 && units > 0) {
        t->grow_rate = (search_clock() - start) / units;
        if (units >= BIG_GROW) note_rate(t->grow_rate);
    }
    return grown;
}

/* Whether the next grow, estimated from the last ones, would end after the deadline.  A grow
 * rehashes every key and first touches the new memory: at 2 GiB one takes seconds, and the search
 * reads the clock only between nodes (docs/solver.md, "Time limit"). */
static int too_late(const Table *t) {
    if (t->deadline <= 0) return 0;
    double rate = t->grow_rate, recent = recent_rate();
    if (recent > rate) rate = recent;
    if (rate <= 0) return 0;
    double cost = GROW_MARGIN * rate * grow_units(t, next_capacity(t));
    return search_clock() + cost > t->deadline;
}

void table_set_deadline(Table *t, double deadline, double grow_rate) {
    t->deadline = deadline;
    t->grow_rate = grow_rate;
}

uint64_t table_key_hash(const Key *key) { return key_hash(key); }

void table_prefetch(const Table *t, const Key *key) {
    uint64_t i = slot_of(key_hash(key), t->capacity);
    __builtin_prefetch(&t->tags[i], 0, 3);
    __builtin_prefetch(&t->slots[i], 1, 3);
}

int table_contains(const Table *t, const Key *key) {
    uint64_t cap = t->capacity, h = key_hash(key), i = slot_of(h, cap);
    uint8_t tag = tag_of(h), g;
    while ((g = t->tags[i]) != 0) {
        if (g == tag && key_equal(&t->slots[i], key)) return 1;
        i = i + 1 == cap ? 0 : i + 1;
    }
    return 0;
}

int table_insert(Table *t, const Key *key) {
    uint64_t cap = t->capacity, h = key_hash(key), i = slot_of(h, cap);
    uint8_t tag = tag_of(h), g;
    while ((g = t->tags[i]) != 0) {
        if (g == tag && key_equal(&t->slots[i], key)) return TABLE_SEEN;
        i = i + 1 == cap ? 0 : i + 1;
    }
    if (t->count >= t->limit) {
        int grown = !can_grow(t) ? -1 : too_late(t) ? -3 : timed_grow(t);
        if ((grown == -2 || grown == -3) && t->limit < t->capacity / LAST_DEN * LAST_NUM) {
            /* The pool is spent, or a grow would outlast the deadline: this size is the last,
             * filled as far as a last one is. */
            t->limit = t->capacity / LAST_DEN * LAST_NUM;
            return table_insert(t, key);
        }
        if (grown == -3) return TABLE_TIME;
        if (grown != 0) return TABLE_FULL;
        return table_insert(t, key);
    }
    t->slots[i] = *key;
    t->tags[i] = tag;
    t->count++;
    return TABLE_NEW;
}
