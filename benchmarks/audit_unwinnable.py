"""Check "unwinnable" verdicts again with the pruning rules off: the whole set, then one at a time.

The solver calls a deal unwinnable only when an exhaustive search with its pruning rules ends
without a win (docs/solver.md). Each rule has a written argument and agreement tests on small
budgets; this script is the same check at scale, on the deals the solver has actually called
unwinnable. For each (game, deal) it runs:

1. the search with every rule off (``prune=False``): the plain exhaustive search;
2. if that runs out of time or memory, the search with the default rules but one, for each rule
   the game uses ("leave one out"): a rule whose argument were wrong on this deal would, taken
   out, let the search find the win the others do not cut.

Any "winnable" is a soundness bug, reported on stdout and in the summary. A search that runs out
is inconclusive and said so. The deals come from ``--csv`` (rows with the verdict
"unwinnable"; by default ``benchmarks/results/limits-60s-2GiB.csv.gz``) or from ``--deals``.

    python benchmarks/audit_unwinnable.py --games forget-me-not clover --timeout 30 \\
        --json results/audit.jsonl --markdown results/audit.md

Each search runs in a worker process of its own (``--jobs``), so a large table is given back to
the system when it ends. Ctrl-C stops the run and keeps the lines written so far.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CSV = ROOT / "benchmarks" / "results" / "limits-60s-2GiB.csv.gz"


def family_rules(game_id: str) -> list[str]:
    """The default rules that can change a search of this game (the others are the other
    family's and change nothing)."""
    from solver.core import DEFAULT_RULES, PRUNING_RULES
    from solver.games import find_game
    banner = find_game(game_id).family == "banner"
    banner_only = {"banner-reach", "banner-prefix", "banner-ahead", "cell-wait", "sealed-cap"}
    salic_only = {"safe-foundation", "lone-card", "last-copies", "parking-room", "deep-room",
                  "lazy-plays", "lazy-order", "feed-first", "lazy-feed", "stuck-stock"}
    skip = salic_only if banner else banner_only
    return [name for name, bit in PRUNING_RULES.items()
            if DEFAULT_RULES & bit and name not in skip]


def run_one(task):
    game_id, deal, label, prune, timeout, memory = task
    from solver import solve
    t = time.perf_counter()
    # inner=False: the game's own search, with the whole time, is what is audited
    r = solve(game_id, deal, timeout=timeout, max_memory=memory, prune=prune, line=False,
              inner=False)
    return dict(game=game_id, deal=deal, search=label, verdict=r.verdict.value,
                reason=r.reason or "", nodes=r.stats.nodes, states=r.stats.states,
                seconds=round(time.perf_counter() - t, 2))


def unwinnable_from_csv(path: Path, games) -> list[tuple[str, int]]:
    found = set()
    with gzip.open(path, "rt") if path.suffix == ".gz" else open(path) as f:
        for row in csv.DictReader(f):
            if row["verdict"] == "unwinnable" and (not games or row["game"] in games):
                found.add((row["game"], int(row["deal"])))
    order = {g: i for i, g in enumerate(games or [])}
    return sorted(found, key=lambda x: (order.get(x[0], len(order)), x[0], x[1]))


def parse_range(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        a, _, b = part.partition("..")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", nargs="*", default=None,
                   help="games to check, in this order (default: every game in the csv)")
    p.add_argument("--csv", type=Path, default=DEFAULT_CSV,
                   help="rows (game, deal, verdict, ...) whose unwinnable deals to check")
    p.add_argument("--deals", default=None,
                   help="check these deal numbers instead of the csv (A..B,C,...; needs --games)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds per search (30)")
    p.add_argument("--memory", type=float, default=4.0, help="GiB of table per search (4)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    p.add_argument("--no-leave-one-out", action="store_true",
                   help="only the search with every rule off")
    p.add_argument("--json", type=Path, default=None,
                   help="append one JSON line per search; searches already in the file are not "
                        "run again (a run stopped with Ctrl-C resumes where it stopped)")
    p.add_argument("--markdown", type=Path, default=None, help="write a summary table")
    a = p.parse_args(argv)
    if a.timeout <= 0 or a.memory <= 0 or a.jobs < 1:
        p.error("--timeout, --memory and --jobs must be positive")
    from solver.core import DEFAULT_RULES, PRUNING_RULES
    from solver.games import GAMES
    known = {g.id for g in GAMES}
    for g in a.games or []:
        if g not in known:
            p.error(f"unknown game {g!r}")
    if a.deals:
        if not a.games:
            p.error("--deals needs --games")
        try:
            numbers = parse_range(a.deals)
        except ValueError:
            p.error(f"--deals: expected A..B or numbers separated by commas, got {a.deals!r}")
        if not numbers or min(numbers) < 1:
            p.error(f"--deals: expected positive deal numbers, got {a.deals!r}")
        deals = [(g, n) for g in a.games for n in numbers]
    else:
        try:
            deals = unwinnable_from_csv(a.csv, a.games)
        except (OSError, KeyError, ValueError) as e:
            p.error(f"--csv {a.csv}: {e}")
    memory = int(a.memory * (1 << 30))
    rows: list[dict] = []
    done: dict[tuple, dict] = {}
    if a.json and a.json.exists():
        for line in a.json.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[row["game"], row["deal"], row["search"]] = row
    out = open(a.json, "a") if a.json else None

    def record(row):
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
        flag = "  <-- SOUNDNESS BUG" if row["verdict"] == "winnable" else ""
        print(f"{row['game']} {row['deal']} {row['search']}: {row['verdict']} {row['reason']} "
              f"{row['nodes']:,} nodes {row['seconds']} s{flag}", flush=True)

    def run_all(pool, tasks):
        """Each task's row, from the file where it was run before, else run now."""
        for task in tasks:
            if (task[0], task[1], task[2]) in done:
                rows.append(done[task[0], task[1], task[2]])
        todo = [t for t in tasks if (t[0], t[1], t[2]) not in done]
        for row in pool.map(run_one, todo):
            record(row)

    try:
        with ProcessPoolExecutor(a.jobs, max_tasks_per_child=1) as pool:
            run_all(pool, [(g, n, "none", False, a.timeout, memory) for g, n in deals])
            undecided = [(r["game"], r["deal"]) for r in rows
                         if r["search"] == "none" and r["verdict"] == "unknown"]
            if not a.no_leave_one_out:
                run_all(pool, [(g, n, f"all-but-{name}", DEFAULT_RULES & ~PRUNING_RULES[name],
                                a.timeout, memory) for g, n in undecided
                               for name in family_rules(g)])
    except KeyboardInterrupt:
        print("interrupted: the searches finished so far are kept", file=sys.stderr)
    finally:
        if out:
            out.close()
    if a.markdown:
        a.markdown.write_text(summary(rows, a))
    bugs = [r for r in rows if r["verdict"] == "winnable"]
    print(f"{len(rows)} searches, {len(bugs)} winnable (soundness bugs)")
    return 1 if bugs else 0


def summary(rows: list[dict], a) -> str:
    by_game: dict[str, Counter] = {}
    for r in rows:
        c = by_game.setdefault(r["game"], Counter())
        kind = "plain" if r["search"] == "none" else "one-off"
        c[f"{kind} {r['verdict']}"] += 1
    lines = [f"Unwinnable verdicts checked again, {time.strftime('%Y-%m-%d')}: "
             f"{a.timeout:g} s and {a.memory:g} GiB per search.", "",
             "| game | plain: unwinnable | plain: unknown | plain: winnable | "
             "leave-one-out: unwinnable | unknown | winnable |",
             "|---|--:|--:|--:|--:|--:|--:|"]
    for g, c in by_game.items():
        lines.append(f"| {g} | {c['plain unwinnable']} | {c['plain unknown']} | "
                     f"{c['plain winnable']} | {c['one-off unwinnable']} | "
                     f"{c['one-off unknown']} | {c['one-off winnable']} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
