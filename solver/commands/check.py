"""``solver check GAME N MOVES``: replay a line of moves with the reference rules."""
from __future__ import annotations

import sys

from ..display import render_position, terminal_style
from ..errors import IllegalMoveError, InvalidMoveError
from ..games import find_game
from ..moves import parse_moves
from ..rules import initial_position
from .deal import add_deal_source, deal_from_args, deal_label

NAME = "check"
HELP = "replay moves on a deal and say whether they win"
DESCRIPTION = """\
Replay MOVES on deal N of GAME (or the deal in --deal-file F) with the reference rules.

MOVES is a file, or '-' for stdin, holding moves in the notation of RULES §5 separated by
white space ('#' starts a comment): Salic family deal, 3>u5, 3>d5, 3>7; Banner family deal,
redeal, w>f, c3>f. Lines as 'solver solve' prints them ('12. 3>u5  7H') are read as their
one move, and its first line ('glencoe 7: winnable in 212 moves') is skipped, so its output
can be checked as it is. Moves after the one that wins are not needed; the check stops at the win.

Prints 'wins in K moves', or the first illegal move with its 1-based index and the reason, or
that the moves are legal but do not win and what is left. --show prints the layout after each
move (--ascii: plain letters, no colour).

exit status: 0 the moves win; 1 the moves are legal but do not win; 2 bad input: an unknown
game, a bad deal, an unreadable or malformed moves file, or an illegal move (one line on
stderr)."""

EXIT_WINS, EXIT_NOT_WON = 0, 1


def add_arguments(parser) -> None:
    add_deal_source(parser, number_required_help="deal number: N or msN (omit with --deal-file)")
    parser.add_argument("moves", metavar="MOVES", help="file of moves, '-' for stdin")
    parser.add_argument("--show", action="store_true", help="print the layout after each move")
    parser.add_argument("--ascii", action="store_true", help="plain letters (QH), no colour")
    parser.set_defaults(parser=parser)


def read_moves(path: str, family: str) -> list:
    """Moves from a file or stdin; InvalidMoveError names the token, line and move index."""
    if path == "-":
        text = sys.stdin.read()
        source = "stdin"
    else:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except UnicodeDecodeError:
            raise InvalidMoveError(f"moves file {path!r} is not UTF-8 text") from None
        source = repr(path)
    moves = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        try:
            moves.extend(parse_moves(line, family))
        except InvalidMoveError as exc:
            index = len(moves) + _good_tokens_before_error(line, family) + 1
            raise InvalidMoveError(f"{exc} (move {index}, {source} line {lineno})") from None
    return moves


def _good_tokens_before_error(line: str, family: str) -> int:
    """How many moves of ``line`` parse before the first bad one (parse_moves failed on it)."""
    good = 0
    for token in line.split("#", 1)[0].split():
        try:
            parse_moves(token, family)
        except InvalidMoveError:
            return good
        good += 1
    return good


def what_is_left(position) -> str:
    """Why a position is not won, in a few words."""
    game = position.game
    if game.family == "salic":
        off = 96 - position.foundation_count()
        stock = len(position.stock)
        if off == 0:
            return (f"all cards are on the foundations but the stock still holds {stock} "
                    f"card{'s' if stock != 1 else ''} (PySol counts a game won only once the "
                    f"stock is empty)")
        on_piles = sum(map(len, position.piles))
        return (f"{off} card{'s' if off != 1 else ''} not on the foundations "
                f"({on_piles} on the piles, {off - on_piles} in the stock)")
    runs = len(position.reserve)
    return (f"{runs} run{'s' if runs != 1 else ''} still to complete "
            f"(foundation holds {len(position.foundation)} of 12; {len(position.stock)} cards in "
            f"the stock, {len(position.waste)} on the waste; pass {position.passes} of "
            f"{game.max_passes})")


def run(args) -> int:
    if args.deal_file == "-" and args.moves == "-":
        args.parser.error("the deal and the moves cannot both come from stdin")
    if args.number is None and args.deal_file is None:
        args.parser.error("give GAME N MOVES, or GAME --deal-file F MOVES")
    deal = deal_from_args(args.parser, args)
    game = find_game(deal.game)
    moves = read_moves(args.moves, game.family)
    position = initial_position(game, deal)
    style = terminal_style(args.ascii)
    label = deal_label(deal)
    if args.show:
        print(f"{label}: initial layout")
        print(render_position(position, style))
    for index, move in enumerate(moves, start=1):
        why = position.refusal(move)
        if why is not None:
            raise IllegalMoveError(f"{label}: move {index} ({move}) is illegal: {why}")
        position = position.apply(move)
        if args.show:
            print(f"\nafter move {index}: {move}")
            print(render_position(position, style))
        if position.is_won():
            extra = len(moves) - index
            note = f" (the {extra} move{'s' if extra != 1 else ''} after it are not needed)" if extra else ""
            print(f"{label}: wins in {index} move{'s' if index != 1 else ''}{note}")
            return EXIT_WINS
    count = len(moves)
    print(f"{label}: {'all ' if count > 1 else ''}{count} move{'s' if count != 1 else ''} "
          f"{'are' if count != 1 else 'is'} legal but do{'es' if count == 1 else ''} not win: "
          f"{what_is_left(position)}")
    return EXIT_NOT_WON
