"""Find the test fixtures: per game, deals of four kinds, simple/complex x winnable/unwinnable.

    python benchmarks/make_fixtures.py [--games ID ...] [--deals N] [--timeout S] [--out DIR]

For each game, deal numbers 1..N are solved with ``solver.solve`` (timeout S each). A deal is
*simple* when the search decides it within SIMPLE_NODES positions and *complex* when it needs at
least COMPLEX_NODES (and is still decided within the timeout). For each kind the script keeps
the simplest simple deal and the most expensive complex one. Kinds that no deal number supplies
are looked for among constructed explicit deals (``constructed_deals``). A kind that cannot be
found is written with ``"found": false`` and the reason, never faked.

Writes tests/fixtures/<game>.json; tests/test_fixtures.py re-solves every fixture.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from solver import solve
from solver.cards import RANKS, card_name, make_card
from solver.deals import Deal, deal_from_number
from solver.games import GAMES, find_game
from solver.result import Verdict

SIMPLE_NODES = 5_000
COMPLEX_NODES = 50_000
KINDS = [("simple", "winnable"), ("simple", "unwinnable"),
         ("complex", "winnable"), ("complex", "unwinnable")]
OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures"


def size_of(nodes: int) -> str | None:
    """"simple", "complex" or None (in between: neither kind)."""
    if nodes <= SIMPLE_NODES:
        return "simple"
    if nodes >= COMPLEX_NODES:
        return "complex"
    return None


def ranks(text: str) -> list:
    return [RANKS.index(r) for r in text.split()]


# Rank orders for constructed Salic deals: the eight cards of each rank together, in this order.
CONSTRUCTED_ORDERS = ["7 8 9 T J 6 4 3 2 A K 5", "6 5 J T 9 8 7 K A 2 3 4",
                      "6 7 8 9 T J 4 3 2 A K 5", "J T 9 8 7 K A 2 3 4 6 5"]


def salic_constructed_deal(game_id: str, order: str, queens_last: bool) -> Deal:
    """Queen 1, then the eight cards of each rank of ``order`` in turn (suits C S H D twice),
    with the other seven queens at the end (``queens_last``) or right after queen 1.

    With the queens last every card lands on pile 1, so a card dealt before the one it must
    follow on a slot (a 4 before the 5s) is buried and can leave only by parking on one of
    at most seven empty queens: orders with many such cards are lost."""
    game = find_game(game_id)
    queens = [make_card(11, s) for _ in range(2) for s in range(4)]
    body = [make_card(r, s) for r in ranks(order) for _ in range(2) for s in range(4)]
    cards = [queens[0]] + (body + queens[1:] if queens_last else queens[1:] + body)
    return Deal(game.id, tuple(cards), None)


def constructed_deals(game_id: str) -> list:
    """(description, Deal) pairs tried when the deal numbers lack a kind (Salic family only)."""
    if find_game(game_id).family != "salic":
        return []
    return [(f"constructed: queen 1, then ranks {order} (eight of each), the other queens "
             f"{'last' if last else 'right after queen 1'}",
             salic_constructed_deal(game_id, order, last))
            for order in CONSTRUCTED_ORDERS for last in (True, False)]


def record(game_id: str, deal, result, description: str | None = None) -> dict:
    entry = {"found": True, "verdict": result.verdict.value, "nodes": result.stats.nodes,
             "states": result.stats.states, "seconds": round(result.stats.seconds, 3),
             "solution_length": len(result.moves)}
    if isinstance(deal, Deal):
        entry["deal"] = {"cards": [card_name(c) for c in deal.cards]}
        entry["description"] = description
    else:
        entry["deal"] = str(deal)
    return entry


def survey(game_id: str, deals: int, timeout: float) -> tuple[dict, dict]:
    """Best candidate per kind among deal numbers 1..deals and constructed deals; counts."""
    best: dict = {}
    counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}

    def consider(deal, result, description=None):
        counts[result.verdict.value] += 1
        if result.verdict is Verdict.UNKNOWN:
            return
        size = size_of(result.stats.nodes)
        if size is None:
            return
        kind = (size, result.verdict.value)
        old = best.get(kind)
        better = old is None or (result.stats.nodes < old["nodes"] if size == "simple"
                                 else result.stats.nodes > old["nodes"])
        if better:
            best[kind] = record(game_id, deal, result, description)

    for n in range(1, deals + 1):
        consider(n, solve(game_id, n, timeout=timeout))
    if any(kind not in best for kind in KINDS):
        for description, deal in constructed_deals(game_id):
            consider(deal, solve(game_id, deal, timeout=timeout), description)
    return best, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=[g.id for g in GAMES])
    parser.add_argument("--deals", type=int, default=150, help="deal numbers 1..N (default 150)")
    parser.add_argument("--timeout", type=float, default=1.0, help="seconds per deal (default 1)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for game_id in args.games:
        t0 = time.perf_counter()
        best, counts = survey(game_id, args.deals, args.timeout)
        fixtures = {}
        for size, verdict in KINDS:
            name = f"{size}-{verdict}"
            if (size, verdict) in best:
                fixtures[name] = best[(size, verdict)]
            else:
                fixtures[name] = {"found": False, "reason": (
                    f"no deal among numbers 1..{args.deals}"
                    + (" or the constructed deals" if constructed_deals(game_id) else "")
                    + f" was decided {verdict} with {'at most ' + str(SIMPLE_NODES) if size == 'simple' else 'at least ' + str(COMPLEX_NODES)}"
                    f" nodes within {args.timeout:g} s (verdicts over the numbers: {counts})")}
        doc = {"game": game_id, "simple_nodes": SIMPLE_NODES, "complex_nodes": COMPLEX_NODES,
               "searched": {"deals": f"1..{args.deals}", "timeout": args.timeout, "verdicts": counts},
               "fixtures": fixtures}
        path = args.out / f"{game_id}.json"
        path.write_text(json.dumps(doc, indent=1) + "\n")
        found = [k for k, v in fixtures.items() if v["found"]]
        print(f"{game_id}: {counts}; found {found} in {time.perf_counter() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
