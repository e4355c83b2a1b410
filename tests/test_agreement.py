"""Verdicts of the compiled core against the pure-Python reference search (issue 3, Correctness).

Cases are reachable positions late in a game, where the reference search can finish: the
position after a random prefix of moves (Salic: the stock (nearly) dealt; Banner: the last
pass with few cards left in the stock), and positions a few moves before the end of a winning
line, pushed off it by a random move or two. Both searches start from the same position (the
core through ``prefix=``), the core with its pruning rules on and off. Cases the reference does
not finish within its node budget are skipped; the tests assert that enough were decided and
that both verdicts occurred often enough for the comparison to mean something.

Every winning line the core returns is replayed move by move with the reference rules.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from solver import solve
from solver.core import ALL_RULES, core_game, run
from solver.deals import deal_from_number
from solver.games import GAMES, find_game
from solver.moves import CELL, DEAL, DOWN, REDEAL, UP, WASTE, Move
from solver.reference_search import reference_solve
from solver.result import Verdict
from solver.rules import initial_position

from test_core import core_code, reference_for_code

SALIC = [g.id for g in GAMES if g.family == "salic"]
BANNER = [g.id for g in GAMES if g.family == "banner"]
FOUNDATION_KINDS = (UP, DOWN, WASTE, CELL)
REFERENCE_BUDGET = {"salic": 800, "banner": 4_000}    # reference nodes per case
CORE_NODES = 3_000_000


@dataclass
class Case:
    game: str
    deal: int
    prefix: list            # reference moves from the start of the deal
    source: str

    def __str__(self) -> str:
        return f"{self.game} {self.deal} after {len(self.prefix)} moves ({self.source})"


def random_prefix(game, deal, rng) -> list:
    """Random moves (foundation plays with probability p, else a deal; no parking) until the
    position is late: Salic with at most a few stock cards, Banner in its last pass with few
    stock cards."""
    p = rng.choice([0.3, 0.6, 0.9])
    left = rng.randint(0, 4) if game.family == "salic" else rng.randint(0, 25)
    pos, path = initial_position(game, deal), []
    while not pos.is_won():
        if game.family == "salic" and len(pos.stock) <= left:
            break
        if game.family == "banner" and pos.passes == game.max_passes and len(pos.stock) <= left:
            break
        moves = pos.legal_moves()
        plays = [m for m in moves if m.kind in FOUNDATION_KINDS]
        turns = [m for m in moves if m.kind in (DEAL, REDEAL)]
        if plays and (rng.random() < p or not turns):
            move = rng.choice(plays)
        elif turns:
            move = turns[0]
        else:
            break
        pos = pos.apply(move)
        path.append(move)
    return path


def off_a_winning_line(game, deal, rng, line) -> list:
    """The first moves of a winning line up to a few moves before its end, then up to two
    random legal moves (parking and dealing preferred: the ones that can spoil a game)."""
    cut = max(0, len(line) - rng.randint(1, 40 if game.family == "salic" else 60))
    path = list(line[:cut])
    pos = initial_position(game, deal)
    for move in path:
        pos = pos.apply(move)
    for _ in range(rng.randint(0, 2)):
        moves = pos.legal_moves()
        if not moves or pos.is_won():
            break
        other = [m for m in moves if m.kind not in FOUNDATION_KINDS] or moves
        move = rng.choice(other)
        pos = pos.apply(move)
        path.append(move)
    return path


def make_cases(game_ids, lines: int, cuts: int, randoms: int, seed: int) -> list:
    """For each game: ``cuts`` positions off each of the winning lines of ``lines`` deals, and
    ``randoms`` random-prefix positions, from deal numbers drawn by ``seed``."""
    cases = []
    for game_id in game_ids:
        game = find_game(game_id)
        rng = random.Random(f"{seed}-{game_id}")
        found = 0
        while found < lines:
            number = rng.randint(1, 10 ** 6)
            deal = deal_from_number(game, number)
            result = solve(game, deal, timeout=0.5)
            if result.verdict is Verdict.WINNABLE:
                found += 1
                cases += [Case(game_id, number, off_a_winning_line(game, deal, rng, result.moves),
                               "off a winning line") for _ in range(cuts)]
        for _ in range(randoms):
            number = rng.randint(1, 10 ** 6)
            deal = deal_from_number(game, number)
            cases.append(Case(game_id, number, random_prefix(game, deal, rng), "random prefix"))
    return cases


def replay_core_line(game, deal, prefix, path) -> None:
    """Replay a raw core line (core codes) after ``prefix`` with the reference rules to a win."""
    pos = initial_position(game, deal)
    for move in prefix:
        pos = pos.apply(move)
    for code in path:
        assert not pos.is_won(), "the core's line goes on after the win"
        pos = pos.apply(reference_for_code(pos, code))
    assert pos.is_won(), "the core's line does not win under the reference rules"


def check_case(case: Case, tally: Counter) -> None:
    game = find_game(case.game)
    deal = deal_from_number(game, case.deal)
    pos = initial_position(game, deal)
    for move in case.prefix:
        pos = pos.apply(move)
    ref = reference_solve(game, deal, max_nodes=REFERENCE_BUDGET[game.family], position=pos)
    if ref.verdict is Verdict.UNKNOWN:
        tally["reference unknown"] += 1
        return
    if ref.verdict is Verdict.WINNABLE:
        replay_core_line(game, deal, case.prefix, [core_code(m) for m in ref.moves])
    codes = [core_code(m) for m in case.prefix]
    for prune in (True, False):
        result = run(game, deal, max_nodes=CORE_NODES, prune=prune, prefix=codes)
        assert result.verdict is ref.verdict, (
            f"{case}: reference says {ref.verdict}, core (prune={prune}) says {result.verdict}; "
            f"prefix: {' '.join(map(str, case.prefix))}")
        if result.verdict is Verdict.WINNABLE:
            # The raw line, independently of run()'s own translation.
            status, path, *_ = search_from(game, deal, codes, prune)
            assert status == "win"
            replay_core_line(game, deal, case.prefix, path)
    tally[ref.verdict.value] += 1


def search_from(game, deal, codes, prune):
    """The core's raw search from the position after ``codes``."""
    core = core_game(game, deal)
    start = core.position()
    for code in codes:
        start = start.play(code)
    return core.search(CORE_NODES, 0.0, 1 << 30, ALL_RULES if prune else 0, start)


