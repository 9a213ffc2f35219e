"""Standings (tournaments/standings.py): hand-computed tournaments checked number by number, the
presets' tables, shared places, each tie-break, input errors, and properties checked against an
independent, deliberately naive recount.

No database: the standings are a pure computation.
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings import (
    PRESETS,
    TIEBREAKS,
    Bye,
    GameResult,
    Placement,
    Player,
    Row,
    Settings,
    StandingsError,
    columns,
    compute,
    table_points,
)

ROOT = Path(__file__).resolve().parents[2]
F = Fraction


def game(round_no: int, table_no: int, *seats: tuple[str, int, int]) -> GameResult:
    """A result from (player, place, victory points) triples."""
    return GameResult(round_no, table_no, tuple(Placement(p, k, vp) for p, k, vp in seats))


def by_id(rows: Sequence[Row]) -> dict[str, Row]:
    return {row.player: row for row in rows}


def tiebreak(row: Row, key: str) -> float:
    return dict(row.tiebreaks)[key]


# --- a small tournament, by hand ------------------------------------------------------------
#
# 8 players. Dan drops after round 2 (he has a bye in round 2); Hal joins in round 2.
# Tables of 4 and 3 every round, shared places in every round.

PLAYERS = [
    Player("a", "Ann"),
    Player("b", "Ben"),
    Player("c", "Cat"),
    Player("d", "Dan", dropped=True),
    Player("e", "Eve"),
    Player("f", "Fay"),
    Player("g", "Gus"),
    Player("h", "Hal"),
]
RESULTS = [
    # Round 1 (scaled): Ann 6, Ben 4, Cat 2, Dan 0 | Eve and Fay share 1st: (6 + 3) / 2 = 4.5
    game(1, 1, ("a", 1, 40), ("b", 2, 30), ("c", 3, 20), ("d", 4, 10)),
    game(1, 2, ("e", 1, 35), ("f", 1, 35), ("g", 3, 15)),
    # Round 2: Eve 6, Ann and Hal share 2nd: (4 + 2) / 2 = 3, Gus 0 | Ben 6, Cat 3, Fay 0
    # Dan has the bye: 3 points (average of a table of 4: (6 + 4 + 2 + 0) / 4) and 20 VP.
    game(2, 1, ("e", 1, 42), ("a", 2, 33), ("h", 2, 33), ("g", 4, 12)),
    game(2, 2, ("b", 1, 38), ("c", 2, 25), ("f", 3, 20)),
    # Round 3: Hal 6, Ann 4, Ben 2, Fay 0 | Cat 6, Eve and Gus share 2nd: (3 + 0) / 2 = 1.5
    game(3, 1, ("h", 1, 45), ("a", 2, 31), ("b", 3, 30), ("f", 4, 10)),
    game(3, 2, ("c", 1, 28), ("e", 2, 26), ("g", 2, 26)),
]
BYES = [Bye(2, "d")]
SETTINGS = Settings(bye_victory_points=20)


def test_hand_computed_tournament() -> None:
    rows = compute(PLAYERS, RESULTS, BYES, SETTINGS)
    # Totals: Ann 6+3+4 = 13; Ben 4+6+2 = 12; Cat 2+3+6 = 11; Dan 0+3 (bye) = 3;
    # Eve 4.5+6+1.5 = 12; Fay 4.5+0+0 = 4.5; Gus 0+0+1.5 = 1.5; Hal 3+6 = 9.
    # Eve and Ben tie on 12: victory points decide (Eve 35+42+26 = 103, Ben 30+38+30 = 98).
    # Opponents' averages (opponents' totals, once per game met):
    #   Ann: (12+11+3) + (12+1.5+9) + (12+4.5+9) = 74 over 9 -> 8.22
    #   Eve: (4.5+1.5) + (13+1.5+9) + (11+1.5) = 42 over 7 -> 6
    #   Ben: (13+11+3) + (11+4.5) + (13+4.5+9) = 69 over 8 = 8.625 -> 8.63 (half up)
    #   Cat: (13+12+3) + (12+4.5) + (12+1.5) = 58 over 7 = 8.2857 -> 8.29
    #   Hal: (13+12+1.5) + (13+12+4.5) = 56 over 6 = 9.333 -> 9.33
    #   Fay: (12+1.5) + (12+11) + (13+12+9) = 70.5 over 7 = 10.0714 -> 10.07
    #   Dan: (13+12+11) over 3 = 12 (the bye has no opponents)
    #   Gus: (12+4.5) + (13+12+9) + (11+12) = 73.5 over 7 = 10.5
    expected = [
        # rank, id, name, dropped, points, VP, opp. avg, firsts, games, byes
        (1, "a", "Ann", False, 13.0, 104, 8.22, 1, 3, 0),
        (2, "e", "Eve", False, 12.0, 103, 6.0, 2, 3, 0),
        (3, "b", "Ben", False, 12.0, 98, 8.63, 1, 3, 0),
        (4, "c", "Cat", False, 11.0, 73, 8.29, 1, 3, 0),
        (5, "h", "Hal", False, 9.0, 78, 9.33, 1, 2, 0),
        (6, "f", "Fay", False, 4.5, 65, 10.07, 1, 3, 0),
        (7, "d", "Dan", True, 3.0, 30, 12.0, 0, 1, 1),
        (8, "g", "Gus", False, 1.5, 53, 10.5, 0, 3, 0),
    ]
    assert rows == [
        Row(
            rank=rank,
            player=pid,
            name=name,
            dropped=dropped,
            points=points,
            tiebreaks=(
                ("victory_points", float(vp)),
                ("opponents_average", opp),
                ("first_places", float(firsts)),
            ),
            games=games,
            byes=byes,
            first_places=firsts,
            victory_points=vp,
        )
        for rank, pid, name, dropped, points, vp, opp, firsts, games, byes in expected
    ]


def test_hand_computed_tournament_other_presets() -> None:
    # "placement": tables of 4 give 3, 2, 1, 0 and tables of 3 give 2, 1, 0; a bye is worth the
    # average of a table of 4, 1.5.
    #   Ann 3 + (2+1)/2 + 2 = 6.5; Ben 2 + 2 + 1 = 5; Cat 1 + 1 + 2 = 4; Dan 0 + 1.5 = 1.5;
    #   Eve (2+1)/2 + 3 + (1+0)/2 = 5; Fay 1.5 + 0 + 0 = 1.5; Gus 0 + 0 + 0.5 = 0.5;
    #   Hal 1.5 + 3 = 4.5
    rows = by_id(compute(PLAYERS, RESULTS, BYES, Settings(preset="placement")))
    assert {p: r.points for p, r in rows.items()} == {
        "a": 6.5, "b": 5.0, "c": 4.0, "d": 1.5, "e": 5.0, "f": 1.5, "g": 0.5, "h": 4.5,
    }  # fmt: skip
    # "wins": a shared first at a table of 3 splits 1 + 0; a bye is worth 1/4 (table of 4).
    rows = by_id(compute(PLAYERS, RESULTS, BYES, Settings(preset="wins")))
    assert {p: r.points for p, r in rows.items()} == {
        "a": 1.0, "b": 1.0, "c": 1.0, "d": 0.25, "e": 1.5, "f": 0.5, "g": 0.0, "h": 1.0,
    }  # fmt: skip


def test_late_entrant_and_player_without_games() -> None:
    players = [*PLAYERS, Player("z", "Zoe")]  # registered, no game yet
    rows = compute(players, RESULTS, BYES, SETTINGS)
    zoe = by_id(rows)["z"]
    assert (zoe.rank, zoe.points, zoe.games, zoe.byes, zoe.victory_points) == (9, 0.0, 0, 0, 0)
    assert tiebreak(zoe, "opponents_average") == 0.0
    # Hal joined in round 2: two games, no penalty beyond the missing round.
    assert by_id(rows)["h"].games == 2


def test_dropped_player_stays_and_counts_for_opponents() -> None:
    rows = compute(PLAYERS, RESULTS, BYES, SETTINGS)
    assert [row.player for row in rows if row.dropped] == ["d"]
    # Dan's 3 points are in Ann's opponents' average (checked in the hand computation); with
    # him not dropped, nothing but the mark changes.
    undropped = [Player(p.id, p.name) for p in PLAYERS]
    again = compute(undropped, RESULTS, BYES, SETTINGS)
    assert [(r.rank, r.player, r.points, r.tiebreaks) for r in again] == [
        (r.rank, r.player, r.points, r.tiebreaks) for r in rows
    ]


def test_input_order_does_not_matter() -> None:
    rows = compute(PLAYERS, RESULTS, BYES, SETTINGS)
    assert compute(PLAYERS[::-1], RESULTS[::-1], BYES, SETTINGS) == rows


# --- presets ---------------------------------------------------------------------------------

PRESET_TABLES: dict[str, dict[int, list[Fraction | int]]] = {
    "scaled": {
        2: [6, 0],
        3: [6, 3, 0],
        4: [6, 4, 2, 0],
        5: [6, F(9, 2), 3, F(3, 2), 0],
        6: [6, F(24, 5), F(18, 5), F(12, 5), F(6, 5), 0],
    },
    "wins": {n: [1, *[0] * (n - 1)] for n in range(2, 7)},
    "placement": {
        2: [1, 0],
        3: [2, 1, 0],
        4: [3, 2, 1, 0],
        5: [4, 3, 2, 1, 0],
        6: [5, 4, 3, 2, 1, 0],
    },
}


@pytest.mark.parametrize("preset", sorted(PRESET_TABLES))
@pytest.mark.parametrize("size", range(2, 7))
def test_preset_tables(preset: str, size: int) -> None:
    expected = PRESET_TABLES[preset][size]
    assert list(PRESETS[preset].table(size)) == expected
    assert table_points(preset, range(1, size + 1)) == expected


def test_presets_are_documented() -> None:
    assert set(PRESETS) == {"scaled", "wins", "placement"}
    for key, preset in PRESETS.items():
        assert preset.key == key
        assert preset.name and preset.description
    assert "favours big tables" in PRESETS["placement"].description


def test_scaled_is_fair_between_table_sizes() -> None:
    # First is 6 and last is 0 at every size, and every table averages 3 points a player.
    for size in range(2, 7):
        table = PRESETS["scaled"].table(size)
        assert [table[0], table[-1], PRESETS["scaled"].average(size)] == [6, 0, 3]


def test_preset_points_out_of_range() -> None:
    with pytest.raises(StandingsError, match="there is no place 5 at a table of 4 players"):
        PRESETS["scaled"].points(5, 4)
    with pytest.raises(StandingsError, match="at least 2 players"):
        PRESETS["scaled"].points(1, 1)


# --- shared places ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "places", "expected"),
    [
        # two share 1st at a table of 4: (6 + 4) / 2 = 5 each; the next is 3rd: 2
        ("scaled", [1, 1, 3, 4], [5, 5, 2, 0]),
        # three share 2nd at a table of 4: (4 + 2 + 0) / 3 = 2 each
        ("scaled", [1, 2, 2, 2], [6, 2, 2, 2]),
        ("scaled", [1, 1, 1, 1], [3, 3, 3, 3]),
        ("scaled", [1, 1, 3], [F(9, 2), F(9, 2), 0]),
        ("scaled", [1, 2, 2], [6, F(3, 2), F(3, 2)]),
        ("scaled", [1, 1], [3, 3]),
        # a table of 5: 2nd and 3rd shared: (4.5 + 3) / 2 = 3.75
        ("scaled", [1, 2, 2, 4, 5], [6, F(15, 4), F(15, 4), F(3, 2), 0]),
        # a table of 6: four share 3rd: (3.6 + 2.4 + 1.2 + 0) / 4 = 1.8
        ("scaled", [1, 2, 3, 3, 3, 3], [6, F(24, 5), F(9, 5), F(9, 5), F(9, 5), F(9, 5)]),
        ("wins", [1, 1, 3, 4], [F(1, 2), F(1, 2), 0, 0]),
        ("wins", [1, 1, 1], [F(1, 3), F(1, 3), F(1, 3)]),
        ("placement", [1, 1, 3], [F(3, 2), F(3, 2), 0]),
        ("placement", [1, 2, 2, 4], [3, F(3, 2), F(3, 2), 0]),
        # any order: the points follow the places given
        ("scaled", [3, 1, 4, 1], [2, 5, 0, 5]),
    ],
)
def test_shared_places_split_the_points_they_cover(
    preset: str, places: list[int], expected: list[Fraction]
) -> None:
    assert table_points(preset, places) == expected


@pytest.mark.parametrize(
    ("places", "suggestion"),
    [
        ([1, 1, 2], "1, 1, 3"),
        ([2, 3, 4], "1, 2, 3"),
        ([1, 2, 5], "1, 2, 3"),
        ([0, 1, 2], "1, 2, 3"),
        ([1, 2, 2, 3], "1, 2, 2, 4"),
        ([1, 3, 3, 3], "1, 2, 2, 2"),
    ],
)
def test_places_must_be_a_competition_ranking(places: list[int], suggestion: str) -> None:
    with pytest.raises(StandingsError, match=f"did you mean {suggestion}") as caught:
        table_points("scaled", places)
    assert caught.value.code == "bad_places"


def test_table_points_refuses_an_unknown_preset_and_a_lone_player() -> None:
    with pytest.raises(StandingsError, match="no scoring preset 'elo'"):
        table_points("elo", [1, 2])
    with pytest.raises(StandingsError, match="at least 2 players"):
        table_points("scaled", [1])


def competition_places(scores: Sequence[int]) -> list[int]:
    """Places from scores, higher is better; equal scores share (1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


@given(
    preset=st.sampled_from(sorted(PRESETS)),
    scores=st.lists(st.integers(0, 3), min_size=2, max_size=6),
)
def test_table_total_does_not_depend_on_shared_places(preset: str, scores: list[int]) -> None:
    places = competition_places(scores)
    points = table_points(preset, places)
    assert sum(points) == sum(PRESETS[preset].table(len(places)))
    for i, place in enumerate(places):
        for j, other in enumerate(places):
            if place == other:
                assert points[i] == points[j]
            elif place < other:
                assert points[i] >= points[j]


# --- byes ------------------------------------------------------------------------------------

TRIO = [Player("a", "Ann"), Player("b", "Ben"), Player("c", "Cat"), Player("d", "Dan")]
ANN_BEN_CAT = TRIO[:3]


def test_bye_default_is_the_average_of_the_largest_table() -> None:
    threes = [game(1, 1, ("a", 1, 10), ("b", 2, 5), ("c", 3, 0))]
    fours = [game(2, 1, ("a", 1, 10), ("b", 2, 5), ("c", 3, 0), ("d", 4, 0))]

    def bye_worth(preset: str, results: list[GameResult]) -> float:
        rows = compute(TRIO, results, [Bye(1, "d")], Settings(preset=preset))
        return by_id(rows)["d"].points

    # "scaled": 3 whatever the size.
    assert bye_worth("scaled", []) == bye_worth("scaled", threes) == 3.0
    assert bye_worth("scaled", threes + fours) == 3.0
    # "wins": 1/3 with tables of 3 only, 1/4 once a table of 4 is in the results.
    assert bye_worth("wins", threes) == 0.33
    assert bye_worth("wins", threes + fours) == 0.25
    # "placement": 1 at a table of 3, 1.5 at a table of 4; 0.5 (a table of 2) with no results.
    assert bye_worth("placement", threes) == 1.0
    assert bye_worth("placement", threes + fours) == 1.5
    assert bye_worth("placement", []) == 0.5


def test_bye_settings_and_no_opponents() -> None:
    results = [game(1, 1, ("a", 1, 10), ("b", 2, 5), ("c", 3, 0))]
    settings = Settings(bye_points=2.5, bye_victory_points=7)
    dan = by_id(compute(TRIO, results, [Bye(1, "d"), Bye(2, "d")], settings))["d"]
    assert (dan.points, dan.victory_points, dan.byes, dan.games) == (5.0, 14, 2, 0)
    assert tiebreak(dan, "opponents_average") == 0.0  # byes have no opponents
    assert dan.first_places == 0


def test_bye_points_are_exact() -> None:
    # Ten byes worth 0.1 make exactly 1 point (0.1 counts as 1/10, not as the binary float
    # 0.1000000000000000055...), so Ann ties with Ben's win instead of ranking below it.
    results = [game(1, 1, ("b", 1, 0), ("c", 2, 0))]
    byes = [Bye(n, "a") for n in range(2, 12)]
    settings = Settings(preset="wins", bye_points=0.1, tiebreaks=())
    rows = compute(ANN_BEN_CAT, results, byes, settings)
    assert [(r.rank, r.player, r.points) for r in rows] == [
        (1, "a", 1.0),
        (1, "b", 1.0),
        (3, "c", 0.0),
    ]


# --- tie-breaks ------------------------------------------------------------------------------

# Xia and Yan both have 6 points from two tables of 4. Xia: a win (50 VP) and a last (10 VP);
# Yan: a 2nd (40 VP) and a 3rd (30 VP). Xia has more first places, Yan more victory points.
DUEL_PLAYERS = [
    Player(p, name)
    for p, name in zip("xyabcdef", ["Xia", "Yan", "A", "B", "C", "D", "E", "F"], strict=True)
]
DUEL = [
    game(1, 1, ("x", 1, 50), ("a", 2, 30), ("b", 3, 20), ("c", 4, 5)),
    game(1, 2, ("d", 1, 60), ("y", 2, 40), ("e", 3, 20), ("f", 4, 5)),
    game(2, 1, ("a", 1, 60), ("b", 2, 30), ("c", 3, 20), ("x", 4, 10)),
    game(2, 2, ("d", 1, 60), ("e", 2, 50), ("y", 3, 30), ("f", 4, 5)),
]


def duel_order(*tiebreaks: str) -> list[str]:
    rows = compute(DUEL_PLAYERS, DUEL, [], Settings(tiebreaks=tiebreaks))
    return [row.player for row in rows if row.player in "xy"]


def test_victory_points_decide() -> None:
    assert duel_order("victory_points") == ["y", "x"]


def test_first_places_decide() -> None:
    assert duel_order("first_places") == ["x", "y"]


def test_tiebreak_order_matters() -> None:
    assert duel_order("victory_points", "first_places") == ["y", "x"]
    assert duel_order("first_places", "victory_points") == ["x", "y"]


def test_without_tiebreaks_equal_points_share_a_rank() -> None:
    rows = by_id(compute(DUEL_PLAYERS, DUEL, [], Settings(tiebreaks=())))
    assert rows["x"].rank == rows["y"].rank
    assert rows["x"].tiebreaks == ()


def test_games_decides_only_when_chosen() -> None:
    # Ann won her only game; Ben won one game of two and came last in the other: both 6 points.
    players = [Player("a", "Ann"), Player("b", "Ben"), Player("c", "Cat"), Player("d", "Dan")]
    results = [
        game(1, 1, ("b", 1, 10), ("c", 2, 10), ("d", 3, 10)),
        game(2, 1, ("a", 1, 10), ("c", 2, 10), ("d", 3, 10), ("b", 4, 10)),
    ]

    def order(*tiebreaks: str) -> list[tuple[int, str]]:
        rows = compute(players, results, [], Settings(tiebreaks=tiebreaks))
        return [(row.rank, row.player) for row in rows if row.player in "ab"]

    # Cat leads with 3 + 4 = 7 points; Ann and Ben share 2nd unless games are a tie-break.
    assert order("first_places") == [(2, "a"), (2, "b")]  # informational by default
    assert order("first_places", "games") == [(2, "b"), (3, "a")]


# Round 1: a table of 4 (Ann 6, Ben 4, Cat 2, Dan 0) and a table of 3 (Eve 6, Fay 3, Gus 0).
# Ann and Eve: 6 points, 40 VP, 1 first place each.
ROUND_ONE = [
    game(1, 1, ("a", 1, 40), ("b", 2, 30), ("c", 3, 20), ("d", 4, 10)),
    game(1, 2, ("e", 1, 40), ("f", 2, 30), ("g", 3, 20)),
]
SEVEN = [
    Player(p, name)
    for p, name in zip("abcdefg", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"], strict=True)
]


def test_opponents_average_decides_with_two_and_three_opponents() -> None:
    rows = by_id(compute(SEVEN, ROUND_ONE, [], Settings()))
    # Ann met 3 opponents: (4 + 2 + 0) / 3 = 2; Eve met 2: (3 + 0) / 2 = 1.5.
    assert tiebreak(rows["a"], "opponents_average") == 2.0
    assert tiebreak(rows["e"], "opponents_average") == 1.5
    assert (rows["a"].rank, rows["e"].rank) == (1, 2)


def test_opponents_average_counts_each_opponent_once_per_game() -> None:
    results = [
        *ROUND_ONE,
        # Round 2: Cat 6, Dan 3, Eve 0 (table of 3) | Fay 6, Ann 4, Ben 2, Gus 0 (table of 4)
        game(2, 1, ("c", 1, 30), ("d", 2, 20), ("e", 3, 10)),
        game(2, 2, ("f", 1, 30), ("a", 2, 20), ("b", 3, 10), ("g", 4, 5)),
    ]
    # Totals: Ann 10, Ben 6, Cat 8, Dan 3, Eve 6, Fay 9, Gus 0.
    rows = by_id(compute(SEVEN, results, [], Settings()))
    # Cat met Ann, Ben, Dan, then Dan and Eve: (10 + 6 + 3 + 3 + 6) / 5 = 5.6 -- an average per
    # opponent met (Dan twice), not of the two games' averages ((19/3 + 9/2) / 2 = 5.42).
    assert tiebreak(rows["c"], "opponents_average") == 5.6
    # Dan met Ann, Ben, Cat, then Cat and Eve: (10 + 6 + 8 + 8 + 6) / 5 = 7.6.
    # Eve met Fay and Gus, then Cat and Dan, with their current totals (Fay 9, not the 3 she had
    # after round 1): (9 + 0 + 8 + 3) / 4 = 5.
    assert tiebreak(rows["d"], "opponents_average") == 7.6
    assert tiebreak(rows["e"], "opponents_average") == 5.0


def test_everything_equal_shares_the_rank_listed_by_name_then_id() -> None:
    players = [
        Player("p4", "Bob"),
        Player("p3", "ann"),
        Player("p2", "Cy"),
        Player("p1", "Cy"),
        Player("p5", "Dee"),
    ]
    results = [
        game(1, 1, ("p1", 1, 20), ("p2", 1, 20), ("p3", 1, 20), ("p4", 1, 20)),
        game(2, 1, ("p1", 1, 20), ("p2", 1, 20), ("p3", 1, 20), ("p4", 1, 20)),
        game(1, 2, ("p5", 1, 0), ("p6", 2, 0)),
    ]
    players.append(Player("p6", "Eli"))
    rows = compute(players, results, [], Settings())
    assert [(r.rank, r.name, r.player) for r in rows] == [
        # all four: 3 + 3 points, 40 VP, opponents' average 6, 2 first places
        (1, "ann", "p3"),
        (1, "Bob", "p4"),
        (1, "Cy", "p1"),
        (1, "Cy", "p2"),
        (5, "Dee", "p5"),
        (6, "Eli", "p6"),
    ]


def test_shared_second_place_ranks_one_two_two_four() -> None:
    players = [Player(p, p.upper()) for p in "abcd"]
    results = [game(1, 1, ("a", 1, 9), ("b", 2, 5), ("c", 2, 5), ("d", 4, 1))]
    rows = compute(players, results, [], Settings())
    assert [(r.rank, r.player, r.points) for r in rows] == [
        (1, "a", 6.0),
        (2, "b", 3.0),
        (2, "c", 3.0),
        (4, "d", 0.0),
    ]


def test_tiebreaks_are_described() -> None:
    assert set(TIEBREAKS) == {"victory_points", "opponents_average", "first_places", "games"}
    for key, tb in TIEBREAKS.items():
        assert tb.key == key
        assert tb.title and tb.description
    assert Settings().tiebreaks == ("victory_points", "opponents_average", "first_places")


# --- columns ---------------------------------------------------------------------------------


def test_columns_follow_the_settings() -> None:
    assert columns(Settings()) == [
        ("rank", "Rank"),
        ("name", "Player"),
        ("points", "Points"),
        ("victory_points", "Victory points"),
        ("opponents_average", "Opponents' average"),
        ("first_places", "First places"),
        ("games", "Games"),
        ("byes", "Byes"),
    ]
    assert [key for key, _ in columns(Settings(tiebreaks=("games", "opponents_average")))] == [
        "rank",
        "name",
        "points",
        "games",
        "opponents_average",
        "victory_points",
        "first_places",
        "byes",
    ]


def test_every_column_has_a_value() -> None:
    settings = Settings(tiebreaks=("opponents_average",))
    ann = compute(PLAYERS, RESULTS, BYES, settings)[0]
    values = {key: ann.value(key) for key, _ in columns(settings)}
    assert values == {
        "rank": 1,
        "name": "Ann",
        "points": 13.0,
        "opponents_average": 8.22,
        "victory_points": 104,
        "first_places": 1,
        "games": 3,
        "byes": 0,
    }
    with pytest.raises(KeyError):
        ann.value("rating")


# --- input errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "results", "byes", "settings", "code", "message"),
    [
        ([], [], [], Settings(preset="elo"), "unknown_preset", "no scoring preset 'elo'; choose"),
        (
            [],
            [],
            [],
            Settings(tiebreaks=("buchholz",)),
            "unknown_tiebreak",
            "no tie-break 'buchholz'; choose among 'victory_points'",
        ),
        (
            [],
            [],
            [],
            Settings(tiebreaks=("games", "games")),
            "duplicate_tiebreak",
            "'games' is listed more than once",
        ),
        (
            [],
            [],
            [],
            Settings(bye_points=-1),
            "bad_bye_points",
            "points for a bye must be a number of 0 or more",
        ),
        ([], [], [], Settings(bye_points=float("nan")), "bad_bye_points", "not nan"),
        (
            [*ANN_BEN_CAT, Player("a", "Ada")],
            [],
            [],
            Settings(),
            "duplicate_player",
            "player id 'a' is registered twice",
        ),
        (
            ANN_BEN_CAT,
            [game(2, 5, ("a", 1, 0), ("zz", 2, 0))],
            [],
            Settings(),
            "unknown_player",
            "Round 2, table 5: player 'zz' is not registered in this tournament",
        ),
        (
            ANN_BEN_CAT,
            [],
            [Bye(3, "zz")],
            Settings(),
            "unknown_player",
            "Round 3: player 'zz' has a bye but is not registered",
        ),
        (
            ANN_BEN_CAT,
            [game(1, 4, ("a", 1, 0), ("b", 1, 0), ("c", 2, 0))],
            [],
            Settings(),
            "bad_places",
            "Round 1, table 4: places 1, 1, 2 are not possible for 3 players: players who share "
            "a place use up the places below it (did you mean 1, 1, 3?)",
        ),
        (
            ANN_BEN_CAT,
            [game(1, 1, ("a", 1, 0))],
            [],
            Settings(),
            "bad_places",
            "Round 1, table 1: a game needs at least 2 players, this one has 1",
        ),
        (
            ANN_BEN_CAT,
            [game(1, 1, ("a", 1, 0), ("b", 2, 0), ("a", 3, 0))],
            [],
            Settings(),
            "seated_twice",
            "Round 1, table 1: Ann is listed twice",
        ),
        (
            ANN_BEN_CAT,
            [game(1, 1, ("a", 1, 0), ("b", 2, 0)), game(1, 2, ("c", 1, 0), ("a", 2, 0))],
            [],
            Settings(),
            "seated_twice",
            "Round 1: Ann is at table 2 and table 1",
        ),
        (
            ANN_BEN_CAT,
            [game(1, 1, ("a", 1, 0), ("b", 2, 0))],
            [Bye(1, "b")],
            Settings(),
            "seated_twice",
            "Round 1: Ben has a bye and table 1",
        ),
        (
            ANN_BEN_CAT,
            [],
            [Bye(1, "c"), Bye(1, "c")],
            Settings(),
            "seated_twice",
            "Round 1: Cat has two byes",
        ),
        (
            [*ANN_BEN_CAT, Player("d", "Ann")],
            [game(1, 1, ("a", 1, 0), ("b", 2, 0)), game(1, 2, ("c", 1, 0), ("a", 2, 0))],
            [],
            Settings(),
            "seated_twice",
            "Round 1: Ann (a) is at table 2 and table 1",
        ),
        (
            ANN_BEN_CAT,
            [game(1, 1, ("a", 1, 0), ("b", 2, 0)), game(1, 1, ("c", 1, 0), ("b", 2, 0))],
            [],
            Settings(),
            "duplicate_table",
            "Round 1, table 1 has two results",
        ),
    ],
)
def test_input_errors(
    players: list[Player],
    results: list[GameResult],
    byes: list[Bye],
    settings: Settings,
    code: str,
    message: str,
) -> None:
    with pytest.raises(StandingsError) as caught:
        compute(players, results, byes, settings)
    assert caught.value.code == code
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_same_player_in_different_rounds_and_same_table_number_is_fine() -> None:
    results = [game(1, 1, ("a", 1, 0), ("b", 2, 0)), game(2, 1, ("a", 1, 0), ("b", 2, 0))]
    rows = compute(ANN_BEN_CAT, results, [Bye(1, "c"), Bye(2, "c")], Settings())
    assert [r.games + r.byes for r in rows] == [2, 2, 2]


def test_columns_refuse_an_unknown_tiebreak() -> None:
    with pytest.raises(StandingsError, match="no tie-break 'sos'"):
        columns(Settings(tiebreaks=("sos",)))


# --- properties against a naive recount ------------------------------------------------------


def naive_points(preset: str, placements: Sequence[Placement]) -> dict[str, Fraction]:
    """Seat the players in order of place, give each seat its preset points, then let every
    group sharing a place share its seats' points evenly."""
    scoring = PRESETS[preset]
    size = len(placements)
    seats = sorted(placements, key=lambda p: p.place)
    seat_points = [scoring.points(seat, size) for seat in range(1, size + 1)]
    groups: dict[int, list[Fraction]] = {}
    for placement, points in zip(seats, seat_points, strict=True):
        groups.setdefault(placement.place, []).append(points)
    return {p.player: sum(groups[p.place], F(0)) / len(groups[p.place]) for p in placements}


def naive_keys(
    players: Sequence[Player],
    results: Sequence[GameResult],
    byes: Sequence[Bye],
    settings: Settings,
) -> dict[str, tuple[Fraction, ...]]:
    """(points, tie-breaks in the settings' order) for each player, exactly."""
    points = {p.id: F(0) for p in players}
    vp = {p.id: 0 for p in players}
    firsts = {p.id: 0 for p in players}
    games = {p.id: 0 for p in players}
    met: dict[str, list[str]] = {p.id: [] for p in players}
    for result in results:
        for player, value in naive_points(settings.preset, result.placements).items():
            points[player] += value
        for placement in result.placements:
            vp[placement.player] += placement.victory_points
            games[placement.player] += 1
            firsts[placement.player] += placement.place == 1
            met[placement.player] += [
                other.player for other in result.placements if other is not placement
            ]
    largest = max((len(r.placements) for r in results), default=2)
    table = PRESETS[settings.preset].table(largest)
    bye = (
        F(str(settings.bye_points))
        if settings.bye_points is not None
        else sum(table, F(0)) / len(table)
    )
    for b in byes:
        points[b.player] += bye
        vp[b.player] += settings.bye_victory_points
    values: dict[str, dict[str, int] | dict[str, Fraction]] = {
        "victory_points": vp,
        "first_places": firsts,
        "games": games,
        "opponents_average": {
            p: sum((points[o] for o in met[p]), F(0)) / len(met[p]) if met[p] else F(0)
            for p in points
        },
    }
    return {
        p.id: (points[p.id], *(F(values[key][p.id]) for key in settings.tiebreaks)) for p in players
    }


def shown(value: Fraction) -> float:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


@st.composite
def tournaments(
    draw: st.DrawFn,
) -> tuple[list[Player], list[GameResult], list[Bye], Settings]:
    count = draw(st.integers(2, 14))
    players = [
        Player(f"p{i}", draw(st.sampled_from(["Ann", "Ben", "ann", "Cy"])), draw(st.booleans()))
        for i in range(count)
    ]
    results: list[GameResult] = []
    byes: list[Bye] = []
    for round_no in range(1, draw(st.integers(0, 4)) + 1):
        # Late entrants and dropped players: only some of the players take part in a round.
        present = draw(st.permutations([p.id for p in players]))
        present = present[: draw(st.integers(0, count))]
        table_no = 0
        while len(present) >= 2:
            size = draw(st.integers(2, min(6, len(present))))
            seated, present = present[:size], present[size:]
            scores = draw(st.lists(st.integers(0, 3), min_size=size, max_size=size))
            places = competition_places(scores)
            table_no += 1
            results.append(
                GameResult(
                    round_no,
                    table_no,
                    tuple(
                        Placement(p, k, s) for p, k, s in zip(seated, places, scores, strict=True)
                    ),
                )
            )
        byes += [Bye(round_no, p) for p in present]
    tiebreaks = draw(st.permutations(sorted(TIEBREAKS)))
    settings = Settings(
        preset=draw(st.sampled_from(sorted(PRESETS))),
        tiebreaks=tuple(tiebreaks[: draw(st.integers(0, len(tiebreaks)))]),
        bye_points=draw(st.sampled_from([None, 0.0, 1.5, 3.0, 0.1])),
        bye_victory_points=draw(st.integers(0, 10)),
    )
    return players, results, byes, settings


@given(tournaments())
def test_rows_agree_with_a_naive_recount(
    tournament: tuple[list[Player], list[GameResult], list[Bye], Settings],
) -> None:
    players, results, byes, settings = tournament
    rows = compute(players, results, byes, settings)
    keys = naive_keys(players, results, byes, settings)

    assert sorted(row.player for row in rows) == sorted(p.id for p in players)
    # Ranks never go down the table; rows are sorted by the exact (points, tie-breaks),
    # best first; equal keys share a rank (1 + the number of players strictly ahead) and are
    # listed by name, then id.
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    ordered = [keys[row.player] for row in rows]
    assert ordered == sorted(ordered, reverse=True)
    for row in rows:
        ahead = sum(1 for key in keys.values() if key > keys[row.player])
        assert row.rank == ahead + 1
    for before, after in zip(rows, rows[1:], strict=False):
        if before.rank == after.rank:
            assert (before.name.casefold(), before.name, before.player) < (
                after.name.casefold(),
                after.name,
                after.player,
            )
    # The figures shown are the exact values rounded to 2 decimals.
    for row in rows:
        points, *tiebreaks = keys[row.player]
        assert row.points == shown(points)
        assert row.tiebreaks == tuple(
            (key, shown(value)) for key, value in zip(settings.tiebreaks, tiebreaks, strict=True)
        )
    # The order of the input does not matter.
    assert compute(players[::-1], results[::-1], byes[::-1], settings) == rows


# --- boundaries ------------------------------------------------------------------------------


def test_standings_import_without_django() -> None:
    code = (
        "import sys\n"
        "sys.modules['django'] = None  # any import of Django fails\n"
        "import tournaments.standings\n"
        "loaded = {name.split('.')[0] for name, module in sys.modules.items() if module}\n"
        "assert not loaded & {'django', 'games', 'config', 'rest_framework'}, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


@given(
    st.one_of(
        st.integers(-10_000, 10_000),
        st.fractions(max_denominator=1_000).filter(lambda f: abs(f) < 10_000),
        st.sampled_from([Fraction(69, 8), Fraction(-69, 8), Fraction(1, 200), Fraction(-1, 200)]),
    )
)
def test_display_rounds_to_hundredths_halves_away_from_zero(value: Fraction | int) -> None:
    from tournaments.standings import display

    if isinstance(value, int):
        assert display(value) == float(value)
        return
    hundredths = math.floor(abs(value) * 100 + Fraction(1, 2))  # the rule, in exact arithmetic
    assert display(value) == (math.copysign(hundredths / 100, value) if hundredths else 0.0)
