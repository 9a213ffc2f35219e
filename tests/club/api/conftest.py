"""Fixtures of the club API's tests: Olga, one of the club's officials (a staff user), with her
token; a season of two finished tournaments (a no-show in the first), the club's consumer run."""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from club import services
from club.models import LogPosition
from club.services import reads, sync
from games.models import Event
from tests.club.helpers import season_tournament
from tests.club.snapshot import built_once
from tests.web.api import token_client

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


def forget_the_clubs_kept_reads() -> None:
    """What this process keeps of the club's reads, forgotten (club.services.reads.forget; the
    autouse fixture of tests/club/conftest.py does it around every test)."""
    reads.forget()


@dataclass(frozen=True)
class Season:
    first: uuid.UUID
    second: uuid.UUID
    league: int


@pytest.fixture
def olga(request: pytest.FixtureRequest, make_user: Callable[..., User]) -> User:
    if "season" in request.fixturenames:  # the season's own official (the season makes her)
        request.getfixturevalue("season")
        return User.objects.get(username="olga")
    return make_user("olga", is_staff=True)


@pytest.fixture
def official(olga: User) -> APIClient:
    """Olga, an official of the club, with her API token."""
    return token_client(olga)


def club_caught_up(within: float = 120.0) -> None:
    """Run the club's consumer until it has handled every event it follows. On PostgreSQL it
    reads only what committed before every running transaction of the server began (the log's
    horizon: games.store.read_all), and another database's tests may hold that back a moment;
    on SQLite one run is enough."""
    end = time.monotonic() + within
    while True:
        services.club_sync()
        position = LogPosition.objects.get(name=sync.NAME)
        after = Event.objects.filter(
            type__in=sync.FOLLOWED, tx_id=position.tx, id__gt=position.event
        )
        later = Event.objects.filter(type__in=sync.FOLLOWED, tx_id__gt=position.tx)
        if not after.exists() and not later.exists():
            return
        assert time.monotonic() < end, "the club's consumer did not catch up with the log"


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any) -> Callable[[], Any]:
    """Runs what a write leaves for its commit (the club's consumer) once the block ends, and
    the consumer again until it has caught up with the log."""

    @contextlib.contextmanager
    def committed() -> Iterator[None]:
        with django_capture_on_commit_callbacks(execute=True):
            yield
        club_caught_up()

    return committed


@pytest.fixture
def season(
    committed_db: None,
    make_user: Callable[..., User],
    django_capture_on_commit_callbacks: Any,
) -> Season:
    """committed_db: on PostgreSQL the club's consumer reads only what committed before every
    running transaction began (games.store.read_all), so the tournaments really commit. Olga
    is the season's (the ``olga`` fixture of a test with a season gives her). Built by the
    first test of a process that asks, then copied into each later test's database
    (tests/club/snapshot.py)."""

    def build() -> Season:
        olga = make_user("olga", is_staff=True)
        return build_season(olga, token_client(olga), django_capture_on_commit_callbacks)

    return built_once("tests/club/api season", build)


def build_season(olga: User, official: APIClient, on_commit: Any) -> Season:
    first = season_tournament(
        olga,
        NAMES,
        on_commit=on_commit,
        name="Autumn night",
        no_shows=("Zed",),
    )
    second = season_tournament(
        olga,
        [n.lower() for n in NAMES],
        on_commit=on_commit,
        name="Winter night",
        date="2026-12-08",
    )
    club_caught_up()
    created = official.post("/api/leagues/", {"name": "Season 2026", "rules": {}})
    assert created.status_code == 201, created.content
    league = created.json()["id"]
    for tid in (first, second):
        linked = official.post(f"/api/leagues/{league}/tournaments/", {"tournament": str(tid)})
        assert linked.status_code == 201, linked.content
    return Season(first=first, second=second, league=league)
