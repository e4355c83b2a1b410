"""``solver solve``: verdicts, printed lines that replay, --json, limits and exit statuses."""
import json
import re
import signal
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from proc_helpers import sigint_default, wait_for_cpu
from solver import solve
from solver.cards import card_name
from solver.commands.solve import MIN_BARE_SIZE, format_size, parse_limit_size, parse_size
from solver.deals import deal_from_number
from solver.moves import Move
from solver.result import Verdict
from solver.rules import initial_position

MOVE_LINE = re.compile(r"(\d+)\. (\S+)(?:  ([2-9TJQKA][CDHS]))?")
JSON_KEYS = {"game", "deal", "verdict", "moves", "stats"}
STATS_KEYS = {"nodes", "states", "seconds", "table_bytes"}
UNWINNABLE = ("forget-me-not", 35)       # decided unwinnable in well under a second


@pytest.fixture(scope="module")
def hard_deal():
    """A Banner deal the core does not decide within 2 s: the limits and Ctrl-C tests need a
    long search, and the core keeps getting faster, so it is looked up rather than fixed: first
    among the deals never decided at 60 s (benchmarks/results/limits-60s-2GiB.md), then among
    the first few hundred."""
    for number in (1770, 2064, 5720, *range(2, 300)):
        if solve("banner", number, timeout=2).verdict is Verdict.UNKNOWN:
            return "banner", str(number)
    pytest.fail("no Banner deal tried takes the core more than 2 s any more")


def mixed_node_limit():
    """(limit, easy, hard): two Intrigue deals, the first decided within ``limit`` nodes and
    the second not, as the API says."""
    for limit in (300, 1000, 3000, 10000):
        verdicts = {n: solve("intrigue", n, max_nodes=limit).verdict for n in range(1, 30)}
        easy = [n for n, v in verdicts.items() if v is not Verdict.UNKNOWN]
        hard = [n for n, v in verdicts.items() if v is Verdict.UNKNOWN]
        if easy and hard:
            return limit, easy[0], hard[0]
    pytest.fail("no node limit splits Intrigue deals 1..29")


def assert_one_line_error(result, *fragments):
    assert result.returncode == 2, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("solver"), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def replay_to_win(game, number, moves):
    """Replay notation with the reference rules; True when the last move wins."""
    pos = initial_position(game, deal_from_number(game, number))
    for move in moves:
        assert pos.refusal(move) is None, move
        pos = pos.apply(move)
    return pos.is_won()


# -- one deal, human output --------------------------------------------------------------------

@pytest.mark.parametrize("game, number", [("intrigue", 1), ("glencoe", 4), ("devils-solitaire", 9),
                                          ("clover", 4), ("pysol-intrigue", 2)])
def test_winning_line_is_printed_and_replays_through_check(run_solver, game, number):
    result = run_solver("solve", game, number)
    assert result.returncode == 0, result.stderr
    header, *lines = result.stdout.splitlines()
    count = int(re.fullmatch(rf"{game} {number}: winnable in (\d+) moves", header).group(1))
    assert len(lines) == count
    pos = initial_position(game, deal_from_number(game, number))
    for index, line in enumerate(lines, start=1):
        match = MOVE_LINE.fullmatch(line)
        assert match and int(match.group(1)) == index, line
        move = Move.parse(match.group(2), pos.game.family)
        card = pos.moved_card(move)
        assert match.group(3) == (card_name(card) if card is not None else None), line
        pos = pos.apply(move)
    assert pos.is_won()
    checked = run_solver("check", game, number, "-", stdin=result.stdout)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == f"{game} {number}: wins in {count} moves"


def test_the_card_of_a_pile_move_is_the_top_of_that_pile(run_solver):
    result = run_solver("solve", "intrigue", "3")
    pos = initial_position("intrigue", deal_from_number("intrigue", 3))
    pile_moves = 0
    for line in result.stdout.splitlines()[1:]:
        _, token, card = MOVE_LINE.fullmatch(line).groups()
        move = Move.parse(token, "salic")
        if move.kind == "deal":
            assert card == card_name(pos.stock[0])
        else:
            assert card == card_name(pos.piles[move.src - 1][-1])
            pile_moves += 1
        pos = pos.apply(move)
    assert pile_moves > 50


