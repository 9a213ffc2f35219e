"""The relay's delay in the tournament's stream (issue 27): the tournament's ``relay_delay``
setting and a round's own (``round_delay_set``), folded, kept in the snapshot, undone like the
other round actions, refused with their codes; set by organizers only."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User

from games.gametypes import DEFAULT_GAME_TYPE
from games.services import NotAllowed, Refused
from tests.tournaments.helpers import new_tournament, summary
from tournaments import domain, events
from tournaments import services as t
from tournaments.domain import Refusal
from tournaments.domain.decisions import check_relay_delay
from tournaments.models import TournamentProjection
from tournaments.services.writes import _state

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="pw")


@pytest.fixture
def keeper(django_user_model: type[User], organizer: User) -> User:
    return django_user_model.objects.create_user("sam", password="pw")


def state_of(tid: uuid.UUID) -> domain.TournamentState:
    return _state(TournamentProjection.objects.get(stream_id=tid))


def paired(user: User, publish: bool = True) -> uuid.UUID:
    tid = new_tournament(user)
    t.tournament_pair(tournament_id=tid, user=user)
    if publish:
        t.tournament_publish(tournament_id=tid, round=1, user=user)
    return tid


# ----------------------------------------------------------------------------- the domain


def bare_state(rounds: int = 2, delay: int = 0) -> domain.TournamentState:
    settings = domain.Settings(
        name="x", date="2026-12-01", rounds=3, game_type=DEFAULT_GAME_TYPE, relay_delay=delay
    )
    return domain.TournamentState(
        rounds=[domain.Round(n, "published", [], (), "random", 0) for n in range(1, rounds + 1)],
        settings=settings,
        status="running",
    )


def test_the_fold_gives_each_round_its_delay_or_the_tournaments() -> None:
    state = bare_state(delay=120)
    assert [state.relay_delay(n) for n in (1, 2, 3)] == [120, 120, 120]
    domain.apply_event(state, 10, events.RoundDelaySet(round=2, seconds=0))
    assert (state.rounds[1].delay, state.relay_delay(2), state.relay_delay(1)) == (0, 0, 120)
    domain.apply_event(state, 11, events.SettingsChanged(changes={"relay_delay": 600}))
    assert [state.relay_delay(n) for n in (1, 2, 3)] == [600, 0, 600]  # 3: not paired yet
    domain.apply_event(state, 12, events.RoundDelaySet(round=2, seconds=None))
    assert state.rounds[1].delay is None and state.relay_delay(2) == 600


def test_the_event_and_the_snapshot_round_trip() -> None:
    for data in ({"round": 2, "seconds": 300}, {"round": 1, "seconds": None}):
        assert events.to_data(events.parse(domain.DELAY_SET, data)) == data
    state = bare_state(delay=60)
    domain.apply_event(state, 10, events.RoundDelaySet(round=1, seconds=900))
    again = domain.from_json(domain.to_json(state))
    assert again == state
    assert (again.config.relay_delay, again.rounds[0].delay, again.rounds[1].delay) == (
        60,
        900,
        None,
    )
    # A snapshot written before the delay existed reads as no delay.
    old = domain.to_json(bare_state())
    del old["settings"]["relay_delay"]
    for r in old["rounds"]:
        del r["delay"]
    before = domain.from_json(old)
    assert before.config.relay_delay == 0 and before.rounds[0].delay is None


def test_what_the_decision_refuses_with_its_codes() -> None:
    state = bare_state()
    assert domain.check_delay(state, 1, 3600) is state.rounds[0]
    for seconds in (-1, 3601, 1.5, True, "60"):
        with pytest.raises(Refusal) as refused:
            domain.check_delay(state, 1, seconds)  # type: ignore[arg-type]
        assert refused.value.code == "bad_delay", seconds
        assert refused.value.message == "the spectators' delay is from 0 to 60 minutes"
    with pytest.raises(Refusal) as refused:
        domain.check_delay(state, 1, None)
    assert refused.value.code == "unchanged"
    with pytest.raises(Refusal) as refused:
        domain.check_delay(state, 3, 60)
    assert refused.value.code == "unknown_round"
    state.rounds[0].status = "closed"
    with pytest.raises(Refusal) as refused:
        domain.check_delay(state, 1, 60)
    assert refused.value.code == "round_closed"
    assert refused.value.message == "round 1 is closed: its tables are no longer played"
    state.status = "finished"
    with pytest.raises(Refusal) as refused:
        domain.check_delay(state, 2, 60)
    assert refused.value.code == "already_done"
    with pytest.raises(Refusal) as refused:
        check_relay_delay(3601)  # the setting's own check
    assert refused.value.code == "bad_delay"


# ----------------------------------------------------------------------------- the services


def test_the_delay_is_set_given_back_and_undone(organizer: User) -> None:
    tid = paired(organizer)
    t.tournament_change_settings(tournament_id=tid, changes={"relay_delay": 300}, user=organizer)
    assert summary(tid)["settings"]["relay_delay"] == 300
    own = t.tournament_set_delay(tournament_id=tid, round=1, seconds=60, user=organizer)
    assert [kind for _, kind in own.appended] == [domain.DELAY_SET]
    assert summary(tid)["rounds"][0]["relay_delay"] == 60
    assert state_of(tid).relay_delay(1) == 60
    back = t.tournament_set_delay(tournament_id=tid, round=1, seconds=None, user=organizer)
    assert "relay_delay" not in summary(tid)["rounds"][0]
    assert state_of(tid).relay_delay(1) == 300
    t.tournament_undo(tournament_id=tid, version=back.version, user=organizer)
    assert summary(tid)["rounds"][0]["relay_delay"] == 60
    t.tournament_undo(tournament_id=tid, version=own.version, user=organizer)
    assert "relay_delay" not in summary(tid)["rounds"][0]
    stored = [
        e["data"]
        for e in t.tournament_history(tournament_id=tid, user=organizer)
        if e["type"] == domain.DELAY_SET
    ]
    assert stored == [{"round": 1, "seconds": 60}, {"round": 1, "seconds": None}]
    # The snapshot the services keep holds it too.
    again = domain.from_json(domain.to_json(state_of(tid)))
    assert again.config.relay_delay == 300 and again.rounds[0].delay is None


def test_a_proposed_round_takes_a_delay_and_keeps_it_once_published(organizer: User) -> None:
    tid = paired(organizer, publish=False)
    t.tournament_set_delay(tournament_id=tid, round=1, seconds=0, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    assert summary(tid)["rounds"][0]["relay_delay"] == 0


def test_what_the_services_refuse(organizer: User) -> None:
    tid = paired(organizer)
    for seconds, code in ((3601, "bad_delay"), (None, "unchanged")):
        with pytest.raises(Refused) as refused:
            t.tournament_set_delay(tournament_id=tid, round=1, seconds=seconds, user=organizer)
        assert refused.value.code == code
    with pytest.raises(Refused) as refused:
        t.tournament_set_delay(tournament_id=tid, round=2, seconds=60, user=organizer)
    assert refused.value.code == "unknown_round"
    with pytest.raises(Refused) as refused:
        t.tournament_change_settings(tournament_id=tid, changes={"relay_delay": -5}, user=organizer)
    assert refused.value.code == "bad_delay"
    assert "relay_delay" not in summary(tid)["settings"]


def test_only_organizers_set_a_delay(organizer: User, keeper: User) -> None:
    tid = paired(organizer)
    t.tournament_set_role(
        tournament_id=tid, username=keeper.username, role="scorekeeper", grant=True, user=organizer
    )
    with pytest.raises(NotAllowed):
        t.tournament_set_delay(tournament_id=tid, round=1, seconds=60, user=keeper)
    with pytest.raises(NotAllowed):
        t.tournament_change_settings(tournament_id=tid, changes={"relay_delay": 60}, user=keeper)
    with pytest.raises(NotAllowed):
        t.tournament_set_delay(tournament_id=tid, round=1, seconds=60, user=None)
    assert "relay_delay" not in summary(tid)["rounds"][0]
    t.tournament_set_role(
        tournament_id=tid, username=keeper.username, role="organizer", grant=True, user=organizer
    )
    t.tournament_set_delay(tournament_id=tid, round=1, seconds=60, user=keeper)  # co-organizer
    assert summary(tid)["rounds"][0]["relay_delay"] == 60
