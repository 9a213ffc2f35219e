"""The request prepared for the search (positions, meetings, small-table counts), the
small-table rule, the lower bound of the cost, and who gets the byes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournaments.pairing.records import (
    METHODS,
    REPEAT_WEIGHT,
    SMALL_TABLE_WEIGHT,
    SPREAD_WEIGHT,
    Entrant,
    PairingRequest,
)
from tournaments.pairing.sizes import _allowed_sizes

# --- prepared data ------------------------------------------------------------------------


def _check_request(request: PairingRequest) -> tuple[int, ...]:
    if request.method not in METHODS:
        raise ValueError(f"unknown pairing method {request.method!r}: use one of {METHODS}")
    allowed = _allowed_sizes(request.sizes)
    seen: set[str] = set()
    previous: int | None = None
    for entrant in request.entrants:
        if entrant.id in seen:
            raise ValueError(f"player {entrant.id!r} is entered twice")
        seen.add(entrant.id)
        if previous is not None and entrant.position <= previous:
            raise ValueError(
                f"positions must be strictly increasing in the request: {entrant.id!r} has "
                f"position {entrant.position} after {previous}"
            )
        previous = entrant.position
    return allowed


class _Field:
    """The seated players as indices 0..n-1 (standing order) and their data as lists."""

    __slots__ = ("cnt", "entrants", "largest", "met", "pos")

    def __init__(self, entrants: Sequence[Entrant], largest: int) -> None:
        self.entrants = list(entrants)
        self.largest = largest
        self.pos = [e.position for e in self.entrants]
        self.cnt = [e.small_tables for e in self.entrants]
        index = {e.id: i for i, e in enumerate(self.entrants)}
        met: list[set[int]] = [set() for _ in self.entrants]
        for i, entrant in enumerate(self.entrants):
            for other in entrant.met:
                j = index.get(other)
                if j is not None and j != i:
                    met[i].add(j)
                    met[j].add(i)
        self.met = [frozenset(m) for m in met]

    @property
    def n(self) -> int:
        return len(self.entrants)

    def table(self, members: Sequence[int]) -> tuple[int, int, int]:
        """(repeats, small-table term, spread) of one table."""
        met = self.met
        repeats = 0
        for k, a in enumerate(members):
            ma = met[a]
            for b in members[k + 1 :]:
                if b in ma:
                    repeats += 1
        small = sum(self.cnt[a] for a in members) if len(members) < self.largest else 0
        positions = [self.pos[a] for a in members]
        return repeats, small, max(positions) - min(positions)


def _small_rule(cnt: Sequence[int], small_seats: int) -> tuple[list[bool], list[bool]]:
    """Who may sit at a small table, and who at a full-size one, under the hard rule.

    With z players who never had a small table and S small seats: if z <= S they all get one
    (nobody else gets a second while one of them sits at a full table); if z >= S only they
    may take the small seats.
    """
    zero = sum(1 for c in cnt if c == 0)
    can_big = [not (c == 0 and zero <= small_seats) for c in cnt]
    can_small = [not (c > 0 and zero >= small_seats) for c in cnt]
    return can_small, can_big


def _breaches(cnt: Sequence[int], small_flags: Sequence[bool]) -> int:
    if not any(c == 0 and not s for c, s in zip(cnt, small_flags, strict=True)):
        return 0
    return sum(1 for c, s in zip(cnt, small_flags, strict=True) if c > 0 and s)


def _top_gaps_sum(positions: Sequence[int], count: int) -> int:
    if count <= 0:
        return 0
    gaps = sorted((b - a for a, b in zip(positions, positions[1:], strict=False)), reverse=True)
    return sum(gaps[:count])


def _lower_bound_parts(field: _Field, table_sizes: Sequence[int]) -> tuple[int, int, int]:
    """Proven lower bounds on (repeats, small-table term, spread) for these table sizes.

    repeats: see _repeat_bound.
    small-table term: the small seats hold at least the players with the lowest counts.
    spread: the tables' [min, max] intervals cover every position, and the uncovered part of
        [best, worst] is at most the T - 1 largest gaps between neighbouring positions (with
        consecutive positions: N - T).
    """
    n = field.n
    if not table_sizes:
        return 0, 0, 0
    repeats = _repeat_bound([n - 1 - len(m) for m in field.met], table_sizes)
    small_seats = sum(s for s in table_sizes if s < field.largest)
    small = sum(sorted(field.cnt)[:small_seats])
    spread = field.pos[-1] - field.pos[0] - _top_gaps_sum(field.pos, len(table_sizes) - 1)
    return repeats, small, spread


def _repeat_bound(unmet: Iterable[int], table_sizes: Sequence[int]) -> int:
    """A lower bound on the repeats of any grouping into ``table_sizes``, from the number of
    players each player has not met (among the players to seat).

    By player: at a table of at least ``smallest`` seats a player has ``smallest - 1``
    table-mates, and all but ``unmet`` of them are repeats; each repeat is counted by both.
    By pair: the tables hold sum(C(s, 2)) pairs; a player takes part in at most
    min(unmet, biggest - 1) pairs that have not met, so at most half the sum of those are new
    meetings, and the other pairs are repeats.
    """
    smallest, biggest = min(table_sizes), max(table_sizes)
    need = usable = 0
    for count in unmet:
        need += max(0, smallest - 1 - count)
        usable += min(count, biggest - 1)
    pairs = sum(s * (s - 1) // 2 for s in table_sizes)
    return max((need + 1) // 2, pairs - usable // 2)


def _weigh(repeats: int, small: int, spread: int) -> int:
    return REPEAT_WEIGHT * repeats + SMALL_TABLE_WEIGHT * small + SPREAD_WEIGHT * spread


# --- byes ---------------------------------------------------------------------------------


def _byes(entrants: Sequence[Entrant], count: int) -> list[Entrant]:
    """The lowest-placed players among those with the fewest byes."""
    ranked = sorted(entrants, key=lambda e: (e.byes, -e.position))
    return ranked[:count]
