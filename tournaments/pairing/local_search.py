"""Standings pairing: the initial layout, its repair and the deterministic local search."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from tournaments.pairing.exhaustive import _solve
from tournaments.pairing.field import _Field, _weigh
from tournaments.pairing.records import (
    _LAYOUT_PENALTY,
    CYCLE_TABLES,
    CYCLE_WINDOW,
    REGROUP_BUDGET,
    REGROUP_TABLES,
    REGROUP_TOTAL_BUDGET,
    SMALL_TABLE_WEIGHT,
    WINDOW,
)

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
