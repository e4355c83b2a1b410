"""``solver survey GAME --deals A..B``: solve a range of deals into an SQLite database."""
from __future__ import annotations

import sys

from ..games import find_game
from .solve import _SIZE, option_type, parse_size
from ..survey import (DEFAULT_CHUNK_SIZE, DEFAULT_TIMEOUT, Limits, format_deal_range,
                      parse_deal_range, run_survey)

NAME = "survey"
HELP = "solve a range of deals into an SQLite database (resumable; all cores or a Dask cluster)"
DESCRIPTION = f"""\
Solve deals A..B of GAME (inclusive; a single N works too) and store one row per deal in the
SQLite database --db: game, deal, verdict, reason, nodes, seconds, solution length, the limits
used (timeout, max nodes, max memory, threads), solver version and time. Workers solve chunks
of --chunk-size deals; the parent writes each finished chunk in one transaction (WAL mode), so
Ctrl-C or a killed process loses at most the chunks in flight and never corrupts the database.

Resuming: rerun the same command. Deals with a winnable or unwinnable row are skipped. An
unknown row (a limit stopped the search) is solved again only when the new limits allow more
search: no limit smaller and at least one larger (--timeout, --max-nodes, --max-memory, and
--threads: two threads at the same limits count as more search than one); otherwise it is
skipped too. A database holds one game: the game of its first survey (use one --db per game;
'solver report' reads several).

Limits: --timeout seconds per deal (default {DEFAULT_TIMEOUT:g}; wall time, so results near the
limit depend on the machine), --max-nodes positions per deal (deterministic) and --max-memory
per deal for the search's tables (the transposition table and what the search keeps beside it;
each worker holds one set): a plain number is MiB (2048), a number with a unit is a size as
'solver solve' takes it (512M, 2G). --threads 2 solves each deal with two threads, as 'solver solve
--threads 2': a second search runs beside the usual one, to the same limits and
within the same memory. It is meant for a retry of the unknown deals at longer limits: on a
range of quick deals --workers already keeps every core busy. Each worker runs two threads, so
the default --workers is then one per two cores; an explicit --workers N runs 2N threads.

Work runs on a local process pool of --workers processes (default: every core, one per two cores
with --threads 2) or, with --scheduler tcp://HOST:PORT, on that Dask cluster (needs the 'dask'
extra, and the solver installed on its workers). Progress (deals done, rate, time elapsed, ETA,
winnable so far) goes to stderr: a bar redrawn in place on a terminal; otherwise (a log file, a
pipe) a plain line every 30 seconds (also while long deals run: the elapsed time moves on) and
one at the end. The last line on stdout sums up the range.

exit status: 0 done; 2 bad input (unknown game, empty or reversed range, a database that is
read-only, corrupt, not a survey database or bound to another game, an unreachable scheduler),
with nothing written; 130 interrupted (committed chunks are kept; rerun to continue)."""


def add_arguments(parser) -> None:
    parser.add_argument("game", metavar="GAME", help="game id (see 'solver games')")
    parser.add_argument("--deals", metavar="A..B", required=True,
                        help="deal numbers to solve, inclusive (or a single N)")
    parser.add_argument("--db", metavar="FILE", default="results.sqlite",
                        help="SQLite database to fill (default: %(default)s)")
    parser.add_argument("--workers", metavar="N", type=int, default=None,
                        help="local worker processes (default: every core; with --threads 2, one "
                             "per two cores)")
    parser.add_argument("--timeout", metavar="S", type=float, default=DEFAULT_TIMEOUT,
                        help="seconds per deal before it counts as unknown (default: %(default)g)")
    parser.add_argument("--max-nodes", metavar="N", type=int, default=None,
                        help="positions per deal before it counts as unknown (default: no limit)")
    parser.add_argument("--max-memory", metavar="M", type=option_type(parse_memory),
                        default=None,
                        help="memory for the search's tables per deal and worker: MiB (2048) or "
                             "a size with a unit (512M, 2G) (default: solve()'s, 1G)")
    parser.add_argument("--threads", type=int, choices=(1, 2), default=1,
                        help="threads per deal: 2 runs a second search beside the usual one, as "
                             "'solver solve --threads 2' (default: %(default)s)")
    parser.add_argument("--chunk-size", metavar="N", type=int, default=DEFAULT_CHUNK_SIZE,
                        help="deals per task handed to a worker (default: %(default)s)")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="run on the Dask cluster of this scheduler (tcp://HOST:PORT)")


def parse_memory(text: str) -> int:
    """--max-memory in bytes: a plain number is MiB ("2048", "0.5"), as the command has always
    read it, so that a survey is resumed by the same command; a number with a unit is a size as
    ``solver solve`` reads it ("512M", "2G", "65536K", "1048576B")."""
    bad = ValueError(f"bad memory size {text!r}: expected a positive number of MiB, or a size "
                     f"with a unit (512M, 2G)")
    match = _SIZE.fullmatch(str(text).strip())
    if not match:
        raise bad
    if match.group(2) or match.group(3):
        return parse_size(text)
    size = int(float(match.group(1)) * (1 << 20))
    if size < 1:
        raise bad
    return size


def run(args) -> int:
    game = find_game(args.game)
    deals = parse_deal_range(args.deals)
    limits = Limits(args.timeout, args.max_nodes, args.max_memory, args.threads)
    summary = run_survey(game, deals, args.db, limits=limits, workers=args.workers,
                         chunk_size=args.chunk_size, scheduler=args.scheduler)
    if summary.interrupted:
        saved = sum(summary.counts.values())
        print(f"solver: interrupted: {saved} of {len(deals)} deals of {game.id} "
              f"{format_deal_range(deals)} are in {args.db} ({summary.solved} from this run); "
              f"rerun the same command to continue", file=sys.stderr)
        return 130
    print(summary.describe())
    return 0
