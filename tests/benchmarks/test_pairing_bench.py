"""benchmarks/pairing.py at a tiny size: it plays its rounds, times round 6 and prints every
figure (a smoke test: the figures themselves are never checked). Pure: no database."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_pairing_benchmark_prints_its_figures() -> None:
    command = [sys.executable, "benchmarks/pairing.py", "--players", "12", "40", "--runs", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("machine: "), out
    assert "median of 1" in out
    for players in (12, 40):
        # players, seconds, method, repeats, spread mean, spread max, cost, lower bound
        row = rf"^ +{players} +[0-9.]+ +(exhaustive|local search) +[0-9]+ +[0-9.]+ +[0-9]+"
        row += r" +[0-9,]+ +[0-9,]+$"
        assert re.search(row, out, re.MULTILINE), (players, out)
