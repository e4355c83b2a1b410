"""An exhaustive solver for Glencoe, Intrigue, Banner, Forget-me-not and their variants."""
from .api import solve
from .cards import card_name, parse_card
from .deals import Deal, deal_from_number, parse_cards, read_deal_file
from .errors import IllegalMoveError, InvalidDealError, InvalidMoveError, UnknownGameError
from .games import GAMES, find_game
from .moves import Move, parse_moves
from .result import Result, Stats, Verdict

__version__ = "0.1.0"

__all__ = ["solve", "Deal", "deal_from_number", "parse_cards", "read_deal_file", "GAMES",
           "find_game", "Move", "parse_moves", "Result", "Stats", "Verdict", "card_name",
           "parse_card", "InvalidDealError", "UnknownGameError", "InvalidMoveError",
           "IllegalMoveError", "__version__"]
