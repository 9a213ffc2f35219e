"""The standings search gives the very pairings it gave before it was made fast for large
fields (issue 28): the memo of neighbourhoods without an improving move, the tables' kept
summaries and the bounds that pass over moves which cannot win only skip work, never a move.

Fields of every kind (random meetings sparse to dense, small-table counts, gaps in the
positions, each set of table sizes, and whole simulated tournaments) are paired, and a digest
of every result (tables in seat order, byes, method, cost, lower bound, notes) is compared with
the digest the search gave before the change (``REFERENCE``, recorded with the search of
commit 563a043 on these same fields). A change of the search that changes pairings on purpose
must show its quality on fields like these (repeats, then small tables, then spread, never
worse) and record the new digest. ``python tests/tournaments/test_pairing_reference.py``
prints the digest of the search found first on ``sys.path``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

from tournaments.pairing import Entrant, Pairing, PairingRequest, pair

REFERENCE = "3f0e7f3ee9dd44682c0d14194c330c1c85a6821426bd8b894d5cb9c22e128f7a"

SIZE_SETS = ((3, 4), (2, 3), (4,), (2, 3, 4, 5), (3, 4, 5, 6), (2, 3, 4, 5, 6), (3,))


def random_fields(rng: random.Random, count: int) -> Iterator[PairingRequest]:
    """Fields with random meetings (each pair met with a probability up to 0.3), random
    earlier small tables, byes and first seats, and gaps between positions."""
    for _ in range(count):
        n = rng.choice((rng.randint(25, 40), rng.randint(40, 120)))
        sizes = rng.choice(SIZE_SETS)
        density = rng.choice((0.02, 0.1, 0.3))
        ids = [f"x{i:03d}" for i in range(n)]
        positions = sorted(rng.sample(range(1, 3 * n), n))
        yield PairingRequest(
            tuple(
                Entrant(
                    id=ids[i],
                    position=positions[i],
                    points=float(n - i),
                    met=tuple(ids[j] for j in range(n) if j != i and rng.random() < density / 2),
                    small_tables=rng.choice((0, 0, 1, 2, 3)),
                    byes=rng.choice((0, 0, 1)),
                    first_seats=rng.randint(0, 3),
                    order=i,
                )
                for i in range(n)
            ),
            sizes,
            "standings",
        )


def tournament_rounds(rng: random.Random, n: int, rounds: int) -> Iterator[PairingRequest]:
    """Each round's request of a tournament with random results (as in test_pairing.py)."""
    sizes = rng.choice(SIZE_SETS[:3])
    largest = max(sizes)
    points = dict.fromkeys((f"p{k:03d}" for k in range(n)), 0)
    met: dict[str, set[str]] = {p: set() for p in points}
    small = dict.fromkeys(points, 0)
    for number in range(1, rounds + 1):
        ranked = sorted(points, key=lambda p: (-points[p], p))
        request = PairingRequest(
            tuple(
                Entrant(p, k, points[p], tuple(sorted(met[p])), small[p], order=k)
                for k, p in enumerate(ranked, start=1)
            ),
            sizes,
            "random" if number == 1 else "standings",
            seed=number,
        )
        if number > 1:
            yield request
        result = pair(request)
        for table in result.tables:
            for place, p in enumerate(rng.sample(table.seats, len(table.seats))):
                points[p] += len(table.seats) - 1 - place
                met[p].update(q for q in table.seats if q != p)
                small[p] += len(table.seats) < largest


def requests() -> Iterator[PairingRequest]:
    rng = random.Random(28)
    yield from random_fields(rng, 40)
    for n, rounds in ((30, 8), (61, 6), (150, 5), (400, 4)):
        yield from tournament_rounds(rng, n, rounds)


def digest(results: Iterator[Pairing]) -> str:
    h = hashlib.sha256()
    for result in results:
        h.update(repr(result).encode())
    return h.hexdigest()


def test_the_search_gives_the_pairings_it_gave_before_it_was_made_fast() -> None:
    assert digest(pair(request) for request in requests()) == REFERENCE


if __name__ == "__main__":
    print(digest(pair(request) for request in requests()))
