"""Confirm all finished tables at once (tournaments.services.tournament_confirm_finished): the
same rules as confirming one table, table by table, in one transaction; a table this user may
not confirm is left with the reason, and nothing confirmable is a refusal in words."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.tournaments.helpers import Capture, new_tournament, play, stream_types, summary
from tournaments import domain
from tournaments import services as t

pytestmark = pytest.mark.django_db

TWELVE = [f"Player {n:02d}" for n in range(1, 13)]


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def scorekeeper(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("sam", password="x")


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Capture) -> Iterator[Callable[[], Any]]:
    yield lambda: django_capture_on_commit_callbacks(execute=True)


def published(organizer: User, **settings: Any) -> uuid.UUID:
    tid = new_tournament(organizer, TWELVE, **settings)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    return tid


def version(tid: uuid.UUID) -> int:
    return int(summary(tid)["version"])


def statuses(tid: uuid.UUID) -> list[tuple[bool, bool]]:
    """(has a result, confirmed) of each table of round 1."""
    rnd = summary(tid)["rounds"][0]
    return [(tb["result"] is not None, tb["confirmed"]) for tb in rnd["tables"]]


def test_every_finished_table_is_confirmed_in_one_append_and_the_others_wait(
    organizer: User, on_commit: Any
) -> None:
    tid = published(organizer)
    play(tid, 1, 2, organizer, on_commit, seed=2)
    play(tid, 1, 3, organizer, on_commit, seed=3)
    before = version(tid)

    done = t.tournament_confirm_finished(
        tournament_id=tid, round=1, user=organizer, expected_version=before
    )

    assert done.confirmed == (2, 3) and done.left == ()
    assert done.change.version == before + 2
    assert stream_types(tid)[-2:] == [domain.RESULT_CONFIRMED, domain.RESULT_CONFIRMED]
    assert statuses(tid) == [(False, False), (True, True), (True, True)]
    assert summary(tid)["rounds"][0]["missing"] == [1]


def test_a_scorekeeper_confirms_the_tables_they_did_not_enter_and_is_told_why_not_the_others(
    organizer: User, scorekeeper: User, on_commit: Any
) -> None:
    tid = published(organizer)
    t.tournament_set_role(
        tournament_id=tid, username="sam", role=domain.SCOREKEEPER, grant=True, user=organizer
    )
    play(tid, 1, 1, scorekeeper, on_commit, seed=1)
    play(tid, 1, 2, organizer, on_commit, seed=2)

    done = t.tournament_confirm_finished(tournament_id=tid, round=1, user=scorekeeper)

    assert done.confirmed == (2,)
    assert done.left == (
        (1, "an organizer confirms results, or a scorekeeper who did not enter the table"),
    )
    assert statuses(tid) == [(True, False), (True, True), (False, False)]

    # Now only their own table is finished and unconfirmed: refused, saying why.
    with pytest.raises(t.Refused) as refused:
        t.tournament_confirm_finished(tournament_id=tid, round=1, user=scorekeeper)
    assert refused.value.message == (
        "table 1 is not confirmed: an organizer confirms results, or a scorekeeper who did not "
        "enter the table"
    )


def test_with_no_finished_table_there_is_nothing_to_confirm(organizer: User) -> None:
    tid = published(organizer)
    before = version(tid)
    with pytest.raises(t.Refused) as refused:
        t.tournament_confirm_finished(tournament_id=tid, round=1, user=organizer)
    assert refused.value.message == "round 1 has no finished table to confirm"
    assert version(tid) == before


def test_a_stale_page_is_a_conflict_and_confirms_nothing(organizer: User, on_commit: Any) -> None:
    tid = published(organizer)
    stale = version(tid)
    play(tid, 1, 1, organizer, on_commit, seed=1)  # its result moves the version on
    with pytest.raises(t.Conflict):
        t.tournament_confirm_finished(
            tournament_id=tid, round=1, user=organizer, expected_version=stale
        )
    assert statuses(tid)[0] == (True, False)
