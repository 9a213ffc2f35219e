"""Time to pair round 6 of a Swiss tournament, for 100, 1,000 and 10,000 players.

    .venv/bin/python benchmarks/pairing.py [--players 100 1000 10000] [--runs 3] [--seed 1]

Plays rounds 1 to 5 with random results (round 1 seated at random, then by standings; at each
table a random finishing order, 3/2/1/0 points at a table of four, a bye worth the average),
re-ranks by points with a deterministic tie-break (the player id), then times ``pair`` for
round 6. Prints the median of ``--runs`` runs, the method, repeats, the standing spread per
table and the cost against its proven lower bound. The simulation is the one the tests use
(``tests/tournaments/test_pairing.py``). It is a benchmark: nothing passes or fails.
Targets (2-core machine): 1,000 players paired in <= 2 s with zero repeats; 10,000 (an online
qualifier, issue 28) in <= 1 s, the same pairing as before (tests/tournaments/
test_pairing_reference.py). ``--players 12 40 --runs 1`` is the suite's smoke run.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.pairing import Entrant, Pairing, PairingRequest, pair  # noqa: E402

SIZES = (3, 4)


@dataclass
class Player:
    id: str
    order: int
    points: float = 0.0
    met: set[str] = field(default_factory=set)
    small_tables: int = 0
    byes: int = 0
    first_seats: int = 0


def standings(players: list[Player]) -> list[Entrant]:
    ranked = sorted(players, key=lambda p: (-p.points, p.id))
    return [
        Entrant(
            id=p.id,
            position=k,
            points=p.points,
            met=tuple(sorted(p.met)),
            small_tables=p.small_tables,
            byes=p.byes,
            first_seats=p.first_seats,
            order=p.order,
        )
        for k, p in enumerate(ranked, start=1)
    ]


def play(players: list[Player], pairing: Pairing, rng: random.Random) -> None:
    by_id = {p.id: p for p in players}
    largest = max(SIZES)
    for table in pairing.tables:
        seats = list(table.seats)
        finish = rng.sample(seats, len(seats))
        for place, pid in enumerate(finish):
            by_id[pid].points += len(seats) - 1 - place
        for pid in seats:
            by_id[pid].met.update(s for s in seats if s != pid)
            if len(seats) < largest:
                by_id[pid].small_tables += 1
        by_id[seats[0]].first_seats += 1
    for pid in pairing.byes:
        by_id[pid].byes += 1
        by_id[pid].points += (largest - 1) / 2


def tournament(n: int, rounds: int, seed: int) -> list[Player]:
    """Players after ``rounds`` rounds of random results."""
    rng = random.Random(seed)
    players = [Player(id=f"p{k:05d}", order=k) for k in range(1, n + 1)]
    for number in range(1, rounds + 1):
        method = "random" if number == 1 else "standings"
        request = PairingRequest(tuple(standings(players)), SIZES, method, seed=seed + number)
        play(players, pair(request), rng)
    return players


def machine() -> str:
    cpu = platform.machine()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"table sizes {SIZES}; round 6 after 5 rounds of random results; median of {args.runs}")
    header = (
        f"{'players':>8} {'seconds':>8} {'method':>13} {'repeats':>7} {'spread mean':>11} "
        f"{'spread max':>10} {'cost':>10} {'lower bound':>11}"
    )
    print(header)
    for n in args.players:
        players = tournament(n, 5, args.seed)
        request = PairingRequest(tuple(standings(players)), SIZES, "standings")
        times = []
        result: Pairing | None = None
        for _ in range(args.runs):
            start = time.perf_counter()
            result = pair(request)
            times.append(time.perf_counter() - start)
        assert result is not None
        spreads = [t.spread for t in result.tables]
        print(
            f"{n:>8,} {statistics.median(times):>8.3f} {result.method:>13} "
            f"{result.cost.repeats:>7} {statistics.mean(spreads):>11.2f} {max(spreads):>10} "
            f"{result.cost.total:>10,} {result.lower_bound:>11,.0f}"
        )


if __name__ == "__main__":
    main()
