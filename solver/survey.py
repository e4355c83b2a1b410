"""Winnability surveys: solve a range of deal numbers into an SQLite database, resumably.

The parent process owns the database and is the only writer: workers (a local process pool or
a Dask cluster) solve *chunks* of deals and hand back plain rows; the parent writes each chunk
in one transaction. SQLite in WAL mode makes every committed chunk durable against a killed
process, so an interruption loses at most the chunks in flight. docs/survey.md is the manual.
"""
from __future__ import annotations

import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import sqlite3
import sys
import threading
import time
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime, timezone

from .games import find_game
from .result import Verdict

DEFAULT_TIMEOUT = 10.0            # seconds per deal
DEFAULT_CHUNK_SIZE = 16           # deals per task handed to a worker
SCHEDULER_CONNECT_TIMEOUT = 10.0  # seconds to wait for a Dask scheduler
DEFAULT_MAX_MEMORY = 1 << 30     # solve()'s documented table limit when none is given
SCHEMA_VERSION = 3                # 2: the via column; 3: threads (older databases gain them on open)
SQLITE_MAGIC = b"SQLite format 3\x00"

SCHEMA = """\
CREATE TABLE IF NOT EXISTS survey_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    game            TEXT    NOT NULL,
    deal            INTEGER NOT NULL,
    verdict         TEXT    NOT NULL CHECK (verdict IN ('winnable', 'unwinnable', 'unknown')),
    reason          TEXT,
    nodes           INTEGER NOT NULL,
    seconds         REAL    NOT NULL,
    solution_length INTEGER,
    timeout         REAL,
    max_nodes       INTEGER,
    max_memory      INTEGER,
    solver_version  TEXT    NOT NULL,
    solved_at       TEXT    NOT NULL,
    via             TEXT,
    threads         INTEGER,
    PRIMARY KEY (game, deal)
);
"""
RESULT_COLUMNS = ("game", "deal", "verdict", "reason", "nodes", "seconds", "solution_length",
                  "timeout", "max_nodes", "max_memory", "solver_version", "solved_at", "via",
                  "threads")
# Columns added after version 1, with their types: a database opened without them gains them,
# and its old rows keep NULL there (no inner game; one thread).
ADDED_COLUMNS = (("via", "TEXT"), ("threads", "INTEGER"))


# ---------------------------------------------------------------------------------------------
# Arguments


def parse_deal_range(text: str) -> range:
    """``"A..B"`` -> ``range(A, B + 1)`` (inclusive); ``"N"`` -> ``range(N, N + 1)``.

    Deal numbers start at 1. An empty or reversed range is a ValueError.
    """
    raw = str(text)
    first_text, sep, last_text = raw.strip().partition("..")
    if not sep:
        last_text = first_text
    try:
        first, last = int(first_text), int(last_text)
    except ValueError:
        raise ValueError(f"bad deal range {raw!r}: expected A..B or N with deal numbers "
                         f"(positive integers)") from None
    if first < 1:
        raise ValueError(f"bad deal range {raw!r}: deal numbers start at 1")
    if last < first:
        raise ValueError(f"bad deal range {raw!r}: the range is reversed or empty "
                         f"({last} < {first})")
    return range(first, last + 1)


def format_deal_range(deals: range) -> str:
    """The inverse of :func:`parse_deal_range`."""
    return f"{deals.start}..{deals.stop - 1}"


@dataclass(frozen=True)
class Limits:
    """Per-deal search limits: seconds, positions, table bytes; and the threads that search.

    None means no limit of that kind, except ``max_memory``: None is solve()'s default (1 GiB).
    ``threads`` is solve()'s: 1, or 2 (a second search beside the usual schedule, to the same
    limits, the tables of both within ``max_memory``: other random lines in the PySol profiles,
    the exhaustive search alone elsewhere).
    """

    timeout: float | None = DEFAULT_TIMEOUT
    max_nodes: int | None = None
    max_memory: int | None = None
    threads: int = 1

    def __post_init__(self):
        if self.timeout is not None and not (self.timeout > 0 and math.isfinite(self.timeout)):
            raise ValueError(f"bad timeout {self.timeout!r}: expected a positive number of seconds")
        if self.max_nodes is not None and self.max_nodes < 1:
            raise ValueError(f"bad node limit {self.max_nodes!r}: expected a positive integer")
        if self.max_memory is not None and self.max_memory < 1:
            raise ValueError(f"bad memory limit {self.max_memory!r}: expected a positive size")
        if self.threads not in (1, 2):
            raise ValueError(f"bad thread count {self.threads!r}: expected 1 or 2")

    def extends(self, old: "Limits") -> bool:
        """True if these limits allow strictly more search than ``old``: none is smaller,
        at least one is larger. An UNKNOWN row is retried only under limits that extend its own.
        Threads count as one more such limit: two threads at the same limits are more search
        than one (the first search runs the usual schedule, the second another search of the
        deal, and a verdict of either decides)."""
        def memory(limits: Limits) -> int:
            return DEFAULT_MAX_MEMORY if limits.max_memory is None else limits.max_memory

        pairs = [(self.timeout, old.timeout), (self.max_nodes, old.max_nodes),
                 (memory(self), memory(old)), (self.threads, old.threads)]

        def at_least(new, previous) -> bool:
            return new is None or (previous is not None and new >= previous)

        return all(at_least(new, prev) for new, prev in pairs) and any(
            new != prev for new, prev in pairs)


