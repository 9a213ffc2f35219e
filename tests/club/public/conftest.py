"""A club season for the public pages: two tournaments of one league (the second with the
names in lower case: the same members), a no-show, synced into the club's projections."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from club import domain, services
from club.public import caching
from club.services import reads, writes
from tests.club.helpers import season_tournament
from tests.club.snapshot import built_once

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


@dataclass(frozen=True)
class Season:
    organizer: User
    league: int
    first: uuid.UUID
    second: uuid.UUID

    @staticmethod
    def member(name: str) -> str:
        return domain.default_member(name)


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    """Nothing kept from another test (the club's versions start again in each test's
    database: a season or state kept at "version 3" would be another test's), and no language
    left active by a request."""
    caching.PAGES.clear()
    reads.forget()
    yield
    translation.deactivate()


@pytest.fixture
def organizer(request: pytest.FixtureRequest, django_user_model: type[User]) -> User:
    if "season" in request.fixturenames:  # the season's own organizer (the season makes her)
        season: Season = request.getfixturevalue("season")
        return season.organizer
    return make_organizer(django_user_model)


def make_organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x", is_staff=True)


def make_season(organizer: User, on_commit: Any, **rules: Any) -> Season:
    first = season_tournament(organizer, NAMES, on_commit=on_commit, no_shows=("Zed",))
    second = season_tournament(
        organizer,
        [n.lower() for n in NAMES[:6]],
        on_commit=on_commit,
        name="Winter cup",
        date="2026-12-08",
    )
    league = writes.league_create(name="Winter league", rules=rules, user=organizer).league
    assert league is not None
    for tid in (first, second):
        writes.league_link(league=league, tournament=tid, user=organizer)
    services.club_sync()
    return Season(organizer, league, first, second)


@pytest.fixture
def season(django_user_model: type[User], django_capture_on_commit_callbacks: Any) -> Season:
    """Built by the first test of a process that asks, then copied into each later test's
    database (tests/club/snapshot.py)."""

    def build() -> Season:
        organizer = make_organizer(django_user_model)
        return make_season(organizer, django_capture_on_commit_callbacks, min_events=2)

    def again(season: Season) -> Season:
        return replace(season, organizer=django_user_model.objects.get(pk=season.organizer.pk))

    return built_once("tests/club/public season", build, again=again)
