"""benchmarks/load_standings.py at a tiny size, in its documented configuration (a shared Redis
cache, results recorded by a Celery worker): a tournament of 16 players, two scorekeepers, a few
seconds of wrk, and every figure is printed (a smoke test: the figures themselves are never
checked; what the benchmark checks itself is: no event lost, every retry answered the same).
Needs PostgreSQL and Redis on 127.0.0.1 and wrk (the benchmark's own databases, dropped
afterwards; the Redis of $REDIS_URL, as the other Redis tests: its keys expire, its queue is
the run's own)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.benchmarks.smoke import ROOT, drop, free_port
from tests.services import require_service

pytestmark = pytest.mark.slow


def test_the_load_standings_benchmark_prints_its_figures(redis_url: str) -> None:
    require_service("PostgreSQL", "127.0.0.1", 5432)
    if shutil.which("wrk") is None:
        pytest.skip("wrk is not installed (apt-get install wrk): the benchmark's page load")
    run, seed = f"tnc_load_smoke_{os.getpid()}", f"tnc_load_smoke_seed_{os.getpid()}"
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(BENCH_DATABASE=run, BENCH_SEED=seed)
    command = [sys.executable, "benchmarks/load_standings.py", "--players", "16"]
    command += ["--rounds", "1", "--scorekeepers", "2", "--think", "0.3", "--duration", "4"]
    port = os.environ.get("BENCH_PORT") or str(free_port())  # BENCH_PORT: a port of your own
    command += ["--connections", "2", "--workers", "1", "--port", port]
    command += ["--cache-url", redis_url, "--celery", redis_url]
    try:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
    finally:
        drop(run, seed)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "machine: " in out
    assert "setup: 16 players, 1 rounds played" in out
    assert re.search(r"page load: .* full pages \([0-9,]+/s", out), out
    assert re.search(r"latency p50 [0-9.]+ ms, p90 [0-9.]+ ms, p99 [0-9.]+ ms", out), out
    # The retry check ran: at least one event resent with its key, and answered the same.
    resent = re.search(r"(\d+) resent with their key and answered the same, .* (\d+) errors", out)
    assert resent is not None and int(resent.group(1)) >= 1, out
    assert re.search(r"\(0 problems\)", out), out
