"""benchmarks/run_deals.py: a list of deals at given limits, one JSON line each, resumable."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver import solve

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "run_deals.py"


def run(*args, stdin=""):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_rows_are_what_solve_returns_and_a_rerun_skips_them(tmp_path):
    out = tmp_path / "runs.jsonl"
    listing = tmp_path / "deals.txt"
    listing.write_text("# hard and easy\nforget-me-not 35\nintrigue 1  # easy\n\nclover 4\n")
    done = run("--list", listing, "--timeout", "30", "--max-memory", "0.25", "--jobs", "2",
               "--out", out)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["game"], r["deal"]) for r in rows] == [("forget-me-not", 35), ("intrigue", 1),
                                                       ("clover", 4)]
    assert done.stdout.splitlines() == out.read_text().splitlines()
    for row in rows:
        expected = solve(row["game"], row["deal"], timeout=30, max_memory=1 << 28, line=False)
        assert (row["verdict"], row["nodes"], row["via"]) == (
            expected.verdict.value, expected.stats.nodes, expected.via)
        assert row["wall"] >= row["seconds"] >= 0 and row["build"]
    again = run("--games", "clover", "intrigue", "--deals", "1..4", "--timeout", "30",
                "--max-memory", "0.25", "--jobs", "1", "--out", out)
    assert again.returncode == 0, again.stderr
    added = [json.loads(line) for line in out.read_text().splitlines()][len(rows):]
    assert sorted((r["game"], r["deal"]) for r in added) == [
        ("clover", 1), ("clover", 2), ("clover", 3), ("intrigue", 2), ("intrigue", 3),
        ("intrigue", 4)]


def test_the_inner_game_is_named_and_can_be_turned_off():
    # Glencoe 10 at 4,000 nodes: its own search runs out, PySol Glencoe's wins (test_inner_game)
    done = run("--max-nodes", 4000, "--jobs", "1", stdin="glencoe 10\n")
    row = json.loads(done.stdout)
    expected = solve("glencoe", 10, max_nodes=4000, timeout=60, line=False)
    assert row["via"] == expected.via == "pysol-glencoe" and row["verdict"] == "winnable"
    alone = json.loads(run("--max-nodes", 4000, "--jobs", "1", "--no-inner",
                           stdin="glencoe 10\n").stdout)
    assert alone["via"] is None and alone["verdict"] == "unknown"


@pytest.mark.parametrize("args, stdin, fragment", [
    ((), "glencoe x\n", "line 1"),
    ((), "nogame 3\n", "line 1"),
    (("--games", "banner", "--deals", "3..1"), "", "reversed"),
    (("--games", "banner"), "", "go together"),
    (("--timeout", "0"), "banner 1\n", "must be positive"),
])
def test_bad_input_is_one_line_and_status_2(args, stdin, fragment):
    done = run(*args, stdin=stdin)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in done.stderr
