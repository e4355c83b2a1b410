"""Deals: PySol-compatible deal numbers (RULES §4) and explicit card lists.

A :class:`Deal` is the game id plus its cards in *deal order* (the first card dealt first).
Each game's layout (in :mod:`solver.rules`) says how it consumes that order.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass

from pysol_cards.cards import ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from . import _dealgen
from .cards import QUEEN, card_name, full_deck, parse_card, rank_of
from .errors import InvalidDealError
from .games import Game, find_game

MS_MAX = 2 ** 33 - 1          # LCRandom31 takes seeds 1 .. 2^33-1
LC_LIMIT = 32000              # plain numbers below this use LCRandom31 (RULES §4.2)
_SEPARATORS = re.compile(r"[\s#\-_.,]")


@dataclass(frozen=True)
class Deal:
    """A game id and its cards in deal order; ``number`` is ``"N"``/``"msN"`` or None."""

    game: str
    cards: tuple
    number: str | None = None

    def __str__(self) -> str:
        return f"{self.game} {self.number or 'custom'}"

    def to_json(self) -> dict:
        return {"game": self.game, "cards": [card_name(c) for c in self.cards]}


def parse_deal_number(text: "str | int") -> tuple[int, bool]:
    """``"123"`` -> (123, False); ``"ms123"`` -> (123, True). Raises InvalidDealError."""
    raw = str(text)
    t = raw.strip().lower()
    if t.startswith("ms"):
        digits = t[2:]
        if not digits.isdigit():
            raise InvalidDealError(f"bad deal number {raw!r}: expected N or msN with N a positive integer")
        n = int(digits)
        if not 1 <= n <= MS_MAX:
            raise InvalidDealError(f"bad deal number {raw!r}: ms numbers run from 1 to {MS_MAX}")
        return n, True
    if t.startswith("-"):
        raise InvalidDealError(f"bad deal number {raw!r}: deal numbers are positive")
    digits = _SEPARATORS.sub("", t)
    if not digits.isdigit():
        raise InvalidDealError(f"bad deal number {raw!r}: expected N or msN with N a positive integer")
    n = int(digits)
    if n < 1:
        raise InvalidDealError(f"bad deal number {raw!r}: deal numbers start at 1")
    return n, False


def deal_label(seed: int, ms: bool) -> str:
    return f"ms{seed}" if ms else str(seed)


def pysol_shuffle(decks: int, seed: int, ms: bool) -> list[int]:
    """PySol's shuffled card list (RULES §4.1-3): the *last* element is dealt first."""
    cards = [d * 52 + c for d in range(decks) for c in range(52)]   # PySol card ids
    if ms or seed < LC_LIMIT:
        rng = LCRandom31()
        rng.setSeed(seed)
        if len(cards) == 52:
            cards = ms_rearrange(cards)
    else:
        rng = MTRandom(seed)
    return [c % 52 for c in rng.shuffle(cards)]


def deal_order(game: Game, seed: int, ms: bool) -> list[int]:
    """Deal order of deal ``seed`` of ``game`` (RULES §4.4-5), from the C generator."""
    family = "salic" if game.family == "salic" else "banner"
    return list(_dealgen.deal_order(family, game.decks, seed, ms))


def deal_order_reference(game: Game, seed: int, ms: bool) -> list[int]:
    """:func:`deal_order` in pure Python over pysol_cards: the reference the C generator matches."""
    shuffled = pysol_shuffle(game.decks, seed, ms)
    if game.family == "salic":
        first_queen = next(i for i, c in enumerate(shuffled) if rank_of(c) == QUEEN)
        shuffled.append(shuffled.pop(first_queen))
    return shuffled[::-1]


def deal_from_number(game: "str | Game", number: "str | int") -> Deal:
    """Deal number ``N`` or ``msN`` of ``game``."""
    g = find_game(game)
    seed, ms = parse_deal_number(number)
    return Deal(g.id, tuple(deal_order(g, seed, ms)), deal_label(seed, ms))


def check_cards(game: Game, cards: list[int], tokens: "list[str] | None" = None) -> None:
    """Raise InvalidDealError unless ``cards`` holds every card of the game's decks once per deck."""
    tokens = tokens or [card_name(c) for c in cards]
    counts: Counter = Counter()
    for pos, (card, token) in enumerate(zip(cards, tokens), start=1):
        counts[card] += 1
        if counts[card] > game.decks:
            times = "once" if game.decks == 1 else f"{game.decks} times"
            raise InvalidDealError(
                f"card {token!r} at position {pos} is present more than {times} ({game.id} uses "
                f"{game.decks} deck{'s' if game.decks > 1 else ''})")
    if len(cards) != game.deck_size:
        missing = [card_name(c) for c in full_deck(1) if counts[c] < game.decks]
        raise InvalidDealError(
            f"{game.id} needs {game.deck_size} cards, got {len(cards)}"
            + (f"; missing: {' '.join(missing[:8])}{' …' if len(missing) > 8 else ''}" if missing else ""))


def parse_cards(game: "str | Game", text: str, number: str | None = None) -> Deal:
    """A deal from white-space separated card tokens in deal order; ``#`` starts a comment.

    A JSON object ``{"game": ..., "cards": [...]}`` is accepted too.
    """
    g = find_game(game)
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return _parse_json(g, stripped)
    tokens = []
    for line in text.splitlines():
        tokens.extend(line.split("#", 1)[0].split())
    return _deal_from_tokens(g, tokens, number)


def _deal_from_tokens(g: Game, tokens: list, number: str | None = None) -> Deal:
    cards = []
    for pos, token in enumerate(tokens, start=1):
        if not isinstance(token, str):
            raise InvalidDealError(f"token {token!r} at position {pos} is not a card")
        try:
            cards.append(parse_card(token))
        except ValueError:
            raise InvalidDealError(f"unknown card {token!r} at position {pos}") from None
    check_cards(g, cards, tokens)
    return Deal(g.id, tuple(cards), number)


def _parse_json(g: Game, text: str) -> Deal:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidDealError(f"bad JSON deal: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("cards"), list):
        raise InvalidDealError('a JSON deal must be an object {"game": ..., "cards": [...]}')
    if "game" in obj and find_game(obj["game"]).id != g.id:
        raise InvalidDealError(f"the JSON deal is for game {obj['game']!r}, not {g.id!r}")
    return _deal_from_tokens(g, obj["cards"], obj.get("deal") if isinstance(obj.get("deal"), str) else None)


def read_deal_file(game: "str | Game", path: str) -> Deal:
    """Read a deal file (``-`` for stdin)."""
    import sys
    if path == "-":
        text = sys.stdin.read()
    else:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            raise InvalidDealError(f"cannot read deal file {path!r}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise InvalidDealError(f"deal file {path!r} is not UTF-8 text") from None
    return parse_cards(game, text)


def as_deal(game: "str | Game", deal: "Deal | int | str") -> Deal:
    """Accept a Deal, a number or ``"msN"``."""
    g = find_game(game)
    if isinstance(deal, Deal):
        if deal.game != g.id:
            raise InvalidDealError(f"deal is for game {deal.game!r}, not {g.id!r}")
        return deal
    if isinstance(deal, bool) or not isinstance(deal, (int, str)):
        raise InvalidDealError(f"not a deal: {deal!r}")
    return deal_from_number(g, deal)
