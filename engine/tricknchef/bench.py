"""``python -m engine bench``: replay throughput and the cost of one incremental event.

Prints figures; it is a benchmark, not a test (nothing here passes or fails). Targets from the
issue: >= 200,000 events/s replayed and <= 20 us per incremental event, on one core.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import time

from engine.tricknchef.apply import apply
from engine.tricknchef.events import Event, dumps, from_json, loads
from engine.tricknchef.referee import check
from engine.tricknchef.replay import replay, replay_lines
from engine.tricknchef.simulate import simulate
from engine.tricknchef.state import GameState


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _median_rate(count: int, seconds: list[float]) -> tuple[float, float]:
    med = statistics.median(seconds)
    return count / med, med


def run(games: int = 1000, repeat: int = 5, players: int = 4) -> None:
    print(f"machine: {_machine()}")
    t0 = time.perf_counter()
    records: list[list[Event]] = [simulate(seed, players) for seed in range(games)]
    texts = [[dumps(e) for e in record] for record in records]
    n_events = sum(len(r) for r in records)
    print(
        f"simulated {games} {players}-player games ({n_events} events) "
        f"in {time.perf_counter() - t0:.1f} s"
    )

    objects = [[json.loads(line) for line in lines] for lines in texts]
    gc.collect()
    folds: list[float] = []
    decoded: list[float] = []
    parsed: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        for record in records:
            replay(record)
        folds.append(time.perf_counter() - start)
        start = time.perf_counter()
        for objs in objects:
            replay(from_json(obj) for obj in objs)
        decoded.append(time.perf_counter() - start)
        start = time.perf_counter()
        for lines in texts:
            replay_lines(lines)
        parsed.append(time.perf_counter() - start)
    rate, med = _median_rate(n_events, folds)
    print(
        f"replay, checked events (referee + fold): median {rate:,.0f} events/s "
        f"({med:.3f} s for all, {1e6 * med / n_events:.2f} us/event, {repeat} runs)"
    )
    rate, med = _median_rate(n_events, decoded)
    print(
        f"replay from decoded JSON objects, as a database returns them (form check + referee + "
        f"fold): median {rate:,.0f} events/s ({1e6 * med / n_events:.2f} us/event)"
    )
    rate, med = _median_rate(n_events, parsed)
    print(
        f"replay from JSON lines (parse + referee + fold): median {rate:,.0f} events/s "
        f"({med:.3f} s for all, {1e6 * med / n_events:.2f} us/event)"
    )

    # One new event on an already-replayed state: time check + apply of every event of a sample
    # of games, each measured on its own.
    sample = records[: min(games, 200)]
    one: list[int] = []
    one_json: list[int] = []
    clock = time.perf_counter_ns
    for record, lines in zip(sample, texts, strict=False):
        state = GameState()
        for event, line in zip(record, lines, strict=True):
            shadow = state.copy()
            begin = clock()
            check(state, event)
            apply(state, event)
            one.append(clock() - begin)
            begin = clock()
            parsed_event = loads(line)
            check(shadow, parsed_event)
            apply(shadow, parsed_event)
            one_json.append(clock() - begin)
    one.sort()
    one_json.sort()

    def pct(values: list[int], q: float) -> float:
        return values[min(len(values) - 1, int(q * len(values)))] / 1000

    print(
        f"one incremental event (check + apply): median {pct(one, 0.5):.2f} us, "
        f"p99 {pct(one, 0.99):.2f} us, max {one[-1] / 1000:.1f} us over {len(one)} events"
    )
    print(
        f"one incremental event from its JSON line (parse + check + apply): median "
        f"{pct(one_json, 0.5):.2f} us, p99 {pct(one_json, 0.99):.2f} us"
    )
