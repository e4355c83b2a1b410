"""``solver deal GAME N``: show a deal's layout. Also the shared deal arguments of other commands."""
from __future__ import annotations

import json
import re
import sys

from ..cards import card_name
from ..deals import Deal, deal_from_number, read_deal_file
from ..display import piles_if_dealt, render_deal, terminal_style
from ..games import find_game
from ..rules import initial_position

NAME = "deal"
HELP = "show the layout of a deal (by number or from a file)"
DESCRIPTION = """\
Show the initial layout of deal N of GAME, or of the explicit deal in --deal-file F.

N is a PySol deal number: a plain number (below 32000 Microsoft-compatible, from 32000 on
PySol's Mersenne Twister; any size) or msN (Microsoft-compatible, 1 .. 2^33-1). Deal N is the
deal PySolFC makes for game number N. A deal file (or '-' for stdin) holds the cards in deal
order separated by white space ('#' starts a comment), or the JSON form
{"game": ..., "cards": [...]}.

Salic family (Glencoe, Intrigue, PySol profiles): queen 1 and the piles as they form if the
whole stock were dealt without playing, one line per queen with the count of its cards.
Banner family: the reserve bottom to top (its top in brackets), the rank the foundation takes
first, cells 1..C, the waste, the stock in turn order and the passes.

Red suits are coloured when stdout is a terminal and NO_COLOR is unset. --ascii prints plain
letters (QH, TS) and no colour. --json prints {"game", "deal", "cards", "layout"} with the
cards in deal order.

exit status: 0 shown; 2 bad input (unknown game, bad deal number, bad deal file)."""


def add_deal_source(parser, *, number_required_help: str = "deal number: N or msN") -> None:
    """The GAME and N positionals and --deal-file, as ``solver deal`` and ``solver check`` take them."""
    parser.add_argument("game", metavar="GAME", help="game id (see 'solver games')")
    parser.add_argument("number", metavar="N", nargs="?", help=number_required_help)
    parser.add_argument("--deal-file", metavar="F",
                        help="read the deal from file F ('-' for stdin) instead of a number")


def deal_from_args(parser, args) -> Deal:
    """The deal that ``args`` name: exactly one of N and --deal-file (a usage error otherwise)."""
    if args.number is not None and args.deal_file is not None:
        parser.error("give either a deal number N or --deal-file, not both")
    if args.number is None and args.deal_file is None:
        parser.error("give a deal number N or --deal-file F")
    game = find_game(args.game)
    if args.deal_file is not None:
        return read_deal_file(game, args.deal_file)
    deal = deal_from_number(game, args.number)
    note_range_lookalike(parser.prog, args.number, deal)
    return deal


_RANGE_LOOKALIKE = re.compile(r"\s*\d+\s*\.\.\s*\d+\s*")


def note_range_lookalike(prog: str, text, deal: Deal, hint: str = "") -> None:
    """Where a deal number N reads like a range A..B, say on stderr which deal it is: PySol
    ignores '.' in deal numbers (RULES §4), so '1..5' is deal 15, not deals 1 to 5."""
    if _RANGE_LOOKALIKE.fullmatch(str(text)):
        print(f"{prog}: note: {str(text)!r} is deal {deal.number}, as PySol ignores '.' in deal "
              f"numbers{hint}", file=sys.stderr)


def deal_label(deal: Deal) -> str:
    """``intrigue 1`` or ``intrigue (custom deal)``."""
    return f"{deal.game} {deal.number}" if deal.number else f"{deal.game} (custom deal)"


def add_arguments(parser) -> None:
    add_deal_source(parser)
    parser.add_argument("--ascii", action="store_true", help="plain letters (QH), no colour")
    parser.add_argument("--json", action="store_true",
                        help='print {"game", "deal", "cards", "layout"} as JSON')
    parser.set_defaults(parser=parser)


def deal_json(deal: Deal) -> dict:
    """The JSON object ``solver deal --json`` prints."""
    position = initial_position(deal.game, deal)
    layout = position.layout()
    if position.game.family == "salic":
        layout["piles_if_dealt"] = [{"queen": card_name(queen), "cards": [card_name(c) for c in pile]}
                                    for queen, pile in piles_if_dealt(position)]
    return {"game": deal.game, "deal": deal.number or "custom",
            "cards": [card_name(c) for c in deal.cards], "layout": layout}


def run(args) -> int:
    deal = deal_from_args(args.parser, args)
    if args.json:
        print(json.dumps(deal_json(deal), ensure_ascii=False))
        return 0
    game = find_game(deal.game)
    style = terminal_style(args.ascii)
    position = initial_position(game, deal)
    print(f"{deal_label(deal)}: {game.name} ({game.russian}), {game.deck_size} cards, "
          f"{game.passes} pass{'es' if game.passes > 1 else ''}")
    print(render_deal(position, style))
    return 0
