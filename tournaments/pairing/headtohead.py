"""Head-to-head Swiss: two entrants per table, with sides (a pure module, docs/pairing.md).

For games of two entrants a table (Crazy Kitchen's two teams; any 2-entrant game). Each match
has two sides: one entrant starts as the cooks, the other as the customers, and "cooks first"
alternates over a tournament as colours do in chess. Frozen records in
(:class:`HeadToHeadRequest` of :class:`Contender`), a plain :class:`HeadToHeadPairing` out.
No Django, no ORM; import from ``tournaments.pairing.headtohead``.

The cost of a pairing is compared lexicographically, term by term (a tuple, not a weighted
sum: no weight can be outgrown)::

    1. repeats            pairs who met before
    2. side violations    per entrant: a side that takes its cooks/customers difference beyond
                          +-1 (beyond what it already was), and a side taken a third time
                          running; each counts 1
    3. score difference   sum over matches of (score difference) squared: pairs within score
                          groups, and a floater drops one group rather than two
    4. side preferences   entrants not given the side they are due (the side that evens their
                          difference, or else the one they did not play last)

Among pairings of equal cost the one kept is the first in "top-down" order: the best-placed
unpaired entrant takes its most preferred opponent (smallest score difference, then the Dutch
split: in a score group of g entrants, k-th meets (k + g//2)-th, then standing), then the next
unpaired entrant, and so on.

Search: up to :data:`EXACT_MAX` entrants a branch and bound over every pairing proves the
optimum. Beyond, a top-down greedy pairing improved by exchanges between two matches (and,
within a step budget, the same branch and bound seeded with it); steps, never seconds.

Byes: an odd field gives one bye, to the lowest-placed entrant among those with the fewest
byes. How much a bye scores is the standings' business (``tournaments.placement``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from tournaments import notes as note_codes
from tournaments.pairing.records import Entrant

__all__ = [
    "COOKS",
    "CUSTOMERS",
    "EXACT_MAX",
    "SIDES",
    "Contender",
    "HeadToHeadCost",
    "HeadToHeadPairing",
    "HeadToHeadRequest",
    "Match",
    "cost_of_matches",
    "pair_head_to_head",
    "request_from_entrants",
    "sides_from_tables",
]

COOKS = "cooks"
CUSTOMERS = "customers"
SIDES = (COOKS, CUSTOMERS)

EXACT_MAX = 12
"""Up to this many entrants to pair (after the bye), the search always proves the optimum."""
LOCAL_BUDGET = 200_000
"""Steps of the exchange improvement (one step: one exchange costed)."""
BOUNDED_MAX = 24
"""From EXACT_MAX + 1 to this many entrants, the branch and bound runs with a budget."""
BOUNDED_BUDGET = 1_000_000
"""Steps of that branch and bound (one step: one search node, plus one per pair of unpaired
entrants looked at by its bound)."""

# Note codes (parameters only, never prose; players named by id). The service layer words them.
H2H_COST = note_codes.H2H_COST
H2H_MET_BEFORE = note_codes.H2H_MET_BEFORE
H2H_SIDE_RULE = note_codes.H2H_SIDE_RULE
H2H_SIDE_PREFERENCE = note_codes.H2H_SIDE_PREFERENCE
H2H_FLOAT = note_codes.H2H_FLOAT
# Why a pair who met before share a table ("reason" of h2h_met_before).
PROVEN_FEWEST = "proven_fewest"
NO_BETTER_EXCHANGE = "no_better_exchange"
# Which side rule an entrant breaks ("rule" of h2h_side_rule).
RULE_BALANCE = "balance"
RULE_THREE_RUNNING = "three_running"


# --- records ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Contender:
    """One entrant (a player or a team) to pair this round."""

    id: str
    position: int
    """Current standing position, 1 = best; strictly increasing in the request."""
    score: int | Fraction = 0
    """Match points so far (exact)."""
    met: tuple[str, ...] = ()
    """Ids met before. A pair has met if either lists the other."""
    sides: tuple[str, ...] = ()
    """The side started on in each match played, oldest first (:data:`COOKS` or
    :data:`CUSTOMERS`); byes have no side."""
    byes: int = 0


@dataclass(frozen=True, slots=True)
class HeadToHeadRequest:
    entrants: tuple[Contender, ...]
    """By position, best first."""
    top_cooks: bool = True
    """When neither entrant of a match is due a side (round 1): the better-placed one starts as
    the cooks at odd tables and as the customers at even tables (False: the other way round),
    as the colours of round 1 alternate down the boards in chess."""


@dataclass(frozen=True, slots=True, order=True)
class HeadToHeadCost:
    """Compared as a tuple, term by term (lower is better)."""

    repeats: int
    side_violations: int
    score_difference: Fraction
    side_preferences: int


@dataclass(frozen=True, slots=True)
class Match:
    table: int
    """1 = top table."""
    cooks: str
    """Starts as the cooks."""
    customers: str
    """Starts as the customers."""
    repeat: bool
    score_difference: Fraction
    """Absolute difference of the two scores."""


@dataclass(frozen=True, slots=True)
class HeadToHeadPairing:
    matches: tuple[Match, ...]
    """Top tables first: by the higher score, then the lower score, then the better position."""
    bye: str | None
    method: str
    """"exhaustive" (proven optimal) or "local search"."""
    cost: HeadToHeadCost
    notes: tuple[dict[str, Any], ...]
    """Codes with parameters, players named by id (see the H2H_* codes and notes.bye)."""


# --- the field ----------------------------------------------------------------------------


def _validate(request: HeadToHeadRequest) -> None:
    entrants = request.entrants
    if len(entrants) < 2:
        raise ValueError(
            f"at least 2 entrants are needed to pair a round (there are {len(entrants)})"
        )
    seen: set[str] = set()
    for k, entrant in enumerate(entrants):
        if entrant.id in seen:
            raise ValueError(f"entrant {entrant.id!r} is listed twice")
        seen.add(entrant.id)
        if k and entrant.position <= entrants[k - 1].position:
            raise ValueError("entrants must be listed by position, strictly increasing")
        for side in entrant.sides:
            if side not in SIDES:
                raise ValueError(f"a side is {COOKS!r} or {CUSTOMERS!r}, not {side!r}")
        if entrant.byes < 0:
            raise ValueError("byes cannot be negative")


def _bye_of(entrants: Sequence[Contender]) -> Contender | None:
    """The lowest-placed entrant among those with the fewest byes, for an odd field."""
    if len(entrants) % 2 == 0:
        return None
    fewest = min(e.byes for e in entrants)
    return [e for e in entrants if e.byes == fewest][-1]


def _difference(entrant: Contender) -> int:
    return sum(1 if s == COOKS else -1 for s in entrant.sides)


def _other(side: str) -> str:
    return CUSTOMERS if side == COOKS else COOKS


def side_rules_broken(entrant: Contender, side: str) -> tuple[str, ...]:
    """The side rules ``entrant`` breaks by starting on ``side`` this round."""
    broken: list[str] = []
    before = _difference(entrant)
    after = before + (1 if side == COOKS else -1)
    if abs(after) > max(1, abs(before)):
        broken.append(RULE_BALANCE)
    if len(entrant.sides) >= 2 and entrant.sides[-1] == entrant.sides[-2] == side:
        broken.append(RULE_THREE_RUNNING)
    return tuple(broken)


def due_side(entrant: Contender) -> str | None:
    """The side that evens the entrant's difference; with none to even, the side not played
    last; with no match played, none."""
    difference = _difference(entrant)
    if difference:
        return CUSTOMERS if difference > 0 else COOKS
    return _other(entrant.sides[-1]) if entrant.sides else None


@dataclass(slots=True)
class _Field:
    """The entrants to pair as indices in standing order, with every pair's cost precomputed.

    ``cost[i][j]``: (repeat, side violations, scaled squared score difference, unmet side
    preferences); ``orient[i][j]`` (i < j): True when i starts as the cooks, False when j does,
    None when it is left to the table number (neither is due a side and no rule applies)."""

    entrants: list[Contender]
    scale: int
    cost: list[list[tuple[int, int, int, int]]]
    orient: list[list[bool | None]]
    prefer: list[list[int]]

    @property
    def n(self) -> int:
        return len(self.entrants)


@dataclass(frozen=True, slots=True)
class _Sides:
    """One entrant's side rules, computed once: rules broken on each side, and the due side."""

    broken_cooks: int
    broken_customers: int
    due: str | None

    @classmethod
    def of(cls, entrant: Contender) -> _Sides:
        return cls(
            len(side_rules_broken(entrant, COOKS)),
            len(side_rules_broken(entrant, CUSTOMERS)),
            due_side(entrant),
        )


