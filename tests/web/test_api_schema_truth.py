"""What the schema says, the API does: the mismatches schemathesis found (issue 10), pinned.
The bounded schemathesis run itself is tests/web/test_api_schema_fuzz.py."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from tests.web.api import create, error

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    client = APIClient()
    return dict(yaml.safe_load(client.get("/api/schema/").content))


def parameter(schema: dict[str, Any], path: str, method: str, name: str) -> dict[str, Any]:
    found = [p for p in schema["paths"][path][method]["parameters"] if p["name"] == name]
    assert found, f"{method.upper()} {path} has no parameter {name}"
    return dict(found[0])


@pytest.mark.parametrize(
    "query", ["/api/events/?after=", "/api/games/{game}/events/?since=", "/api/events/?limit="]
)
def test_an_empty_query_parameter_is_refused(api: APIClient, query: str) -> None:
    game = create(api)
    response = api.get(query.format(game=game["id"]))
    assert response.status_code == 400, response.content
    assert "may not be empty" in error(response)["message"]


@pytest.mark.parametrize("query", ["offset=null", "offset=-1", "limit=0", "limit=201", "limit=x"])
@pytest.mark.parametrize("path", ["/api/games/", "/api/tournaments/"])
def test_a_bad_page_parameter_is_refused(api: APIClient, path: str, query: str) -> None:
    response = api.get(f"{path}?{query}")
    assert response.status_code == 400, response.content
    assert error(response)["code"] == "bad_request"


def test_page_parameters_have_their_bounds_in_the_schema(schema: dict[str, Any]) -> None:
    for path in ("/api/games/", "/api/tournaments/"):
        assert parameter(schema, path, "get", "limit")["schema"]["minimum"] == 1
        assert parameter(schema, path, "get", "limit")["schema"]["maximum"] == 200
        assert parameter(schema, path, "get", "offset")["schema"]["minimum"] == 0
        assert "400" in schema["paths"][path]["get"]["responses"]


@pytest.mark.parametrize(
    ("path", "header"),
    [
        ("/api/games/", "Idempotency-Key"),
        ("/api/games/", "X-Request-ID"),
        ("/api/tournaments/", "X-Request-ID"),
    ],
)
def test_header_limits_are_in_the_schema(schema: dict[str, Any], path: str, header: str) -> None:
    described = parameter(schema, path, "post", header)["schema"]
    assert (described["minLength"], described["maxLength"]) == (1, 200)
    assert described["pattern"] == "^[ -~]{1,200}$"


def test_a_header_out_of_its_pattern_is_refused(api: APIClient) -> None:
    response = api.post(
        "/api/games/", {"players": ["a", "b", "c", "d"]}, headers={"X-Request-ID": "caf\u00e9"}
    )
    assert response.status_code == 400
    assert error(response)["message"].startswith("X-Request-ID:")


def test_request_bodies_name_every_key_they_take(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for name in ("GameCreate", "GameAppend", "TokenRequest", "TournamentCreate"):
        assert components[name]["additionalProperties"] is False, name
    assert components["TournamentRegister"]["oneOf"] == [
        {"required": ["names"]},
        {"required": ["text"]},
        {"required": ["teams"]},
    ]
    assert {"required": ["name"]} in components["PatchedTournamentSettingsChange"]["anyOf"]
    assert components["TokenRequest"]["properties"]["username"]["minLength"] == 1


def test_every_json_write_documents_413_too_large(schema: dict[str, Any]) -> None:
    assert "Error" in schema["components"]["schemas"]
    writes = [
        (path, method, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    ]
    assert len(writes) > 20
    for path, method, operation in writes:
        assert "too_large" in operation["responses"]["413"]["description"], (method, path)


def test_null_scores_are_the_rules_to_refuse(api: APIClient) -> None:
    game = create(api)
    response = api.post(
        f"/api/games/{game['id']}/results/",
        {"expected_version": 1, "scores": {"p1": [None, 1, 2]}, "totals": {"p1": None}},
        format="json",
    )
    assert response.status_code == 422, response.content
    assert error(response)["code"] == "bad_results"


def test_an_empty_text_player_list_is_an_empty_list(api: APIClient) -> None:
    tournament = api.post(
        "/api/tournaments/", {"name": "Club night", "date": "2026-12-01", "rounds": 3}
    )
    assert tournament.status_code == 201, tournament.content
    response = api.generic(
        "POST",
        f"/api/tournaments/{tournament.json()['id']}/players/",
        "",
        content_type="text/plain",
    )
    assert response.status_code == 422, response.content
    assert error(response)["code"] == "bad_players"
