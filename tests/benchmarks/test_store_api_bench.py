"""benchmarks/store_api.py at a tiny size: gunicorn (one worker) on a fresh PostgreSQL database,
one client recording 20 appends, 20 state reads, and its figures printed and sane (a smoke
test: the figures' values against the targets are never checked). Needs PostgreSQL on
127.0.0.1 (the benchmark's own database, dropped afterwards)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.benchmarks.smoke import ROOT, drop, free_port
from tests.services import require_service

pytestmark = pytest.mark.slow


def test_the_store_api_benchmark_prints_its_figures() -> None:
    require_service("PostgreSQL", "127.0.0.1", 5432)
    database = f"tnc_store_api_smoke_{os.getpid()}"
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env["BENCH_DATABASE"] = database
    command = [sys.executable, "benchmarks/store_api.py", "--appends", "20", "--clients", "1"]
    command += ["--workers", "1", "--reads", "20", "--port", str(free_port())]
    try:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
    finally:
        drop(database)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "machine: " in out
    assert "server: gunicorn, 1 sync workers, PostgreSQL; 1 client processes" in out
    # 20 appends fit in one simulated game (a game of 4 is about 166 events).
    appends = re.search(
        r"appends: 20 in ([0-9.]+) s = ([0-9,]+) appends/s \(includes creating 1 games\)", out
    )
    assert appends, out
    assert int(appends[2].replace(",", "")) > 0, out
    latency = re.search(r"append latency: p50 ([0-9.]+) ms, p99 ([0-9.]+) ms, mean [0-9.]+ ms", out)
    assert latency and 0 < float(latency[1]) <= float(latency[2]), out
    reads = re.search(
        r"state read \(GET /api/games/<id>/\): p50 ([0-9.]+) ms, p99 ([0-9.]+) ms over 20 requests",
        out,
    )
    assert reads and 0 < float(reads[1]) <= float(reads[2]), out
