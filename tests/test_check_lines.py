"""benchmarks/check_lines.py: every winning line checked by `solver check` in a process of its own."""
from __future__ import annotations

import ast
import dataclasses
import importlib.util
import subprocess
import sys
from pathlib import Path

import solver

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "check_lines.py"


def load_script():
    spec = importlib.util.spec_from_file_location("check_lines", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_solver_s_lines_pass_and_the_verdicts_are_counted():
    done = subprocess.run([sys.executable, str(SCRIPT), "clover", "forget-me-not", "--deals",
                           "33..36", "--timeout", "30"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    expected = {g: sorted(solver.solve(g, n, timeout=30, line=False).verdict.value
                          for n in range(33, 37)) for g in ("clover", "forget-me-not")}
    assert "unwinnable" in expected["forget-me-not"]       # 35: a deal with no line to check
    for game, verdicts in expected.items():
        line = next(x for x in done.stdout.splitlines() if x.startswith(f"{game}: "))
        counts = ast.literal_eval(line.split(": ", 1)[1])   # the printed dict
        assert sorted(v for v, c in counts.items() for _ in range(c)) == verdicts
    assert done.stdout.splitlines()[-1] == "lines that failed: 0"


def test_a_line_that_does_not_win_is_reported(monkeypatch, capsys):
    """The same deals with the last move of every line cut off: each line fails the check."""
    script = load_script()
    real = solver.solve

    def one_move_short(*args, **kwargs):
        result = real(*args, **kwargs)
        return dataclasses.replace(result, moves=result.moves[:-1])

    monkeypatch.setattr(script.solver, "solve", one_move_short)
    assert script.main(["clover", "--deals", "33..34", "--timeout", "30"]) == 1
    out = capsys.readouterr().out
    assert out.count("FAILED clover") == 2 and "do not win" in out
    assert out.splitlines()[-1] == "lines that failed: 2"


def test_bad_input_is_one_line_and_status_2():
    for args in (["--deals", "x"], ["nosuchgame", "--deals", "1..2"]):
        done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 2
        assert "error:" in done.stderr.strip().splitlines()[-1]
        assert "Traceback" not in done.stderr
