"""benchmarks/standings.py at a tiny size: one round, one run of every scenario, and every figure
is printed (a smoke test: the figures themselves are never checked)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_standings_benchmark_prints_its_figures() -> None:
    command = [sys.executable, "benchmarks/standings.py", "--rounds", "1", "--repeat", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "machine: " in out
    assert "1 rounds; median (and fastest) of 1 runs of compute()" in out
    figures = re.findall(r"players.*  +[0-9.]+ ms \( *[0-9.]+\)  \(\d+ tables", out)
    assert len(figures) == 6, out
