"""Two builds at once on a game's slowest deals: the tail of a bench, measured side by side.

    python benchmarks/tail_compare.py --baseline OLD/bin/python --candidate NEW/bin/python \\
        GAME (--bench RESULT.json [--min-nodes 20000] | --list FILE) [--timeout 2]
        [--max-memory 2G] [--threads 1] [--seeds 0] [--rank 100] [--over 0.1] [--json PATH]
        [--markdown PATH]

The deals are those a saved ``solver bench`` run (``--bench``, its JSON) left unknown or
searched with more than ``--min-nodes`` nodes, or the numbers in ``--list`` (white space
between them). Each build runs every deal in one process of its own, in the same order, the
two processes at once (one a core on a 2-core machine), so both see the same load; with
``--threads 2`` (``solve(threads=2)``, both cores a deal) they take the deals in turn. Per build
it reports the ``--rank``-th slowest deal's core seconds (an undecided deal counting as the
slowest; on the slowest few hundred deals of 10,000 the 100th-slowest is about the bench's 99th
percentile), the unknown deals, the deals over ``--over`` seconds, and the seconds on the deals
both decided; then the deals only one build decided. Two verdicts for one deal are a bug: they
are listed, and the exit status is 1. Each build's commit (as ``solver bench`` records its own:
the checkout's, or the one a ``git archive`` of the sources wrote into ``solver/_commit.py``;
unknown for a copy made otherwise) is asked of its interpreter and recorded beside its path.

Where the search begins its probe rounds with random lines (the PySol profiles), a deal's time
is partly luck: which lines the generator draws. A change to the order of work draws other
lines, so one run of each build compares luck as much as the change. ``--seeds 0,1,2,3`` runs
every deal once with each seed (``solve(seed=...)``; 0 is the usual search) and reports the
figures over all the runs, the rank-th slowest read per seed (the rank times the seeds over
all of them), and each seed's own line beside them, so that the spread shows.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import threading
import time

from solver.commands.solve import parse_limit_size
from solver.errors import UnknownGameError
from solver.games import find_game

WORKER = r"""
import json, sys
from solver import solve
game, timeout, memory, threads = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
seeds = [int(s) for s in sys.argv[5].split(",")]
for text in sys.stdin:
    for number in map(int, text.split()):
        for seed in seeds:
            kw = {"seed": seed} if seed else {}       # a build before solve(seed=) runs seed 0
            r = solve(game, number, timeout=timeout, max_memory=memory, line=False,
                      threads=threads, **kw)
            row = [number, r.verdict.value, r.stats.nodes, r.stats.seconds]
            print(json.dumps(row + [seed] if seeds != [0] else row), flush=True)
