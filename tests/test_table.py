"""The transposition table (csrc/table.c) on its own: a set of keys that grows in place.

The search trusts the table twice: a key it holds is never searched again, and a key it lost
would be searched again (only slower), so the tests hold it to a Python set, including across
every resize, and check that the last size uses the memory allowed and that each slot's tag
byte matches its key.  Keys are built with chosen hashes (checked against the table's own hash)
so that clusters wrap round the end of the array and collide in one slot, where an in-place
resize is most likely to go wrong.
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver._core import KeyTable

M64 = (1 << 64) - 1
C1, C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
# csrc/table.c's key_hash: one multiply per word, the words rotated apart, then a finaliser.
A, B, C = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
ENTRY_BYTES = 25        # the 24-byte key and its tag byte


def mix64(x):
    """csrc/table.c's mix64 (splitmix64's finaliser)."""
    x ^= x >> 30
    x = (x * C1) & M64
    x ^= x >> 27
    x = (x * C2) & M64
    return x ^ (x >> 31)


def unshift(x, k):
    """The inverse of x ^= x >> k on 64 bits."""
    y = x
    for _ in range(64 // k + 1):
        y = x ^ (y >> k)
    return y


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def spread(w1, w2):
    """The part of key_hash's first step that words 1 and 2 give."""
    return rotl(w1 * B & M64, 21) ^ rotl(w2 * C & M64, 43)


def key_hash(k):
    h = (k[0] * A & M64) ^ spread(k[1], k[2])
    h ^= h >> 31
    h = h * C2 & M64
    return h ^ (h >> 29)


def key_with_hash(h, w1, w2):
    """A key (word 1 valid) whose table hash is h: key_hash's finaliser undone, then word 0."""
    w1 |= 1 << 63
    x = unshift(h, 29)
    x = x * pow(C2, -1, 1 << 64) & M64
    x = unshift(x, 31)
    return ((x ^ spread(w1, w2)) * pow(A, -1, 1 << 64) & M64, w1, w2)


def test_crafted_keys_have_the_hash_asked_for():
    t = KeyTable(1 << 12)
    for h in (0, 1, M64, 0x8000_0000_0000_0000, 0x1234_5678_9ABC_DEF0, mix64(5), mix64(6)):
        for w1, w2 in ((5, 7), (0, 0), (M64 >> 1, 1 << 40)):
            k = key_with_hash(h, w1, w2)
            assert key_hash(k) == h == t.key_hash(k) and k[1] >> 63


# Hashes: anywhere, in the top 1/64 of the range (their home slots are the array's last ones,
# so clusters wrap round), in the bottom 1/64, or one of a few values (many keys, one home slot).
FEW = [0, M64, 1 << 63, 0xDEAD_BEEF_0000_0000]
hashes = st.one_of(
    st.integers(0, M64),
    st.integers(M64 - (M64 >> 6), M64),
    st.integers(0, M64 >> 6),
    st.sampled_from(FEW),
)
keys = st.builds(key_with_hash, hashes, st.integers(0, 1 << 20), st.integers(0, 1 << 20))


def check_against_set(max_bytes, sequence, t=None, timed=False, model=None):
    """Insert sequence into t (a new table if None; model: the keys it holds) and hold it to a
    set all the way.  timed: the table has a deadline that has passed, so it may stop growing
    and say "time"."""
    if t is None:
        t = KeyTable(max_bytes)
    model = set() if model is None else set(model)
    full = False
    for k in sequence:
        status = t.insert(k)
        if k in model:
            assert status == "seen"
        elif status == "new":
            assert not full, "a table that was full took a new key"
            model.add(k)
        else:
            assert status in (("full", "time") if timed else ("full",))
            assert k not in t
            full = True
            # Full only when the last size takes nearly all the memory and is 7/8 full; out of
            # time at a size that could still grow, 7/8 full.
            total = max_bytes // ENTRY_BYTES
            assert t.capacity <= total
            assert (9 * t.capacity > 8 * total) == (status == "full")
            assert len(t) == t.limit == t.capacity // 8 * 7
        assert len(t) == len(model)
    assert t.capacity * ENTRY_BYTES <= max(max_bytes, 16 * ENTRY_BYTES)
    assert t.tags_agree()
    for k in model:
        assert k in t
    assert sorted(t.keys()) == sorted(model)
    return t, model


