"""Bad input never crashes the API nor slips through (issue 10, "no 500"): odd JSON types where
the record format wants a string, bodies nested too deeply or too large, lists too long, changes
to a voided game, player names that are blank or spelt two ways. Every refusal has the API's one
error shape (docs/api.md, "Errors" and "Limits")."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.web.test_api import (
    append,
    create,
    dump_log_and_projections,
    error,
    token_client,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("ana", password="s3cret-pass")


@pytest.fixture
def api(ana: User) -> APIClient:
    return token_client(ana)


def post_raw(client: APIClient, path: str, body: bytes | str, **headers: str) -> Any:
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
