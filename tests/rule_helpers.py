"""Helpers for the tests of single rules: the same deals searched with and without a rule, and
the positions met while dealing along a line (Salic family)."""
from __future__ import annotations

from solver.core import core_game, run
from solver.deals import deal_from_number
from solver.games import find_game
from solver.result import Verdict
from solver.rules import initial_position

from test_core import salic_core_order

#: The rank each rank is laid on in its chain (6 7 8 9 10 J, 5 4 3 2 A K), by rank index.
RANK_BELOW = {6: 5, 7: 6, 8: 7, 9: 8, 10: 9, 3: 4, 2: 3, 1: 2, 0: 1, 12: 0}


def replays_to_a_win(game, deal, moves) -> bool:
    """The line, played through the pure-Python reference rules, ends in a won position."""
    pos = initial_position(game, deal)
    for move in moves:
        pos = pos.apply(move)
    return pos.is_won()


def agreeing_results(game_id, number, rule_sets, max_nodes: int = 150_000):
    """Search deal ``number`` under each rule set (with the line) and check that the verdicts
    agree wherever decided. Returns (game, deal, results)."""
    game = find_game(game_id)
    deal = deal_from_number(game, number)
    results = [run(game, deal, max_nodes=max_nodes, prune=rules, line=True) for rules in rule_sets]
    verdicts = {r.verdict for r in results} - {Verdict.UNKNOWN}
    assert len(verdicts) <= 1, (game_id, number, [r.verdict for r in results])
    return game, deal, results


def with_and_without(game, numbers, with_rules: int, without_rules: int, max_nodes: int):
    """Search each deal of ``numbers`` under both rule sets (no line) and check that the
    verdicts agree wherever both are decided. Returns (decided, nodes): how many deals both
    decided, and (number, nodes with, nodes without) for every deal."""
    decided, nodes = 0, []
    for number in numbers:
        deal = deal_from_number(game, number)
        on = run(game, deal, max_nodes=max_nodes, prune=with_rules, line=False)
        off = run(game, deal, max_nodes=max_nodes, prune=without_rules, line=False)
        if Verdict.UNKNOWN not in (on.verdict, off.verdict):
            assert on.verdict is off.verdict, (game.id, number)
            decided += 1
        nodes.append((number, on.stats.nodes, off.stats.nodes))
    return decided, nodes


def decided_and_changed(game_ids, numbers, with_rules: int, without_rules: int,
                        max_nodes: int = 200_000):
    """with_and_without over several games: how many deals both rule sets decided (with the
    same verdict, checked there), and on how many the node counts differ."""
    decided = changed = 0
    for game_id in game_ids:
        both, nodes = with_and_without(find_game(game_id), numbers, with_rules, without_rules,
                                       max_nodes)
        decided += both
        changed += sum(on != off for _, on, off in nodes)
    return decided, changed


def same_search(game, numbers, with_rules: int, without_rules: int, max_nodes: int = 100_000):
    """Check that the core searches each deal of ``numbers`` node for node alike under both
    rule sets (verdict, line, nodes). Returns how many went past the first short search."""
    probed = 0
    for number in numbers:
        core = core_game(game, deal_from_number(game, number))
        on = core.search(max_nodes, 0.0, 1 << 27, with_rules)
        off = core.search(max_nodes, 0.0, 1 << 27, without_rules)
        assert on[:3] == off[:3], (game.id, number)
        probed += on[2] > 1000
    return probed


def feed_rank(cards, state):
    """The rank the last pile's top is laid on (None: no top, or a five or six)."""
    top = state["tops"][state["queens"] - 1]
    return RANK_BELOW.get(cards[top] % 13) if top >= 0 else None


def dealing_positions(game, numbers, choose):
    """Each position met while the stock lasts along the line that ``choose(position)`` picks,
    for each deal of ``numbers``: (position, its describe(), the deal's cards in core order)."""
    for number in numbers:
        deal = deal_from_number(game, number)
        cards = salic_core_order(deal.cards)
        pos = core_game(game, deal).position()
        while pos.describe()["dealt"] < 104 and not pos.is_won():
            yield pos, pos.describe(), cards
            move = choose(pos)
            if move is None:
                break
            pos = pos.play(move)