@settings(max_examples=150, deadline=None)
@given(max_bytes=st.integers(16 * ENTRY_BYTES, 3000 * ENTRY_BYTES),
       sequence=st.lists(keys, min_size=0, max_size=4000))
def test_table_is_a_set_across_resizes(max_bytes, sequence):
    check_against_set(max_bytes, sequence + sequence[: len(sequence) // 3])


@settings(max_examples=40, deadline=None)
@given(max_bytes=st.integers(100 * ENTRY_BYTES, 3000 * ENTRY_BYTES),
       top=st.integers(1, 64), seed=st.integers(0, 1 << 30))
def test_wrapped_clusters_survive_resizes(max_bytes, top, seed):
    """Every key's home slot is in the top 1/top of the array: one long cluster that wraps."""
    band = M64 // top
    sequence = [key_with_hash(M64 - (seed * 7919 + i * 104729) % band, i, seed)
                for i in range(max_bytes // ENTRY_BYTES)]
    _, model = check_against_set(max_bytes, sequence)
    assert model


@settings(max_examples=80, deadline=None)
@given(max_bytes=st.integers(16 * ENTRY_BYTES, 3000 * ENTRY_BYTES),
       first=st.lists(keys, min_size=0, max_size=4000),
       second=st.lists(keys, min_size=0, max_size=4000))
def test_a_reset_table_is_empty_and_a_set_again(max_bytes, first, second):
    """The search empties one table between its searches of a deal (csrc/search.c): a reset
    clears the tags alone, so the old keys stay in the slots, unread.  After it nothing of the
    first sequence is found, the table starts again from its first size with the memory it had,
    and the second sequence (which shares keys with the first) is a set across every resize."""
    t, old = check_against_set(max_bytes, first)
    held = t.allocated
    fresh = KeyTable(max_bytes)
    t.reset()
    assert len(t) == 0 and t.capacity == fresh.capacity and t.limit == fresh.limit
    assert t.allocated == held >= t.capacity
    assert not any(k in t for k in old)
    assert t.keys() == []
    shared = second + first[: len(first) // 2]
    check_against_set(max_bytes, shared, t)
    assert t.allocated >= held


def test_absent_keys_are_not_found():
    t = KeyTable(1 << 16)
    present = [key_with_hash(h * 0x9E37_79B9_7F4A_7C15 & M64, h, 0) for h in range(2000)]
    for k in present:
        assert t.insert(k) == "new"
    for h in range(2000):
        same_hash_other_key = key_with_hash(key_hash(present[h]), h, 1)
        assert same_hash_other_key not in t
        assert (present[h][0] ^ 1, present[h][1], present[h][2]) not in t


def test_last_size_takes_all_the_memory():
    """Grown in place, the table is never half its budget: 1 MiB holds 7/8 of 41,943 keys."""
    max_bytes = 1 << 20
    t = KeyTable(max_bytes)
    i = 0
    while t.insert(key_with_hash(mix64(i), i, 0)) == "new":
        i += 1
    assert t.capacity == max_bytes // ENTRY_BYTES
    assert len(t) == max_bytes // ENTRY_BYTES // 8 * 7 == 36694


@pytest.mark.parametrize("max_bytes", [
    64 << 20, pytest.param(1 << 30, marks=pytest.mark.slow)])
def test_large_tables_grow_in_place_and_keep_every_key(max_bytes):
    """From 32 MiB an array is a mapping of its own, grown by mremap (csrc/table.c, array_grow):
    64 MiB takes the keys' array past that, 1 GiB the tags' array too.  Every key inserted is
    found, no other, and after a reset the table fills again within the memory it kept."""
    t = KeyTable(max_bytes)
    n = t.insert_many(0, 1 << 30)
    total = max_bytes // ENTRY_BYTES
    assert t.capacity == total and 24 * t.capacity >= 32 << 20
    assert t.capacity >= 32 << 20 or max_bytes < 1 << 30
    assert n == len(t) == total // 8 * 7
    assert t.insert((n, 1 << 63 | n, n * n)) == "full"
    assert t.tags_agree()
    for i in list(range(0, n, 997)) + [n - 1]:
        assert (i, 1 << 63 | i, i * i) in t
        assert (i, 1 << 63 | i, i * i + 1) not in t
    held = t.allocated
    t.reset()
    assert len(t) == 0 and (5, 1 << 63 | 5, 25) not in t
    assert t.insert_many(7, 1 << 30) == n and t.allocated == held
    assert (7, 1 << 63 | 7, 49) in t and (6, 1 << 63 | 6, 36) not in t


def fill(t, start=0):
    """Insert keys until one is not new; the status of that one."""
    n = t.insert_many(start, 1 << 30)
    return t.insert((start + n, 1 << 63 | (start + n), (start + n) ** 2))


def test_a_grow_that_would_outlast_the_deadline_is_not_started():
    """With a deadline already passed and a rate to estimate from, the table never grows: it
    fills to 7/8 at its first size, like a last size, then says "time", keeping every key."""
    t = KeyTable(1 << 24)
    first = t.capacity
    t.set_deadline(1e-9, grow_rate=1e-9)
    assert fill(t) == "time"
    assert t.capacity == first and len(t) == t.limit == first // 8 * 7
    assert all((i, 1 << 63 | i, i * i) in t for i in range(len(t)))
    assert t.tags_agree()


def test_without_a_rate_the_first_grow_is_timed_then_refused():
    """No estimate before a grow has been timed, by this table or (a big one) by another
    recently: the first grow happens (and gives the rate), and with the deadline passed the
    next is refused."""
    KeyTable.forget_rates()
    t = KeyTable(1 << 24)
    first = t.capacity
    t.set_deadline(1e-9)
    assert t.grow_rate == 0
    assert fill(t) == "time"
    assert t.capacity == 2 * first and len(t) == t.capacity // 8 * 7
    assert t.grow_rate > 0


def test_a_far_deadline_changes_nothing():
    """A deadline that is far off: the table grows to the whole budget, as without one, and is
    full (not out of time) at the end."""
    timed, plain = KeyTable(1 << 22), KeyTable(1 << 22)
    timed.set_deadline(3600.0)
    assert fill(timed) == fill(plain) == "full"
    assert timed.capacity == plain.capacity == (1 << 22) // ENTRY_BYTES
    assert len(timed) == len(plain) and timed.grow_rate > 0 and plain.grow_rate == 0


@settings(max_examples=60, deadline=None)
@given(max_bytes=st.integers(16 * ENTRY_BYTES, 3000 * ENTRY_BYTES),
       before=st.lists(keys, min_size=0, max_size=2000),
       after=st.lists(keys, min_size=0, max_size=4000))
def test_a_table_past_its_deadline_is_still_a_set(max_bytes, before, after):
    """Grown freely at first, then past a deadline (at whatever size and fill it has reached):
    the table stays a set, stops growing, and says "time" only when 7/8 full."""
    t, held = check_against_set(max_bytes, before)
    t.set_deadline(1e-9, grow_rate=1.0)
    size = t.capacity
    check_against_set(max_bytes, before + after, t, timed=True, model=held)
    assert t.capacity == size


def test_a_recent_big_grow_gives_other_tables_their_estimate():
    """The rate of a big grow (a million units or more) by any table of the process counts in
    every table's estimate for the next few big grows: a fresh table past its deadline, with no
    rate of its own, then refuses even its first grow; once the rates are forgotten, it makes
    that grow."""
    KeyTable.forget_rates()
    big = KeyTable(64 << 20)
    big.set_deadline(3600.0)
    assert fill(big) == "full" and big.grow_rate > 0
    t = KeyTable(1 << 24)
    first = t.capacity
    t.set_deadline(1e-9)
    assert fill(t) == "time" and t.capacity == first and t.grow_rate == 0
    KeyTable.forget_rates()
    u = KeyTable(1 << 24)
    u.set_deadline(1e-9)
    assert fill(u) == "time" and u.capacity == 2 * first
