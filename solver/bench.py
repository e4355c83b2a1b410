"""The benchmark: the compiled core on a range of deals, the pure-Python reference beside it.

For every deal of every game, in one process and one after the other: :func:`solver.solve`
(the compiled core, timed twice: the core's own search seconds and the wall time of the whole
call, which includes translating the line to notation), then, on the first deals of the range,
:func:`solver.reference_search.reference_solve` with a node budget. On greedily winnable deals
(defined at :func:`is_greedy`) the core's search is set against merely replaying its own
solution through the core. :func:`summarize` turns the per-deal records into the figures of
issue 4; :func:`write_results` saves them as JSON and Markdown. benchmarks/README.md explains
every column.
"""
from __future__ import annotations

import json
import math
import multiprocessing
import os
import platform
import signal
import statistics
import subprocess
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .games import GAMES, find_game
from .result import Verdict
from .survey import init_pool_worker, parse_deal_range

DEFAULT_TIMEOUT = 10.0          # seconds per deal, core and reference alike
DEFAULT_REFERENCE_NODES = 10_000
DEFAULT_REPLAY_REPEAT = 5       # best of this many, for both sides of the greedy figure
PERCENTILES = (50, 90, 99)


@dataclass(frozen=True)
class BenchSettings:
    """What one benchmark run does. ``reference_deals`` is how many deals from the start of
    the range also go through the reference search (None: all of them; 0: none). ``threads``
    is solve()'s (2: a second search beside the usual one, other random lines in the PySol
    profiles and the exhaustive search alone elsewhere; then no deal counts as greedily
    winnable, since the statistics add up both threads' nodes). ``seed`` is solve()'s too (the
    random lines' in the PySol profiles; 0 the usual search)."""

    games: tuple
    deals: range
    timeout: float | None = DEFAULT_TIMEOUT
    max_memory: int | None = None
    max_nodes: int | None = None
    reference_nodes: int = DEFAULT_REFERENCE_NODES
    reference_deals: int | None = None
    replay_repeat: int = DEFAULT_REPLAY_REPEAT
    jobs: int = 1
    threads: int = 1
    seed: int = 0

    def __post_init__(self):
        if not self.games:
            raise ValueError("no games to benchmark")
        if len(self.deals) == 0 or self.deals.step != 1 or self.deals.start < 1:
            raise ValueError(f"bad deal range {self.deals!r}: expected deal numbers from 1")
        if self.timeout is not None and not (self.timeout > 0 and math.isfinite(self.timeout)):
            raise ValueError(f"bad timeout {self.timeout!r}: expected a positive number of seconds")
        for name in ("reference_nodes", "replay_repeat", "jobs"):
            if getattr(self, name) < 1:
                raise ValueError(f"bad {name.replace('_', ' ')} {getattr(self, name)!r}: "
                                 f"expected a positive integer")
        if self.threads not in (1, 2):
            raise ValueError(f"bad thread count {self.threads!r}: expected 1 or 2")
        if not 0 <= self.seed < 1 << 64:
            raise ValueError(f"bad seed {self.seed!r}: expected an integer from 0 to 2**64 - 1")
        if self.reference_deals is not None and self.reference_deals < 0:
            raise ValueError(f"bad reference deal count {self.reference_deals!r}")

    def with_reference(self, number: int) -> bool:
        """Whether deal ``number`` also goes through the reference search."""
        return self.reference_deals is None or number < self.deals.start + self.reference_deals

    def to_json(self) -> dict:
        out = asdict(self)
        out["games"] = list(self.games)
        out["deals"] = f"{self.deals.start}..{self.deals.stop - 1}"
        return out


