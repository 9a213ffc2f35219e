"""Food Truck replay speed: records checked per second, and one incremental event.

    .venv/bin/python benchmarks/foodtruck.py [--games 1000] [--repeat 5]

Simulated games of 2 to 5 players are replayed from their lines (parse, referee, fold), as
``python -m engine replay`` does; then one event is applied to a state restored from its JSON
snapshot and snapshotted again, as a store that keeps the latest state of a table does. Prints
the medians (replay in CPU time, so a busy machine skews it less); it is a benchmark, nothing
passes or fails.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.foodtruck.events import dumps  # noqa: E402
from engine.foodtruck.replay import replay, replay_lines, step  # noqa: E402
from engine.foodtruck.simulate import simulate  # noqa: E402
from engine.foodtruck.snapshot import from_snapshot, to_snapshot  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    games = [simulate(seed, 2 + seed % 4) for seed in range(args.games)]
    records = [[dumps(e) for e in game] for game in games]
    events = sum(len(r) for r in records)
    rates = []
    for _ in range(args.repeat):
        start = time.process_time()  # CPU time: steadier than the wall clock on a busy machine
        for lines in records:
            replay_lines(lines)
        rates.append(events / (time.process_time() - start))
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{args.games} games, {events} events ({events / args.games:.0f} a game)")
    print(f"replay from lines: {statistics.median(rates):,.0f} events/s (median of {args.repeat})")
    timings = []
    for game in games[:200]:
        cut = len(game) // 2
        data = json.dumps(to_snapshot(replay(game[:cut])))
        start = time.perf_counter()
        state = from_snapshot(json.loads(data))
        step(state, game[cut])
        json.dumps(to_snapshot(state))
        timings.append(time.perf_counter() - start)
    print(
        f"one incremental event (snapshot in, event, snapshot out): "
        f"{statistics.median(timings) * 1e6:.0f} us median"
    )


if __name__ == "__main__":
    main()
