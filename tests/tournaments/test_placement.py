"""Placement points and standings per game (tournaments.placement): each rule with a hand
example, and properties against a plain recount written here.

Pure: no database (marked one_backend so bin/test's PostgreSQL pass never selects it)."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.gametypes import GAME_TYPES
from tournaments.placement import (
    MATCH,
    PLACE,
    Bye,
    MatchPoints,
    PlacementSettings,
    Result,
    Row,
    TableResult,
    placement_points,
    rule_of,
    standings,
)
from tournaments.standings import StandingsError

pytestmark = pytest.mark.one_backend

GAME_RULE_KIND = {
    key: kind.standings_rule.kind for key, kind in GAME_TYPES.items() if kind.standings_rule
}
"""The games ranked here (those whose type has a standings rule) and their kinds."""
RANKED = tuple(sorted(GAME_RULE_KIND))


def match(round_: int, table: int, a: str, pa: int, b: str, pb: int) -> TableResult:
    """A Crazy Kitchen match: ranks follow the totals (CK5.2)."""
    ra = 1 if pa >= pb else 2
    rb = 1 if pb >= pa else 2
    return TableResult(round_, table, (Result(a, ra, pa), Result(b, rb, pb)))


def places(round_: int, table: int, *entries: tuple[str, int, int]) -> TableResult:
    """(entrant, rank, game points) at a place game's table."""
    return TableResult(round_, table, tuple(Result(e, r, p) for e, r, p in entries))


def ranks(rows: tuple[Row, ...]) -> list[tuple[int, str]]:
    return [(row.rank, row.entrant) for row in rows]


# --- the rules ----------------------------------------------------------------------------


def test_the_games_and_their_kinds() -> None:
    assert rule_of("crazy-kitchen").kind == MATCH  # type: ignore[union-attr]
    assert rule_of("food-truck").kind == PLACE  # type: ignore[union-attr]
    assert rule_of("chefs").kind == PLACE  # type: ignore[union-attr]
    assert rule_of("crazy-kitchen").tiebreaks == (  # type: ignore[union-attr]
        "point_difference",
        "points_scored",
    )


def test_a_match_is_worth_2_1_0_by_default_and_3_1_0_on_request() -> None:
    win = match(1, 1, "red", 41, "blue", 30)
    draw = match(1, 1, "red", 30, "blue", 30)
    assert placement_points("crazy-kitchen", win) == {"red": 2, "blue": 0}
    assert placement_points("crazy-kitchen", draw) == {"red": 1, "blue": 1}
    three = PlacementSettings(match_points=MatchPoints(3, 1, 0))
    assert placement_points("crazy-kitchen", win, three) == {"red": 3, "blue": 0}


def test_a_match_needs_two_entrants_and_ranks_that_follow_the_points() -> None:
    lone = TableResult(1, 1, (Result("red", 1, 3),))
    with pytest.raises(StandingsError, match="a match has 2 entrants") as caught:
        placement_points("crazy-kitchen", lone)
    assert caught.value.code == "not_two_entrants"
    wrong = TableResult(1, 2, (Result("red", 1, 10), Result("blue", 2, 12)))
    with pytest.raises(StandingsError, match="do not follow the points") as caught:
        placement_points("crazy-kitchen", wrong)
    assert caught.value.code == "rank_against_points"
    unequal_draw = TableResult(1, 2, (Result("red", 1, 10), Result("blue", 1, 12)))
    with pytest.raises(StandingsError, match="equal is a draw"):
        placement_points("crazy-kitchen", unequal_draw)