@dataclass
class DealRecord:
    """The measurements of one deal. Seconds: ``core_seconds`` is the core's own search time
    (Result.stats.seconds), ``wall_seconds`` the whole solve() call. The ``greedy_*`` fields are
    set on greedily winnable deals only, the ``reference_*`` fields on deals the reference
    search ran on."""

    game: str
    deal: int
    verdict: str
    reason: str | None
    nodes: int
    states: int
    core_seconds: float
    wall_seconds: float
    table_bytes: int
    solution_length: int | None = None
    greedy_search_seconds: float | None = None     # best of replay_repeat core searches
    greedy_replay_seconds: float | None = None     # best of replay_repeat replays of the line
    reference_verdict: str | None = None
    reference_reason: str | None = None
    reference_nodes: int | None = None
    reference_seconds: float | None = None         # the reference's own search time
    reference_wall_seconds: float | None = None
    via: str | None = None                         # the nested game that decided (Result.via)

    @property
    def decided(self) -> bool:
        return self.verdict != Verdict.UNKNOWN.value

    @property
    def both_decided(self) -> bool:
        return self.decided and self.reference_verdict not in (None, Verdict.UNKNOWN.value)


def is_greedy(result) -> bool:
    """Greedily winnable: the core won without backtracking, every position it expanded lies
    on the winning line (nodes == solution length)."""
    return result.verdict is Verdict.WINNABLE and result.stats.nodes == len(result.moves)


def measure_deal(game_id: str, number: int, settings: BenchSettings) -> DealRecord:
    """Run one deal through the core (and the reference search when the settings say so)."""
    from .api import solve
    from .core import DEFAULT_RULES, SearchInterrupted, core_game
    from .deals import deal_from_number
    from .reference_search import reference_solve

    game = find_game(game_id)
    deal = deal_from_number(game, number)
    started = time.perf_counter()
    try:
        result = solve(game.id, deal, max_nodes=settings.max_nodes, timeout=settings.timeout,
                       max_memory=settings.max_memory, threads=settings.threads,
                       seed=settings.seed)
    except SearchInterrupted:
        raise KeyboardInterrupt from None
    wall = time.perf_counter() - started
    s = result.stats
    record = DealRecord(game.id, number, result.verdict.value, result.reason, s.nodes, s.states,
                        s.seconds, wall, s.table_bytes)
    if result.verdict is Verdict.WINNABLE:
        record.solution_length = len(result.moves)
        record.via = result.via
    if settings.threads == 1 and is_greedy(result):
        core = core_game(game, deal)
        best_search, path = math.inf, None
        for _ in range(settings.replay_repeat):
            status, path, *_, seconds, _ = core.search(0, 0.0, settings.max_memory or (1 << 30),
                                                       DEFAULT_RULES)
            best_search = min(best_search, seconds)
        replay, won = core.replay_seconds(path, settings.replay_repeat)
        if status != "win" or not won:
            raise RuntimeError(f"{game.id} {number}: the core's own line does not replay to a win")
        record.greedy_search_seconds, record.greedy_replay_seconds = best_search, replay
    if settings.with_reference(number):
        started = time.perf_counter()
        reference = reference_solve(game.id, deal, max_nodes=settings.reference_nodes,
                                    timeout=settings.timeout)
        record.reference_wall_seconds = time.perf_counter() - started
        record.reference_verdict = reference.verdict.value
        record.reference_reason = reference.reason
        record.reference_nodes = reference.stats.nodes
        record.reference_seconds = reference.stats.seconds
    return record


def _measure_task(task: tuple) -> DealRecord:
    return measure_deal(*task)


@contextmanager
def sigint_ignored():
    """Ctrl-C ignored inside the block (in the main thread; elsewhere signals cannot be set and
    do not arrive anyway): for cleaning up and saving after a first Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_bench`: a KeyboardInterrupt that carries the records of the
    deals measured before it (in run_bench's order; the deals in flight are lost)."""

    def __init__(self, records: list):
        super().__init__()
        self.records = records