def test_statistics_go_to_stderr(run_solver):
    result = run_solver("solve", "intrigue", "1")
    line = result.stderr.strip()
    match = re.fullmatch(r"intrigue 1: (\d+) nodes, (\d+) states, ([0-9.]+) s of search, "
                         r"table [0-9.]+ (?:KiB|MiB|GiB)", line)
    assert match, line
    assert int(match.group(1)) >= int(result.stdout.split()[4])    # nodes >= moves


def test_unwinnable_deal_exits_1(run_solver):
    game, number = UNWINNABLE
    result = run_solver("solve", game, number)
    assert result.returncode == 1
    assert result.stdout == f"{game} {number}: unwinnable\n"


def test_node_limit_gives_unknown_and_exit_3(run_solver):
    result = run_solver("solve", "intrigue", "1", "--max-nodes", "1")
    assert result.returncode == 3
    assert result.stdout == "intrigue 1: unknown (node limit)\n"
    assert result.stderr.startswith("intrigue 1: 1 nodes,")


def test_time_limit_gives_unknown(run_solver, hard_deal):
    result = run_solver("solve", *hard_deal, "--timeout", "0.2", "--json")
    assert result.returncode == 3
    out = json.loads(result.stdout)
    assert out["verdict"] == "unknown" and out["reason"] == "time" and out["moves"] == []
    stats = out["stats"]
    # It runs to the limit, or stops a little short of it where the table would have to grow
    # and the grow would end past the limit: the table is then filled to 7/8 at the size it
    # has, as its last size is, and the search ends on time (csrc/table.h,
    # table_set_deadline). Each slot is 25 bytes.
    last_size_full = stats["states"] == stats["table_bytes"] // 25 // 8 * 7
    assert (0.2 <= stats["seconds"] or last_size_full) and stats["seconds"] < 5, stats


def test_memory_limit_gives_unknown(run_solver, hard_deal):
    result = run_solver("solve", *hard_deal, "--max-memory", "1M", "--json")
    assert result.returncode == 3
    out = json.loads(result.stdout)
    assert out["reason"] == "memory"
    assert out["stats"]["table_bytes"] <= 1 << 20


# -- --json ------------------------------------------------------------------------------------

def test_json_shape_and_replay(run_solver):
    result = run_solver("solve", "intrigue", "1", "2", "--json")
    assert result.returncode == 0 and result.stderr == ""
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["deal"] for o in objects] == ["1", "2"]
    for obj in objects:
        assert JSON_KEYS <= set(obj) and "reason" not in obj
        assert obj.get("length", len(obj["moves"])) == len(obj["moves"])
        assert obj["game"] == "intrigue" and obj["verdict"] == "winnable"
        assert set(obj["stats"]) == STATS_KEYS
        assert obj["stats"]["nodes"] >= len(obj["moves"]) > 0
        assert obj["stats"]["table_bytes"] > 0
        moves = [Move.parse(m, "salic") for m in obj["moves"]]
        assert replay_to_win("intrigue", int(obj["deal"]), moves)


def test_json_unknown_has_a_reason_and_unwinnable_has_none(run_solver):
    game, number = UNWINNABLE
    unknown = json.loads(run_solver("solve", "intrigue", "1", "--max-nodes", "5", "--json").stdout)
    assert JSON_KEYS | {"reason"} <= set(unknown)
    assert unknown["verdict"] == "unknown" and unknown["reason"] == "nodes"
    assert unknown["stats"]["nodes"] == 5
    unwinnable = json.loads(run_solver("solve", game, number, "--json").stdout)
    assert JSON_KEYS <= set(unwinnable) and "reason" not in unwinnable
    assert unwinnable["verdict"] == "unwinnable" and unwinnable["moves"] == []


# -- several deals -----------------------------------------------------------------------------

def test_several_deals_print_one_line_each_and_no_moves(run_solver):
    game, number = UNWINNABLE
    result = run_solver("solve", game, "2", number, "17")
    assert result.returncode == 0, result.stderr      # all decided, one of them unwinnable
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert re.fullmatch(rf"{game} 2: winnable in \d+ moves", lines[0])
    assert lines[1] == f"{game} {number}: unwinnable"
    assert re.fullmatch(rf"{game} 17: winnable in \d+ moves", lines[2])
    assert len(result.stderr.splitlines()) == 3


