"""benchmarks/relay.py at a tiny size: one delayed tournament table's phones tap with and without
spectators, and every figure is printed (a smoke test: the figures themselves are never checked).
Needs PostgreSQL on 127.0.0.1 (the benchmark's own databases, dropped afterwards)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.benchmarks.smoke import ROOT, drop, free_port
from tests.services import require_service

pytestmark = pytest.mark.slow


def test_the_relay_benchmark_prints_its_figures() -> None:
    require_service("PostgreSQL", "127.0.0.1", 5432)
    run, seed = f"tnc_relay_smoke_{os.getpid()}", f"tnc_relay_smoke_seed_{os.getpid()}"
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(BENCH_DATABASE=run, BENCH_SEED=seed)
    command = [sys.executable, "benchmarks/relay.py", "--tables", "1", "--spectators", "4"]
    command += ["--delay", "2", "--duration", "8", "--clients", "1", "--workers", "1"]
    command += ["--port", str(free_port())]
    try:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
    finally:
        drop(run, seed)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "machine: " in out
    assert "a tournament of 4 players, relay delay 2 s, round 1 published: 1 tables" in out
    assert "== 0 spectators, 1 tables x 4 phones" in out
    assert "== 4 spectators, 1 tables x 4 phones" in out
    assert re.search(r"hand tap +\d+ +[0-9.]+ +[0-9.]+", out), out
    assert re.search(r"spectators, all requests \(server time\): p50 [0-9.]+ ms, p99", out), out
    assert re.search(r" 4 spectators: spectators p50 [0-9.]+, p99 [0-9.]+; taps p50", out), out
    assert out.count("0 tables differ from what was sent") == 2, out