def run_bench(settings: BenchSettings, progress=None) -> list[DealRecord]:
    """Measure every deal of every game; ``progress`` (optional) gets ``update(done, winnable)``
    after each deal. ``settings.jobs`` > 1 spreads the deals over that many processes (each
    deal still runs its core and reference searches one after the other in one process).
    Records come sorted by game (in the settings' order), then deal. Ctrl-C stops the work
    (and the processes) and raises :class:`BenchInterrupted` with the records measured so far."""
    tasks = [(game, number, settings) for game in settings.games for number in settings.deals]
    records = []
    order = {game: i for i, game in enumerate(settings.games)}

    def collect(record: DealRecord) -> None:
        records.append(record)
        if progress is not None:
            progress.update(1, int(record.verdict == Verdict.WINNABLE.value))

    try:
        if settings.jobs == 1:
            for task in tasks:
                collect(_measure_task(task))
        else:
            _measure_in_pool(tasks, settings.jobs, collect)
    except KeyboardInterrupt:
        records.sort(key=lambda r: (order[r.game], r.deal))
        raise BenchInterrupted(records) from None
    records.sort(key=lambda r: (order[r.game], r.deal))
    return records


def _measure_in_pool(tasks: list, jobs: int, collect) -> None:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    pool = context.Pool(jobs, initializer=init_pool_worker)
    try:
        for record in pool.imap_unordered(_measure_task, tasks):
            collect(record)
        pool.close()
    finally:
        with sigint_ignored():          # a second Ctrl-C must not cut the shutdown short
            pool.terminate()
            pool.join()


# ---------------------------------------------------------------------------------------------
# Figures


