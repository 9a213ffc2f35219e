"""Helpers of the REST API tests (tests/web/test_api*.py): requests, the legal game they play,
and the database dump that refusals must leave unchanged. Their fixtures are in conftest.py."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games.models import Event, GameProjection, GameResult

PLAYERS = ["p1", "p2", "p3", "p4"]
SUITS = ["green", "red", "yellow", "blue"]


def game_events(seed: int = 1) -> list[dict[str, Any]]:
    """A whole legal 4-player game as record-format objects; [0] is game_started."""
    return [to_json(e) for e in simulate(seed, 4)]


def dump_log_and_projections() -> str:
    """Every row of the event log and the game projections, in primary key order."""
    parts = []
    with connection.cursor() as cursor:
        for model in (Event, GameProjection, GameResult):
            table = model._meta.db_table
            pk = model._meta.pk
            assert pk is not None
            cursor.execute(f"SELECT * FROM {table} ORDER BY {pk.column}")
            columns = [c[0] for c in cursor.description]
            parts.append(repr((table, columns, cursor.fetchall())))
    return "\n".join(parts)


def error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["code"], str) and body["error"]["message"], body
    return dict(body["error"])


def create(client: APIClient, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/games/", {"players": PLAYERS, "suits": SUITS, **extra})
    assert response.status_code == 201, response.content
    return dict(response.json())


def append(
    client: APIClient, game_id: str, version: int, events: list[dict[str, Any]], **headers: str
) -> Any:
    return client.post(
        f"/api/games/{game_id}/events/",
        {"expected_version": version, "events": events},
        headers=headers,
    )


def token_client(user: User) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
