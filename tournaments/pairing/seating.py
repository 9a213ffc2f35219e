"""The entry points: :func:`pair` (standings search, or round-one seating),
:func:`cost_of` and :func:`lower_bound`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tournaments import notes as note_codes
from tournaments.pairing.exhaustive import _solve
from tournaments.pairing.field import (
    _byes,
    _check_request,
    _Field,
    _lower_bound_parts,
    _small_rule,
    _weigh,
)
from tournaments.pairing.local_search import _layout, _Search
from tournaments.pairing.records import (
    ALWAYS_EXHAUSTIVE_PLAYERS,
    EXHAUSTIVE_BUDGET,
    EXHAUSTIVE_MAX_PLAYERS,
    REPEAT_WEIGHT,
    SMALL_TABLE_WEIGHT,
    SPREAD_WEIGHT,
    Cost,
    Entrant,
    Pairing,
    PairingRequest,
)
from tournaments.pairing.results import _assemble, _cost_of_groups
from tournaments.pairing.sizes import split

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
