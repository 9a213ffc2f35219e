"""The club's consumer of the log with every transaction committed, on both backends: on
PostgreSQL it reads the log only up to the oldest transaction still running (other test
workers' included), so each step waits until the consumer has caught up with what was
committed (``caught_up``: the log's reader's horizon, never a clock)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User

from club import services
from club.models import LogPosition, RatingChange
from club.services import sync
from club.services.rebuild import wipe
from games.models import Event
from tests.club.helpers import season_tournament
from tests.club.test_sync import assert_as_rebuilt, correct_first_game, stored
from tests.games.concurrency import run_together

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
DEADLINE_S = 60.0


@pytest.fixture
def organizer(committed_db: None, django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x", is_staff=True)


def caught_up() -> None:
    """Run the consumer until its position is at the log's last followed event, in commit
    order (on PostgreSQL, other workers' open transactions may hold the log's horizon back a
    while: the reader waits for them, as a real consumer would)."""
    last = (
        Event.objects.filter(type__in=sync.FOLLOWED)
        .order_by("-tx_id", "-id")
        .values_list("tx_id", "id")
        .first()
    )
    give_up = time.monotonic() + DEADLINE_S
    while last is not None:
        services.club_sync()
        position = LogPosition.objects.get(name=sync.NAME)
        if (position.tx, position.event) >= last:
            return
        assert time.monotonic() < give_up, "the consumer never caught up with the log"
        time.sleep(0.05)


def test_the_consumer_keeps_ratings_as_a_rebuild_makes_them(
    organizer: User, on_commit: Any
) -> None:
    tid = season_tournament(organizer, NAMES, on_commit=on_commit, no_shows=("Zed",))
    season_tournament(organizer, NAMES, on_commit=on_commit, date="2026-12-08")
    caught_up()
    assert RatingChange.objects.count() == 2 * 2 * 2 * 4
    before = stored()
    correct_first_game(organizer, tid, on_commit)
    caught_up()
    assert stored() != before
    assert_as_rebuilt()


def test_racing_consumers_handle_every_event_once(organizer: User, on_commit: Any) -> None:
    season_tournament(organizer, NAMES, on_commit=on_commit)
    season_tournament(organizer, NAMES, on_commit=on_commit, date="2026-12-08")
    caught_up()
    expected = stored()
    wipe()  # from the start of the log again, three consumers at once
    reports = run_together([lambda: sync.club_sync(limit=7) for _ in range(3)], "consumer")
    caught_up()
    assert sum(r.events for r in reports) <= Event.objects.filter(type__in=sync.FOLLOWED).count()
    assert RatingChange.objects.count() == 2 * 2 * 2 * 4  # nothing rated twice, nothing lost
    assert stored() == expected