def _pair_terms(a: _Sides, b: _Sides) -> tuple[int, int, bool | None]:
    """(side violations, unmet preferences, orientation) of a match between ``a`` (better
    placed) and ``b``; orientation True: ``a`` starts as the cooks."""
    a_cooks = (
        a.broken_cooks + b.broken_customers,
        (a.due == CUSTOMERS) + (b.due == COOKS),
    )
    a_customers = (
        a.broken_customers + b.broken_cooks,
        (a.due == COOKS) + (b.due == CUSTOMERS),
    )
    if a_cooks != a_customers:
        best = min(a_cooks, a_customers)
        return best[0], best[1], a_cooks < a_customers
    hard, soft = a_cooks
    if a.due is not None:
        return hard, soft, a.due == COOKS  # the better-placed entrant gets its due side
    if b.due is not None:
        return hard, soft, b.due == CUSTOMERS
    return hard, soft, None


def _field(entrants: Sequence[Contender]) -> _Field:
    people = list(entrants)
    n = len(people)
    scale = lcm(1, *(Fraction(e.score).denominator for e in people))
    scores = [int(Fraction(e.score) * scale) for e in people]
    ids = {e.id: k for k, e in enumerate(people)}
    sides = [_Sides.of(e) for e in people]
    met = [[False] * n for _ in range(n)]
    for k, entrant in enumerate(people):
        for other in entrant.met:
            j = ids.get(other)
            if j is not None and j != k:
                met[k][j] = met[j][k] = True
    cost = [[(0, 0, 0, 0)] * n for _ in range(n)]
    orient: list[list[bool | None]] = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            hard, soft, way = _pair_terms(sides[i], sides[j])
            c = (int(met[i][j]), hard, (scores[i] - scores[j]) ** 2, soft)
            cost[i][j] = cost[j][i] = c
            orient[i][j] = way
            orient[j][i] = None if way is None else not way
    group = Counter(scores)

    def preference(i: int) -> list[int]:
        """Opponents for ``i``, most preferred first: the smallest score difference, then the
        Dutch split (k-th of a score group of g meets the (k + g//2)-th), then position."""
        half = group[scores[i]] // 2
        key = {j: (abs(scores[i] - scores[j]), abs((j - i) - half), j) for j in range(n)}
        return sorted((j for j in range(n) if j != i), key=key.__getitem__)

    prefer = [preference(i) for i in range(n)]
    return _Field(people, scale, cost, orient, prefer)


