"""Seat the players of one Swiss round at tables: a pure module.

Frozen input records in (:class:`PairingRequest` of :class:`Entrant`), plain results out
(:class:`Pairing` of :class:`Table`). No Django, no ORM: the tournament services read the
models, build a request, call :func:`pair` and save the tables (like Tabbycat's
``draw/generator/``). ``docs/pairing.md`` explains the rules in plain words.

Public API: :func:`split` (table sizes and byes), :func:`pair` (the pairing), :func:`cost_of`
(re-cost any grouping, e.g. after an organizer's manual swap), :func:`lower_bound` and the
records.

The cost of a grouping (lower is better) is one weighted sum, the weights expressing
lexicographic priorities::

    total = 1,000,000 x repeats        pairs at a table who met before
          +     1,000 x small_tables   for each seat at a small table, that player's
                                       earlier small tables
          +         1 x spread         sum over tables of (max position - min position)

One rule is hard, above every weight, and holds by construction: nobody is seated at a small
table again while a seated player who never had one sits at a full-size table
(:attr:`Cost.small_table_breaches` is always 0 in :func:`pair`'s groupings).

Search ("standings"): a deterministic local search from the standings order (swaps of two
players between tables, widening for tables that hold a repeat, rotations of three players,
exact regrouping of three tables), then, for small fields, an exhaustive branch and bound that
starts from the local search's cost and proves the optimum.

Determinism: no global random state (round 1 "random" uses ``random.Random(seed)``), no
iteration over sets or dicts keyed by strings; ties are broken by standing position; budgets
count steps, never seconds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from tournaments import notes as note_codes

__all__ = [
    "EXHAUSTIVE_MAX_PLAYERS",
    "METHODS",
    "REPEAT_WEIGHT",
    "SMALL_TABLE_WEIGHT",
    "SPREAD_WEIGHT",
    "Cost",
    "Entrant",
    "Pairing",
    "PairingRequest",
    "Table",
    "cost_of",
    "lower_bound",
    "pair",
    "split",
]

REPEAT_WEIGHT = 1_000_000
SMALL_TABLE_WEIGHT = 1_000
SPREAD_WEIGHT = 1

METHODS = ("standings", "random", "order")

# Exhaustive branch and bound runs to the end for up to ALWAYS_EXHAUSTIVE_PLAYERS seated
# players (at most 15,400 groupings of 12). Up to EXHAUSTIVE_MAX_PLAYERS it is tried with a
# budget of EXHAUSTIVE_BUDGET steps (at most about 0.7 s on the benchmark machine): when it
# finishes, the result is proven optimal; otherwise the best grouping found (never worse than
# the local search's) is kept. Steps, not seconds: the same request gives the same pairing on
# any machine.
ALWAYS_EXHAUSTIVE_PLAYERS = 12
EXHAUSTIVE_MAX_PLAYERS = 24
EXHAUSTIVE_BUDGET = 700_000

# Local search: each table tries swaps with the next WINDOW tables; a table that still holds a
# repeat widens its window (doubling) up to every table, then tries rotating three players
# among its CYCLE_TABLES nearest tables, then an exact regrouping of its players with those of
# two of its REGROUP_TABLES nearest tables.
WINDOW = 2
CYCLE_TABLES = 10
REGROUP_TABLES = 6
REGROUP_BUDGET = 20_000
REGROUP_TOTAL_BUDGET = 400_000
CYCLE_WINDOW = 2

# Steps allowed for the bound on one player's fewest repeats in a branch and bound (beyond:
# the bound is taken as 0).
_LEAST_CAP = 2_000

# Seats in the initial layout that break the small-table rule cost this much (they are then
# repaired by swaps before the search starts).
_LAYOUT_PENALTY = 1 << 40


# --- records ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player to seat this round, with the history the pairing needs."""

    id: str
    """Stable player id."""
    position: int
    """Current standing position, 1 = best; strictly increasing in the request."""
    points: float = 0.0
    """Tournament points, only for reporting spreads."""
    met: tuple[str, ...] = ()
    """Ids met before at a table. A pair has met if either lists the other."""
    small_tables: int = 0
    """Times seated at a table smaller than the largest allowed size."""
    byes: int = 0
    """Byes received before."""
    first_seats: int = 0
    """Times in seat 1 (the game's first player) before."""
    order: int = 0
    """Registration order or rating rank, for round-1 "order" pairing."""
    name: str = ""
    """How the transparency notes name the player (the id if empty)."""


