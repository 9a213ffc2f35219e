"""Standings pairing: the exhaustive branch and bound that proves the optimum."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.field import _Field, _repeat_bound, _top_gaps_sum, _weigh
from tournaments.pairing.records import _LEAST_CAP

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