"""


COMMIT_WORKER = r"""
import json
from solver.bench import git_commit
print(json.dumps(git_commit()))
"""


def build_commit(python: str) -> dict:
    """The commit of the solver that ``python`` imports, as solver.bench.git_commit gives it
    ({"commit", "dirty"}; nulls where it cannot tell, or where the interpreter fails)."""
    try:
        done = subprocess.run([python, "-c", COMMIT_WORKER], capture_output=True, text=True,
                              cwd="/", timeout=60)
        if done.returncode == 0:
            return json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        pass
    return {"commit": None, "dirty": None}


def size(text: str) -> int:
    """--max-memory: a size as `solver solve --max-memory` reads it (512M, 2G)."""
    try:
        return parse_limit_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st, ..., 100th."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def seed_list(text: str) -> list:
    """--seeds: seeds from 0 to 2**64 - 1, comma-separated, each once."""
    try:
        seeds = [int(t) for t in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of seeds: {text!r}") from None
    if not seeds or any(not 0 <= s < 1 << 64 for s in seeds) or len(set(seeds)) < len(seeds):
        raise argparse.ArgumentTypeError(f"seeds must be distinct ints from 0 to 2**64 - 1: "
                                         f"{text!r}")
    return seeds


def run_key(row: list):
    """A run's key among a build's rows: its deal, or (deal, seed) where the rows have seeds."""
    return row[0] if len(row) == 4 else (row[0], row[4])


def run_name(key) -> str:
    return str(key) if not isinstance(key, tuple) else f"{key[0]} (seed {key[1]})"


def slow_deals(bench: dict, game: str, min_nodes: int) -> list:
    """The deals of ``game`` in a saved bench that were unknown or took over min_nodes nodes."""
    cols = bench["deal_columns"]
    g, n, v, k = (cols.index(c) for c in ("game", "deal", "verdict", "nodes"))
    return [row[n] for row in bench["deal_rows"]
            if row[g] == game and (row[v] == "unknown" or row[k] > min_nodes)]


def summary(rows: dict, rank: int, over: float) -> dict:
    """Both builds' figures from their rows ({build: {key: [deal, verdict, nodes, seconds]}},
    the key run_key's: with seeds a run is a deal and a seed), over the runs both made."""
    names = list(rows)
    common = sorted(set.intersection(*(set(rows[n]) for n in names)))
    decided = {n: {d for d in common if rows[n][d][1] != "unknown"} for n in names}
    both = sorted(set.intersection(*decided.values()))
    out = {"deals": len(common), "both_decided": len(both), "builds": {}}
    for n in names:
        slow = sorted((rows[n][d][3] if d in decided[n] else float("inf")) for d in common)
        at = slow[-rank] if len(slow) >= rank else None
        out["builds"][n] = {
            # the rank-th slowest deal's seconds; "unknown" where it is an undecided deal
            "rank_seconds": "unknown" if at == float("inf") else at,
            "unknown": len(common) - len(decided[n]),
            "over": sum(1 for s in slow if s > over),
            "both_decided_seconds": sum(rows[n][d][3] for d in both),
            "only_decided": sorted(decided[n] - set.union(*(decided[m] for m in names if m != n))),
        }
    out["disagree"] = [d for d in both if len({rows[n][d][1] for n in names}) > 1]
    return out


def seed_summaries(rows: dict, seeds: list, rank: int, over: float) -> dict:
    """summary() of each seed's runs alone: {seed: summary}."""
    return {seed: summary({name: {k: r for k, r in runs.items() if k[1] == seed}
                           for name, runs in rows.items()}, rank, over)
            for seed in seeds}


def rank_cell(r) -> str:
    """A rank_seconds figure as the table shows it."""
    return "-" if r is None else r if isinstance(r, str) else f"{r:.3f}"


def markdown(report: dict) -> str:
    s, st = report["summary"], report["settings"]
    seeds = st.get("seeds", [0])
    rank = st["rank"] * len(seeds)
    runs = f"{s['deals']} deals" if len(seeds) == 1 else \
        f"{s['deals']} runs: {s['deals'] // len(seeds)} deals × seeds {', '.join(map(str, seeds))}"
    lines = [f"{st['game']}, {runs} ({st['source']}), {st['timeout']:g} s and "
             f"{st['max_memory'] / (1 << 30):g} GiB per deal, "
             + ("both builds at once" if st.get("threads", 1) == 1 else
                f"{st['threads']} threads a deal, the builds in turn")
             + "; core seconds.",
             "", f"| build | {ordinal(rank)}-slowest s"
             + (f" ({ordinal(st['rank'])} per seed)" if len(seeds) > 1 else "")
             + f" | unknown | over {st['over']:g} s | "
             f"seconds on the {s['both_decided']} {'deals' if len(seeds) == 1 else 'runs'} both "
             f"decided | decided by it alone |",
             "|---|--:|--:|--:|--:|---|"]
    for name, b in s["builds"].items():
        alone = ", ".join(map(run_name, b["only_decided"])) or "-"
        lines.append(f"| {name} | {rank_cell(b['rank_seconds'])} | {b['unknown']} | {b['over']} | "
                     f"{b['both_decided_seconds']:.1f} | {alone} |")
    if len(seeds) > 1:
        lines += ["", f"Each seed alone (its {ordinal(st['rank'])}-slowest deal; unknown; over "
                      f"{st['over']:g} s; seconds on the deals both decided):", ""]
        for seed, one in report["seed_summaries"].items():
            cells = [f"{name} {rank_cell(b['rank_seconds'])} s, {b['unknown']}, {b['over']}, "
                     f"{b['both_decided_seconds']:.1f} s" for name, b in one["builds"].items()]
            lines.append(f"- seed {seed}: " + "; ".join(cells))
    lines.append("")
    lines.append("Two verdicts for one deal: " + (", ".join(map(run_name, s["disagree"])) or "none")
                 + ".")
    commits = st.get("commits")
    if commits:
        def named(c: dict) -> str:
            if not c.get("commit"):
                return "commit unknown"
            return c["commit"][:7] + (" with uncommitted changes" if c.get("dirty") else "")
        lines.append("")
        lines.append("Builds: " + "; ".join(f"{name} {named(commits[name])} ({st['builds'][name]})"
                                           for name in commits) + ".")
    return "\n".join(lines) + "\n"


