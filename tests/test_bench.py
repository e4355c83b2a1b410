"""``solver bench`` and solver/bench.py: the figures, the saved files, the command line."""
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from solver import solve
from solver.bench import (BenchSettings, DealRecord, is_greedy, markdown, measure_deal, percentile,
                          run_bench, spread, summarize_game)
from solver.cli import parse_args
from solver.result import Result, Stats, Verdict

GAME_FIGURES = {"deals", "counts", "unknown_reasons", "core_seconds", "wall_seconds",
                "core_total_seconds", "wall_total_seconds", "nodes_per_second", "peak_table_bytes",
                "median_solution_length", "reference", "greedy", "won_via_inner_game",
                "lost_via_outer_game"}
SPREAD = {"median", "p90", "p99", "max"}
REFERENCE_FIGURES = {"deals", "counts", "both_decided", "disagreements", "reference_total_seconds",
                     "core_total_seconds", "reference_total_wall_seconds", "wall_total_seconds",
                     "speedup_search", "speedup_wall", "reference_nodes_per_second"}
GREEDY_FIGURES = {"deals", "median_search_seconds", "median_replay_seconds",
                  "median_search_over_replay", "median_wall_over_replay"}


def record(deal, verdict="winnable", *, core=1.0, wall=2.0, nodes=100, length=None,
           ref_verdict=None, ref_seconds=None, table=1024):
    return DealRecord("intrigue", deal, verdict, None if verdict != "unknown" else "time", nodes,
                      nodes + 1, core, wall, table,
                      solution_length=length if length is not None else
                      (50 if verdict == "winnable" else None),
                      reference_verdict=ref_verdict, reference_reason=None,
                      reference_nodes=None if ref_verdict is None else 10,
                      reference_seconds=ref_seconds,
                      reference_wall_seconds=None if ref_seconds is None else ref_seconds + 1)


# -- the command, end to end -------------------------------------------------------------------

@pytest.fixture(scope="module")
def bench_run(tmp_path_factory):
    """One small run of the command: two games, three deals, the reference on two."""
    import subprocess
    import sys
    out = tmp_path_factory.mktemp("bench")
    result = subprocess.run(
        [sys.executable, "-m", "solver", "bench", "intrigue", "clover", "--deals", "2..4",
         "--timeout", "2", "--reference-nodes", "300", "--reference-deals", "2", "--out", str(out)],
        capture_output=True, text=True, cwd=out, timeout=300)
    return result, out


def test_bench_saves_json_and_markdown(bench_run):
    result, out = bench_run
    assert result.returncode == 0, result.stderr
    json_files, md_files = sorted(out.glob("bench-*.json")), sorted(out.glob("bench-*.md"))
    assert len(json_files) == len(md_files) == 1
    assert json_files[0].stem == md_files[0].stem
    assert result.stdout == md_files[0].read_text()
    # stderr is not a terminal and the run is short: the final progress line, then the files
    progress, saved = result.stderr.splitlines()
    assert progress.startswith(f"[{'#' * 20}] 6/6 100.0% ") and "ETA" in progress
    assert "\r" not in result.stderr and "\x1b" not in result.stderr
    assert saved == f"solver bench: saved {json_files[0]} and {md_files[0]}"


def test_bench_json_has_the_expected_keys(bench_run):
    _, out = bench_run
    data = json.loads(next(out.glob("bench-*.json")).read_text())
    assert data["kind"] == "solver-bench"
    assert {"cpu", "cores", "memory_bytes", "python", "os"} <= set(data["machine"])
    assert data["machine"]["cores"] >= 1
    assert set(data["git"]) == {"commit", "dirty"}
    assert data["settings"]["deals"] == "2..4" and data["settings"]["games"] == ["intrigue", "clover"]
    assert list(data["games"]) == ["intrigue", "clover"]
    for game, figures in data["games"].items():
        assert set(figures) == GAME_FIGURES, game
        assert figures["deals"] == 3 and sum(figures["counts"].values()) == 3
        assert set(figures["core_seconds"]) == set(figures["wall_seconds"]) == SPREAD
        assert set(figures["reference"]) == REFERENCE_FIGURES
        assert figures["reference"]["deals"] == 2
        assert figures["reference"]["disagreements"] == []
        assert set(figures["greedy"]) == GREEDY_FIGURES
        assert figures["peak_table_bytes"] > 0
        t = figures["core_seconds"]
        assert t["median"] <= t["p90"] <= t["p99"] <= t["max"]
    rows = [dict(zip(data["deal_columns"], row)) for row in data["deal_rows"]]
    assert [(r["game"], r["deal"]) for r in rows] == [(g, n) for g in ("intrigue", "clover")
                                                     for n in (2, 3, 4)]
    assert [r["reference_verdict"] is not None for r in rows] == [True, True, False] * 2
    for r in rows:
        assert r["wall_seconds"] >= r["core_seconds"] > 0


def test_bench_rows_match_solve(bench_run):
    _, out = bench_run
    data = json.loads(next(out.glob("bench-*.json")).read_text())
    rows = [dict(zip(data["deal_columns"], row)) for row in data["deal_rows"]]
    intrigue_2 = next(r for r in rows if r["game"] == "intrigue" and r["deal"] == 2)
    again = solve("intrigue", 2)
    assert intrigue_2["verdict"] == again.verdict.value
    assert intrigue_2["nodes"] == again.stats.nodes         # the core is deterministic
    assert intrigue_2["solution_length"] == len(again.moves)


