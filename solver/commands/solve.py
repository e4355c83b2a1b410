"""``solver solve GAME N [N ...]``: decide deals and print the winning line."""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Sequence
from types import SimpleNamespace

from ..api import solve
from ..deals import deal_from_number
from ..cards import card_name
from ..core import DEFAULT_MAX_MEMORY, SearchInterrupted
from ..games import find_game
from ..result import Result, Verdict
from ..rules import initial_position
from ..survey import parse_deal_range
from .deal import deal_from_args, deal_label, note_range_lookalike

NAME = "solve"
HELP = "decide whether deals can be won and print a winning line"
DESCRIPTION = """\
Decide deal N of GAME (several N in one call, a range with --deals A..B, or the explicit deal
in --deal-file F) with the compiled exhaustive search: winnable (a winning line was found),
unwinnable (every reachable position was searched and none wins) or unknown (a limit ended the
search first: nodes, time, memory or interrupted).

Output: one line per deal on stdout, 'GAME N: VERDICT ...'. For a single winnable deal the
winning line follows, one move a line with the card it moves ('12. 3>u5  7H'); 'solver check'
reads those lines as they are. The search statistics (nodes expanded, distinct states, seconds
of search, transposition-table memory) go to stderr, one line per deal. --json prints instead
one JSON object per deal and line on stdout:
  {"game", "deal", "verdict": "winnable"|"unwinnable"|"unknown", "moves": [...], "length",
   "stats": {"nodes", "states", "seconds", "table_bytes"}, "reason": ...}
with "length" the number of moves and "reason" ("nodes", "time", "memory", "interrupted") only
when the verdict is unknown.

Inner game: where GAME's own search ends at a limit and a smaller game is nested in it (every
move of the smaller game is a move of GAME, on the same cards: Glencoe in Intrigue, PySol
Glencoe in Glencoe and in PySol Laggard Lady, PySol Laggard Lady in PySol Intrigue, Banner in
Devil's Solitaire), the smaller game's search gets the rest of the limits; a line that wins it
wins GAME too, move for move (replayed under GAME's rules before it is printed). The verdict
line then ends '(via GAME2)', and --json adds "via": "GAME2". GAME's own search keeps 2/3 of
the time and node limits (Intrigue 1/2), the smaller game's gets what it left.

Outer game: where both end undecided (or the smaller game is proved lost) with limits left,
and a larger game with lost deals nests GAME (PySol Intrigue for PySol Laggard Lady), the
larger game's search gets what is left; if it proves the deal unwinnable there, GAME's deal is
unwinnable too (a line winning GAME would win the larger game, move for move): 'unwinnable
(via GAME3)', and --json adds "via". --no-inner runs GAME's own search alone with the whole
limits, neither nested game.

Limits (per deal): --max-nodes positions, --timeout seconds, --max-memory bytes for the
search's tables (the transposition table, and the cache and memo it keeps beside it; a number
with an optional K, M, G or T suffix, powers of 1024: 512M, 2G; default 1G; a number with no
unit is bytes and must be at least 1048576, so that 2048 meant as MiB is an error, not a 2 KiB
table). Reaching one gives 'unknown' with the reason and the statistics so far; the search
never exceeds the memory bound. --no-prune turns every pruning rule of the search off
(docs/solver.md): slower, and meant as a soundness check, since the verdicts must not change.

Two threads: --threads 2 runs, beside the usual search, a second search in a second thread,
and the first of the two to decide stops the other: in the PySol profiles, other random
lines to the end game (then the final search); in the other games, the exhaustive search
alone (no probes first). The
second starts 2 ms after the first (at once if the first ends undecided sooner; not at all
if it decides), so a quick deal runs in one thread. Each gets --max-nodes, both end at
--timeout counted from the start, and their tables share --max-memory (the second's at most
half); the statistics add up both threads' nodes (seconds: to the end of the later search).
Unwinnable deals whose proof needs most of the time are decided sooner; the verdict is the
same, but which search finds a winning line first depends on timing, so the line printed may
differ from run to run. Default 1 thread: the same output every run.

Seed: in the PySol profiles the search opens each round of probes with lines drawn at random
through the dealing to the end game. --seed N draws other ones (with --threads 2 the second
search draws those of N with its lowest bit flipped): how long a deal takes, and its winning
line, then change, the verdict never (where both decide). The default, 0, gives the same
search every run. The other games have no random lines and ignore it.

Ctrl-C ends the search promptly and prints the partial result (unknown, reason interrupted,
statistics so far); deals not yet started are not solved.

exit status: one deal: 0 winnable, 1 unwinnable, 3 unknown. Several deals: 0 when every deal
was decided (winnable or unwinnable), 3 when any is unknown. 2 bad input (unknown game, bad
deal number or deal file, bad limit; one line on stderr, nothing solved). 130 interrupted."""

