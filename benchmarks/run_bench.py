"""Run ``solver bench`` with the settings of issue 4 and save the results here.

    python benchmarks/run_bench.py [GAME ...] [--deals 1..10000] [--timeout 60] [--max-memory 2G]
                                   [--reference-nodes 10000] [--reference-deals 200] [--jobs N]

Defaults are the issue's targets: every game, deals 1..10,000, 60 s and 2 GiB per deal. The
reference search runs on the first --reference-deals deals of the range (it is slow on
purpose). Results go to benchmarks/results/bench-*.json and .md; the Markdown table is
printed too. Any other option of ``solver bench --help`` can follow and is passed on.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from solver.cli import main

RESULTS = Path(__file__).resolve().parent / "results"


def arguments(argv: "list[str]") -> "list[str]":
    """The ``solver bench`` command line for ``argv``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME")
    parser.add_argument("--deals", default="1..10000")
    parser.add_argument("--timeout", default="60")
    parser.add_argument("--max-memory", default="2G")
    parser.add_argument("--reference-nodes", default="10000")
    parser.add_argument("--reference-deals", default="200")
    parser.add_argument("--jobs", default=str(os.cpu_count() or 1))
    parser.add_argument("--out", default=str(RESULTS))
    known, extra = parser.parse_known_args(argv)
    return ["bench", *known.games, "--deals", known.deals, "--timeout", known.timeout,
            "--max-memory", known.max_memory, "--reference-nodes", known.reference_nodes,
            "--reference-deals", known.reference_deals, "--jobs", known.jobs,
            "--out", known.out, *extra]


if __name__ == "__main__":
    sys.exit(main(arguments(sys.argv[1:])))