def test_bench_markdown_has_a_row_per_game_in_each_table(bench_run):
    _, out = bench_run
    text = next(out.glob("bench-*.md")).read_text()
    assert text.count("| intrigue | 3 |") == 1           # the core table
    assert "Won via the inner game" not in text          # none of these deals needed it
    assert text.count("| intrigue |") == 4 and text.count("| clover |") == 4
    for heading in ("Compiled core", "Wall time per `solve()`", "Pure-Python reference search",
                    "Greedily winnable deals", "Machine:"):
        assert heading in text


@pytest.mark.parametrize("args, fragment", [
    (["--deals", "5..1"], "reversed"),
    (["--deals", "x"], "bad deal range"),
    (["nosuchgame", "--deals", "1..2"], "unknown game"),
    ([], "--deals"),
    (["--deals", "1..2", "--timeout", "0"], "--timeout"),
    (["--deals", "1..2", "--reference-deals", "-1"], "reference deal count"),
    (["--deals", "1..2", "--jobs", "0"], "--jobs"),
    (["--deals", "1..2", "--threads", "3"], "--threads"),
    (["--deals", "1..2", "--max-memory", "512"], "512M"),
    (["--deals", "1..2", "--seed", "-3"], "bad seed"),
])
def test_bench_bad_input(run_solver, args, fragment):
    result = run_solver("bench", *args)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and fragment in lines[0], result.stderr


def test_bench_help_lists_every_option(run_solver):
    text = " ".join(run_solver("bench", "--help").stdout.split())
    for option in ("--deals", "--timeout", "--max-memory", "--max-nodes", "--reference-nodes",
                   "--reference-deals", "--jobs", "--threads", "--seed", "--out", "exit status",
                   "130 interrupted"):
        assert option in text, option


# -- measuring one deal ------------------------------------------------------------------------

def test_measure_deal_on_a_greedy_deal():
    result = solve("intrigue", 3)
    assert is_greedy(result)                  # 201 nodes for 201 moves: no backtracking
    settings = BenchSettings(("intrigue",), range(3, 4), timeout=5, reference_nodes=5000)
    rec = measure_deal("intrigue", 3, settings)
    assert rec.verdict == "winnable" and rec.solution_length == len(result.moves) == rec.nodes
    assert 0 < rec.greedy_replay_seconds and 0 < rec.greedy_search_seconds
    assert rec.reference_verdict == "winnable" and rec.reference_nodes > 0


def test_measure_deal_skips_greedy_and_reference_when_not_asked():
    settings = BenchSettings(("clover",), range(1, 3), timeout=5, reference_deals=1)
    rec = measure_deal("clover", 2, settings)
    assert rec.verdict == "winnable" and rec.nodes > rec.solution_length     # it backtracked
    assert rec.greedy_replay_seconds is None and rec.greedy_search_seconds is None
    assert rec.reference_verdict is None and rec.reference_seconds is None


def test_jobs_give_the_same_records_as_one_process():
    one = run_bench(BenchSettings(("intrigue", "clover"), range(3, 5), timeout=5, reference_deals=0))
    two = run_bench(BenchSettings(("intrigue", "clover"), range(3, 5), timeout=5, reference_deals=0,
                                  jobs=2))
    assert [(r.game, r.deal, r.verdict, r.nodes) for r in one] == \
           [(r.game, r.deal, r.verdict, r.nodes) for r in two]


