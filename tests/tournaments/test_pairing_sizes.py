"""The seating pairing at every table size the games allow (2 to 6), with the sizes a tournament
pairs with (``domain.pairing_sizes``: the game's sizes up to the preferred one), and the
bridge from the seating pairing's entrants to head-to-head (two entrants a table). Pure: no
database."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from games.gametypes import GAME_TYPES
from tests.tournaments.test_pairing import (
    breaks_small_table_rule,
    brute_cost,
    check_cost,
    check_partition,
    groupings,
    random_history,
    rounds,
)
from tournaments.domain import pairing_sizes
from tournaments.notes import describe_all
from tournaments.pairing import Entrant, pair, split
from tournaments.pairing.headtohead import (
    COOKS,
    CUSTOMERS,
    Contender,
    HeadToHeadRequest,
    pair_head_to_head,
    request_from_entrants,
    sides_from_tables,
)


@pytest.mark.parametrize(
    ("game_type", "preferred", "sizes"),
    [
        ("trick-n-chef", None, (3, 4)),
        ("trick-n-chef", 4, (3, 4)),
        ("trick-n-chef", 3, (3,)),
        ("food-truck", None, (2, 3, 4, 5)),
        ("food-truck", 3, (2, 3)),
        ("food-truck", 2, (2,)),
        ("chefs", None, (2, 3, 4, 5, 6)),
        ("chefs", 4, (2, 3, 4)),
        ("crazy-kitchen", None, (2,)),
    ],
)
def test_a_tournament_pairs_with_the_games_sizes_up_to_the_preferred_one(
    game_type: str, preferred: int | None, sizes: tuple[int, ...]
) -> None:
    assert pairing_sizes(GAME_TYPES[game_type].table_sizes, preferred) == sizes


SIZE_SETS = [(2,), (2, 3), (3, 4), (2, 3, 4), (2, 3, 4, 5), (2, 3, 4, 5, 6), (4, 5), (5, 6)]


@pytest.mark.parametrize("sizes", SIZE_SETS)
@pytest.mark.parametrize("n", [7, 11, 16])
def test_every_size_keeps_the_pairing_guarantees_over_rounds(
    sizes: tuple[int, ...], n: int
) -> None:
    """Everyone seated or given a bye once, tables of the split's sizes, the cost as documented,
    never a second small table while someone present has none."""
    for request, pairing, _ in rounds(n, 4, seed=10 * n + len(sizes), sizes=sizes):
        check_partition(request, pairing)
        check_cost(request, pairing)


@pytest.mark.parametrize(
    ("sizes", "n", "played"),
    [((2,), 16, 5), ((2, 3), 20, 4), ((4, 5), 40, 3), ((5, 6), 60, 3)],
)
def test_no_one_meets_again_while_the_field_allows_it(
    sizes: tuple[int, ...], n: int, played: int
) -> None:
    for _, pairing, _ in rounds(n, played, seed=n, sizes=sizes):
        assert pairing.cost.repeats == 0


@pytest.mark.parametrize("sizes", [(2, 3), (4, 5), (5, 6), (2,)])
@pytest.mark.parametrize("n", range(6, 12))
def test_small_fields_are_solved_exactly_at_every_size(sizes: tuple[int, ...], n: int) -> None:
    rng = random.Random(100 * n + sizes[-1])
    for _ in range(2):
        request = random_history(n, rng, sizes)
        pairing = pair(request)
        assert pairing.method == "exhaustive"
        check_partition(request, pairing)
        check_cost(request, pairing)
        table_sizes, byes = split(n, sizes)
        players = [e.id for e in request.entrants if e.id not in pairing.byes]
        allowed = [
            g for g in groupings(players, table_sizes) if not breaks_small_table_rule(request, g)
        ]
        costs = [brute_cost(request, g) for g in allowed]
        assert pairing.cost.repeats == min(r for r, _ in costs)
        assert pairing.cost.total == min(t for _, t in costs)


# ----------------------------------------------------------------------------- head to head


def test_sides_come_from_the_seats_of_the_rounds_played() -> None:
    played: list[list[tuple[str, ...]]] = [
        [("A", "B"), ("C", "D")],
        [("B", "C"), ("D", "A")],
        [("A", "B", "C")],  # not a match: no sides
    ]
    assert sides_from_tables(played) == {
        "A": (COOKS, CUSTOMERS),
        "B": (CUSTOMERS, COOKS),
        "C": (COOKS, CUSTOMERS),
        "D": (CUSTOMERS, COOKS),
    }


def test_entrants_become_contenders_with_exact_scores_and_their_sides() -> None:
    entrants = (
        Entrant(id="A", position=1, points=1.5, met=("B",), byes=1),
        Entrant(id="B", position=2, points=2 / 3),
    )
    request = request_from_entrants(entrants, {"A": (COOKS,)})
    a, b = request.entrants
    assert (a.id, a.position, a.score, a.met, a.sides, a.byes) == (
        "A",
        1,
        Fraction(3, 2),
        ("B",),
        (COOKS,),
        1,
    )
    assert (b.score, b.sides) == (Fraction(2, 3), ())


def test_round_one_drawn_at_random_shuffles_with_its_seed() -> None:
    entrants = tuple(Entrant(id=f"T{k}", position=k) for k in range(1, 9))
    once = request_from_entrants(entrants, {}, shuffle_seed=5)
    assert [c.position for c in once.entrants] == list(range(1, 9))
    assert once == request_from_entrants(entrants, {}, shuffle_seed=5)
    assert [c.id for c in once.entrants] != [e.id for e in entrants]
    pairing = pair_head_to_head(once)
    assert sorted(p for m in pairing.matches for p in (m.cooks, m.customers)) == sorted(
        e.id for e in entrants
    )


def test_head_to_head_notes_are_said_in_words() -> None:
    """Two teams who met, of different scores, both due to be customers: every head-to-head
    code has its sentence, teams named by name."""

    request = HeadToHeadRequest(
        entrants=(
            Contender("A", 1, score=2, met=("B",), sides=(COOKS, COOKS)),
            Contender("B", 2, score=1, met=("A",), sides=(COOKS, COOKS)),
        )
    )
    pairing = pair_head_to_head(request)
    codes = {note["code"] for note in pairing.notes}
    assert codes == {
        "h2h_cost",
        "h2h_met_before",
        "h2h_float",
        "h2h_side_rule",
        "h2h_side_preference",
    }
    words = describe_all(pairing.notes, {"A": "Pizza", "B": "Fries"})
    assert words[0].startswith("Paired head to head (exhaustive): 1 repeated meeting, then")
    assert (
        "Table 1: Pizza and Fries have met before: every pairing repeats at least 1 meeting."
        in words
    )
    assert "Table 1: Pizza (score 2) meets Fries (score 1) from another score group." in words
    assert any("for the third match running" in w for w in words)
    preference = {"code": "h2h_side_preference", "table": 2, "player": "A", "due": "cooks"}
    assert describe_all([preference], {"A": "Pizza"}) == [
        "Table 2: Pizza was due to cook first but starts as the customers."
    ]