EXIT_WINNABLE, EXIT_UNWINNABLE, EXIT_UNKNOWN, EXIT_INTERRUPTED = 0, 1, 3, 130
EXIT_BY_VERDICT = {Verdict.WINNABLE: EXIT_WINNABLE, Verdict.UNWINNABLE: EXIT_UNWINNABLE,
                   Verdict.UNKNOWN: EXIT_UNKNOWN}
REASONS = {"nodes": "node limit", "time": "time limit", "memory": "memory limit",
           "interrupted": "interrupted"}

_SIZE = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*([kmgt]?)(i?b)?", re.IGNORECASE)
_SIZE_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str) -> int:
    """``"512M"`` -> 536870912: a byte count with an optional K/M/G/T suffix (powers of 1024,
    ``B``/``iB`` allowed after it). Raises ValueError for anything else or a size below 1 byte."""
    match = _SIZE.fullmatch(str(text).strip())
    if not match:
        raise ValueError(f"bad size {text!r}: expected bytes, or a number with K, M, G or T "
                         f"(512M, 2G)")
    size = int(float(match.group(1)) * _SIZE_UNITS[match.group(2).lower()])
    if size < 1:
        raise ValueError(f"bad size {text!r}: must be at least 1 byte")
    return size


MIN_BARE_SIZE = 1 << 20


def parse_limit_size(text: str) -> int:
    """--max-memory of ``solver solve`` and ``solver bench``: a size as parse_size reads it, but
    a bare number (no unit) below 1 MiB is refused, since it is almost surely meant as MiB (as
    ``solver survey`` reads a bare number): ``--max-memory 2048`` would give every deal a
    2 KiB table and "unknown (memory)". A unit says the size is meant: ``64K`` is taken."""
    size = parse_size(text)
    match = _SIZE.fullmatch(str(text).strip())
    if not (match.group(2) or match.group(3)) and size < MIN_BARE_SIZE:
        raise ValueError(f"bad size {text!r}: a number without a unit is bytes, too few for a "
                         f"search; give a unit ({match.group(1)}M, 2G, or {match.group(1)}B "
                         f"for bytes)")
    return size


def format_size(size: int) -> str:
    """Bytes for people: ``96.0 KiB``, ``1.5 GiB``."""
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{int(value)} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"bad number {text!r}: expected a positive integer") from None
    if value < 1:
        raise ValueError(f"bad number {text!r}: expected a positive integer")
    return value


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"bad number of seconds {text!r}: expected a positive number")
    return value


def seed_value(text: str) -> int:
    """An argparse type: a random-lines seed, an integer from 0 to 2**64 - 1."""
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"bad seed {text!r}: expected an integer from 0 to 2**64 - 1") from None
    if not 0 <= value < 1 << 64:
        raise ValueError(f"bad seed {text!r}: expected an integer from 0 to 2**64 - 1")
    return value


def add_seed_argument(parser) -> None:
    """--seed, as ``solver solve`` and ``solver bench`` take it."""
    parser.add_argument("--seed", metavar="N", type=option_type(seed_value), default=0,
                        help="seed of the random lines that open the probe rounds in the PySol "
                             "profiles (see above; other games ignore it): another "
                             "value draws other lines, so the time and the winning line "
                             "change, never the verdict (default: 0, the same search every run)")


def option_type(parse):
    """``parse`` as an argparse type: its ValueError message becomes the usage error."""
    def convert(text):
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return convert


def add_limit_arguments(parser, *, timeout_default=None) -> None:
    """--timeout and --max-memory, as ``solver solve`` and ``solver bench`` take them."""
    default = "no limit" if timeout_default is None else f"{timeout_default:g}"
    parser.add_argument("--timeout", metavar="S", type=option_type(positive_seconds),
                        default=timeout_default,
                        help=f"seconds per deal before it counts as unknown (default: {default})")
    parser.add_argument("--max-memory", metavar="SIZE", type=option_type(parse_limit_size),
                        default=DEFAULT_MAX_MEMORY,
                        help="memory for the search's tables per deal: 512M, 2G ... (powers "
                             "of 1024), or bytes; a number without a unit must be at least "
                             "1048576 (default: 1G)")