def test_places_use_the_scaled_scale_and_shared_places_split() -> None:
    table = places(1, 1, ("a", 1, 3), ("b", 1, 3), ("c", 3, 1), ("d", 4, 0))
    # scaled at 4: 6, 4, 2, 0; a and b share 1st and 2nd: (6 + 4) / 2
    assert placement_points("food-truck", table) == {"a": 5, "b": 5, "c": 2, "d": 0}
    five = places(1, 1, *((f"p{k}", k, 5 - k) for k in range(1, 6)))
    assert list(placement_points("chefs", five).values()) == [
        6,
        Fraction(9, 2),
        3,
        Fraction(3, 2),
        0,
    ]
    two = places(1, 1, ("a", 1, 21), ("b", 2, 19))
    assert placement_points("chefs", two) == {"a": 6, "b": 0}
    by_place = PlacementSettings(scale="placement")  # one point per entrant below
    assert placement_points("food-truck", table, by_place) == {
        "a": Fraction(5, 2),
        "b": Fraction(5, 2),
        "c": 1,
        "d": 0,
    }


def test_places_must_be_a_competition_ranking_and_entrants_unique() -> None:
    with pytest.raises(StandingsError, match="did you mean 1, 1, 3"):
        placement_points("chefs", places(1, 1, ("a", 1, 3), ("b", 1, 3), ("c", 2, 1)))
    with pytest.raises(StandingsError, match="listed twice"):
        placement_points("chefs", places(1, 1, ("a", 1, 3), ("a", 2, 1)))
    with pytest.raises(StandingsError, match="unknown game") as caught:
        placement_points("trickndice", places(1, 1, ("a", 1, 3), ("b", 2, 1)))
    assert caught.value.code == "unknown_game"


def test_crazy_kitchen_standings_points_then_difference_then_scored() -> None:
    tables = [
        match(1, 1, "A", 40, "B", 30),
        match(1, 2, "C", 25, "D", 20),
        match(2, 1, "A", 20, "C", 20),  # draw
        match(2, 2, "D", 50, "B", 10),
        match(3, 1, "B", 35, "C", 30),
        match(3, 2, "A", 15, "D", 25),
    ]
    rows = standings("crazy-kitchen", "ABCD", tables)
    # D: lost, won, won = 4. A: won, drew, lost = 3, difference +10 + 0 - 10 = 0, scored 75.
    # C: won, drew, lost = 3, difference +5 + 0 - 5 = 0, scored 75: shares 2nd with A. B: 2.
    assert ranks(rows) == [(1, "D"), (2, "A"), (2, "C"), (4, "B")]
    a = rows[1]
    assert (a.wins, a.draws, a.losses, a.games, a.points) == (1, 1, 1, 3, Fraction(3))
    assert a.tiebreaks == (("point_difference", Fraction(0)), ("points_scored", Fraction(75)))
    # equal on everything: a shared first place, listed by id
    rows = standings("crazy-kitchen", "AB", [match(1, 1, "A", 10, "B", 10)], [])
    assert ranks(rows) == [(1, "A"), (1, "B")]


def test_point_difference_outranks_points_scored() -> None:
    tables = [match(1, 1, "A", 12, "X", 2), match(1, 2, "B", 40, "Y", 35)]
    rows = standings("crazy-kitchen", ["A", "B", "X", "Y"], tables)
    assert ranks(rows)[:2] == [(1, "A"), (2, "B")]  # +10 beats +5, though B scored more


@pytest.mark.parametrize(
    ("bye", "points", "counts"),
    [("win", 2, (1, 0, 0)), ("draw", 1, (0, 1, 0)), ("loss", 0, (0, 0, 1))],
)
def test_a_match_bye_counts_as_a_win_by_default(
    bye: str, points: int, counts: tuple[int, int, int]
) -> None:
    rows = standings(
        "crazy-kitchen",
        "ABC",
        [match(1, 1, "A", 3, "B", 1)],
        [Bye(1, "C")],
        PlacementSettings(bye=bye),
    )
    c = next(r for r in rows if r.entrant == "C")
    assert c.points == points
    assert (c.wins, c.draws, c.losses) == counts
    assert (c.byes, c.games) == (1, 0)
    assert c.tiebreaks == (("point_difference", Fraction(0)), ("points_scored", Fraction(0)))
    with pytest.raises(StandingsError, match="a win, a draw or a loss"):
        standings("crazy-kitchen", "C", [], [Bye(1, "C")], PlacementSettings(bye="half"))


