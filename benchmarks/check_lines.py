"""Solve deals and check every winning line the way a user would: with `solver check`.

    python benchmarks/check_lines.py [GAME ...] --deals A..B [--timeout 2] [--max-memory 2G]

For each game (default: every game) and deal, ``solver.solve`` decides the deal with its line;
each winning line, written out in the notation ``solver solve`` prints, goes to a separate
``python -m solver check GAME N -`` process, which replays it under the pure-Python reference
rules and must say that it wins in that many moves. Prints the verdicts per game and every line that
fails; exits 1 if any failed, else 0. Meant for deals no test has seen (for example
``--deals 5000001..5000060``, Mersenne Twister deal numbers).
"""
from __future__ import annotations

import argparse
import collections
import subprocess
import sys
import tempfile

import solver
from solver.commands.solve import parse_size
from solver.games import GAMES, find_game
from solver.survey import parse_deal_range


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--deals", required=True, help="deal numbers A..B")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per deal (2)")
    parser.add_argument("--max-memory", default="2G", help="table memory per deal (2G)")
    args = parser.parse_args(argv)
    try:
        deals = parse_deal_range(args.deals)
        memory = parse_size(args.max_memory)
    except ValueError as e:
        parser.error(str(e))
    try:
        games = [find_game(g).id for g in args.games] or [g.id for g in GAMES]
    except ValueError as e:
        parser.error(str(e))
    check = [sys.executable, "-m", "solver", "check"]      # the CLI, in a process of its own
    # Run from an empty directory: from a checkout's root, "-m solver" would import the source
    # tree (which has no compiled core unless built in place) instead of the installed package.
    with tempfile.TemporaryDirectory() as empty:
        return check_all(games, deals, args.timeout, memory, check, empty)


def check_all(games, deals, timeout, memory, check, cwd) -> int:
    """Solve every deal of every game and check each winning line with the command ``check``
    run in ``cwd``; print the verdicts and the failures, and return the exit status."""
    failed = 0
    for game in games:
        verdicts = collections.Counter()
        for number in deals:
            result = solver.solve(game, number, timeout=timeout, max_memory=memory)
            verdicts[result.verdict.value] += 1
            if result.verdict.value != "winnable":
                continue
            text = " ".join(str(move) for move in result.moves)
            run = subprocess.run([*check, game, str(number), "-"], input=text,
                                 capture_output=True, text=True, cwd=cwd)
            if run.returncode != 0 or f"wins in {len(result.moves)} moves" not in run.stdout:
                failed += 1
                print(f"FAILED {game} {number}: exit {run.returncode}: "
                      f"{(run.stdout + run.stderr).strip()}", flush=True)
        print(f"{game}: {dict(verdicts)}", flush=True)
    print(f"lines that failed: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
