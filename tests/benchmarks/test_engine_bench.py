"""``python -m engine bench`` (engine/tricknchef/bench.py) at a tiny size: 20 simulated games
replayed once, every figure printed and sane (a smoke test: the figures' values against the
targets are never checked). Needs nothing but the engine."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

RATE = r"median ([0-9,]+) events/s"


def test_the_engine_benchmark_prints_its_figures() -> None:
    command = [sys.executable, "-m", "engine", "bench", "--games", "20", "--repeat", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"^machine: .+, \d+ cores, Python 3\.", out, re.M), out
    simulated = re.search(r"simulated 20 4-player games \((\d+) events\) in [0-9.]+ s", out)
    assert simulated and int(simulated[1]) > 20, out
    for what in (
        r"replay, checked events \(referee \+ fold\): ",
        r"replay from decoded JSON objects, as a database returns them .*: ",
        r"replay from JSON lines \(parse \+ referee \+ fold\): ",
    ):
        rate = re.search(what + RATE, out)
        assert rate and int(rate[1].replace(",", "")) > 0, (what, out)
    one = re.search(
        r"one incremental event \(check \+ apply\): median ([0-9.]+) us, p99 ([0-9.]+) us, "
        rf"max [0-9.]+ us over {simulated[1]} events",
        out,
    )
    assert one and 0 < float(one[1]) <= float(one[2]), out
    from_line = re.search(
        r"one incremental event from its JSON line \(parse \+ check \+ apply\): "
        r"median ([0-9.]+) us, p99 ([0-9.]+) us",
        out,
    )
    assert from_line and 0 < float(from_line[1]) <= float(from_line[2]), out