def test_two_threads_give_the_same_verdicts_and_leave_out_the_greedy_figure(tmp_path, capsys):
    """--threads 2: solve(threads=2) per deal (same verdicts; every winning line the core found
    is still replayed by solve()), no greedy figure (the nodes add up both threads), and the
    Markdown says so."""
    from solver.cli import main as cli_main
    deals = range(1, 13)
    one = run_bench(BenchSettings(("intrigue",), deals, timeout=20, reference_deals=0))
    assert any(r.greedy_replay_seconds is not None for r in one)     # else the check is empty
    status = cli_main(["bench", "intrigue", "--deals", "1..12", "--timeout", "20",
                       "--reference-deals", "0", "--threads", "2", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0
    data = json.loads(next(tmp_path.glob("bench-*.json")).read_text())
    assert data["settings"]["threads"] == 2
    rows = [dict(zip(data["deal_columns"], row)) for row in data["deal_rows"]]
    assert [(r["deal"], r["verdict"]) for r in rows] == [(r.deal, r.verdict) for r in one]
    assert all(r["greedy_replay_seconds"] is None for r in rows)
    assert "2 threads each" in out and "No search / replay comparison with --threads 2" in out
    with pytest.raises(ValueError, match="thread count"):
        BenchSettings(("intrigue",), deals, threads=0)


def test_bench_solves_each_deal_with_the_seed_and_records_it(tmp_path, capsys):
    """--seed N: each deal as solve(seed=N) (PySol Glencoe 102: other nodes than seed 0's),
    the seed in the JSON settings and the Markdown's first line."""
    from solver.cli import main as cli_main
    assert cli_main(["bench", "pysol-glencoe", "--deals", "102..102", "--max-nodes", "400000",
                     "--reference-deals", "0", "--seed", "7", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    data = json.loads(next(tmp_path.glob("bench-*.json")).read_text())
    assert data["settings"]["seed"] == 7 and "random-lines seed 7" in out
    row = dict(zip(data["deal_columns"], data["deal_rows"][0]))
    assert row["nodes"] == solve("pysol-glencoe", 102, max_nodes=400_000, seed=7).stats.nodes \
        != solve("pysol-glencoe", 102, max_nodes=400_000).stats.nodes
    with pytest.raises(ValueError, match="bad seed"):
        BenchSettings(("intrigue",), range(1, 2), seed=-1)


def test_is_greedy():
    line = ["deal"] * 5
    assert is_greedy(Result("intrigue", "1", Verdict.WINNABLE, line, Stats(nodes=5)))
    assert not is_greedy(Result("intrigue", "1", Verdict.WINNABLE, line, Stats(nodes=6)))
    assert not is_greedy(Result("intrigue", "1", Verdict.UNWINNABLE, [], Stats(nodes=0)))


# -- the figures -------------------------------------------------------------------------------

def test_percentile_nearest_rank():
    values = list(range(1, 101))                  # 1..100
    assert percentile(values, 50) == 50
    assert percentile(values, 90) == 90
    assert percentile(values, 99) == 99
    assert percentile([7, 1, 3], 50) == 3
    assert percentile([5], 99) == 5
    assert percentile([], 50) is None
    assert spread([4, 1, 3, 2]) == {"median": 2, "p90": 4, "p99": 4, "max": 4}


@given(st.lists(st.floats(0, 1e6), min_size=1, max_size=200), st.sampled_from([50, 90, 99]))
def test_percentile_is_a_value_with_p_percent_at_or_below(values, p):
    value = percentile(values, p)
    assert value in values
    at_or_below = sum(v <= value for v in values)
    below = sum(v < value for v in values)
    assert at_or_below >= p / 100 * len(values)
    assert below < p / 100 * len(values)


def test_summarize_game_counts_and_speedup_on_deals_both_decided():
    records = [
        record(1, core=0.001, wall=0.01, ref_verdict="winnable", ref_seconds=1.0, length=40),
        record(2, core=0.003, wall=0.03, ref_verdict="winnable", ref_seconds=2.0, length=60),
        record(3, "unknown", core=2.0, wall=2.0, nodes=1000, ref_verdict="unknown", ref_seconds=9.0),
        record(4, "unwinnable", core=0.5, wall=0.5, ref_verdict=None, table=4096),
        record(5, "winnable", core=0.2, wall=0.3, ref_verdict="unknown", ref_seconds=5.0, length=50),
    ]
    f = summarize_game(records)
    assert f["counts"] == {"winnable": 3, "unwinnable": 1, "unknown": 1}
    assert f["unknown_reasons"] == {"time": 1}
    assert f["core_seconds"] == {"median": 0.2, "p90": 2.0, "p99": 2.0, "max": 2.0}
    assert f["median_solution_length"] == 50
    assert f["peak_table_bytes"] == 4096
    assert f["nodes_per_second"] == pytest.approx((100 * 4 + 1000) / (0.001 + 0.003 + 2 + 0.5 + 0.2))
    ref = f["reference"]
    assert ref["deals"] == 4 and ref["both_decided"] == 2
    assert ref["counts"] == {"winnable": 2, "unwinnable": 0, "unknown": 2}
    assert ref["speedup_search"] == pytest.approx(3.0 / 0.004)
    assert ref["speedup_wall"] == pytest.approx((2.0 + 3.0) / 0.04)
    assert ref["disagreements"] == []


def test_summarize_game_reports_disagreements():
    records = [record(1, "unwinnable", ref_verdict="winnable", ref_seconds=1.0),
               record(2, "winnable", ref_verdict="winnable", ref_seconds=1.0)]
    assert summarize_game(records)["reference"]["disagreements"] == [1]


def test_summarize_game_greedy_ratio():
    a, b, c = record(1), record(2), record(3)
    a.greedy_search_seconds, a.greedy_replay_seconds = 30e-6, 10e-6       # 3x
    b.greedy_search_seconds, b.greedy_replay_seconds = 50e-6, 10e-6       # 5x
    greedy = summarize_game([a, b, c])["greedy"]
    assert greedy["deals"] == 2
    assert greedy["median_search_over_replay"] == pytest.approx(3.0)       # the lower median
    assert greedy["median_wall_over_replay"] == pytest.approx(2.0 / 10e-6)


def test_markdown_from_a_handmade_report():
    records = [record(1, core=0.0005, wall=0.002, ref_verdict="winnable", ref_seconds=0.5)]
    settings = BenchSettings(("intrigue",), range(1, 2), timeout=2, max_memory=1 << 30)
    report = {"settings": settings.to_json(), "solver_version": "0.1.0", "seconds": 12.0,
              "started_at": "2026-01-01T00:00:00+00:00",
              "machine": {"cpu": "Test CPU", "cores": 2, "memory_bytes": 8 << 30,
                          "python": "CPython 3.11.7"},
              "git": {"commit": "0123456789abcdef", "dirty": False},
              "games": {"intrigue": summarize_game(records)}}
    text = markdown(report)
    assert "Test CPU, 2 cores, 8.0 GiB, CPython 3.11.7; commit 0123456789ab;" in text
    assert "| intrigue | 1 | 1 | 0 | 0 | 0.5 | 0.5 | 0.5 | 0.5 |" in text
    assert "| 1,000× | 750× |" in text            # 0.5 / 0.0005 and 1.5 / 0.002 (wall)


# -- benchmarks/run_bench.py -------------------------------------------------------------------

def load_script(name: str):
    """A script of benchmarks/ (not a package) loaded as a module."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_run_bench_defaults_are_the_issue_settings():
    run_bench_script = load_script("run_bench")
    args = parse_args(run_bench_script.arguments([]))
    assert args.command == "bench" and args.games == []
    assert args.deals == "1..10000" and args.timeout == 60 and args.max_memory == 2 << 30
    assert Path(args.out) == run_bench_script.RESULTS
    args = parse_args(run_bench_script.arguments(["clover", "--deals", "1..200", "--timeout", "2",
                                                  "--max-nodes", "99"]))
    assert args.games == ["clover"] and args.deals == "1..200" and args.timeout == 2
    assert args.max_nodes == 99


def test_git_commit_in_the_checkout_and_from_an_archive(tmp_path, monkeypatch):
    """In this checkout the commit is git's HEAD; outside any checkout it is what `git archive`
    wrote into solver/_commit.py, or nothing when that is still the placeholder."""
    from solver import _commit, bench
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(bench.__file__).parent,
                          capture_output=True, text=True)
    if head.returncode == 0:        # the tests run from a checkout (or an installed copy)
        assert bench.git_commit(Path(bench.__file__).parent.parent)["commit"] == head.stdout.strip()
    monkeypatch.setattr(_commit, "COMMIT", "0123abcd" * 5)
    assert bench.git_commit(tmp_path) == {"commit": "0123abcd" * 5, "dirty": None}
    monkeypatch.setattr(_commit, "COMMIT", "$Format:%H$")
    assert bench.git_commit(tmp_path) == {"commit": None, "dirty": None}


# -- benchmarks/run_bench.py --------------------------------------------------------------------

@pytest.mark.parametrize("argv, games", [
    (["--timeout", "2", "--threads", "2", "--jobs", "1"], []),
    (["banner", "--threads", "2", "clover", "--timeout", "2", "--jobs", "1"], ["banner", "clover"]),
])
def test_run_bench_passes_every_option_on_with_or_without_games(argv, games):
    """The issue's settings unless argv says otherwise, and an option run_bench does not know
    keeps its value (``--threads 2`` with no game named was read as a game "2")."""
    args = parse_args(load_script("run_bench").arguments(argv))
    assert args.command == "bench" and args.games == games
    assert (args.threads, args.timeout, args.jobs) == (2, 2.0, 1)
    assert (args.deals, args.max_memory, args.reference_deals) == ("1..10000", 2 << 30, 200)


# -- benchmarks/compare_builds.py ----------------------------------------------------------------

def test_compare_builds_reads_percentiles_like_solver_bench():
    """Both tables of a run must read alike: nearest-rank percentiles, an undecided deal at its
    time limit, and the ratios recomputed from the stored rows."""
    compare = load_script("compare_builds")
    seconds = [0.001 * k for k in range(1, 199)] + [1.5, 1.7]          # 200 deals
    rows = {"baseline": [(n, "winnable", 10, s) for n, s in enumerate(seconds, 1)],
            "candidate": [(n, "winnable", 10, s / 2) for n, s in enumerate(seconds, 1)]}
    rows["baseline"][-1] = (200, "unknown", 10, 1.9)                    # counted as the limit, 2 s
    entry = compare.fill_summaries({"rows": rows}, 2.0)
    base = entry["baseline"]
    assert base["p99"] == percentile(seconds[:-1] + [2.0], 99) == 0.198   # the 198th of 200
    assert base["p90"] == 0.18 and base["counts"] == {"winnable": 199, "unknown": 1}
    assert entry["ratio"]["p99"] == pytest.approx(0.198 / 0.099)
    assert entry["per_deal_ratio_median"] == pytest.approx(2.0)


# -- benchmarks/tail_compare.py -----------------------------------------------------------------

def test_tail_compare_figures_count_an_undecided_deal_as_the_slowest():
    tail = load_script("tail_compare")
    rows = {"baseline": {1: [1, "winnable", 5, 0.30], 2: [2, "unknown", 9, 1.90],
                         3: [3, "unwinnable", 7, 0.05], 4: [4, "winnable", 3, 0.20]},
            "candidate": {1: [1, "winnable", 5, 0.10], 2: [2, "winnable", 9, 0.40],
                          3: [3, "unwinnable", 7, 0.06], 4: [4, "unknown", 3, 2.00],
                          5: [5, "winnable", 1, 9.0]}}          # 5: the baseline never ran it
    s = tail.summary(rows, rank=2, over=0.1)
    assert s["deals"] == 4 and s["both_decided"] == 2 and s["disagree"] == []
    base, cand = s["builds"]["baseline"], s["builds"]["candidate"]
    assert base["rank_seconds"] == 0.30 and cand["rank_seconds"] == 0.40   # 2nd-slowest
    assert tail.summary(rows, rank=1, over=0.1)["builds"]["baseline"]["rank_seconds"] == "unknown"
    assert base["unknown"] == 1 and cand["unknown"] == 1
    assert base["over"] == 3 and cand["over"] == 2        # an unknown deal is over, 0.05 is not
    assert base["both_decided_seconds"] == pytest.approx(0.35)
    assert cand["both_decided_seconds"] == pytest.approx(0.16)
    assert base["only_decided"] == [4] and cand["only_decided"] == [2]
    assert tail.summary(rows, rank=9, over=0.1)["builds"]["baseline"]["rank_seconds"] is None
    rows["candidate"][3] = [3, "winnable", 7, 0.06]
    assert tail.summary(rows, rank=2, over=0.1)["disagree"] == [3]
    assert [tail.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 100, 102)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "100th", "102nd"]


def test_tail_compare_takes_a_bench_runs_slow_deals():
    tail = load_script("tail_compare")
    bench = {"deal_columns": ["game", "deal", "verdict", "nodes", "core_seconds"],
             "deal_rows": [["banner", 1, "unknown", 10, 2.0], ["glencoe", 1, "winnable", 300, 0.1],
                           ["glencoe", 2, "unknown", 5, 2.0], ["glencoe", 3, "winnable", 100, 0.0],
                           ["glencoe", 4, "unwinnable", 101, 0.3]]}
    assert tail.slow_deals(bench, "glencoe", 100) == [1, 2, 4]
    assert tail.slow_deals(bench, "banner", 100) == [1]


def run_tail_compare(tmp_path, deals_text: str, *options) -> dict:
    """tail_compare.py on Glencoe's ``deals_text`` with this interpreter as both builds, rank 1
    and ``options``; it must exit 0. Returns its JSON report."""
    tail = load_script("tail_compare")
    deals = tmp_path / "deals.txt"
    deals.write_text(deals_text)
    out = tmp_path / "tail.json"
    assert tail.main(["glencoe", "--baseline", sys.executable, "--candidate", sys.executable,
                      "--list", str(deals), "--rank", "1", "--json", str(out), *options]) == 0
    return json.loads(out.read_text())


@pytest.mark.parametrize("threads", [1, 2])
def test_tail_compare_runs_both_builds_on_each_deal_once(tmp_path, capsys, threads):
    """Once each, at once (one thread a deal) or in turn (two: `--threads 2`)."""
    report = run_tail_compare(tmp_path, "3 2\n3\n", "--threads", str(threads))
    for name in ("baseline", "candidate"):
        assert [r[0] for r in report["rows"][name]] == [3, 2]
        assert {r[1] for r in report["rows"][name]} == {"winnable"}   # greedy wins, both
    assert report["summary"]["both_decided"] == 2
    assert report["settings"]["threads"] == threads
    # Each build's commit, asked of its own interpreter: here this process's solver.
    from solver.bench import git_commit
    mine = git_commit()
    assert report["settings"]["commits"] == {"baseline": mine, "candidate": mine}
    table = capsys.readouterr().out
    assert "| baseline |" in table
    named = mine["commit"][:7] if mine["commit"] else "commit unknown"
    assert f"Builds: baseline {named}" in table
    assert ("both builds at once" in table) == (threads == 1)
    assert ("2 threads a deal, the builds in turn" in table) == (threads == 2)


def test_tail_compare_reads_each_seed_alone_and_all_together():
    tail = load_script("tail_compare")
    rows = {"baseline": {}, "candidate": {}}
    for deal, s0, s1 in ((1, 0.3, 0.1), (2, 0.2, 2.0), (3, 0.05, 0.02)):
        for seed, sec in ((0, s0), (5, s1)):
            verdict = "unknown" if sec == 2.0 else "winnable"
            for name, scale in (("baseline", 1), ("candidate", 2)):
                rows[name][(deal, seed)] = [deal, verdict, 9, sec * scale, seed]
    assert tail.run_key(rows["baseline"][(2, 5)]) == (2, 5)
    assert tail.run_key([7, "winnable", 1, 0.1]) == 7
    assert tail.run_name((2, 5)) == "2 (seed 5)" and tail.run_name(7) == "7"
    every = tail.summary(rows, rank=2, over=0.1)               # 6 runs: the 2nd slowest
    assert every["deals"] == 6 and every["both_decided"] == 5
    assert every["builds"]["baseline"]["rank_seconds"] == 0.3
    assert every["builds"]["baseline"]["over"] == 3             # 0.3, 0.2 and the unknown run
    per = tail.seed_summaries(rows, [0, 5], rank=1, over=0.1)
    assert per[0]["deals"] == per[5]["deals"] == 3
    assert per[0]["builds"]["baseline"]["rank_seconds"] == 0.3
    assert per[5]["builds"]["baseline"]["rank_seconds"] == "unknown"
    assert per[5]["builds"]["candidate"]["both_decided_seconds"] == pytest.approx(0.24)
    assert tail.seed_list("0,1,7") == [0, 1, 7]


@pytest.mark.parametrize("threads", [1, 2])
def test_tail_compare_runs_each_deal_once_with_each_seed(tmp_path, capsys, threads):
    report = run_tail_compare(tmp_path, "3 2", "--seeds", "0,5", "--threads", str(threads))
    for name in ("baseline", "candidate"):
        assert [(r[0], r[4]) for r in report["rows"][name]] == [(3, 0), (3, 5), (2, 0), (2, 5)]
        assert {r[1] for r in report["rows"][name]} == {"winnable"}
    assert report["settings"]["seeds"] == [0, 5]
    assert report["summary"]["deals"] == 4 and set(report["seed_summaries"]) == {"0", "5"}
    table = capsys.readouterr().out
    assert "4 runs: 2 deals × seeds 0, 5" in table and "2nd-slowest s (1st per seed)" in table
    assert "- seed 0: baseline" in table and "- seed 5: baseline" in table


def test_tail_compare_exits_1_on_two_verdicts(tmp_path, monkeypatch, capsys):
    tail = load_script("tail_compare")
    deals = tmp_path / "deals.txt"
    deals.write_text("7")
    monkeypatch.setattr(tail, "run_both", lambda builds, game, numbers, t, m, *more: ({
        "baseline": {7: [7, "winnable", 1, 0.1]}, "candidate": {7: [7, "unwinnable", 1, 0.1]}},
        False))
    assert tail.main(["glencoe", "--baseline", sys.executable, "--candidate", sys.executable,
                      "--list", str(deals)]) == 1
    assert "Two verdicts for one deal: 7." in capsys.readouterr().out


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("failing", ["baseline", "candidate"])
def test_tail_compare_stops_both_builds_when_one_fails(tmp_path, capsys, threads, failing):
    """A build that fails (say, one older than an option the run uses) ends the run at once: the
    other build, which would run on for nothing, is stopped, and the error names the failed
    one. The builds here are stand-ins: one exits 3, the other would leave a file after 30 s."""
    done = tmp_path / "done"
    scripts = {"fail": "sys.exit(3)\n",
               # the commit query (python -c CODE) fails at once; the worker call runs on
               "slow": "if len(sys.argv) <= 3: sys.exit(1)\n"
                       f"time.sleep(30)\nopen({str(done)!r}, 'w')\n"}
    for name, body in scripts.items():
        (tmp_path / name).write_text(f"#!{sys.executable}\nimport sys, time\n" + body)
        (tmp_path / name).chmod(0o755)
    builds = {"baseline": "slow", "candidate": "slow", failing: "fail"}
    deals = tmp_path / "deals.txt"
    deals.write_text("1 2 3")
    tail = load_script("tail_compare")
    with pytest.raises(SystemExit) as exit_info:
        tail.main(["glencoe", "--baseline", str(tmp_path / builds["baseline"]),
                   "--candidate", str(tmp_path / builds["candidate"]), "--list", str(deals),
                   "--threads", str(threads)])
    assert str(exit_info.value.code) == (f"tail_compare: the {failing} build failed "
                                         "(exit status 3) after 0 runs")
    assert not done.exists()             # and both processes have ended (no waiting for them)
    assert not subprocess.run(["pgrep", "-f", str(tmp_path)], capture_output=True).stdout


@pytest.mark.parametrize("bad", [["--list", "/nonexistent/deals.txt"], ["--list", "{empty}"],
                                 ["--list", "{words}"], ["--list", "{ok}", "--rank", "0"],
                                 ["--list", "{ok}", "--max-memory", "12"],
                                 ["--list", "{ok}", "--baseline", "/nonexistent/python"],
                                 ["--list", "{ok}", "--timeout", "0"],
                                 ["--list", "{ok}", "--threads", "3"],
                                 ["--list", "{ok}", "--seeds", "x"],
                                 ["--list", "{ok}", "--seeds", "-1"],
                                 ["--list", "{ok}", "--seeds", "1,1"],
                                 ["--list", "{ok}", "--seeds", ""],
                                 ["--list", "{ok}", "nosuchgame"]])
def test_tail_compare_rejects_bad_input_in_one_line(tmp_path, capsys, bad):
    tail = load_script("tail_compare")
    files = {"empty": "", "words": "1 two", "ok": "1"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    argv = [a.format(**{k: str(tmp_path / k) for k in files}) for a in bad]
    game = [] if argv[-1] == "nosuchgame" else ["glencoe"]
    with pytest.raises(SystemExit) as exit_info:
        tail.main([*game, "--baseline", sys.executable, "--candidate", sys.executable, *argv])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("tail_compare.py: error:")


# -- benchmarks/node_cap.py ---------------------------------------------------------------------

def test_node_cap_runs_both_builds_and_saves_the_rows(tmp_path, capsys):
    """The same build on both sides searches node for node alike (a node cap makes the search
    repeat exactly), and the saved rows say so."""
    node_cap = load_script("node_cap")
    out = tmp_path / "caps.json"
    assert node_cap.main(["--baseline", sys.executable, "--candidate", sys.executable,
                          "--max-nodes", "3000", "banner:6", "glencoe:2", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["game"], r["deal"]) for r in rows] == [("banner", 6), ("glencoe", 2)]
    for r in rows:
        assert r["baseline"]["nodes"] == r["candidate"]["nodes"] <= 3000
        assert r["baseline"]["verdict"] == r["candidate"]["verdict"]
    assert rows[0]["baseline"]["verdict"] == "unknown"       # banner 6 needs far more nodes
    assert "(1.000×)" in capsys.readouterr().out


def test_node_cap_rejects_a_deal_without_its_game():
    node_cap = load_script("node_cap")
    with pytest.raises(SystemExit) as exit_info:
        node_cap.main(["--baseline", "x", "--candidate", "y", "--max-nodes", "5", "banner"])
    assert exit_info.value.code == 2


def test_deals_won_via_the_inner_game_are_counted_and_named():
    # Glencoe 10 at 4,000 nodes: won via PySol Glencoe (tests/test_inner_game.py)
    settings = BenchSettings(games=("glencoe",), deals=range(9, 11), timeout=60, max_nodes=4000,
                             reference_deals=0)
    records = [measure_deal("glencoe", n, settings) for n in settings.deals]
    assert [r.via for r in records] == [solve("glencoe", n, timeout=60, max_nodes=4000).via
                                        for n in settings.deals]
    assert records[1].via == "pysol-glencoe" and records[1].verdict == "winnable"
    figures = summarize_game(records)
    assert figures["won_via_inner_game"] == sum(1 for r in records if r.via) >= 1
    plain = summarize_game([record(1), record(2)])
    assert plain["won_via_inner_game"] == 0
    from solver.bench import BenchReport, machine_info
    report = BenchReport(settings, records, "now", 1.0, machine_info(),
                         {"commit": None, "dirty": None}).to_json()
    text = markdown(report)
    assert "Won via the inner game" in text
    assert f"glencoe {figures['won_via_inner_game']}." in text


def test_deals_lost_via_the_outer_game_are_counted_apart_from_the_inner_games_wins():
    from dataclasses import replace
    from solver.bench import BenchReport, machine_info
    records = [replace(record(1), game="pysol-laggard-lady", via="pysol-glencoe"),
               replace(record(2, "unwinnable"), game="pysol-laggard-lady", via="pysol-intrigue"),
               replace(record(3, "unwinnable"), game="pysol-laggard-lady"),
               replace(record(4, "unknown"), game="pysol-laggard-lady")]
    figures = summarize_game(records)
    assert (figures["won_via_inner_game"], figures["lost_via_outer_game"]) == (1, 1)
    assert figures["counts"] == {"winnable": 1, "unwinnable": 2, "unknown": 1}
    settings = BenchSettings(games=("pysol-laggard-lady",), deals=range(1, 5), reference_deals=0)
    text = markdown(BenchReport(settings, records, "now", 1.0, machine_info(),
                                {"commit": None, "dirty": None}).to_json())
    assert "the winnable deals above: pysol-laggard-lady 1." in text
    assert "Proved unwinnable via the outer game" in text
    assert "the unwinnable deals above: pysol-laggard-lady 1." in text
    assert summarize_game([record(5)])["lost_via_outer_game"] == 0


def test_markdown_without_reference_or_greedy_deals_says_so_instead_of_empty_tables():
    from solver.bench import BenchReport
    settings = BenchSettings(("clover",), range(2, 3), timeout=5, reference_deals=0)
    records = run_bench(settings)
    assert records[0].reference_verdict is None and records[0].greedy_replay_seconds is None
    text = markdown(BenchReport(settings, records, "2026-01-01T00:00:00+00:00", 1.0).to_json())
    assert "\nThe reference search was not run (--reference-deals 0).\n" in text
    assert "Pure-Python reference search" not in text and "ref. winnable" not in text
    assert "No deal was greedily winnable" in text and "greedy deals" not in text
    assert text.count("| clover |") == 2                # the core and wall tables only
    assert "\n\n\n" not in text


# -- Ctrl-C: the deals measured so far are saved ------------------------------------------------

def interrupt_after(monkeypatch, k):
    """measure_deal as usual for k deals, then Ctrl-C (in the one process of --jobs 1)."""
    from solver import bench
    real, calls = bench.measure_deal, []

    def measure(*args):
        calls.append(args[:2])
        if len(calls) > k:
            raise KeyboardInterrupt
        return real(*args)
    monkeypatch.setattr(bench, "measure_deal", measure)
    return calls


def test_ctrl_c_saves_the_deals_measured_so_far_and_exits_130(tmp_path, monkeypatch, capsys):
    from solver.cli import main as cli_main
    interrupt_after(monkeypatch, 3)
    status = cli_main(["bench", "intrigue", "clover", "--deals", "1..5", "--timeout", "5",
                       "--reference-deals", "0", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert status == 130 and out == ""
    [json_file], [md_file] = tmp_path.glob("bench-*.json"), tmp_path.glob("bench-*.md")
    data = json.loads(json_file.read_text())
    assert data["interrupted"] is True
    assert [row[:2] for row in data["deal_rows"]] == [["intrigue", 1], ["intrigue", 2],
                                                      ["intrigue", 3]]
    assert data["games"]["intrigue"]["deals"] == 3 and data["games"]["clover"]["deals"] == 0
    assert data["settings"]["deals"] == "1..5"
    text = md_file.read_text()
    assert text == markdown(data)
    assert "**The run was interrupted** (Ctrl-C) after 3 of 10 deals" in text
    *progress, last = err.splitlines()
    assert len(progress) == 1 and "3/10 30.0%" in progress[0]       # the final progress line
    assert last == f"solver: interrupted after 3 of 10 deals; saved {json_file} and {md_file}"


def test_ctrl_c_before_the_first_deal_saves_nothing(tmp_path, monkeypatch, capsys):
    from solver.cli import main as cli_main
    interrupt_after(monkeypatch, 0)
    status = cli_main(["bench", "clover", "--deals", "1..3", "--out", str(tmp_path)])
    assert status == 130 and list(tmp_path.iterdir()) == []
    assert capsys.readouterr().err.splitlines()[-1] == (
        "solver: interrupted before the first deal was measured; nothing saved")


def test_a_finished_run_is_not_marked_interrupted(bench_run):
    _, out = bench_run
    assert json.loads(next(out.glob("bench-*.json")).read_text())["interrupted"] is False
    assert "interrupted" not in next(out.glob("bench-*.md")).read_text()


def test_ctrl_c_with_jobs_keeps_the_records_and_stops_the_pool():
    """Ctrl-C reaching the parent while the pool works (here: raised when the 4th record comes
    in): run_bench keeps the 4 records, and no worker process is left."""
    import multiprocessing
    from solver.bench import BenchInterrupted

    class CtrlC:
        done = 0

        def update(self, done, winnable):
            self.done += done
            if self.done == 4:
                raise KeyboardInterrupt

    settings = BenchSettings(("intrigue", "clover"), range(1, 41), timeout=5, reference_deals=0,
                             jobs=2)
    with pytest.raises(BenchInterrupted) as stop:
        run_bench(settings, CtrlC())
    records = stop.value.records
    assert len(records) == 4 and len({(r.game, r.deal) for r in records}) == 4
    order = {"intrigue": 0, "clover": 1}
    assert records == sorted(records, key=lambda r: (order[r.game], r.deal))
    assert multiprocessing.active_children() == []


def test_a_real_ctrl_c_saves_what_was_measured(tmp_path):
    """The signal itself, as a terminal sends it to the process group, with --jobs 1: the
    search in progress stops (SearchInterrupted), the deals before it are saved."""
    from proc_helpers import ctrl_c_group, sigint_default, wait_for_cpu
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver", "bench", "clover", "--deals", "1..100000", "--timeout",
         "1", "--reference-deals", "0", "--out", str(tmp_path)], cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=sigint_default)
    out, err, stop_seconds = ctrl_c_group(proc, lambda: wait_for_cpu(proc.pid, 2.0), 30)
    assert proc.returncode == 130, err
    assert stop_seconds < 5 and out == "" and "Traceback" not in err
    [json_file] = tmp_path.glob("bench-*.json")
    data = json.loads(json_file.read_text())
    measured = len(data["deal_rows"])
    assert data["interrupted"] is True and 0 < measured < 100000
    assert [row[1] for row in data["deal_rows"]] == list(range(1, measured + 1))
    assert err.splitlines()[-1].startswith(
        f"solver: interrupted after {measured} of 100000 deals; saved {json_file} and ")


def test_the_jobs_processes_die_with_a_killed_parent(tmp_path):
    """SIGKILL leaves the parent no chance to stop its --jobs processes: they notice and exit
    rather than go on solving deals nobody will collect (PySol Intrigue 1545 is not decided
    in minutes; one worker searches it, the other waits)."""
    import os
    import signal
    from proc_helpers import cpu_seconds, no_processes_left, session_processes
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver", "bench", "pysol-intrigue", "--deals", "1545", "--timeout",
         "600", "--reference-deals", "0", "--jobs", "2", "--out", str(tmp_path)], cwd=tmp_path,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:          # until a worker has searched for a second
            if max(map(cpu_seconds, session_processes(proc.pid)), default=0) >= 1.0:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("no worker started searching")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert no_processes_left(proc.pid), "the workers outlived their parent"
    finally:
        if proc.poll() is None or session_processes(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
    assert list(tmp_path.glob("bench-*")) == []


@pytest.mark.parametrize("where", ["a-file", "a-file/sub/dir"])
def test_an_out_where_nothing_can_be_saved_is_refused_before_any_deal(tmp_path, monkeypatch,
                                                                      capsys, where):
    """--out naming a file, or a directory under a file: one line, status 2, no deal run."""
    from solver.cli import main as cli_main
    (tmp_path / "a-file").write_text("")
    calls = interrupt_after(monkeypatch, 10 ** 6)          # records the deals measured
    status = cli_main(["bench", "clover", "--deals", "1..3", "--out", str(tmp_path / where)])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and calls == []
    assert err.count("\n") == 1 and "is not a directory" in err and "a-file" in err


def test_a_missing_out_directory_is_made(tmp_path, monkeypatch, capsys):
    from solver.cli import main as cli_main
    status = cli_main(["bench", "clover", "--deals", "1", "--reference-deals", "0",
                       "--out", str(tmp_path / "new" / "dir")])
    assert status == 0
    assert len(list((tmp_path / "new" / "dir").glob("bench-*.json"))) == 1


def test_output_directory_check_refuses_an_unwritable_one(tmp_path, monkeypatch):
    """Without write permission (faked: the tests may run as root, who may write anywhere)."""
    from solver import bench as bench_module
    monkeypatch.setattr(bench_module.os, "access", lambda path, mode: False)
    with pytest.raises(ValueError, match="is not writable"):
        bench_module.check_output_directory(tmp_path)