def test_place_standings_points_then_game_tiebreaks_then_game_points_then_firsts() -> None:
    tables = [
        places(1, 1, ("a", 1, 3), ("b", 2, 2), ("c", 3, 1)),
        places(1, 2, ("d", 1, 3), ("e", 2, 1)),
        places(2, 1, ("b", 1, 3), ("a", 2, 1), ("e", 3, 0)),
        places(2, 2, ("c", 1, 3), ("d", 2, 2)),
    ]
    rows = standings("food-truck", "abcde", tables)
    # a: 6 + 3 = 9, b: 3 + 6 = 9 (game points 4 and 5), c: 0 + 6, d: 6 + 0, e: 0 + 0
    assert ranks(rows) == [(1, "b"), (2, "a"), (3, "d"), (4, "c"), (5, "e")]
    assert rows[0].tiebreaks == (
        ("game_tiebreaks", ()),
        ("game_points", Fraction(5)),
        ("first_places", Fraction(1)),
    )


def test_a_games_own_tiebreak_values_come_right_after_placement_points() -> None:
    tables = [
        TableResult(1, 1, (Result("a", 1, 5, (2, 9)), Result("b", 1, 9, (3, 0)))),
    ]
    rows = standings("chefs", "ab", tables)
    assert ranks(rows) == [(1, "b"), (2, "a")]  # (3, 0) > (2, 9): first value first
    with pytest.raises(StandingsError, match="same number of tie-break values"):
        standings("chefs", "ab", [TableResult(1, 1, (Result("a", 1, 5, (1,)), Result("b", 2, 3)))])


def test_a_place_bye_is_worth_the_scales_average_or_the_given_points() -> None:
    tables = [places(1, 1, ("a", 1, 3), ("b", 2, 2), ("c", 3, 1), ("d", 4, 0))]
    rows = standings("food-truck", "abcde", tables, [Bye(1, "e")])
    assert next(r for r in rows if r.entrant == "e").points == 3
    rows = standings(
        "food-truck", "abcde", tables, [Bye(1, "e")], PlacementSettings(bye_points=Fraction(4))
    )
    assert next(r for r in rows if r.entrant == "e").points == 4


def test_input_problems_are_refused_with_codes() -> None:
    table = match(1, 1, "A", 3, "B", 1)
    with pytest.raises(StandingsError) as caught:
        standings("crazy-kitchen", "A", [table])
    assert caught.value.code == "unknown_entrant"
    with pytest.raises(StandingsError) as caught:
        standings("crazy-kitchen", "AB", [table], [Bye(1, "A")])
    assert caught.value.code == "entrant_twice_in_round"
    with pytest.raises(StandingsError) as caught:
        standings("crazy-kitchen", "AA", [])
    assert caught.value.code == "entrant_twice"
    with pytest.raises(StandingsError) as caught:
        standings("crazy-kitchen", "A", [], [Bye(1, "Z")])
    assert caught.value.code == "unknown_entrant"


# --- properties ---------------------------------------------------------------------------


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[str, list[str], list[TableResult], list[Bye]]:
    game = draw(st.sampled_from(sorted(RANKED)))
    n = draw(st.integers(2, 9))
    ids = [f"e{k}" for k in range(n)]
    rng = random.Random(draw(st.integers(0, 10**6)))
    tables: list[TableResult] = []
    byes: list[Bye] = []
    width = rng.randint(0, 2) if GAME_RULE_KIND[game] == PLACE else 0
    for round_ in range(1, draw(st.integers(1, 4)) + 1):
        order = ids[:]
        rng.shuffle(order)
        size = 2 if GAME_RULE_KIND[game] == MATCH else rng.randint(2, min(5, n))
        while len(order) >= 2:
            seats, order = order[:size], order[size:]
            if len(seats) < 2:
                order += seats
                break
            scores = [rng.randint(0, 4) for _ in seats]
            results = tuple(
                Result(
                    e,
                    1 + sum(1 for t in scores if t > s),
                    s,
                    tuple(rng.randint(0, 3) for _ in range(width)),
                )
                for e, s in zip(seats, scores, strict=True)
            )
            tables.append(TableResult(round_, len(tables) + 1, results))
        byes += [Bye(round_, e) for e in order]
    return game, ids, tables, byes


