"""Survey scaling: deals per second with 1 and 2 local workers on the same range.

    python benchmarks/survey_scaling.py [--game clover] [--deals 1..300] [--max-nodes 50000]
                                        [--repeat 3] [--chunk-size 8] [--out FILE.json]

Each repetition surveys the range into a fresh database with ``solver.survey.run_survey`` (pool
start-up included: it is part of what a survey costs). A node limit keeps the work identical
from run to run. Prints a table of medians and the 2-worker / 1-worker ratio (target >= 1.8)
and saves it as JSON under benchmarks/results/.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
from datetime import datetime, timezone

import solver
from solver.survey import Limits, parse_deal_range, run_survey

TARGET_RATIO = 1.8
RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def measure(game: str, deals: range, limits: Limits, workers: int, chunk_size: int) -> dict:
    """One survey of ``deals`` into a fresh database: deals per second and the verdict counts."""
    with tempfile.TemporaryDirectory() as tmp:
        summary = run_survey(game, deals, os.path.join(tmp, "bench.sqlite"), limits=limits,
                             workers=workers, chunk_size=chunk_size)
    if summary.interrupted or summary.solved != len(deals):
        raise RuntimeError(f"survey did not finish: {summary.describe()}")
    return {"seconds": summary.seconds, "rate": summary.rate, "counts": summary.counts}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="clover")
    parser.add_argument("--deals", default="1..300", help="range A..B (default: %(default)s)")
    parser.add_argument("--max-nodes", type=int, default=50_000)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chunk-size", type=int, default=8)
    parser.add_argument("--out", default=os.path.join(RESULTS_DIR, "survey_scaling.json"))
    args = parser.parse_args(argv)
    deals = parse_deal_range(args.deals)
    limits = Limits(args.timeout, args.max_nodes)

    load_before = os.getloadavg()[0]
    runs: dict[int, list[dict]] = {1: [], 2: []}
    for _ in range(args.repeat):
        for workers in runs:          # interleaved, so a noisy neighbour hits both alike
            runs[workers].append(measure(args.game, deals, limits, workers, args.chunk_size))
    if runs[1][0]["counts"] != runs[2][0]["counts"]:
        raise RuntimeError("1 and 2 workers disagree on the verdicts")

    rows = {}
    for workers, measured in runs.items():
        rates = [m["rate"] for m in measured]
        rows[workers] = {"workers": workers, "median_rate": statistics.median(rates),
                         "median_seconds": statistics.median(m["seconds"] for m in measured),
                         "rates": rates}
    ratio = rows[2]["median_rate"] / rows[1]["median_rate"]
    load = [load_before, os.getloadavg()[0]]

    print(f"{args.game} deals {args.deals} ({len(deals)} deals), max nodes {args.max_nodes}, "
          f"chunk {args.chunk_size}, {args.repeat} runs each, solver {solver.__version__}, "
          f"{os.cpu_count()} cores, load average {load[0]:.2f} before, {load[1]:.2f} after")
    print(f"{'workers':>7}  {'median s':>9}  {'deals/s':>9}  runs (deals/s)")
    for row in rows.values():
        print(f"{row['workers']:>7}  {row['median_seconds']:>9.2f}  {row['median_rate']:>9.1f}  "
              + " ".join(f"{r:.1f}" for r in row["rates"]))
    verdict = "meets" if ratio >= TARGET_RATIO else "misses"
    print(f"ratio 2/1: {ratio:.2f}x ({verdict} the target {TARGET_RATIO}x)")
    if load_before > 0.5:
        print("note: the machine was busy before the runs (load average above 0.5): other work "
              "shared the cores, so the ratio understates the scaling")

    report = {"benchmark": "survey_scaling", "game": args.game, "deals": args.deals,
              "max_nodes": args.max_nodes, "timeout": args.timeout, "chunk_size": args.chunk_size,
              "repeat": args.repeat, "cpu_count": os.cpu_count(), "load_average": load,
              "solver_version": solver.__version__, "python": platform.python_version(),
              "platform": platform.platform(),
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "verdicts": runs[1][0]["counts"], "results": list(rows.values()),
              "ratio": ratio, "target_ratio": TARGET_RATIO, "meets_target": ratio >= TARGET_RATIO}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=2)
        fh.write("\n")
    print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
