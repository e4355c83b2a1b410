"""The survey report: Wilson intervals, percentiles, the table in markdown and JSON, the plot."""
from __future__ import annotations

import json
import math
import sqlite3
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cli import main as cli_main
from solver.games import NESTED_PAIRS
from solver.report import (GameReport, NestingCheck, check_nesting, format_markdown, nearest_rank,
                           plot_times, read_reports, read_rows, to_json, wilson_interval)
from solver.survey import Limits, SurveyDatabase

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# --- statistics -------------------------------------------------------------------------------


@pytest.mark.parametrize("successes, trials, low, high", [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
    # method 3 (Wilson score without continuity correction).
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
    # All or nothing: the bound is z^2 / (n + z^2).
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_interval_known_values(successes, trials, low, high):
    got = wilson_interval(successes, trials)
    assert got[0] == pytest.approx(low, abs=5e-5)
    assert got[1] == pytest.approx(high, abs=5e-5)


@given(st.integers(1, 10**6).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_holds_the_share_and_is_symmetric(pair):
    successes, trials = pair
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0
    mirror_low, mirror_high = wilson_interval(trials - successes, trials)
    assert mirror_low == pytest.approx(1 - high, abs=1e-12)
    assert mirror_high == pytest.approx(1 - low, abs=1e-12)


def test_wilson_interval_narrows_with_more_trials():
    widths = [wilson_interval(n // 2, n)[1] - wilson_interval(n // 2, n)[0] for n in (10, 100, 1000)]
    assert widths[0] > widths[1] > widths[2]
    assert widths[2] == pytest.approx(2 * 1.96 * math.sqrt(0.25 / 1000), rel=0.01)


@pytest.mark.parametrize("bad", [(1, 0), (-1, 5), (6, 5)])
def test_wilson_interval_rejects_impossible_counts(bad):
    with pytest.raises(ValueError):
        wilson_interval(*bad)


def test_nearest_rank_percentiles():
    values = [float(v) for v in range(1, 101)]          # 1..100
    assert nearest_rank(values, 0.99) == 99.0
    assert nearest_rank(values, 0.5) == 50.0
    assert nearest_rank(values, 1.0) == 100.0
    assert nearest_rank([3.0], 0.99) == 3.0
    assert nearest_rank([1.0, 2.0, 3.0], 0.99) == 3.0


# --- reading databases -----------------------------------------------------------------------


def make_db(path, game, rows, version="9.9", via=None):
    """A survey database with ``rows`` (deal, verdict, seconds); via: {deal: inner game}."""
    via = via or {}
    db = SurveyDatabase(str(path), game)
    try:
        db.save(version, [(deal, verdict, "time" if verdict == "unknown" else None, 100, seconds,
                           50 if verdict == "winnable" else None, via.get(deal))
                          for deal, verdict, seconds in rows],
                Limits(1.0, None))
    finally:
        db.close()
    return str(path)


@pytest.fixture
def two_games(tmp_path):
    clover = [(n, "winnable" if n <= 30 else "unwinnable" if n <= 90 else "unknown", n / 100)
              for n in range(1, 101)]                       # 30 won, 60 lost, 10 unknown
    banner = [(n, "winnable", 0.5) for n in range(1, 5)]
    return [make_db(tmp_path / "clover.sqlite", "clover", clover),
            make_db(tmp_path / "banner.sqlite", "banner", banner, version="1.0")]


def test_report_counts_shares_intervals_and_times(two_games):
    reports = read_reports(two_games)
    assert [r.game for r in reports] == ["banner", "clover"]       # the order of GAMES
    clover = reports[1]
    assert (clover.deals, clover.decided, clover.winnable, clover.unknown) == (100, 90, 30, 10)
    assert (clover.share_low, clover.share_high) == (0.30, 0.40)
    assert clover.interval == (wilson_interval(30, 100)[0], wilson_interval(40, 100)[1])
    assert clover.interval[0] == pytest.approx(0.2189, abs=1e-4)
    assert clover.interval[1] == pytest.approx(0.4980, abs=1e-4)
    assert clover.median_seconds == pytest.approx(0.505)
    assert (clover.p99_seconds, clover.max_seconds) == (0.99, 1.0)
    assert clover.solver_versions == ["9.9"]
    banner = reports[0]
    assert (banner.deals, banner.winnable, banner.share_low, banner.share_high) == (4, 4, 1.0, 1.0)


def test_markdown_table(two_games):
    text = format_markdown(read_reports(two_games))
    lines = text.splitlines()
    assert lines[0].startswith("| game | deals | decided | winnable | unknown | winnable % |")
    clover = next(line for line in lines if line.startswith("| clover "))
    cells = [c.strip() for c in clover.strip("|").split("|")]
    assert cells == ["clover", "100", "90", "30", "10", "30.00–40.00", "21.89–49.80",
                     "0.505", "0.99", "1"]
    banner = next(line for line in lines if line.startswith("| banner "))
    assert "| 100.00 |" in banner                  # no unknowns: one number, not a range


def test_json_report_through_the_command_line(two_games, capsys):
    status = cli_main(["report", *two_games, "--format", "json"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["sources"] == two_games
    clover = next(g for g in data["games"] if g["game"] == "clover")
    assert clover["deals"] == 100 and clover["unknown"] == 10 and clover["unwinnable"] == 60
    assert clover["winnable_share"] == {"unknown_as_loss": 0.3, "unknown_as_win": 0.4}
    assert clover["interval95"] == pytest.approx([0.2189, 0.4980], abs=1e-4)
    assert clover["seconds"]["p99"] == 0.99


def test_report_of_a_real_survey(tmp_path, capsys):
    from solver.survey import run_survey
    db = str(tmp_path / "s.sqlite")
    run_survey("clover", range(1, 7), db, limits=Limits(60, 300), workers=1)
    assert cli_main(["report", db]) == 0
    out = capsys.readouterr().out
    with sqlite3.connect(db) as conn:
        winnable = conn.execute("SELECT COUNT(*) FROM results WHERE verdict = 'winnable'").fetchone()[0]
    assert f"| clover | 6 | {winnable} | {winnable} | {6 - winnable} |" in out


def test_empty_survey_database(tmp_path):
    db = tmp_path / "empty.sqlite"
    SurveyDatabase(str(db), "clover").close()
    assert read_reports([str(db)]) == []
    assert "(no rows)" in format_markdown([])
    assert to_json([], [str(db)])["games"] == []


def one_error_line(capsys) -> str:
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1 and lines[0].startswith("solver: error: "), err
    return lines[0]


def test_bad_report_inputs(tmp_path, two_games, capsys):
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"garbage" * 50)
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    duplicate = make_db(tmp_path / "again.sqlite", "clover", [(5, "winnable", 0.1)])
    cases = [([str(tmp_path / "missing.sqlite")], "no survey database"),
             ([str(corrupt)], "not an SQLite database"),
             ([str(foreign)], "not a survey database"),
             ([two_games[0], duplicate], "deal 5 of clover is in both")]
    for paths, fragment in cases:
        assert cli_main(["report", *paths]) == 2
        assert fragment in one_error_line(capsys)
    assert corrupt.read_bytes() == b"garbage" * 50


# --- the plot --------------------------------------------------------------------------------


def test_plot_is_a_png(two_games, tmp_path, capsys):
    png = tmp_path / "times.png"
    assert cli_main(["report", *two_games, "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == PNG_MAGIC
    assert len(png.read_bytes()) > 5000


def test_plot_without_matplotlib_is_one_error_line(two_games, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # import matplotlib -> ImportError
    png = tmp_path / "times.png"
    assert cli_main(["report", *two_games, "--plot", str(png)]) == 2
    assert "needs matplotlib" in one_error_line(capsys)
    assert not png.exists()


def test_plot_into_a_missing_directory(two_games, tmp_path, capsys):
    assert cli_main(["report", *two_games, "--plot", str(tmp_path / "no" / "such.png")]) == 2
    assert "cannot write plot" in one_error_line(capsys)


def test_plot_of_nothing(tmp_path):
    with pytest.raises(ValueError, match="nothing to plot"):
        plot_times([], str(tmp_path / "x.png"))
    assert GameReport("clover", 1, 0, 0, [0.0], ["winnable"]).max_seconds == 0.0


# --- the inner game --------------------------------------------------------------------------


def test_report_counts_deals_won_via_the_inner_game(tmp_path, capsys):
    rows = [(n, "winnable" if n <= 8 else "unknown", n / 10) for n in range(1, 11)]
    intrigue = make_db(tmp_path / "intrigue.sqlite", "intrigue", rows,
                       via={3: "glencoe", 7: "glencoe"})
    banner = make_db(tmp_path / "banner.sqlite", "banner", [(1, "winnable", 0.1)])
    reports = read_reports([intrigue, banner])
    assert [(r.game, r.via) for r in reports] == [("intrigue", {"glencoe": 2}), ("banner", {})]
    text = format_markdown(reports)
    assert text.splitlines()[-1] == ("Won through the inner game's line (docs/solver.md, "
                                     "\"Inner game\"): intrigue 2 (via glencoe).")
    assert "Won through" not in format_markdown(read_reports([banner]))
    assert cli_main(["report", intrigue, banner, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {g["game"]: g["won_via_inner_game"] for g in data["games"]} == {
        "intrigue": {"glencoe": 2}, "banner": {}}


def test_report_counts_deals_lost_via_the_outer_game_apart(tmp_path, capsys):
    rows = [(1, "winnable", 0.1), (2, "unwinnable", 55.0), (3, "unwinnable", 2.0),
            (4, "unknown", 60.0)]
    db = make_db(tmp_path / "pll.sqlite", "pysol-laggard-lady", rows,
                 via={1: "pysol-glencoe", 2: "pysol-intrigue"})
    [report] = read_reports([db])
    assert (report.via, report.lost_via) == ({"pysol-glencoe": 1}, {"pysol-intrigue": 1})
    assert (report.winnable, report.unwinnable, report.unknown) == (1, 2, 1)
    lines = format_markdown([report]).splitlines()
    assert lines[-3] == ("Won through the inner game's line (docs/solver.md, \"Inner game\"): "
                         "pysol-laggard-lady 1 (via pysol-glencoe).")
    assert lines[-1] == ("Proved unwinnable through the outer game (docs/solver.md, "
                         "\"Outer game\"): pysol-laggard-lady 1 (via pysol-intrigue).")
    assert cli_main(["report", db, "--format", "json"]) == 0
    [game] = json.loads(capsys.readouterr().out)["games"]
    assert game["lost_via_outer_game"] == {"pysol-intrigue": 1}
    assert game["won_via_inner_game"] == {"pysol-glencoe": 1}


def test_report_reads_a_version_1_database_without_the_via_column(tmp_path):
    from solver import survey
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as conn:
        conn.executescript(survey.SCHEMA.replace("    via             TEXT,\n", "").replace(
            "    threads         INTEGER,\n", ""))
        conn.execute("INSERT INTO survey_meta VALUES ('game', 'clover'), ('schema_version', '1')")
        conn.execute("INSERT INTO results VALUES ('clover', 1, 'winnable', NULL, 5, 0.1, 140, 60, "
                     "100, NULL, '0.0.1', '2026-11-29T00:00:00+00:00')")
    conn.close()
    [clover] = read_reports([str(db)])
    assert (clover.game, clover.winnable, clover.via) == ("clover", 1, {})
    with sqlite3.connect(db) as conn:          # read-only: the file is left as it was
        columns = {row[1] for row in conn.execute("PRAGMA table_info(results)")}
    assert "via" not in columns and "threads" not in columns


# --- the nested games ------------------------------------------------------------------------

VERDICTS = ("winnable", "unwinnable", "unknown")


def rows_of(verdicts: dict) -> dict:
    """{deal: verdict} -> the rows of one game as read_rows gives them."""
    return {deal: (verdict, 0.1, None, "9.9") for deal, verdict in verdicts.items()}


@given(st.sampled_from(NESTED_PAIRS),
       st.dictionaries(st.integers(1, 40), st.sampled_from(VERDICTS)),
       st.dictionaries(st.integers(1, 40), st.sampled_from(VERDICTS)))
def test_nesting_check_sorts_every_common_deal_by_its_two_verdicts(pair, small, large):
    smaller, larger = pair
    [check] = check_nesting({smaller: rows_of(small), larger: rows_of(large), "clover": {}})
    assert (check.smaller, check.larger) == pair
    common = sorted(small.keys() & large.keys())
    # The nine combinations of (smaller, larger) verdicts, each with its one meaning.
    meaning = {("winnable", "winnable"): "agree", ("unwinnable", "unwinnable"): "agree",
               ("unwinnable", "winnable"): "agree",       # the larger game allows more moves
               ("winnable", "unwinnable"): "contradiction",
               ("winnable", "unknown"): "larger won by the nesting",
               ("unknown", "unwinnable"): "smaller lost by the nesting",
               ("unknown", "winnable"): "open", ("unwinnable", "unknown"): "open",
               ("unknown", "unknown"): "open"}
    kinds = {deal: meaning[small[deal], large[deal]] for deal in common}
    assert check.contradictions == [d for d in common if kinds[d] == "contradiction"]
    assert check.won_by_smaller == [d for d in common if kinds[d] == "larger won by the nesting"]
    assert check.lost_by_larger == [d for d in common if kinds[d] == "smaller lost by the nesting"]
    assert check.both_decided == sum(kinds[d] in ("agree", "contradiction") for d in common)


def test_nesting_needs_both_games_of_a_pair():
    won = rows_of({1: "winnable"})
    assert check_nesting({"glencoe": won, "clover": won, "forget-me-not": won}) == []
    # Intrigue contains Glencoe, which contains PySol Glencoe: three pairs, in NESTED_PAIRS' order.
    checks = check_nesting({"intrigue": won, "glencoe": won, "pysol-glencoe": won})
    assert [(c.smaller, c.larger) for c in checks] == [("pysol-glencoe", "glencoe"),
                                                       ("glencoe", "intrigue")]
    assert all(c.both_decided == 1 for c in checks)


@pytest.fixture
def nested_pair(tmp_path):
    """Banner ⊂ Devil's Solitaire over deals 1..30: deal 7 contradicts the nesting, deals 11 and
    12 are won in Banner and unknown in Devil's, deal 20 unknown in Banner and lost in Devil's."""
    banner = {n: "winnable" for n in range(1, 31)}
    devils = dict(banner)
    devils.update({7: "unwinnable", 11: "unknown", 12: "unknown", 20: "unwinnable"})
    banner.update({20: "unknown", 25: "unwinnable"})
    return [make_db(tmp_path / "banner.sqlite", "banner",
                    [(n, v, 0.1) for n, v in banner.items()]),
            make_db(tmp_path / "devils.sqlite", "devils-solitaire",
                    [(n, v, 0.1) for n, v in devils.items()])]


def test_report_of_a_contradiction_prints_everything_and_exits_1(nested_pair, capsys):
    assert cli_main(["report", *nested_pair]) == 1
    out, err = capsys.readouterr()
    assert err.strip().splitlines() == [
        "solver: error: deals contradict the nesting of the rule sets (banner ⊂ devils-solitaire "
        "1): a verdict is wrong; please report it"]
    lines = out.splitlines()
    assert "| banner ⊂ devils-solitaire | 27 | 1 | 2 | 1 |" in lines
    assert any(line.startswith("- CONTRADICTIONS") and line.endswith(": 7.") for line in lines)
    assert any("Winnable in devils-solitaire by the nesting" in line and line.endswith(": 11, 12.")
               for line in lines)
    assert any("Unwinnable in banner by the nesting" in line and line.endswith(": 20.")
               for line in lines)
    assert "| banner | 30 | 29 | 28 | 1 |" in out          # the solver's own verdicts, unchanged
    assert cli_main(["report", *nested_pair, "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["nesting"] == [{"smaller": "banner", "larger": "devils-solitaire",
                                "both_decided": 27, "contradictions": [7],
                                "won_by_smaller": [11, 12], "lost_by_larger": [20]}]


def test_report_without_a_contradiction_exits_0_and_lists_at_most_ten_deals(tmp_path, capsys):
    glencoe = make_db(tmp_path / "g.sqlite", "glencoe",
                      [(n, "unknown" if n > 3 else "winnable", 0.1) for n in range(1, 16)])
    pysol = make_db(tmp_path / "p.sqlite", "pysol-glencoe",
                    [(n, "winnable", 0.1) for n in range(1, 16)])
    assert cli_main(["report", glencoe, pysol]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "| pysol-glencoe ⊂ glencoe | 3 | 0 | 12 | 0 |" in out
    assert "won in pysol-glencoe): 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 and 2 more." in out
    assert "CONTRADICTIONS" not in out


def test_report_of_games_that_do_not_nest_has_no_nesting_table(two_games, capsys):
    assert cli_main(["report", *two_games]) == 0
    assert "Nested rule sets" not in capsys.readouterr().out
    assert format_markdown(read_reports(two_games), []) == format_markdown(read_reports(two_games))
    assert to_json([], [], [NestingCheck("a", "b", 3)])["nesting"][0]["both_decided"] == 3


def test_nesting_of_real_surveys(tmp_path, capsys):
    from solver.survey import run_survey
    dbs = {}
    for game in ("pysol-glencoe", "glencoe"):
        dbs[game] = str(tmp_path / f"{game}.sqlite")
        run_survey(game, range(1, 9), dbs[game], limits=Limits(60, 20_000), workers=1)
    rows = read_rows(list(dbs.values()))
    [check] = check_nesting(rows)
    assert check.contradictions == []
    decided = [d for d in range(1, 9)
               if "unknown" not in (rows["pysol-glencoe"][d][0], rows["glencoe"][d][0])]
    assert check.both_decided == len(decided) > 0
    assert cli_main(["report", *dbs.values()]) == 0
    assert f"| pysol-glencoe ⊂ glencoe | {len(decided)} | 0 |" in capsys.readouterr().out