def _add(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, int, int, int]:
    return (x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3])


def _total(field: _Field, pairs: Sequence[tuple[int, int]]) -> tuple[int, int, int, int]:
    total = (0, 0, 0, 0)
    for i, j in pairs:
        total = _add(total, field.cost[i][j])
    return total


# --- the searches -------------------------------------------------------------------------


class _Exhausted(Exception):
    pass


def _branch_and_bound(
    field: _Field,
    best_pairs: list[tuple[int, int]] | None,
    best: tuple[int, int, int, int] | None,
    budget: int | None,
) -> tuple[list[tuple[int, int]], tuple[int, int, int, int], bool]:
    """Top-down: the best-placed unpaired entrant takes each opponent in its preference order.
    A branch is cut when its cost so far plus a bound on the rest (each unpaired entrant's
    cheapest partner, halved, term by term) is not below the best known. Returns the best
    pairing, its cost and whether the search ran to the end (the result is then optimal, and
    the first optimum in top-down order)."""
    n = field.n
    cost = field.cost
    paired = [False] * n
    chosen: list[tuple[int, int]] = []
    # "found": a pairing of this search is kept. Until then a pairing merely equal to the seed
    # replaces it, so a finished search returns the first optimum in top-down order.
    state: dict[str, Any] = {"pairs": best_pairs, "cost": best, "steps": 0, "found": False}

    def bound() -> tuple[int, int, int, int]:
        free = [k for k in range(n) if not paired[k]]
        state["steps"] += len(free) * len(free)
        sums = [0, 0, 0, 0]
        for i in free:
            row = cost[i]
            m0 = m1 = m2 = m3 = None
            for j in free:
                if j == i:
                    continue
                c = row[j]
                m0 = c[0] if m0 is None or c[0] < m0 else m0
                m1 = c[1] if m1 is None or c[1] < m1 else m1
                m2 = c[2] if m2 is None or c[2] < m2 else m2
                m3 = c[3] if m3 is None or c[3] < m3 else m3
            assert m0 is not None and m1 is not None and m2 is not None and m3 is not None
            sums[0] += m0
            sums[1] += m1
            sums[2] += m2
            sums[3] += m3
        return ((sums[0] + 1) // 2, (sums[1] + 1) // 2, (sums[2] + 1) // 2, (sums[3] + 1) // 2)

    def visit(so_far: tuple[int, int, int, int]) -> None:
        state["steps"] += 1
        if budget is not None and state["steps"] > budget:
            raise _Exhausted
        i = next((k for k in range(n) if not paired[k]), None)
        if i is None:
            known = state["cost"]
            if known is None or so_far < known or (so_far == known and not state["found"]):
                state["found"] = True
                state["cost"] = so_far
                state["pairs"] = list(chosen)
            return
        if state["cost"] is not None:
            reach = _add(so_far, bound())
            if reach > state["cost"] or (reach == state["cost"] and state["found"]):
                return
        paired[i] = True
        for j in field.prefer[i]:
            if paired[j]:
                continue
            paired[j] = True
            chosen.append((i, j))
            visit(_add(so_far, cost[i][j]))
            chosen.pop()
            paired[j] = False
        paired[i] = False

    finished = True
    try:
        visit((0, 0, 0, 0))
    except _Exhausted:
        finished = False
    assert state["pairs"] is not None and state["cost"] is not None
    return state["pairs"], state["cost"], finished


def _greedy(field: _Field) -> list[tuple[int, int]]:
    """Top-down: each unpaired entrant takes its first preferred opponent among the cheapest
    by repeats and side violations."""
    n = field.n
    paired = [False] * n
    pairs: list[tuple[int, int]] = []
    for i in range(n):
        if paired[i]:
            continue
        paired[i] = True
        free = [j for j in field.prefer[i] if not paired[j]]
        row = field.cost[i]
        j = min((row[j][0], row[j][1], k, j) for k, j in enumerate(free))[3]
        paired[j] = True
        pairs.append((i, j))
    return pairs


def _exchange(field: _Field, pairs: list[tuple[int, int]], budget: int) -> list[tuple[int, int]]:
    """Re-pair the four entrants of two matches whenever that lowers the cost, top matches
    first, until no exchange helps or the budget of steps is spent."""
    cost = field.cost
    pairs = [tuple(sorted(p)) for p in pairs]  # type: ignore[misc]
    pairs.sort()
    steps = 0
    improved = True
    while improved and steps < budget:
        improved = False
        for p in range(len(pairs)):
            for q in range(p + 1, len(pairs)):
                steps += 1
                a, b = pairs[p]
                c, d = pairs[q]
                now = _add(cost[a][b], cost[c][d])
                for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
                    if _add(cost[x[0]][x[1]], cost[y[0]][y[1]]) < now:
                        pairs[p] = tuple(sorted(x))  # type: ignore[assignment]
                        pairs[q] = tuple(sorted(y))  # type: ignore[assignment]
                        now = _add(cost[x[0]][x[1]], cost[y[0]][y[1]])
                        improved = True
                        a, b = pairs[p]
                        c, d = pairs[q]
                if steps >= budget:
                    break
            if steps >= budget:
                break
    return sorted(pairs)


# --- from a tournament's records ---------------------------------------------------------


def sides_from_tables(rounds: Iterable[Iterable[Sequence[str]]]) -> dict[str, tuple[str, ...]]:
    """Each entrant's sides, oldest first, from the tables of the rounds played (each table's
    seats in order: seat 1 started as the cooks, seat 2 as the customers)."""
    sides: dict[str, list[str]] = {}
    for tables in rounds:
        for seats in tables:
            if len(seats) != 2:
                continue
            sides.setdefault(seats[0], []).append(COOKS)
            sides.setdefault(seats[1], []).append(CUSTOMERS)
    return {entrant: tuple(taken) for entrant, taken in sides.items()}


def _score_of(points: float) -> Fraction:
    """Tournament points (a float: 1, 0.5, 2/3 under some scorings) as an exact score."""
    return Fraction(points).limit_denominator(1000)


def request_from_entrants(
    entrants: Sequence[Entrant],
    sides: Mapping[str, Sequence[str]],
    *,
    shuffle_seed: int | None = None,
) -> HeadToHeadRequest:
    """The head-to-head request for the seating pairing's entrants (by position, with their
    points, meetings and byes) and their sides so far. ``shuffle_seed``: round 1 drawn at
    random (the order is shuffled with it first, as the seating pairing's "random" does)."""
    ordered = list(entrants)
    if shuffle_seed is not None:
        random.Random(shuffle_seed).shuffle(ordered)
    return HeadToHeadRequest(
        entrants=tuple(
            Contender(
                id=e.id,
                position=position,
                score=_score_of(e.points),
                met=e.met,
                sides=tuple(sides.get(e.id, ())),
                byes=e.byes,
            )
            for position, e in enumerate(ordered, start=1)
        )
    )


# --- entry points -------------------------------------------------------------------------


def pair_head_to_head(request: HeadToHeadRequest) -> HeadToHeadPairing:
    """Pair one round: every entrant in one match, or the bye."""
    _validate(request)
    bye = _bye_of(request.entrants)
    field = _field([e for e in request.entrants if e is not bye])
    if field.n <= EXACT_MAX:
        pairs, _, finished = _branch_and_bound(field, None, None, None)
        method = "exhaustive"
    else:
        pairs = _exchange(field, _greedy(field), LOCAL_BUDGET)
        method = "local search"
        if field.n <= BOUNDED_MAX:
            found, _, finished = _branch_and_bound(
                field, pairs, _total(field, pairs), BOUNDED_BUDGET
            )
            if finished:
                pairs, method = found, "exhaustive"
            else:
                pairs = _exchange(field, found, LOCAL_BUDGET)
    return _assemble(request, field, pairs, bye, method)


def cost_of_matches(
    request: HeadToHeadRequest, matches: Sequence[tuple[str, str]]
) -> HeadToHeadCost:
    """The cost of any pairing of the request's entrants (e.g. after a change by hand), each
    match given as two ids in either order; the sides are costed as :func:`pair_head_to_head`
    would give them."""
    _validate(request)
    index = {e.id: k for k, e in enumerate(request.entrants)}
    listed = [p for match in matches for p in match]
    for p in listed:
        if p not in index:
            raise ValueError(f"{p!r} is not an entrant of this round")
    if any(a == b for a, b in matches):
        raise ValueError("an entrant cannot meet itself")
    if len(set(listed)) != len(listed):
        raise ValueError("an entrant is in two matches")
    field = _field(request.entrants)
    pairs = [tuple(sorted((index[a], index[b]))) for a, b in matches]
    return _cost(field, pairs)  # type: ignore[arg-type]


def _cost(field: _Field, pairs: Sequence[tuple[int, int]]) -> HeadToHeadCost:
    r, h, s, p = _total(field, pairs)
    return HeadToHeadCost(r, h, Fraction(s, field.scale**2), p)


def _assemble(
    request: HeadToHeadRequest,
    field: _Field,
    pairs: Sequence[tuple[int, int]],
    bye: Contender | None,
    method: str,
) -> HeadToHeadPairing:
    people = field.entrants
    scores = [Fraction(e.score) for e in people]
    ordered = sorted(
        (tuple(sorted(p)) for p in pairs),
        key=lambda p: (-max(scores[p[0]], scores[p[1]]), -min(scores[p[0]], scores[p[1]]), p[0]),
    )
    cost = _cost(field, ordered)  # type: ignore[arg-type]
    matches: list[Match] = []
    notes: list[dict[str, Any]] = [
        {
            "code": H2H_COST,
            "method": method,
            "repeats": cost.repeats,
            "side_violations": cost.side_violations,
            "score_difference": str(cost.score_difference),
            "side_preferences": cost.side_preferences,
        }
    ]
    for table, (i, j) in enumerate(ordered, start=1):
        way = field.orient[i][j]
        if way is None:
            way = request.top_cooks == (table % 2 == 1)
        cooks, customers = (people[i], people[j]) if way else (people[j], people[i])
        repeat = field.cost[i][j][0] == 1
        matches.append(Match(table, cooks.id, customers.id, repeat, abs(scores[i] - scores[j])))
        if repeat:
            note: dict[str, Any] = {
                "code": H2H_MET_BEFORE,
                "table": table,
                "a": people[i].id,
                "b": people[j].id,
            }
            if method == "exhaustive":  # every pairing repeats at least this many meetings
                note.update(reason=PROVEN_FEWEST, repeats=cost.repeats)
            else:
                note.update(reason=NO_BETTER_EXCHANGE)
            notes.append(note)
        if scores[i] != scores[j]:
            notes.append(
                {
                    "code": H2H_FLOAT,
                    "table": table,
                    "a": people[i].id,
                    "b": people[j].id,
                    "score_a": str(scores[i]),
                    "score_b": str(scores[j]),
                }
            )
        for entrant, side in ((cooks, COOKS), (customers, CUSTOMERS)):
            for rule in side_rules_broken(entrant, side):
                notes.append(
                    {
                        "code": H2H_SIDE_RULE,
                        "table": table,
                        "player": entrant.id,
                        "side": side,
                        "rule": rule,
                    }
                )
            due = due_side(entrant)
            if due is not None and due != side:
                notes.append(
                    {"code": H2H_SIDE_PREFERENCE, "table": table, "player": entrant.id, "due": due}
                )
    if bye is not None:
        notes.append(note_codes.bye(bye.id, bye.byes))
    return HeadToHeadPairing(
        matches=tuple(matches),
        bye=None if bye is None else bye.id,
        method=method,
        cost=cost,
        notes=tuple(notes),
    )
