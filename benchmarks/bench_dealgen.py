"""Deals per second of the C deal generator against the pure-Python reference.

    python benchmarks/bench_dealgen.py [--repeat 7] [--count 200000] [--reference-count 2000]
                                       [--json PATH]

For each case, in the same run and alternating repetitions: the C batch
(``solver._dealgen.deal_orders``), the C generator called once per deal from Python
(``solver.deals.deal_order``), and the pure-Python reference over pysol_cards
(``solver.deals.deal_order_reference``). Prints medians, the batch/reference ratio, and
whether the batch meets the 1,000,000 deals/s target of issue 4 (by the wall clock; the
batch is also timed in CPU time, which shows what a busy machine hides).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import time
from pathlib import Path

from solver import _dealgen
from solver.deals import deal_order, deal_order_reference
from solver.games import find_game

TARGET = 1_000_000

# (label, game id, first deal number, generator); LCRandom31 numbers end at 31999.
CASES = [
    ("Intrigue, N from 1", "intrigue", 1, "LCRandom31"),
    ("Intrigue, N from 32000", "intrigue", 32000, "MT"),
    ("Intrigue, N from 10^30", "intrigue", 10 ** 30, "MT"),
    ("Devil's Solitaire, N from 32000", "devils-solitaire", 32000, "MT"),
    ("Forget-me-not, N from 1", "forget-me-not", 1, "LCRandom31"),
    ("Forget-me-not, N from 32000", "forget-me-not", 32000, "MT"),
]


def rates_of(run, count: int) -> tuple[float, float]:
    """Deals per second by the wall clock and by this process's CPU time (which other
    programs competing for the cores do not dilute)."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return count / (time.perf_counter() - wall), count / max(time.process_time() - cpu, 1e-9)


def measure(game_id: str, first: int, generator: str, args) -> dict:
    game = find_game(game_id)
    family = "salic" if game.family == "salic" else "banner"
    count = min(args.count, 31999 - first + 1) if generator == "LCRandom31" else args.count
    single_count = min(count, args.single_count)
    reference_count = min(count, args.reference_count)

    def batch():
        _dealgen.deal_orders(family, game.decks, first, count)

    def single():
        for seed in range(first, first + single_count):
            deal_order(game, seed, False)

    def reference():
        for seed in range(first, first + reference_count):
            deal_order_reference(game, seed, False)

    rates: dict = {"batch": [], "batch_cpu": [], "single": [], "reference": []}
    for _ in range(args.repeat):
        wall, cpu = rates_of(batch, count)
        rates["batch"].append(wall)
        rates["batch_cpu"].append(cpu)
        rates["single"].append(rates_of(single, single_count)[0])
        rates["reference"].append(rates_of(reference, reference_count)[0])
    medians = {name: statistics.median(values) for name, values in rates.items()}
    return {"game": game_id, "cards": game.deck_size, "first": str(first), "generator": generator,
            "count": count, "repeat": args.repeat, "deals_per_second": medians,
            "all_rates": rates, "ratio_batch_to_reference": medians["batch"] / medians["reference"]}


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="repetitions per case (median)")
    parser.add_argument("--count", type=int, default=200_000, help="deals per C batch")
    parser.add_argument("--single-count", type=int, default=20_000,
                        help="deals per run of one-at-a-time C calls")
    parser.add_argument("--reference-count", type=int, default=1_000,
                        help="deals per run of the Python reference")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()

    results = []
    print(f"{'case':32} {'cards':>5} {'generator':>10} {'C batch/s':>11} {'(CPU time)':>11} "
          f"{'C single/s':>10} {'Python/s':>8} {'ratio':>6}  target")
    for label, game_id, first, generator in CASES:
        r = measure(game_id, first, generator, args)
        results.append(r)
        d = r["deals_per_second"]
        print(f"{label:32} {r['cards']:>5} {generator:>10} {d['batch']:>11,.0f} {d['batch_cpu']:>11,.0f} "
              f"{d['single']:>10,.0f} {d['reference']:>8,.0f} {r['ratio_batch_to_reference']:>5,.0f}x  "
              f"{'met' if d['batch'] >= TARGET else 'MISSED'}", flush=True)
    print(f"medians of {args.repeat} runs; batch of {args.count:,} deals (LCRandom31: up to 31999), "
          f"{args.single_count:,} single calls, {args.reference_count:,} reference deals; "
          f"commit {commit()}, {platform.machine()}, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"commit": commit(), "machine": platform.platform(), "target": TARGET,
                       "results": results}, fh, indent=2)


if __name__ == "__main__":
    main()
