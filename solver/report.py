"""The winnability table of survey databases: shares with Wilson intervals, times, a plot.

Unknown deals are counted both ways, as Blake & Gent do for Klondike: the low end treats every
UNKNOWN deal as a loss, the high end as a win, and the 95% interval runs from the Wilson lower
bound of the low count to the Wilson upper bound of the high count. docs/survey.md explains.
"""
from __future__ import annotations

import math
import os
import sqlite3
import statistics
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field

from .games import GAMES, NESTED_PAIRS
from .result import Verdict

Z95 = 1.959963984540054           # the 97.5th percentile of the standard normal
SQLITE_MAGIC = b"SQLite format 3\x00"


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial share ``successes / trials`` (default 95%)."""
    if trials <= 0:
        raise ValueError("the Wilson interval needs at least one trial")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes} outside 0..{trials}")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # At the ends the bound is exactly 0 (or 1); the formula leaves a rounding crumb there.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def nearest_rank(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest value with ``fraction`` of the values at or below."""
    if not sorted_values:
        raise ValueError("no values")
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass
class GameReport:
    """One game's line of the table."""

    game: str
    winnable: int
    unwinnable: int
    unknown: int
    seconds: list = field(default_factory=list, repr=False)        # sorted solve times
    verdicts: list = field(default_factory=list, repr=False)       # aligned with seconds
    solver_versions: list = field(default_factory=list)
    via: dict = field(default_factory=dict)      # inner game -> deals won through its line
    lost_via: dict = field(default_factory=dict)  # outer game -> deals proved lost through it

    @property
    def deals(self) -> int:
        return self.winnable + self.unwinnable + self.unknown

    @property
    def decided(self) -> int:
        return self.winnable + self.unwinnable

    @property
    def share_low(self) -> float:
        """Winnable share with every unknown deal counted as a loss."""
        return self.winnable / self.deals

    @property
    def share_high(self) -> float:
        """Winnable share with every unknown deal counted as a win."""
        return (self.winnable + self.unknown) / self.deals

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval: Wilson low end of the low share, Wilson high end of the high share."""
        return (wilson_interval(self.winnable, self.deals)[0],
                wilson_interval(self.winnable + self.unknown, self.deals)[1])

    @property
    def median_seconds(self) -> float:
        return statistics.median(self.seconds)

    @property
    def p99_seconds(self) -> float:
        return nearest_rank(self.seconds, 0.99)

    @property
    def max_seconds(self) -> float:
        return self.seconds[-1]

    def to_json(self) -> dict:
        low, high = self.interval
        return {"game": self.game, "deals": self.deals, "decided": self.decided,
                "winnable": self.winnable, "unwinnable": self.unwinnable, "unknown": self.unknown,
                "winnable_share": {"unknown_as_loss": self.share_low,
                                   "unknown_as_win": self.share_high},
                "interval95": [low, high],
                "seconds": {"median": self.median_seconds, "p99": self.p99_seconds,
                            "max": self.max_seconds},
                "solver_versions": self.solver_versions,
                "won_via_inner_game": dict(sorted(self.via.items())),
                "lost_via_outer_game": dict(sorted(self.lost_via.items()))}


def _open_readonly(path: str) -> sqlite3.Connection:
    if not os.path.isfile(path):
        raise ValueError(f"no survey database {path!r}" if not os.path.exists(path)
                         else f"{path!r} is not a regular file")
    try:
        with open(path, "rb") as fh:
            header = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise ValueError(f"cannot read {path!r}: {exc.strerror}") from None
    if header != SQLITE_MAGIC:
        raise ValueError(f"{path!r} is not an SQLite database")
    from urllib.parse import quote
    return sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)


def read_rows(paths: list[str]) -> dict[str, dict[int, tuple]]:
    """The rows of the survey databases ``paths``: game -> deal -> (verdict, seconds, inner game
    or None, solver version).

    A deal of a game that appears in two of the files is an error.
    """
    rows: dict[str, dict[int, tuple]] = {}
    origin: dict[tuple, str] = {}
    for path in paths:
        try:
            with closing(_open_readonly(path)) as conn:
                tables = {name for (name,) in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}
                if "results" not in tables:
                    raise ValueError(f"{path!r} is not a survey database (it has no 'results' table)")
                columns = {row[1] for row in conn.execute("PRAGMA table_info(results)")}
                # Schema version 1 databases (before the inner game) have no via column.
                via_column = "via" if "via" in columns else "NULL"
                cursor = conn.execute(f"SELECT game, deal, verdict, seconds, solver_version, "
                                      f"{via_column} FROM results")
                for game, deal, verdict, seconds, version, via in cursor:
                    if (game, deal) in origin:
                        raise ValueError(f"deal {deal} of {game} is in both {origin[game, deal]!r} "
                                         f"and {path!r}")
                    origin[game, deal] = path
                    rows.setdefault(game, {})[deal] = (verdict, float(seconds), via, version)
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"cannot read survey database {path!r}: {exc}") from None
    return rows


def reports_from_rows(rows: dict[str, dict[int, tuple]]) -> list[GameReport]:
    """One :class:`GameReport` per game of ``rows`` (as :func:`read_rows` gives them), in the
    order of :data:`solver.games.GAMES` (then any other game ids alphabetically)."""
    order = {g.id: i for i, g in enumerate(GAMES)}
    reports = []
    for game in sorted(rows, key=lambda name: (order.get(name, len(order)), name)):
        pairs = sorted(((seconds, verdict) for verdict, seconds, _, _ in rows[game].values()))
        via = Counter(v for verdict, _, v, _ in rows[game].values()
                      if v and verdict == Verdict.WINNABLE.value)
        lost_via = Counter(v for verdict, _, v, _ in rows[game].values()
                           if v and verdict == Verdict.UNWINNABLE.value)
        counts = {v.value: 0 for v in Verdict}
        for _, verdict in pairs:
            if verdict not in counts:
                raise ValueError(f"unknown verdict {verdict!r} for {game} in the survey databases")
            counts[verdict] += 1
        versions = sorted({version for _, _, _, version in rows[game].values()})
        reports.append(GameReport(game, counts["winnable"], counts["unwinnable"], counts["unknown"],
                                  [s for s, _ in pairs], [v for _, v in pairs], versions,
                                  dict(via), dict(lost_via)))
    return reports


def read_reports(paths: list[str]) -> list[GameReport]:
    """One :class:`GameReport` per game found in the survey databases ``paths``, in the order of
    :data:`solver.games.GAMES` (then any other game ids alphabetically).

    A deal of a game that appears in two of the files is an error.
    """
    return reports_from_rows(read_rows(paths))


@dataclass
class NestingCheck:
    """The rows of two nested games held to their nesting (docs/rules.md, "Nested rule sets").

    Every move of ``smaller`` is a move of ``larger``, so a deal won in the smaller game is won
    in the larger, and a deal unwinnable in the larger game is unwinnable in the smaller. Over
    the deals with a row in both games: ``contradictions`` are won in the smaller game and
    unwinnable in the larger (one of the two verdicts is wrong); ``won_by_smaller`` are unknown
    in the larger game and won in the smaller, so winnable; ``lost_by_larger`` are unknown in
    the smaller game and unwinnable in the larger, so unwinnable.
    """

    smaller: str
    larger: str
    both_decided: int
    contradictions: list = field(default_factory=list)
    won_by_smaller: list = field(default_factory=list)
    lost_by_larger: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {"smaller": self.smaller, "larger": self.larger, "both_decided": self.both_decided,
                "contradictions": self.contradictions, "won_by_smaller": self.won_by_smaller,
                "lost_by_larger": self.lost_by_larger}


def check_nesting(rows: dict[str, dict[int, tuple]]) -> list[NestingCheck]:
    """One :class:`NestingCheck` per pair of :data:`solver.games.NESTED_PAIRS` with rows of both
    games in ``rows`` (as :func:`read_rows` gives them), in that list's order; deals ascending."""
    checks = []
    for smaller, larger in NESTED_PAIRS:
        if smaller not in rows or larger not in rows:
            continue
        check = NestingCheck(smaller, larger, 0)
        small, large = rows[smaller], rows[larger]
        for deal in sorted(small.keys() & large.keys()):
            verdicts = (small[deal][0], large[deal][0])
            if "unknown" not in verdicts:
                check.both_decided += 1
                if verdicts == ("winnable", "unwinnable"):
                    check.contradictions.append(deal)
            elif verdicts == ("winnable", "unknown"):
                check.won_by_smaller.append(deal)
            elif verdicts == ("unknown", "unwinnable"):
                check.lost_by_larger.append(deal)
        checks.append(check)
    return checks


