"""A game's status changes reach its tournament through the outbox (games/outbox.py): exactly
once, in order, whatever happens to the nudge a commit sends (issue 10, item 1). The real
worker and beat, with a dead broker and a killed worker, are in tests/deploy/test_outbox.py."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from kombu.exceptions import OperationalError

from games import outbox, store
from games import services as games
from games.models import GameProjection
from tests.games.concurrency import run_together
from tests.tournaments.helpers import new_tournament, stream_types, summary
from tournaments import domain, tasks
from tournaments import services as t

pytestmark = pytest.mark.django_db
NAMES = [f"P{n}" for n in range(1, 17)]  # four tables of four


class DeadBroker:
    """``sync_game`` as seen by a web process whose broker is down."""

    name = "tournaments.sync_game"

    def __init__(self) -> None:
        self.tried = 0

    def apply_async(self, args: Any) -> None:
        self.tried += 1
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


@pytest.fixture
def dead_broker(monkeypatch: pytest.MonkeyPatch) -> DeadBroker:
    dead = DeadBroker()
    monkeypatch.setattr(tasks, "sync_game", dead)
    return dead


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def running(organizer: User) -> Iterator[tuple[uuid.UUID, list[uuid.UUID]]]:
    """A tournament with round 1 published: its id and its tables' games."""
    tid = new_tournament(organizer, names=NAMES, confirmation="auto")
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    yield tid, [uuid.UUID(tb["game"]) for tb in summary(tid)["rounds"][0]["tables"]]


def enter(game_id: uuid.UUID, user: User, shift: int = 0) -> None:
    game = GameProjection.objects.get(stream_id=game_id)
    scores = {n: [seat + shift, 2, 1] for seat, n in enumerate(game.players)}
    games.game_enter_results(
        game_id=game_id, expected_version=game.version, scores=scores, user=user
    )


def result_of(tid: uuid.UUID, game_id: uuid.UUID) -> domain.Table:
    state = t.tournament_state(tid)
    found = state.table_of_game(str(game_id))
    assert found is not None
    return found[1]


def test_a_nudge_that_cannot_be_sent_loses_nothing(
    client: Client,
    organizer: User,
    running: tuple[uuid.UUID, list[uuid.UUID]],
    dead_broker: DeadBroker,
    django_capture_on_commit_callbacks: Any,
) -> None:
    tid, tables = running
    with django_capture_on_commit_callbacks(execute=True):
        enter(tables[0], organizer)  # the nudge fails after the commit: no error here
    assert dead_broker.tried == 1
    assert result_of(tid, tables[0]).result is None
    assert outbox.pending() == 1

    health = client.get("/health/").json()  # what a monitor sees meanwhile
    assert health["status"] == "ok" and health["results_waiting"]["pending"] == 1

    assert tasks.sync_pending() == ["recorded"]  # beat's sweep
    assert tasks.sync_pending() == []
    assert stream_types(tid).count(domain.RESULT_RECORDED) == 1
    assert (
        result_of(tid, tables[0]).result_version
        == GameProjection.objects.get(stream_id=tables[0]).version
    )


def test_finish_correction_and_void_are_each_reflected_once_in_order(
    organizer: User, running: tuple[uuid.UUID, list[uuid.UUID]], dead_broker: DeadBroker
) -> None:
    tid, tables = running
    game_id = tables[0]
    enter(game_id, organizer)  # finished
    finished_at = GameProjection.objects.get(stream_id=game_id).version
    game = GameProjection.objects.get(stream_id=game_id)
    games.game_correct(game_id=game_id, expected_version=game.version, retract=1, user=organizer)
    enter(game_id, organizer, shift=5)  # finished again, other scores
    game = GameProjection.objects.get(stream_id=game_id)
    games.game_void(game_id=game_id, expected_version=game.version, user=organizer)
    assert outbox.pending(game_id) == 4

    assert t.tournament_sync_pending() == ["recorded", "withdrawn", "recorded", "withdrawn"]
    assert t.tournament_sync_pending() == []
    results = [
        e
        for e in store.read_stream(tid)
        if e.type in (domain.RESULT_RECORDED, domain.RESULT_WITHDRAWN)
    ]
    assert [e.type for e in results] == [
        domain.RESULT_RECORDED,
        domain.RESULT_WITHDRAWN,
        domain.RESULT_RECORDED,
        domain.RESULT_WITHDRAWN,
    ]
    first, second = results[0].data, results[2].data
    assert first["game_version"] == finished_at  # each as the game stood at that change
    assert first["placements"] != second["placements"]
    assert result_of(tid, game_id).result is None


def test_a_rebuild_finds_and_mends_a_result_that_never_arrived(
    organizer: User, running: tuple[uuid.UUID, list[uuid.UUID]], dead_broker: DeadBroker
) -> None:
    tid, tables = running
    enter(tables[1], organizer)
    # Lost before the outbox existed: the change is marked handled, the tournament knows nothing.
    with transaction.atomic():
        change = outbox.take_next()
        assert change is not None
        outbox.mark_handled(change, "lost")
    checked = games.rebuild_all(fix=False)
    [difference] = checked["tournaments"][1]
    assert (difference.field, difference.stored) == ("table 2 result", None)

    games.rebuild_all(fix=True)
    assert result_of(tid, tables[1]).result is not None
    assert all(not found for _, found in games.rebuild_all(fix=False).values())
    assert stream_types(tid).count(domain.RESULT_RECORDED) == 1


@pytest.mark.postgres
def test_results_synced_at_once_take_turns_instead_of_retrying(
    committed_db: None,
    organizer: User,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    tid = new_tournament(organizer, names=NAMES, confirmation="auto")
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    tables = [uuid.UUID(tb["game"]) for tb in summary(tid)["rounds"][0]["tables"]]
    monkeypatch.setattr(t, "ATTEMPTS", 1)  # a sync that meets a concurrent change gives up

    def finisher(game_id: uuid.UUID) -> Callable[[], str]:
        def finish() -> str:
            enter(game_id, organizer)  # its commit runs the sync inline (tasks run eagerly)
            return "ok"

        return finish

    with caplog.at_level(logging.WARNING, logger="games.queue"):
        run_together([finisher(g) for g in tables], name="sync")
    gave_up = [r.getMessage() for r in caplog.records if r.name == "games.queue"]
    assert not gave_up, "a sync gave up on a concurrent change"
    assert outbox.pending() == 0
    assert stream_types(tid).count(domain.RESULT_RECORDED) == len(tables)