def run_both(builds: dict, game: str, deals: list, timeout: float, memory: int,
             threads: int = 1, seeds: tuple = (0,)) -> dict:
    """Each build over every deal (with each seed), each in a process of its own, a progress
    line on stderr: ({build: {key: row}}, interrupted), the key run_key's. With one thread a
    deal the two processes run at once; with two, in turn, deal by deal (baseline, then
    candidate), so that a deal has both cores. A Ctrl-C stops both and keeps the rows so far; a
    build that fails stops both, and the run ends with its exit status (SystemExit)."""
    procs = {name: subprocess.Popen([python, "-c", WORKER, game, str(timeout), str(memory),
                                     str(threads), ",".join(map(str, seeds))],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                    cwd="/")
             for name, python in builds.items()}
    rows = {name: {} for name in builds}

    def progress() -> None:
        total = len(deals) * len(seeds)
        print(f"\r{'  '.join(f'{n}: {len(rows[n])}/{total}' for n in builds)} "
              f"{'deals' if len(seeds) == 1 else 'runs'}", end="", file=sys.stderr, flush=True)

    def take(name: str, line: str) -> None:
        row = json.loads(line)
        rows[name][run_key(row)] = row
        progress()

    if threads == 1:
        for p in procs.values():
            try:
                p.stdin.write(" ".join(map(str, deals)))
                p.stdin.close()
            except BrokenPipeError:      # the build has ended already: its exit status says why
                pass

        def read(name: str) -> None:   # each build's rows as they come, so neither pipe fills
            for line in procs[name].stdout:
                take(name, line)

        readers = [threading.Thread(target=read, args=(name,), daemon=True) for name in builds]
    else:
        def drive() -> None:           # one thread drives both builds in turn, deal by deal
            try:
                for deal in deals:
                    for name, p in procs.items():
                        p.stdin.write(f"{deal}\n")
                        p.stdin.flush()
                        for _ in seeds:
                            line = p.stdout.readline()
                            if not line:
                                return
                            take(name, line)
                for p in procs.values():
                    p.stdin.close()
            except BrokenPipeError:      # a build ended early: its exit status says why
                return

        readers = [threading.Thread(target=drive, daemon=True)]

    def stop() -> None:
        for p in procs.values():
            p.kill()
        for t in readers:
            t.join()
        for p in procs.values():
            p.wait()
        print(file=sys.stderr)

    def failed() -> None:               # the other build's rows would compare with nothing
        for name, p in procs.items():
            if p.poll() not in (None, 0):
                code = p.returncode
                stop()
                raise SystemExit(f"tail_compare: the {name} build failed (exit status {code}) "
                                 f"after {len(rows[name])} runs")

    for t in readers:
        t.start()
    try:
        while alive := [t for t in readers if t.is_alive()]:
            failed()
            alive[0].join(0.2)
        # The rows are all in, or a build ended early (its pipe closed): a build still waiting
        # for a deal is told there is none, and a build that failed stops the other.
        for p in procs.values():
            try:
                p.stdin.close()
            except OSError:
                pass
        while any(p.poll() is None for p in procs.values()):
            failed()
            time.sleep(0.05)
        failed()
    except KeyboardInterrupt:           # stop both; the rows so far are reported
        stop()
        return rows, True
    print(file=sys.stderr)
    return rows, False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="tail_compare.py", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="game id")
    parser.add_argument("--baseline", required=True, help="python of the baseline build")
    parser.add_argument("--candidate", required=True, help="python of the candidate build")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--bench", help="a saved `solver bench` JSON: its slow deals of GAME")
    source.add_argument("--list", help="a file of deal numbers")
    parser.add_argument("--min-nodes", type=int, default=20000,
                        help="with --bench: deals over this many nodes, and the unknown ones "
                             "(default 20000)")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per deal (default 2)")
    parser.add_argument("--max-memory", type=size, default=size("2G"),
                        help="table bound per deal (default 2G)")
    parser.add_argument("--threads", type=int, choices=(1, 2), default=1,
                        help="threads per deal (solve(threads=...)); with 2 the builds take "
                             "the deals in turn, not at once (default 1)")
    parser.add_argument("--seeds", type=seed_list, default=[0],
                        help="run each deal once with each of these random-line seeds, "
                             "comma-separated (solve(seed=...); 0 the usual search): figures "
                             "over all the runs and per seed (default 0)")
    parser.add_argument("--rank", type=int, default=100,
                        help="report the rank-th slowest deal; with several seeds, per seed "
                             "(the rank times the seeds over all the runs) (default 100)")
    parser.add_argument("--over", type=float, default=0.1,
                        help="count the deals over this many seconds (default 0.1)")
    parser.add_argument("--json", help="also write the rows and figures to this file")
    parser.add_argument("--markdown", help="also write the Markdown table to this file")
    args = parser.parse_args(argv)
    try:
        if args.bench:
            with open(args.bench) as f:
                deals = slow_deals(json.load(f), args.game, args.min_nodes)
            source_text = f"unknown or over {args.min_nodes:,} nodes in {args.bench}"
        else:
            with open(args.list) as f:
                deals = [int(t) for t in f.read().split()]
            source_text = args.list
    except (OSError, ValueError, KeyError) as e:
        parser.error(f"cannot read the deals: {e}")
    deals = list(dict.fromkeys(deals))       # each deal once, in the order given
    if not deals:
        parser.error("no deals to run")
    if args.rank < 1:
        parser.error("--rank must be at least 1")
    if not args.timeout > 0:
        parser.error("--timeout must be above 0")
    try:
        find_game(args.game)
    except UnknownGameError as e:
        parser.error(str(e))
    builds = {}
    for name in ("baseline", "candidate"):
        python = shutil.which(getattr(args, name))
        if python is None:
            parser.error(f"--{name}: no interpreter {getattr(args, name)!r}")
        builds[name] = os.path.abspath(python)     # the workers run in /
    commits = {name: build_commit(python) for name, python in builds.items()}
    order = {d: i for i, d in enumerate(deals)}
    started = time.time()
    rows, interrupted = run_both(builds, args.game, deals, args.timeout, args.max_memory,
                                 args.threads, args.seeds)
    report = {"settings": {"game": args.game, "source": source_text, "deals": deals,
                           "timeout": args.timeout, "max_memory": args.max_memory,
                           "threads": args.threads, "seeds": args.seeds, "rank": args.rank,
                           "over": args.over,
                           "builds": builds, "commits": commits},
              "machine": {"python": platform.python_version()},
              "rows": {name: sorted(rows[name].values(), key=lambda r: (order[r[0]], r[4:]))
                       for name in rows},
              "summary": summary(rows, args.rank * len(args.seeds), args.over),
              "seed_summaries": seed_summaries(rows, args.seeds, args.rank, args.over)
              if len(args.seeds) > 1 else {},
              "interrupted": interrupted, "seconds": time.time() - started}
    table = markdown(report)
    print(table, end="")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)
    if interrupted:
        print(f"tail_compare: interrupted; the figures are of the {report['summary']['deals']} "
              f"deals both builds ran", file=sys.stderr)
    return 1 if report["summary"]["disagree"] else 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