@dataclass(frozen=True, slots=True)
class PairingRequest:
    entrants: tuple[Entrant, ...]
    """The players to seat this round, by position (best first)."""
    sizes: tuple[int, ...]
    """Allowed table sizes, e.g. (3, 4)."""
    method: str
    """"standings" | "random" | "order"."""
    seed: int = 0
    """Seed for "random"."""


@dataclass(frozen=True, slots=True)
class Cost:
    """The cost of a grouping, by component, and the weighted total (lower is better)."""

    repeats: int
    """Pairs seated together who met before."""
    small_tables: int
    """Sum, over the seats at small tables, of that player's earlier small tables."""
    spread: int
    """Sum over tables of (max position - min position)."""
    total: int
    """REPEAT_WEIGHT x repeats + SMALL_TABLE_WEIGHT x small_tables + SPREAD_WEIGHT x spread."""
    small_table_breaches: int = 0
    """Not weighted, a hard rule: players seated at a small table again while a seated player
    who never had one sits at a full-size table. Always 0 in :func:`pair`'s groupings; a manual
    swap can break it and :func:`cost_of` reports it."""


@dataclass(frozen=True, slots=True)
class Table:
    number: int
    """1 = top table."""
    seats: tuple[str, ...]
    """Player ids in seat order; seats[0] is the first player (seat 1)."""
    spread: int
    """Max position - min position at the table."""
    points_spread: float
    """Max points - min points at the table."""
    repeats: tuple[tuple[str, str], ...]
    """Pairs at this table who met before (better-placed player first)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    tables: tuple[Table, ...]
    """Top tables first."""
    byes: tuple[str, ...]
    method: str
    """"random", "order", "exhaustive" or "local search"."""
    cost: Cost
    lower_bound: float
    """A proven lower bound on cost.total for this request (equal to it when exhaustive)."""
    notes: tuple[dict[str, Any], ...]
    """Notes for the organizer as codes with parameters (:mod:`tournaments.notes` words them),
    players named by id."""


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


# --- standings: initial layout, repair, local search --------------------------------------


def _layout(
    field: _Field, table_sizes: Sequence[int], can_small: Sequence[bool], can_big: Sequence[bool]
) -> list[list[int]]:
    """Consecutive positions, with the small tables where the small-table term is cheapest
    (and the hard rule broken least); ties put full tables on top."""
    n = field.n
    distinct = sorted(set(table_sizes), reverse=True)
    counts = [sum(1 for s in table_sizes if s == d) for d in distinct]
    bad_small = [0] * (n + 1)
    bad_big = [0] * (n + 1)
    cnt_prefix = [0] * (n + 1)
    for i in range(n):
        bad_small[i + 1] = bad_small[i] + (0 if can_small[i] else 1)
        bad_big[i + 1] = bad_big[i] + (0 if can_big[i] else 1)
        cnt_prefix[i + 1] = cnt_prefix[i] + field.cnt[i]

    def block(start: int, size: int) -> int:
        end = start + size
        if size < field.largest:
            return SMALL_TABLE_WEIGHT * (cnt_prefix[end] - cnt_prefix[start]) + _LAYOUT_PENALTY * (
                bad_small[end] - bad_small[start]
            )
        return _LAYOUT_PENALTY * (bad_big[end] - bad_big[start])

    states = sorted(product(*(range(c + 1) for c in counts)), key=sum, reverse=True)
    best: dict[tuple[int, ...], tuple[int, int]] = {}  # state -> (cost to the end, next size)
    for state in states:
        start = sum(u * d for u, d in zip(state, distinct, strict=True))
        if start == n:
            best[state] = (0, -1)
            continue
        choice: tuple[int, int] | None = None
        for k, d in enumerate(distinct):
            if state[k] < counts[k]:
                following = (*state[:k], state[k] + 1, *state[k + 1 :])
                cost = block(start, d) + best[following][0]
                if choice is None or cost < choice[0]:
                    choice = (cost, k)
        assert choice is not None
        best[state] = choice
    tables: list[list[int]] = []
    state = tuple(0 for _ in counts)
    start = 0
    while start < n:
        k = best[state][1]
        tables.append(list(range(start, start + distinct[k])))
        start += distinct[k]
        state = (*state[:k], state[k] + 1, *state[k + 1 :])
    return tables


class _Search:
    """Tables under improvement. Every move (a swap, a rotation of three players, an exact
    regrouping of a few tables) is made only when it lowers the total cost, and moves are
    tried in a fixed order, so the same start gives the same result. Moves are costed
    incrementally: only the tables they touch are looked at."""

    def __init__(
        self,
        field: _Field,
        tables: list[list[int]],
        can_small: Sequence[bool],
        can_big: Sequence[bool],
    ) -> None:
        self.field = field
        self.tables = [sorted(t) for t in tables]
        self.small = [len(t) < field.largest for t in tables]
        self.can_small = can_small
        self.can_big = can_big
        self.regroup_steps = REGROUP_TOTAL_BUDGET
        self.where = [0] * field.n
        for t, members in enumerate(self.tables):
            for a in members:
                self.where[a] = t
        parts = [field.table(t) for t in self.tables]
        self.repeats = [p[0] for p in parts]
        self.cost = [_weigh(*p) for p in parts]

    def allowed(self, a: int, to_table: int) -> bool:
        return self.can_small[a] if self.small[to_table] else self.can_big[a]

    def _new_cost(self, t: int, out: int, into: int) -> int:
        """The cost of table t with ``out`` replaced by ``into``, from this table's members
        only (the incremental evaluation of a move)."""
        field = self.field
        members = self.tables[t]
        met_in = field.met[into]
        pos = field.pos
        repeats_removed = 0
        repeats_added = 0
        met_out = field.met[out]
        lo = hi = pos[into]
        small = field.cnt[into]
        for m in members:
            if m == out:
                continue
            if m in met_out:
                repeats_removed += 1
            if m in met_in:
                repeats_added += 1
            p = pos[m]
            if p < lo:
                lo = p
            elif p > hi:
                hi = p
            small += field.cnt[m]
        t_repeats = self.repeats[t] - repeats_removed + repeats_added
        small_term = small if self.small[t] else 0
        return _weigh(t_repeats, small_term, hi - lo)

    def best_swap(self, t: int, others: Iterable[int]) -> tuple[int, int, int] | None:
        """The most improving swap between table t and one of ``others`` (first found on
        ties): (delta, a, b), or None."""
        tables = self.tables
        cost = self.cost
        best: tuple[int, int, int] | None = None
        mine = tables[t]
        for u in others:
            theirs = tables[u]
            cross = self.small[t] != self.small[u]
            base = cost[t] + cost[u]
            for a in mine:
                if cross and not self.allowed(a, u):
                    continue
                for b in theirs:
                    if cross and not self.allowed(b, t):
                        continue
                    delta = self._new_cost(t, a, b) + self._new_cost(u, b, a) - base
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, a, b)
        return best

    def rotate(self, players: Sequence[int]) -> None:
        """Each player moves to the next one's table, the last one to the first one's (two
        players: a swap)."""
        homes = [self.where[x] for x in players]
        for i, x in enumerate(players):
            t = homes[i]
            incoming = players[i - 1]
            self.tables[t] = sorted(incoming if m == x else m for m in self.tables[t])
        for i, x in enumerate(players):
            self.where[x] = homes[(i + 1) % len(players)]
        for t in homes:
            self._recost(t)

    def _recost(self, t: int) -> None:
        repeats, small, spread = self.field.table(self.tables[t])
        self.repeats[t] = repeats
        self.cost[t] = _weigh(repeats, small, spread)

    def best_cycle(self, t: int, others: Sequence[int]) -> tuple[int, int, int, int] | None:
        """The most improving rotation a (table t) -> table u, b (u) -> table v, c (v) -> t
        with u, v among ``others`` (first found on ties): (delta, a, b, c) or None."""
        tables, cost, new, allowed = self.tables, self.cost, self._new_cost, self.allowed
        mine = tables[t]
        # into_t[u][i][k]: table t with mine[i] out and tables[u][k] in (None: not allowed)
        into_t = {
            u: [[new(t, a, c) if allowed(c, t) else None for c in tables[u]] for a in mine]
            for u in others
        }
        best: tuple[int, int, int, int] | None = None
        for u in others:
            theirs = tables[u]
            into_u = [[new(u, b, a) if allowed(a, u) else None for a in mine] for b in theirs]
            for v in others:
                if v == u:
                    continue
                third = tables[v]
                base = cost[t] + cost[u] + cost[v]
                into_v = [[new(v, c, b) if allowed(b, v) else None for b in theirs] for c in third]
                from_v = into_t[v]
                for i, a in enumerate(mine):
                    row = from_v[i]
                    for j, b in enumerate(theirs):
                        part = into_u[j][i]
                        if part is None:
                            continue
                        for k, c in enumerate(third):
                            x, y = row[k], into_v[k][j]
                            if x is None or y is None:
                                continue
                            delta = x + part + y - base
                            if delta < 0 and (best is None or delta < best[0]):
                                best = (delta, a, b, c)
        return best

    def improve_window(self) -> bool:
        """Swaps between each table and the next WINDOW tables, best first, until none
        lowers the cost."""
        changed = False
        count = len(self.tables)
        for t in range(count):
            for u in range(t + 1, min(count, t + WINDOW + 1)):
                while (swap := self.best_swap(t, (u,))) is not None:
                    self.rotate(swap[1:])
                    changed = True
        return changed

    def remove_repeats(self) -> bool:
        """For each table holding a repeat: swaps with tables ever farther away (the window
        doubles up to every table, nearest first), then three-player rotations among its
        CYCLE_TABLES nearest tables. Ends with no improving swap between it and any table."""
        changed = False
        count = len(self.tables)
        for t in range(count):
            width = 2 * WINDOW
            while self.repeats[t] > 0:
                lo, hi = max(0, t - width), min(count, t + width + 1)
                others = sorted(range(lo, hi), key=lambda u: (abs(u - t), u))
                swap = self.best_swap(t, (u for u in others if u != t))
                if swap is not None:
                    self.rotate(swap[1:])
                    changed = True
                elif lo == 0 and hi == count:
                    near = sorted(
                        (u for u in range(count) if u != t), key=lambda u: (abs(u - t), u)
                    )
                    cycle = self.best_cycle(t, near[:CYCLE_TABLES])
                    if cycle is None:
                        break
                    self.rotate(cycle[1:])
                    changed = True
                else:
                    width *= 2
        return changed

    def regroup(self) -> bool:
        """For each table still holding a repeat: the best regrouping (exact, branch and bound)
        of its players with those of two other tables among the REGROUP_TABLES nearest, within
        REGROUP_BUDGET steps each and REGROUP_TOTAL_BUDGET steps for the whole search."""
        changed = False
        count = len(self.tables)
        for t in range(count):
            improved = True
            while improved and self.repeats[t] > 0 and self.regroup_steps > 0:
                improved = False
                near = sorted((u for u in range(count) if u != t), key=lambda u: (abs(u - t), u))
                near = near[:REGROUP_TABLES]
                pairs = sorted(
                    ((u, v) for k, u in enumerate(near) for v in near[k + 1 :]),
                    key=lambda uv: (abs(uv[0] - t) + abs(uv[1] - t), uv),
                )
                for u, v in pairs:
                    if self.regroup_steps <= 0:
                        break
                    group = (t, u, v)
                    current = sum(self.cost[g] for g in group)
                    players = sorted(x for g in group for x in self.tables[g])
                    sizes = [len(self.tables[g]) for g in group]
                    _, found, _, spent = _solve(
                        self.field,
                        players,
                        sizes,
                        self.can_small,
                        self.can_big,
                        current,
                        min(REGROUP_BUDGET, self.regroup_steps),
                    )
                    self.regroup_steps -= spent
                    if found is not None:
                        self.replace(group, found)
                        changed = improved = True
                        break
        return changed

    def replace(self, group: Sequence[int], found: list[list[int]]) -> None:
        """Put the regrouped players back in the same tables (sizes matched in order)."""
        free = list(group)
        for members in found:
            g = next(g for g in free if len(self.tables[g]) == len(members))
            free.remove(g)
            self.tables[g] = sorted(members)
            for x in members:
                self.where[x] = g
            self._recost(g)

    def cycle_window(self) -> bool:
        """Rotations of three players among each table and its nearest tables (CYCLE_WINDOW
        either side): they tighten the standing spread where no single swap can."""
        changed = False
        count = len(self.tables)
        for t in range(count):
            lo, hi = max(0, t - CYCLE_WINDOW), min(count, t + CYCLE_WINDOW + 1)
            others = [u for u in range(lo, hi) if u != t]
            while (cycle := self.best_cycle(t, others)) is not None:
                self.rotate(cycle[1:])
                changed = True
        return changed

    def run(self) -> None:
        """Until nothing improves: swaps nearby, repeats widened, regrouping, rotations."""
        while True:
            changed = self.improve_window()
            changed = self.remove_repeats() or changed
            if not changed:
                changed = self.regroup()
            if not changed:
                changed = self.cycle_window()
            if not changed:
                return

    def repair(self) -> None:
        """Swap away every seat that breaks the small-table rule (there is always a partner:
        see _small_rule), choosing the cheapest partner, ties by nearest position."""
        pos = self.field.pos
        for a in range(self.field.n):
            t = self.where[a]
            if self.allowed(a, t):
                continue
            best: tuple[int, int, int] | None = None
            for b in range(self.field.n):
                u = self.where[b]
                if self.small[u] == self.small[t] or not self.allowed(b, t):
                    continue
                if not self.allowed(a, u):
                    continue
                delta = self._new_cost(t, a, b) + self._new_cost(u, b, a)
                key = (delta - self.cost[t] - self.cost[u], abs(pos[a] - pos[b]), b)
                if best is None or key < best:
                    best = key
            assert best is not None, "the small-table rule always leaves a partner"
            self.rotate((a, best[2]))

    def total(self) -> int:
        return sum(self.cost)


# --- standings: exhaustive branch and bound -----------------------------------------------


class _BudgetExceeded(Exception):
    """Internal: the branch and bound used up its budget."""


def _min_table_repeats(
    met: Sequence[int], p: int, others: Sequence[int], size: int, cap: int
) -> tuple[int, int]:
    """A lower bound on the repeats at any table of ``size`` holding p and players from
    ``others`` (bit masks of local indices in ``met``), and the steps spent: the exact fewest,
    or 0 when the search for it would take more than ``cap`` steps."""
    best = size * size
    chosen = 1 << p
    steps = 0

    def extend(start: int, left: int, repeats: int) -> None:
        nonlocal best, chosen, steps
        if left == 0:
            best = min(best, repeats)
            return
        for k in range(start, len(others) - left + 1):
            steps += 1
            if steps > cap:
                raise _BudgetExceeded
            x = others[k]
            more = repeats + (met[x] & chosen).bit_count()
            if more >= best:
                continue
            chosen |= 1 << x
            extend(k + 1, left - 1, more)
            chosen &= ~(1 << x)
            if best == 0:
                return

    try:
        extend(0, size - 1, 0)
    except _BudgetExceeded:
        return 0, steps
    return best, steps


def _solve(
    field: _Field,
    players: Sequence[int],
    table_sizes: Sequence[int],
    can_small: Sequence[bool],
    can_big: Sequence[bool],
    incumbent: int,
    budget: int | None,
) -> tuple[int, list[list[int]] | None, bool, int]:
    """Branch and bound over every grouping of ``players`` into ``table_sizes`` allowed by the
    small-table rule: the lowest total cost below ``incumbent``.

    Each grouping is reached once: the best-placed unseated player opens the next table;
    branch on its size, then on its table-mates one by one in standing order. A table under
    construction is cut as soon as its cost so far reaches the best known total; a finished
    table when its cost plus a lower bound for the players left does.

    Returns the best cost found, its tables (None when nothing beat ``incumbent``) and whether
    the search finished (False: stopped after about ``budget`` steps, one step being one
    player tried at a table or looked at by a bound; the best is then only the best found),
    and the steps taken.
    """
    m = len(players)
    largest = field.largest
    pos = [field.pos[g] for g in players]
    cnt = [field.cnt[g] for g in players]
    local = {g: i for i, g in enumerate(players)}
    met = [0] * m
    for i, g in enumerate(players):
        for j in field.met[g]:
            k = local.get(j)
            if k is not None:
                met[i] |= 1 << k
    small_ok = [can_small[g] for g in players]
    big_ok = [can_big[g] for g in players]
    distinct = sorted(set(table_sizes), reverse=True)
    counts = [sum(1 for s in table_sizes if s == d) for d in distinct]
    everyone = list(range(m))
    # fewest repeats of any table of each size holding p (over these players): each table
    # holds at least the largest of its members' values, so at least their mean.
    steps = 0
    least: dict[int, list[int]] = {}
    for d in distinct:
        least[d] = []
        for p in everyone:
            value, spent = _min_table_repeats(
                met, p, [x for x in everyone if x != p], d, _LEAST_CAP
            )
            least[d].append(value)
            steps += spent
    if budget is not None and steps > budget:
        return incumbent, None, False, steps
    by_count = sorted(everyone, key=lambda x: (cnt[x], x))
    best_cost = incumbent
    best_tables: list[list[int]] | None = None
    chosen: list[list[int]] = []

    def bound(rem: int) -> int:
        nonlocal steps
        if not rem:
            return 0
        left = [x for x in everyone if (rem >> x) & 1]
        steps += len(left)
        sizes_left = [d for d, c in zip(distinct, counts, strict=True) for _ in range(c)]
        smallest, biggest = sizes_left[-1], sizes_left[0]
        share = sum(least[smallest][x] for x in left)
        repeats = max(
            _repeat_bound(((rem & ~met[x]).bit_count() - 1 for x in left), sizes_left),
            -(-share // biggest),
        )
        small_seats = sum(d * c for d, c in zip(distinct, counts, strict=True) if d < largest)
        small = 0
        if small_seats:
            for x in by_count:
                if (rem >> x) & 1:
                    small += cnt[x]
                    small_seats -= 1
                    if not small_seats:
                        break
        positions = [pos[x] for x in left]
        tables_left = sum(counts)
        spread = positions[-1] - positions[0] - _top_gaps_sum(positions, tables_left - 1)
        return _weigh(repeats, small, spread)

    def search(rem: int, acc: int) -> None:
        nonlocal best_cost, best_tables
        if not rem:
            if acc < best_cost:
                best_cost = acc
                best_tables = [[players[x] for x in t] for t in chosen]
            return
        first = (rem & -rem).bit_length() - 1
        rest = rem & ~(1 << first)
        for k, size in enumerate(distinct):
            if not counts[k]:
                continue
            small = size < largest
            allowed = small_ok if small else big_ok
            if not allowed[first]:
                continue
            mates = [x for x in everyone if (rest >> x) & 1 and allowed[x]]
            counts[k] -= 1
            chosen.append([first])
            grow(rem, acc, mates, 0, size - 1, 1 << first, 0, cnt[first] if small else 0, small)
            chosen.pop()
            counts[k] += 1

    def grow(
        rem: int,
        acc: int,
        mates: list[int],
        start: int,
        left: int,
        mask: int,
        repeats: int,
        small_term: int,
        small: bool,
    ) -> None:
        nonlocal steps
        table = chosen[-1]
        first = table[0]
        for k in range(start, len(mates) - left + 1):
            steps += 1
            if budget is not None and steps > budget:
                raise _BudgetExceeded
            x = mates[k]
            spread = pos[x] - pos[first]
            if acc + _weigh(repeats, small_term, spread) >= best_cost:
                break  # later mates only widen the spread
            more = repeats + (met[x] & mask).bit_count()
            extra = small_term + cnt[x] if small else 0
            cost = acc + _weigh(more, extra, spread)
            if cost >= best_cost:
                continue
            table.append(x)
            if left == 1:
                rem_after = rem & ~(mask | (1 << x))
                if cost + bound(rem_after) < best_cost:
                    search(rem_after, cost)
            else:
                grow(rem, acc, mates, k + 1, left - 1, mask | (1 << x), more, extra, small)
            table.pop()

    try:
        search((1 << m) - 1, 0)
    except _BudgetExceeded:
        return best_cost, best_tables, False, steps
    return best_cost, best_tables, True, steps


# --- results ------------------------------------------------------------------------------


def _seat_order(members: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """Seat 1 to the fewest first seats (ties: better position); the others by position."""
    by_position = sorted(members, key=lambda e: e.position)
    first = min(by_position, key=lambda e: (e.first_seats, e.position))
    return (first, *(e for e in by_position if e is not first))


def _make_table(number: int, members: Sequence[Entrant], met: dict[str, frozenset[str]]) -> Table:
    seats = _seat_order(members)
    by_position = sorted(members, key=lambda e: e.position)
    repeats = tuple(
        (a.id, b.id)
        for k, a in enumerate(by_position)
        for b in by_position[k + 1 :]
        if b.id in met[a.id]
    )
    return Table(
        number=number,
        seats=tuple(e.id for e in seats),
        spread=by_position[-1].position - by_position[0].position,
        points_spread=max(e.points for e in members) - min(e.points for e in members),
        repeats=repeats,
    )


def _assemble(
    field: _Field,
    groups: Sequence[Sequence[int]],
    byes: Sequence[Entrant],
    method: str,
    bound: int,
    reason: str,
    repeats_at_least: int = 0,
    extra_notes: Sequence[dict[str, Any]] = (),
) -> Pairing:
    """``reason``: why players who met before share a table (a :mod:`tournaments.notes`
    reason code; ``repeats_at_least`` with ``fewest_repeats``)."""
    largest = field.largest
    met_ids = _met_ids(field.entrants)
    entrant_tables: list[list[Entrant]] = [[field.entrants[i] for i in g] for g in groups]
    tables = tuple(
        _make_table(number, members, met_ids)
        for number, members in enumerate(entrant_tables, start=1)
    )
    cost = _cost_of_groups(field, groups)
    notes: list[dict[str, Any]] = []
    if method in ("exhaustive", "local search"):
        notes.append(
            note_codes.search_cost(
                method=method,
                total=cost.total,
                repeats=cost.repeats,
                repeat_weight=REPEAT_WEIGHT,
                small_tables=cost.small_tables,
                small_table_weight=SMALL_TABLE_WEIGHT,
                spread=cost.spread,
                bound=bound,
            )
        )
    notes.extend(extra_notes)
    for table in tables:
        for a, b in table.repeats:
            notes.append(note_codes.met_before(table.number, a, b, reason, repeats_at_least))
    for table, members in zip(tables, entrant_tables, strict=True):
        if len(members) >= largest:
            continue
        had = [e for e in sorted(members, key=lambda e: e.position) if e.small_tables > 0]
        why = (
            note_codes.NEVER_HAD_ONE_SEATED
            if any(c == 0 for c in field.cnt)
            else note_codes.ALL_HAD_ONE
        )
        notes.append(
            note_codes.small_table(
                table.number, len(members), largest, [(e.id, e.small_tables) for e in had], why
            )
        )
    for entrant in byes:
        notes.append(note_codes.bye(entrant.id, entrant.byes))
    return Pairing(
        tables=tables,
        byes=tuple(e.id for e in byes),
        method=method,
        cost=cost,
        lower_bound=float(bound),
        notes=tuple(notes),
    )


def _met_ids(entrants: Sequence[Entrant]) -> dict[str, frozenset[str]]:
    """Symmetric meetings (a pair met if either lists the other), for membership tests."""
    met: dict[str, set[str]] = {e.id: set() for e in entrants}
    for entrant in entrants:
        for other in entrant.met:
            if other in met and other != entrant.id:
                met[entrant.id].add(other)
                met[other].add(entrant.id)
    return {k: frozenset(v) for k, v in met.items()}


def _cost_of_groups(field: _Field, groups: Sequence[Sequence[int]]) -> Cost:
    repeats = small = spread = 0
    small_flags = [False] * field.n
    for group in groups:
        r, s, sp = field.table(group)
        repeats += r
        small += s
        spread += sp
        if len(group) < field.largest:
            for i in group:
                small_flags[i] = True
    seated = sorted(i for g in groups for i in g)
    breaches = _breaches([field.cnt[i] for i in seated], [small_flags[i] for i in seated])
    return Cost(
        repeats=repeats,
        small_tables=small,
        spread=spread,
        total=_weigh(repeats, small, spread),
        small_table_breaches=breaches,
    )


# --- public entry points ------------------------------------------------------------------


def cost_of(tables: Sequence[Sequence[str]], request: PairingRequest) -> Cost:
    """The cost of any grouping of the request's players (players in no table are byes and
    cost nothing), e.g. after a manual swap: compare with ``pair(request).cost``."""
    allowed = _check_request(request)
    by_id = {e.id: e for e in request.entrants}
    seen: set[str] = set()
    for table in tables:
        if len(table) not in allowed:
            raise ValueError(f"a table of {len(table)} is not allowed (sizes {allowed})")
        for player in table:
            if player not in by_id:
                raise ValueError(f"{player!r} is not in the request")
            if player in seen:
                raise ValueError(f"{player!r} is seated twice")
            seen.add(player)
    seated = [e for e in request.entrants if e.id in seen]
    field = _Field(seated, allowed[-1])
    index = {e.id: i for i, e in enumerate(seated)}
    return _cost_of_groups(field, [[index[p] for p in table] for table in tables])


def lower_bound(request: PairingRequest) -> float:
    """A proven lower bound on ``pair(request).cost.total``, byes as :func:`pair` gives them
    (see :func:`_lower_bound_parts`); :func:`pair` reports the exact optimum instead when it
    searched exhaustively."""
    allowed = _check_request(request)
    table_sizes, bye_count = split(len(request.entrants), allowed)
    byes = {e.id for e in _byes(request.entrants, bye_count)}
    field = _Field([e for e in request.entrants if e.id not in byes], allowed[-1])
    return float(_weigh(*_lower_bound_parts(field, table_sizes)))


def pair(request: PairingRequest) -> Pairing:
    """Seat the request's players at tables for one round (see the module docstring)."""
    allowed = _check_request(request)
    table_sizes, bye_count = split(len(request.entrants), allowed)
    byes = _byes(request.entrants, bye_count)
    bye_ids = {e.id for e in byes}
    field = _Field([e for e in request.entrants if e.id not in bye_ids], allowed[-1])
    bound = _weigh(*_lower_bound_parts(field, table_sizes))
    small_seats = sum(s for s in table_sizes if s < field.largest)
    can_small, can_big = _small_rule(field.cnt, small_seats)
    byes_in_order = sorted(byes, key=lambda e: e.position)
    if request.method in ("random", "order"):
        return _pair_round_one(
            request, field, table_sizes, can_small, can_big, byes_in_order, bound
        )

    search = _Search(field, _layout(field, table_sizes, can_small, can_big), can_small, can_big)
    search.repair()
    search.run()
    method = "local search"
    if field.n <= EXHAUSTIVE_MAX_PLAYERS:
        budget = None if field.n <= ALWAYS_EXHAUSTIVE_PLAYERS else EXHAUSTIVE_BUDGET
        everyone = list(range(field.n))
        best, found, complete, _ = _solve(
            field, everyone, table_sizes, can_small, can_big, search.total(), budget
        )
        if found is not None:
            search = _Search(field, found, can_small, can_big)
            if not complete:  # a better grouping than the local search's: polish it
                search.run()
        if complete:
            method = "exhaustive"
            bound = best
    groups = sorted(search.tables, key=lambda g: [field.pos[i] for i in g])
    if method == "exhaustive":
        reason = (
            note_codes.FEWEST_REPEATS
            if _repeats_dominate(field, table_sizes)
            else note_codes.LOWEST_COST
        )
    else:
        reason = note_codes.NO_BETTER_SWAP
    return _assemble(field, groups, byes_in_order, method, bound, reason, sum(search.repeats))


