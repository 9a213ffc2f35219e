"""What the schema says, the API does: the mismatches schemathesis found (issue 10), pinned.
The bounded schemathesis run itself is tests/web/test_api_schema_fuzz.py."""

from __future__ import annotations

import uuid
from typing import Any

import jsonschema
import pytest
import yaml
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.services import Refused
from tests.web.api import create, error
from tournaments import services as tournaments

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


@pytest.mark.parametrize(
    "query",
    [
        "/api/games/{game}/events/?since=false&since=0",
        "/api/games/?offset=1&offset=2",
        "/api/games/?limit=1&limit=1",
        "/api/events/?after=1&after=2",
    ],
)
def test_a_query_parameter_given_twice_is_refused(api: APIClient, query: str) -> None:
    """The schema's query parameters are one value each (schemathesis sent ``since`` as an
    array, and the server read its last value)."""
    game = create(api)
    response = api.get(query.format(game=game["id"]))
    assert response.status_code == 400, response.content
    assert "only once" in error(response)["message"]


def test_page_parameters_have_their_bounds_in_the_schema(schema: dict[str, Any]) -> None:
    for path in ("/api/games/", "/api/tournaments/"):
        assert parameter(schema, path, "get", "limit")["schema"]["minimum"] == 1
        assert parameter(schema, path, "get", "limit")["schema"]["maximum"] == 200
        assert parameter(schema, path, "get", "offset")["schema"]["minimum"] == 0
        assert "400" in schema["paths"][path]["get"]["responses"]


def test_a_tournaments_path_says_which_rounds_tables_and_players_it_can_name(
    schema: dict[str, Any], api: APIClient
) -> None:
    """Round 0, table 0 or player ``0`` name nothing a tournament can have: the schema says so
    (a schema-valid request is never refused for its shape), and the server refuses them."""
    bounds = {"round": (1, 30), "table": (1, None)}
    named = set()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for p in operation.get("parameters", ()):
                if p["in"] == "path" and p["name"] in bounds:
                    least, most = bounds[p["name"]]
                    assert p["schema"]["minimum"] == least, (method, path)
                    assert p["schema"].get("maximum") == most, (method, path)
                    named.add(p["name"])
                elif p["in"] == "path" and p["name"] == "player":
                    assert p["schema"]["pattern"] == "^P[1-9][0-9]*$", (method, path)
                    named.add(p["name"])
    assert named == {"round", "table", "player"}
    tid = api.post(
        "/api/tournaments/", {"name": "Spring", "date": "2026-03-14", "rounds": 3}
    ).json()["id"]
    for path in ("rounds/0/close/", "rounds/1/tables/0/confirm/", "players/0/drop/"):
        response = api.post(f"/api/tournaments/{tid}/{path}", {})
        assert response.status_code == 422, (path, response.content)
        assert error(response)["code"] in ("unknown_round", "unknown_table", "unknown_player")


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


# ----------------------------------------------------------------------------- issue 22

ISSUE_22_REFUSED = [
    # (component, a body the server refuses for its shape alone)
    ("GameCreate", {"players": []}),
    ("GameCreate", {"players": ["ana", "ben", "cleo"]}),  # three players name their suits
    ("GameCreate", {"players": ["ana", "ana", "ben", "cleo"]}),
    ("FoodTruckCreate", {"game_type": "food-truck", "players": ["ana"]}),
    ("ChefsCreate", {"game_type": "chefs", "players": ["a", "b", "c", "d", "e", "f", "g"]}),
    ("GameAppend", {"expected_version": 1, "events": []}),
    ("TournamentCreate", {"name": "Open", "date": "2026-12-01", "rounds": 0}),
    ("TournamentCreate", {"name": "Open", "date": "2026-12-01", "rounds": 31}),
    ("TournamentCreate", {"name": "Open", "date": "2026-12-01", "rounds": 3, "scoring": "x"}),
    ("TournamentCreate", {"name": "Open", "date": "2026-12-01", "rounds": 3, "table_size": 5}),
    ("TournamentCreate", {"name": " ", "date": "2026-12-01", "rounds": 3}),
    ("PatchedTournamentSettingsChange", {}),
    ("PatchedTournamentSettingsChange", {"expected_version": 3}),
    ("TournamentClock", {"ends_at": "2026-12-01T20:00:00Z", "minutes": 30}),
    ("TournamentClock", {"stop": False}),
    ("TournamentClock", {}),
    ("TournamentRegister", {"names": []}),
    ("TournamentRegister", {"text": "Ana", "ratings": [1500]}),
    ("TournamentRegister", {"teams": [{"name": "A", "members": ["a", "b"], "x": 1}]}),
    ("TournamentRole", {"username": "a\x00b", "role": "scorekeeper"}),
]
ISSUE_22_TAKEN = [
    ("GameCreate", {"players": ["ana", "ben", "cleo"], "suits": ["green", "red", "blue"]}),
    ("GameCreate", {"players": ["ana", "ben", "cleo", "dev"]}),
    ("TournamentCreate", {"name": "Open", "date": "2026-12-01", "rounds": 3, "table_size": 4}),
    (
        "TournamentCreate",
        {"name": "Open", "date": "2026-12-01", "rounds": 3, "game_type": "chefs", "table_size": 6},
    ),
    ("PatchedTournamentSettingsChange", {"rounds": 4}),
    ("TournamentClock", {"minutes": 30, "stop": False}),
    ("TournamentRegister", {"names": ["Ana", "Ben"], "ratings": [1500, None]}),
]


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0's schema as JSON Schema's: ``nullable: true`` is a type that takes null."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable") and "type" in node:
        out["type"] = [node["type"], "null"]
    return out


