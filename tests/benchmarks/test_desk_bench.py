"""benchmarks/desk.py and benchmarks/desk_qr.py at a tiny size: each runs to its end and prints
every figure (a smoke test: the figures themselves are never checked). SQLite in a temporary
folder: no service needed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

FIGURE = r" +median +[0-9.]+ ms +\(min +[0-9.]+, max +[0-9.]+\) +[0-9.]+ KiB"


def _env() -> dict[str, str]:
    drop = ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "CACHE_URL", "CELERY_BROKER_URL")
    return {k: v for k, v in os.environ.items() if k not in drop}


def test_the_desk_benchmark_prints_its_figures(tmp_path: Path) -> None:
    command = [sys.executable, "benchmarks/desk.py", "--players", "16", "--runs", "1"]
    command += ["--var", str(tmp_path)]
    done = subprocess.run(
        command, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Machine: " in out
    assert "sqlite: 16 players, 1 round(s) played, the next published (built the seed" in out
    for what in (
        "GET desk (whole dashboard)",
        "htmx check-in",
        "htmx drop, asked to confirm",  # the desk's question (422), then its button
        "htmx drop, confirmed",
        "htmx reinstate",
        "GET score sheets (warm)",
        "GET score sheets (first, cold)",
        "worker: draw 20 codes ahead",  # 4 tables and their 16 seats
        "GET score sheets (first, drawn ahead)",
        "GET score sheets (cold, links issued on the way)",
        "GET one table's seat links",
        "htmx reissue a seat link",
        "service alone: tournament_drop",
        "GET one QR image, If-None-Match",
    ):
        assert re.search(rf"  {re.escape(what)}{FIGURE}", out), (what, out)
    assert out.count("... in the service") == 3, out


def test_the_qr_benchmark_prints_its_figures() -> None:
    command = [sys.executable, "benchmarks/desk_qr.py", "--tables", "4", "--runs", "1"]
    done = subprocess.run(
        command, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "20 codes (4 tables and their seats)" in out
    lines = re.findall(r"[0-9.]+ s for all, +[0-9.]+ ms a code", out)
    assert len(lines) == 2, out
