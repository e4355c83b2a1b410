"""The games' rule sets are nested, so their verdicts on one deal number must agree.

Deal N is the same card sequence in every game of a family (RULES §4: the Salic games and the
PySol profiles deal identically; Banner and Devil's Solitaire share their layout). Where one
game's moves are a subset of another's on every position, a line that wins the first wins the
second, move for move (docs/rules.md, "Nested rule sets"):

- PySol Glencoe is seed Glencoe without parking while the stock lasts, and Glencoe is Intrigue
  with the fives and sixes tied to queens of their suit; PySol Laggard Lady is Intrigue without
  parking while the stock lasts, and PySol Intrigue is Laggard Lady with every slot there from
  the start (slot q of PySol Intrigue standing for queen q's).
- Banner is Devil's Solitaire with one pass fewer.

So: the restricted game's winning line replays in the permissive game and wins there, and the
permissive game is never unwinnable where the restricted one is winnable. The two searches are
independent, so this holds each to the other (and the reference rules to both).
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

import pytest

from solver import solve
from solver.deals import deal_from_number
from solver.games import NESTED_PAIRS
from solver.result import Verdict
from solver.rules import initial_position

#: (restricted, permissive): every move of the first is a move of the second. The package's
#: list, which solve() relies on for its inner games (tests/test_inner_game.py).
NESTED = NESTED_PAIRS
NODES = 60_000


def check_pair(restricted: str, permissive: str, number: int) -> str:
    """Solve deal ``number`` of both games; assert the nesting. Returns what was checked."""
    deal = deal_from_number(restricted, number)
    other = deal_from_number(permissive, number)
    assert other.cards == deal.cards, (restricted, permissive, number)
    inner = solve(restricted, deal, max_nodes=NODES, inner=False)
    outer = solve(permissive, other, max_nodes=NODES, inner=False)
    if inner.verdict is Verdict.WINNABLE:
        assert outer.verdict is not Verdict.UNWINNABLE, (restricted, permissive, number)
        pos = initial_position(permissive, other)
        for move in inner.moves:
            if pos.is_won():
                break
            pos = pos.apply(move)            # raises on a move the permissive rules refuse
        assert pos.is_won(), (restricted, permissive, number)
        return "replayed"
    if outer.verdict is Verdict.UNWINNABLE:
        assert inner.verdict is not Verdict.WINNABLE
        return "both unwinnable" if inner.verdict is Verdict.UNWINNABLE else "outer unwinnable"
    return "other"


def test_the_pairs_are_the_six_of_docs_rules():
    assert sorted(NESTED) == sorted([
        ("pysol-glencoe", "glencoe"), ("glencoe", "intrigue"),
        ("pysol-glencoe", "pysol-laggard-lady"), ("pysol-laggard-lady", "intrigue"),
        ("pysol-laggard-lady", "pysol-intrigue"), ("banner", "devils-solitaire")])


@pytest.mark.parametrize("restricted, permissive", NESTED)
def test_restricted_lines_win_the_permissive_game(restricted, permissive):
    checked = [check_pair(restricted, permissive, n) for n in range(1, 13)]
    assert checked.count("replayed") >= 6, checked


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=st.sampled_from(NESTED), number=st.integers(1, 10 ** 9))
def test_nesting_holds_on_any_deal(pair, number):
    check_pair(*pair, number)
