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

The package, one module per responsibility: :mod:`.records` (the records, weights and limits),
:mod:`.sizes` (table sizes and byes), :mod:`.field` (the prepared request, the small-table rule,
the lower bound, who gets the byes), :mod:`.local_search` and :mod:`.exhaustive` (the two
searches), :mod:`.results` (tables, cost and notes of a grouping), :mod:`.seating` (the entry
points). Import the public names from ``tournaments.pairing``.
"""

from __future__ import annotations

from tournaments.pairing.records import (
    EXHAUSTIVE_MAX_PLAYERS,
    METHODS,
    REPEAT_WEIGHT,
    SMALL_TABLE_WEIGHT,
    SPREAD_WEIGHT,
    Cost,
    Entrant,
    Pairing,
    PairingRequest,
    Table,
)
from tournaments.pairing.seating import cost_of, lower_bound, pair
from tournaments.pairing.sizes import split

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
