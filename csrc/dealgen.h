/* PySol-compatible deal generation (RULES.md §4), bit-for-bit equal to the PyPI package
 * pysol_cards: LCRandom31 for "msN" and for plain N < 32000, otherwise the Mersenne Twister
 * seeded like CPython's random.Random(N); PySol's shuffle; the Salic and Banner deal orders.
 *
 * A deal number is passed as its 32-bit words, least significant first (N may be any size:
 * MT deals accept every positive integer, as PySol does). Cards are bytes: a PySol card id
 * (deck*52 + suit*13 + rank) in the shuffle, the card value id % 52 in a deal order.
 * Plain C11; no Python headers. */
#ifndef DEALGEN_H
#define DEALGEN_H

#include <stddef.h>
#include <stdint.h>

#define DEALGEN_LC_LIMIT 32000u                   /* plain N below this uses LCRandom31 */
#define DEALGEN_MS_MAX ((UINT64_C(1) << 33) - 1)  /* LCRandom31 accepts 1 .. 2^33-1 */
#define DEALGEN_MAX_DECKS 4                       /* card ids must fit a byte */

enum dealgen_family { DEALGEN_BANNER = 0, DEALGEN_SALIC = 1 };

enum dealgen_status {
    DEALGEN_OK = 0,
    DEALGEN_BAD_DECKS = -1,    /* decks outside 1 .. DEALGEN_MAX_DECKS */
    DEALGEN_BAD_FAMILY = -2,
    DEALGEN_BAD_SEED = -3,     /* zero, or an ms number above DEALGEN_MS_MAX */
    DEALGEN_NO_MEMORY = -4,
};

/* LCRandom31: PySol's Microsoft-compatible generator. */
typedef struct {
    uint32_t seedx;      /* the low 32 bits of pysol_cards' seedx: the only ones that matter */
    uint32_t mask;       /* 0x7fff below 2^32 (15-bit outputs), 0xffff from 2^32 on */
    uint32_t high_bit;   /* 0x8000 for seeds 2^31 .. 2^32-1, else 0 */
    uint32_t plus_one;   /* 1 for seeds 2^32 .. 2^33-1, else 0 */
} dealgen_lc31;

void dealgen_lc31_seed(dealgen_lc31 *rng, uint64_t seed);   /* seed in 1 .. DEALGEN_MS_MAX */
uint32_t dealgen_lc31_random(dealgen_lc31 *rng);             /* LCRandom31.random() */

/* CPython's Mersenne Twister (random.Random). */
#define DEALGEN_MT_N 624
typedef struct {
    uint32_t mt[DEALGEN_MT_N];
    int index;
} dealgen_mt;

/* random.Random(N) with N given by its words (init_by_array over them); words may have
 * high zero words, which are ignored as CPython does. */
void dealgen_mt_seed(dealgen_mt *rng, const uint32_t *words, size_t n_words);
uint32_t dealgen_mt_uint32(dealgen_mt *rng);   /* genrand_uint32 */
double dealgen_mt_random(dealgen_mt *rng);     /* random.Random.random() */

/* PySol's shuffled list of card ids for deal number N (ms: "msN"); the LAST element is
 * dealt first. Writes decks*52 bytes. */
int dealgen_shuffle(int decks, const uint32_t *words, size_t n_words, int ms, uint8_t *out);

/* The deal order (card values 0..51, first dealt first) of one deal. Writes decks*52 bytes. */
int dealgen_deal(int family, int decks, const uint32_t *words, size_t n_words, int ms,
                 uint8_t *out);

/* The deal orders of deals first, first+1, ..., first+count-1, one after the other:
 * count*decks*52 bytes. Checks every number before writing anything. */
int dealgen_deals(int family, int decks, const uint32_t *first_words, size_t n_words,
                  uint64_t count, int ms, uint8_t *out);

#endif
