"""Nested probe modes (docs/solver.md, "Order of work"): a game that declares its probe modes
nested (GameOps.modes_nested, wide_mode) promises that at every position a step down a move list
costs no more in the wide mode than in any other. A probe in the wide mode then allows every
line a probe in another mode of its round allows; the search skips the others (with the same
rules) when it ran before them and tried all of its lines without a win. The promise is checked
here on positions along random lines of every game, last passes and end games included; the
skip itself, in tests/test_schedule.py.
"""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from solver import _core
from solver.core import core_game
from solver.deals import deal_from_number
from solver.games import GAMES, find_game

GAME_IDS = sorted(g.id for g in GAMES)
TURNS = (_core.DEAL, _core.REDEAL)


def line_positions(game_id, number, seed, steps=600):
    """The positions along one random line of the deal (any legal move, every move listed)."""
    rng = random.Random(seed)
    game = find_game(game_id)
    core = core_game(game, deal_from_number(game, number))
    pos = core.position()
    for _ in range(steps):
        yield core, pos
        moves = pos.moves(False, 0)
        if not moves or pos.is_won():
            return
        # Mostly plays, so that lines get far: to the last pass and the end game.
        plays = [m for m in moves if m[0] not in TURNS]
        pos = pos.play(rng.choice(plays if plays and rng.random() < 0.7 else moves))


def wide_is_cheapest(core, pos):
    """Whether the wide mode costs no more than any other mode here."""
    wide = pos.choice_cost(core.wide_mode)
    return all(wide <= pos.choice_cost(mode) for mode in range(core.probe_modes))


@settings(max_examples=60, deadline=None)
@given(game_id=st.sampled_from(GAME_IDS), number=st.integers(1, 10 ** 6),
       seed=st.integers(0, 2 ** 32 - 1))
def test_the_wide_mode_costs_no_more_than_any_other(game_id, number, seed):
    for core, pos in line_positions(game_id, number, seed):
        assert wide_is_cheapest(core, pos), (game_id, number, core.wide_mode, pos.describe())


def test_every_game_declares_its_wide_mode():
    """Mode 0 in the Banner family (mode 1 charges for the last pass), mode 1 in the Salic games
    (it charges nothing once the stock is empty); and on lines that reach those parts of the
    game the wide mode is strictly cheaper somewhere, so the test above sees both kinds of
    position."""
    for game_id in GAME_IDS:
        game = find_game(game_id)
        core = core_game(game, deal_from_number(game, 1))
        assert core.probe_modes == 2, game_id
        assert core.wide_mode == (0 if game.family == "banner" else 1), game_id
        other = 1 - core.wide_mode
        cheaper = sum(p.choice_cost(core.wide_mode) < p.choice_cost(other)
                      for seed in range(5)
                      for c, p in line_positions(game_id, 1 + seed, seed, steps=400))
        assert cheaper > 0, game_id
