"""Head-to-head Swiss (tournaments.pairing.headtohead): the rules one by one, the optimum against
a brute force written here from docs/pairing.md, and properties of whole tournaments.

Pure: no database (marked one_backend so bin/test's PostgreSQL pass never selects it)."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing.headtohead import (
    COOKS,
    CUSTOMERS,
    EXACT_MAX,
    SIDES,
    Contender,
    HeadToHeadCost,
    HeadToHeadPairing,
    HeadToHeadRequest,
    cost_of_matches,
    pair_head_to_head,
)

pytestmark = pytest.mark.one_backend

ROOT = Path(__file__).resolve().parents[2]
C, S = COOKS, CUSTOMERS


def field(*specs: tuple[str, int | Fraction] | Contender) -> tuple[Contender, ...]:
    """Entrants by position from (id, score) pairs or ready records."""
    out = []
    for k, spec in enumerate(specs, start=1):
        out.append(spec if isinstance(spec, Contender) else Contender(spec[0], k, spec[1]))
    return tuple(out)


def pairs_of(pairing: HeadToHeadPairing) -> list[tuple[str, str]]:
    return [(m.cooks, m.customers) for m in pairing.matches]


def opponents(pairing: HeadToHeadPairing) -> set[frozenset[str]]:
    return {frozenset((m.cooks, m.customers)) for m in pairing.matches}


# --- an independent costing and a brute force ---------------------------------------------


def _difference(sides: Sequence[str]) -> int:
    return sides.count(C) - sides.count(S)


def _broken(entrant: Contender, side: str) -> int:
    before = _difference(entrant.sides)
    after = before + (1 if side == C else -1)
    balance = abs(after) > 1 and abs(after) > abs(before)
    streak = entrant.sides[-2:] == (side, side)
    return int(balance) + int(streak)


def _due(entrant: Contender) -> str | None:
    d = _difference(entrant.sides)
    if d:
        return S if d > 0 else C
    if entrant.sides:
        return S if entrant.sides[-1] == C else C
    return None


def _side_terms(cooks: Contender, customers: Contender) -> tuple[int, int]:
    hard = _broken(cooks, C) + _broken(customers, S)
    soft = int(_due(cooks) not in (None, C)) + int(_due(customers) not in (None, S))
    return hard, soft


def _met(a: Contender, b: Contender) -> bool:
    return b.id in a.met or a.id in b.met


def brute_cost(
    entrants: Sequence[Contender], pairs: Sequence[tuple[str, str]]
) -> tuple[int, int, Fraction, int]:
    """The cost of a pairing with each match's sides chosen as cheaply as possible."""
    by_id = {e.id: e for e in entrants}
    repeats = violations = preferences = 0
    squares = Fraction(0)
    for x, y in pairs:
        a, b = by_id[x], by_id[y]
        hard, soft = min(_side_terms(a, b), _side_terms(b, a))
        repeats += _met(a, b)
        violations += hard
        squares += (Fraction(a.score) - Fraction(b.score)) ** 2
        preferences += soft
    return repeats, violations, squares, preferences


