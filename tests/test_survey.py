"""Surveys: ranges, resuming, the unknown/retry rule, bad input, Dask, and real killed processes."""
from __future__ import annotations

import io
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from proc_helpers import ctrl_c_group, no_processes_left, sigint_default

import solver
from solver import survey
from solver.cli import main as cli_main
from solver.commands.solve import parse_size
from solver.commands.survey import parse_memory
from solver.survey import Limits, Progress, parse_deal_range, run_survey

GAME = "clover"
NODES = 50_000               # a deterministic limit: the same rows on every run
KILL_RANGE = range(1, 301)   # ~3 s on two cores with the compiled core: time to kill it midway


def survey_command(db, deals=KILL_RANGE, *extra):
    return [sys.executable, "-m", "solver", "survey", GAME, "--deals", survey.format_deal_range(deals),
            "--max-nodes", str(NODES), "--timeout", "60", "--workers", "2", "--chunk-size", "2",
            "--db", str(db), *extra]


def read_rows(db) -> dict[int, tuple]:
    """deal -> (verdict, nodes, solution_length), read without writing."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return {deal: (verdict, nodes, length) for deal, verdict, nodes, length in conn.execute(
            "SELECT deal, verdict, nodes, solution_length FROM results")}


def count_rows(db) -> int:
    if not os.path.exists(db):
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.OperationalError:      # not created yet
        return 0


def wait_for_rows(db, proc, at_least: int, limit: float = 60.0) -> int:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        n = count_rows(db)
        if n >= at_least:
            return n
        assert proc.poll() is None, f"survey ended early: {proc.communicate()}"
        time.sleep(0.02)
    raise AssertionError(f"no {at_least} rows after {limit} s")


@pytest.fixture(scope="module")
def reference_rows(tmp_path_factory):
    """An uninterrupted run of KILL_RANGE, in-process."""
    db = tmp_path_factory.mktemp("reference") / "reference.sqlite"
    summary = run_survey(GAME, KILL_RANGE, str(db), limits=Limits(60, NODES), workers=2, chunk_size=4)
    assert not summary.interrupted and summary.solved == len(KILL_RANGE)
    return read_rows(db)


# --- ranges and limits -----------------------------------------------------------------------


def test_deal_ranges_are_inclusive():
    assert parse_deal_range("1..10") == range(1, 11)
    assert parse_deal_range(" 7 ") == range(7, 8)
    assert parse_deal_range("5..5") == range(5, 6)


@pytest.mark.parametrize("text", ["10..1", "", "..", "0..5", "3..", "a..b", "1..2..3", "-4..2"])
def test_bad_deal_ranges(text):
    with pytest.raises(ValueError, match="bad deal range"):
        parse_deal_range(text)


@given(st.integers(1, 10**12), st.integers(0, 10**6))
def test_deal_range_round_trip(first, extra):
    deals = parse_deal_range(f"{first}..{first + extra}")
    assert (deals.start, len(deals)) == (first, extra + 1)
    assert parse_deal_range(survey.format_deal_range(deals)) == deals


@pytest.mark.parametrize("new, old, retry", [
    (Limits(20, None), Limits(10, None), True),       # more time
    (Limits(10, None), Limits(10, None), False),      # same limits: same answer
    (Limits(5, None), Limits(10, None), False),       # less time
    (Limits(10, 500), Limits(10, 100), True),         # more nodes
    (Limits(10, None), Limits(10, 100), True),        # node limit lifted
    (Limits(10, 100), Limits(10, None), False),       # node limit added
    (Limits(20, 50), Limits(10, 100), False),         # more time but fewer nodes
    (Limits(None, 100), Limits(10, 100), True),       # time limit lifted
    (Limits(10, None, 2 << 30), Limits(10, None), True),   # a bigger table than the default
    (Limits(10, None), Limits(10, None, 1 << 30), False),  # the default is 1 GiB
    (Limits(10, None, 1 << 20), Limits(10, None), False),  # a smaller table
    (Limits(10, None, threads=2), Limits(10, None), True),  # two threads, the same limits
    (Limits(10, None), Limits(10, None, threads=2), False),  # one thread after two
    (Limits(20, None), Limits(10, None, threads=2), False),  # more time but one thread
    (Limits(20, None, threads=2), Limits(10, None, threads=2), True),  # more time, two threads
])
def test_unknown_rows_are_retried_only_under_larger_limits(new, old, retry):
    assert new.extends(old) is retry


@pytest.mark.parametrize("timeout, nodes, memory, threads", [
    (0, None, None, 1), (-1, None, None, 1), (float("nan"), None, None, 1), (1, 0, None, 1),
    (1, None, 0, 1), (1, None, None, 0), (1, None, None, 3)])
def test_bad_limits(timeout, nodes, memory, threads):
    with pytest.raises(ValueError):
        Limits(timeout, nodes, memory, threads)


# --- the survey through the Python API -------------------------------------------------------


def test_rows_are_what_solve_returns(tmp_path):
    db = tmp_path / "s.sqlite"
    deals = range(1, 13)
    summary = run_survey(GAME, deals, str(db), limits=Limits(60, NODES), workers=2, chunk_size=5)
    assert (summary.solved, summary.skipped, summary.interrupted) == (12, 0, False)
    rows = read_rows(db)
    for n in deals:
        result = solver.solve(GAME, n, timeout=60, max_nodes=NODES)
        length = len(result.moves) if result.verdict is solver.Verdict.WINNABLE else None
        assert rows[n] == (result.verdict.value, result.stats.nodes, length)
    assert sum(summary.counts.values()) == 12
    assert summary.counts["winnable"] == sum(1 for v, _, _ in rows.values() if v == "winnable")
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert set(conn.execute("SELECT timeout, max_nodes, max_memory, solver_version, threads "
                                "FROM results")) == {(60.0, NODES, None, solver.__version__, 1)}


def test_command_line_survey_stores_its_limits(tmp_path, capsys):
    db = tmp_path / "cli.sqlite"
    status, out, err = run_cli(capsys, "survey", GAME, "--deals", "3..6", "--db", str(db),
                               "--workers", "1", "--timeout", "30", "--max-nodes", "500",
                               "--max-memory", "64")
    assert status == 0
    # stderr is not a terminal and the run is short: only the final progress line
    assert PROGRESS_LINE.fullmatch(err.rstrip("\n")) and "4/4 100.0%" in err, err
    assert out.startswith(f"{GAME} 3..6: 4 of 4 deals in {db} (")
    with sqlite3.connect(db) as conn:
        assert set(conn.execute("SELECT timeout, max_nodes, max_memory FROM results")) == {
            (30.0, 500, 64 << 20)}
        assert sorted(d for (d,) in conn.execute("SELECT deal FROM results")) == [3, 4, 5, 6]


@pytest.mark.parametrize("option, stored", [("64M", 64 << 20), ("0.5", 1 << 19),
                                            ("1G", 1 << 30), ("65536K", 64 << 20)])
def test_command_line_survey_takes_sizes_with_units(tmp_path, capsys, option, stored):
    db = tmp_path / "cli.sqlite"
    status, out, err = run_cli(capsys, "survey", GAME, "--deals", "3..4", "--db", str(db),
                               "--workers", "1", "--max-nodes", "500", "--max-memory", option)
    assert status == 0, err
    with sqlite3.connect(db) as conn:
        assert set(conn.execute("SELECT max_memory FROM results")) == {(stored,)}


@given(st.integers(1, 1 << 20))
def test_survey_memory_plain_numbers_are_mib_and_units_are_solves(n):
    assert parse_memory(str(n)) == n << 20
    assert parse_memory(f"{n}M") == parse_size(f"{n}M") == n << 20
    assert parse_memory(f"{n}K") == parse_size(f"{n}K") == n << 10
    assert parse_memory(f"{n}B") == parse_size(f"{n}B") == n


def test_rerun_skips_decided_deals_and_retries_unknown_ones_with_more_room(tmp_path):
    db = str(tmp_path / "s.sqlite")
    first = run_survey(GAME, range(1, 6), db, limits=Limits(60, 200), workers=1)
    assert first.solved == 5
    grown = run_survey(GAME, range(1, 11), db, limits=Limits(60, 200), workers=1)
    assert (grown.solved, grown.skipped) == (5, 5)
    unknown = [n for n, (v, _, _) in read_rows(db).items() if v == "unknown"]
    assert unknown, "the fixture needs unknown rows at 200 nodes"
    assert run_survey(GAME, range(1, 11), db, limits=Limits(60, 200), workers=1).solved == 0
    assert run_survey(GAME, range(1, 11), db, limits=Limits(60, 100), workers=1).solved == 0
    wider = run_survey(GAME, range(1, 11), db, limits=Limits(60, 2000), workers=1)
    assert (wider.solved, wider.skipped) == (len(unknown), 10 - len(unknown))
    rows = read_rows(db)
    for n in unknown:
        assert rows[n][1] > 200 or rows[n][0] == "winnable"
    with sqlite3.connect(db) as conn:
        limits = dict(conn.execute("SELECT deal, max_nodes FROM results"))
    assert {limits[n] for n in unknown} == {2000}


PROGRESS_LINE = re.compile(r"\[[#.]{20}\] \d+/\d+ \d+\.\d% +\d+\.\d deals/s +elapsed \d+:\d\d:\d\d +"
                           r"ETA [-:\d]+ +"
                           r"winnable \d+ \((\d+\.\d%|-)\)")


def test_progress_bar_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    ticks = iter([0.0, 1.0, 2.0, 3.0, 4.0])
    term = Terminal()
    bar = Progress(10, term, clock=lambda: next(ticks), interval=0)
    bar.update(2, 1)          # at t=1: 2 deals/s, 8 left -> ETA 4 s
    bar.update(2, 0)          # at t=2
    bar.finish()
    text = term.getvalue()
    assert text.startswith("\r") and text.count("\r") == 3 and "\x1b[K" in text
    assert "2/10" in text and "2.0 deals/s" in text and "ETA 0:00:04" in text
    assert "4/10" in text and "winnable 1 (25.0%)" in text and text.endswith("\n")
    assert text.count("\n") == 1


def test_progress_lines_when_not_a_terminal():
    """A log file gets whole lines, no carriage return or escape, at most one per
    line_interval, and the final state at finish()."""
    ticks = iter([0.0, 10.0, 31.0, 40.0, 62.0, 65.0, 80.0])
    log = io.StringIO()
    bar = Progress(10, log, clock=lambda: next(ticks), line_interval=30)
    bar.update(1, 1)          # t=10: too early for a line
    assert log.getvalue() == ""
    bar.update(2, 0)          # t=31: a line, 3 done
    bar.update(2, 1)          # t=40: 9 s after the last line
    bar.update(2, 0)          # t=62: a line, 7 done
    bar.update(1, 0)          # t=65
    bar.finish()              # t=80: 8 done, 0.1 deals/s, 2 left -> ETA 20 s
    text = log.getvalue()
    assert "\r" not in text and "\x1b" not in text and text.endswith("\n")
    lines = text.splitlines()
    assert len(lines) == 3 and all(PROGRESS_LINE.fullmatch(line) for line in lines), lines
    assert "3/10 30.0%" in lines[0] and "winnable 1 (33.3%)" in lines[0]
    assert "7/10 70.0%" in lines[1] and "winnable 2 (28.6%)" in lines[1]
    assert "8/10 80.0%  0.1 deals/s  elapsed 0:01:20  ETA 0:00:20" in lines[2]


def test_progress_lines_of_a_short_run_are_only_the_final_one():
    log = io.StringIO()
    bar = Progress(4, log)                        # the real clock, the default 30 s
    for _ in range(4):
        bar.update(1, 0)
    bar.finish()
    lines = log.getvalue().splitlines()
    assert len(lines) == 1 and "4/4 100.0%" in lines[0] and PROGRESS_LINE.fullmatch(lines[0])
    ticks = iter([0.0, 30.0, 31.0])
    log = io.StringIO()
    bar = Progress(4, log, clock=lambda: next(ticks))
    bar.update(4, 0)                              # t=30: a line, already the final state
    bar.finish()                                  # not written twice
    assert len(log.getvalue().splitlines()) == 1


def test_progress_tick_draws_on_time_alone():
    """tick() (the heartbeat) writes when the time has come even though no deal finished: the
    elapsed clock moves on during a long deal."""
    ticks = iter([0.0, 20.0, 31.0, 40.0, 61.5, 70.0])
    log = io.StringIO()
    bar = Progress(10, log, clock=lambda: next(ticks), line_interval=30)
    bar.tick()                # t=20: too early
    bar.tick()                # t=31: a line, nothing done yet
    bar.tick()                # t=40: 9 s after it
    bar.tick()                # t=61.5: another line
    bar.finish()              # t=70: nothing new done, so no final line
    lines = log.getvalue().splitlines()
    assert len(lines) == 2 and all(PROGRESS_LINE.fullmatch(line) for line in lines), lines
    assert "0/10 0.0%  0.0 deals/s  elapsed 0:00:31  ETA -:--:--" in lines[0]
    assert "elapsed 0:01:02" in lines[1]


def test_progress_heartbeat_thread_writes_until_finish():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    log = io.StringIO()
    bar = Progress(5, log, line_interval=0.05, heartbeat=0.01).start_heartbeat()
    deadline = time.monotonic() + 30
    while log.getvalue().count("\n") < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    bar.update(1, 1)
    bar.finish()
    assert not bar._thread.is_alive()
    written = log.getvalue()
    time.sleep(0.1)
    assert log.getvalue() == written, "a line after finish()"
    lines = written.splitlines()
    assert len(lines) >= 4 and all(PROGRESS_LINE.fullmatch(line) for line in lines), lines
    assert "0/5" in lines[0] and "1/5" in lines[-1]

    term = Terminal()
    bar = Progress(5, term, heartbeat=0.01).start_heartbeat()
    while term.getvalue().count("\r") < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    bar.finish()
    assert term.getvalue().count("\r") >= 4 and term.getvalue().endswith("\n")


def test_bench_shows_progress_during_one_long_deal(monkeypatch, capsys, tmp_path):
    """The heartbeat is on in `solver bench`: lines come while the only deal is still running."""
    from solver.commands import bench as bench_command
    monkeypatch.setattr(bench_command, "Progress",
                        lambda total, stream: Progress(total, stream, line_interval=0.3,
                                                       heartbeat=0.05))
    status = cli_main(["bench", "pysol-intrigue", "--deals", "1545", "--timeout", "1.5",
                       "--reference-deals", "0", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 0
    lines = [line for line in err.splitlines() if PROGRESS_LINE.fullmatch(line)]
    assert sum(1 for line in lines if "0/1 " in line) >= 2, err
    assert "1/1 " in lines[-1]


def test_progress_bar_is_drawn_during_a_survey(tmp_path):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    run_survey(GAME, range(1, 5), str(tmp_path / "p.sqlite"), limits=Limits(60, 100), workers=1,
               chunk_size=2, progress_stream=term)
    assert "4/4 100.0%" in term.getvalue()


def test_survey_shows_progress_during_one_long_deal(monkeypatch, tmp_path):
    """The heartbeat is on in a survey too: lines come while the only chunk is still running."""
    monkeypatch.setattr(survey, "Progress",
                        lambda total, stream: Progress(total, stream, line_interval=0.3,
                                                       heartbeat=0.05))
    log = io.StringIO()
    run_survey("pysol-intrigue", range(1545, 1546), str(tmp_path / "long.sqlite"),
               limits=Limits(1.5, None), workers=1, progress_stream=log)
    lines = log.getvalue().splitlines()
    assert all(PROGRESS_LINE.fullmatch(line) for line in lines), lines
    assert sum(1 for line in lines if "0/1 " in line) >= 2 and "1/1 " in lines[-1], lines


# --- bad input: one line, exit 2, nothing written ---------------------------------------------


def run_cli(capsys, *argv):
    capsys.readouterr()             # only this command's output (not a run_survey's before it)
    status = cli_main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_error_line(err: str, *fragments: str):
    lines = err.strip().splitlines()
    # Usage errors come from argparse as 'solver survey: error: ...'.
    assert len(lines) == 1 and re.match(r"solver( survey)?: error: ", lines[0]), err
    for fragment in fragments:
        assert fragment in lines[0]


def test_a_database_belongs_to_one_game(tmp_path, capsys):
    db = tmp_path / "clover.sqlite"
    run_survey(GAME, range(1, 3), str(db), limits=Limits(60, 100), workers=1)
    before = db.read_bytes()
    with pytest.raises(ValueError, match="holds the survey of clover, not forget-me-not"):
        run_survey("forget-me-not", range(1, 3), str(db), limits=Limits(60, 100), workers=1)
    status, out, err = run_cli(capsys, "survey", "forget-me-not", "--deals", "1..2", "--db", str(db),
                               "--max-nodes", "100")
    assert status == 2 and out == ""
    assert_one_error_line(err, "clover")
    assert db.read_bytes() == before
    assert set(read_rows(db)) == {1, 2}


def test_rows_of_another_game_without_the_binding_are_refused_too(tmp_path):
    db = tmp_path / "merged.sqlite"
    run_survey(GAME, range(1, 3), str(db), limits=Limits(60, 100), workers=1)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM survey_meta")
    with pytest.raises(ValueError, match="holds the survey of clover"):
        run_survey("banner", range(1, 3), str(db), limits=Limits(60, 100), workers=1)


def make_readonly(path):
    run_survey(GAME, range(1, 2), str(path), limits=Limits(60, 100), workers=1)
    os.chmod(path, 0o444)


def make_corrupt(path):
    path.write_bytes(b"this is not a database\n" * 100)


def make_garbled_sqlite(path):
    path.write_bytes(survey.SQLITE_MAGIC + os.urandom(4000))


def make_foreign_sqlite(path):
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    conn.close()


@pytest.mark.parametrize("make, fragment", [
    (make_readonly, "read-only"),
    (make_corrupt, "not an SQLite database"),
    (make_garbled_sqlite, "corrupt"),
    (make_foreign_sqlite, "not a survey database"),
])
def test_bad_database_files(tmp_path, capsys, make, fragment):
    db = tmp_path / "bad.sqlite"
    make(db)
    before = db.read_bytes()
    status, out, err = run_cli(capsys, "survey", GAME, "--deals", "1..3", "--db", str(db),
                               "--max-nodes", "100", "--workers", "1")
    assert status == 2 and out == ""
    assert_one_error_line(err, fragment)
    assert db.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["bad.sqlite"]


@pytest.mark.parametrize("argv, fragment", [
    (["--deals", "9..3"], "reversed"),
    (["--deals", ""], "bad deal range"),
    (["--deals", "1..3", "--workers", "0"], "worker"),
    (["--deals", "1..3", "--timeout", "0"], "timeout"),
    (["--deals", "1..3", "--max-memory", "0"], "max-memory"),
    (["--deals", "1..3", "--max-memory", "0G"], "max-memory"),
    (["--deals", "1..3", "--max-memory", "2X"], "max-memory"),
    (["--deals", "1..3", "--max-memory", "-64"], "max-memory"),
    (["--deals", "1..3", "--chunk-size", "0"], "chunk size"),
    (["hello", "--deals", "1..3"], "unrecognized arguments"),
])
def test_bad_arguments_write_nothing(tmp_path, capsys, argv, fragment):
    db = tmp_path / "never.sqlite"
    status, out, err = run_cli(capsys, "survey", GAME, "--db", str(db), *argv)
    assert status == 2
    assert_one_error_line(err, fragment)
    assert not db.exists()


def test_unreachable_scheduler_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(survey, "SCHEDULER_CONNECT_TIMEOUT", 0.5)
    db = tmp_path / "never.sqlite"
    status, out, err = run_cli(capsys, "survey", GAME, "--deals", "1..3", "--db", str(db),
                               "--scheduler", "tcp://127.0.0.1:9")
    assert status == 2
    assert_one_error_line(err, "cannot reach the Dask scheduler", "tcp://127.0.0.1:9")
    assert not db.exists()


# --- Dask ------------------------------------------------------------------------------------


def test_dask_cluster_gives_the_local_pools_rows(tmp_path):
    from dask.distributed import LocalCluster
    deals = range(1, 25)
    local_db, dask_db = tmp_path / "local.sqlite", tmp_path / "dask.sqlite"
    run_survey(GAME, deals, str(local_db), limits=Limits(60, 1000), workers=2, chunk_size=3)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                      dashboard_address=None) as cluster:
        summary = run_survey(GAME, deals, str(dask_db), limits=Limits(60, 1000), chunk_size=5,
                             scheduler=cluster.scheduler_address)
    assert (summary.solved, summary.interrupted) == (len(deals), False)
    local, dask = read_rows(local_db), read_rows(dask_db)
    assert set(local) == set(deals)
    assert dask == local
    # Unknown rows stop at the node limit and match trivially; winnable ones make it a test.
    assert "winnable" in {v for v, _, _ in local.values()}


# --- real processes, really interrupted ------------------------------------------------------


def test_sigkill_loses_only_chunks_in_flight_and_a_rerun_completes(tmp_path, reference_rows):
    db = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(survey_command(db), cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        wait_for_rows(db, proc, at_least=10)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert no_processes_left(proc.pid), "the workers outlived their parent"
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = read_rows(db)
    assert 10 <= len(kept) < len(KILL_RANGE), "the survey was not killed in the middle"
    assert all(reference_rows[n] == row for n, row in kept.items())

    rerun = subprocess.run(survey_command(db), cwd=tmp_path, capture_output=True, text=True,
                           timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"this run solved {len(KILL_RANGE) - len(kept)} " in rerun.stdout
    assert f"skipped {len(kept)}" in rerun.stdout
    assert read_rows(db) == reference_rows


def test_ctrl_c_commits_what_is_done_and_exits_130(tmp_path, reference_rows):
    db = tmp_path / "interrupted.sqlite"
    proc = subprocess.Popen(survey_command(db), cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=sigint_default)
    out, err, stop_seconds = ctrl_c_group(proc, lambda: wait_for_rows(db, proc, at_least=10), 20)
    assert proc.returncode == 130, err
    assert stop_seconds < 5
    assert "Traceback" not in err
    *progress, last = err.strip().splitlines()
    assert last.startswith("solver: interrupted: "), err
    # stderr is not a terminal: plain progress lines, the last one at the interruption
    assert progress and all(PROGRESS_LINE.fullmatch(line) for line in progress), err
    kept = read_rows(db)
    assert 10 <= len(kept) < len(KILL_RANGE), "the survey was not interrupted in the middle"
    assert f"{len(kept)} of {len(KILL_RANGE)} deals" in last
    assert out == ""
    assert no_processes_left(proc.pid)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    rerun = subprocess.run(survey_command(db), cwd=tmp_path, capture_output=True, text=True,
                           timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    # not a terminal and under 30 s: no bar, only the final progress line
    done = len(KILL_RANGE) - len(kept)
    assert PROGRESS_LINE.fullmatch(rerun.stderr.rstrip("\n")), rerun.stderr
    assert rerun.stderr.startswith(f"[{'#' * 20}] {done}/{done} 100.0%")
    assert read_rows(db) == reference_rows


def test_two_threads_solve_the_unknown_rows_again_and_say_so(tmp_path, capsys):
    """--threads 2 reruns the unknown rows at the same limits (and only those), with solve()'s
    two threads: each rerun row is what solve(threads=2) gives and records 2 threads.  A rerun
    with one thread at those limits then solves nothing."""
    db = tmp_path / "t.sqlite"
    args = ("survey", GAME, "--deals", "1..10", "--db", str(db), "--workers", "1",
            "--max-nodes", "200")
    assert run_cli(capsys, *args)[0] == 0
    unknown = sorted(n for n, (v, _, _) in read_rows(db).items() if v == "unknown")
    assert unknown, "the fixture needs unknown rows at 200 nodes"
    status, out, _ = run_cli(capsys, *args, "--threads", "2")
    assert status == 0 and f"this run solved {len(unknown)} " in out, out
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        threads = dict(conn.execute("SELECT deal, threads FROM results"))
    assert {n for n, t in threads.items() if t == 2} == set(unknown)
    assert all(t == 1 for n, t in threads.items() if n not in unknown)
    rows = read_rows(db)
    for n in unknown:
        result = solver.solve(GAME, n, timeout=10, max_nodes=200, threads=2)
        assert rows[n][0] == result.verdict.value
    assert run_survey(GAME, range(1, 11), str(db), limits=Limits(10, 200), workers=1).solved == 0


@given(cores=st.integers(1, 256), threads=st.sampled_from([1, 2]))
def test_default_workers_give_every_thread_a_core(cores, threads):
    """Without --workers: as many workers as there are cores for their threads, at least one."""
    workers = survey.default_workers(threads, cores)
    assert workers >= 1
    assert workers * threads <= max(cores, threads)
    assert (workers + 1) * threads > cores            # and no core left idle that a worker could use


@pytest.mark.parametrize("threads, expected", [(1, 4), (2, 2)])
def test_a_survey_without_workers_starts_one_per_threads_cores(tmp_path, monkeypatch, threads,
                                                                expected):
    """run_survey's pool, on a machine said to have 4 cores: 4 workers with one thread per deal,
    2 with two; the rows are those of solve() all the same."""
    sizes = []
    real = survey._pool_results

    def recording(tasks, workers):
        sizes.append(workers)
        return real(tasks, 1)

    monkeypatch.setattr(survey.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(survey, "_pool_results", recording)
    db = tmp_path / "t.sqlite"
    summary = run_survey(GAME, range(1, 9), str(db), limits=Limits(10, 200, threads=threads),
                         chunk_size=1)
    assert sizes == [expected] and summary.solved == 8
    for n, (verdict, _, _) in read_rows(db).items():
        expected = solver.solve(GAME, n, timeout=10, max_nodes=200, threads=threads)
        assert verdict == expected.verdict.value


def test_rows_name_the_inner_game_that_won(tmp_path):
    """A deal won via the inner game (solver.solve's Result.via) says so in its row."""
    db = tmp_path / "glencoe.sqlite"
    deals = range(8, 13)                       # Glencoe 10 at 4,000 nodes: won via PySol Glencoe
    run_survey("glencoe", deals, str(db), limits=Limits(60, 4000), workers=1)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        stored = dict(conn.execute("SELECT deal, via FROM results"))
    expected = {n: solver.solve("glencoe", n, timeout=60, max_nodes=4000).via for n in deals}
    assert stored == expected
    assert "pysol-glencoe" in stored.values()


# The line of each column in survey.SCHEMA, by the schema version that added it.
ADDED_IN = {2: "    via             TEXT,\n", 3: "    threads         INTEGER,\n"}


def old_database(path, version, row):
    """A survey database of schema ``version`` (without the columns added since) holding
    ``row``, a tuple of that version's columns."""
    schema = survey.SCHEMA
    for added, line in ADDED_IN.items():
        assert line in schema
        if added > version:
            schema = schema.replace(line, "")
    with sqlite3.connect(path) as conn:
        conn.executescript(schema)
        conn.execute("INSERT INTO survey_meta VALUES ('game', ?), ('schema_version', ?)",
                     (GAME, str(version)))
        conn.execute(f"INSERT INTO results VALUES ({', '.join('?' * len(row))})", row)
    conn.close()


def test_a_version_1_database_gains_the_via_and_threads_columns(tmp_path):
    db = tmp_path / "old.sqlite"
    old_database(db, 1, (GAME, 1, "winnable", None, 5, 0.1, 140, 60, 100, None, "0.0.1",
                         "2026-11-29T00:00:00+00:00"))
    summary = run_survey(GAME, range(1, 4), str(db), limits=Limits(60, 100), workers=1)
    assert (summary.solved, summary.skipped) == (2, 1)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = {deal: (version, via) for deal, version, via in
                conn.execute("SELECT deal, solver_version, via FROM results")}
        meta = dict(conn.execute("SELECT key, value FROM survey_meta"))
        threads = dict(conn.execute("SELECT deal, threads FROM results"))
    assert rows[1] == ("0.0.1", None) and threads == {1: None, 2: 1, 3: 1}
    assert set(rows) == {1, 2, 3} and rows[2][0] == solver.__version__
    assert meta == {"game": GAME, "schema_version": str(survey.SCHEMA_VERSION)} and meta[
        "schema_version"] == "3"


def test_a_version_2_database_gains_the_threads_column(tmp_path):
    """Its rows keep NULL there, which counts as one thread: an unknown row of it is retried
    with two threads at its limits."""
    db = tmp_path / "v2.sqlite"
    old_database(db, 2, (GAME, 1, "unknown", "nodes", 100, 0.1, None, 60, 100, None, "0.0.2",
                         "2026-12-01T00:00:00+00:00", None))
    assert run_survey(GAME, range(1, 2), str(db), limits=Limits(60, 100), workers=1).solved == 0
    summary = run_survey(GAME, range(1, 2), str(db), limits=Limits(60, 100, threads=2), workers=1)
    assert summary.solved == 1
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        row = conn.execute("SELECT solver_version, threads FROM results").fetchone()
        meta = dict(conn.execute("SELECT key, value FROM survey_meta"))
    assert row == (solver.__version__, 2) and meta["schema_version"] == "3"
