"""Shared helpers for the tests. The tests import the *installed* ``solver`` package
(run plain ``pytest`` from the checkout root; tests/ has no __init__.py)."""
from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.load_profile("default")


@pytest.fixture
def run_solver(tmp_path):
    """Run ``python -m solver ARGS`` in a scratch directory (so the source tree is not on
    sys.path); returns the CompletedProcess with text stdout/stderr."""
    def run(*args, stdin: str | None = None, env: dict | None = None):
        return subprocess.run([sys.executable, "-m", "solver", *map(str, args)], input=stdin,
                              capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    return run