def test_several_deals_with_an_unknown_exit_3(run_solver):
    limit, easy, hard = mixed_node_limit()
    result = run_solver("solve", "intrigue", easy, hard, "--max-nodes", limit)
    assert result.returncode == 3
    lines = result.stdout.splitlines()
    assert re.fullmatch(rf"intrigue {easy}: (winnable in \d+ moves|unwinnable)", lines[0])
    assert lines[1:] == [f"intrigue {hard}: unknown (node limit)"]


def test_deals_range_solves_each_deal_after_the_numbers(run_solver):
    """--deals A..B: every deal from A to B, inclusive, after the N's, each with the verdict
    it gets alone (a range is not one number) and no line (several deals)."""
    result = run_solver("solve", "forget-me-not", "36", "--deals", "33..35", "--json")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["deal"] for row in rows] == ["36", "33", "34", "35"]
    for row in rows:
        alone = solve("forget-me-not", int(row["deal"]))
        assert row["verdict"] == alone.verdict.value, row["deal"]
    assert "note" not in result.stderr


def test_a_single_deal_range_prints_its_line(run_solver):
    by_range = run_solver("solve", "intrigue", "--deals", "3..3")
    by_number = run_solver("solve", "intrigue", "3")
    assert by_range.returncode == by_number.returncode == 0
    assert by_range.stdout == by_number.stdout and len(by_range.stdout.splitlines()) > 1


@given(first=st.integers(1, 10 ** 6), width=st.integers(0, 10 ** 6))
def test_a_range_in_place_of_n_is_one_pysol_number_with_a_note(first, width):
    """RULES §4: PySol ignores '.' in a deal number, so 'A..B' is the deal AB; the solver
    solves that deal, as PySol would deal it, and says on stderr how to give a range."""
    import argparse
    import contextlib
    import io
    from solver.commands import solve as solve_command
    parser = argparse.ArgumentParser(prog="solver solve")
    solve_command.add_arguments(parser)
    text = f"{first}..{first + width}"
    args = parser.parse_args(["clover", text, "7"])
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        deals = solve_command.deals_from_args(args)
    assert [d.number for d in deals] == [f"{first}{first + width}", "7"]
    assert deals[0].cards == deal_from_number("clover", f"{first}{first + width}").cards
    assert err.getvalue() == (f"solver solve: note: {text!r} is deal {first}{first + width}, as "
                              f"PySol ignores '.' in deal numbers; for a range give --deals "
                              f"{text}\n")


@pytest.mark.parametrize("command", ["deal", "check"])
def test_deal_and_check_say_which_deal_a_range_lookalike_is(run_solver, command):
    moves = ["-"] if command == "check" else []
    result = run_solver(command, "glencoe", "1..3", *moves, stdin="deal\n")
    plain = run_solver(command, "glencoe", "13", *moves, stdin="deal\n")
    assert result.stdout.startswith("glencoe 13")
    assert result.returncode == plain.returncode and result.stdout == plain.stdout
    assert result.stderr == (f"solver {command}: note: '1..3' is deal 13, as PySol ignores '.' "
                             f"in deal numbers\n")
    assert plain.stderr == ""


@given(first=st.integers(1, 10 ** 9), width=st.integers(0, 10 ** 6), extra=st.integers(0, 3))
def test_a_deals_range_holds_every_deal_in_order(first, width, extra):
    import argparse
    from solver.commands import solve as solve_command
    parser = argparse.ArgumentParser()
    solve_command.add_arguments(parser)
    numbers = [str(n) for n in range(1, extra + 1)]
    args = parser.parse_args(["glencoe", *numbers, "--deals", f"{first}..{first + width}"])
    deals = solve_command.deals_from_args(args)
    assert len(deals) == extra + width + 1
    assert [d.number for d in deals[:extra]] == numbers
    for index in {extra, extra + width // 2, extra + width}:
        n = first + index - extra
        assert deals[index].number == str(n)
        assert deals[index].cards == deal_from_number("glencoe", n).cards
    assert deals[-1].number == str(first + width)


def test_ms_numbers_and_deal_file(run_solver, tmp_path):
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(deal_from_number("intrigue", 3).to_json()))
    by_file = run_solver("solve", "intrigue", "--deal-file", deal)
    by_number = run_solver("solve", "intrigue", "3")
    assert by_file.returncode == 0
    header, *moves = by_file.stdout.splitlines()
    assert header.startswith("intrigue (custom deal): winnable in ")
    assert moves == by_number.stdout.splitlines()[1:]
    as_json = json.loads(run_solver("solve", "intrigue", "--deal-file", deal, "--json").stdout)
    assert as_json["deal"] == "custom"
    ms = run_solver("solve", "intrigue", "ms3", "--json")
    assert ms.returncode in (0, 1, 3) and json.loads(ms.stdout)["deal"] == "ms3"


