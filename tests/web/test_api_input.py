"""Bad input never crashes the API nor slips through (issue 10, "no 500"): odd JSON types where
the record format wants a string, bodies nested too deeply or too large, lists too long, changes
to a voided game, player names that are blank or spelt two ways. Every refusal has the API's one
error shape (docs/api.md, "Errors" and "Limits")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.api.parsers import MAX_JSON_BYTES, MAX_JSON_DEPTH
from games.api.serializers import MAX_EVENTS
from tests.web.api import (
    SUITS,
    append,
    create,
    dump_log_and_projections,
    error,
    game_events,
)

pytestmark = pytest.mark.django_db


def post_raw(client: APIClient, path: str, body: str, **headers: str) -> Any:
    return client.generic(
        "POST", path, body, content_type="application/json", headers=headers or None
    )


def nested(depth: int) -> str:
    """A JSON value ``depth`` arrays deep."""
    return "[" * depth + "]" * depth


# ----------------------------------------------------------------------------- event types


@pytest.mark.parametrize("kind", [["card_played"], {"x": 1}, 3, None, True])
def test_an_event_type_that_is_not_a_string_is_refused(api: APIClient, kind: Any) -> None:
    game = create(api)
    before = dump_log_and_projections()
    response = append(api, game["id"], 1, [{"type": kind, "player": "p1", "card": "G3"}])
    assert response.status_code in (400, 422), response.content
    body = error(response)
    assert body["code"] in ("bad_request", "bad_event")
    assert dump_log_and_projections() == before


def test_an_event_that_is_not_an_object_is_refused(api: APIClient) -> None:
    game = create(api)
    response = append(api, game["id"], 1, ["card_played"])  # type: ignore[list-item]
    assert response.status_code in (400, 422), response.content
    assert error(response)["code"] in ("bad_request", "bad_event")


# ----------------------------------------------------------------------------- nesting


@pytest.mark.parametrize(
    "path",
    ["/api/auth/token/", "/api/games/", "/api/tournaments/"],
)
@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1000, 100_000])
def test_json_nested_too_deeply_is_bad_json(api: APIClient, path: str, depth: int) -> None:
    client = APIClient() if path == "/api/auth/token/" else api
    response = post_raw(client, path, '{"players": ' + nested(depth) + "}")
    assert response.status_code == 400, response.content
    body = error(response)
    assert body["code"] == "bad_json"
    assert str(MAX_JSON_DEPTH) in body["message"]


def test_json_nested_to_the_limit_is_read(api: APIClient) -> None:
    # {"players": [[...]]}: the object is level 1, so the arrays may be MAX_JSON_DEPTH - 1 deep.
    response = post_raw(api, "/api/games/", '{"players": ' + nested(MAX_JSON_DEPTH - 1) + "}")
    assert response.status_code == 400, response.content
    assert error(response)["code"] == "bad_request"  # read, then refused for its shape


def test_nesting_inside_strings_does_not_count(api: APIClient) -> None:
    response = post_raw(api, "/api/games/", json.dumps({"players": ["[" * 90, "{" * 90, "b", "c"]}))
    assert response.status_code == 201, response.content


# ----------------------------------------------------------------------------- size


@pytest.mark.parametrize("path", ["/api/auth/token/", "/api/games/", "/api/tournaments/"])
def test_a_json_body_over_the_limit_is_413_too_large(api: APIClient, path: str) -> None:
    client = APIClient() if path == "/api/auth/token/" else api
    body = json.dumps({"players": ["x" * 1000] * (MAX_JSON_BYTES // 1000 + 1)})
    response = post_raw(client, path, body)
    assert response.status_code == 413, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body_json = error(response)
    assert body_json["code"] == "too_large"


def test_a_body_over_djangos_own_limit_is_413_too_large(api: APIClient) -> None:
    """Above DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) too: JSON, not Django's HTML page."""
    game = create(api)
    body = json.dumps({"expected_version": 1, "events": [{"type": "x" * 3_000_000}]})
    response = post_raw(api, f"/api/games/{game['id']}/events/", body)
    assert response.status_code == 413, response.content[:300]
    assert error(response)["code"] == "too_large"


def test_too_many_events_in_one_request_are_refused_at_once(api: APIClient) -> None:
    game = create(api)
    events = [{"type": "card_played", "player": "p1", "card": "G3"}] * (MAX_EVENTS + 1)
    response = append(api, game["id"], 1, events)
    assert response.status_code == 400, response.content[:300]
    body = error(response)
    assert body["code"] == "bad_request"
    assert str(MAX_EVENTS) in body["message"]


def test_a_huge_list_is_counted_before_its_items_are_read(api: APIClient) -> None:
    """166,000 items (0.7 MB): refused for their number, without checking each."""
    game = create(api)
    response = append(api, game["id"], 1, [1] * 166_000)  # type: ignore[list-item]
    assert response.status_code == 400, response.content[:300]
    body = error(response)
    assert body["message"] == (
        f"events: Ensure this field has no more than {MAX_EVENTS} elements."
    ), body["message"][:300]


def test_a_whole_game_fits_in_one_request(api: APIClient) -> None:
    events = game_events()
    assert len(events) <= MAX_EVENTS
    game = create(api)
    response = append(api, game["id"], 1, events[1:])
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "finished"


# ----------------------------------------------------------------------------- void


def test_publishing_a_voided_game_is_refused(api: APIClient) -> None:
    game = create(api)
    voided = api.post(f"/api/games/{game['id']}/void/", {"expected_version": 1})
    assert voided.status_code == 201, voided.content
    before = dump_log_and_projections()
    response = api.post(f"/api/games/{game['id']}/publish/", {"expected_version": 2})
    assert response.status_code == 422, response.content
    assert error(response)["code"] == "game_void"
    assert dump_log_and_projections() == before


# ----------------------------------------------------------------------------- player names


@pytest.mark.parametrize("blank", ["   ", "\t", "\n\n", " \u00a0 ", ""])
def test_a_blank_player_name_is_refused(api: APIClient, blank: str) -> None:
    response = api.post("/api/games/", {"players": ["ana", "ben", blank, "dev"], "suits": SUITS})
    assert response.status_code == 422, response.content
    assert error(response)["code"] == "bad_players"


def test_player_names_are_normalised(api: APIClient) -> None:
    players = ["  ana  ", "ben\t\tbo", "Chlo\u0065\u0301", "dev"]
    response = api.post("/api/games/", {"players": players, "suits": SUITS})
    assert response.status_code == 201, response.content
    assert response.json()["state"]["players"] == ["ana", "ben bo", "Chlo\u00e9", "dev"]


def test_one_name_spelt_two_ways_is_one_player(api: APIClient) -> None:
    players = ["Chlo\u00e9", "Chlo\u0065\u0301", "ben", "dev"]
    response = api.post("/api/games/", {"players": players, "suits": SUITS})
    assert response.status_code == 422, response.content
    assert error(response)["code"] in ("bad_players", "bad_event")


def test_an_import_with_a_name_not_in_normal_form_is_refused(api: APIClient) -> None:
    game = create(api)
    assert append(api, game["id"], 1, game_events()[1:]).status_code == 201
    record = api.get(f"/api/games/{game['id']}/record/").content.decode()
    for spelt in ("  p1", "pe\u0301", " \t ", "\u200b"):
        odd = record.replace('"p1"', json.dumps(spelt))
        response = api.generic(
            "POST", "/api/games/import/", odd.encode(), content_type="application/jsonl"
        )
        assert response.status_code == 422, response.content
        body = error(response)
        assert body["code"] == "bad_players" and body["event"] == 0
