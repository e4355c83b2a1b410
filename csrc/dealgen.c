/* PySol-compatible deal generation; see dealgen.h and RULES.md §4.
 *
 * The references are pysol_cards/random.py (LCRandom31, RandomBase.shuffle/randint) and
 * CPython's Modules/_randommodule.c (init_genrand, init_by_array, genrand_uint32, random()).
 *
 * Speed: seeding a Mersenne Twister is two serial chains of 624 multiplications, far more
 * work than the shuffle itself. The batch path therefore seeds MT_LANES deals at once,
 * structure-of-arrays, so that the compiler can run the lanes side by side in vector
 * registers, and it twists only the state words the shuffle consumes. */
#include "dealgen.h"

#include <stdlib.h>
#include <string.h>

#define MT_N DEALGEN_MT_N
#define MT_M 397
#define MT_MATRIX_A 0x9908b0dfu
#define MT_UPPER_MASK 0x80000000u
#define MT_LOWER_MASK 0x7fffffffu
#define MT_LANES 32          /* deals seeded side by side in the batch path */
#define MT_LANE_KEY_WORDS 8  /* the lanes take N < 2^256; larger N go one by one */
#define QUEEN 11
#define MAX_CARDS (DEALGEN_MAX_DECKS * 52)

/* The lanes need 32-bit vector multiplies, which baseline x86-64 (SSE2) lacks: where the
 * toolchain can, also compile the lane loops for AVX2 and pick the version at load time. */
#if defined(__x86_64__) && defined(__linux__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef VECTOR_CLONES
#define VECTOR_CLONES
#endif

/* ---------------------------------------------------------------- LCRandom31 */

void dealgen_lc31_seed(dealgen_lc31 *rng, uint64_t seed)
{
    /* pysol_cards keeps seedx modulo 2^33, but the output reads bits 16..31 only and the
     * low bits of an LCG step never depend on higher ones: 32 bits reproduce it exactly.
     * Seeds from 2^32 on start from seed - 2^32, which is the same low 32 bits. */
    int wide = seed >= (UINT64_C(1) << 32);
    rng->seedx = (uint32_t)seed;
    rng->mask = wide ? 0xffffu : 0x7fffu;
    rng->high_bit = (!wide && seed >= UINT64_C(0x80000000)) ? 0x8000u : 0u;
    rng->plus_one = (uint32_t)wide;
}

uint32_t dealgen_lc31_random(dealgen_lc31 *rng)
{
    rng->seedx = rng->seedx * 214013u + 2531011u;
    return (((rng->seedx >> 16) & rng->mask) | rng->high_bit) + rng->plus_one;
}

/* ---------------------------------------------------------------- Mersenne Twister */

static void mt_init_genrand(uint32_t mt[MT_N], uint32_t s)
{
    mt[0] = s;
    for (uint32_t i = 1; i < MT_N; i++)
        mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;
}

static size_t significant_words(const uint32_t *words, size_t n_words)
{
    while (n_words > 0 && words[n_words - 1] == 0)
        n_words--;
    return n_words;
}