def _repeats_dominate(field: _Field, table_sizes: Sequence[int]) -> bool:
    """Whether one repeat outweighs any possible difference in the other two terms, so that
    the lowest cost also has the fewest repeats."""
    small_seats = sum(s for s in table_sizes if s < field.largest)
    counts = sorted(field.cnt)
    small_range = sum(counts[len(counts) - small_seats :]) - sum(counts[:small_seats])
    spread_range = len(table_sizes) * (field.pos[-1] - field.pos[0])
    return SMALL_TABLE_WEIGHT * small_range + SPREAD_WEIGHT * spread_range < REPEAT_WEIGHT


def _pair_round_one(
    request: PairingRequest,
    field: _Field,
    table_sizes: Sequence[int],
    can_small: Sequence[bool],
    can_big: Sequence[bool],
    byes: Sequence[Entrant],
    bound: int,
) -> Pairing:
    """ "random": a seeded shuffle; "order": by ``order`` (then position). Consecutive players
    in that sequence share a table, tables in the order of :func:`split`. No search."""
    sequence = list(range(field.n))
    if request.method == "random":
        random.Random(request.seed).shuffle(sequence)
        order = "random"
    else:
        sequence.sort(key=lambda i: (field.entrants[i].order, field.pos[i]))
        order = "given"
    rank = {i: k for k, i in enumerate(sequence)}
    groups: list[list[int]] = []
    start = 0
    for size in table_sizes:
        groups.append(sequence[start : start + size])
        start += size
    extra: list[dict[str, Any]] = []
    # The small-table rule holds here too (it only matters if "random" or "order" is used after
    # round 1): a player who may not sit where the sequence put them swaps with the first
    # player in the sequence who may take their seat and give up theirs.
    small = [len(g) < field.largest for g in groups]
    where = {i: t for t, g in enumerate(groups) for i in g}
    for a in sequence:
        t = where[a]
        if (can_small if small[t] else can_big)[a]:
            continue
        for b in sequence:
            u = where[b]
            if (
                small[u] != small[t]
                and (can_small if small[t] else can_big)[b]
                and (can_small if small[u] else can_big)[a]
            ):
                groups[t][groups[t].index(a)] = b
                groups[u][groups[u].index(b)] = a
                where[a], where[b] = u, t
                extra.append(
                    note_codes.small_table_swap(field.entrants[a].id, field.entrants[b].id)
                )
                break
    for g in groups:
        g.sort(key=lambda i: rank[i])
    return _assemble(
        field,
        groups,
        byes,
        request.method,
        bound,
        note_codes.NO_HISTORY,
        0,
        [note_codes.round_one(order=order, seed=request.seed, tables=len(groups)), *extra],
    )
