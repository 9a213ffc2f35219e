"""Fixtures of the club API's tests: Olga, one of the club's officials (a staff user), with her
token; a season of two finished tournaments (a no-show in the first), the club's consumer run."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from club import services
from club.services import reads, state
from tests.club.helpers import season_tournament
from tests.web.api import token_client

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


def forget_the_clubs_kept_reads() -> None:
    """The club's reads keep what they folded and drew by the club's version (club.services:
    state._FOLDED, reads._SEASONS); each test's database starts again at version 0, so what a
    test before it kept at the same version is not this test's."""
    state._FOLDED.clear()
    reads._SEASONS.clear()


@pytest.fixture(autouse=True)
def _kept_reads_forgotten() -> None:
    forget_the_clubs_kept_reads()


@dataclass(frozen=True)
class Season:
    first: uuid.UUID
    second: uuid.UUID
    league: int


@pytest.fixture
def olga(make_user: Callable[..., User]) -> User:
    return make_user("olga", is_staff=True)


@pytest.fixture
def official(olga: User) -> APIClient:
    """Olga, an official of the club, with her API token."""
    return token_client(olga)


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any) -> Callable[[], Any]:
    """Runs what a write leaves for its commit (the club's consumer) once the block ends."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def season(olga: User, official: APIClient, django_capture_on_commit_callbacks: Any) -> Season:
    first = season_tournament(
        olga,
        NAMES,
        on_commit=django_capture_on_commit_callbacks,
        name="Autumn night",
        no_shows=("Zed",),
    )
    second = season_tournament(
        olga,
        [n.lower() for n in NAMES],
        on_commit=django_capture_on_commit_callbacks,
        name="Winter night",
        date="2026-12-08",
    )
    services.club_sync()
    created = official.post("/api/leagues/", {"name": "Season 2026", "rules": {}})
    assert created.status_code == 201, created.content
    league = created.json()["id"]
    for tid in (first, second):
        linked = official.post(f"/api/leagues/{league}/tournaments/", {"tournament": str(tid)})
        assert linked.status_code == 201, linked.content
    return Season(first=first, second=second, league=league)
