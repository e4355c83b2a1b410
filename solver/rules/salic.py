"""Reference rules of the Salic family: Glencoe, Intrigue and the PySol profiles (RULES §1, §3).

Readable first: this is what a reader checks the rules against. ``apply`` returns a new
position and leaves the old one as it was; ``play`` makes the move in place.
"""
from __future__ import annotations

from ..cards import FIVE, KING, QUEEN, SIX, card_name, rank_of, suit_of
from ..errors import IllegalMoveError
from ..games import SalicGame
from ..moves import DEAL, DOWN, PARK, UP, Move

UP_SEQUENCE = [5, 6, 7, 8, 9, 10]        # 6 7 8 9 T J (rank indices)
DOWN_SEQUENCE = [4, 3, 2, 1, 0, 12]      # 5 4 3 2 A K
SLOT_SIZE = 6
NON_QUEENS = 96


def next_rank(slot: list, kind: str) -> int | None:
    """The rank a slot accepts next, or None when it is complete."""
    seq = UP_SEQUENCE if kind == UP else DOWN_SEQUENCE
    return seq[len(slot)] if len(slot) < SLOT_SIZE else None


class SalicPosition:
    """A position: stock, queens with their piles, and the up/down foundation slots.

    ``piles[k]`` lies on queen k+1 (bottom first). ``up[k]``/``down[k]`` are the cards on slot
    k+1: in the seed rules slot k+1 belongs to queen k+1 and exists once it is laid down; in
    ``pysol-intrigue`` all eight of each exist from the start.
    """

    def __init__(self, game: SalicGame, cards):
        self.game = game
        cards = list(cards)
        first_queen = next(i for i, c in enumerate(cards) if rank_of(c) == QUEEN)
        queen = cards.pop(first_queen)
        self.stock: list = cards                # next card first
        self.queens: list = [queen]
        self.piles: list = [[]]
        nslots = 8 if game.slots_from_start else 1
        self.up: list = [[] for _ in range(nslots)]
        self.down: list = [[] for _ in range(nslots)]

    def copy(self) -> "SalicPosition":
        new = object.__new__(SalicPosition)
        new.game = self.game
        new.stock = list(self.stock)
        new.queens = list(self.queens)
        new.piles = [list(p) for p in self.piles]
        new.up = [list(s) for s in self.up]
        new.down = [list(s) for s in self.down]
        return new

    # -- queries -------------------------------------------------------------------------
    def foundation_count(self) -> int:
        return sum(map(len, self.up)) + sum(map(len, self.down))

    def is_won(self) -> bool:
        if self.foundation_count() != NON_QUEENS:
            return False
        return not (self.game.win_needs_empty_stock and self.stock)

    def parking_allowed(self) -> bool:
        return not (self.game.park_after_stock and self.stock)

    def fits(self, card: int, kind: str, number: int) -> bool:
        """Whether ``card`` may go on slot ``number`` (1-based) of ``kind``: ``slot_refusal`` is
        None, without building the reason (tests hold the two to each other)."""
        slots = self.up if kind == UP else self.down
        if not 1 <= number <= len(slots):
            return False
        slot = slots[number - 1]
        if next_rank(slot, kind) != rank_of(card):
            return False
        return bool(slot) or not self.game.suited_slots or \
            suit_of(card) == suit_of(self.queens[number - 1])

    def fitting_slots(self, card: int):
        """Every slot ``card`` fits, as (kind, number), in the order ``legal_moves`` lists them
        (a generator). A rank belongs to one sequence only, so only that kind's slots are tried."""
        kind, slots = (UP, self.up) if rank_of(card) in UP_SEQUENCE else (DOWN, self.down)
        return ((kind, j) for j in range(1, len(slots) + 1) if self.fits(card, kind, j))

    def slot_refusal(self, card: int, kind: str, number: int) -> str | None:
        """Why ``card`` cannot go on slot ``number`` (1-based) of ``kind``, or None if it fits."""
        slots = self.up if kind == UP else self.down
        name = f"{'u' if kind == UP else 'd'}{number}"
        if not 1 <= number <= len(slots):
            if self.game.slots_from_start:
                return f"there is no slot {name}"
            return f"there is no slot {name}: queen {number} is not on the table"
        slot = slots[number - 1]
        want = next_rank(slot, kind)
        if want is None:
            return f"{name} is complete"
        if rank_of(card) == want:
            if not slot and self.game.suited_slots and suit_of(card) != suit_of(self.queens[number - 1]):
                return (f"{card_name(card)} cannot start {name}: a slot takes a 5 or 6 only of its "
                        f"queen's suit (queen {card_name(self.queens[number - 1])})")
            return None
        if not slot:
            start = "6" if kind == UP else "5"
            return f"{card_name(card)} cannot start {name} (it starts with a {start})"
        return f"{card_name(card)} does not fit on {name} (top {card_name(slot[-1])})"

    def legal_moves(self) -> list[Move]:
        """Every legal move, each notation once, in a fixed order."""
        moves = []
        for i, pile in enumerate(self.piles, start=1):
            if not pile:
                continue
            moves.extend(Move(kind, i, j) for kind, j in self.fitting_slots(pile[-1]))
            if self.parking_allowed():
                for j, other in enumerate(self.piles, start=1):
                    if not other:
                        moves.append(Move(PARK, i, j))
        if self.stock:
            moves.append(Move(DEAL))
        return moves

    def refusal(self, move: Move) -> str | None:
        """Why ``move`` is illegal here, or None when it is legal."""
        if move.kind == DEAL:
            return "the stock is empty" if not self.stock else None
        if move.kind not in (UP, DOWN, PARK):
            return f"{move} is not a move of this game"
        if not 1 <= move.src <= len(self.piles):
            return f"there is no pile {move.src}: queen {move.src} is not on the table"
        pile = self.piles[move.src - 1]
        if not pile:
            return f"pile {move.src} is empty"
        card = pile[-1]
        if move.kind in (UP, DOWN):
            return None if self.fits(card, move.kind, move.dst) else \
                self.slot_refusal(card, move.kind, move.dst)
        if not 1 <= move.dst <= len(self.piles):
            return f"there is no queen {move.dst} on the table"
        target = self.piles[move.dst - 1]
        if target:
            return f"{card_name(card)} cannot go onto queen {move.dst}: it is not empty (top {card_name(target[-1])})"
        if not self.parking_allowed():
            return "cards go onto empty queens only once the stock is empty"
        return None

    # -- moves ---------------------------------------------------------------------------
    def apply(self, move: Move) -> "SalicPosition":
        """The position after ``move``; IllegalMoveError saying why if it is not legal."""
        self._check(move)
        new = self.copy()
        new._make(move)
        return new

    def play(self, move: Move) -> None:
        """Make ``move`` in this position; IllegalMoveError saying why (and no change) if it is
        not legal."""
        self._check(move)
        self._make(move)

    def _check(self, move: Move) -> None:
        why = self.refusal(move)
        if why is not None:
            raise IllegalMoveError(f"{move}: {why}")

    def _make(self, move: Move) -> None:
        """``play`` once ``move`` is known to be legal."""
        if move.kind == DEAL:
            card = self.stock.pop(0)
            if rank_of(card) == QUEEN:
                self.queens.append(card)
                self.piles.append([])
                if not self.game.slots_from_start:
                    self.up.append([])
                    self.down.append([])
            else:
                self.piles[-1].append(card)
            return
        card = self.piles[move.src - 1].pop()
        if move.kind == UP:
            self.up[move.dst - 1].append(card)
        elif move.kind == DOWN:
            self.down[move.dst - 1].append(card)
        else:
            self.piles[move.dst - 1].append(card)

    def moved_card(self, move: Move) -> int | None:
        """The card ``move`` would move (for printing solutions)."""
        if move.kind == DEAL:
            return self.stock[0] if self.stock else None
        if 1 <= move.src <= len(self.piles) and self.piles[move.src - 1]:
            return self.piles[move.src - 1][-1]
        return None

    # -- invariants (tests) --------------------------------------------------------------
    def all_cards(self) -> list:
        """Every card in the position, wherever it lies."""
        out = list(self.stock) + list(self.queens)
        for group in (self.piles, self.up, self.down):
            for seq in group:
                out.extend(seq)
        return out

    def key(self) -> tuple:
        """A hashable value that identifies the position exactly."""
        return (len(self.stock), tuple(map(tuple, self.piles)), tuple(map(tuple, self.up)),
                tuple(map(tuple, self.down)))

    def layout(self) -> dict:
        return {
            "queens": [card_name(q) for q in self.queens],
            "piles": [[card_name(c) for c in p] for p in self.piles],
            "up": [[card_name(c) for c in s] for s in self.up],
            "down": [[card_name(c) for c in s] for s in self.down],
            "stock": [card_name(c) for c in self.stock],
        }


def _check_constants():
    assert UP_SEQUENCE[0] == SIX and DOWN_SEQUENCE[0] == FIVE and DOWN_SEQUENCE[-1] == KING


_check_constants()
