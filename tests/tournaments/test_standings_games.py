"""Standings of every game type, through the services: small Swiss tournaments of Food Truck,
Chefs and Crazy Kitchen, each table finished with a results-only entry (docs/standings.md).

Crazy Kitchen's entrants are teams registered with their players (two each:
tests.tournaments.helpers.new_tournament), which publishing gives each table's game."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.tournaments.helpers import new_tournament, play_round
from tournaments import rounds
from tournaments import services as t
from tournaments.standings import PRESETS

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


def by_name(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in data["rows"]}


def scaled(size: int, place: int) -> float:
    return float(PRESETS["scaled"].points(place, size))


def test_food_truck_ranks_by_scaled_placement_points_then_victory_points(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    names = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    tid = new_tournament(organizer, names=names, game_type="food-truck", confirmation="auto")

    def entry(seated: list[str]) -> dict[str, Any]:  # seat 1 wins with 3, then 2, 1, 0...
        points = {n: max(0, 3 - i) for i, n in enumerate(seated)}
        return {"victory_points": points, "winner": seated[0]}

    rnd = play_round(tid, organizer, django_capture_on_commit_callbacks, entry)
    data = t.tournament_standings(tournament_id=tid, user=None)

    assert [(c["key"], c["title"]) for c in data["columns"]] == [
        ("rank", "Rank"),
        ("name", "Player"),
        ("points", "Points"),
        ("game_points", "Victory points"),
        ("first_places", "First places"),
        ("games", "Games"),
        ("byes", "Byes"),
    ]
    rows = by_name(data)
    for table in rnd["tables"]:
        seated = [s["name"] for s in table["seats"]]
        for place, name in enumerate(seated, start=1):
            row = rows[name]
            assert row["points"] == scaled(len(seated), place)
            assert row["tiebreaks"]["game_points"] == max(0, 4 - place)
            assert row["victory_points"] == max(0, 4 - place)
            assert row["first_places"] == row["tiebreaks"]["first_places"] == (place == 1)
    # points first, then victory points, then first places; equal rows share a rank, by name
    order = sorted(
        data["rows"],
        key=lambda r: (-r["points"], -r["victory_points"], -r["first_places"], r["name"]),
    )
    assert data["rows"] == order
    winners = [r for r in data["rows"] if r["first_places"]]
    assert {r["rank"] for r in winners} == {1} and len(winners) == len(rnd["tables"])
    assert data["rule"] == {
        "game_type": "food-truck",
        "kind": "place",
        "match_points": None,
        "bye": None,
        "scale": "scaled",
        "bye_points": 3.0,
        "tiebreaks": [  # Food Truck has no tie-break of its own: none explained
            {
                "key": "game_points",
                "title": "Victory points",
                "description": "The victory points added up over all games (a bye adds none).",
            },
            {
                "key": "first_places",
                "title": "First places",
                "description": "The number of games won (a shared first place counts; a bye "
                "does not).",
            },
        ],
    }


def test_chefs_split_shared_places_and_follow_the_scoring_preset(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    names = ["Ana", "Ben", "Cleo", "Dev"]
    tid = new_tournament(
        organizer, names=names, game_type="chefs", confirmation="auto", scoring="placement"
    )

    def entry(seated: list[str]) -> dict[str, Any]:  # seats 1 and 2 share first place
        positions = [21, 21, 15, 12, 9, 5]
        return {"positions": {n: positions[i] for i, n in enumerate(seated)}}

    rnd = play_round(tid, organizer, django_capture_on_commit_callbacks, entry)
    data = t.tournament_standings(tournament_id=tid, user=None)
    rows = by_name(data)
    for table in rnd["tables"]:
        seated = [s["name"] for s in table["seats"]]
        size = len(seated)
        first, second = rows[seated[0]], rows[seated[1]]
        # under "placement", two sharing 1st cover 1st and 2nd: (n-1 + n-2) / 2 each
        assert first["points"] == second["points"] == (size - 1 + size - 2) / 2
        assert first["rank"] == second["rank"] and first["first_places"] == 1
        assert first["victory_points"] == 21
    titles = {c["key"]: c["title"] for c in data["columns"]}
    assert titles["game_points"] == "Final positions" and data["rule"]["scale"] == "placement"


def test_crazy_kitchen_is_a_match_game_with_a_bye_as_a_win(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    teams = ["Pizza", "Fries", "Tacos", "Sushi", "Curry"]
    tid = new_tournament(organizer, names=teams, game_type="crazy-kitchen", confirmation="auto")
    # seat 1 cooks first: rounds 1, 3, 5 (10 + 8 + 7 = 25); seat 2: 12 + 9 + 10 = 31
    rnd = play_round(
        tid,
        organizer,
        django_capture_on_commit_callbacks,
        lambda seated: {"scores": [10, 12, 8, 9, 7, 10]},
    )
    data = t.tournament_standings(tournament_id=tid, user=None)

    assert [(c["key"], c["title"]) for c in data["columns"]] == [
        ("rank", "Rank"),
        ("name", "Team"),
        ("points", "Match points"),
        ("point_difference", "Point difference"),
        ("points_scored", "Points scored"),
        ("wins", "Wins"),
        ("draws", "Draws"),
        ("losses", "Losses"),
        ("games", "Games"),
        ("byes", "Byes"),
    ]
    [bye] = [b["name"] for b in rnd["byes"]]
    winners = sorted(tb["seats"][1]["name"] for tb in rnd["tables"])
    losers = sorted(tb["seats"][0]["name"] for tb in rnd["tables"])
    shown = [
        (r["rank"], r["name"], r["points"], r["tiebreaks"], r["wins"], r["draws"], r["losses"])
        for r in data["rows"]
    ]
    won = {"point_difference": 6.0, "points_scored": 31.0}
    lost = {"point_difference": -6.0, "points_scored": 25.0}
    assert shown == [
        *[(1, name, 2.0, won, 1, 0, 0) for name in winners],
        (3, bye, 2.0, {"point_difference": 0.0, "points_scored": 0.0}, 1, 0, 0),
        *[(4, name, 0.0, lost, 0, 0, 1) for name in losers],
    ]
    assert by_name(data)[bye]["byes"] == 1 and by_name(data)[bye]["games"] == 0
    rule = data["rule"]
    assert rule["kind"] == "match" and rule["bye"] == "win" and rule["bye_points"] == 2.0
    assert rule["match_points"] == {"win": 2, "draw": 1, "loss": 0}
    assert [c["key"] for c in rule["tiebreaks"]] == ["point_difference", "points_scored"]

    # round 2 is paired by these standings: a team's points are its match points
    request = rounds.pairing_request(t.tournament_state(tid), 2, (2,))
    assert [e.points for e in request.entrants][:2] == [2.0, 2.0]


def test_a_draw_gives_each_team_one_match_point(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = new_tournament(
        organizer, names=["Pizza", "Fries"], game_type="crazy-kitchen", confirmation="auto"
    )
    play_round(
        tid,
        organizer,
        django_capture_on_commit_callbacks,
        lambda seated: {"scores": [10, 10, 8, 8, 7, 7]},
    )
    rows = t.tournament_standings(tournament_id=tid, user=None)["rows"]
    assert [(r["rank"], r["name"], r["points"], r["draws"]) for r in rows] == [
        (1, "Fries", 1.0, 1),
        (1, "Pizza", 1.0, 1),
    ]


def test_trick_n_chef_standings_keep_their_shape(organizer: User) -> None:
    tid = new_tournament(organizer, names=["Ana", "Ben", "Cleo"])
    data = t.tournament_standings(tournament_id=tid, user=None)
    # no "rule": its settings say how it ranks; not_checked_in was added (issue 23, item 10)
    assert set(data) == {"columns", "rows", "not_checked_in"}
    assert [c["key"] for c in data["columns"]][:3] == ["rank", "name", "points"]