def matchings(ids: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for k, other in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def expected_bye(entrants: Sequence[Contender]) -> str | None:
    if len(entrants) % 2 == 0:
        return None
    fewest = min(e.byes for e in entrants)
    return max((e for e in entrants if e.byes == fewest), key=lambda e: e.position).id


def check_valid(request: HeadToHeadRequest, pairing: HeadToHeadPairing) -> None:
    """Everyone once (or the bye), tables numbered 1.., costs and notes consistent."""
    ids = [e.id for e in request.entrants]
    seated = [p for m in pairing.matches for p in (m.cooks, m.customers)]
    if pairing.bye is not None:
        seated.append(pairing.bye)
    assert sorted(seated) == sorted(ids)
    assert pairing.bye == expected_bye(request.entrants)
    assert [m.table for m in pairing.matches] == list(range(1, len(pairing.matches) + 1))
    by_id = {e.id: e for e in request.entrants}
    for m in pairing.matches:
        assert m.repeat == _met(by_id[m.cooks], by_id[m.customers])
        # the sides given are the cheapest for the match
        given_terms = _side_terms(by_id[m.cooks], by_id[m.customers])
        other_terms = _side_terms(by_id[m.customers], by_id[m.cooks])
        assert given_terms <= other_terms
    cost = pairing.cost
    mine = brute_cost(request.entrants, pairs_of(pairing))
    assert (cost.repeats, cost.side_violations, cost.score_difference, cost.side_preferences) == (
        mine
    )
    assert cost_of_matches(request, pairs_of(pairing)) == cost
    assert pairing.notes[0]["code"] == "h2h_cost"
    assert all(isinstance(v, str | int | None) for n in pairing.notes for v in n.values())


def check_optimal(request: HeadToHeadRequest, pairing: HeadToHeadPairing) -> None:
    seated = [e for e in request.entrants if e.id != pairing.bye]
    ids = [e.id for e in seated]
    one = {(x, y): brute_cost(seated, [(x, y)]) for x in ids for y in ids if x < y}

    def total(pairs: list[tuple[str, str]]) -> tuple[int, int, Fraction, int]:
        costs = [one[(x, y)] if x < y else one[(y, x)] for x, y in pairs]
        return (
            sum(c[0] for c in costs),
            sum(c[1] for c in costs),
            sum((c[2] for c in costs), Fraction(0)),
            sum(c[3] for c in costs),
        )

    best = min(total(m) for m in matchings(ids))
    assert brute_cost(seated, pairs_of(pairing)) == best
    assert pairing.method == "exhaustive"


# --- histories for properties -------------------------------------------------------------


@st.composite
def requests(draw: st.DrawFn, low: int = 2, high: int = 9) -> HeadToHeadRequest:
    n = draw(st.integers(low, high))
    ids = [f"e{k}" for k in range(n)]
    played = draw(st.integers(0, 5))
    entrants = []
    for k, eid in enumerate(ids):
        sides = tuple(draw(st.lists(st.sampled_from(SIDES), max_size=played)))
        met = tuple(draw(st.lists(st.sampled_from(ids), max_size=played, unique=True)))
        entrants.append(
            Contender(
                eid,
                k + 1,
                Fraction(draw(st.integers(0, 6)), 2),
                met,
                sides,
                draw(st.integers(0, 1)),
            )
        )
    entrants.sort(key=lambda e: -e.score)  # scores fall with position, as in standings
    entrants = [
        Contender(e.id, k, e.score, e.met, e.sides, e.byes) for k, e in enumerate(entrants, start=1)
    ]
    return HeadToHeadRequest(tuple(entrants), top_cooks=draw(st.booleans()))


@given(requests())
def test_any_small_request_is_valid_optimal_and_deterministic(request: HeadToHeadRequest) -> None:
    pairing = pair_head_to_head(request)
    check_valid(request, pairing)
    check_optimal(request, pairing)
    assert pair_head_to_head(request) == pairing
    # the order in which meetings are listed does not matter
    reordered = tuple(
        Contender(e.id, e.position, e.score, e.met[::-1], e.sides, e.byes) for e in request.entrants
    )
    assert pair_head_to_head(HeadToHeadRequest(reordered, request.top_cooks)) == pairing


@pytest.mark.parametrize("n", [10, 11, 12])
def test_fields_up_to_twelve_match_the_brute_force(n: int) -> None:
    rng = random.Random(n)
    for _ in range(2 if n < 12 else 1):
        ids = [f"e{k:02d}" for k in range(n)]
        entrants = tuple(
            Contender(
                eid,
                k + 1,
                Fraction((n - k) // 3),
                tuple(rng.sample(ids, 4)),
                tuple(rng.choice(SIDES) for _ in range(4)),
            )
            for k, eid in enumerate(ids)
        )
        request = HeadToHeadRequest(entrants)
        pairing = pair_head_to_head(request)
        check_valid(request, pairing)
        check_optimal(request, pairing)


def play(n: int, rounds: int, seed: int) -> Iterator[tuple[HeadToHeadRequest, HeadToHeadPairing]]:
    """A tournament: 2/1/0 with random results (a tenth drawn), a bye worth a win."""
    rng = random.Random(seed)
    ids = [f"e{k:02d}" for k in range(n)]
    score = dict.fromkeys(ids, Fraction(0))
    met: dict[str, list[str]] = {i: [] for i in ids}
    sides: dict[str, list[str]] = {i: [] for i in ids}
    byes = dict.fromkeys(ids, 0)
    for _ in range(rounds):
        order = sorted(ids, key=lambda i: (-score[i], i))
        request = HeadToHeadRequest(
            tuple(
                Contender(i, k, score[i], tuple(met[i]), tuple(sides[i]), byes[i])
                for k, i in enumerate(order, start=1)
            )
        )
        pairing = pair_head_to_head(request)
        yield request, pairing
        if pairing.bye is not None:
            byes[pairing.bye] += 1
            score[pairing.bye] += 2
        for m in pairing.matches:
            met[m.cooks].append(m.customers)
            met[m.customers].append(m.cooks)
            sides[m.cooks].append(C)
            sides[m.customers].append(S)
            roll = rng.random()
            if roll < 0.1:
                score[m.cooks] += 1
                score[m.customers] += 1
            else:
                score[m.cooks if roll < 0.55 else m.customers] += 2


@pytest.mark.parametrize("n", [8, 9, 12, 13, 16, 40])
def test_tournaments_keep_sides_balanced_and_never_repeat_early(n: int) -> None:
    rounds = min(n - 1, 7)
    for seed in range(2):
        for number, (request, pairing) in enumerate(play(n, rounds, seed), start=1):
            check_valid(request, pairing)
            if number <= 3:  # early rounds: no repeat, no side rule broken
                assert pairing.cost.repeats == 0
                assert pairing.cost.side_violations == 0
            for e in request.entrants:
                # what the rules allow at worst: a difference of 2, three in a row
                assert abs(_difference(e.sides)) <= 2
                assert all(
                    e.sides[k : k + 4] not in ((C,) * 4, (S,) * 4) for k in range(len(e.sides))
                )


@given(st.integers(2, 6), st.randoms(use_true_random=False))
def test_round_two_breaks_no_side_rule_and_repeats_nobody(half: int, rng: random.Random) -> None:
    n = 2 * half
    ids = [f"e{k}" for k in range(n)]
    rng.shuffle(ids)
    first = pair_head_to_head(HeadToHeadRequest(field(*((i, 0) for i in ids))))
    score = {}
    sides = {}
    met = {}
    for m in first.matches:
        win = rng.choice((m.cooks, m.customers))
        score[m.cooks], score[m.customers] = int(win == m.cooks) * 2, int(win == m.customers) * 2
        sides[m.cooks], sides[m.customers] = (C,), (S,)
        met[m.cooks], met[m.customers] = (m.customers,), (m.cooks,)
    order = sorted(ids, key=lambda i: -score[i])
    request = HeadToHeadRequest(
        tuple(Contender(i, k, score[i], met[i], sides[i]) for k, i in enumerate(order, start=1))
    )
    pairing = pair_head_to_head(request)
    assert pairing.cost.repeats == 0
    assert pairing.cost.side_violations == 0
    assert pairing.cost.side_preferences == 0  # after one round everyone can alternate


# --- the rules one by one -----------------------------------------------------------------


def test_round_one_pairs_top_half_against_bottom_half_with_sides_alternating() -> None:
    request = HeadToHeadRequest(field(*((f"e{k}", 0) for k in range(1, 7))))
    pairing = pair_head_to_head(request)
    assert pairs_of(pairing) == [("e1", "e4"), ("e5", "e2"), ("e3", "e6")]
    other = pair_head_to_head(HeadToHeadRequest(request.entrants, top_cooks=False))
    assert pairs_of(other) == [("e4", "e1"), ("e2", "e5"), ("e6", "e3")]


def test_score_groups_first_then_the_floater_drops_one_group() -> None:
    # groups 3 | 2, 2, 2 | 1, 1: the 3 floats into the 2s (one float of one point rather than
    # a 2 floating to the 1s as well)
    pairing = pair_head_to_head(
        HeadToHeadRequest(field(("a", 3), ("b", 2), ("c", 2), ("d", 2), ("e", 1), ("f", 1)))
    )
    assert pairing.cost.score_difference == 1  # one float of one point
    assert opponents(pairing) == {frozenset(p) for p in (("a", "b"), ("c", "d"), ("e", "f"))}
    floats = [n for n in pairing.notes if n["code"] == "h2h_float"]
    assert floats == [
        {"code": "h2h_float", "table": 1, "a": "a", "b": "b", "score_a": "3", "score_b": "2"}
    ]


def test_a_repeat_costs_more_than_any_score_difference() -> None:
    entrants = field(
        Contender("a", 1, 5, met=("b",)),
        Contender("b", 2, 5),
        Contender("c", 3, 0),
        Contender("d", 4, 0),
    )
    pairing = pair_head_to_head(HeadToHeadRequest(entrants))
    assert frozenset(("a", "b")) not in opponents(pairing)
    assert pairing.cost == HeadToHeadCost(0, 0, Fraction(50), 0)


def test_an_unavoidable_repeat_is_noted_with_its_proof() -> None:
    entrants = field(Contender("a", 1, met=("b",)), Contender("b", 2))
    pairing = pair_head_to_head(HeadToHeadRequest(entrants))
    assert pairing.matches[0].repeat
    note = {"code": "h2h_met_before", "table": 1, "a": "a", "b": "b"}
    assert {**note, "reason": "proven_fewest", "repeats": 1} in pairing.notes


def test_the_one_due_a_side_gets_it_and_the_better_placed_wins_a_clash() -> None:
    a = Contender("a", 1, 1, sides=(C,))  # due customers
    b = Contender("b", 2, 1, sides=(S,))  # due cooks
    assert pairs_of(pair_head_to_head(HeadToHeadRequest((a, b)))) == [("b", "a")]
    b2 = Contender("b", 2, 1, sides=(C,))  # both due customers: the better placed gets it
    pairing = pair_head_to_head(HeadToHeadRequest((a, b2)))
    assert pairs_of(pairing) == [("b", "a")]
    assert pairing.cost.side_preferences == 1
    assert {"code": "h2h_side_preference", "table": 1, "player": "b", "due": "customers"} in (
        pairing.notes
    )
    fresh = Contender("b", 2, 1)  # no history: the other one's due side decides
    assert pairs_of(pair_head_to_head(HeadToHeadRequest((a, fresh)))) == [("b", "a")]


def test_balance_outranks_the_better_placed_entrants_preference() -> None:
    a = Contender("a", 1, 1, sides=(C, S))  # even, played customers last: due cooks
    b = Contender("b", 2, 1, sides=(S, S, C))  # one short of cooks: must cook
    pairing = pair_head_to_head(HeadToHeadRequest((a, b)))
    assert pairs_of(pairing) == [("b", "a")]
    assert pairing.cost.side_violations == 0


def test_no_one_starts_on_the_same_side_three_times_running_where_possible() -> None:
    a = Contender("a", 1, 1, sides=(S, C, C))  # difference +1: due customers
    b = Contender("b", 2, 1, sides=(C, S, S))  # -1: due cooks
    assert pairs_of(pair_head_to_head(HeadToHeadRequest((a, b)))) == [("b", "a")]
    # both need customers; one must break a rule, and the note says which
    c = Contender("c", 2, 1, sides=(S, C, C))
    pairing = pair_head_to_head(HeadToHeadRequest((a, c)))
    assert pairing.cost.side_violations == 2  # the cook goes to +2 and cooks a third time
    rules = {(n["player"], n["rule"]) for n in pairing.notes if n["code"] == "h2h_side_rule"}
    cook = pairing.matches[0].cooks
    assert rules == {(cook, "balance"), (cook, "three_running")}


def test_side_rules_outrank_score_differences() -> None:
    # a and b would be a perfect score match but both must start as customers
    a = Contender("a", 1, 2, sides=(C,))
    b = Contender("b", 2, 2, sides=(C, C, S, C))
    c = Contender("c", 3, 0, sides=(S,))
    d = Contender("d", 4, 0, sides=(S, S, C, S))
    pairing = pair_head_to_head(HeadToHeadRequest((a, b, c, d)))
    assert opponents(pairing) == {frozenset(("a", "d")), frozenset(("b", "c"))} or opponents(
        pairing
    ) == {frozenset(("a", "c")), frozenset(("b", "d"))}
    assert pairing.cost.side_violations == 0
    assert pairing.cost.score_difference == 8


def test_the_bye_goes_to_the_lowest_placed_without_one() -> None:
    entrants = field(
        Contender("a", 1),
        Contender("b", 2),
        Contender("c", 3, byes=1),
        Contender("d", 4),
        Contender("e", 5, byes=1),
    )
    pairing = pair_head_to_head(HeadToHeadRequest(entrants))
    assert pairing.bye == "d"
    assert {"code": "bye", "player": "d", "byes": 0, "rule": "fewest_byes"} in pairing.notes
    everyone_had_one = tuple(Contender(e.id, e.position, byes=1 + (e.id == "e")) for e in entrants)
    assert pair_head_to_head(HeadToHeadRequest(everyone_had_one)).bye == "d"
    assert pair_head_to_head(HeadToHeadRequest(entrants[:4])).bye is None


def test_tables_are_ordered_by_scores_then_position() -> None:
    pairing = pair_head_to_head(
        HeadToHeadRequest(field(("a", 4), ("b", 4), ("c", 2), ("d", 2), ("e", 2), ("f", 2)))
    )
    assert [sorted((m.cooks, m.customers)) for m in pairing.matches] == [
        ["a", "b"],
        ["c", "e"],
        ["d", "f"],
    ]


def test_cost_of_matches_prices_a_change_by_hand() -> None:
    entrants = field(
        Contender("a", 1, met=("b",)), Contender("b", 2), Contender("c", 3), Contender("d", 4)
    )
    request = HeadToHeadRequest(entrants)
    assert cost_of_matches(request, [("b", "a"), ("c", "d")]).repeats == 1
    assert cost_of_matches(request, [("a", "c"), ("b", "d")]) == pair_head_to_head(request).cost
    for wrong, message in (
        ([("a", "z")], "not an entrant"),
        ([("a", "c"), ("c", "d")], "two matches"),
        ([("a", "a")], "itself"),
    ):
        with pytest.raises(ValueError, match=message):
            cost_of_matches(request, wrong)


def test_large_fields_use_the_bounded_search_and_stay_valid() -> None:
    requests_ = [r for r, _ in play(60, 4, 3)]
    last = requests_[-1]
    pairing = pair_head_to_head(last)
    check_valid(last, pairing)
    assert pairing.method == "local search"
    assert pairing.cost.repeats == 0
    assert EXACT_MAX == 12


@pytest.mark.parametrize(
    ("entrants", "message"),
    [
        ((Contender("a", 1),), "at least 2 entrants"),
        ((Contender("a", 1), Contender("a", 2)), "listed twice"),
        ((Contender("a", 2), Contender("b", 1)), "by position"),
        ((Contender("a", 1, sides=("white",)), Contender("b", 2)), "a side is"),
        ((Contender("a", 1, byes=-1), Contender("b", 2)), "negative"),
    ],
)
def test_invalid_requests_are_refused(entrants: tuple[Contender, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pair_head_to_head(HeadToHeadRequest(entrants))


# --- purity and determinism across processes ----------------------------------------------

PROGRAM = """
import random, sys
sys.path.insert(0, {root!r})
from tournaments.pairing.headtohead import COOKS, CUSTOMERS, Contender, HeadToHeadRequest
from tournaments.pairing.headtohead import pair_head_to_head
import tournaments.placement
print(sorted(m for m in sys.modules if m == "django" or m.startswith("django.")))
for n in (9, 30):
    rng = random.Random(n)
    ids = [f"e{{k}}" for k in range(n)]
    field = tuple(
        Contender(
            p, k, rng.randint(0, 3), tuple(set(rng.sample(ids, 3))),
            tuple(rng.choice((COOKS, CUSTOMERS)) for _ in range(3)),
        )
        for k, p in enumerate(ids, start=1)
    )
    print(pair_head_to_head(HeadToHeadRequest(field)))
"""


def test_same_pairings_whatever_the_hash_seed_and_no_django() -> None:
    outputs = set()
    for hash_seed in ("0", "1", "4242"):
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
    assert output.startswith("[]\n")  # importing the modules loads no Django
    assert output.count("HeadToHeadPairing(") == 2
