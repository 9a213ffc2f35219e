"""The pairing's records (frozen, in and out) and its weights and limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
