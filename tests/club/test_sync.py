"""The club's consumer of the log: entries, members, ratings (club.services.sync)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from club import services
from club.models import Member, MemberEntry, Rating, RatingChange
from tests.club.helpers import season_tournament

pytestmark = pytest.mark.django_db
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x", is_staff=True)


def test_a_season_of_two_tournaments_is_rated(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    season_tournament(
        organizer, NAMES, on_commit=django_capture_on_commit_callbacks, no_shows=("Zed",)
    )
    season_tournament(
        organizer,
        [n.lower() for n in NAMES],
        on_commit=django_capture_on_commit_callbacks,
        date="2026-12-08",
    )
    services.club_sync()
    assert Member.objects.count() == 9  # the same names in any case are one member; Zed too
    zed = MemberEntry.objects.get(name="Zed")
    assert zed.place is None
    assert Rating.objects.filter(game_type="trick-n-chef").count() == 8
    assert RatingChange.objects.count() == 4 * 8
    assert not services.club_sync().events  # nothing new: nothing handled twice
