"""Table pairing (``tournaments/pairing/``): a pure module, no database.

The brute-force checks enumerate groupings here, independently of the module's search, and
cost them with their own code.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.notes import describe_all
from tournaments.pairing import (
    REPEAT_WEIGHT,
    SMALL_TABLE_WEIGHT,
    SPREAD_WEIGHT,
    Cost,
    Entrant,
    Pairing,
    PairingRequest,
    cost_of,
    lower_bound,
    pair,
    split,
)

ROOT = Path(__file__).resolve().parents[2]


# --- a simulated tournament (the benchmark plays the same one) ----------------------------


@dataclass
class Player:
    id: str
    order: int
    points: float = 0.0
    met: set[str] = field(default_factory=set)
    small_tables: int = 0
    byes: int = 0
    first_seats: int = 0


def standings(players: Sequence[Player]) -> tuple[Entrant, ...]:
    """Entrants ranked by points, ties broken by id (deterministic)."""
    ranked = sorted(players, key=lambda p: (-p.points, p.id))
    return tuple(
        Entrant(
            id=p.id,
            position=k,
            points=p.points,
            met=tuple(sorted(p.met)),
            small_tables=p.small_tables,
            byes=p.byes,
            first_seats=p.first_seats,
            order=p.order,
        )
        for k, p in enumerate(ranked, start=1)
    )


def play(
    players: Sequence[Player], pairing: Pairing, sizes: Sequence[int], rng: random.Random
) -> None:
    """Random finishing order at each table; points, meetings, small tables, seat 1, byes."""
    by_id = {p.id: p for p in players}
    largest = max(sizes)
    for table in pairing.tables:
        seats = list(table.seats)
        for place, pid in enumerate(rng.sample(seats, len(seats))):
            by_id[pid].points += len(seats) - 1 - place
        for pid in seats:
            by_id[pid].met.update(s for s in seats if s != pid)
            if len(seats) < largest:
                by_id[pid].small_tables += 1
        by_id[seats[0]].first_seats += 1
    for pid in pairing.byes:
        by_id[pid].byes += 1
        by_id[pid].points += (largest - 1) / 2


def rounds(
    n: int, count: int, seed: int, sizes: tuple[int, ...] = (3, 4)
) -> Iterator[tuple[PairingRequest, Pairing, list[Player]]]:
    """Play ``count`` rounds; yields each round's request and pairing before its results."""
    rng = random.Random(seed)
    players = [Player(id=f"p{k:03d}", order=k) for k in range(1, n + 1)]
    for number in range(1, count + 1):
        method = "random" if number == 1 else "standings"
        request = PairingRequest(standings(players), sizes, method, seed=seed + number)
        pairing = pair(request)
        yield request, pairing, players
        play(players, pairing, sizes, rng)


# --- independent checks -------------------------------------------------------------------


def met_pairs(request: PairingRequest) -> set[frozenset[str]]:
    present = {e.id for e in request.entrants}
    return {
        frozenset((e.id, other))
        for e in request.entrants
        for other in e.met
        if other in present and other != e.id
    }


def brute_cost(request: PairingRequest, tables: Sequence[Sequence[str]]) -> tuple[int, int]:
    """(repeats, total) of a grouping, computed from the documented definition."""
    by_id = {e.id: e for e in request.entrants}
    met = met_pairs(request)
    largest = max(request.sizes)
    repeats = small = spread = 0
    for table in tables:
        repeats += sum(1 for a, b in itertools.combinations(table, 2) if frozenset((a, b)) in met)
        if len(table) < largest:
            small += sum(by_id[p].small_tables for p in table)
        positions = [by_id[p].position for p in table]
        spread += max(positions) - min(positions)
    total = REPEAT_WEIGHT * repeats + SMALL_TABLE_WEIGHT * small + SPREAD_WEIGHT * spread
    return repeats, total


def breaks_small_table_rule(request: PairingRequest, tables: Sequence[Sequence[str]]) -> bool:
    """Someone who had a small table sits at one again while a seated player who never had one
    sits at a full-size table."""
    by_id = {e.id: e for e in request.entrants}
    largest = max(request.sizes)
    at_small = [p for t in tables if len(t) < largest for p in t]
    at_full = [p for t in tables if len(t) == largest for p in t]
    return any(by_id[p].small_tables > 0 for p in at_small) and any(
        by_id[p].small_tables == 0 for p in at_full
    )


