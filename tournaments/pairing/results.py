"""From groups of players to the :class:`Pairing`: seat order, tables, cost and notes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournaments import notes as note_codes
from tournaments.pairing.field import _breaches, _Field, _weigh
from tournaments.pairing.records import (
    REPEAT_WEIGHT,
    SMALL_TABLE_WEIGHT,
    Cost,
    Entrant,
    Pairing,
    Table,
)

# --- results ------------------------------------------------------------------------------


def _seat_order(members: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """Seat 1 to the fewest first seats (ties: better position); the others by position."""
    by_position = sorted(members, key=lambda e: e.position)
    first = min(by_position, key=lambda e: (e.first_seats, e.position))
    return (first, *(e for e in by_position if e is not first))


def _make_table(number: int, field: _Field, group: Sequence[int]) -> Table:
    by_position = sorted(group)  # indices are in standing order
    members = [field.entrants[i] for i in by_position]
    met = field.met
    repeats = tuple(
        (members[k].id, members[m].id)
        for k, a in enumerate(by_position)
        for m in range(k + 1, len(by_position))
        if by_position[m] in met[a]
    )
    return Table(
        number=number,
        seats=tuple(e.id for e in _seat_order(members)),
        spread=members[-1].position - members[0].position,
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
    entrant_tables: list[list[Entrant]] = [[field.entrants[i] for i in g] for g in groups]
    tables = tuple(_make_table(number, field, g) for number, g in enumerate(groups, start=1))
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
