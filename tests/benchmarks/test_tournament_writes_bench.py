"""benchmarks/tournament_writes.py at a tiny size: it builds its own seed (the load benchmark's
tournament of 8 players, 1 round played), copies it, times 2 results and 2 check-ins
in-process, and prints its figures, which must be there and sane (a smoke test: the figures'
values against the targets are never checked). Needs PostgreSQL on 127.0.0.1 (the benchmark's
databases, dropped afterwards)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.benchmarks.smoke import ROOT, drop
from tests.services import require_service

FIGURES = ("result", "standings read after it", "check-in")

pytestmark = pytest.mark.slow


def test_the_tournament_writes_benchmark_prints_its_figures() -> None:
    require_service("PostgreSQL", "127.0.0.1", 5432)
    run, seed = f"tnc_writes_smoke_{os.getpid()}", f"tnc_writes_smoke_seed_{os.getpid()}"
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(BENCH_DATABASE=run, BENCH_SEED=seed)
    command = [sys.executable, "benchmarks/tournament_writes.py", "--players", "8"]
    command += ["--rounds", "1", "--runs", "2"]
    try:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
    finally:
        drop(run, f"{run}_writes", seed)  # the run's copy is <BENCH_DATABASE>_writes
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"^machine: .+, \d+ cores, Python 3\.", out, re.M), out
    setup = r"^setup: 8 players, 1 rounds played \(built the seed database in \d+ s\)$"
    assert re.search(setup, out, re.M), out
    for name in FIGURES:
        line = re.search(
            rf"^{name}: median ([0-9.]+) ms, min ([0-9.]+), max ([0-9.]+) \(2 runs\)$", out, re.M
        )
        assert line, (name, out)
        median, low, high = (float(x) for x in line.groups())
        assert 0 < low <= median <= high, (name, out)
    medians = json.loads(out.strip().splitlines()[-1])
    assert set(medians) == set(FIGURES), out
    assert all(value > 0 for value in medians.values()), out
