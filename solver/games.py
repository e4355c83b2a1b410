"""The nine games: their rules as class attributes, one list, and ``find_game``.

RULES.md is the contract; docs/rules.md restates it. A game is a small immutable value;
the reference rules in :mod:`solver.rules` read these attributes and nothing else.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

from .errors import UnknownGameError


@dataclass(frozen=True)
class Game:
    id: str
    name: str
    russian: str
    decks: int
    pysol_id: int | None

    family = "?"

    @property
    def deck_size(self) -> int:
        return 52 * self.decks

    @property
    def passes(self) -> int:
        return 1

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class SalicGame(Game):
    """Glencoe / Intrigue and the PySol profiles (RULES §1, §3)."""

    suited_slots: bool = False        # Glencoe: a 5 or 6 starts a slot only of a queen of its suit
    slots_from_start: bool = False    # pysol-intrigue: 8 up and 8 down slots exist from the start
    park_after_stock: bool = False    # PySol: cards go onto empty queens only once the stock is empty
    win_needs_empty_stock: bool = False  # PySol: won only once the stock is empty too

    family = "salic"


@dataclass(frozen=True)
class BannerGame(Game):
    """Banner / Devil's Solitaire / Forget-me-not / Clover (RULES §2)."""

    reserve_size: int = 8
    cells: int = 8
    max_passes: int = 2
    sixes_reserve: bool = False       # Clover: the four sixes are the reserve

    family = "banner"

    @property
    def passes(self) -> int:
        return self.max_passes


GAMES: list[Game] = [
    SalicGame("glencoe", "Glencoe", "Гленко", 2, None, suited_slots=True),
    SalicGame("intrigue", "Intrigue", "Интрига", 2, None),
    BannerGame("banner", "Banner", "Знамя", 2, None, reserve_size=8, cells=8, max_passes=2),
    BannerGame("devils-solitaire", "Devil's Solitaire", "Чертов пасьянс", 2, 723,
               reserve_size=8, cells=8, max_passes=3),
    BannerGame("forget-me-not", "Forget-me-not", "Незабудка", 1, None,
               reserve_size=4, cells=4, max_passes=3),
    BannerGame("clover", "Clover", "Трефовидный", 1, None,
               reserve_size=4, cells=4, max_passes=3, sixes_reserve=True),
    SalicGame("pysol-intrigue", "Intrigue (PySol)", "Интрига", 2, 523,
              slots_from_start=True, park_after_stock=True, win_needs_empty_stock=True),
    SalicGame("pysol-laggard-lady", "Laggard Lady (PySol)", "Интрига", 2, 616,
              park_after_stock=True, win_needs_empty_stock=True),
    SalicGame("pysol-glencoe", "Glencoe (PySol)", "Гленко", 2, 612,
              suited_slots=True, park_after_stock=True, win_needs_empty_stock=True),
]

GAME_IDS = [g.id for g in GAMES]

#: (smaller, larger): on every position every move of the first game is a move of the second,
#: deal N is the same cards in both and the win is the same (docs/rules.md, "Nested rule sets").
#: So a line that wins deal N of the smaller game wins deal N of the larger one, move for move.
NESTED_PAIRS = [("pysol-glencoe", "glencoe"), ("glencoe", "intrigue"),
                ("pysol-glencoe", "pysol-laggard-lady"), ("pysol-laggard-lady", "intrigue"),
                ("pysol-laggard-lady", "pysol-intrigue"), ("banner", "devils-solitaire")]

#: The game whose search ``solve()`` tries when a game's own search runs out of its limit, and
#: the share of the time and node limits kept for it (docs/solver.md, "Inner game"): for each
#: game one smaller game of NESTED_PAIRS, the one whose rules differ from it in a single point
#: (Intrigue: Glencoe, the seed rules' own pair). Intrigue keeps half for Glencoe: of the deals
#: at 60 s its own search decided none after 10 s, while Glencoe's wins there came after 13 s.
INNER_GAME = {"intrigue": ("glencoe", 1 / 2), "glencoe": ("pysol-glencoe", 1 / 3),
              "pysol-intrigue": ("pysol-laggard-lady", 1 / 3),
              "pysol-laggard-lady": ("pysol-glencoe", 1 / 3),
              "devils-solitaire": ("banner", 1 / 3)}

#: The game whose search ``solve()`` tries last, with what the game's own search and its inner
#: game's left, where both ended undecided or the inner game was proved lost (docs/solver.md,
#: "Outer game"): a larger game of NESTED_PAIRS, whose UNWINNABLE is the game's too (a line that
#: won the game would win it). Only where the larger game has lost deals and the smaller one's
#: inner search can end early: PySol Intrigue proves 14 of deals 1..100,000 unwinnable at 2 s,
#: 8 of them among the 293 PySol Laggard Lady leaves unknown there, and PySol Laggard Lady 6913,
#: never decided by its own search (400 s), is lost in PySol Glencoe in 2 s and in PySol
#: Intrigue in 13 s. Intrigue, the larger game of Glencoe and PySol Laggard
#: Lady, has no lost deal in 1..100,000; a larger game of PySol Glencoe or Banner would get no
#: time, their own searches keeping the whole limit.
OUTER_GAME = {"pysol-laggard-lady": "pysol-intrigue"}

_BY_ID = {g.id: g for g in GAMES}


def find_game(game: "str | Game") -> Game:
    """The game with this id (case-insensitive); UnknownGameError suggests the nearest ids."""
    if isinstance(game, Game):
        return game
    key = str(game).strip().lower().replace("_", "-")
    if key in _BY_ID:
        return _BY_ID[key]
    near = difflib.get_close_matches(key, GAME_IDS, n=3, cutoff=0.4)
    hint = f"; did you mean {', '.join(near)}?" if near else f"; known games: {', '.join(GAME_IDS)}"
    raise UnknownGameError(f"unknown game {game!r}{hint}")
