"""The command line, run as a subprocess: output, exit statuses and one-line errors."""
import json
import signal
import subprocess
import sys

import pytest

from proc_helpers import sigint_default, wait_until_idle
from solver import solve
from solver.cards import card_name
from solver.deals import deal_from_number
from solver.display import Style, terminal_style
from solver.result import Verdict
from solver.rules import initial_position


def assert_one_line_error(result, *fragments, status=2):
    assert result.returncode == status, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("solver"), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


# -- games / deal ------------------------------------------------------------------------------

def test_games_table(run_solver):
    result = run_solver("games")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 10 and lines[0].split()[:3] == ["ID", "NAME", "RUSSIAN"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert "Чертов пасьянс" in rows["devils-solitaire"] and " 723 " in rows["devils-solitaire"]
    assert rows["pysol-intrigue"].split()[-2:] == ["523", "salic"]
    assert rows["forget-me-not"].split()[-4:] == ["1", "3", "-", "banner"]


def test_deal_intrigue_1_shows_the_rules_layout(run_solver):
    result = run_solver("deal", "intrigue", "1", "--ascii")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert "Queen 1: QD; stock: 103 cards." in lines
    pile_lines = [line for line in lines if " | " in line]
    assert len(pile_lines) == 8
    assert pile_lines[0] == " 1  QD | " + "3D 5H JC KH 5S 5H KC KC 8D JD AS 8C 6C 6H TC 8D 4C JS" + "  (19)"
    assert sum(int(line.rsplit("(", 1)[1].rstrip(")")) for line in pile_lines) == 104


def test_deal_uses_suit_symbols_without_colour_on_a_pipe(run_solver):
    result = run_solver("deal", "intrigue", "1")
    assert " 1  Q♦ | 3♦ 5♥ J♣ K♥" in result.stdout and "\x1b[" not in result.stdout


def test_colour_only_on_a_terminal_without_no_color(monkeypatch):
    class Tty:
        def isatty(self):
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert terminal_style(False, Tty()) == Style(ascii=False, colour=True)
    assert terminal_style(True, Tty()) == Style(ascii=True, colour=False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert terminal_style(False, Tty()) == Style(ascii=False, colour=False)
    assert Style(colour=True).card(51) == "\x1b[31mK♦\x1b[0m" and Style(colour=True).card(0) == "A♣"


def test_deal_devils_solitaire_1_banner_layout(run_solver):
    out = run_solver("deal", "devils-solitaire", "1", "--ascii").stdout
    assert "Reserve (bottom -> top): 3D 5H JC KH 5S 5H KC [KC]" in out
    assert "Foundation: empty, takes A" in out
    assert "Cells: 1:8D  2:JD  3:AS  4:8C  5:6C  6:6H  7:TC  8:8D" in out
    assert "Waste (1, top last): 4C" in out
    assert "Stock (87, in turn order): JS QC 4H KD 2H TD 8S AC" in out
    assert "Pass 1 of 3" in out


def test_deal_json(run_solver):
    result = run_solver("deal", "clover", "ms77", "--json")
    obj = json.loads(result.stdout)
    deal = deal_from_number("clover", "ms77")
    assert obj["game"] == "clover" and obj["deal"] == "ms77"
    assert obj["cards"] == [card_name(c) for c in deal.cards]
    assert obj["layout"] == initial_position("clover", deal).layout()
    salic = json.loads(run_solver("deal", "glencoe", "1", "--json").stdout)
    piles = salic["layout"]["piles_if_dealt"]
    assert piles[0]["queen"] == "QD" and len(piles[0]["cards"]) == 18
    assert sum(len(p["cards"]) + 1 for p in piles) == 104


def test_deal_file_from_stdin_equals_the_numbered_deal(run_solver):
    cards = " ".join(card_name(c) for c in deal_from_number("banner", 42).cards)
    by_file = run_solver("deal", "banner", "--deal-file", "-", "--ascii", stdin=cards)
    by_number = run_solver("deal", "banner", "42", "--ascii")
    assert by_file.returncode == 0
    assert by_file.stdout.splitlines()[1:] == by_number.stdout.splitlines()[1:]
    assert by_file.stdout.startswith("banner (custom deal)")


# -- user errors: one line on stderr, exit 2 ---------------------------------------------------

@pytest.mark.parametrize("args, fragments", [
    (["deal", "intrigu", "1"], ["unknown game 'intrigu'", "did you mean intrigue"]),
    (["deal", "intrigue", "0"], ["bad deal number '0'"]),
    (["deal", "intrigue", "-5"], ["bad deal number '-5'"]),
    (["deal", "intrigue", "five"], ["bad deal number 'five'"]),
    (["deal", "intrigue", "ms8589934592"], ["bad deal number 'ms8589934592'"]),
    (["deal", "intrigue", "--deal-file", "no-such-file"], ["no-such-file", "No such file"]),
    (["check", "intrigue", "1", "no-such-moves"], ["no-such-moves", "No such file"]),
    (["deal", "intrigue"], ["give a deal number N or --deal-file F"]),
    (["deal", "intrigue", "1", "--deal-file", "x"], ["not both"]),
    (["deal", "intrigue", "1", "--bogus"], ["unrecognized arguments: --bogus"]),
    (["check", "intrigue", "1"], ["give GAME N MOVES"]),
    (["frobnicate"], ["invalid choice: 'frobnicate'"]),
    ([], ["no command given"]),
    (["check", "intrigue", "--deal-file", "-", "-"], ["cannot both come from stdin"]),
])
def test_bad_input_is_one_line_exit_2(run_solver, args, fragments):
    assert_one_line_error(run_solver(*args), *fragments)


def test_bad_deal_file_names_token_and_position(run_solver):
    tokens = [card_name(c) for c in deal_from_number("forget-me-not", 1).cards]
    tokens[9] = "1X"
    result = run_solver("deal", "forget-me-not", "--deal-file", "-", stdin=" ".join(tokens))
    assert_one_line_error(result, "unknown card '1X' at position 10")
    result = run_solver("deal", "forget-me-not", "--deal-file", "-", stdin=" ".join(tokens[:9]))
    assert_one_line_error(result, "needs 52 cards, got 9")


def test_version_and_help(run_solver):
    assert run_solver("--version").stdout.strip().startswith("solver ")
    for args in (["--help"], ["check", "--help"], ["deal", "-h"], ["games", "--help"]):
        result = run_solver(*args)
        assert result.returncode == 0 and "exit status" in result.stdout


def test_broken_pipe_is_quiet(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "solver", "deal", "banner", "1"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                   # the reader goes away before anything is written
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert stderr == ""


def test_interrupt_is_one_line_exit_130(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "solver", "check", "intrigue", "1", "-"],
                            cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=sigint_default)
    wait_until_idle(proc.pid)             # it is now waiting for the moves on stdin
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert stderr.splitlines() == ["solver: interrupted"]


# -- check: real winning lines from solve() ----------------------------------------------------

WINNABLE = [("intrigue", 3), ("glencoe", 4), ("pysol-intrigue", 2), ("pysol-laggard-lady", 3),
            ("pysol-glencoe", 4), ("banner", 9), ("devils-solitaire", 9), ("forget-me-not", 17),
            ("clover", 4)]


@pytest.fixture(scope="module")
def winning_lines():
    lines = {}
    for game, number in WINNABLE:
        result = solve(game, number, max_nodes=100000)
        assert result.verdict is Verdict.WINNABLE, (game, number, result)
        lines[game, number] = result.moves
    return lines


def printed_solution(game, number, moves) -> str:
    """The moves as 'solver solve' prints them: index, move, moved card."""
    pos = initial_position(game, number)
    out = []
    for i, move in enumerate(moves, start=1):
        card = pos.moved_card(move)
        out.append(f"{i}. {move}  {card_name(card) if card is not None else ''}")
        pos = pos.apply(move)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("game, number", WINNABLE)
def test_check_accepts_a_winning_line(run_solver, tmp_path, winning_lines, game, number):
    moves = winning_lines[game, number]
    path = tmp_path / "moves.txt"
    path.write_text(" ".join(map(str, moves)) + "\n")
    result = run_solver("check", game, number, path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{game} {number}: wins in {len(moves)} moves"
    printed = run_solver("check", game, str(number), "-", stdin=printed_solution(game, number, moves))
    assert printed.returncode == 0 and f"wins in {len(moves)} moves" in printed.stdout


def test_check_by_deal_file_and_show(run_solver, tmp_path, winning_lines):
    moves = winning_lines["forget-me-not", 17]
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(deal_from_number("forget-me-not", 17).to_json()))
    result = run_solver("check", "forget-me-not", "--deal-file", deal, "--show", "--ascii", "-",
                        stdin="\n".join(map(str, moves)))
    assert result.returncode == 0
    assert result.stdout.count("\nafter move ") == len(moves)
    assert "Reserve: used up, all 4 runs complete" in result.stdout
    assert result.stdout.splitlines()[-1] == f"forget-me-not (custom deal): wins in {len(moves)} moves"


@pytest.mark.parametrize("game, number, cut, left", [
    ("intrigue", 3, 50, "cards not on the foundations"),
    ("devils-solitaire", 9, 100, "runs still to complete"),
])
def test_check_legal_but_not_winning_exits_1(run_solver, winning_lines, game, number, cut, left):
    moves = winning_lines[game, number][:cut]
    result = run_solver("check", game, number, "-", stdin=" ".join(map(str, moves)))
    assert result.returncode == 1 and result.stderr == ""
    assert f"all {cut} moves are legal but do not win" in result.stdout and left in result.stdout


def test_pysol_profile_needs_the_empty_stock(run_solver, winning_lines):
    moves = winning_lines["pysol-intrigue", 2]
    pos = initial_position("pysol-intrigue", 2)
    for i, move in enumerate(moves):
        pos = pos.apply(move)
        if pos.foundation_count() == 96:
            break
    if pos.stock:                        # the line ends by dealing the queens left in the stock
        result = run_solver("check", "pysol-intrigue", 2, "-", stdin=" ".join(map(str, moves[:i + 1])))
        assert result.returncode == 1 and "the stock still holds" in result.stdout
    else:
        assert moves[-1].kind != "deal"


# -- check: each kind of illegal move is refused with its index and reason ---------------------

def deals(n: int) -> str:
    return " ".join(["deal"] * n)


@pytest.mark.parametrize("game, number, moves, index, reason", [
    ("intrigue", 1, "1>d1", 1, "pile 1 is empty"),
    ("intrigue", 1, "deal deal 1>u1", 3, "5H cannot start u1 (it starts with a 6)"),
    ("intrigue", 1, "deal deal 1>d1 deal 1>d1", 5, "JC does not fit on d1 (top 5H)"),
    ("intrigue", 1, "deal 2>u1", 2, "there is no pile 2: queen 2 is not on the table"),
    ("intrigue", 1, "deal 1>d3", 2, "there is no slot d3: queen 3 is not on the table"),
    ("glencoe", 1, "deal deal 1>d1", 3, "5H cannot start d1: a slot takes a 5 or 6 only of its queen's suit (queen QD)"),
    ("intrigue", 1, deals(20) + " 1>2", 21, "JS cannot go onto queen 2: it is not empty (top 4H)"),
    ("pysol-laggard-lady", 1, deals(19) + " 1>2", 20, "cards go onto empty queens only once the stock is empty"),
    ("intrigue", 1, deals(104), 104, "the stock is empty"),
    ("devils-solitaire", 1, "c1>f", 1, "8D does not fit on the foundation (empty, reserve top KC"),
    ("devils-solitaire", 1, "deal w>f", 2, "JS does not fit on the foundation"),
    ("devils-solitaire", 1, "redeal", 1, "redeal only once the stock is empty"),
    ("forget-me-not", 1, "c5>f", 1, "there is no cell 5"),
    ("forget-me-not", 1, deals(43) + " deal", 44, "the stock is empty"),
    ("forget-me-not", 1, deals(43) + " redeal " + deals(44) + " redeal " + deals(44) + " redeal",
     134, "all 3 passes are used"),
])
def test_check_refuses_illegal_moves_with_a_reason(run_solver, game, number, moves, index, reason):
    result = run_solver("check", game, number, "-", stdin=moves)
    move = moves.split()[index - 1]
    line = assert_one_line_error(result, f"move {index} ({move}) is illegal: {reason}")
    assert line.startswith(f"solver: error: {game} {number}: ")


@pytest.mark.parametrize("game, moves, fragment", [
    ("intrigue", "deal\ndeal 3>x\n", "invalid move '3>x'"),
    ("intrigue", "deal\ndeal w>f\n", "invalid move 'w>f'"),
    ("banner", "deal\ndeal 1>u1\n", "invalid move '1>u1'"),
])
def test_check_rejects_malformed_moves_naming_token_and_position(run_solver, game, moves, fragment):
    result = run_solver("check", game, "1", "-", stdin=moves)
    assert_one_line_error(result, fragment, "(move 3, stdin line 2)")
