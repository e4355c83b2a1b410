"""Find the test fixtures: per game, deals of four kinds, simple/complex x winnable/unwinnable.

    python benchmarks/make_fixtures.py [--games ID ...] [--deals N] [--timeout S] [--out DIR]

    python benchmarks/make_fixtures.py --scan GAME LO HI NODES

For each game, deal numbers 1..N and the game's EXTRA_NUMBERS are solved with ``solver.solve``
(timeout S each). A deal is *simple* when the search decides it within SIMPLE_NODES positions and
*complex* when it needs at least COMPLEX_NODES and is decided within the timeout; a complex
winnable deal must be decided within half of it, in the probes (the exhaustive search after the
probes gets the rest of the time limit, so a win found there at the very end of a 1 s timeout
comes only near the end of any longer one, as in tests/test_fixtures.py). For
each kind the script keeps the simplest simple deal and the most expensive complex one. Only
kinds that no deal number supplies are looked for among constructed explicit deals
(``constructed_deals``: fixed rank orders and seeded random ones, so every run builds the same
deals). A kind that cannot be found is written with ``"found": false`` and the reason, never
faked. Every fixture found is then solved once more with every pruning rule off
(``prune=False``, UNPRUNED_TIMEOUT s) and the outcome recorded as ``"unpruned"``.

``--scan`` is the wider search that found EXTRA_NUMBERS: it solves deal numbers LO..HI of GAME
with a node limit (deterministic, unlike a timeout) and prints the ones proved unwinnable.

Writes tests/fixtures/<game>.json; tests/test_fixtures.py re-solves every fixture.
"""
from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from solver import solve
from solver.cards import RANKS, card_name, make_card
from solver.deals import Deal, parse_cards
from solver.games import GAMES, find_game
from solver.result import Verdict

UNPRUNED_TIMEOUT = 5.0
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


# Deal numbers beyond 1..N that supply missing kinds, each proved unwinnable by a wider scan:
# ``--scan GAME 1 31999 5000`` (Banner family, simple ones), ``--scan clover 1501 10000 1000000``
# (complex), and for pysol-glencoe the node-limited survey of deals 1..85760 (200,000 nodes).
EXTRA_NUMBERS = {
    "banner": [12939],
    "forget-me-not": [13455, 15513],
    "clover": [1092, 4113, 8323, 9516],
    "pysol-glencoe": [25795, 69264, 70074, 72467],
}
CONSTRUCTED_SEEDS = range(40)      # seeds of the random constructions, tried in this order


def rank_blocks(game, rank_order) -> list:
    """All cards of each rank of ``rank_order`` together (suits C S H D, once per deck)."""
    return [make_card(r, s) for r in rank_order for _ in range(game.decks) for s in range(4)]


def banner_rank_order(seed: int) -> list:
    order = list(range(13))
    random.Random(seed).shuffle(order)
    return order


def banner_block_deal(game_id: str, seed: int) -> Deal:
    """The 13 ranks in the order of ``random.Random(seed).shuffle``, each rank's cards together.

    The reserve is then one or two ranks, the cells the next ones, and the stock turns whole
    ranks at a time in an order the foundation cannot follow: in each pass a run can take only
    the ranks the stock happens to bring in rising order, so most such deals are lost."""
    game = find_game(game_id)
    return Deal(game.id, tuple(rank_blocks(game, banner_rank_order(seed))), None)