void dealgen_mt_seed(dealgen_mt *rng, const uint32_t *words, size_t n_words)
{
    static const uint32_t zero = 0;
    uint32_t *mt = rng->mt;
    size_t key_length = significant_words(words, n_words);
    if (key_length == 0) {       /* CPython seeds 0 with the one-word key [0] */
        words = &zero;
        key_length = 1;
    }
    mt_init_genrand(mt, 19650218u);
    size_t i = 1, j = 0;
    for (size_t k = MT_N > key_length ? MT_N : key_length; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + words[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= key_length)
            j = 0;
    }
    for (size_t k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
    rng->index = MT_N;
}

static inline uint32_t mt_twisted(uint32_t here, uint32_t next, uint32_t far)
{
    uint32_t y = (here & MT_UPPER_MASK) | (next & MT_LOWER_MASK);
    return far ^ (y >> 1) ^ ((0u - (y & 1u)) & MT_MATRIX_A);
}

static inline uint32_t mt_temper(uint32_t y)
{
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint32_t dealgen_mt_uint32(dealgen_mt *rng)
{
    uint32_t *mt = rng->mt;
    if (rng->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++)
            mt[kk] = mt_twisted(mt[kk], mt[kk + 1], mt[kk + MT_M]);
        for (; kk < MT_N - 1; kk++)
            mt[kk] = mt_twisted(mt[kk], mt[kk + 1], mt[kk + (MT_M - MT_N)]);
        mt[MT_N - 1] = mt_twisted(mt[MT_N - 1], mt[0], mt[MT_M - 1]);
        rng->index = 0;
    }
    return mt_temper(mt[rng->index++]);
}

/* random.Random.random(): 53 bits from two outputs. Both products are exact, so the
 * result is the same with or without fused multiply-add. */
static inline double mt_double(uint32_t first, uint32_t second)
{
    return ((double)(first >> 5) * 67108864.0 + (double)(second >> 6)) * (1.0 / 9007199254740992.0);
}

double dealgen_mt_random(dealgen_mt *rng)
{
    uint32_t first = dealgen_mt_uint32(rng);
    return mt_double(first, dealgen_mt_uint32(rng));
}

/* RandomBase.randint(0, n) = int(random() * (n + 1)): one IEEE double product, truncated. */
static inline uint32_t mt_randint(double random, int n)
{
    return (uint32_t)(random * (double)(n + 1));
}

/* ---------------------------------------------------------------- shuffles */

/* The list before shuffling: PySol card ids, or their card values (id % 52) when only
 * the deal order is wanted; rearranged by ms_rearrange for LCRandom31 with one deck. */
static void fresh_cards(uint8_t *cards, int len, int lc, int values)
{
    if (lc && len == 52) {        /* pysol_cards.cards.ms_rearrange */
        static const uint8_t offsets[4] = {0, 39, 26, 13};
        for (int i = 0; i < 13; i++)
            for (int k = 0; k < 4; k++)
                cards[4 * i + k] = (uint8_t)(i + offsets[k]);
    } else {
        for (int i = 0; i < len; i++)
            cards[i] = (uint8_t)(values ? i % 52 : i);
    }
}

static inline void swap_cards(uint8_t *cards, int n, uint32_t j)
{
    uint8_t t = cards[n];
    cards[n] = cards[j];
    cards[j] = t;
}

static void shuffle_lc(uint8_t *cards, int len, uint64_t seed)
{
    dealgen_lc31 rng;
    dealgen_lc31_seed(&rng, seed);
    for (int n = len - 1; n > 0; n--)
        swap_cards(cards, n, dealgen_lc31_random(&rng) % (uint32_t)(n + 1));
}

static void shuffle_mt(uint8_t *cards, int len, const uint32_t *words, size_t n_words)
{
    dealgen_mt rng;
    dealgen_mt_seed(&rng, words, n_words);
    for (int n = len - 1; n > 0; n--)
        swap_cards(cards, n, mt_randint(dealgen_mt_random(&rng), n));
}

/* Deal order from the shuffled card values. Salic: the first queen of the list goes to
 * its end; both families: reverse. */
static void deal_order_of(int family, const uint8_t *shuffled, int len, uint8_t *out)
{
    int queen = len;              /* none */
    if (family == DEALGEN_SALIC)
        for (queen = 0; queen < len && shuffled[queen] % 13 != QUEEN; queen++)
            ;
    if (queen < len)
        *out++ = shuffled[queen];
    for (int i = len - 1; i > queen; i--)
        *out++ = shuffled[i];
    for (int i = (queen < len ? queen : len) - 1; i >= 0; i--)
        *out++ = shuffled[i];
}

/* ---------------------------------------------------------------- argument checks */

static int check_game(int family, int decks)
{
    if (decks < 1 || decks > DEALGEN_MAX_DECKS)
        return DEALGEN_BAD_DECKS;
    if (family != DEALGEN_BANNER && family != DEALGEN_SALIC)
        return DEALGEN_BAD_FAMILY;
    return DEALGEN_OK;
}

/* The value of a seed of at most two words (0 if it is longer: callers check). */
static uint64_t small_value(const uint32_t *words, size_t n_words)
{
    if (n_words > 2)
        return 0;
    uint64_t value = 0;
    for (size_t i = n_words; i-- > 0;)
        value = (value << 32) | words[i];
    return value;
}

static int uses_lc(const uint32_t *words, size_t n_words, int ms)
{
    return ms || (n_words == 1 && words[0] < DEALGEN_LC_LIMIT);
}

/* 0 if the seed is valid: positive, and at most DEALGEN_MS_MAX for ms numbers. */
static int check_seed(const uint32_t *words, size_t n_words, int ms)
{
    if (n_words == 0)
        return DEALGEN_BAD_SEED;
    if (ms && (n_words > 2 || small_value(words, n_words) > DEALGEN_MS_MAX))
        return DEALGEN_BAD_SEED;
    return DEALGEN_OK;
}

/* ---------------------------------------------------------------- single deals */

static void shuffle_checked(int len, const uint32_t *words, size_t n_words, int ms, int values,
                            uint8_t *cards)
{
    int lc = uses_lc(words, n_words, ms);
    fresh_cards(cards, len, lc, values);
    if (lc)
        shuffle_lc(cards, len, small_value(words, n_words));
    else
        shuffle_mt(cards, len, words, n_words);
}

/* Checks the game and the seed; trims the seed's leading zero words. */
static int check_request(int family, int decks, const uint32_t *words, size_t *n_words, int ms)
{
    int status = check_game(family, decks);
    *n_words = significant_words(words, *n_words);
    if (status == DEALGEN_OK)
        status = check_seed(words, *n_words, ms);
    return status;
}

int dealgen_shuffle(int decks, const uint32_t *words, size_t n_words, int ms, uint8_t *out)
{
    int status = check_request(DEALGEN_BANNER, decks, words, &n_words, ms);
    if (status != DEALGEN_OK)
        return status;
    shuffle_checked(decks * 52, words, n_words, ms, 0, out);
    return DEALGEN_OK;
}

int dealgen_deal(int family, int decks, const uint32_t *words, size_t n_words, int ms,
                 uint8_t *out)
{
    uint8_t shuffled[MAX_CARDS];
    int status = check_request(family, decks, words, &n_words, ms);
    if (status != DEALGEN_OK)
        return status;
    shuffle_checked(decks * 52, words, n_words, ms, 1, shuffled);
    deal_order_of(family, shuffled, decks * 52, out);
    return DEALGEN_OK;
}

/* ---------------------------------------------------------------- batches */

/* Fills mt[i][lane] with the state of random.Random(key) for MT_LANES keys of one length
 * (at most MT_LANE_KEY_WORDS), given as key[j][lane]; `seeded` is init_genrand(19650218),
 * shared by every key. This is dealgen_mt_seed with the lanes innermost, for keys shorter
 * than MT_N words. */
_Static_assert(MT_LANE_KEY_WORDS < MT_N, "mt_seed_lanes assumes keys shorter than the state");
VECTOR_CLONES static void mt_seed_lanes(uint32_t mt[MT_N][MT_LANES], const uint32_t seeded[MT_N],
                          const uint32_t key[][MT_LANES], size_t key_length)
{
    uint32_t prev[MT_LANES];
    for (int l = 0; l < MT_LANES; l++)
        prev[l] = seeded[0];
    /* The first loop runs N times: over mt[1..N-1], which still hold init_genrand's words
     * (the same in every lane, so they are read from `seeded`), then once more at mt[1]. */
    size_t j = 0;
    for (size_t i = 1; i < MT_N; i++) {
        for (int l = 0; l < MT_LANES; l++) {
            prev[l] = (seeded[i] ^ ((prev[l] ^ (prev[l] >> 30)) * 1664525u)) + key[j][l] + (uint32_t)j;
            mt[i][l] = prev[l];
        }
        if (++j >= key_length)
            j = 0;
    }
    for (int l = 0; l < MT_LANES; l++) {
        mt[0][l] = prev[l];     /* mt[0] = mt[N-1] */
        prev[l] = (mt[1][l] ^ ((prev[l] ^ (prev[l] >> 30)) * 1664525u)) + key[j][l] + (uint32_t)j;
        mt[1][l] = prev[l];
    }
    /* The second loop runs N-1 times: over mt[2..N-1], then at mt[1] after mt[0] = mt[N-1]
     * (that mt[0] is overwritten at the end, so only prev needs it). */
    for (size_t i = 2; i <= MT_N; i++) {
        size_t at = i < MT_N ? i : 1;
        for (int l = 0; l < MT_LANES; l++) {
            prev[l] = (mt[at][l] ^ ((prev[l] ^ (prev[l] >> 30)) * 1566083941u)) - (uint32_t)at;
            mt[at][l] = prev[l];
        }
    }
    for (int l = 0; l < MT_LANES; l++)
        mt[0][l] = 0x80000000u;
}

/* The shuffle's swap partners j[n] for n = len-1 .. 1 of every lane, from a freshly seeded
 * state. The shuffle reads 2*(len-1) outputs, all from the first twist; the first 227 new
 * words depend on old words only, so only those the shuffle reads are computed. */
VECTOR_CLONES static void mt_draws_lanes(uint32_t mt[MT_N][MT_LANES], int len, uint8_t draws[][MT_LANES])
{
    for (int n = len - 1, w = 0; n > 0; n--, w += 2) {
        for (int l = 0; l < MT_LANES; l++) {
            uint32_t first = mt_temper(mt_twisted(mt[w][l], mt[w + 1][l], mt[w + MT_M][l]));
            uint32_t second = mt_temper(mt_twisted(mt[w + 1][l], mt[w + 2][l], mt[w + 1 + MT_M][l]));
            draws[n][l] = (uint8_t)mt_randint(mt_double(first, second), n);
        }
    }
}

struct batch {
    int family, len;
    uint8_t *out;
    uint8_t fresh[MAX_CARDS];     /* card values before the shuffle */
};

static void emit_shuffled(struct batch *b, const uint8_t *shuffled)
{
    deal_order_of(b->family, shuffled, b->len, b->out);
    b->out += b->len;
}

static void lc_deals(struct batch *b, uint64_t seed, uint64_t count)
{
    uint8_t cards[MAX_CARDS];
    fresh_cards(b->fresh, b->len, 1, 1);
    for (; count; count--, seed++) {
        memcpy(cards, b->fresh, (size_t)b->len);
        shuffle_lc(cards, b->len, seed);
        emit_shuffled(b, cards);
    }
}

/* Adds one to a little-endian word array that has room for one more word. */
static void increment_words(uint32_t *words, size_t *n_words)
{
    for (size_t i = 0; i < *n_words; i++)
        if (++words[i] != 0)
            return;
    words[(*n_words)++] = 1;
}

/* MT deals from `words` on, `count` of them; advances `words`. */
static void mt_deals(struct batch *b, uint32_t *words, size_t *n_words, uint64_t count,
                     const uint32_t seeded[MT_N], uint32_t mt[MT_N][MT_LANES])
{
    uint32_t key[MT_LANE_KEY_WORDS][MT_LANES];
    uint8_t draws[MAX_CARDS][MT_LANES];
    uint8_t cards[MAX_CARDS];
    int lanes_fit = 2 * (b->len - 1) <= MT_N - MT_M;
    fresh_cards(b->fresh, b->len, 0, 1);

    while (count) {
        size_t key_length = *n_words;
        if (!lanes_fit || key_length > MT_LANE_KEY_WORDS) {
            memcpy(cards, b->fresh, (size_t)b->len);
            shuffle_mt(cards, b->len, words, key_length);
            emit_shuffled(b, cards);
            increment_words(words, n_words);
            count--;
            continue;
        }
        /* Up to MT_LANES consecutive numbers of the same length; spare lanes repeat one. */
        int used = 0;
        while (used < MT_LANES && count && *n_words == key_length) {
            for (size_t j = 0; j < key_length; j++)
                key[j][used] = words[j];
            used++;
            count--;
            increment_words(words, n_words);
        }
        for (int l = used; l < MT_LANES; l++)
            for (size_t j = 0; j < key_length; j++)
                key[j][l] = key[j][0];
        mt_seed_lanes(mt, seeded, (const uint32_t (*)[MT_LANES])key, key_length);
        mt_draws_lanes(mt, b->len, draws);
        for (int l = 0; l < used; l++) {
            memcpy(cards, b->fresh, (size_t)b->len);
            for (int n = b->len - 1; n > 0; n--)
                swap_cards(cards, n, draws[n][l]);
            emit_shuffled(b, cards);
        }
    }
}

int dealgen_deals(int family, int decks, const uint32_t *first_words, size_t n_words,
                  uint64_t count, int ms, uint8_t *out)
{
    int status = check_game(family, decks);
    n_words = significant_words(first_words, n_words);
    if (status == DEALGEN_OK)
        status = check_seed(first_words, n_words, ms);
    if (status != DEALGEN_OK || count == 0)
        return status;
    if (ms && count - 1 > DEALGEN_MS_MAX - small_value(first_words, n_words))
        return DEALGEN_BAD_SEED;

    struct batch b = {family, decks * 52, out, {0}};
    if (ms) {
        lc_deals(&b, small_value(first_words, n_words), count);
        return DEALGEN_OK;
    }
    if (uses_lc(first_words, n_words, 0)) {
        uint64_t first = first_words[0];
        uint64_t lc_count = DEALGEN_LC_LIMIT - first < count ? DEALGEN_LC_LIMIT - first : count;
        lc_deals(&b, first, lc_count);
        count -= lc_count;
        if (count == 0)
            return DEALGEN_OK;
        static const uint32_t lc_limit = DEALGEN_LC_LIMIT;
        first_words = &lc_limit;
        n_words = 1;
    }
    /* Room for one carry into a new word: count < 2^64 allows no second one. */
    uint32_t *words = malloc((n_words + 1) * sizeof *words);
    uint32_t (*mt)[MT_LANES] = malloc(sizeof(uint32_t[MT_N][MT_LANES]));
    if (!words || !mt) {
        free(words);
        free(mt);
        return DEALGEN_NO_MEMORY;
    }
    memcpy(words, first_words, n_words * sizeof *words);
    uint32_t seeded[MT_N];
    mt_init_genrand(seeded, 19650218u);
    mt_deals(&b, words, &n_words, count, seeded, mt);
    free(words);
    free(mt);
    return DEALGEN_OK;
}
