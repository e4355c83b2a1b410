"""Run ``solver bench`` with the settings of issue 4 and save the results here.

    python benchmarks/run_bench.py [GAME ...] [--deals 1..10000] [--timeout 60] [--max-memory 2G]
                                   [--reference-nodes 10000] [--reference-deals 200] [--jobs N]

Defaults are the issue's targets: every game, deals 1..10,000, 60 s and 2 GiB per deal. The
reference search runs on the first --reference-deals deals of the range (it is slow on
purpose). Results go to benchmarks/results/bench-*.json and .md; the Markdown table is
printed too. Any other option of ``solver bench --help`` can follow and is passed on.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from solver.cli import main

RESULTS = Path(__file__).resolve().parent / "results"


def arguments(argv: "list[str]") -> "list[str]":
    """The ``solver bench`` command line for ``argv``: the issue's settings, then ``argv``.
    ``solver bench``'s own parser reads the games and every option, and keeps the last of an
    option given twice, so ``argv``'s win. (Until the fiftieth session this script parsed
    ``argv`` itself and passed on what it did not know; an option with a value it did not know,
    such as ``--threads 2``, then lost its value to the games when no game was named.)"""
    return ["bench", "--deals", "1..10000", "--timeout", "60", "--max-memory", "2G",
            "--reference-nodes", "10000", "--reference-deals", "200",
            "--jobs", str(os.cpu_count() or 1), "--out", str(RESULTS), *argv]


if __name__ == "__main__":
    sys.exit(main(arguments(sys.argv[1:])))
