"""The tournament's version, the public standings' one query a visit
(tournaments.services.reads.tournament_version): on PostgreSQL it is the kept connection's health
check itself (no ``SELECT 1`` before it), and a connection that died meanwhile is replaced."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from tournaments import services as t


@pytest.fixture
def tournament_id(committed_db: None, make_user: Callable[..., Any]) -> Any:
    """A tournament, read outside any transaction (as a visit reads it)."""
    if connection.vendor != "postgresql":
        pytest.skip("the version query replaces the health check on PostgreSQL only")
    organizer = make_user("organizer")
    made = t.tournament_create(user=organizer, name="Open", date="2026-12-05", rounds=3)
    return made.tournament_id


def test_the_version_query_is_the_connections_health_check(
    tournament_id: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = t.tournament_version(tournament_id)
    checks: list[bool] = []
    usable = connection.is_usable

    def counted() -> bool:
        checks.append(True)
        return usable()

    monkeypatch.setattr(connection, "is_usable", counted)
    connection.close_if_unusable_or_obsolete()  # a request starts: its connection unchecked
    assert getattr(connection, "health_check_done", None) is False
    assert t.tournament_version(tournament_id) == expected
    assert checks == [], "no SELECT 1 before the query"
    # the request's other queries: no check either
    assert getattr(connection, "health_check_done", None) is True


def test_a_kept_connection_that_died_is_replaced(tournament_id: Any) -> None:
    expected = t.tournament_version(tournament_id)
    connection.connection.close()  # the server restarted: Django still holds the dead one
    connection.close_if_unusable_or_obsolete()
    assert t.tournament_version(tournament_id) == expected