# -- --no-prune --------------------------------------------------------------------------------

def test_no_prune_searches_more_and_still_wins(run_solver):
    pruned = json.loads(run_solver("solve", "clover", "1", "--json").stdout)
    plain = run_solver("solve", "clover", "1", "--json", "--no-prune")
    assert plain.returncode == 0
    plain = json.loads(plain.stdout)
    assert plain["verdict"] == pruned["verdict"] == "winnable"
    assert plain["stats"]["nodes"] > pruned["stats"]["nodes"]      # the switch reached the core
    assert replay_to_win("clover", 1, [Move.parse(m, "banner") for m in plain["moves"]])


@pytest.mark.slow
def test_no_prune_agrees_on_an_unwinnable_deal(run_solver):
    game, number = UNWINNABLE
    result = run_solver("solve", game, number, "--no-prune", "--max-memory", "2G")
    assert result.returncode == 1 and result.stdout.endswith("unwinnable\n")


# -- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args, fragment", [
    (["nosuchgame", "1"], "unknown game 'nosuchgame'"),
    (["intrigue", "x1"], "bad deal number 'x1'"),
    (["intrigue", "1", "-5"], "-5"),
    (["intrigue"], "give a deal number N or --deal-file F"),
    (["intrigue", "1", "--deal-file", "d.txt"], "not both"),
    (["intrigue", "--deal-file", "missing.txt"], "missing.txt"),
    (["intrigue", "1", "--max-nodes", "0"], "--max-nodes"),
    (["intrigue", "1", "--max-nodes", "many"], "--max-nodes"),
    (["intrigue", "1", "--timeout", "0"], "--timeout"),
    (["intrigue", "1", "--timeout", "nan"], "--timeout"),
    (["intrigue", "1", "--max-memory", "2X"], "--max-memory"),
    (["intrigue", "1", "--max-memory", "0"], "--max-memory"),
    (["intrigue", "1", "--max-memory", "2048"], "2048M"),
    (["intrigue", "1", "--bogus"], "--bogus"),
    (["intrigue", "--deals", "5..3"], "reversed"),
    (["intrigue", "--deals", "0..3"], "start at 1"),
    (["intrigue", "--deals", "1..x"], "--deals"),
    (["intrigue", "--deals", "1..3", "--deal-file", "d.txt"], "not both"),
    (["intrigue", "1", "--seed", "-1"], "bad seed '-1'"),
    (["intrigue", "1", "--seed", "x"], "bad seed 'x'"),
    (["intrigue", "1", "--seed", str(2 ** 64)], "--seed"),
])
def test_bad_input_is_one_line_and_exit_2(run_solver, args, fragment):
    assert_one_line_error(run_solver("solve", *args), fragment)


def test_seed_draws_other_random_lines(run_solver):
    """--seed N is solve(seed=N): PySol Glencoe 102 is won after other numbers of nodes with
    seeds 0 and 7, each node for node the API's; Intrigue has no random lines and ignores it."""
    nodes = {}
    for seed in ("0", "7"):
        result = run_solver("solve", "pysol-glencoe", "102", "--max-nodes", "400000", "--json",
                            "--seed", seed)
        row = json.loads(result.stdout)
        assert result.returncode == 0 and row["verdict"] == "winnable", result.stderr
        nodes[seed] = row["stats"]["nodes"]
        assert nodes[seed] == solve("pysol-glencoe", 102, max_nodes=400_000, line=False,
                                    seed=int(seed)).stats.nodes
    assert nodes["0"] != nodes["7"]
    plain, seeded = (json.loads(run_solver("solve", "intrigue", "5", "--json", *extra).stdout)
                     for extra in ([], ["--seed", "99"]))
    assert plain["stats"]["nodes"] == seeded["stats"]["nodes"] and plain["moves"] == seeded["moves"]


