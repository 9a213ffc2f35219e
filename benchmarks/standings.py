"""Standings for a big Swiss tournament: how long ``tournaments.standings.compute`` takes.

    .venv/bin/python benchmarks/standings.py [--rounds 9] [--repeat 5] [--seed 1]

Random results for 9 rounds (victory points drawn at random, places ranked from them, so equal
scores give shared places as they would at a real table), then the standings computed
``--repeat`` times; prints the median and the machine. A benchmark: nothing passes or fails.
Target (2-core machine): <= 0.5 s for 1,000 players after 9 rounds.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.standings import (  # noqa: E402
    Bye,
    GameResult,
    Placement,
    Player,
    Settings,
    compute,
)


def machine() -> str:
    cpu = platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def table_sizes(count: int, threes: bool) -> tuple[list[int], int]:
    """Tables of 4 and the number of byes: with ``threes``, as few tables of 3 as make the count
    fit (byes only when 1, 2 or 5 players are left over); without, byes for the remainder."""
    if not threes:
        return [4] * (count // 4), count % 4
    for small in range(4):
        rest = count - 3 * small
        if rest >= 0 and rest % 4 == 0:
            return [4] * (rest // 4) + [3] * small, 0
    sizes, byes = table_sizes(count - 1, threes)
    return sizes, byes + 1


def tournament(
    start: int, rounds: int, rng: random.Random, drops: float, late: int, threes: bool
) -> tuple[list[Player], list[GameResult], list[Bye]]:
    """``start`` players; each round a share ``drops`` of the active ones drop after playing;
    ``late`` players join in round 2; ``threes``: tables of 3 rather than byes."""
    ids = [f"p{n:05d}" for n in range(start + late)]
    active = ids[:start]
    dropped: set[str] = set()
    results: list[GameResult] = []
    byes: list[Bye] = []
    for round_no in range(1, rounds + 1):
        if round_no == 2:
            active += ids[start:]
        rng.shuffle(active)
        sizes, bye_count = table_sizes(len(active), threes)
        seat = 0
        for table_no, size in enumerate(sizes, start=1):
            seated = active[seat : seat + size]
            seat += size
            scores = {p: rng.randint(20, 60) for p in seated}
            placements = tuple(
                Placement(p, 1 + sum(1 for q in seated if scores[q] > scores[p]), scores[p])
                for p in seated
            )
            results.append(GameResult(round_no, table_no, placements))
        byes += [Bye(round_no, p) for p in active[seat : seat + bye_count]]
        leaving = set(rng.sample(active, int(len(active) * drops)))
        dropped |= leaving
        active = [p for p in active if p not in leaving]
    players = [Player(p, f"Player {p[1:]}", p in dropped) for p in ids]
    return players, results, byes


def timings(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and fastest of ``repeat`` runs, in seconds."""
    times: list[float] = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"machine: {machine()}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average before: {load} (figures on a busy machine are higher)")
    print(f"{args.rounds} rounds; median (and fastest) of {args.repeat} runs of compute()\n")
    scenarios = [
        ("1,000 players (250 tables of 4)", 1000, 0.0, 0, True, Settings()),
        ("999 players (249 tables of 4 + 1 of 3)", 999, 0.0, 0, True, Settings()),
        ("997 players (245 tables of 4 + 3 of 3)", 997, 0.0, 0, True, Settings()),
        ("1,002 players, tables of 4 only (2 byes a round)", 1002, 0.0, 0, False, Settings()),
        (
            "1,000 players, 1% drop each round, 5 join in round 2 (splits change every round)",
            1000,
            0.01,
            5,
            True,
            Settings(),
        ),
        (
            "1,000 players as above, all four tie-breaks, preset 'wins'",
            1000,
            0.01,
            5,
            True,
            Settings(
                preset="wins",
                tiebreaks=("victory_points", "opponents_average", "first_places", "games"),
            ),
        ),
    ]
    width = max(len(name) for name, *_ in scenarios)
    for name, start, drops, late, threes, settings in scenarios:
        rng = random.Random(args.seed)
        players, results, byes = tournament(start, args.rounds, rng, drops, late, threes)
        seconds, fastest = timings(partial(compute, players, results, byes, settings), args.repeat)
        placements = sum(len(r.placements) for r in results)
        print(
            f"{name:<{width}}  {seconds * 1000:6.1f} ms ({fastest * 1000:5.1f})  "
            f"({len(results)} tables, {placements} placements, {len(byes)} byes, "
            f"{seconds / (placements + len(byes)) * 1e6:.1f} us per placement)"
        )


if __name__ == "__main__":
    main()
