"""The tournaments API for other games: the game type and table size at creation (a size the
game does not allow: 422 in words), teams registered with their players, and the teams'
players in the summary's entrants and pairings."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.gametypes import GAME_TYPES

pytestmark = pytest.mark.django_db

TEAMS = [
    {"name": "Pizza", "members": ["Ana", "Ben"]},
    {"name": "Fries", "members": ["Cleo", "Dev", "Eli"]},
    {"name": "Sushi", "members": ["Fay", "Gus"]},
    {"name": "Tacos", "members": ["Hal", "Ivo"]},
]


def create(client: APIClient, **settings: Any) -> Any:
    body = {"name": "Spring Open", "date": "2026-03-14", "rounds": 3, "seed": 7, **settings}
    return client.post("/api/tournaments/", body, format="json")


def test_a_tournament_of_each_game_takes_the_table_sizes_it_allows(
    api: APIClient, game_key: str
) -> None:
    sizes = GAME_TYPES[game_key].table_sizes
    for size in sizes:
        response = create(api, game_type=game_key, table_size=size)
        assert response.status_code == 201, (size, response.content)
        summary = response.json()["tournament"]
        assert (summary["game_type"], summary["settings"]["table_size"]) == (game_key, size)
    response = create(api, game_type=game_key, table_size=max(sizes) + 1)
    assert response.status_code == 422, response.content
    assert response.json()["error"]["code"] == "bad_settings"


def test_a_tournament_of_another_game_with_its_table_size(api: APIClient) -> None:
    response = create(api, game_type="chefs", table_size=4)
    assert response.status_code == 201, response.content
    summary = response.json()["tournament"]
    assert (summary["game_type"], summary["settings"]["table_size"]) == ("chefs", 4)
    tid = summary["id"]
    changed = api.patch(f"/api/tournaments/{tid}/settings/", {"table_size": 5}, format="json")
    assert changed.status_code == 201, changed.content
    assert changed.json()["tournament"]["settings"]["table_size"] == 5


def test_a_table_size_the_game_does_not_allow_is_refused_in_words(api: APIClient) -> None:
    response = create(api, game_type="food-truck", table_size=6)
    assert response.status_code == 422
    assert response.json()["error"] == {
        "code": "bad_settings",
        "message": "a Food Truck table seats 2 to 5 players, not 6",
    }


def test_teams_register_and_show_their_players_in_the_pairings(api: APIClient) -> None:
    tid = create(api, game_type="crazy-kitchen", round1="order").json()["tournament"]["id"]
    players = f"/api/tournaments/{tid}/players/"
    registered = api.post(players, {"teams": TEAMS, "checked_in": True}, format="json")
    assert registered.status_code == 201, registered.content
    entrants = registered.json()["tournament"]["players"]
    assert [(p["name"], p["members"]) for p in entrants] == [
        (team["name"], team["members"]) for team in TEAMS
    ]
    paired = api.post(f"/api/tournaments/{tid}/rounds/", {}, format="json")
    assert paired.status_code == 201, paired.content
    (rnd,) = paired.json()["tournament"]["rounds"]
    members = {team["name"]: team["members"] for team in TEAMS}
    for table in rnd["tables"]:
        assert len(table["seats"]) == 2
        assert all(seat["members"] == members[seat["name"]] for seat in table["seats"])


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"teams": [{"name": "Solo", "members": ["Jo"]}]}, "bad_team", "team Solo has 1 player"),
        ({"names": ["Pizza"]}, "bad_players", "this tournament's entrants are teams"),
        ({"names": ["A"], "teams": TEAMS}, "invalid", "give one of names, text or teams"),
    ],
)
def test_a_team_registration_the_game_cannot_take_is_refused(
    api: APIClient, body: dict[str, Any], code: str, words: str
) -> None:
    tid = create(api, game_type="crazy-kitchen").json()["tournament"]["id"]
    response = api.post(f"/api/tournaments/{tid}/players/", body, format="json")
    assert response.status_code in (400, 422), response.content
    assert words in str(response.json())
    if response.status_code == 422:
        assert response.json()["error"]["code"] == code