def test_a_bad_number_among_several_solves_nothing(run_solver):
    result = run_solver("solve", "intrigue", "1", "2", "oops")
    assert_one_line_error(result, "'oops'")


def test_bad_deal_file_contents(run_solver, tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text("QH KH\n")
    assert_one_line_error(run_solver("solve", "intrigue", "--deal-file", path))


# -- --help and Ctrl-C -------------------------------------------------------------------------

def test_help_documents_every_option_and_exit_status(run_solver):
    result = run_solver("solve", "--help")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for option in ("--deals", "--deal-file", "--json", "--max-nodes", "--timeout", "--max-memory",
                   "--no-prune", "--no-inner", "--threads", "--seed", "12. 3>u5 7H"):
        assert option in text, option
    for status in ("0 winnable", "1 unwinnable", "3 unknown", "2 bad input", "130 interrupted",
                   "0 when every deal was decided"):
        assert status in text, status


def interrupt_after(tmp_path, args, seconds=1.0):
    """Run ``solver solve ARGS``, press Ctrl-C once it has used ``seconds`` of CPU; (status,
    stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "solver", "solve", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_default)
    wait_for_cpu(proc.pid, seconds)     # well past start-up, well before the search ends
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    return proc.returncode, stdout, stderr


def test_ctrl_c_prints_the_partial_result_and_exits_130(tmp_path, hard_deal):
    status, stdout, stderr = interrupt_after(tmp_path, [*hard_deal, "--json", "--timeout", "100"])
    assert status == 130, stderr
    out = json.loads(stdout)
    assert out["verdict"] == "unknown" and out["reason"] == "interrupted"
    assert out["stats"]["nodes"] > 0 and out["stats"]["seconds"] < 60


def test_ctrl_c_human_output(tmp_path, hard_deal):
    status, stdout, stderr = interrupt_after(tmp_path, [*hard_deal, "--timeout", "100"])
    label = " ".join(hard_deal)
    assert status == 130
    assert stdout == f"{label}: unknown (interrupted)\n"
    assert re.match(rf"{label}: [1-9]\d* nodes", stderr)


# -- sizes -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, size", [
    ("1024", 1024), ("512M", 512 << 20), ("2G", 2 << 30), ("2g", 2 << 30), ("1.5K", 1536),
    ("2GiB", 2 << 30), ("64MB", 64 << 20), ("1T", 1 << 40), (" 7 ", 7),
])
def test_parse_size(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "M", "-1", "0", "0.1", "2X", "1.2.3", "G2", "1e9"])
def test_parse_size_rejects(text):
    with pytest.raises(ValueError):
        parse_size(text)


@given(st.integers(1, 10 ** 6), st.sampled_from([("", 1), ("K", 1024), ("M", 1 << 20),
                                                  ("G", 1 << 30)]))
def test_parse_size_multiplies_by_the_unit(number, unit):
    suffix, factor = unit
    assert parse_size(f"{number}{suffix}") == number * factor


@given(st.integers(1, 1 << 32), st.sampled_from(["", "B", "K", "M", "G"]))
def test_a_limit_without_a_unit_is_at_least_a_mib(number, suffix):
    """solve's and bench's --max-memory: a bare number is bytes, so one below 1 MiB (2048, meant
    as MiB as solver survey reads it) is refused; with a unit every size parse_size takes is
    taken as it reads it."""
    text = f"{number}{suffix}"
    if suffix == "" and number < MIN_BARE_SIZE:
        with pytest.raises(ValueError, match=f"{number}M"):
            parse_limit_size(text)
    else:
        assert parse_limit_size(text) == parse_size(text)


def test_a_small_limit_with_a_unit_is_taken(run_solver):
    result = run_solver("solve", "intrigue", "1", "--max-memory", "2K", "--json")
    assert result.returncode == 3, result
    assert json.loads(result.stdout)["reason"] == "memory"


def test_format_size():
    assert format_size(512) == "512 B"
    assert format_size(98304) == "96.0 KiB"
    assert format_size(3 << 29) == "1.5 GiB"
