"""PySol-compatible deal generation in C (csrc/dealgen.c), bit-for-bit equal to pysol_cards.

Deal numbers are Python ints: ``ms=True`` means ``msN`` (LCRandom31, 1 <= N <= 2^33-1);
otherwise N < 32000 uses LCRandom31 and larger N the Mersenne Twister seeded like
``random.Random(N)``, for any positive N however large (RULES.md §4).
"""
import sys

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t, uint32_t, uint64_t


cdef extern from "dealgen.h" nogil:
    enum:
        DEALGEN_MAX_DECKS
        DEALGEN_BANNER
        DEALGEN_SALIC
        DEALGEN_OK
        DEALGEN_BAD_DECKS
        DEALGEN_BAD_FAMILY
        DEALGEN_BAD_SEED
        DEALGEN_NO_MEMORY
    ctypedef struct dealgen_lc31:
        pass
    ctypedef struct dealgen_mt:
        pass
    void dealgen_lc31_seed(dealgen_lc31 *rng, uint64_t seed)
    uint32_t dealgen_lc31_random(dealgen_lc31 *rng)
    void dealgen_mt_seed(dealgen_mt *rng, const uint32_t *words, size_t n_words)
    double dealgen_mt_random(dealgen_mt *rng)
    int dealgen_shuffle(int decks, const uint32_t *words, size_t n_words, int ms, uint8_t *out)
    int dealgen_deal(int family, int decks, const uint32_t *words, size_t n_words, int ms,
                     uint8_t *out)
    int dealgen_deals(int family, int decks, const uint32_t *first_words, size_t n_words,
                      uint64_t count, int ms, uint8_t *out)

MS_MAX = 2 ** 33 - 1
MAX_DECKS = DEALGEN_MAX_DECKS
_FAMILIES = {"banner": DEALGEN_BANNER, "salic": DEALGEN_SALIC}


cdef class _Seed:
    """A positive int as 32-bit words, least significant first."""

    cdef uint32_t small[2]
    cdef uint32_t *words
    cdef size_t n_words

    def __cinit__(self, seed):
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"deal number must be an int, not {type(seed).__name__}")
        if seed < 1:
            raise ValueError(f"deal number {seed} is not positive")
        cdef uint64_t value
        cdef bytes raw
        cdef const unsigned char *b
        cdef size_t i
        if seed < 2 ** 64:
            value = seed
            self.small[0] = <uint32_t>value
            self.small[1] = <uint32_t>(value >> 32)
            self.words = self.small
            self.n_words = 2
            return
        self.n_words = (seed.bit_length() + 31) // 32
        raw = seed.to_bytes(self.n_words * 4, "little")
        b = <const unsigned char *>PyBytes_AS_STRING(raw)
        self.words = <uint32_t *>PyMem_Malloc(self.n_words * sizeof(uint32_t))
        if self.words == NULL:
            raise MemoryError()
        for i in range(self.n_words):
            self.words[i] = (b[4 * i] | (<uint32_t>b[4 * i + 1] << 8)
                             | (<uint32_t>b[4 * i + 2] << 16) | (<uint32_t>b[4 * i + 3] << 24))

    def __dealloc__(self):
        if self.words != NULL and self.words != self.small:
            PyMem_Free(self.words)


cdef int _family(family) except -1:
    try:
        return _FAMILIES[family]
    except (KeyError, TypeError):
        raise ValueError(f"unknown family {family!r}: expected 'banner' or 'salic'") from None


cdef int _check_decks(decks) except -1:
    if not 1 <= decks <= DEALGEN_MAX_DECKS:
        raise ValueError(f"decks must be 1 .. {DEALGEN_MAX_DECKS}, not {decks}")
    return 0


cdef int _raise_for(int status, seed, bint ms) except -1:
    if status == DEALGEN_OK:
        return 0
    if status == DEALGEN_BAD_SEED:
        raise ValueError(f"bad deal number {'ms' if ms else ''}{seed}: ms numbers run from 1 to {MS_MAX}")
    if status == DEALGEN_NO_MEMORY:
        raise MemoryError()
    raise ValueError(f"dealgen failed with status {status}")


def shuffle(int decks, seed, bint ms=False):
    """PySol's shuffled list of card ids (deck*52 + suit*13 + rank); the last is dealt first."""
    _check_decks(decks)
    cdef _Seed s = _Seed(seed)
    cdef uint8_t out[DEALGEN_MAX_DECKS * 52]
    _raise_for(dealgen_shuffle(decks, s.words, s.n_words, ms, out), seed, ms)
    return [out[i] for i in range(decks * 52)]


def deal_order(family, int decks, seed, bint ms=False):
    """The deal order of one deal as bytes of card values 0..51, first dealt first."""
    cdef int fam = _family(family)
    _check_decks(decks)
    cdef _Seed s = _Seed(seed)
    cdef bytes out = PyBytes_FromStringAndSize(NULL, decks * 52)
    _raise_for(dealgen_deal(fam, decks, s.words, s.n_words, ms,
                            <uint8_t *>PyBytes_AS_STRING(out)), seed, ms)
    return out


def deal_orders(family, int decks, first, count, bint ms=False):
    """The deal orders of deals first .. first+count-1, concatenated: count*decks*52 bytes."""
    cdef int fam = _family(family)
    _check_decks(decks)
    if not 0 <= count <= sys.maxsize // (decks * 52):
        raise ValueError(f"count must be 0 .. {sys.maxsize // (decks * 52)}, not {count}")
    cdef _Seed s = _Seed(first)
    cdef uint64_t n = count
    cdef bytes out = PyBytes_FromStringAndSize(NULL, n * decks * 52)
    cdef uint8_t *buffer = <uint8_t *>PyBytes_AS_STRING(out)
    cdef int status
    with nogil:
        status = dealgen_deals(fam, decks, s.words, s.n_words, n, ms, buffer)
    _raise_for(status, f"{first}..{first + count - 1}", ms)
    return out


def lc_randoms(seed, int count):
    """The first ``count`` values of pysol_cards' ``LCRandom31(seed).random()``."""
    if not 1 <= seed <= MS_MAX:
        raise ValueError(f"LCRandom31 seeds run from 1 to {MS_MAX}, not {seed}")
    cdef dealgen_lc31 rng
    dealgen_lc31_seed(&rng, seed)
    return [dealgen_lc31_random(&rng) for _ in range(count)]


def mt_randoms(seed, int count):
    """The first ``count`` values of ``random.Random(seed).random()``."""
    cdef _Seed s = _Seed(seed)
    cdef dealgen_mt rng
    dealgen_mt_seed(&rng, s.words, s.n_words)
    return [dealgen_mt_random(&rng) for _ in range(count)]
