"""Solve a list of deals at given limits, one worker process per deal, one JSON line per deal.

The runs behind ``benchmarks/results/limits-60s-2GiB.md`` (issue 4's 60 s and 2 GiB per deal)
and the longer ones beside it: the deals to run are ``GAME N`` lines (``#`` starts a comment)
in ``--list`` files or on stdin, or ``--games`` with ``--deals``. Each deal is
``solver.solve(game, n, timeout=..., max_memory=..., line=False)`` (``--max-nodes``: also
``max_nodes``) in a fresh worker process
(so a large table goes back to the system when the deal ends).

    python benchmarks/run_deals.py --list hard.txt --timeout 60 --max-memory 2 --jobs 2 \\
        --out results/hard-60s.jsonl
    python benchmarks/run_deals.py --games glencoe intrigue --deals 1..100 --timeout 2

Each line: game, deal, verdict, reason (unknown only), via (the inner game whose line won, see
docs/solver.md, "Inner game"), nodes, seconds (the core's search time), wall (the whole
``solve()`` call), build (the solver's commit, or its version where the install does not
record one), and threads where ``--threads 2``. With ``--out`` the lines are appended to that
file and deals already in it are not run again, so a run stopped with Ctrl-C resumes where it
stopped; without it they go to stdout only. Bad input: one line on stderr, status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


class Parser(argparse.ArgumentParser):
    """Bad input is one line on stderr and status 2 (no usage block)."""

    def error(self, message):
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def run_one(task: tuple) -> dict:
    game, number, timeout, max_nodes, memory, inner, threads, build = task
    from solver import solve
    t = time.perf_counter()
    r = solve(game, number, timeout=timeout, max_nodes=max_nodes, max_memory=memory, line=False,
              inner=inner, threads=threads)
    row = dict(game=game, deal=number, verdict=r.verdict.value, reason=r.reason, via=r.via,
               nodes=r.stats.nodes, seconds=round(r.stats.seconds, 3),
               wall=round(time.perf_counter() - t, 3), build=build)
    if threads != 1:
        row["threads"] = threads
    return row


def parse_list(text: str, source: str, known: set) -> list[tuple[str, int]]:
    """``GAME N`` lines; raises ValueError naming the first bad line."""
    deals = []
    for index, line in enumerate(text.splitlines(), start=1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != 2 or fields[0] not in known or not fields[1].isdigit() \
                or int(fields[1]) < 1:
            raise ValueError(f"{source}, line {index}: expected 'GAME N' with a known game and "
                             f"a positive deal number, got {line.strip()!r}")
        deals.append((fields[0], int(fields[1])))
    return deals


def main(argv=None) -> int:
    p = Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("--list", nargs="*", type=Path, default=None, metavar="FILE",
                   help="files of 'GAME N' lines ('-' or none given: stdin)")
    p.add_argument("--games", nargs="*", default=None, help="games, with --deals")
    p.add_argument("--deals", default=None, help="deal range A..B of each of --games")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per deal (60)")
    p.add_argument("--max-nodes", type=int, default=None,
                   help="positions per deal (default: no limit)")
    p.add_argument("--max-memory", type=float, default=2.0,
                   help="GiB of transposition table per deal (2)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    p.add_argument("--no-inner", action="store_true",
                   help="the game's own search alone, with the whole limits (solve(inner=False))")
    p.add_argument("--threads", type=int, choices=(1, 2), default=1,
                   help="threads per deal (solve(threads=...); 2: a second search beside the "
                        "usual one; use with --jobs 1 on two cores) (1)")
    p.add_argument("--out", type=Path, default=None,
                   help="append the JSON lines to this file; deals already in it are skipped")
    a = p.parse_args(argv)
    if not a.timeout > 0 or not a.max_memory > 0 or a.jobs < 1 or (
            a.max_nodes is not None and a.max_nodes < 1):
        p.error("--timeout, --max-nodes, --max-memory and --jobs must be positive")
    from solver.games import GAME_IDS
    from solver.survey import parse_deal_range
    known = set(GAME_IDS)
    if a.games is not None or a.deals is not None:
        if a.list is not None:
            p.error("give --list or --games with --deals, not both")
        if not a.games or not a.deals:
            p.error("--games and --deals go together")
        for game in a.games:
            if game not in known:
                p.error(f"unknown game {game!r}; known games: {', '.join(GAME_IDS)}")
        try:
            numbers = parse_deal_range(a.deals)
        except ValueError as exc:
            p.error(str(exc))
        deals = [(game, n) for game in a.games for n in numbers]
    else:
        deals = []
        for path in a.list or [Path("-")]:
            try:
                text = sys.stdin.read() if str(path) == "-" else path.read_text()
                deals += parse_list(text, "stdin" if str(path) == "-" else str(path), known)
            except (OSError, ValueError) as exc:
                p.error(str(exc))
    done = set()
    if a.out and a.out.exists():
        try:
            for line in a.out.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    done.add((row["game"], row["deal"]))
        except (ValueError, KeyError) as exc:
            p.error(f"--out {a.out}: not this script's JSON lines ({exc})")
    todo = [(g, n) for g, n in dict.fromkeys(deals) if (g, n) not in done]
    memory = int(a.max_memory * (1 << 30))
    from solver.bench import git_commit
    info = git_commit()
    from solver import __version__
    build = ((info["commit"][:7] + ("+dirty" if info.get("dirty") else "")) if info.get("commit")
             else f"solver {__version__}")          # an install with no commit recorded
    out = open(a.out, "a") if a.out else None
    print(f"{len(todo)} deals to run ({len(deals) - len(todo)} already in {a.out})"
          if a.out else f"{len(todo)} deals to run", file=sys.stderr, flush=True)
    try:
        with ProcessPoolExecutor(a.jobs, max_tasks_per_child=1) as pool:
            tasks = [(g, n, a.timeout, a.max_nodes, memory, not a.no_inner, a.threads, build)
                     for g, n in todo]
            for row in pool.map(run_one, tasks):
                line = json.dumps(row)
                print(line, flush=True)
                if out:
                    out.write(line + "\n")
                    out.flush()
    except KeyboardInterrupt:
        print("interrupted: the deals finished so far are kept", file=sys.stderr)
        return 130
    finally:
        if out:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
