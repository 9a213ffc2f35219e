"""benchmarks/season.py at a tiny size: it builds its season through the services, measures
and prints every figure (a smoke test: the figures themselves are never checked)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_season_benchmark_prints_its_figures(tmp_path: Path) -> None:
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env["BENCH_SEASON_DIR"] = str(tmp_path)
    command = [sys.executable, "benchmarks/season.py", "--tournaments", "2", "--players", "4"]
    command += ["--rounds", "1", "--members", "6", "--runs", "1", "--pages", "2"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Machine: " in out
    # 2 tournaments of 4 players, 1 round of 1 table: 2 games, 8 players' results rated.
    assert "2 games rated, 8 rating changes" in out
    for what in (
        'sync.rerate("trick-n-chef")',
        "club_rebuild()",
        "reads.member_view(id)",
        "reads.season_view(id), made afresh",
        "reads.season_view(id), kept",
    ):
        assert re.search(rf"{re.escape(what)}.* median +[0-9.]+ ms", out), (what, out)
    for page in ("GET member page", "GET season page"):  # measured once the URL exists
        assert re.search(rf"{page} .*(median +[0-9.]+ ms|not measured: no URL)", out), out
    # The run's copy is removed; the seed stays for the next run.
    assert [p.name for p in tmp_path.iterdir()] == ["tnc-bench-season-seed-2t_4p_1r_6m.sqlite3"]
