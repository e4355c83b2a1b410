"""Two builds of the solver side by side on the same deals, in one run.

    python benchmarks/compare_builds.py --baseline OLD/bin/python --candidate NEW/bin/python \\
        GAME [GAME ...] --deals A..B [--timeout 2] [--max-memory 2G] [--chunk 10] [--json PATH]
        [--markdown PATH]
    python benchmarks/compare_builds.py --render RESULT.json [--markdown PATH]

Each build is an interpreter with the package installed (for example a venv made from
``git archive <commit>``). The deals are cut into chunks, and each chunk runs in a fresh
process of each build, one after the other, alternating which build goes first, so that both
see the same load on a shared machine. Per game and build it reports the verdict counts and the
median, 90th and 99th percentile of the core's search seconds per deal (an undecided deal
counts as its time limit), and the ratio baseline / candidate of each; the per-deal ratio's
median is given too.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time

from solver.bench import percentile
from solver.survey import parse_deal_range

WORKER = r"""
import json, sys
from solver import solve
game, first, last, timeout, memory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
for number in range(first, last + 1):
    r = solve(game, number, timeout=timeout, max_memory=memory, line=False)
    print(json.dumps([number, r.verdict.value, r.stats.nodes, r.stats.seconds]), flush=True)
"""


def parse_size(text: str) -> int:
    """``2G``, ``512M`` or a number of bytes."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper()
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def run_chunk(python: str, game: str, first: int, last: int, timeout: float, memory: int) -> list:
    out = subprocess.run([python, "-c", WORKER, game, str(first), str(last), str(timeout),
                          str(memory)], capture_output=True, text=True, check=True, cwd="/")
    return [json.loads(line) for line in out.stdout.splitlines()]




def summary(rows: list, timeout: float) -> dict:
    seconds = [timeout if verdict == "unknown" else s for _, verdict, _, s in rows]
    counts: dict = {}
    for _, verdict, _, _ in rows:
        counts[verdict] = counts.get(verdict, 0) + 1
    # Nearest rank, as `solver bench` reports them, so the two tables read alike.
    return {"counts": counts, "median": statistics.median(seconds), "p90": percentile(seconds, 90),
            "p99": percentile(seconds, 99)}


def fill_summaries(entry: dict, timeout: float) -> dict:
    """Add each build's summary, the ratios and the median per-deal ratio to a game's entry
    (which holds its "rows")."""
    rows = entry["rows"]
    base, cand = (summary(rows[n], timeout) for n in ("baseline", "candidate"))
    paired = [max(b[3], 1e-9) / max(c[3], 1e-9)
              for b, c in zip(rows["baseline"], rows["candidate"])]
    entry.update({"baseline": base, "candidate": cand,
                  "ratio": {q: base[q] / cand[q] for q in ("median", "p90", "p99")},
                  "per_deal_ratio_median": statistics.median(paired)})
    return entry


def markdown(report: dict) -> str:
    """The report as a Markdown table: one row per game, both builds and the ratios."""
    settings = report["settings"]
    lines = [f"Deals {settings['deals']}, {settings['timeout']:g} s and "
             f"{settings['max_memory'] / (1 << 30):g} GiB per deal; core search ms per deal "
             f"(an undecided deal counts as the time limit); load average before/after "
             f"{report['machine'].get('load_before')} / {report['machine'].get('load_after')}.",
             "", "| game | baseline W/U/? | candidate W/U/? | median ms (base → cand) | ratio | "
             "p90 ms | ratio | p99 ms | ratio | per-deal ratio, median |",
             "|---|---|---|---|--:|---|--:|---|--:|--:|"]

    def counts(c: dict) -> str:
        return f"{c.get('winnable', 0)}/{c.get('unwinnable', 0)}/{c.get('unknown', 0)}"

    for game, e in report["games"].items():
        b, c, r = e["baseline"], e["candidate"], e["ratio"]
        lines.append(
            f"| {game} | {counts(b['counts'])} | {counts(c['counts'])} | "
            f"{b['median'] * 1e3:.2f} → {c['median'] * 1e3:.2f} | {r['median']:.1f}× | "
            f"{b['p90'] * 1e3:.1f} → {c['p90'] * 1e3:.1f} | {r['p90']:.1f}× | "
            f"{b['p99'] * 1e3:.1f} → {c['p99'] * 1e3:.1f} | {r['p99']:.1f}× | "
            f"{e['per_deal_ratio_median']:.1f}× |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--render", help="print (or --markdown) the table of a saved result")
    parser.add_argument("--markdown", help="also write the Markdown table to this file")
    if argv is None:
        argv = sys.argv[1:]
    if "--render" in argv:
        known, _ = parser.parse_known_args(argv)
        with open(known.render) as f:
            report = json.load(f)
        for entry in report["games"].values():      # summaries again from the rows
            fill_summaries(entry, report["settings"]["timeout"])
        table = markdown(report)
        print(table, end="")
        if known.markdown:
            with open(known.markdown, "w") as f:
                f.write(table)
        return
    parser.add_argument("games", nargs="+", help="game ids")
    parser.add_argument("--baseline", required=True, help="python of the baseline build")
    parser.add_argument("--candidate", required=True, help="python of the candidate build")
    parser.add_argument("--deals", required=True, type=parse_deal_range, help="deal numbers A..B")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per deal (default 2)")
    parser.add_argument("--max-memory", type=parse_size, default=parse_size("2G"),
                        help="table bound per deal (default 2G)")
    parser.add_argument("--chunk", type=int, default=10, help="deals per process (default 10)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    builds = {"baseline": args.baseline, "candidate": args.candidate}
    started = time.time()
    report = {"settings": {"games": args.games, "deals": f"{args.deals.start}..{args.deals.stop - 1}",
                           "timeout": args.timeout, "max_memory": args.max_memory,
                           "builds": builds},
              "machine": {"python": platform.python_version(), "load_before": _load()},
              "games": {}}
    for game in args.games:
        rows = {name: [] for name in builds}
        chunks = range(args.deals.start, args.deals.stop, args.chunk)
        for k, first in enumerate(chunks):
            last = min(first + args.chunk, args.deals.stop) - 1
            order = list(builds) if k % 2 == 0 else list(reversed(builds))
            for name in order:
                rows[name] += run_chunk(builds[name], game, first, last, args.timeout,
                                        args.max_memory)
            print(f"\r{game}: {last - args.deals.start + 1}/{len(args.deals)} deals", end="",
                  file=sys.stderr, flush=True)
        print(file=sys.stderr)
        entry = fill_summaries({"rows": rows}, args.timeout)
        base, cand = entry["baseline"], entry["candidate"]
        report["games"][game] = entry
        print(f"{game:18} baseline {base['counts']} median {base['median'] * 1e3:.2f} ms "
              f"p90 {base['p90'] * 1e3:.1f} p99 {base['p99'] * 1e3:.1f} | candidate "
              f"{cand['counts']} median {cand['median'] * 1e3:.2f} ms p90 {cand['p90'] * 1e3:.1f} "
              f"p99 {cand['p99'] * 1e3:.1f} | ratio median {entry['ratio']['median']:.1f}x "
              f"p90 {entry['ratio']['p90']:.1f}x p99 {entry['ratio']['p99']:.1f}x, per-deal "
              f"median {entry['per_deal_ratio_median']:.1f}x", flush=True)
    report["seconds"] = time.time() - started
    report["machine"]["load_after"] = _load()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(report))


def _load() -> list:
    try:
        with open("/proc/loadavg") as f:
            return [float(x) for x in f.read().split()[:3]]
    except OSError:
        return []


if __name__ == "__main__":
    main()
