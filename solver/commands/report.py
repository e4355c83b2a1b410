"""``solver report DB...``: the winnability table of survey databases."""
from __future__ import annotations

import json

from ..report import format_markdown, plot_times, read_reports, to_json

NAME = "report"
HELP = "the winnability table of survey databases (markdown or JSON, optional plot)"
DESCRIPTION = """\
Read one or more survey databases (made by 'solver survey') and print, per game: deals, deals
decided, winnable deals, unknown deals, the winnable share in percent, its 95% interval, and
the median, 99th percentile (nearest rank) and maximum solve time in seconds. Where deals were
won through an inner game's line (the rows' via column), a line under the table counts them.

Unknown deals are counted both ways (as Blake and Gent do for Klondike): the share reads
'low–high', low counting every unknown deal as a loss and high as a win; the interval runs from
the Wilson score lower bound of the low count to the Wilson upper bound of the high count.

--format json prints the same numbers as JSON. --plot FILE.png also saves the distribution of
solve times per game (log scale, stacked by verdict) with the winnable share in each panel's
title; it needs matplotlib (the 'plot' extra).

exit status: 0 printed; 2 bad input (missing, corrupt or non-survey database, the same deal in
two databases, --plot without matplotlib or an unwritable plot file)."""


def add_arguments(parser) -> None:
    parser.add_argument("databases", metavar="DB", nargs="+", help="survey database(s)")
    parser.add_argument("--format", choices=["markdown", "json"], default="markdown",
                        help="output format (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE.png", default=None,
                        help="also save a plot of solve times per game")


def run(args) -> int:
    reports = read_reports(args.databases)
    if args.plot:
        plot_times(reports, args.plot)
    if args.format == "json":
        print(json.dumps(to_json(reports, args.databases), indent=2))
    else:
        print(format_markdown(reports))
    return 0
