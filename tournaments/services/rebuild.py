"""Rebuilding and fingerprinting the tournament projections from their streams."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

from django.db import transaction

from games import outbox
from games import services as games
from games.models import GameProjection, StatusChange, Stream
from games.projection import FINISHED
from tournaments import domain, rounds
from tournaments.domain import TournamentState
from tournaments.models import TournamentProjection, TournamentTable
from tournaments.services import snapshots
from tournaments.services.codes import short_codes_backfill
from tournaments.services.sync import _placements, tournament_sync_pending
from tournaments.services.writes import _fold, _projection, _save


def tournaments_digest() -> Iterator[tuple[str, Any]]:
    """What projections_digest fingerprints of each tournament."""
    for projection in TournamentProjection.objects.order_by("stream_id"):
        state = snapshots.load(projection)
        yield (
            str(projection.stream_id),
            [
                projection.version,
                projection.status,
                projection.current_round,
                games.as_stored(domain.to_json(state)),
                games.as_stored(_standings_now(projection, state)),
                sorted(
                    (t.round, t.number, str(t.game_id), t.seats)
                    for t in TournamentTable.objects.filter(tournament=projection)
                ),
            ],
        )


def _new_projection(stream_id: uuid.UUID) -> TournamentProjection:
    """An empty projection for a tournament stream that has none (after a restore)."""
    _, creator = games.stream_origin(stream_id)
    return TournamentProjection(stream_id=stream_id, created_by_id=creator, state={}, standings={})


def tournaments_rebuild(*, fix: bool = True) -> tuple[int, list[games.Difference]]:
    """Recompute every tournament projection from its stream (rebuild_projections calls it),
    and find tables whose game's result never reached the tournament (and, fixing, send it)."""
    differences: list[games.Difference] = []
    checked = 0
    for projection in games.streams_projected(
        Stream.Kind.TOURNAMENT, TournamentProjection.objects.all(), _new_projection
    ):
        checked += 1
        state = _fold(projection.stream_id)
        found = _projection_differences(projection, state)
        if found and not projection._state.adding:
            found = _recheck(projection.stream_id, fix=fix)
        elif found and fix:
            with transaction.atomic():
                _save(projection, state)
        differences.extend(found)
        differences.extend(_unsynced_tables(projection.stream_id, state, fix=fix))
    if fix:  # a restored log's tournaments get their short addresses back (derived from the id)
        short_codes_backfill()
    return checked, differences


def _standings_now(projection: TournamentProjection, state: TournamentState) -> Any:
    """The stored standings if current, else as the next read will rank them (not stored)."""
    if projection.standings_version == projection.version:
        return projection.standings
    return rounds.standings_json(state)


def _projection_differences(
    projection: TournamentProjection, state: TournamentState
) -> list[games.Difference]:
    """What the projection's row says against the stream's fold ``state``: its state (the
    snapshot with the events after it folded in; a snapshot newer than the row's version is
    wrong too), and its standings if they claim to be current (stale ones are ranked again when
    read)."""
    if projection._state.adding:
        stored_state: Any = {}
    elif projection.snapshot_version > projection.version:
        stored_state = {"snapshot_version": projection.snapshot_version}
    else:
        stored_state = games.as_stored(domain.to_json(snapshots.load(projection)))
    compared = [("state", stored_state, games.as_stored(domain.to_json(state)))]
    if projection._state.adding or projection.standings_version >= projection.version:
        rebuilt_standings = games.as_stored(rounds.standings_json(state))
        compared.append(("standings", projection.standings, rebuilt_standings))
    return [
        games.Difference(projection.stream_id, field, stored, rebuilt)
        for field, stored, rebuilt in compared
        if stored != rebuilt
    ]


def _recheck(tournament_id: uuid.UUID, *, fix: bool) -> list[games.Difference]:
    """Compare (and fix) again under the row's lock: writers may have moved the row and the
    stream on since the first look, and a rebuild must never write older state over theirs."""
    with transaction.atomic():
        projection = _projection(tournament_id, lock=True)
        state = _fold(tournament_id)
        found = _projection_differences(projection, state)
        if found and fix:
            _save(projection, state)
    return found


def _unsynced_tables(
    tournament_id: uuid.UUID, state: TournamentState, *, fix: bool
) -> list[games.Difference]:
    """Tables whose result disagrees with their game and that no pending status change will
    mend (a change lost before the outbox existed): reported, and when fixing, put in the
    outbox and handled at once."""
    tables: dict[uuid.UUID, domain.Table] = {
        uuid.UUID(table.game): table
        for rnd in state.rounds
        for table in rnd.tables
        if table.game is not None
    }
    if not tables:
        return []
    waiting = set(
        StatusChange.objects.filter(game_id__in=tables, handled_at__isnull=True).values_list(
            "game_id", flat=True
        )
    )
    found = []
    for game in (
        GameProjection.objects.filter(stream_id__in=tables)
        .only("stream_id", "status")
        .prefetch_related("results")
    ):
        table = tables[game.stream_id]
        recorded = [r.placement() for r in game.results.all()]  # in rank order (its Meta)
        result = _placements(state, table, recorded) if game.status == FINISHED else None
        if game.stream_id in waiting or table.result == result:
            continue
        found.append(
            games.Difference(tournament_id, f"table {table.number} result", table.result, result)
        )
        if fix:
            with transaction.atomic():
                outbox.record(game)
            tournament_sync_pending(game_id=game.stream_id)
    return found
