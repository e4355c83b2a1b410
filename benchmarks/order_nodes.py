"""Nodes to decide each deal under a node cap: the machine-independent measure of search order.

    python benchmarks/order_nodes.py GAME [GAME ...] --deals A..B [--max-nodes N] [--json PATH]

Node counts do not depend on the machine or its load, so two builds can be compared run by run
(install each into its own venv and run this script with each). For each game it prints the
verdict counts, the sum of nodes over the deals decided, and the 25th, 50th, 75th and 90th
percentile of nodes per deal, counting a deal left undecided at the cap as infinitely many.
"""
from __future__ import annotations

import argparse
import json
import math

from solver import solve
from solver.survey import parse_deal_range


def percentile(sorted_values: list, q: float):
    """The value at quantile q (nearest rank) of an ascending list."""
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def measure(game: str, deals: range, max_nodes: int) -> dict:
    """Verdict counts and node percentiles for ``deals`` of ``game`` at ``max_nodes``."""
    counts: dict = {}
    nodes = []
    for number in deals:
        result = solve(game, number, max_nodes=max_nodes, line=False)
        verdict = result.verdict.value
        counts[verdict] = counts.get(verdict, 0) + 1
        nodes.append(math.inf if verdict == "unknown" else result.stats.nodes)
    nodes.sort()
    row = {"game": game, "deals": f"{deals.start}..{deals.stop - 1}", "max_nodes": max_nodes,
           "counts": counts, "decided_nodes": sum(n for n in nodes if n != math.inf)}
    for q in (0.25, 0.5, 0.75, 0.9):
        value = percentile(nodes, q)
        row[f"p{round(q * 100)}"] = None if value == math.inf else value
    return row


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", help="game ids")
    parser.add_argument("--deals", required=True, type=parse_deal_range, help="deal numbers A..B")
    parser.add_argument("--max-nodes", type=int, default=500_000,
                        help="node cap per deal (default 500000)")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args(argv)
    rows = []
    for game in args.games:
        row = measure(game, args.deals, args.max_nodes)
        rows.append(row)
        quantiles = "  ".join(f"p{q} {'unknown' if row[f'p{q}'] is None else row[f'p{q}']}"
                              for q in (25, 50, 75, 90))
        print(f"{game:20} {row['counts']}  decided nodes {row['decided_nodes']}  {quantiles}",
              flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
