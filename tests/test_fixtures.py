"""The checked-in fixtures (tests/fixtures/<game>.json, made by benchmarks/make_fixtures.py):
each one is solved again and must get its recorded verdict; winning lines replay to a win.
Fixtures that the search also decided with every pruning rule off are solved that way too (the
quick ones by default, the rest with -m slow)."""
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
QUICK_UNPRUNED_SECONDS = 0.5


def load(game_id: str) -> dict:
    return json.loads((FIXTURES / f"{game_id}.json").read_text())


def fixture_items():
    for game in GAMES:
        for kind, entry in load(game.id)["fixtures"].items():
            if entry["found"]:
                yield pytest.param(game.id, kind, entry, id=f"{game.id}-{kind}")


def unpruned_items():
    """Fixtures decided without pruning when they were made; the slow ones marked slow."""
    for game in GAMES:
        for kind, entry in load(game.id)["fixtures"].items():
            unpruned = entry.get("unpruned") if entry["found"] else None
            if unpruned and unpruned["verdict"] != "unknown":
                marks = [] if unpruned["seconds"] <= QUICK_UNPRUNED_SECONDS else [pytest.mark.slow]
                yield pytest.param(game.id, kind, entry, id=f"{game.id}-{kind}", marks=marks)


def deal_of(game, entry):
    deal = entry["deal"]
    return parse_cards(game, " ".join(deal["cards"])) if isinstance(deal, dict) else deal


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
        assert entry["unpruned"]["verdict"] in (entry["verdict"], "unknown"), (kind, entry["unpruned"])
        size = kind.split("-")[0]
        assert entry["nodes"] <= doc["simple_nodes"] if size == "simple" else entry["nodes"] >= doc["complex_nodes"]


@pytest.mark.parametrize("game_id,kind,entry", list(fixture_items()))
def test_fixture_is_solved_again_with_its_verdict(game_id, kind, entry):
    game = find_game(game_id)
    deal = deal_of(game, entry)
    result = solve(game, deal, timeout=60)
    assert result.verdict is Verdict(entry["verdict"]), (game_id, kind, result.reason)
    if result.verdict is Verdict.WINNABLE:
        pos = initial_position(game, deal)
        for move in result.moves:
            pos = pos.apply(move)
        assert pos.is_won()


@pytest.mark.parametrize("game_id,kind,entry", list(unpruned_items()))
def test_fixture_verdict_does_not_depend_on_pruning(game_id, kind, entry):
    game = find_game(game_id)
    result = solve(game, deal_of(game, entry), timeout=60, prune=False, line=False)
    assert result.verdict is Verdict(entry["verdict"]), (game_id, kind, result.reason)
