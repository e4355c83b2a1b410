"""benchmarks/load_survey_csv.py: published survey rows back into survey databases."""
from __future__ import annotations

import csv
import gzip
import importlib.util
import os
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.report import read_reports, read_rows
from solver.survey import Limits, SurveyDatabase, run_survey

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "load_survey_csv.py"
HEADER = ["game", "deal", "verdict", "reason", "nodes", "seconds", "solution_length", "timeout",
          "max_memory", "threads", "via"]


def load_script():
    spec = importlib.util.spec_from_file_location("load_survey_csv", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_csv(path: Path, rows: list[list], gz: bool = False, crlf: bool = False) -> str:
    opener = gzip.open if gz else open
    with opener(path, "wt", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\r\n" if crlf else "\n")
        writer.writerow(HEADER)
        writer.writerows(rows)
    return str(path)


def row(game, deal, verdict, seconds=0.5, timeout=2.0, via=""):
    return [game, deal, verdict, "time" if verdict == "unknown" else "", 1000, seconds,
            150 if verdict == "winnable" else "", timeout, 2147483648, 1, via]


VERDICTS = st.sampled_from(["winnable", "unwinnable", "unknown"])


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.dictionaries(st.integers(1, 60), VERDICTS, min_size=1),
       second=st.dictionaries(st.integers(1, 60), VERDICTS),
       gz=st.booleans(), crlf=st.booleans())
def test_every_row_arrives_and_a_later_file_wins(tmp_path_factory, first, second, gz, crlf):
    tmp = tmp_path_factory.mktemp("csv")
    a = write_csv(tmp / ("a.csv.gz" if gz else "a.csv"),
                  [row("glencoe", d, v, seconds=d / 10) for d, v in first.items()], gz, crlf)
    b = write_csv(tmp / "b.csv", [row("glencoe", d, v, seconds=d / 100, timeout=10.0)
                                  for d, v in second.items()])
    written = load_script().load([a, b], str(tmp / "out"))
    expected = {**first, **second}
    assert written == {"glencoe": len(expected)}
    rows = read_rows([str(tmp / "out" / "glencoe.sqlite")])["glencoe"]
    assert {deal: r[0] for deal, r in rows.items()} == expected
    assert {deal: r[1] for deal, r in rows.items()} == {
        d: d / 100 if d in second else d / 10 for d in expected}
    [report] = read_reports([str(tmp / "out" / "glencoe.sqlite")])
    assert report.unknown == sum(v == "unknown" for v in expected.values())


def test_one_database_per_game_with_the_inner_game_and_the_limits(tmp_path):
    src = write_csv(tmp_path / "s.csv", [row("glencoe", 1, "winnable", via="pysol-glencoe"),
                                         row("glencoe", 2, "unknown"),
                                         row("clover", 7, "unwinnable")])
    assert load_script().main([src, "--out-dir", str(tmp_path / "db"),
                               "--version", "abc1234"]) == 0
    assert sorted(os.listdir(tmp_path / "db")) == ["clover.sqlite", "glencoe.sqlite"]
    with sqlite3.connect(tmp_path / "db" / "glencoe.sqlite") as conn:
        got = conn.execute("SELECT deal, verdict, reason, solution_length, timeout, max_memory, "
                           "threads, via, solver_version FROM results ORDER BY deal").fetchall()
    conn.close()
    assert got == [(1, "winnable", None, 150, 2.0, 2147483648, 1, "pysol-glencoe", "abc1234"),
                   (2, "unknown", "time", None, 2.0, 2147483648, 1, None, "abc1234")]
    [glencoe, clover] = read_reports([str(tmp_path / "db" / "clover.sqlite"),
                                      str(tmp_path / "db" / "glencoe.sqlite")])
    assert (clover.unwinnable, glencoe.via) == (1, {"pysol-glencoe": 1})


def test_a_survey_resumes_the_unknown_deals_only(tmp_path):
    """A loaded database is a survey's: at longer limits it solves its unknown deal again."""
    src = write_csv(tmp_path / "s.csv", [row("clover", 1, "winnable"),
                                         row("clover", 2, "unknown", timeout=0.001)])
    load_script().load([src], str(tmp_path / "db"))
    path = str(tmp_path / "db" / "clover.sqlite")
    db = SurveyDatabase(path, "clover")
    try:
        assert db.pending(range(1, 4), Limits(30.0, None, 2147483648)) == [2, 3]
    finally:
        db.close()
    run_survey("clover", range(1, 3), path, limits=Limits(30.0, None, 2147483648), workers=1)
    rows = read_rows([path])["clover"]
    assert rows[1][3] == "from s.csv" and rows[2][0] != "unknown" and rows[2][3] != "from s.csv"


def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys):
    script = load_script()
    good = write_csv(tmp_path / "good.csv", [row("clover", 1, "winnable")])
    not_survey = tmp_path / "other.csv"
    not_survey.write_text("a,b\n1,2\n")
    bad_verdict = write_csv(tmp_path / "v.csv", [row("clover", 2, "maybe")])
    bad_number = write_csv(tmp_path / "n.csv", [row("clover", "two", "winnable")])
    not_gzip = tmp_path / "x.csv.gz"
    not_gzip.write_text("game,deal\n")
    cases = [([good, str(not_survey)], "not a survey CSV file"),
             ([good, bad_verdict], "line 2: bad verdict 'maybe'"),
             ([good, bad_number], "line 2: not a survey row"),
             ([str(not_gzip)], "cannot read"),
             ([str(tmp_path / "missing.csv")], "cannot read")]
    for paths, fragment in cases:
        assert script.main([*paths, "--out-dir", str(tmp_path / "out")]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1 and fragment in err, err
        assert not (tmp_path / "out").exists()
    assert script.main([good, "--out-dir", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    assert script.main([good, "--out-dir", str(tmp_path / "out")]) == 2
    assert "exists already" in capsys.readouterr().err
    assert read_reports([str(tmp_path / "out" / "clover.sqlite")])[0].winnable == 1


def test_a_published_file_loads_and_its_nesting_holds():
    """The first rows of the 2-s survey's published file: the pairs agree."""
    published = SCRIPT.parent / "results" / "survey-2s-1-100000.csv.gz"
    script = load_script()
    rows = script.read_csv(str(published))
    assert set(rows) >= {"glencoe", "intrigue", "pysol-glencoe", "banner", "devils-solitaire"}
    from solver.report import check_nesting
    sample = {game: {d: (r[2], r[5], r[12], r[10]) for d, r in deals.items() if d <= 5000}
              for game, deals in rows.items()}
    checks = check_nesting(sample)
    assert len(checks) == 6 and all(c.contradictions == [] for c in checks)
    assert all(c.both_decided > 4900 for c in checks)