def percentile(values: list, p: float) -> float | None:
    """The nearest-rank ``p``-th percentile: the smallest value with at least p% of the values
    at or below it. None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def spread(values: list) -> dict:
    """median / p90 / p99 / max (nearest rank; the median of an even count is the lower one)."""
    out = {("median" if p == 50 else f"p{p}"): percentile(values, p) for p in PERCENTILES}
    out["max"] = max(values) if values else None
    return out


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator > 0 else None


def summarize_game(records: list[DealRecord]) -> dict:
    """The figures of one game (records of that game only)."""
    counts = {v.value: 0 for v in Verdict}
    unknown_reasons: dict = {}
    for r in records:
        counts[r.verdict] += 1
        if not r.decided:
            unknown_reasons[r.reason] = unknown_reasons.get(r.reason, 0) + 1
    core_total = sum(r.core_seconds for r in records)
    lengths = [r.solution_length for r in records if r.solution_length is not None]
    summary = {
        "deals": len(records),
        "counts": counts,
        "unknown_reasons": unknown_reasons,
        "core_seconds": spread([r.core_seconds for r in records]),
        "wall_seconds": spread([r.wall_seconds for r in records]),
        "core_total_seconds": core_total,
        "wall_total_seconds": sum(r.wall_seconds for r in records),
        "nodes_per_second": _ratio(sum(r.nodes for r in records), core_total),
        "peak_table_bytes": max((r.table_bytes for r in records), default=0),
        "median_solution_length": statistics.median_low(lengths) if lengths else None,
        "won_via_inner_game": sum(1 for r in records if r.via and r.verdict == "winnable"),
        "lost_via_outer_game": sum(1 for r in records if r.via and r.verdict == "unwinnable"),
    }
    summary["reference"] = _summarize_reference(records)
    summary["greedy"] = _summarize_greedy(records)
    return summary


def _summarize_reference(records: list[DealRecord]) -> dict:
    ran = [r for r in records if r.reference_verdict is not None]
    counts = {v.value: 0 for v in Verdict}
    for r in ran:
        counts[r.reference_verdict] += 1
    both = [r for r in ran if r.both_decided]
    disagreements = [r.deal for r in both if r.verdict != r.reference_verdict]
    ref_total = sum(r.reference_seconds for r in both)
    core_total = sum(r.core_seconds for r in both)
    ref_wall = sum(r.reference_wall_seconds for r in both)
    wall_total = sum(r.wall_seconds for r in both)
    return {
        "deals": len(ran),
        "counts": counts,
        "both_decided": len(both),
        "disagreements": disagreements,
        "reference_total_seconds": ref_total,
        "core_total_seconds": core_total,
        "reference_total_wall_seconds": ref_wall,
        "wall_total_seconds": wall_total,
        # Ratios of total times over the deals both searches decided.
        "speedup_search": _ratio(ref_total, core_total),
        "speedup_wall": _ratio(ref_wall, wall_total),
        "reference_nodes_per_second": _ratio(sum(r.reference_nodes for r in ran),
                                             sum(r.reference_seconds for r in ran)),
    }


def _summarize_greedy(records: list[DealRecord]) -> dict:
    greedy = [r for r in records if r.greedy_replay_seconds is not None]
    search = [r.greedy_search_seconds / r.greedy_replay_seconds for r in greedy
              if r.greedy_replay_seconds > 0]
    wall = [r.wall_seconds / r.greedy_replay_seconds for r in greedy if r.greedy_replay_seconds > 0]
    return {
        "deals": len(greedy),
        "median_search_seconds": percentile([r.greedy_search_seconds for r in greedy], 50),
        "median_replay_seconds": percentile([r.greedy_replay_seconds for r in greedy], 50),
        "median_search_over_replay": percentile(search, 50),
        "median_wall_over_replay": percentile(wall, 50),
    }


# ---------------------------------------------------------------------------------------------
# Where and on what


def machine_info() -> dict:
    """CPU model, cores, memory, OS and Python of this machine."""
    info = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
            "memory_bytes": None, "os": platform.platform(),
            "python": f"{platform.python_implementation()} {platform.python_version()}"}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    info["memory_bytes"] = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    return info


def git_commit(directory: "str | Path | None" = None) -> dict:
    """The commit of the checkout holding the package, and whether its code has uncommitted
    changes (solver/, csrc/, setup.py). Outside a git checkout: the commit a `git archive` of
    the sources recorded in solver/_commit.py (dirty unknown), else nulls."""
    directory = Path(directory or Path(__file__).resolve().parent.parent)

    def git(*args):
        return subprocess.run(["git", *args], cwd=directory, capture_output=True, text=True,
                              timeout=30)
    try:
        head = git("rev-parse", "HEAD")
        if head.returncode == 0:
            status = git("status", "--porcelain", "--", "solver", "csrc", "setup.py")
            return {"commit": head.stdout.strip(), "dirty": bool(status.stdout.strip())}
    except (OSError, subprocess.SubprocessError):
        pass
    from . import _commit
    if _commit.COMMIT.startswith("$"):
        return {"commit": None, "dirty": None}
    return {"commit": _commit.COMMIT, "dirty": None}


# ---------------------------------------------------------------------------------------------
# Results


@dataclass
class BenchReport:
    """A finished run: settings, where it ran, the figures per game and the per-deal rows.
    ``interrupted``: Ctrl-C ended the run early, and the rows are the deals measured before."""

    settings: BenchSettings
    records: list
    started_at: str
    seconds: float
    machine: dict = field(default_factory=machine_info)
    git: dict = field(default_factory=git_commit)
    interrupted: bool = False

    def summary(self) -> dict:
        return {game: summarize_game([r for r in self.records if r.game == game])
                for game in self.settings.games}

    def to_json(self) -> dict:
        from . import __version__
        columns = list(DealRecord.__dataclass_fields__)
        return {
            "kind": "solver-bench",
            "solver_version": __version__,
            "started_at": self.started_at,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "machine": self.machine,
            "git": self.git,
            "settings": self.settings.to_json(),
            "games": self.summary(),
            "deal_columns": columns,
            "deal_rows": [[getattr(r, c) for c in columns] for r in self.records],
        }


def bench(settings: BenchSettings, progress=None) -> BenchReport:
    """Run the benchmark and return its report. Ctrl-C ends the run early: the report then
    holds the deals measured before it, with ``interrupted`` set."""
    started_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    machine, commit = machine_info(), git_commit()      # the code as it was when the run began
    t0 = time.perf_counter()
    try:
        records, interrupted = run_bench(settings, progress), False
    except BenchInterrupted as stop:
        records, interrupted = stop.records, True
    return BenchReport(settings, records, started_at, time.perf_counter() - t0, machine, commit,
                       interrupted)


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    ms = seconds * 1000
    return f"{ms:.3g}" if ms < 1000 else f"{ms:,.0f}"


def _us(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e6:.3g}"


def _times(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}×" if value >= 100 else f"{value:.3g}×"


def _mib(size: int) -> str:
    return f"{size / (1 << 20):,.1f}"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value / 1e6:.2f} M" if value >= 1e6 else f"{value / 1e3:.0f} k"


def markdown(report: dict) -> str:
    """The Markdown tables of a report (as :meth:`BenchReport.to_json` returns it)."""
    s, m, g = report["settings"], report["machine"], report["git"]
    memory = f"{m['memory_bytes'] / (1 << 30):.1f} GiB" if m.get("memory_bytes") else "?"
    commit = (g.get("commit") or "?")[:12] + (" (uncommitted changes)" if g.get("dirty") else "")
    limit = f"{s['timeout']:g} s" if s["timeout"] else "none"
    memory_limit = f"{s['max_memory'] / (1 << 30):g} GiB" if s["max_memory"] else "1 GiB"
    lines = [
        f"## Benchmark: deals {s['deals']}, {report['started_at']}",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {memory}, {m['python']}; commit {commit}; "
        f"solver {report['solver_version']}. Limits per deal: {limit}, {memory_limit} of table"
        + (f", {s['max_nodes']} nodes" if s.get("max_nodes") else "")
        + f"; {s['jobs']} process{'es' if s['jobs'] != 1 else ''}"
        + (f", {s['threads']} threads each" if s.get("threads", 1) != 1 else "")
        + (f", random-lines seed {s['seed']}" if s.get("seed") else "")
        + f". Run took {report['seconds']:.0f} s.",
        "",
    ]
    if report.get("interrupted"):
        planned = len(s["games"]) * len(parse_deal_range(s["deals"]))
        measured = sum(f["deals"] for f in report["games"].values())
        lines += [f"**The run was interrupted** (Ctrl-C) after {measured} of {planned} deals: "
                  "the figures below are those of the deals measured.", ""]
    lines += [
        "**Compiled core**, seconds of search per deal as the core measures it (Result.stats.seconds; "
        "unknown deals included, at their limit):",
        "",
        "| game | deals | winnable | unwinnable | unknown | median ms | p90 ms | p99 ms | max ms "
        "| nodes/s | peak table MiB | median length |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    games = report["games"]
    for game, f in games.items():
        c, t = f["counts"], f["core_seconds"]
        length = f["median_solution_length"]
        lines.append(
            f"| {game} | {f['deals']} | {c['winnable']} | {c['unwinnable']} | {c['unknown']} "
            f"| {_ms(t['median'])} | {_ms(t['p90'])} | {_ms(t['p99'])} | {_ms(t['max'])} "
            f"| {_rate(f['nodes_per_second'])} | {_mib(f['peak_table_bytes'])} "
            f"| {length if length is not None else '-'} |")
    via = [f"{game} {f['won_via_inner_game']}" for game, f in games.items()
           if f.get("won_via_inner_game")]
    if via:
        lines += ["", "Won via the inner game (the game's own search ran out; docs/solver.md, "
                  "\"Inner game\"), of the winnable deals above: " + ", ".join(via) + "."]
    lost = [f"{game} {f['lost_via_outer_game']}" for game, f in games.items()
            if f.get("lost_via_outer_game")]
    if lost:
        lines += ["", "Proved unwinnable via the outer game (docs/solver.md, \"Outer game\"), of "
                  "the unwinnable deals above: " + ", ".join(lost) + "."]
    lines += [
        "",
        "**Wall time per `solve()` call** (the search plus setting up the deal and translating the "
        "winning line into notation with the reference rules):",
        "",
        "| game | median ms | p90 ms | p99 ms | max ms | total s |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    for game, f in games.items():
        t = f["wall_seconds"]
        lines.append(f"| {game} | {_ms(t['median'])} | {_ms(t['p90'])} | {_ms(t['p99'])} "
                     f"| {_ms(t['max'])} | {f['wall_total_seconds']:.1f} |")
    lines += [""] + _reference_table(s, games) + [""] + _greedy_table(s, games)
    return "\n".join(lines) + "\n"


def _reference_table(s: dict, games: dict) -> list:
    """The reference section of :func:`markdown`: a table, or one sentence when no deal went
    through the reference search."""
    if not any(f["reference"]["deals"] for f in games.values()):
        if s["reference_deals"] == 0:
            return ["The reference search was not run (--reference-deals 0)."]
        return ["No deal went through the reference search."]
    ref_deals = "every deal" if s["reference_deals"] is None else f"the first {s['reference_deals']} deals"
    lines = [
        f"**Pure-Python reference search** on {ref_deals} of the range, at most "
        f"{s['reference_nodes']:,} nodes per deal, in the same process right after the core. "
        "Speed-up = ratio of the *total* times over the deals both decided: reference search "
        "seconds / core search seconds, and reference wall / `solve()` wall:",
        "",
        "| game | deals | ref. winnable | ref. unwinnable | ref. unknown | both decided "
        "| disagree | ref. nodes/s | speed-up (search) | speed-up (wall) |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for game, f in games.items():
        r = f["reference"]
        c = r["counts"]
        lines.append(
            f"| {game} | {r['deals']} | {c['winnable']} | {c['unwinnable']} | {c['unknown']} "
            f"| {r['both_decided']} | {len(r['disagreements'])} "
            f"| {_rate(r['reference_nodes_per_second'])} | {_times(r['speedup_search'])} "
            f"| {_times(r['speedup_wall'])} |")
    return lines


def _greedy_table(s: dict, games: dict) -> list:
    """The greedy section of :func:`markdown`: a table, or one sentence when no deal was
    greedily winnable."""
    if s.get("threads", 1) != 1:
        return [f"No search / replay comparison with --threads {s['threads']}: the statistics add "
                "up both threads' nodes, so a greedy win cannot be told from them."]
    if not any(f["greedy"]["deals"] for f in games.values()):
        return ["No deal was greedily winnable (won with nodes = solution length), so there is "
                "no search / replay comparison."]
    lines = [
        "**Greedily winnable deals** (the core expanded only the positions of its winning line: "
        "nodes = solution length): the core's search against replaying its own line through the "
        f"core (apply, key, won test per move); best of {s['replay_repeat']} each, medians over the "
        "deals:",
        "",
        "| game | greedy deals | search µs | replay µs | search / replay | `solve()` wall / replay |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    for game, f in games.items():
        gr = f["greedy"]
        lines.append(f"| {game} | {gr['deals']} | {_us(gr['median_search_seconds'])} "
                     f"| {_us(gr['median_replay_seconds'])} | {_times(gr['median_search_over_replay'])} "
                     f"| {_times(gr['median_wall_over_replay'])} |")
    return lines


def check_output_directory(directory: "str | Path") -> None:
    """Raise ValueError unless the results can be saved in ``directory``: a writable directory,
    or one that can be made (its nearest existing ancestor a writable directory). Checked before
    a run, so that a long run is not lost at the end for want of a place to save it."""
    path = Path(directory).absolute()
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"cannot save the results in {str(directory)!r}: "
                         f"{str(existing)!r} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"cannot save the results in {str(directory)!r}: "
                         f"{str(existing)!r} is not writable")


def write_results(report: BenchReport, directory: "str | Path") -> tuple[Path, Path]:
    """Save ``bench-YYYYMMDD-HHMMSS.json`` and ``.md`` in ``directory``; returns both paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.fromisoformat(report.started_at).strftime("%Y%m%d-%H%M%S")
    data = report.to_json()
    json_path = directory / f"bench-{stamp}.json"
    md_path = directory / f"bench-{stamp}.md"
    json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    md_path.write_text(markdown(data), encoding="utf-8")
    return json_path, md_path


def default_games() -> tuple:
    """Every game, in the order of ``solver games``."""
    return tuple(g.id for g in GAMES)