@given(tournaments())
def test_standings_agree_with_a_plain_recount(
    tournament: tuple[str, list[str], list[TableResult], list[Bye]],
) -> None:
    game, ids, tables, byes = tournament
    rows = standings(game, ids, tables, byes)
    assert sorted(r.entrant for r in rows) == sorted(ids)
    # every entrant's points are the sum of its tables' points and its byes
    total: dict[str, Fraction] = defaultdict(Fraction)
    for t in tables:
        for e, p in placement_points(game, t).items():
            total[e] += p
    for row in rows:
        assert row.games == sum(1 for t in tables for r in t.results if r.entrant == row.entrant)
        assert row.byes == sum(1 for b in byes if b.entrant == row.entrant)
        assert row.points - total[row.entrant] == row.byes * (2 if game == "crazy-kitchen" else 3)
    # a table hands out the same total whoever wins or shares (2 a match; 3 a seat, scaled)
    for t in tables:
        handed = sum(placement_points(game, t).values())
        assert handed == (2 if game == "crazy-kitchen" else 3 * len(t.results))
    # rows are sorted by points then tie-breaks; ranks are a competition ranking
    keys = [(r.points, *(v for _, v in r.tiebreaks)) for r in rows]
    assert keys == sorted(keys, reverse=True)
    for k, row in enumerate(rows):
        if k and keys[k] == keys[k - 1]:
            assert row.rank == rows[k - 1].rank
            assert row.entrant > rows[k - 1].entrant
        else:
            assert row.rank == k + 1
    # the input's order does not matter
    assert standings(game, ids[::-1], tables[::-1], byes[::-1]) == rows


def test_the_rules_come_from_the_game_types_and_trick_n_chef_has_none() -> None:
    from games.gametypes import DEFAULT_GAME_TYPE

    ranked = {key for key in GAME_TYPES if rule_of(key) is not None}
    assert ranked == {key for key, kind in GAME_TYPES.items() if kind.standings_rule is not None}
    assert ranked == set(GAME_TYPES) - {DEFAULT_GAME_TYPE}
    assert rule_of("no-such-game") is None


def test_columns_name_each_games_figures_and_its_own_tiebreaks_when_it_has_some() -> None:
    from tournaments.placement import columns

    assert [k for k, _ in columns("crazy-kitchen")] == [
        "rank", "name", "points", "point_difference", "points_scored",
        "wins", "draws", "losses", "games", "byes",
    ]  # fmt: skip
    assert dict(columns("crazy-kitchen"))["name"] == "Team"
    assert [k for k, _ in columns("chefs", width=2)][3:6] == [
        "game_tiebreak_1",
        "game_tiebreak_2",
        "game_points",
    ]
    assert dict(columns("chefs"))["game_points"] == "Final positions"


def test_a_byes_worth_and_the_tournaments_settings() -> None:
    from tournaments.placement import PlacementSettings, bye_value

    four = TableResult(1, 1, tuple(Result(e, n, 0) for n, e in enumerate("abcd", start=1)))
    assert bye_value("crazy-kitchen", []) == 2
    assert bye_value("food-truck", [four], PlacementSettings(scale="placement")) == Fraction(3, 2)
    assert bye_value("chefs", [four], PlacementSettings.of("scaled", 0.1)) == Fraction(1, 10)
    with pytest.raises(StandingsError) as refused:
        PlacementSettings.of("scaled", -1)
    assert refused.value.code == "bad_bye_points"