def run_agreement(game_ids, seed, **sizes) -> Counter:
    tally: Counter = Counter()
    for case in make_cases(game_ids, seed=seed, **sizes):
        check_case(case, tally)
    return tally


def test_salic_family_verdicts_agree_with_the_reference_search():
    tally = run_agreement(SALIC, seed=1, lines=30, cuts=3, randoms=24)
    print("salic", dict(tally))
    assert tally["winnable"] + tally["unwinnable"] >= 200, tally
    assert tally["winnable"] >= 100 and tally["unwinnable"] >= 8, tally


def test_banner_family_verdicts_agree_with_the_reference_search():
    tally = run_agreement(BANNER, seed=1, lines=20, cuts=2, randoms=25)
    print("banner", dict(tally))
    assert tally["winnable"] + tally["unwinnable"] >= 200, tally
    assert tally["winnable"] >= 40 and tally["unwinnable"] >= 60, tally


@pytest.mark.slow
@pytest.mark.parametrize("family", ["salic", "banner"])
def test_many_more_verdicts_agree(family):
    games = SALIC if family == "salic" else BANNER
    tally = run_agreement(games, seed=2, lines=100, cuts=3, randoms=150)
    print(family, dict(tally))
    assert tally["winnable"] + tally["unwinnable"] >= 1000, tally
    assert tally["winnable"] >= 300 and tally["unwinnable"] >= 40, tally


@pytest.mark.parametrize("game_id", [g.id for g in GAMES])
def test_winning_lines_replay_with_solver_check(game_id, run_solver, tmp_path):
    """The first winnable deal among 1..20: its line, written out, is accepted by `solver check`."""
    for number in range(1, 21):
        result = solve(game_id, number, timeout=1)
        if result.verdict is Verdict.WINNABLE:
            break
    else:
        pytest.fail(f"no winnable {game_id} deal among 1..20 within 1 s each")
    moves_file = tmp_path / "moves.txt"
    moves_file.write_text("\n".join(str(m) for m in result.moves) + "\n")
    done = run_solver("check", game_id, number, str(moves_file))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"wins in {len(result.moves)} moves" in done.stdout
    pos = initial_position(game_id, number)
    for move in result.moves:
        pos = pos.apply(Move.parse(str(move), find_game(game_id).family))
    assert pos.is_won()
