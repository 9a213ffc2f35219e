"""A game registered after every module was imported (the toy High Card, tests/highcard/) goes
through the API like the four: created with its own body, its events appended, its results
entered in its own shape, read back, exported and imported; the schema documents it in every
one-of-each-game shape and the enum of game keys. No shared file names it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.web.api import append, dump_log_and_projections, error

pytestmark = pytest.mark.django_db


def new_game(api: APIClient, key: str, **extra: Any) -> Any:
    return api.post("/api/games/", {"game_type": key, "players": ["Ann", "Bo"], **extra})


def test_a_game_registered_later_is_played_through_the_api(api: APIClient, high_card: str) -> None:
    created = new_game(api, high_card, published=True)
    assert created.status_code == 201, created.content
    game = created.json()
    assert game["state"]["status"] == "in_progress"
    cards = [
        {"type": "card_played", "player": "Ann", "card": 4},
        {"type": "card_played", "player": "Bo", "card": 9},
    ]
    response = append(api, game["id"], game["version"], cards)
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "finished"

    detail = APIClient().get(f"/api/games/{game['id']}/").json()  # published: anyone reads it
    assert (detail["game_type"], detail["status"], detail["results_only"]) == (
        high_card,
        "finished",
        False,
    )
    assert [(r["player"], r["seat"], r["rank"], r["points"]) for r in detail["results"]] == [
        ("Bo", 2, 1, 9),
        ("Ann", 1, 2, 4),
    ]
    events = api.get(f"/api/games/{game['id']}/events/").json()["events"]
    assert [e["type"] for e in events] == ["game_started", "game_published", *["card_played"] * 2]

    record = api.get(f"/api/games/{game['id']}/record/")
    assert record.status_code == 200
    lines = [json.loads(line) for line in record.content.decode().splitlines()]
    assert lines == [{"type": "game_started", "game": high_card, "players": ["Ann", "Bo"]}, *cards]
    imported = api.generic(
        "POST",
        "/api/games/import/",
        record.content.decode(),
        content_type="application/jsonl",
    )
    assert imported.status_code == 201, imported.content
    assert api.get(imported["Location"]).json()["results"] == detail["results"]


def test_its_results_only_entry_in_its_own_shape(api: APIClient, high_card: str) -> None:
    game = new_game(api, high_card).json()
    before = dump_log_and_projections()
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"cards": {"Ann": 11, "Bo": 2}}, 422, "bad_card"),  # the rules': a card is 1 to 10
        ({"cards": [4, 9]}, 400, "bad_request"),  # its shape: a map
        ({"cards": {"Ann": 1}, "positions": {}}, 400, "bad_request"),  # another game's key
        ({"positions": {"Ann": 1, "Bo": 2}}, 422, "bad_results"),  # another game's entry
    ]
    for entry, status, code in cases:
        response = api.post(
            f"/api/games/{game['id']}/results/",
            {"expected_version": game["version"], **entry},
            format="json",
        )
        assert response.status_code == status, (entry, response.content)
        assert error(response)["code"] == code
    assert dump_log_and_projections() == before

    response = api.post(
        f"/api/games/{game['id']}/results/",
        {"expected_version": game["version"], "cards": {"Ann": 7, "Bo": 3}},
        format="json",
    )
    assert response.status_code == 201, response.content
    detail = api.get(f"/api/games/{game['id']}/").json()
    assert detail["results_only"] is True and detail["status"] == "finished"
    assert [r["player"] for r in detail["results"]] == ["Ann", "Bo"]


def test_its_create_body_is_its_own(api: APIClient, high_card: str) -> None:
    before = dump_log_and_projections()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"suits": ["red", "blue", "green"]}, "suits"),  # Trick-n-Chef's option
        ({"members": {"Ann": ["x"]}}, "members"),  # a team game's
    ]
    for extra, field in cases:
        response = new_game(api, high_card, **extra)
        assert response.status_code == 400, response.content
        assert field in error(response)["details"]
    response = api.post("/api/games/", {"game_type": high_card, "players": ["Ann"]})
    assert response.status_code == 422, response.content
    assert dump_log_and_projections() == before


def test_before_it_is_registered_it_is_not_a_game(api: APIClient) -> None:
    response = new_game(api, "high-card")
    assert response.status_code == 400
    assert "game_type" in error(response)["details"]


def test_the_schema_documents_it_in_every_game_shape(anon: APIClient, high_card: str) -> None:
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]

    def shapes(name: str) -> list[str]:
        component = components[name]
        listed = component.get("oneOf") or component.get("anyOf")
        return [item["$ref"].rpartition("/")[2] for item in listed]

    assert shapes("NewGame")[-1] == "HighCardCreate"
    assert shapes("GameResults")[-1] == "HighCardResults"
    assert shapes("GameState")[-1] == "HighCardSummary"
    assert shapes("RecordEvent")[-1] == "HighCardEvent"
    # Its own body rule: two players; a closed body.
    create = components["HighCardCreate"]
    assert create["properties"]["players"]["minItems"] == 2
    assert create["properties"]["players"]["maxItems"] == 2
    assert create["additionalProperties"] is False
    imports = schema["paths"]["/api/games/import/"]["post"]["parameters"]
    (game_type,) = [p for p in imports if p["name"] == "game_type"]
    assert game_type["schema"]["enum"][-1] == high_card
    # The tournaments' settings: its key and its table size.
    tournament = components["TournamentCreate"]["properties"]
    assert tournament["game_type"]["enum"][-1] == high_card
    assert "`high-card`" in tournament["game_type"]["description"]
    assert "High Card 2 (null" in tournament["table_size"]["description"]
