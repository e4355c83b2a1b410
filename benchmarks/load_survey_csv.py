"""Turn the survey rows published as CSV back into survey databases, one per game.

    python benchmarks/load_survey_csv.py benchmarks/results/survey-2s-1-100000.csv.gz \
        benchmarks/results/survey-2s-1-100000-retry-10s.csv.gz --out-dir /tmp/surveys
    solver report /tmp/surveys/*.sqlite

The CSV files (plain or gzipped) are the ones under benchmarks/results/ with a header line
starting ``game,deal,verdict,``. A later file's row of a deal replaces an earlier file's (give a
retry after the run it retries). The databases are those of ``solver survey``: ``solver report``
reads them, and ``solver survey`` resumes them (it solves an unknown deal again when its limits
allow more search than the row's). The CSV files hold no solver version; each row gets
``--version`` (default: "from" and the file's name). A database that already exists is an error,
as is a file without the survey columns (one line, exit status 2).
"""
from __future__ import annotations

import argparse
import csv
import gzip
import os
import sqlite3
import sys
from datetime import datetime, timezone

from solver.survey import RESULT_COLUMNS, SurveyDatabase

REQUIRED = ("game", "deal", "verdict", "nodes", "seconds")


def _open(path: str):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", newline="")
    return open(path, newline="")


def _number(text: str | None, kind):
    return kind(text) if text not in (None, "") else None


def read_csv(path: str, version: str | None = None) -> dict[str, dict[int, tuple]]:
    """game -> deal -> the row as a tuple of RESULT_COLUMNS."""
    label = version or f"from {os.path.basename(path)}"
    out: dict[str, dict[int, tuple]] = {}
    try:
        stamp = datetime.fromtimestamp(os.path.getmtime(path), timezone.utc).isoformat()
        with _open(path) as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
            if missing:
                raise ValueError(f"{path!r} is not a survey CSV file (no column "
                                 f"{', '.join(missing)})")
            for line, r in enumerate(reader, start=2):
                try:
                    record = {"game": r["game"], "deal": int(r["deal"]), "verdict": r["verdict"],
                              "reason": r.get("reason") or None, "nodes": int(r["nodes"]),
                              "seconds": float(r["seconds"]),
                              "solution_length": _number(r.get("solution_length"), int),
                              "timeout": _number(r.get("timeout"), float),
                              "max_nodes": _number(r.get("max_nodes"), int),
                              "max_memory": _number(r.get("max_memory"), int),
                              "solver_version": label, "solved_at": stamp,
                              "via": r.get("via") or None,
                              "threads": _number(r.get("threads"), int)}
                except (TypeError, ValueError):
                    raise ValueError(f"{path!r} line {line}: not a survey row") from None
                if record["verdict"] not in ("winnable", "unwinnable", "unknown"):
                    raise ValueError(f"{path!r} line {line}: bad verdict {record['verdict']!r}")
                out.setdefault(record["game"], {})[record["deal"]] = tuple(
                    record[c] for c in RESULT_COLUMNS)
    except OSError as exc:
        raise ValueError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    except (EOFError, UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"cannot read {path!r}: {exc}") from None
    return out


def load(paths: list[str], out_dir: str, version: str | None = None) -> dict[str, int]:
    """Write one database per game into ``out_dir``; returns game -> rows written."""
    rows: dict[str, dict[int, tuple]] = {}
    for path in paths:
        for game, deals in read_csv(path, version).items():
            rows.setdefault(game, {}).update(deals)
    targets = {game: os.path.join(out_dir, f"{game}.sqlite") for game in rows}
    existing = [t for t in targets.values() if os.path.exists(t)]
    if existing:
        raise ValueError(f"{existing[0]!r} exists already")
    created = []
    try:
        os.makedirs(out_dir, exist_ok=True)
        for game, deals in rows.items():
            created.append(targets[game])
            db = SurveyDatabase(targets[game], game)
            try:
                placeholders = ", ".join("?" * len(RESULT_COLUMNS))
                with db.transaction():
                    db.conn.executemany(f"INSERT INTO results ({', '.join(RESULT_COLUMNS)}) "
                                        f"VALUES ({placeholders})",
                                        [deals[d] for d in sorted(deals)])
            finally:
                db.close()
    except (OSError, ValueError, sqlite3.Error) as exc:
        for path in created:                    # nothing half-written is left behind
            for suffix in ("", "-wal", "-shm", "-journal"):
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)
        raise ValueError(f"cannot write into {out_dir!r}: {exc}") from None
    return {game: len(deals) for game, deals in rows.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="exit status: 0 written; 2 bad input (nothing "
                                            "written)")
    parser.add_argument("csv", nargs="+", metavar="CSV",
                        help="survey rows (.csv or .csv.gz); later files win")
    parser.add_argument("--out-dir", required=True, metavar="DIR",
                        help="where to write GAME.sqlite, one per game")
    parser.add_argument("--version", default=None,
                        help="solver version to record on every row (default: 'from FILE')")
    args = parser.parse_args(argv)
    try:
        written = load(args.csv, args.out_dir, args.version)
    except ValueError as exc:
        print(f"load_survey_csv.py: error: {exc}", file=sys.stderr)
        return 2
    for game, count in written.items():
        print(f"{os.path.join(args.out_dir, game + '.sqlite')}: {count} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