# ---------------------------------------------------------------------------------------------
# The work a worker does: no database, no shared state, plain tuples back


def solve_chunk(task: tuple) -> tuple[str, list[tuple]]:
    """Solve one chunk ``(game, deal numbers, Limits)`` with :func:`solver.solve`.

    Returns the worker's solver version and one ``(deal, verdict, reason, nodes, seconds,
    solution_length, via)`` tuple per deal (``via``: the inner game whose line won, or the
    outer game that proved the deal lost, see ``solver.solve``; else None). Runs in worker
    processes and on Dask workers.
    """
    import solver
    game, deals, limits = task
    rows = []
    for number in deals:
        # line=False: only the length of a winning line is stored, so it is not spelled out.
        result = solver.solve(game, int(number), timeout=limits.timeout,
                              max_nodes=limits.max_nodes, max_memory=limits.max_memory,
                              line=False, threads=limits.threads)
        length = result.length if result.verdict is Verdict.WINNABLE else None
        rows.append((int(number), result.verdict.value, result.reason, int(result.stats.nodes),
                     float(result.stats.seconds), length, result.via))
    return solver.__version__, rows


def init_pool_worker() -> None:
    """Pool workers (survey and bench) leave Ctrl-C to the parent, and exit when the parent dies
    (even by SIGKILL)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        def exit_with_parent():
            multiprocessing.connection.wait([parent.sentinel])
            os._exit(1)
        threading.Thread(target=exit_with_parent, daemon=True).start()


# ---------------------------------------------------------------------------------------------
# The database


def check_database(path: str, game: str) -> None:
    """Raise ValueError unless ``path`` is absent or a writable survey database of ``game``.

    Writes nothing (a missing file is not created).
    """
    if not os.path.exists(path):
        directory = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(directory):
            raise ValueError(f"cannot create database {path!r}: directory {directory!r} does not exist")
        if not os.access(directory, os.W_OK):
            raise ValueError(f"cannot create database {path!r}: directory {directory!r} is not writable")
        return
    if not os.path.isfile(path):
        raise ValueError(f"database {path!r} is not a regular file")
    # Write permission is judged by the mode bits too: root may write anywhere, but a file
    # somebody made read-only is not ours to change.
    if not os.access(path, os.W_OK) or not os.stat(path).st_mode & 0o222:
        raise ValueError(f"database {path!r} is read-only")
    if not os.access(os.path.dirname(os.path.abspath(path)), os.W_OK):
        raise ValueError(f"database {path!r} is in a read-only directory "
                         f"(SQLite needs to create its -wal file there)")
    _check_sqlite_header(path)
    try:
        with closing(sqlite3.connect(path)) as conn:
            tables = _tables(conn)
            if not tables:
                return
            _check_survey_tables(path, tables)
            _check_bound_game(conn, path, game)
    except sqlite3.DatabaseError as exc:
        raise ValueError(f"database {path!r} is corrupt or not an SQLite database: {exc}") from None


def _check_sqlite_header(path: str) -> None:
    try:
        with open(path, "rb") as fh:
            header = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise ValueError(f"cannot read database {path!r}: {exc.strerror}") from None
    if header and header != SQLITE_MAGIC:
        raise ValueError(f"{path!r} is not an SQLite database")


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _check_survey_tables(path: str, tables: set[str]) -> None:
    if "results" not in tables:
        raise ValueError(f"{path!r} is an SQLite database but not a survey database "
                         f"(it has no 'results' table)")


def _check_bound_game(conn: sqlite3.Connection, path: str, game: str) -> None:
    """A survey database holds one game: the game of its first survey."""
    bound = None
    if "survey_meta" in _tables(conn):
        row = conn.execute("SELECT value FROM survey_meta WHERE key = 'game'").fetchone()
        bound = row[0] if row else None
    if bound is None:
        row = conn.execute("SELECT game FROM results WHERE game != ? LIMIT 1", (game,)).fetchone()
        bound = row[0] if row else None
    if bound is not None and bound != game:
        raise ValueError(f"database {path!r} holds the survey of {bound}, not {game}; "
                         f"use another --db for each game")


class SurveyDatabase:
    """The writer's connection to a survey database (WAL mode), bound to one game."""

    def __init__(self, path: str, game: str):
        self.path = path
        self.game = game
        try:
            self.conn = sqlite3.connect(path, isolation_level=None, timeout=30.0)
        except sqlite3.Error as exc:
            raise ValueError(f"cannot open database {path!r}: {exc}") from None
        try:
            self.conn.execute("PRAGMA journal_mode = WAL")
            # NORMAL in WAL mode: a committed chunk survives a killed process (not a power cut).
            self.conn.execute("PRAGMA synchronous = NORMAL")
            with self.transaction():
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.execute("INSERT OR IGNORE INTO survey_meta VALUES ('game', ?)", (game,))
                self.conn.execute("INSERT OR IGNORE INTO survey_meta VALUES ('schema_version', ?)",
                                  (str(SCHEMA_VERSION),))
            _check_bound_game(self.conn, path, game)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(results)")}
            missing = [(name, kind) for name, kind in ADDED_COLUMNS if name not in columns]
            if missing:                             # an older database: its rows keep NULL
                with self.transaction():
                    for name, kind in missing:
                        self.conn.execute(f"ALTER TABLE results ADD COLUMN {name} {kind}")
                    self.conn.execute("UPDATE survey_meta SET value = ? WHERE key = "
                                      "'schema_version'", (str(SCHEMA_VERSION),))
        except sqlite3.Error as exc:
            self.conn.close()
            raise ValueError(f"cannot write database {path!r}: {exc}") from None
        except ValueError:
            self.conn.close()
            raise

    def transaction(self):
        """``with db.transaction():`` — BEGIN IMMEDIATE ... COMMIT, ROLLBACK on any exception."""
        return _Transaction(self.conn)

    def pending(self, deals: range, limits: Limits) -> list[int]:
        """Deal numbers of ``deals`` still to solve: no row yet, or an UNKNOWN row whose limits
        the new ``limits`` extend (see :meth:`Limits.extends`)."""
        done = set()
        cursor = self.conn.execute(
            "SELECT deal, verdict, timeout, max_nodes, max_memory, threads FROM results "
            "WHERE game = ? AND deal BETWEEN ? AND ?", (self.game, deals.start, deals.stop - 1))
        for number, verdict, timeout, max_nodes, max_memory, threads in cursor:
            old = Limits(timeout, max_nodes, max_memory, threads or 1)
            if verdict != Verdict.UNKNOWN.value or not limits.extends(old):
                done.add(number)
        return [number for number in deals if number not in done]

    def save(self, version: str, rows: list[tuple], limits: Limits) -> None:
        """Write one chunk's rows (as :func:`solve_chunk` returns them) in one transaction."""
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        records = [(self.game, deal, verdict, reason, nodes, seconds, length,
                    limits.timeout, limits.max_nodes, limits.max_memory, version, now, via,
                    limits.threads)
                   for deal, verdict, reason, nodes, seconds, length, via in rows]
        placeholders = ", ".join("?" for _ in RESULT_COLUMNS)
        with self.transaction():
            self.conn.executemany(
                f"INSERT OR REPLACE INTO results ({', '.join(RESULT_COLUMNS)}) "
                f"VALUES ({placeholders})", records)

    def counts(self, deals: range) -> dict[str, int]:
        """Rows per verdict among ``deals``."""
        out = {v.value: 0 for v in Verdict}
        cursor = self.conn.execute(
            "SELECT verdict, COUNT(*) FROM results WHERE game = ? AND deal BETWEEN ? AND ? "
            "GROUP BY verdict", (self.game, deals.start, deals.stop - 1))
        for verdict, count in cursor:
            out[verdict] = count
        return out

    def close(self) -> None:
        self.conn.close()


