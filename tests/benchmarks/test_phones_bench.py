"""The seat phones' benchmarks at a tiny size, each run as benchmarks/README.md documents it and
every figure printed (smoke tests: the figures themselves are never checked).

* benchmarks/phones.py: one table of Trick-n-Chef's phones through gunicorn on PostgreSQL (its
  server: benchmarks/phones_wsgi.py), and with ``--game`` one table of the tests' toy game
  (``--register``), the game-neutral bot's phones;
* benchmarks/phone_poll.py and benchmarks/table_tap.py: one request at a time through the test
  client, on SQLite and, with DATABASE_URL on PostgreSQL, there too.

Needs PostgreSQL on 127.0.0.1 (the benchmarks' own databases, dropped afterwards)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.benchmarks.smoke import ROOT, SERVER, drop, free_port
from tests.services import require_service

NUMBER = r"[0-9.]+"

pytestmark = pytest.mark.slow


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(extra)
    return env


def _run(command: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _phones(*options: str) -> str:
    """benchmarks/phones.py on one table, a few seconds, in a database of its own."""
    require_service("PostgreSQL", "127.0.0.1", 5432)
    database = f"tnc_phones_smoke_{os.getpid()}"
    command = ["benchmarks/phones.py", "--tables", "1", "--duration", "4", "--clients", "1"]
    command += ["--workers", "1", "--port", str(free_port()), *options]
    try:
        return _run(command, _env(BENCH_DATABASE=database))
    finally:
        drop(database)


def _row(out: str, kind: str) -> None:
    """A line of the table of server times: count, per s, median, p90, p99, max."""
    assert re.search(rf"^{kind} +\d+ +{NUMBER}( +{NUMBER}){{4}}  \{{", out, re.M), (kind, out)


def test_the_phones_benchmark_prints_its_figures() -> None:
    # Hands tapped quickly and plays every 0.2 s: on a quiet machine the plays start within the
    # few seconds (their line is there when they did: a busy machine is still tapping hands).
    out = _phones("--tap-gap", "0.05", "--think", "0.2", "--poll", "0.2")
    assert "machine: " in out
    assert "setup: 1 tables of trick-n-chef, 4 phones each" in out
    assert "gunicorn 1 workers x 2 threads" in out
    assert re.search(r"CPU seconds during the run \(of \d+\): gunicorn \d+, PostgreSQL", out), out
    for kind in ("poll 304", "hand tap"):
        _row(out, kind)
    if "\nplay tap " in out:
        _row(out, "play tap")
    assert "logs: " in out and ", 0 tables differ from what was sent" in out, out


def test_the_phones_benchmark_plays_any_game_with_the_bot() -> None:
    out = _phones(
        "--game", "high-card", "--register", "tests.highcard.game.gametype:HIGH_CARD",
        "--think", "0.2", "--poll", "0.2",
    )  # fmt: skip
    assert "setup: 1 tables of high-card" in out, out
    for kind in ("poll 304", "play tap"):
        _row(out, kind)
    assert ", 0 tables differ from the taps" in out, out
    assert re.search(r"games finished: \d+ of 1", out), out


def _on_both(command: list[str]) -> str:
    require_service("PostgreSQL", "127.0.0.1", 5432)
    # The benchmark makes its own test database on this server (bench_..._<pid>) and drops it.
    return _run(command, _env(DATABASE_URL=f"{SERVER}/tnc_phones_smoke"))


def test_the_phone_poll_benchmark_prints_its_figures_on_both_backends() -> None:
    # 4 tables: each pass taps at one (its phones' next polls are 200s), the others answer 304.
    out = _on_both(["benchmarks/phone_poll.py", "--tables", "4", "--passes", "2"])
    assert "Machine: " in out and "4 tables x 4 phones, 2 passes, game seed 11" in out
    assert "\nsqlite " in out and "\npostgresql " in out, out
    panel, tap = "poll answered 200 \\(panel\\)", "tap \\(POST act/, panel\\)"
    for what in ("poll answered 304", panel, tap):
        found = re.findall(rf"{what} +n=\d+  median +{NUMBER} ms  p90 +{NUMBER} ms", out)
        assert len(found) == 2, (what, out)


def test_the_table_tap_benchmark_prints_its_figures_on_both_backends() -> None:
    out = _on_both(["benchmarks/table_tap.py", "--taps", "5", "--warmup", "1"])
    assert "Machine: " in out and "5 taps after 1 warm-up taps, game seed 11" in out
    for what in ("tap \\(POST card, htmx panel\\)", "service alone \\(game_append\\)"):
        found = re.findall(rf"{what} +n=5  median +{NUMBER} ms  p90 +{NUMBER} ms", out)
        assert len(found) == 2, (what, out)