def _percent(share: float) -> str:
    return f"{100 * share:.2f}"


def _seconds(value: float) -> str:
    return f"{value:.3g}"


def format_markdown(reports: list[GameReport], nesting: list[NestingCheck] = ()) -> str:
    """The table as GitHub markdown; with ``nesting``, the nesting checks under it."""
    header = ("| game | deals | decided | winnable | unknown | winnable % | 95% interval "
              "| median s | p99 s | max s |")
    lines = [header, "|---|" + "---:|" * 9]
    for r in reports:
        low, high = r.interval
        share = (_percent(r.share_low) if r.unknown == 0
                 else f"{_percent(r.share_low)}–{_percent(r.share_high)}")
        lines.append(f"| {r.game} | {r.deals} | {r.decided} | {r.winnable} | {r.unknown} | {share} "
                     f"| {_percent(low)}–{_percent(high)} | {_seconds(r.median_seconds)} "
                     f"| {_seconds(r.p99_seconds)} | {_seconds(r.max_seconds)} |")
    if not reports:
        lines.append("| (no rows) | 0 | 0 | 0 | 0 | | | | | |")
    lines.append("")
    lines.append("winnable %: unknown deals counted as losses–as wins; 95% interval: Wilson score, "
                 "low end with unknowns as losses, high end with unknowns as wins.")
    inner = [f"{r.game} {n} (via {g})" for r in reports for g, n in sorted(r.via.items())]
    if inner:
        lines.append("")
        lines.append("Won through the inner game's line (docs/solver.md, \"Inner game\"): "
                     + ", ".join(inner) + ".")
    outer = [f"{r.game} {n} (via {g})" for r in reports for g, n in sorted(r.lost_via.items())]
    if outer:
        lines.append("")
        lines.append("Proved unwinnable through the outer game (docs/solver.md, \"Outer game\"): "
                     + ", ".join(outer) + ".")
    if nesting:
        lines.append("")
        lines.extend(format_nesting(nesting))
    return "\n".join(lines)