def groupings(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every grouping of ``players`` into tables of the multiset ``sizes``, each once: the
    first player's table has one of the remaining sizes and any companions."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for tail in groupings(others, left):
                yield [(first, *mates), *tail]


def partitions(n: int, sizes: Sequence[int], most: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every way to write n as a sum of allowed sizes, largest first."""
    if n == 0:
        yield ()
        return
    for size in sorted(sizes, reverse=True):
        if size <= n and (most is None or size <= most):
            for tail in partitions(n - size, sizes, size):
                yield (size, *tail)


def brute_split(n: int, sizes: Sequence[int]) -> tuple[tuple[int, ...], int]:
    largest = max(sizes)
    for byes in range(n + 1):
        options = list(partitions(n - byes, sizes))
        if options:
            best = max(options, key=lambda p: (p.count(largest), -len(p), p))
            return best, byes
    raise AssertionError


def check_partition(request: PairingRequest, pairing: Pairing) -> None:
    seated = [p for t in pairing.tables for p in t.seats]
    everyone = sorted(e.id for e in request.entrants)
    assert sorted(seated + list(pairing.byes)) == everyone
    assert all(len(t.seats) in request.sizes for t in pairing.tables)
    sizes, byes = split(len(request.entrants), request.sizes)
    assert sorted(len(t.seats) for t in pairing.tables) == sorted(sizes)
    assert len(pairing.byes) == byes
    assert [t.number for t in pairing.tables] == list(range(1, len(pairing.tables) + 1))


def check_cost(request: PairingRequest, pairing: Pairing) -> None:
    tables = [t.seats for t in pairing.tables]
    assert cost_of(tables, request) == pairing.cost
    repeats, total = brute_cost(request, tables)
    assert (pairing.cost.repeats, pairing.cost.total) == (repeats, total)
    assert sum(len(t.repeats) for t in pairing.tables) == repeats
    assert pairing.lower_bound <= pairing.cost.total
    assert lower_bound(request) <= pairing.cost.total
    if pairing.method == "exhaustive":
        assert pairing.lower_bound == pairing.cost.total
    assert pairing.cost.small_table_breaches == 0
    assert not breaks_small_table_rule(request, tables)


def words(pairing: Pairing) -> list[str]:
    """The pairing's notes in English (players named by id, as these entrants have no names)."""
    return describe_all(pairing.notes, {})


def entrants(n: int) -> tuple[Entrant, ...]:
    """p1 .. pn at positions 1 .. n, no history."""
    return tuple(Entrant(id=f"p{k}", position=k) for k in range(1, n + 1))


# --- table sizes --------------------------------------------------------------------------


def test_split_with_three_and_four_for_every_field_from_3_to_40() -> None:
    examples = {
        5: ((4,), 1),
        6: ((3, 3), 0),
        7: ((4, 3), 0),
        8: ((4, 4), 0),
        9: ((3, 3, 3), 0),
        10: ((4, 3, 3), 0),
        11: ((4, 4, 3), 0),
        12: ((4, 4, 4), 0),
    }
    for n in range(3, 41):
        sizes, byes = split(n, (3, 4))
        assert sum(sizes) == n - byes
        assert set(sizes) <= {3, 4}
        assert byes == (1 if n == 5 else 0), n
        assert list(sizes) == sorted(sizes, reverse=True)
        if byes == 0:
            most_fours = max(k for k in range(n // 4 + 1) if (n - 4 * k) % 3 == 0)
            assert sizes.count(4) == most_fours, n
        assert (sizes, byes) == brute_split(n, (3, 4))
        if n in examples:
            assert (sizes, byes) == examples[n]


@pytest.mark.parametrize("sizes", [(2, 3, 4, 5, 6), (4,), (3, 5), (2,), (4, 6), (5, 6)])
def test_split_with_other_size_sets(sizes: tuple[int, ...]) -> None:
    for n in range(min(sizes), 41):
        got, byes = split(n, sizes)
        assert sum(got) == n - byes
        assert set(got) <= set(sizes)
        assert (got, byes) == brute_split(n, sizes), n
    if sizes == (4,):
        assert [split(n, sizes)[1] for n in range(4, 12)] == [0, 1, 2, 3, 0, 1, 2, 3]
    if sizes == (2, 3, 4, 5, 6):
        assert split(7, sizes) == ((5, 2), 0)
        assert split(13, sizes) == ((6, 5, 2), 0)
        assert all(split(n, sizes)[1] == 0 for n in range(2, 41))


def test_split_needs_enough_players_for_one_table() -> None:
    with pytest.raises(ValueError, match="at least 3 players are needed to seat a table"):
        split(2, (3, 4))
    with pytest.raises(ValueError, match="at least 4 players are needed"):
        split(3, (4,))
    with pytest.raises(ValueError, match="at least 3 players are needed"):
        pair(PairingRequest(entrants(2), (3, 4), "standings"))


def test_invalid_sizes_and_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="no table sizes"):
        split(5, ())
    with pytest.raises(ValueError, match="at least 2"):
        split(5, (1, 3))
    with pytest.raises(ValueError, match="unknown pairing method"):
        pair(PairingRequest(entrants(6), (3, 4), "swiss"))
    twice = (*entrants(5), Entrant(id="p1", position=6))
    with pytest.raises(ValueError, match="entered twice"):
        pair(PairingRequest(twice, (3, 4), "standings"))
    unordered = (Entrant(id="a", position=2), *entrants(5)[1:])
    with pytest.raises(ValueError, match="strictly increasing"):
        pair(PairingRequest(unordered, (3, 4), "standings"))


# --- byes ---------------------------------------------------------------------------------


def test_the_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    field = entrants(5)
    assert pair(PairingRequest(field, (3, 4), "standings")).byes == ("p5",)
    had = tuple(replace(e, byes=1) if e.id in ("p5", "p4") else e for e in field)
    pairing = pair(PairingRequest(had, (3, 4), "standings"))
    assert pairing.byes == ("p3",)
    assert "Bye: p3, who had no bye before" in " ".join(words(pairing))
    all_had = tuple(replace(e, byes=1) if e.id != "p1" else e for e in field)
    assert pair(PairingRequest(all_had, (3, 4), "standings")).byes == ("p1",)
    everyone_had = tuple(replace(e, byes=1) for e in field)
    pairing = pair(PairingRequest(everyone_had, (3, 4), "standings"))
    assert pairing.byes == ("p5",)
    assert "every player present has had at least as many" in " ".join(words(pairing))


@pytest.mark.parametrize(("n", "sizes"), [(5, (3, 4)), (7, (4,)), (9, (4, 6)), (11, (4,))])
def test_never_a_second_bye_while_someone_present_has_none(n: int, sizes: tuple[int, ...]) -> None:
    for request, pairing, _ in rounds(n, 12, seed=n, sizes=sizes):
        check_partition(request, pairing)
        byes = [e for e in request.entrants if e.id in pairing.byes]
        others = [e for e in request.entrants if e.id not in pairing.byes]
        # A second bye only once nobody present is left without one, and so on.
        assert max(e.byes for e in byes) <= min(e.byes for e in others)
        got = {e.id: e.byes + (e.id in pairing.byes) for e in request.entrants}
        assert max(got.values()) - min(got.values()) <= 1


# --- round 1 ------------------------------------------------------------------------------


def test_random_is_reproducible_with_its_seed_and_changes_with_it() -> None:
    field = entrants(23)

    def tables(seed: int) -> tuple[tuple[str, ...], ...]:
        pairing = pair(PairingRequest(field, (3, 4), "random", seed=seed))
        assert pairing.method == "random"
        return tuple(t.seats for t in pairing.tables)

    assert tables(7) == tables(7)
    assert len({tables(seed) for seed in range(10)}) == 10


def test_order_seats_consecutive_players_by_order() -> None:
    rng = random.Random(3)
    orders = list(range(1, 15))
    rng.shuffle(orders)
    field = tuple(replace(e, order=o) for e, o in zip(entrants(14), orders, strict=True))
    pairing = pair(PairingRequest(field, (3, 4), "order"))
    assert pairing.method == "order"
    by_id = {e.id: e for e in field}
    groups = [sorted(by_id[p].order for p in t.seats) for t in pairing.tables]
    assert groups == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11], [12, 13, 14]]


# --- quality ------------------------------------------------------------------------------


def test_64_players_over_6_rounds_never_meet_twice() -> None:
    for request, pairing, _ in rounds(64, 6, seed=11):
        check_partition(request, pairing)
        check_cost(request, pairing)
        met = met_pairs(request)
        for table in pairing.tables:
            assert not any(frozenset(p) in met for p in itertools.combinations(table.seats, 2))
        assert pairing.cost.repeats == 0


def random_history(n: int, rng: random.Random, sizes: tuple[int, ...]) -> PairingRequest:
    """A random past: a few random rounds for the meetings, random small-table counts and
    first seats, standing positions with gaps (players who left)."""
    ids = [f"x{k}" for k in range(n)]
    met: dict[str, set[str]] = {p: set() for p in ids}
    for _ in range(rng.randint(0, 5)):
        order = rng.sample(ids, n)
        table_sizes, byes = split(n, sizes)
        start = byes
        for size in table_sizes:
            table = order[start : start + size]
            start += size
            for a, b in itertools.combinations(table, 2):
                met[a].add(b)
                if rng.random() < 0.5:  # sometimes only one side records the meeting
                    met[b].add(a)
    positions = sorted(rng.sample(range(1, 3 * n), n))
    ranked = rng.sample(ids, n)
    return PairingRequest(
        tuple(
            Entrant(
                id=p,
                position=pos,
                points=float(3 * n - pos),
                met=tuple(sorted(met[p])),
                small_tables=rng.choice((0, 0, 1, 1, 2)),
                first_seats=rng.randint(0, 3),
            )
            for p, pos in zip(ranked, positions, strict=True)
        ),
        sizes,
        "standings",
    )


@pytest.mark.parametrize("n", range(6, 13))
def test_small_fields_match_a_brute_force_enumeration(n: int) -> None:
    rng = random.Random(1000 + n)
    for sizes in [(3, 4)] * 6 + [(2, 3, 4)] * 2:
        request = random_history(n, rng, sizes)
        pairing = pair(request)
        assert pairing.method == "exhaustive"
        check_partition(request, pairing)
        check_cost(request, pairing)
        table_sizes, byes = split(n, sizes)
        assert byes == 0
        players = [e.id for e in request.entrants]
        allowed = [
            g for g in groupings(players, table_sizes) if not breaks_small_table_rule(request, g)
        ]
        costs = [brute_cost(request, g) for g in allowed]
        assert pairing.cost.repeats == min(r for r, _ in costs)
        assert pairing.cost.total == min(t for _, t in costs)
        assert pairing.lower_bound == pairing.cost.total


@pytest.mark.parametrize("n", [7, 9, 10, 11, 13, 14])
def test_nobody_gets_a_second_small_table_while_someone_has_none(n: int) -> None:
    for request, pairing, _ in rounds(n, 12, seed=n):
        check_partition(request, pairing)
        tables = [t.seats for t in pairing.tables]
        assert not breaks_small_table_rule(request, tables)
        assert pairing.cost.small_table_breaches == 0


def test_the_small_table_rule_outranks_repeats() -> None:
    # 7 players: a table of 4 and one of 3. p5, p6, p7 never had a small table and have all
    # met: the rule still seats them together at the small table (a repeat for each pair).
    rivals = ("p5", "p6", "p7")
    field = tuple(
        replace(e, met=tuple(r for r in rivals if r != e.id))
        if e.id in rivals
        else replace(e, small_tables=1)
        for e in entrants(7)
    )
    pairing = pair(PairingRequest(field, (3, 4), "standings"))
    small = next(t for t in pairing.tables if len(t.seats) == 3)
    assert sorted(small.seats) == ["p5", "p6", "p7"]
    assert pairing.cost.repeats == 3
    assert any("every allowed grouping repeats at least 3" in note for note in words(pairing))
    # Only one never had one: that player must be at the small table.
    one = tuple(replace(e, small_tables=0 if e.id == "p1" else 1) for e in entrants(7))
    pairing = pair(PairingRequest(one, (3, 4), "standings"))
    assert "p1" in next(t for t in pairing.tables if len(t.seats) == 3).seats


def test_seat_1_goes_to_the_fewest_first_seats_then_the_better_position() -> None:
    field = tuple(replace(e, first_seats=f) for e, f in zip(entrants(4), (2, 0, 1, 0), strict=True))
    pairing = pair(PairingRequest(field, (4,), "standings"))
    assert pairing.tables[0].seats == ("p2", "p1", "p3", "p4")
    for request, pairing, _ in rounds(30, 4, seed=5):
        by_id = {e.id: e for e in request.entrants}
        for table in pairing.tables:
            first = by_id[table.seats[0]]
            assert all(
                (first.first_seats, first.position) <= (by_id[p].first_seats, by_id[p].position)
                for p in table.seats
            )
            rest = [by_id[p].position for p in table.seats[1:]]
            assert rest == sorted(rest)


def test_tables_are_numbered_from_the_top_with_their_spreads() -> None:
    for request, pairing, _ in rounds(40, 4, seed=2):
        by_id = {e.id: e for e in request.entrants}
        tops = [min(by_id[p].position for p in t.seats) for t in pairing.tables]
        if pairing.method != "random":
            assert tops == sorted(tops)
        for table in pairing.tables:
            positions = [by_id[p].position for p in table.seats]
            points = [by_id[p].points for p in table.seats]
            assert table.spread == max(positions) - min(positions)
            assert table.points_spread == max(points) - min(points)


# --- cost, lower bound, notes -------------------------------------------------------------


def test_cost_of_agrees_with_pair_and_prices_a_manual_swap() -> None:
    for request, pairing, _ in rounds(13, 5, seed=4):
        check_cost(request, pairing)
    tables = [list(t.seats) for t in pairing.tables]
    # The organizer swaps the top table's seat 1 with a player of the last table.
    tables[0][0], tables[-1][0] = tables[-1][0], tables[0][0]
    swapped = cost_of(tables, request)
    assert swapped.total >= pairing.cost.total  # the pairing was optimal
    assert (swapped.repeats, swapped.total) == brute_cost(request, tables)
    assert swapped.small_table_breaches == (
        sum(
            1
            for t in tables
            if len(t) == 3
            for p in t
            if next(e for e in request.entrants if e.id == p).small_tables > 0
        )
        if breaks_small_table_rule(request, tables)
        else 0
    )


def test_cost_of_reports_a_breach_of_the_small_table_rule() -> None:
    field = tuple(replace(e, small_tables=1 if e.position <= 3 else 0) for e in entrants(7))
    request = PairingRequest(field, (3, 4), "standings")
    assert cost_of([["p4", "p5", "p6", "p7"], ["p1", "p2", "p3"]], request) == Cost(
        repeats=0,
        small_tables=3,
        spread=5,
        total=3 * SMALL_TABLE_WEIGHT + 5,
        small_table_breaches=3,
    )
    assert (
        cost_of([["p1", "p2", "p3", "p4"], ["p5", "p6", "p7"]], request).small_table_breaches == 0
    )
    with pytest.raises(ValueError, match="not in the request"):
        cost_of([["p1", "p2", "zz"]], request)
    with pytest.raises(ValueError, match="seated twice"):
        cost_of([["p1", "p2", "p3"], ["p3", "p4", "p5"]], request)
    with pytest.raises(ValueError, match="not allowed"):
        cost_of([["p1", "p2"]], request)


def test_the_lower_bound_is_proven_and_tight_for_consecutive_standings() -> None:
    # No history: the standings order itself is optimal, spread N - T.
    request = PairingRequest(entrants(40), (3, 4), "standings")
    pairing = pair(request)
    assert pairing.cost.total == 40 - 10 == pairing.lower_bound
    for n in (30, 100):
        for request, pairing, _ in rounds(n, 5, seed=n):
            check_cost(request, pairing)


def test_notes_explain_repeats_small_tables_and_byes() -> None:
    # Everyone has met everyone: every grouping repeats every pair at its tables.
    ids = [f"p{k}" for k in range(1, 6)]
    field = tuple(
        replace(e, met=tuple(i for i in ids if i != e.id), small_tables=1) for e in entrants(5)
    )
    pairing = pair(PairingRequest(field, (3, 4), "standings"))
    text = "\n".join(words(pairing))
    assert pairing.method == "exhaustive"
    assert "Bye: p5, who had no bye before" in text
    assert "every allowed grouping repeats at least 6 meetings" in text
    assert "This is the lowest possible cost" in text
    field = tuple(replace(e, small_tables=1 if e.id == "p1" else 0) for e in entrants(10))
    pairing = pair(PairingRequest(field, (3, 4), "standings"))
    text = "\n".join(words(pairing))
    assert "seats 3 (a full table seats 4): nobody at it had a small table before." in text
    for _, pairing, _ in rounds(60, 6, seed=3):
        if pairing.method == "local search":
            assert "No grouping can cost less than" in words(pairing)[0]
        for note in words(pairing):
            if "have met before" in note:
                assert "no swap of two players between any two tables would lower" in note


# --- properties ---------------------------------------------------------------------------


@st.composite
def requests(draw: st.DrawFn) -> PairingRequest:
    sizes = tuple(
        sorted(draw(st.sets(st.integers(min_value=2, max_value=6), min_size=1, max_size=3)))
    )
    n = draw(st.integers(min_value=0, max_value=14))
    ids = [f"e{k}" for k in range(n)]
    gaps = draw(st.lists(st.integers(min_value=1, max_value=3), min_size=n, max_size=n))
    positions = list(itertools.accumulate(gaps))
    field = []
    for k, pid in enumerate(ids):
        met = draw(st.lists(st.sampled_from(ids), max_size=n, unique=True)) if ids else []
        field.append(
            Entrant(
                id=pid,
                position=positions[k],
                points=float(draw(st.integers(0, 20))),
                met=tuple(met),
                small_tables=draw(st.integers(0, 2)),
                byes=draw(st.integers(0, 1)),
                first_seats=draw(st.integers(0, 2)),
                order=draw(st.integers(0, 50)),
            )
        )
    method = draw(st.sampled_from(("standings", "standings", "random", "order")))
    return PairingRequest(tuple(field), sizes, method, seed=draw(st.integers(0, 10)))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_any_request_gives_a_valid_deterministic_pairing(request: PairingRequest) -> None:
    if len(request.entrants) < min(request.sizes):
        with pytest.raises(ValueError, match="players are needed to seat a table"):
            pair(request)
        return
    pairing = pair(request)
    check_partition(request, pairing)
    check_cost(request, pairing)
    assert pair(request) == pairing


# --- purity and determinism across processes ----------------------------------------------

PROGRAM = """
import random, sys
sys.path.insert(0, {root!r})
from tournaments.pairing import Entrant, PairingRequest, pair
print(sorted(m for m in sys.modules if m == "django" or m.startswith("django.")))
for n in (10, 30, 150):
    rng = random.Random(n)
    ids = [f"p{{k}}" for k in range(n)]
    met = {{p: set() for p in ids}}
    for _ in range(4):
        rng.shuffle(ids)
        for k in range(0, n - n % 4, 4):
            for p in ids[k : k + 4]:
                met[p].update(q for q in ids[k : k + 4] if q != p)
    field = tuple(
        # tuple(set): the order of "met" changes with the hash seed; the pairing must not.
        Entrant(p, k, met=tuple(met[p]), small_tables=rng.randint(0, 1), first_seats=k % 3)
        for k, p in enumerate(sorted(ids), start=1)
    )
    print(pair(PairingRequest(field, (3, 4), "standings")))
"""


def test_same_pairings_whatever_the_hash_seed_and_no_django() -> None:
    outputs = set()
    for hash_seed in ("0", "1", "12345"):
        done = subprocess.run(
            [sys.executable, "-c", PROGRAM.format(root=str(ROOT))],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": hash_seed, "PATH": ""},
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    output = outputs.pop()
    assert output.startswith("[]\n")  # importing tournaments.pairing loads no Django
    assert output.count("Pairing(") == 3
