"""Reads: the tournament, its standings, its history, for the pages and the API."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils import translation
from django.utils.translation import gettext as _

from games import services as games
from games import store
from games.services import NotAllowed, User
from tournaments import domain, rounds
from tournaments.domain import ORGANIZER, TournamentState
from tournaments.models import TournamentProjection, TournamentTable
from tournaments.services.access import _require, downloads_allowed, standings_visible
from tournaments.services.summary import _summary
from tournaments.services.writes import _projection, _state


def current_standings(projection: TournamentProjection, state: TournamentState) -> dict[str, Any]:
    """The standings at the projection's version: stored ones if they are current, else ranked
    again from ``state`` (at that version) and stored for the next reader, unless a newer
    version's standings got there first (no lock: readers never wait for writers). Events that
    change the standings leave them stale (tournaments.services.writes._save), so a result
    costs its writer nothing here and shows in the first read after it. The players who never
    checked in are set apart at every read (rounds.standings_apart: a check-in does not make
    the stored standings stale)."""
    return rounds.standings_apart(state, _stored_standings(projection, state))


def _stored_standings(projection: TournamentProjection, state: TournamentState) -> dict[str, Any]:
    if projection.standings_version == projection.version:
        return dict(projection.standings)
    standings = rounds.standings_json(state)
    TournamentProjection.objects.filter(
        stream_id=projection.stream_id, standings_version__lt=projection.version
    ).update(standings=standings, standings_version=projection.version)
    projection.standings = games.as_stored(standings)
    projection.standings_version = projection.version
    return dict(projection.standings)


def tournament_state(tournament_id: uuid.UUID) -> TournamentState:
    """The tournament's state now, for reading only (never mutate it): the game policy's
    questions (downloads released, a table confirmed)."""
    return _state(_projection(tournament_id))


@dataclass(frozen=True, slots=True)
class TournamentRead:
    """A tournament as one user may see it: what views and the API are given, never the
    projection's row (its snapshot may be behind the log, its standings stale)."""

    id: uuid.UUID
    version: int
    summary: dict[str, Any]
    """What the API shows (tournaments.services.summary): settings, players, visible rounds."""
    standings: dict[str, Any] | None = None
    """Columns and rows, when asked for (:func:`tournament_get_with_standings`) and visible to
    this user; None otherwise."""


def tournament_get(*, tournament_id: uuid.UUID, user: User | None = None) -> TournamentRead:
    """The tournament as this user may see it (proposed rounds: organizers only), without its
    standings (ranking them is the costly part of a read after a result)."""
    projection = _projection(tournament_id)
    state = _state(projection)
    return TournamentRead(projection.stream_id, state.version, _summary(projection, state, user))


def tournament_get_with_standings(
    *, tournament_id: uuid.UUID, user: User | None = None
) -> TournamentRead:
    """:func:`tournament_get` and :func:`tournament_standings` from one read of the projection
    (the standings page, the desk, the CSV): the standings are None while hidden from this
    user."""
    projection = _projection(tournament_id)
    state = _state(projection)
    standings = current_standings(projection, state) if standings_visible(state, user) else None
    return TournamentRead(
        projection.stream_id, state.version, _summary(projection, state, user), standings
    )


def tournament_standings(*, tournament_id: uuid.UUID, user: User | None) -> dict[str, Any]:
    """The standings (columns and rows) if this user may see them now."""
    projection = _projection(tournament_id)
    state = _state(projection)
    if not standings_visible(state, user):
        raise NotAllowed(
            _("the organizer has hidden the standings until the end of the tournament")
        )
    return current_standings(projection, state)


def tournament_check_downloads(*, tournament_id: uuid.UUID, user: User | None) -> None:
    """Refuse a download the organizer has not released yet."""
    if not downloads_allowed(_state(_projection(tournament_id)), user):
        raise NotAllowed(_("the organizer has not released the downloads yet"))


def tournament_of_game(game_id: uuid.UUID) -> uuid.UUID | None:
    """The tournament a game is a table of; None for a game outside any tournament."""
    found = TournamentTable.objects.filter(game_id=game_id).values_list("tournament_id").first()
    return None if found is None else found[0]


def tournament_version(tournament_id: uuid.UUID) -> str | None:
    """What a tournament's pages depend on, as a short key: its version and when its projection
    was saved (a projection rebuilt at the same version is new too); None if there is no such
    tournament. One indexed query, in SQL rather than through the ORM: the public standings ask
    it on every visit, and building the query costs more than running it."""
    meta = TournamentProjection._meta
    stream = meta.get_field("stream")
    table, column = connection.ops.quote_name(meta.db_table), stream.column
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT version, updated_at FROM {table} WHERE {column} = %s",  # noqa: S608
            [stream.get_db_prep_value(tournament_id, connection)],
        )
        row = cursor.fetchone()
    return None if row is None else f"{row[0]}:{row[1]}"


def tournament_list() -> QuerySet[TournamentProjection]:
    return TournamentProjection.objects.defer("state", "standings").order_by("-date", "name")


def tournament_history(*, tournament_id: uuid.UUID, user: User | None) -> list[dict[str, Any]]:
    """Every action, who and when, including the ones later undone (marked), and why an action
    cannot be undone now (``cannot_undo``, the words an undo would be refused with; None: it
    can be): organizers only."""
    state = _state(_projection(tournament_id))
    _require(state, user, ORGANIZER)
    events = store.read_stream(tournament_id)
    undone = {e.data["version"]: e.version for e in events if e.type == domain.UNDONE}
    refusals = domain.undo_refusals(
        state, [(e.version, e.type, e.data) for e in events], translation
    )
    return [
        {
            "version": e.version,
            "type": e.type,
            "data": e.data,
            "by": e.metadata.get("by"),
            "at": e.recorded_at.isoformat(),
            "undone_by": undone.get(e.version),
            "cannot_undo": refusals.get(e.version),
        }
        for e in events
    ]
