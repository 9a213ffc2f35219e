"""How the services store tournament events and snapshots (versions, codes) and read the ones
written before versions existed."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from games.models import Event
from tests.fixtures.tournament_log import FIXTURE
from tests.tournaments.helpers import with_todays_plurals
from tournaments import domain
from tournaments import services as t
from tournaments.models import TournamentProjection

pytestmark = pytest.mark.django_db


def test_new_events_store_codes_and_versions_and_the_api_shows_sentences(
    django_user_model: type[User],
) -> None:
    olga = django_user_model.objects.create_user("olga", password="x")
    tid = t.tournament_create(
        user=olga, name="N", date="2026-12-01", rounds=3, seed=7
    ).tournament_id
    t.tournament_register(
        tournament_id=tid, user=olga, names=["Ana", "Ben", "Cleo", "Dev", "Eli"], checked_in=True
    )
    t.tournament_pair(tournament_id=tid, user=olga)
    seated = t.tournament_get(tournament_id=tid, user=olga).summary["rounds"][0]["tables"][0][
        "seats"
    ]
    a, b = seated[0]["player"], seated[1]["player"]
    shown = t.tournament_swap(tournament_id=tid, round=1, a=a, b=b, user=olga).state
    paired = Event.objects.get(stream_id=tid, type="round_paired").data
    assert paired["schema"] == 2
    assert all(isinstance(n, dict) and "code" in n for n in paired["notes"])
    changed = Event.objects.get(stream_id=tid, type="pairing_changed").data
    assert "schema" not in changed  # version 1, stored as it always was
    projection = TournamentProjection.objects.get(stream_id=tid)
    assert projection.state["schema"] == domain.SNAPSHOT_SCHEMA  # the snapshot stored at create
    folded = domain.to_json(t.tournament_state(tid))  # the snapshot and the events after it
    assert folded["schema"] == domain.SNAPSHOT_SCHEMA
    assert [n["code"] for n in folded["rounds"][0]["notes"]][-1] == "swapped"
    names = {p["id"]: p["name"] for p in shown["players"]}
    assert shown["rounds"][0]["notes"][-1] == f"Changed by hand: {names[a]} and {names[b]} swapped."
    assert shown["rounds"][0]["notes"][0].startswith("Random seating (seed 7001)")


def test_a_projection_stored_before_versions_is_read_and_saved_at_the_new_version(
    django_user_model: type[User],
) -> None:
    olga = django_user_model.objects.create_user("olga", password="x")
    tid = t.tournament_create(user=olga, name="N", date="2026-12-01", rounds=3).tournament_id
    old = json.loads(FIXTURE.read_text())["expected"]
    projection = TournamentProjection.objects.get(stream_id=tid)
    snapshot = dict(old["snapshot"], version=1)  # the stream here is at version 1
    projection.state = snapshot
    projection.save()
    shown = t.tournament_get(tournament_id=tid, user=olga).summary

    # The one change in the words since: counts are plurals now ("2 tables").
    expected = [[with_todays_plurals(n) for n in r["notes"]] for r in old["summary"]["rounds"]]
    assert [r["notes"] for r in shown["rounds"]] == expected
    with pytest.raises(domain.SnapshotVersionError, match="rebuild_projections"):
        projection.state = {**snapshot, "schema": 99}
        projection.save()
        t.tournament_get(tournament_id=tid, user=olga)