def salic_spread_deal(game_id: str, seed: int) -> Deal:
    """Queen 1, then the other ranks in a seeded random order, loosened: card i of the rank
    blocks gets the key (its block's index + uniform(0, 2)) and the cards are dealt in key
    order, so neighbouring blocks mix; the other seven queens go in at seeded random places.

    In pysol-intrigue (no moves onto empty queens before the stock is out) such deals leave
    piles whose tops block what the slots need, and some take a long end game to refute."""
    game = find_game(game_id)
    rng = random.Random(seed)
    order = [r for r in range(13) if r != 11]
    rng.shuffle(order)
    body = rank_blocks(game, order)
    keyed = sorted((i // (4 * game.decks) + rng.uniform(0, 2), c) for i, c in enumerate(body))
    cards = [c for _, c in keyed]
    queens = [make_card(11, s) for _ in range(2) for s in range(4)]
    for queen in queens[1:]:
        cards.insert(rng.randrange(len(cards) + 1), queen)
    return Deal(game.id, tuple([queens[0]] + cards), None)


def constructed_deals(game_id: str) -> list:
    """(description, Deal) pairs tried when the deal numbers lack a kind."""
    if find_game(game_id).family != "salic":
        return [(f"constructed: banner_block_deal(seed={seed}): ranks "
                 f"{' '.join(RANKS[r] for r in banner_rank_order(seed))}, all cards of a rank together",
                 banner_block_deal(game_id, seed))
                for seed in CONSTRUCTED_SEEDS]
    fixed = [(f"constructed: queen 1, then ranks {order} (eight of each), the other queens "
              f"{'last' if last else 'right after queen 1'}",
              salic_constructed_deal(game_id, order, last))
             for order in CONSTRUCTED_ORDERS for last in (True, False)]
    spread = [(f"constructed: salic_spread_deal(seed={seed})", salic_spread_deal(game_id, seed))
              for seed in CONSTRUCTED_SEEDS]
    return fixed + spread


def record(game_id: str, deal, result, description: str | None = None) -> dict:
    entry = {"found": True, "verdict": result.verdict.value, "nodes": result.stats.nodes,
             "states": result.stats.states, "seconds": round(result.stats.seconds, 3),
             "solution_length": result.length}
    if isinstance(deal, Deal):
        entry["deal"] = {"cards": [card_name(c) for c in deal.cards]}
        entry["description"] = description
    else:
        entry["deal"] = str(deal)
    return entry


def survey(game_id: str, deals: int, timeout: float) -> tuple[dict, dict]:
    """Best candidate per kind among deal numbers 1..deals and EXTRA_NUMBERS, then among the
    constructed deals for the kinds the numbers lack; verdict counts over the numbers."""
    best: dict = {}
    counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}

    def consider(deal, result, description=None):
        if description is None:
            counts[result.verdict.value] += 1
        if result.verdict is Verdict.UNKNOWN:
            return
        size = size_of(result.stats.nodes)
        if size is None or (size == "complex" and result.verdict is Verdict.WINNABLE
                            and result.stats.seconds > timeout / 2):
            return
        kind = (size, result.verdict.value)
        old = best.get(kind)
        better = old is None or (result.stats.nodes < old["nodes"] if size == "simple"
                                 else result.stats.nodes > old["nodes"])
        if better:
            best[kind] = record(game_id, deal, result, description)

    for n in list(range(1, deals + 1)) + [n for n in EXTRA_NUMBERS.get(game_id, []) if n > deals]:
        consider(n, solve(game_id, n, timeout=timeout, line=False))
    missing = [kind for kind in KINDS if kind not in best]
    if missing:
        for description, deal in constructed_deals(game_id):
            result = solve(game_id, deal, timeout=timeout, line=False)
            if result.verdict is not Verdict.UNKNOWN and (size_of(result.stats.nodes), result.verdict.value) in missing:
                consider(deal, result, description)
    return best, counts


def check_unpruned(game_id: str, entry: dict) -> dict:
    """The fixture solved with every pruning rule off: its verdict, nodes and seconds."""
    deal = entry["deal"]
    if isinstance(deal, dict):
        deal = parse_cards(game_id, " ".join(deal["cards"]))
    result = solve(game_id, deal, timeout=UNPRUNED_TIMEOUT, prune=False, line=False)
    return {"verdict": result.verdict.value, "nodes": result.stats.nodes,
            "seconds": round(result.stats.seconds, 3), "timeout": UNPRUNED_TIMEOUT}


def scan(game_id: str, low: int, high: int, max_nodes: int) -> None:
    """Print the deal numbers low..high that ``max_nodes`` positions prove unwinnable."""
    counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
    for n in range(low, high + 1):
        result = solve(game_id, n, max_nodes=max_nodes, line=False)
        counts[result.verdict.value] += 1
        if result.verdict is Verdict.UNWINNABLE:
            print(f"{game_id} {n}: unwinnable, {result.stats.nodes} nodes", flush=True)
    print(f"{game_id} {low}..{high} at {max_nodes} nodes: {counts}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=[g.id for g in GAMES])
    parser.add_argument("--deals", type=int, default=150, help="deal numbers 1..N (default 150)")
    parser.add_argument("--timeout", type=float, default=1.0, help="seconds per deal (default 1)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--scan", nargs=4, metavar=("GAME", "LO", "HI", "NODES"),
                        help="only list the deal numbers LO..HI of GAME proved unwinnable within NODES")
    args = parser.parse_args()
    if args.scan:
        game_id, low, high, nodes = args.scan
        scan(find_game(game_id).id, int(low), int(high), int(nodes))
        return
    args.out.mkdir(parents=True, exist_ok=True)
    for game_id in args.games:
        t0 = time.perf_counter()
        best, counts = survey(game_id, args.deals, args.timeout)
        fixtures = {}
        for size, verdict in KINDS:
            name = f"{size}-{verdict}"
            if (size, verdict) in best:
                fixtures[name] = best[(size, verdict)]
                fixtures[name]["unpruned"] = check_unpruned(game_id, fixtures[name])
            else:
                fixtures[name] = {"found": False, "reason": (
                    f"no deal among numbers 1..{args.deals}"
                    + (f" and {EXTRA_NUMBERS[game_id]}" if game_id in EXTRA_NUMBERS else "")
                    + (" or the constructed deals" if constructed_deals(game_id) else "")
                    + f" was decided {verdict} with {'at most ' + str(SIMPLE_NODES) if size == 'simple' else 'at least ' + str(COMPLEX_NODES)}"
                    f" nodes within {args.timeout:g} s (verdicts over the numbers: {counts})")}
        doc = {"game": game_id, "simple_nodes": SIMPLE_NODES, "complex_nodes": COMPLEX_NODES,
               "searched": {"deals": f"1..{args.deals}", "extra_numbers": EXTRA_NUMBERS.get(game_id, []),
                            "constructed": len(constructed_deals(game_id)), "timeout": args.timeout,
                            "verdicts": counts},
               "fixtures": fixtures}
        path = args.out / f"{game_id}.json"
        path.write_text(json.dumps(doc, indent=1) + "\n")
        found = [k for k, v in fixtures.items() if v["found"]]
        print(f"{game_id}: {counts}; found {found} in {time.perf_counter() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