class _Transaction:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("ROLLBACK")
        return False


# ---------------------------------------------------------------------------------------------
# Progress


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Progress:
    """Progress on ``stream`` (stderr by default): deals done, rate, time elapsed, ETA, winnable
    so far.

    On a terminal, a one-line bar redrawn in place at most every ``interval`` seconds. Anywhere
    else (a log file, a pipe), plain lines of the same text, at most one every ``line_interval``
    seconds (none before that much time has passed), so a long run under ``nohup ... 2>log``
    shows it is alive. Both draw the final state once more at :meth:`finish`. ``terminal``
    overrides the check of the stream.

    Drawing follows :meth:`update` (a deal or a chunk done) and :meth:`tick` (time alone); after
    :meth:`start_heartbeat` a thread calls ``tick`` every ``heartbeat`` seconds until
    :meth:`finish`, so that a deal running for minutes still shows the clock moving on a terminal
    and a line every ``line_interval`` in a log.
    """

    WIDTH = 20

    def __init__(self, total: int, stream=None, *, terminal: bool | None = None,
                 interval: float = 0.1, line_interval: float = 30.0, heartbeat: float = 1.0,
                 clock=time.monotonic):
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = _isatty(self.stream) if terminal is None else terminal
        self.interval = interval
        self.line_interval = line_interval
        self.heartbeat = heartbeat
        self.clock = clock
        self.started = clock()
        self.done = 0
        self.winnable = 0
        self._drawn_at = None
        self._line_at = self.started       # plain lines: the first one line_interval after start
        self._line_done = None             # deals done at the last plain line
        self._lock = threading.Lock()      # update() and the heartbeat thread draw in turn
        self._stop = threading.Event()
        self._thread = None

    def update(self, done: int, winnable: int) -> None:
        """Count ``done`` more deals, ``winnable`` of them winnable."""
        with self._lock:
            self.done += done
            self.winnable += winnable
            self._maybe_draw()

    def tick(self) -> None:
        """Redraw if it is time to, with no new deal: the elapsed time, rate and ETA move on."""
        with self._lock:
            self._maybe_draw()

    def start_heartbeat(self) -> "Progress":
        """Call :meth:`tick` every ``heartbeat`` seconds from a daemon thread until :meth:`finish`."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._beat, name="progress", daemon=True)
            self._thread.start()
        return self

    def _beat(self) -> None:
        while not self._stop.wait(self.heartbeat):
            self.tick()

    def _maybe_draw(self) -> None:
        now = self.clock()
        if self.terminal:
            if self._drawn_at is None or now - self._drawn_at >= self.interval:
                self._draw(now)
        elif now - self._line_at >= self.line_interval:
            self._write_line(now)

    def line(self, now: float | None = None) -> str:
        """The text of the bar."""
        elapsed = (self.clock() if now is None else now) - self.started
        share = self.done / self.total if self.total else 1.0
        filled = int(share * self.WIDTH)
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = _clock((self.total - self.done) / rate) if rate > 0 else "-:--:--"
        winnable = f"{100 * self.winnable / self.done:.1f}%" if self.done else "-"
        return (f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {self.done}/{self.total} "
                f"{100 * share:.1f}%  {rate:.1f} deals/s  elapsed {_clock(elapsed)}  ETA {eta}  "
                f"winnable {self.winnable} ({winnable})")

    def finish(self) -> None:
        """Stop the heartbeat, draw the final state and end the line (plain lines: write it,
        unless the last line already said the same)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        with self._lock:
            if self.terminal:
                self._draw(self.clock())
                self.stream.write("\n")
                self.stream.flush()
            elif self._line_done != self.done:
                self._write_line(self.clock())

    def _draw(self, now: float) -> None:
        self._drawn_at = now
        self.stream.write("\r" + self.line(now) + "\x1b[K")
        self.stream.flush()

    def _write_line(self, now: float) -> None:
        self._line_at, self._line_done = now, self.done
        self.stream.write(self.line(now) + "\n")
        self.stream.flush()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------------