def add_arguments(parser) -> None:
    parser.add_argument("game", metavar="GAME", help="game id (see 'solver games')")
    parser.add_argument("numbers", metavar="N", nargs="*",
                        help="deal numbers: N or msN (omit with --deal-file). As in PySol, "
                             "the characters '# - _ . ,' and spaces inside N are ignored, so "
                             "'1..5' is deal 15: a range is --deals")
    parser.add_argument("--deals", metavar="A..B", type=option_type(parse_deal_range),
                        help="also every deal from A to B (inclusive, plain numbers), after "
                             "any N")
    parser.add_argument("--deal-file", metavar="F",
                        help="solve the deal in file F ('-' for stdin) instead of numbers")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per deal and line")
    parser.add_argument("--max-nodes", metavar="N", type=option_type(positive_int), default=None,
                        help="positions expanded per deal before it counts as unknown "
                             "(default: no limit)")
    add_limit_arguments(parser)
    parser.add_argument("--no-prune", action="store_true",
                        help="turn every pruning rule off (a soundness check: same verdicts, slower)")
    parser.add_argument("--no-inner", action="store_true",
                        help="do not try the nested smaller or larger game when the search "
                             "runs out (see 'Inner game' and 'Outer game' above)")
    parser.add_argument("--threads", type=int, choices=(1, 2), default=1,
                        help="2: run a second search beside the usual one in a second thread "
                             "(see 'Two threads' above; default: 1)")
    add_seed_argument(parser)
    parser.set_defaults(parser=parser)


class DealList(Sequence):
    """The deals the arguments name: those of the N's (built and checked at once), then those
    of --deals A..B (built one at a time as they are solved, so a long range starts at once)."""

    def __init__(self, game: str, first: list, numbers: range):
        self.game, self.first, self.numbers = game, first, numbers

    def __len__(self) -> int:
        return len(self.first) + len(self.numbers)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index < len(self.first):
            return self.first[index]
        return deal_from_number(find_game(self.game), self.numbers[index - len(self.first)])


def deals_from_args(args) -> Sequence:
    """Every deal the arguments name, checked before any is solved."""
    numbers = args.deals if args.deals is not None else range(0)
    if (args.numbers or numbers) and args.deal_file is not None:
        args.parser.error("give deal numbers (N or --deals) or --deal-file, not both")
    if not args.numbers and not numbers:
        return [deal_from_args(args.parser, SimpleNamespace(game=args.game, number=None,
                                                            deal_file=args.deal_file))]
    game = find_game(args.game)
    first = [deal_from_number(game, number) for number in args.numbers]
    for text, deal in zip(args.numbers, first):
        note_range_lookalike(args.parser.prog, text, deal,
                             f"; for a range give --deals {text.strip()}")
    return DealList(args.game, first, numbers)


def verdict_line(label: str, result: Result) -> str:
    """``intrigue 1: winnable in 212 moves``, ``banner 1: unknown (time limit)``,
    ``pysol-laggard-lady 6913: unwinnable (via pysol-intrigue)``."""
    if result.verdict is Verdict.WINNABLE:
        count = len(result.moves) or result.length
        via = f" (via {result.via})" if result.via else ""
        return f"{label}: winnable in {count} move{'s' if count != 1 else ''}{via}"
    if result.verdict is Verdict.UNKNOWN:
        return f"{label}: unknown ({REASONS.get(result.reason, result.reason)})"
    return f"{label}: unwinnable" + (f" (via {result.via})" if result.via else "")


def stats_line(label: str, result: Result) -> str:
    """The search statistics, for stderr."""
    s = result.stats
    return (f"{label}: {s.nodes} nodes, {s.states} states, {s.seconds:.6f} s of search, "
            f"table {format_size(s.table_bytes)}")


def solution_lines(game, deal, moves) -> list[str]:
    """``12. 3>u5  7H``: each move with the card it moves, replayed from the reference position."""
    position = initial_position(game, deal)
    lines = []
    for index, move in enumerate(moves, start=1):
        card = position.moved_card(move)
        lines.append(f"{index}. {move}  {card_name(card)}" if card is not None else f"{index}. {move}")
        position.play(move)
    return lines


def report(args, deal, result: Result, *, show_line: bool) -> None:
    """Print one deal's result (and its winning line when ``show_line``)."""
    if args.json:
        print(json.dumps(result.to_json()), flush=True)
        return
    label = deal_label(deal)
    print(verdict_line(label, result))
    if show_line and result.verdict is Verdict.WINNABLE:
        print("\n".join(solution_lines(deal.game, deal, result.moves)))
    sys.stdout.flush()
    print(stats_line(label, result), file=sys.stderr, flush=True)


def run(args) -> int:
    find_game(args.game)                        # an unknown game before a missing N
    deals = deals_from_args(args)
    single = len(deals) == 1
    statuses = []
    for deal in deals:
        try:
            result = solve(deal.game, deal, max_nodes=args.max_nodes, timeout=args.timeout,
                           max_memory=args.max_memory, prune=not args.no_prune,
                           inner=not args.no_inner, threads=args.threads, seed=args.seed)
        except SearchInterrupted as interrupted:
            report(args, deal, interrupted.result, show_line=False)
            return EXIT_INTERRUPTED
        report(args, deal, result, show_line=single)
        statuses.append(EXIT_BY_VERDICT[result.verdict])
    if single:
        return statuses[0]
    return EXIT_UNKNOWN if EXIT_UNKNOWN in statuses else EXIT_WINNABLE
