"""Every pruning rule keeps the verdicts: with and without it, on full deals and late positions.

For each rule in ``solver.core.PRUNING_RULES`` (and for all of them together) the core decides
the same cases with the rule on and with every rule off; cases either run leaves undecided
within the node budget are skipped, and the tests assert how many were decided by both.
A position the rule calls dead (``is_dead``) must not be won by the unpruned search.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from solver import _core
from solver.core import ALL_RULES, DEFAULT_RULES, PRUNING_RULES, core_game, run
from solver.deals import deal_from_number
from solver.games import GAMES, find_game
from solver.result import Verdict
from solver.rules import initial_position

from test_agreement import random_prefix
from test_core import core_code

GAME_IDS = [g.id for g in GAMES]
CONFIGS = dict(PRUNING_RULES, all=ALL_RULES, default=DEFAULT_RULES)


def cases(game_id, deals: int, positions: int, seed: int) -> list:
    """(deal number, core prefix): full deals 1..deals and random late positions."""
    game = find_game(game_id)
    rng = random.Random(f"{seed}-{game_id}")
    out = [(n, []) for n in range(1, deals + 1)]
    for _ in range(positions):
        number = rng.randint(1, 10 ** 6)
        prefix = random_prefix(game, deal_from_number(game, number), rng)
        out.append((number, [core_code(m) for m in prefix]))
    return out


def compare(game_id, case_list, max_nodes) -> Counter:
    game = find_game(game_id)
    tally: Counter = Counter()
    for number, prefix in case_list:
        deal = deal_from_number(game, number)
        plain = run(game, deal, max_nodes=max_nodes, prune=False, prefix=prefix)
        for name, bits in CONFIGS.items():
            pruned = run(game, deal, max_nodes=max_nodes, prune=bits, prefix=prefix)
            if Verdict.UNKNOWN in (plain.verdict, pruned.verdict):
                continue
            assert pruned.verdict is plain.verdict, (
                f"{game_id} {number} after {len(prefix)} core moves {prefix}: with {name} "
                f"{pruned.verdict}, without pruning {plain.verdict}")
            tally[name, plain.verdict.value] += 1
    return tally


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pruning_rules_keep_the_verdicts(game_id):
    tally = compare(game_id, cases(game_id, deals=15, positions=25, seed=1), max_nodes=150_000)
    for name in CONFIGS:
        decided = tally[name, "winnable"] + tally[name, "unwinnable"]
        assert decided >= 20, (name, dict(tally))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pruning_rules_keep_the_verdicts_at_scale(game_id):
    tally = compare(game_id, cases(game_id, deals=150, positions=250, seed=2), max_nodes=1_000_000)
    for name in CONFIGS:
        decided = tally[name, "winnable"] + tally[name, "unwinnable"]
        assert decided >= 250, (name, dict(tally))
        assert tally[name, "unwinnable"] >= 5, (name, dict(tally))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_dead_positions_are_not_won(game_id):
    """Along random playouts, a position any rule calls dead is lost for the plain search."""
    game = find_game(game_id)
    rng = random.Random(game_id)
    fired: Counter = Counter()
    for _ in range(15):
        number = rng.randint(1, 10 ** 6)
        deal = deal_from_number(game, number)
        prefix = random_prefix(game, deal, rng)
        core = core_game(game, deal)
        pos = core.position()
        for step, move in enumerate(prefix):
            pos = pos.play(core_code(move))
            if step % 5 and step != len(prefix) - 1:
                continue
            for name, bits in CONFIGS.items():
                if pos.is_dead(bits):
                    fired[name] += 1
                    status = core.search(300_000, 0.0, 1 << 30, 0, pos)[0]
                    assert status != "win", f"{game_id} {number}: {name} calls a won position dead"
    if game.family == "banner":
        # Each dead-end rule of the family fires on its own, so none is checked vacuously.
        assert fired["banner-reach"] > 0 and fired["banner-prefix"] > 0, dict(fired)


@pytest.mark.parametrize("game_id", [g.id for g in GAMES if g.family == "banner"])
def test_prefix_bound_is_inherited_by_plays(game_id):
    """The search skips the prefix bound after a play from a position it found alive; every such
    play must indeed lead to a position the full test finds alive (docs/solver.md). Alive
    positions are taken along winning lines and short random walks off them."""
    game = find_game(game_id)
    rng = random.Random(f"inherit-{game_id}")
    prefix_bit = PRUNING_RULES["banner-prefix"]
    checked = 0
    number = 0
    while checked < 300 and number < 60:
        number += 1
        core = core_game(game, deal_from_number(game, number))
        status, line, *_ = core.search(200_000, 0.0, 1 << 28, DEFAULT_RULES)
        if status != "win":
            continue
        pos = core.position()
        for step in line:
            walk = pos
            for _ in range(rng.randint(0, 6)):
                state = walk.describe()
                last_pass = state["passes"] == game.max_passes and state["waste"]
                if last_pass and not walk.is_dead(prefix_bit):
                    for m in walk.moves():
                        if m[0] in (_core.WASTE, _core.CELL):
                            assert not walk.play(m).is_dead(prefix_bit), (game_id, number, m)
                            checked += 1
                moves = walk.moves()
                if not moves:
                    break
                walk = walk.play(rng.choice(moves))
            pos = pos.play(tuple(step))
    assert checked >= 300, checked


SALIC_IDS = [g.id for g in GAMES if g.family == "salic"]


def endgame_walks(game, rng, deals: int):
    """Core positions once the stock is empty, along random walks (every legal move allowed)
    from late positions of random deals."""
    for _ in range(deals):
        number = rng.randint(1, 10 ** 6)
        deal = deal_from_number(game, number)
        core = core_game(game, deal)
        pos = core.position()
        for move in random_prefix(game, deal, rng):
            pos = pos.play(core_code(move))
        while True:
            moves = pos.moves()
            if not moves or pos.is_won():
                break
            if pos.describe()["dealt"] == 104:
                yield number, core, pos
            deals_first = [m for m in moves if m[0] == _core.DEAL]
            pos = pos.play(deals_first[0] if deals_first and rng.random() < 0.5 else rng.choice(moves))


@pytest.mark.parametrize("game_id", SALIC_IDS)
@pytest.mark.parametrize("rule", ["lone-card", "last-copies"])
def test_forced_endgame_plays_keep_the_verdict(game_id, rule):
    """Where the rule forces a foundation play, the position and the position after that play
    have the same verdict with no pruning at all (docs/solver.md)."""
    game = find_game(game_id)
    rng = random.Random(f"{rule}-{game_id}")
    bit = PRUNING_RULES[rule]
    compared = Counter()
    for number, core, pos in endgame_walks(game, rng, deals=40):
        forced = pos.moves(True, bit)
        if len(forced) != 1 or len(pos.moves(True, 0)) == 1 or forced[0][0] != _core.FOUND:
            continue
        before = core.search(100_000, 0.0, 1 << 28, 0, pos)[0]
        after = core.search(100_000, 0.0, 1 << 28, 0, pos.play(forced[0]))[0]
        if "nodes" in (before, after):
            continue
        assert (before == "win") == (after == "win"), (game_id, number, rule, forced[0])
        compared[before] += 1
    assert sum(compared.values()) >= 20 and compared["win"] >= 10, dict(compared)