# Executors: each yields (solver version, rows) per chunk, in completion order


def _pool_results(tasks: list[tuple], workers: int):
    methods = multiprocessing.get_all_start_methods()
    # Not fork: the parent holds an SQLite connection, which must not be shared with children.
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    pool = context.Pool(workers, initializer=init_pool_worker)
    try:
        yield from pool.imap_unordered(solve_chunk, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def connect_scheduler(address: str, timeout: float | None = None):
    """A ``dask.distributed.Client`` for ``address``; ValueError if dask is missing or the
    scheduler cannot be reached within ``timeout`` seconds."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs dask.distributed: "
                         "pip install 'russian-patience-solver[dask]'") from None
    timeout = SCHEDULER_CONNECT_TIMEOUT if timeout is None else timeout
    import logging
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.CRITICAL)       # failures are reported once, by us
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:                # dask raises OSError, TimeoutError, ValueError, ...
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise ValueError(f"cannot reach the Dask scheduler at {address!r}: {detail}") from None
    finally:
        logger.setLevel(level)


def _dask_results(client, tasks: list[tuple]):
    from dask.distributed import as_completed
    futures = client.map(solve_chunk, tasks, pure=False)
    try:
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
    finally:
        client.cancel(futures)


# ---------------------------------------------------------------------------------------------
# The survey


@dataclass
class SurveySummary:
    """What a survey run did. ``counts`` are the rows per verdict in the range afterwards."""

    game: str
    deals: range
    db_path: str
    skipped: int = 0            # deals already decided (or UNKNOWN under limits not smaller)
    solved: int = 0             # rows written by this run
    winnable: int = 0           # of those, winnable
    seconds: float = 0.0
    interrupted: bool = False
    counts: dict = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Deals solved per second in this run."""
        return self.solved / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        """One line for people."""
        c = self.counts
        stored = sum(c.values())
        return (f"{self.game} {format_deal_range(self.deals)}: {stored} of {len(self.deals)} deals "
                f"in {self.db_path} ({c.get('winnable', 0)} winnable, "
                f"{c.get('unwinnable', 0)} unwinnable, {c.get('unknown', 0)} unknown); "
                f"this run solved {self.solved} in {self.seconds:.1f} s ({self.rate:.1f} deals/s), "
                f"skipped {self.skipped}")


def default_workers(threads: int, cores: int | None = None) -> int:
    """Local worker processes when none are asked for: one per ``threads`` cores, so that
    every thread has a core of its own (two threads per deal on two cores: one worker), and at
    least one."""
    cores = (os.cpu_count() or 1) if cores is None else cores
    return max(1, cores // threads)


def run_survey(game, deals: range, db_path: str, *, limits: Limits = Limits(),
               workers: int | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE,
               scheduler: str | None = None, progress_stream=None) -> SurveySummary:
    """Solve every pending deal of ``deals`` and store one row per deal in ``db_path``.

    Pending: no row yet, or an UNKNOWN row whose limits ``limits`` extend. Runs on a local
    pool of ``workers`` processes (default: one per ``limits.threads`` cores, at least one) or,
    with ``scheduler``, on that Dask cluster. Bad input raises ValueError before anything is
    written. Ctrl-C stops the workers, keeps every chunk already committed and returns with
    ``interrupted`` set.
    """
    g = find_game(game)
    if not isinstance(deals, range) or len(deals) == 0 or deals.step != 1 or deals.start < 1:
        raise ValueError(f"bad deal range {deals!r}: expected a non-empty range of deal numbers")
    if workers is None:
        workers = default_workers(limits.threads)
    if workers < 1:
        raise ValueError(f"bad worker count {workers}: expected at least 1")
    if chunk_size < 1:
        raise ValueError(f"bad chunk size {chunk_size}: expected at least 1")
    check_database(db_path, g.id)
    client = connect_scheduler(scheduler) if scheduler else None
    try:
        db = SurveyDatabase(db_path, g.id)
        try:
            return _survey(g.id, deals, db, limits, workers, chunk_size, client, progress_stream)
        finally:
            db.close()
    finally:
        if client is not None:
            client.close()


def _survey(game: str, deals: range, db: SurveyDatabase, limits: Limits, workers: int,
            chunk_size: int, client, progress_stream) -> SurveySummary:
    summary = SurveySummary(game, deals, db.path)
    todo = db.pending(deals, limits)
    summary.skipped = len(deals) - len(todo)
    tasks = [(game, tuple(todo[i:i + chunk_size]), limits)
             for i in range(0, len(todo), chunk_size)]
    progress = Progress(len(todo), progress_stream)
    started = time.monotonic()
    previous_sigint = None
    if tasks:
        progress.start_heartbeat()
        results = (_dask_results(client, tasks) if client is not None
                   else _pool_results(tasks, min(workers, len(tasks))))
        try:
            for version, rows in results:
                db.save(version, rows, limits)
                winnable = sum(1 for row in rows if row[1] == Verdict.WINNABLE.value)
                summary.solved += len(rows)
                summary.winnable += winnable
                progress.update(len(rows), winnable)
        except KeyboardInterrupt:
            summary.interrupted = True
            if threading.current_thread() is threading.main_thread():
                previous_sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)   # clean up in peace
        finally:
            results.close()
            progress.finish()
    summary.seconds = time.monotonic() - started
    summary.counts = db.counts(deals)
    if previous_sigint is not None:
        signal.signal(signal.SIGINT, previous_sigint)
    return summary
