"""The relay's delay and the club (docs/relay.md, docs/season.md): the club shows no result
before the public sees it. Its consumer stops before the first result the delay still holds
back and takes it (and what follows it in the log) once it has reached the public, at the
beat's sweep: nothing lost, nothing twice, in the log's order (the ratings are as rebuilt).

The clock is Django's ``timezone.now``, moved by the tests (the store dates events with it and
the reads compare with it): no sleep."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club import domain, services
from club.models import GameStatistic, MemberEntry, Rating, RatingChange
from club.public import caching
from club.services import writes
from tests.clock import Clock, installed
from tests.club.helpers import season_tournament
from tests.tournaments.helpers import new_tournament, play
from tournaments import services as t

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
DELAY = 300


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    found = installed(monkeypatch, datetime(2026, 3, 14, 19, 0, tzinfo=UTC))
    caching.PAGES.clear()
    yield found
    caching.PAGES.clear()


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x", is_staff=True)


def _season(organizer: User, on_commit: Any, **settings: Any) -> tuple[int, Any]:
    tid = season_tournament(organizer, NAMES, rounds=1, on_commit=on_commit, **settings)
    number = writes.league_create(name="Autumn", rules={}, user=organizer).league
    assert number is not None
    writes.league_link(league=number, tournament=tid, user=organizer)
    return number, tid


def _public_club(league: int) -> dict[str, Any]:
    """What the public reads of the club: the season (API and page), Ana's member page (API
    and page), the results export, the records."""
    client = Client()
    ana = domain.default_member("Ana")
    pages = {
        "season_api": client.get(reverse("club-api:standings", args=[league])).json(),
        "member_api": client.get(reverse("club-api:member", args=[ana])).json(),
        "results": client.get(reverse("club-api:results")).json(),
        "records": client.get(reverse("club-api:records")).json(),
        "season_page": client.get(f"/club/leagues/{league}/").content.decode(),
        "member_page": client.get(f"/club/members/{ana}/").content.decode(),
    }
    return pages


def _rated() -> int:
    return RatingChange.objects.values("game_id").distinct().count()


def test_the_club_takes_a_result_once_the_public_sees_it(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    league, tid = _season(organizer, on_commit, relay_delay=DELAY)
    services.club_sync()  # as the nudges and the sweep do
    assert t.tournaments_held([tid])  # the table's result is held back from the public
    held = _public_club(league)
    assert _rated() == 0 and not Rating.objects.exists() and not GameStatistic.objects.exists()
    entries = MemberEntry.objects.filter(tournament_id=tid)
    assert entries.count() == 4
    assert all(e.place is None and e.games == 0 and not e.finished for e in entries)
    assert str(tid) not in str(held["results"])
    assert not services.club_sync().events  # the sweep, again before the delay: still held

    clock.wait(DELAY - 10)
    assert not services.club_sync().events
    clock.wait(20)
    report = services.club_sync()  # the sweep after the delay
    assert report.events and report.rated == 1
    assert _rated() == 1 and Rating.objects.count() == 4
    entries = MemberEntry.objects.filter(tournament_id=tid)
    assert sorted(int(e.place or 0) for e in entries) == [1, 2, 3, 4]
    assert all(e.finished and e.games == 1 for e in entries)
    after = _public_club(league)
    for name in ("season_api", "member_api", "results", "season_page", "member_page"):
        assert after[name] != held[name], name
    assert not services.club_sync().events  # nothing twice
    checked, differences = services.club_rebuild(fix=False)
    assert checked and differences == []


def test_results_after_a_held_one_wait_for_it_in_the_logs_order(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    league, delayed = _season(organizer, on_commit, relay_delay=DELAY)
    clock.wait(60)
    other = season_tournament(organizer, NAMES, rounds=1, on_commit=on_commit, date="2026-12-08")
    services.club_sync()
    assert not t.tournaments_held([other])
    assert _rated() == 0  # the other's result comes after the held one in the log
    clock.wait(DELAY)
    services.club_sync()
    assert _rated() == 2
    order = list(RatingChange.objects.order_by("seq").values_list("tournament_id", flat=True))
    assert order[0] == delayed and order[-1] == other
    checked, differences = services.club_rebuild(fix=False)
    assert checked and differences == []


def test_a_delay_of_0_changes_nothing(organizer: User, on_commit: Any, clock: Clock) -> None:
    league, tid = _season(organizer, on_commit)
    services.club_sync()
    assert _rated() == 1
    assert sorted(int(e.place or 0) for e in MemberEntry.objects.filter(tournament_id=tid)) == [
        1,
        2,
        3,
        4,
    ]


def test_a_game_played_card_by_card_is_held_too(
    organizer: User, on_commit: Any, clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    tid = new_tournament(organizer, NAMES, relay_delay=DELAY, confirmation="auto", rounds=1)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    play(tid, 1, 1, organizer, lambda: django_capture_on_commit_callbacks(execute=True))
    services.club_sync()
    assert _rated() == 0 and not GameStatistic.objects.exists()
    clock.wait(DELAY)
    services.club_sync()
    assert _rated() == 1 and GameStatistic.objects.exists()
