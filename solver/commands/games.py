"""``solver games``: the table of games."""
from __future__ import annotations

import json

from ..games import GAMES

NAME = "games"
HELP = "list the games: ids, names, decks, passes, PySol game ids"
DESCRIPTION = """\
List the nine games this solver knows: the id to type on the command line, the name (and the
Russian name), the number of decks, the number of passes through the stock, the PySol game id
where PySol plays the same rules, and the family (salic: Glencoe / Intrigue and their PySol
profiles; banner: Banner / Devil's Solitaire / Forget-me-not / Clover).

exit status: 0."""

COLUMNS = ["id", "name", "russian", "decks", "passes", "pysol", "family"]


def add_arguments(parser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of a table")


def game_rows() -> list[dict]:
    """One dict per game, in the order of GAMES."""
    return [{"id": g.id, "name": g.name, "russian": g.russian, "decks": g.decks,
             "passes": g.passes, "pysol": g.pysol_id, "family": g.family} for g in GAMES]


def format_table(rows: list[dict]) -> str:
    """A plain text table with a header line."""
    def text(value) -> str:
        return "-" if value is None else str(value)

    headers = {"id": "ID", "name": "NAME", "russian": "RUSSIAN", "decks": "DECKS",
               "passes": "PASSES", "pysol": "PYSOL", "family": "FAMILY"}
    widths = {c: max(len(headers[c]), *(len(text(r[c])) for r in rows)) for c in COLUMNS}
    numeric = {"decks", "passes", "pysol"}

    def line(cells: dict) -> str:
        parts = [cells[c].rjust(widths[c]) if c in numeric else cells[c].ljust(widths[c])
                 for c in COLUMNS]
        return "  ".join(parts).rstrip()

    out = [line(headers)]
    out += [line({c: text(r[c]) for c in COLUMNS}) for r in rows]
    return "\n".join(out)


def run(args) -> int:
    rows = game_rows()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        print(format_table(rows))
    return 0
