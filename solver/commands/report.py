"""``solver report DB...``: the winnability table of survey databases."""
from __future__ import annotations

import json
import sys

from ..report import (check_nesting, format_markdown, plot_times, read_rows, reports_from_rows,
                      to_json)

NAME = "report"
HELP = "the winnability table of survey databases (markdown or JSON, optional plot)"
DESCRIPTION = """\
Read one or more survey databases (made by 'solver survey') and print, per game: deals, deals
decided, winnable deals, unknown deals, the winnable share in percent, its 95% interval, and
the median, 99th percentile (nearest rank) and maximum solve time in seconds. Where deals were
won through an inner game's line, or proved lost through an outer game (the rows' via column),
a line under the table counts each.

Unknown deals are counted both ways (as Blake and Gent do for Klondike): the share reads
'low–high', low counting every unknown deal as a loss and high as a win; the interval runs from
the Wilson score lower bound of the low count to the Wilson upper bound of the high count.

Nested games: where the databases hold two games whose rule sets nest (docs/rules.md, "Nested
rule sets": a deal won in the smaller game is won in the larger, one unwinnable in the larger
is unwinnable in the smaller), a second table holds the pair's common deals to it: how many
both decided, how many contradict it (won in the smaller game and unwinnable in the larger:
one of the two verdicts is wrong), and how many it decides where the solver did not (unknown
in the larger game and won in the smaller: winnable; unknown in the smaller and unwinnable in
the larger: unwinnable), with those deals listed. The first table counts the solver's own
verdicts only.

--format json prints the same numbers as JSON, the nesting checks with every deal listed.
--plot FILE.png also saves the distribution of solve times per game (log scale, stacked by
verdict) with the winnable share in each panel's title; it needs matplotlib (the 'plot' extra).

exit status: 0 printed; 1 printed, but a deal contradicts the nesting (one line on stderr names
the pairs; please report it); 2 bad input (missing, corrupt or non-survey database, the same
deal in two databases, --plot without matplotlib or an unwritable plot file)."""


def add_arguments(parser) -> None:
    parser.add_argument("databases", metavar="DB", nargs="+", help="survey database(s)")
    parser.add_argument("--format", choices=["markdown", "json"], default="markdown",
                        help="output format (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE.png", default=None,
                        help="also save a plot of solve times per game")


def run(args) -> int:
    rows = read_rows(args.databases)
    reports = reports_from_rows(rows)
    nesting = check_nesting(rows)
    if args.plot:
        plot_times(reports, args.plot)
    if args.format == "json":
        print(json.dumps(to_json(reports, args.databases, nesting), indent=2))
    else:
        print(format_markdown(reports, nesting))
    wrong = [f"{c.smaller} ⊂ {c.larger} {len(c.contradictions)}" for c in nesting
             if c.contradictions]
    if wrong:
        print(f"solver: error: deals contradict the nesting of the rule sets ({', '.join(wrong)}): "
              f"a verdict is wrong; please report it", file=sys.stderr)
        return 1
    return 0
