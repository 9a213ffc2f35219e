"""Table sizes: how many tables of which size seat a field, and how many byes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

# --- table sizes --------------------------------------------------------------------------


def _allowed_sizes(sizes: Iterable[int]) -> tuple[int, ...]:
    allowed = tuple(sorted(set(sizes)))
    if not allowed:
        raise ValueError("no table sizes are allowed: give at least one size")
    for size in allowed:
        if isinstance(size, bool) or not isinstance(size, int) or size < 2:
            raise ValueError(f"table sizes must be whole numbers of at least 2, not {size!r}")
    return allowed


def split(n: int, sizes: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Table sizes for ``n`` players (largest first) and the number of byes.

    Fewest byes first (a bye only where no exact split exists); then as many tables of the
    largest size as possible such that the rest splits exactly into the smaller sizes; the rest
    in as few tables as possible, and among those the bigger tables first (the same rule again:
    compare the sizes largest first, the first difference decides). With (3, 4): 5 = 4 + 1 bye,
    6 = 3+3, 7 = 4+3, 9 = 3+3+3, 10 = 4+3+3.
    """
    allowed = _allowed_sizes(sizes)
    if n < allowed[0]:
        raise ValueError(
            f"at least {allowed[0]} players are needed to seat a table (there are {n})"
        )
    largest = allowed[-1]
    smaller = allowed[:-1]
    # rest[r]: the best split of r players into the smaller sizes (fewest tables, then the
    # larger sizes first), or None; extended on demand.
    rest: list[tuple[int, ...] | None] = [()]

    def best_rest(r: int) -> tuple[int, ...] | None:
        while len(rest) <= r:
            total = len(rest)
            best: tuple[int, ...] | None = None
            for size in smaller:
                if size <= total and (prev := rest[total - size]) is not None:
                    candidate = tuple(sorted((*prev, size), reverse=True))
                    if best is None or (len(candidate), [-s for s in candidate]) < (
                        len(best),
                        [-s for s in best],
                    ):
                        best = candidate
            rest.append(best)
        return rest[r]

    for byes in range(n + 1):
        seated = n - byes
        for full in range(seated // largest, -1, -1):
            tail = best_rest(seated - full * largest)
            if tail is not None:
                return (largest,) * full + tail, byes
    raise AssertionError("unreachable: the smallest size always splits")  # pragma: no cover