def _valid(schema: dict[str, Any], component: str, body: Any) -> bool:
    root = {
        "$ref": f"#/components/schemas/{component}",
        "components": _json_schema(schema["components"]),
    }
    return bool(jsonschema.Draft202012Validator(root).is_valid(body))


@pytest.mark.parametrize(("component", "body"), ISSUE_22_REFUSED)
def test_the_schema_refuses_what_the_server_refuses_for_its_shape(
    schema: dict[str, Any], component: str, body: Any
) -> None:
    assert not _valid(schema, component, body)


@pytest.mark.parametrize(("component", "body"), ISSUE_22_TAKEN)
def test_the_schema_takes_what_the_server_takes(
    schema: dict[str, Any], component: str, body: Any
) -> None:
    assert _valid(schema, component, body)


def test_the_issue_22_probes_are_refused_by_the_server(api: APIClient) -> None:
    tournament = api.post(
        "/api/tournaments/", {"name": "Club night", "date": "2026-12-01", "rounds": 3}
    )
    tid = tournament.json()["id"]
    game = create(api)["id"]
    for method, path, body in [
        ("post", "/api/games/", {"players": []}),
        ("post", f"/api/games/{game}/events/", {"expected_version": 1, "events": []}),
        ("post", "/api/tournaments/", {"name": "Open", "date": "2026-12-01", "rounds": 0}),
        ("patch", f"/api/tournaments/{tid}/settings/", {}),
        (
            "post",
            f"/api/tournaments/{tid}/rounds/1/clock/",
            {"ends_at": "2026-12-01T20:00:00Z", "minutes": 30},
        ),
        ("post", f"/api/tournaments/{tid}/players/", {"names": []}),
    ]:
        response = getattr(api, method)(path, body, format="json")
        assert response.status_code in (400, 422), (path, body, response.content)


def test_a_settings_change_needs_its_body(schema: dict[str, Any]) -> None:
    patch = schema["paths"]["/api/tournaments/{tournament_id}/settings/"]["patch"]
    assert patch["requestBody"]["required"] is True
    for path, method in [
        ("/api/games/", "post"),
        ("/api/tournaments/{tournament_id}/players/", "post"),
        ("/api/tournaments/{tournament_id}/rounds/{round}/clock/", "post"),
    ]:
        assert schema["paths"][path][method]["requestBody"]["required"] is True, path


@pytest.mark.parametrize("name", ["standings.csv", "results.csv", "results.jsonl", "games.zip"])
def test_a_download_not_released_is_a_documented_403(
    schema: dict[str, Any], anon: APIClient, api: APIClient, name: str
) -> None:
    responses = schema["paths"][f"/api/tournaments/{{tournament_id}}/{name}"]["get"]["responses"]
    assert responses["403"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    assert "released" in responses["403"]["description"]
    tid = api.post("/api/tournaments/", {"name": "Open", "date": "2026-12-01", "rounds": 3})
    response = anon.get(f"/api/tournaments/{tid.json()['id']}/{name}")
    assert response.status_code == 403
    assert error(response)["code"] == "forbidden"


def test_one_rating_per_name_is_the_rules_to_check(api: APIClient, ana: User) -> None:
    """The schema cannot say "as many ratings as names": the rules refuse it (422, not a 400
    for a body the schema allows), and nothing is registered; a direct call too (it indexed
    past the ratings)."""
    tid = api.post("/api/tournaments/", {"name": "Open", "date": "2026-12-01", "rounds": 3})
    tid = tid.json()["id"]
    for ratings in ([1500], [1500, None, 1600]):
        response = api.post(
            f"/api/tournaments/{tid}/players/", {"names": ["Ana", "Ben"], "ratings": ratings}
        )
        assert response.status_code == 422, response.content
        assert error(response)["code"] == "bad_players"
        assert "one rating (or null) per name" in error(response)["message"]
    with pytest.raises(Refused) as refused:
        tournaments.tournament_register(
            tournament_id=uuid.UUID(tid), user=ana, names=["Ana", "Ben"], ratings=[1500]
        )
    assert refused.value.code == "bad_players"
    assert api.get(f"/api/tournaments/{tid}/").json()["players"] == []
