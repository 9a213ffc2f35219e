"""Projection writes under racing writers: a rebuild while the site takes writes, and a
tournament's system writers racing one another (issue 10, item 2).

A projection write must never replace newer state with older: the writers of a game's
projection check the version they replace, and a rebuild re-reads the log under the row's lock
before it writes. Tournament writers take the tournament row's lock, so concurrent result syncs
wait for each other instead of burning their retries.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import GameProjection
from tests.games.concurrency import create_game, records, run_together
from tournaments import services as tournaments

WRITERS = 8
REGISTRATIONS = 25


def play_alone_counting_conflicts(game_id: uuid.UUID, record: list[dict[str, Any]]) -> int:
    """Append the record one event at a time, as the game's only writer; return how many
    appends were refused as conflicts (there is nobody else, so any is spurious)."""
    version, conflicts = 1, 0
    for event in record[1:]:
        try:
            version = services.game_append(
                game_id=game_id, expected_version=version, events=[event]
            ).version
        except services.Conflict:
            conflicts += 1
            version = GameProjection.objects.get(stream_id=game_id).version
            if version < len(record):  # our event did not go in: the projection lags the log
                break
    return conflicts


@pytest.mark.postgres
def test_rebuilds_during_writes_lose_no_update(
    committed_db: None, django_user_model: type[User]
) -> None:
    games = []
    for seed in range(WRITERS):
        record = records(seed)
        games.append((create_game(record), record))
    organizer = django_user_model.objects.create_user("olga", password="x")
    tournament_id = tournaments.tournament_create(
        user=organizer, name="Race Cup", date="2026-12-01", rounds=3
    ).tournament_id
    writing = threading.Event()
    writing.set()
    done = threading.Barrier(WRITERS + 2)

    def registrar() -> int:
        """The tournament's writer: one player registered at a time, without an expected
        version (its retries re-read the projection, which a stale rebuild would spoil)."""
        try:
            for n in range(REGISTRATIONS):
                tournaments.tournament_register(
                    tournament_id=tournament_id, user=organizer, names=[f"Player {n}"]
                )
            return REGISTRATIONS
        finally:
            done.wait()
            writing.clear()

    def writer(game_id: uuid.UUID, record: list[dict[str, Any]]) -> int:
        try:
            return play_alone_counting_conflicts(game_id, record)
        finally:
            done.wait()
            writing.clear()

    def rebuilder() -> int:
        rebuilds = 0
        while writing.is_set() or rebuilds == 0:
            services.rebuild_all(fix=True)
            rebuilds += 1
        return rebuilds

    def waiter() -> int:
        done.wait()
        return 0

    results = run_together(
        [
            *(lambda g=g, r=r: writer(g, r) for g, r in games),
            registrar,
            rebuilder,
            rebuilder,
            waiter,
        ],
        name="rebuild-race",
    )
    spurious = results[:WRITERS]
    assert results[WRITERS] == REGISTRATIONS, "the tournament's writer was refused"
    assert results[WRITERS + 1] >= 1 and results[WRITERS + 2] >= 1
    registered = tournaments.tournament_get(tournament_id=tournament_id, user=organizer).summary
    assert len(registered["players"]) == REGISTRATIONS
    assert spurious == [0] * WRITERS, f"conflicts on games nobody else wrote to: {spurious}"
    for game_id, record in games:
        game = GameProjection.objects.get(stream_id=game_id)
        assert (game.version, game.status) == (len(record), "finished"), "a game is stuck"
    checked = services.rebuild_all(fix=False)
    assert all(not differences for _, differences in checked.values()), checked
