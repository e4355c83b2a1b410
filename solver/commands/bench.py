"""``solver bench [GAME ...] --deals A..B``: time the core on a range of deals (solver/bench.py)."""
from __future__ import annotations

import sys

from ..bench import (DEFAULT_REFERENCE_NODES, DEFAULT_REPLAY_REPEAT, DEFAULT_TIMEOUT,
                     BenchSettings, bench, check_output_directory, default_games, markdown,
                     sigint_ignored, write_results)
from ..games import find_game
from ..survey import Progress, parse_deal_range
from .solve import add_limit_arguments, add_seed_argument, option_type, positive_int

NAME = "bench"
HELP = "benchmark the solver on a range of deals, beside the pure-Python reference search"
DESCRIPTION = f"""\
Solve deals A..B (inclusive) of each GAME (default: every game) and measure, per game: the
counts of winnable / unwinnable / unknown deals; the median, p90, p99 and max seconds per deal,
both as the core's own search time and as the wall time of the whole solve() call (which also
translates the winning line into notation); nodes per second; the peak transposition-table
memory; the median solution length.

Beside it, in the same run and process, the first --reference-deals deals of the range (default:
all) go through the pure-Python reference search with at most --reference-nodes positions per
deal (default {DEFAULT_REFERENCE_NODES}) and the same --timeout. The speed-up is the ratio of
the total times over the deals both searches decided; a deal they decide differently is
reported (it would be a bug). On greedily winnable deals (the core expanded only the positions
of its winning line: nodes = solution length), the core's search time is divided by the time
to replay its own line through the core (best of {DEFAULT_REPLAY_REPEAT} each): how close the
solver is to the floor for a program that must print a line.

The Markdown tables go to stdout; the results are saved under --out (default: the current
directory) as bench-YYYYMMDD-HHMMSS.json (settings, machine, git commit, figures per game,
one row per deal) and .md. Progress (deals done, rate, time elapsed, ETA) goes to stderr: a
bar redrawn in place on a terminal; otherwise (a log file, a pipe) a plain line every 30
seconds (also while one long deal runs: the elapsed time moves on) and one at the end.
--jobs N spreads the deals over N processes (faster; the timings then share the machine).
--threads 2 solves each deal with two threads, as 'solver solve --threads 2' (the exhaustive
search alone beside the usual one; the core's seconds then run to the end of the later
search, and the greedy figure is left out). With both, N processes run 2N threads: on a 2-core
machine --jobs 1 --threads 2 already fills it. --seed N solves each deal as 'solver solve
--seed N' (other random lines in the PySol profiles: their times are partly the luck of the
lines drawn, and a few seeds show how much). benchmarks/README.md explains every figure.

Ctrl-C stops the run (and the --jobs processes) and saves the deals measured so far in the
same two files, with "interrupted": true in the JSON and a line in the Markdown saying after how
many deals; stdout stays empty and one line on stderr names the files. When no deal was
finished, nothing is saved.

exit status: 0 done; 2 bad input (unknown game, bad range or limit, an --out where nothing can
be saved; one line on stderr, before any deal is run);
130 interrupted (the deals measured so far are saved)."""


def add_arguments(parser) -> None:
    parser.add_argument("games", metavar="GAME", nargs="*",
                        help="game ids (default: every game, see 'solver games')")
    parser.add_argument("--deals", metavar="A..B", required=True,
                        help="deal numbers, inclusive (or a single N)")
    add_limit_arguments(parser, timeout_default=DEFAULT_TIMEOUT)
    parser.add_argument("--max-nodes", metavar="N", type=option_type(positive_int), default=None,
                        help="positions per deal for the core (default: no limit)")
    parser.add_argument("--reference-nodes", metavar="N", type=option_type(positive_int),
                        default=DEFAULT_REFERENCE_NODES,
                        help="positions per deal for the reference search (default: %(default)s)")
    parser.add_argument("--reference-deals", metavar="K", type=int, default=None,
                        help="run the reference search on the first K deals of the range only "
                             "(default: every deal; 0: none)")
    parser.add_argument("--jobs", metavar="N", type=option_type(positive_int), default=1,
                        help="processes solving deals at once (default: %(default)s)")
    parser.add_argument("--threads", type=int, choices=(1, 2), default=1,
                        help="threads per deal: 2 runs a second search beside the usual one, as "
                             "'solver solve --threads 2' (default: %(default)s)")
    add_seed_argument(parser)
    parser.add_argument("--out", metavar="DIR", default=".",
                        help="directory for the JSON and Markdown results (default: .)")


def run(args) -> int:
    games = tuple(dict.fromkeys(find_game(g).id for g in args.games)) or default_games()
    settings = BenchSettings(games=games, deals=parse_deal_range(args.deals), timeout=args.timeout,
                             max_memory=args.max_memory, max_nodes=args.max_nodes,
                             reference_nodes=args.reference_nodes,
                             reference_deals=args.reference_deals, jobs=args.jobs,
                             threads=args.threads, seed=args.seed)
    check_output_directory(args.out)
    planned = len(games) * len(settings.deals)
    progress = Progress(planned, sys.stderr).start_heartbeat()
    try:
        report = bench(settings, progress)
    finally:
        progress.finish()
    if report.interrupted:
        measured = len(report.records)
        if not measured:
            print("solver: interrupted before the first deal was measured; nothing saved",
                  file=sys.stderr)
            return 130
        with sigint_ignored():          # a second Ctrl-C must not leave half a file
            json_path, md_path = write_results(report, args.out)
        print(f"solver: interrupted after {measured} of {planned} deals; saved {json_path} "
              f"and {md_path}", file=sys.stderr)
        return 130
    json_path, md_path = write_results(report, args.out)
    print(markdown(report.to_json()), end="")
    print(f"solver bench: saved {json_path} and {md_path}", file=sys.stderr)
    return 0
