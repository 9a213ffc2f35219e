"""benchmarks/foodtruck.py at a tiny size: 20 simulated Food Truck games replayed once, and one
incremental event, printed and sane (a smoke test: the figures' values are never checked).
Needs nothing but the engine."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_food_truck_benchmark_prints_its_figures() -> None:
    command = [sys.executable, "benchmarks/foodtruck.py", "--games", "20", "--repeat", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"^.+, Python 3\.\d+", out, re.M), out
    games = re.search(r"^20 games, (\d+) events \((\d+) a game\)$", out, re.M)
    assert games and int(games[1]) > 20 and int(games[2]) > 0, out
    rate = re.search(r"replay from lines: ([0-9,]+) events/s \(median of 1\)", out)
    assert rate and int(rate[1].replace(",", "")) > 0, out
    one = re.search(
        r"one incremental event \(snapshot in, event, snapshot out\): (\d+) us median", out
    )
    assert one and int(one[1]) > 0, out
