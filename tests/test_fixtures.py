"""The checked-in fixtures (tests/fixtures/<game>.json, made by benchmarks/make_fixtures.py):
each one is solved again and must get its recorded verdict; winning lines replay to a win."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver import solve
from solver.deals import parse_cards
from solver.games import GAMES, find_game
from solver.result import Verdict
from solver.rules import initial_position

FIXTURES = Path(__file__).parent / "fixtures"
KINDS = ["simple-winnable", "simple-unwinnable", "complex-winnable", "complex-unwinnable"]


def load(game_id: str) -> dict:
    return json.loads((FIXTURES / f"{game_id}.json").read_text())


def fixture_items():
    for game in GAMES:
        for kind, entry in load(game.id)["fixtures"].items():
            if entry["found"]:
                yield pytest.param(game.id, kind, entry, id=f"{game.id}-{kind}")


@pytest.mark.parametrize("game_id", [g.id for g in GAMES])
def test_every_game_has_all_four_kinds_or_says_why(game_id):
    doc = load(game_id)
    assert doc["game"] == game_id
    assert sorted(doc["fixtures"]) == sorted(KINDS)
    for kind, entry in doc["fixtures"].items():
        if not entry["found"]:
            assert entry["reason"]
            continue
        assert entry["verdict"] == kind.split("-")[1]
        size = kind.split("-")[0]
        assert entry["nodes"] <= doc["simple_nodes"] if size == "simple" else entry["nodes"] >= doc["complex_nodes"]


@pytest.mark.parametrize("game_id,kind,entry", list(fixture_items()))
def test_fixture_is_solved_again_with_its_verdict(game_id, kind, entry):
    game = find_game(game_id)
    deal = entry["deal"]
    if isinstance(deal, dict):
        deal = parse_cards(game, " ".join(deal["cards"]))
    result = solve(game, deal, timeout=60)
    assert result.verdict is Verdict(entry["verdict"]), (game_id, kind, result.reason)
    if result.verdict is Verdict.WINNABLE:
        pos = initial_position(game, deal)
        for move in result.moves:
            pos = pos.apply(move)
        assert pos.is_won()
