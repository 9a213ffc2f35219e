"""Standings pairing: the initial layout, its repair and the deterministic local search."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product
from operator import add

from tournaments.pairing.exhaustive import _solve
from tournaments.pairing.field import _Field, _weigh
from tournaments.pairing.records import (
    _LAYOUT_PENALTY,
    CYCLE_TABLES,
    CYCLE_WINDOW,
    REGROUP_BUDGET,
    REGROUP_TABLES,
    REGROUP_TOTAL_BUDGET,
    REPEAT_WEIGHT,
    SMALL_TABLE_WEIGHT,
    SPREAD_WEIGHT,
    WINDOW,
)

# --- standings: initial layout, repair, local search --------------------------------------

# The change of cost of a move that seats a player where the small-table rule forbids: above
# any real change, so that such a move is never made (three of them still add up to more).
_BARRED = 1 << 62


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
    tried in a fixed order, so the same start gives the same result.

    Moves are costed incrementally: :meth:`_gains` gives the change of a table's cost with
    each of its members replaced by one incoming player, from a summary of the table made when
    it changes, and keeps it until the table changes again.

    Each pass remembers the neighbourhoods in which it found no improving move, with the
    number of changes made so far; a later pass skips a neighbourhood none of whose tables has
    changed since, because the same tables give the same answer. A pass that changes a handful
    of tables thus costs a handful of neighbourhoods, not a pass over the whole field, and the
    moves made are the same as without the memo."""

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
        count = len(self.tables)
        self.repeats = [0] * count
        self.cost = [0] * count
        # Per table, made by _recost: see there.
        self._rest: list[tuple[list[int], tuple[int, int, int, int]]] = [([], (0, 0, 0, 0))] * count
        self._rows: list[dict[int, list[int]]] = [{} for _ in range(count)]
        # Change stamps: _clock counts changes, _stamp[t] is the count when t last changed.
        # The *_checked memos hold the count when a neighbourhood had no improving move.
        self._clock = 0
        self._stamp = [0] * count
        self._swap_checked: dict[tuple[int, int], int] = {}
        self._cycle_checked: dict[int, int] = {}
        self._repeat_checked: dict[int, int] = {}
        self._least: dict[tuple[int, int], tuple[int, int]] = {}  # (count, value)
        for t in range(count):
            self._recost(t)

    def allowed(self, a: int, to_table: int) -> bool:
        return self.can_small[a] if self.small[to_table] else self.can_big[a]

    def _gains(self, t: int, into: int) -> list[int]:
        """The change of table t's cost with each of its members (in table order) replaced
        by ``into``, a player from another table (_BARRED where ``into`` may not sit); kept
        until the table changes."""
        return self._rows[t].get(into) or self._fill(t, into)

    def _fill(self, t: int, into: int) -> list[int]:
        row = self._rows[t][into] = self._compute_gains(t, into)
        return row

    def _compute_gains(self, t: int, into: int) -> list[int]:
        """What :meth:`_gains` gives, made afresh."""
        bases, spans = self._rest[t]
        if not (self.can_small if self.small[t] else self.can_big)[into]:
            return [_BARRED] * len(bases)
        field = self.field
        # The spread of the others and ``into``: the others are the table less its first
        # member, less one in the middle, or less its last.
        p = SPREAD_WEIGHT * field.pos[into]
        first, second, before_last, last = spans
        lo = first if first < p else p
        hi = last if last > p else p
        spreads = [hi - (second if second < p else p)]
        spreads += [hi - lo] * (len(bases) - 2)
        spreads.append((before_last if before_last > p else p) - lo)
        row = list(map(add, bases, spreads))
        if self.small[t] and field.cnt[into]:
            extra = SMALL_TABLE_WEIGHT * field.cnt[into]
            row = [g + extra for g in row]
        met_in = field.met[into]
        members = self.tables[t]
        if not met_in.isdisjoint(members):
            hits = [m in met_in for m in members]
            added = sum(hits)
            row = [g + REPEAT_WEIGHT * (added - hit) for g, hit in zip(row, hits, strict=True)]
        return row

    def best_swap(self, t: int, others: Iterable[int]) -> tuple[int, int, int] | None:
        """The most improving swap between table t and one of ``others`` (first found on
        ties): (delta, a, b), or None."""
        tables, rows, fill = self.tables, self._rows, self._fill
        best: tuple[int, int, int] | None = None
        limit = 0  # a swap is made only if it lowers the cost, and more than the best so far
        mine = tables[t]
        rows_t = rows[t]
        for u in others:
            theirs = tables[u]
            rows_u = rows[u]
            # into_t[j][i]: theirs[j] in, mine[i] out; into_u[i][j]: mine[i] in, theirs[j] out
            into_t = [rows_t.get(b) or fill(t, b) for b in theirs]
            into_u = [rows_u.get(a) or fill(u, a) for a in mine]
            # every swap's change, a in mine then b in theirs: the first of the smallest wins
            deltas = [
                into_t[j][i] + from_a[j]
                for i, from_a in enumerate(into_u)
                for j in range(len(theirs))
            ]
            least = min(deltas)
            if least < limit:
                i, j = divmod(deltas.index(least), len(theirs))
                best, limit = (least, mine[i], theirs[j]), least
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
        """Cost table t afresh after a change, with the summary :meth:`_gains` works from:
        for each member, the cost of the table without it (its spread apart) less the table's
        cost; and the first, second, last but one and last positions (times the spread's
        weight), from which the spread without any one member follows."""
        field = self.field
        members = self.tables[t]
        met, cnt = field.met, field.cnt
        # own[k]: the repeats members[k] takes part in
        own = [sum(1 for x in members if x in met[m]) for m in members]
        repeats = sum(own) // 2
        small = sum(cnt[m] for m in members) if self.small[t] else 0
        # Members are in standing order, so their positions are sorted.
        positions = [field.pos[m] for m in members]
        last = len(members) - 1
        cost = _weigh(repeats, small, positions[last] - positions[0])
        self.repeats[t] = repeats
        self.cost[t] = cost
        bases = [
            _weigh(repeats - o, small - cnt[m] if self.small[t] else 0, 0) - cost
            for m, o in zip(members, own, strict=True)
        ]
        scaled = [SPREAD_WEIGHT * q for q in positions]
        self._rest[t] = (bases, (scaled[0], scaled[1], scaled[last - 1], scaled[last]))
        self._rows[t] = {}
        self._clock += 1
        self._stamp[t] = self._clock

    def _least_change(self, t: int, u: int) -> int:
        """The least change of table t's cost when one of its members is replaced by a player
        of table u (kept until either table changes)."""
        kept = self._least.get((t, u))
        if kept is not None and kept[0] >= max(self._stamp[t], self._stamp[u]):
            return kept[1]
        value = min(min(self._gains(t, b)) for b in self.tables[u])
        self._least[t, u] = (self._clock, value)
        return value

    def best_cycle(
        self, t: int, others: Sequence[int], changed_after: int = -1
    ) -> tuple[int, int, int, int] | None:
        """The most improving rotation a (table t) -> table u, b (u) -> table v, c (v) -> t
        with u, v among ``others`` (first found on ties): (delta, a, b, c) or None.

        ``changed_after``: a change count at which no such rotation lowered the cost; only
        the tables u, v of which one has changed since are tried (all of them if t has).

        A rotation's change of cost is the sum of its three tables' changes, so tables u, v
        whose least changes (:meth:`_least_change`) add up to no gain on the best rotation so
        far are passed over, and so are pairs (a, b) whose changes plus the least possible
        for the third player cannot beat it."""
        tables, gains, stamp, least = self.tables, self._gains, self._stamp, self._least_change
        mine = tables[t]
        every = stamp[t] > changed_after
        # into_t[v][i][k]: the change of table t's cost with mine[i] out and tables[v][k] in;
        # least_t[v][i]: its smallest over k (both made when first needed)
        into_t: dict[int, list[list[int]]] = {}
        least_t: dict[int, list[int]] = {}
        best: tuple[int, int, int, int] | None = None
        limit = 0
        for u in others:
            theirs = tables[u]
            into_u: list[list[int]] = []  # into_u[i][j]: mine[i] in, theirs[j] out
            for v in others:
                if v == u or not (every or stamp[u] > changed_after or stamp[v] > changed_after):
                    continue
                if least(t, v) + least(u, t) + least(v, u) >= limit:
                    continue  # no rotation among these three tables can beat the best so far
                if v not in into_t:
                    columns = [gains(t, c) for c in tables[v]]
                    into_t[v] = [[column[i] for column in columns] for i in range(len(mine))]
                    least_t[v] = [min(line) for line in into_t[v]]
                if not into_u:
                    into_u = [gains(u, a) for a in mine]
                third = tables[v]
                into_v = [gains(v, b) for b in theirs]  # into_v[j][k]: theirs[j] in, third[k] out
                least_v = [min(column) for column in into_v]
                from_v, least_from_v = into_t[v], least_t[v]
                for i, a in enumerate(mine):
                    line, least_line, from_a = from_v[i], least_from_v[i], into_u[i]
                    for j, b in enumerate(theirs):
                        part = from_a[j]
                        if part + least_line + least_v[j] >= limit:
                            continue  # no c makes this rotation good enough
                        column = into_v[j]
                        for k, c in enumerate(third):
                            delta = line[k] + part + column[k]
                            if delta < limit:
                                best, limit = (delta, a, b, c), delta
        return best

    def improve_window(self) -> bool:
        """Swaps between each table and the next WINDOW tables, best first, until none
        lowers the cost."""
        changed = False
        count = len(self.tables)
        checked, stamp = self._swap_checked, self._stamp
        for t in range(count):
            for u in range(t + 1, min(count, t + WINDOW + 1)):
                if max(stamp[t], stamp[u]) <= checked.get((t, u), -1):
                    continue  # neither table changed since it had no improving swap
                while (swap := self.best_swap(t, (u,))) is not None:
                    self.rotate(swap[1:])
                    changed = True
                checked[t, u] = self._clock
        return changed

    def remove_repeats(self) -> bool:
        """For each table holding a repeat: swaps with tables ever farther away (the window
        doubles up to every table, nearest first), then three-player rotations among its
        CYCLE_TABLES nearest tables. Ends with no improving swap between it and any table."""
        changed = False
        count = len(self.tables)
        for t in range(count):
            if self._repeat_checked.get(t) == self._clock:
                continue  # no table changed since every move of this table failed
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
                        self._repeat_checked[t] = self._clock
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
            checked = self._cycle_checked.get(t, -1)
            if max(self._stamp[lo:hi]) <= checked:
                continue  # none of these tables changed since no rotation among them helped
            # Rotations among unchanged tables still do not help: only the others are tried
            # (until a rotation changes table t).
            while (cycle := self.best_cycle(t, others, checked)) is not None:
                self.rotate(cycle[1:])
                changed = True
            self._cycle_checked[t] = self._clock
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
                delta = (
                    self._compute_gains(t, b)[self.tables[t].index(a)]
                    + self._compute_gains(u, a)[self.tables[u].index(b)]
                )
                key = (delta, abs(pos[a] - pos[b]), b)
                if best is None or key < best:
                    best = key
            assert best is not None, "the small-table rule always leaves a partner"
            self.rotate((a, best[2]))

    def total(self) -> int:
        return sum(self.cost)
