"""Two builds at a node cap, no time limit: verdicts and node counts per deal.

    python benchmarks/node_cap.py --baseline OLD/bin/python --candidate NEW/bin/python \\
        --max-nodes 40000000 GAME:N [GAME:N ...] [--max-memory 2G] [--json PATH]

A time limit makes a search's schedule depend on the machine's load (probes stop at half the
time); a node cap does not, so two builds can be compared on long searches even on a busy
machine, and the figures repeat exactly. Each deal runs in each build in turn (one process per
build and deal). Prints one line per deal and the total node ratio; --json saves the rows.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_builds import parse_size  # noqa: E402

WORKER = r"""
import json, sys
from solver import solve
game, number, nodes, memory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
r = solve(game, number, max_nodes=nodes, max_memory=memory, line=False)
print(json.dumps([r.verdict.value, r.stats.nodes, r.stats.seconds]))
"""


def run_one(python: str, game: str, number: int, max_nodes: int, memory: int) -> list:
    out = subprocess.run([python, "-c", WORKER, game, str(number), str(max_nodes), str(memory)],
                         capture_output=True, text=True, check=True, cwd="/")
    return json.loads(out.stdout)


def parse_deal(text: str) -> "tuple[str, int]":
    game, sep, number = text.rpartition(":")
    if not sep or not game or not number.isdigit():
        raise argparse.ArgumentTypeError(f"expected GAME:N, got {text!r}")
    return game, int(number)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="python of the baseline build")
    parser.add_argument("--candidate", required=True, help="python of the candidate build")
    parser.add_argument("--max-nodes", type=int, required=True, help="node cap per deal")
    parser.add_argument("--max-memory", type=parse_size, default=parse_size("2G"),
                        help="table bound per deal (default 2G)")
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("deals", nargs="+", type=parse_deal, metavar="GAME:N")
    args = parser.parse_args(argv)
    rows, totals = [], {"baseline": 0, "candidate": 0}
    for game, number in args.deals:
        row = {"game": game, "deal": number}
        for name in ("baseline", "candidate"):
            verdict, nodes, seconds = run_one(getattr(args, name), game, number, args.max_nodes,
                                              args.max_memory)
            row[name] = {"verdict": verdict, "nodes": nodes, "seconds": seconds}
            totals[name] += nodes
        b, c = row["baseline"], row["candidate"]
        print(f"{game} {number}: {b['verdict']} {b['nodes']:,} → {c['verdict']} {c['nodes']:,} "
              f"nodes ({c['nodes'] / max(b['nodes'], 1):.3f}×)", flush=True)
        rows.append(row)
    print(f"total nodes {totals['baseline']:,} → {totals['candidate']:,} "
          f"({totals['candidate'] / max(totals['baseline'], 1):.3f}×)")
    if args.json:
        Path(args.json).write_text(json.dumps({"max_nodes": args.max_nodes,
                                               "max_memory": args.max_memory, "rows": rows},
                                              indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
