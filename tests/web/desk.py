"""Helpers of the desk's tests (tests/web/test_desk*.py): tournaments made through the services,
the desk's URLs, tables finished with results only."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from games import services as games
from games.models import GameProjection
from tournaments import services as t

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
HTMX = {"HX-Request": "true"}
CONFLICT = "Someone else changed this tournament meanwhile; here it is as it stands now."
Capture = Callable[..., AbstractContextManager[Any]]


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def desk(tid: uuid.UUID | str, path: str = "") -> str:
    return f"/desk/{tid}/{path}"


def html(response: Any) -> str:
    return str(response.content.decode())


def text(response: Any) -> str:
    """The page's text without tags and with single spaces (for sentences split by markup)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html(response)).split())


def summary(tid: uuid.UUID | str, user: User) -> dict[str, Any]:
    return t.tournament_get(tournament_id=uuid.UUID(str(tid)), user=user).summary


def version(tid: uuid.UUID | str, user: User) -> int:
    return int(summary(tid, user)["version"])


def tables(tid: uuid.UUID | str, user: User, round: int) -> list[list[str]]:
    rnd = summary(tid, user)["rounds"][round - 1]
    return [[s["name"] for s in table["seats"]] for table in rnd["tables"]]


def new_tournament(
    user: User, names: list[str] = NAMES, checked_in: bool = True, **settings: Any
) -> uuid.UUID:
    settings = {"name": "Club night", "date": "2026-12-01", "rounds": 3, "seed": 7, **settings}
    tid = t.tournament_create(user=user, **settings).tournament_id
    if names:
        t.tournament_register(tournament_id=tid, user=user, names=names, checked_in=checked_in)
    return tid


def finish_table(
    tid: uuid.UUID | str, user: User, round: int, table: int, capture: Capture
) -> None:
    """Enter a table's results only (distinct totals: no shared places)."""
    entry = summary(tid, user)["rounds"][round - 1]["tables"][table - 1]
    game = GameProjection.objects.get(stream_id=entry["game"])
    scores = {s["name"]: [n + 1, n, 2] for n, s in enumerate(entry["seats"])}
    with capture(execute=True):
        games.game_enter_results(
            game_id=game.stream_id, expected_version=game.version, scores=scores, user=user
        )


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []
