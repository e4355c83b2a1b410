"""The room memo kept between searches (csrc/salic.c, memo_take and memo_give; docs/solver.md,
"deep-room", *Room memo*, "Kept"): a search that makes a room memo takes one an earlier search
of the process gave back, and searches on it exactly as on a new one."""
from __future__ import annotations

import pytest

from solver import _core, core
from solver.core import core_game
from solver.deals import deal_from_number
from solver.games import find_game

BOUND = 1 << 30                   # the same bound, so the same size of memo, in every search here
MAKES_A_MEMO = ("glencoe", 1778)  # about 50,000 nodes: its search makes the memo


def _search(game_id: str, number: int):
    g = find_game(game_id)
    return core_game(g, deal_from_number(g, number)).search_steps(max_bytes=BOUND)


def test_a_kept_memo_comes_back_and_knows_nothing_of_the_search_before():
    kept, earlier_found, own_found = _core.memo_keep_check()
    assert own_found              # an entry is found by the search that put it in
    assert kept                   # given back, the same memo is the next search's
    assert not earlier_found      # and that search does not find the entry (the salt)


def test_a_search_keeps_its_memo_until_released():
    core.release_kept_memory()
    assert core.release_kept_memory() == 0
    _search(*MAKES_A_MEMO)
    freed = core.release_kept_memory()
    assert freed > 0 and freed % 112 == 0, freed        # whole entries of 112 bytes
    assert core.release_kept_memory() == 0
    assert _search(*MAKES_A_MEMO)[0] == "win"           # and the next search makes one again
    assert core.release_kept_memory() == freed


@pytest.mark.parametrize("game_id, number", [("glencoe", 5944), ("intrigue", 1778),
                                             ("pysol-glencoe", 3379)])
def test_a_search_on_a_kept_memo_searches_as_on_a_new_one(game_id, number):
    """The same log, search by search and node by node, on a memo just made and on one an
    earlier search of another deal filled and gave back."""
    core.release_kept_memory()
    fresh = _search(game_id, number)
    assert core.release_kept_memory() > 0               # it made a memo, now freed
    _search(*MAKES_A_MEMO)                              # leaves its memo, full of its tests
    again = _search(game_id, number)                    # takes that one
    assert again == fresh
    assert core.release_kept_memory() > 0
