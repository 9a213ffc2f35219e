"""The round clock in the tournament's stream: an event with the end time (or none: stopped),
folded into the round, kept in the snapshot, undone like other actions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from games.services import Refused
from tests.tournaments.helpers import new_tournament, summary
from tournaments import domain, events
from tournaments import services as t
from tournaments.domain import Refusal
from tournaments.models import TournamentProjection
from tournaments.services.writes import _state

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="pw")


NOW = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)


def test_the_clock_is_set_stopped_undone_and_kept_in_the_snapshot(organizer: User) -> None:
    tid = new_tournament(organizer)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    first = t.tournament_set_clock(tournament_id=tid, round=1, minutes=50, user=organizer, now=NOW)
    assert summary(tid)["rounds"][0]["ends_at"] == "2026-12-01T19:50:00+00:00"
    later = NOW + timedelta(hours=1)
    second = t.tournament_set_clock(
        tournament_id=tid, round=1, ends_at=later, user=organizer, now=NOW
    )
    assert summary(tid)["rounds"][0]["ends_at"] == "2026-12-01T20:00:00+00:00"
    history = t.tournament_history(tournament_id=tid, user=organizer)
    stored = [e["data"] for e in history if e["type"] == domain.CLOCK_SET]
    assert stored == [
        {"round": 1, "ends_at": "2026-12-01T19:50:00+00:00", "minutes": 50},
        {"round": 1, "ends_at": "2026-12-01T20:00:00+00:00", "minutes": None},
    ]
    for data in stored:  # the event's own round trip (it is newer than the committed log)
        assert events.to_data(events.parse(domain.CLOCK_SET, data)) == data
    # Undoing the change brings back the clock before it.
    t.tournament_undo(tournament_id=tid, version=second.version, user=organizer)
    assert summary(tid)["rounds"][0]["ends_at"] == "2026-12-01T19:50:00+00:00"
    assert first.version < second.version
    t.tournament_set_clock(tournament_id=tid, round=1, stop=True, user=organizer)
    assert "ends_at" not in summary(tid)["rounds"][0]
    t.tournament_set_clock(tournament_id=tid, round=1, minutes=5, user=organizer, now=NOW)
    state = _state(TournamentProjection.objects.get(stream_id=tid))
    again = domain.from_json(domain.to_json(state))
    assert again.rounds[0].ends_at == "2026-12-01T19:05:00+00:00"
    assert domain.from_json({**domain.to_json(state), "rounds": []}).rounds == []


def test_what_the_clock_refuses(organizer: User) -> None:
    tid = new_tournament(organizer)
    t.tournament_pair(tournament_id=tid, user=organizer)
    with pytest.raises(Refused, match="publish round 1 first"):
        t.tournament_set_clock(tournament_id=tid, round=1, minutes=5, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    with pytest.raises(Refused, match="no clock to stop"):
        t.tournament_set_clock(tournament_id=tid, round=1, stop=True, user=organizer)
    with pytest.raises(Refused, match="later than now"):
        t.tournament_set_clock(
            tournament_id=tid, round=1, ends_at=datetime(2020, 1, 1, tzinfo=UTC), user=organizer
        )
    with pytest.raises(Refused, match="within 24 hours"):
        t.tournament_set_clock(tournament_id=tid, round=1, minutes=25 * 60, user=organizer)
    with pytest.raises(Refused, match="round 2 has not been paired"):
        t.tournament_set_clock(tournament_id=tid, round=2, minutes=5, user=organizer)


def test_the_decision_is_pure() -> None:
    state = domain.TournamentState(
        rounds=[domain.Round(1, "closed", [], (), "random", 0)],
        settings=domain.Settings(name="x", date="2026-12-01", rounds=3, game_type="chefs"),
        status="running",
    )
    with pytest.raises(Refusal, match="round 1 is closed"):
        domain.check_clock(state, 1, NOW + timedelta(minutes=5), NOW)