def _deal_list(deals: list[int], shown: int = 10) -> str:
    text = ", ".join(str(d) for d in deals[:shown])
    return text + (f" and {len(deals) - shown} more" if len(deals) > shown else "")


def format_nesting(nesting: list[NestingCheck]) -> list[str]:
    """The nesting checks as markdown lines: a table, then the deals behind its last columns."""
    lines = ["Nested rule sets (docs/rules.md): a deal won in the smaller game is won in the "
             "larger; one unwinnable in the larger game is unwinnable in the smaller.", "",
             "| smaller ⊂ larger | both decided | contradictions | larger unknown, smaller won "
             "| smaller unknown, larger unwinnable |",
             "|---|--:|--:|--:|--:|"]
    for c in nesting:
        lines.append(f"| {c.smaller} ⊂ {c.larger} | {c.both_decided} | {len(c.contradictions)} "
                     f"| {len(c.won_by_smaller)} | {len(c.lost_by_larger)} |")
    notes = []
    for c in nesting:
        if c.contradictions:
            notes.append(f"- CONTRADICTIONS, won in {c.smaller} and unwinnable in {c.larger} "
                         f"(one of the two verdicts is wrong): {_deal_list(c.contradictions)}.")
        if c.won_by_smaller:
            notes.append(f"- Winnable in {c.larger} by the nesting (unknown there, won in "
                         f"{c.smaller}): {_deal_list(c.won_by_smaller)}.")
        if c.lost_by_larger:
            notes.append(f"- Unwinnable in {c.smaller} by the nesting (unknown there, unwinnable "
                         f"in {c.larger}): {_deal_list(c.lost_by_larger)}.")
    if notes:
        lines.append("")
        lines.extend(notes)
    return lines


def to_json(reports: list[GameReport], sources: list[str],
            nesting: list[NestingCheck] = ()) -> dict:
    """The table (and the nesting checks) as a JSON-ready dict."""
    return {"sources": list(sources), "confidence": 0.95, "interval_method": "wilson",
            "games": [r.to_json() for r in reports], "nesting": [c.to_json() for c in nesting]}


def plot_times(reports: list[GameReport], path: str) -> None:
    """Save a PNG: per game, a histogram of solve times on a log axis, stacked by verdict, with
    the winnable share and its interval in the panel title. Needs matplotlib (extra ``plot``)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import NullFormatter
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'russian-patience-solver[plot]'") from None
    if not reports:
        raise ValueError("nothing to plot: the survey databases hold no rows")
    positive = [s for r in reports for s in r.seconds if s > 0]
    floor = min(positive) if positive else 1e-6
    top = max(max(positive) if positive else 1.0, floor * 10)
    bins = [floor * (top / floor) ** (i / 40) for i in range(41)]
    colours = {"winnable": "#2e7d32", "unwinnable": "#c62828", "unknown": "#9e9e9e"}
    fig, axes = plt.subplots(len(reports), 1, figsize=(8, 1.9 * len(reports) + 0.8),
                             sharex=True, squeeze=False)
    for ax, r in zip(axes[:, 0], reports):
        stacks = [[max(s, floor) for s, v in zip(r.seconds, r.verdicts) if v == verdict]
                  for verdict in colours]
        ax.hist(stacks, bins=bins, stacked=True, color=list(colours.values()),
                label=list(colours))
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        low, high = r.interval
        share = (f"{_percent(r.share_low)}%" if r.unknown == 0
                 else f"{_percent(r.share_low)}–{_percent(r.share_high)}%")
        ax.set_title(f"{r.game}: {r.deals} deals, winnable {share} "
                     f"(95% {_percent(low)}–{_percent(high)}%)", fontsize=9)
        ax.axvline(r.median_seconds, color="black", linewidth=0.8, linestyle="--")
        ax.set_ylabel("deals", fontsize=8)
        ax.tick_params(labelsize=8)
    axes[0, 0].legend(fontsize=7, loc="upper right")
    axes[-1, 0].set_xlabel("solve time per deal, seconds (log scale; dashed: median)")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise ValueError(f"cannot write plot {path!r}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
