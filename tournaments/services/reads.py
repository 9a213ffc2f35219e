"""Reads: the tournament, its standings, its history, for the pages and the API."""

from __future__ import annotations

import copy
import dataclasses
import uuid
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import reduce
from operator import or_
from typing import Any, Final

from django.db import InterfaceError, OperationalError, connection
from django.db.models import Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import services as games
from games import store
from games.models import Event
from games.recent import Recent
from games.services import NotAllowed, User
from tournaments import domain, rounds
from tournaments.domain import ORGANIZER, SCOREKEEPER, TournamentState
from tournaments.models import TournamentProjection, TournamentTable
from tournaments.services.access import (
    _is_staff,
    _require,
    _user_id,
    downloads_allowed,
    standings_visible,
)
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


# ----------------------------------------------------------------------------- the relay's delay

Held = dict[tuple[int, int], datetime]
"""(round, table) -> when that table's result reaches the public: results still held back."""

_RECORDED: Recent[tuple[str, int], datetime] = Recent(8192)
"""When a game's event at a version was recorded, by (game id, version): never changes."""


def _officiates(state: TournamentState, user: User | None) -> bool:
    """The tournament's officials (organizers, scorekeepers, staff): the relay's delay never
    holds anything back from them (the games' officials: games.services.game_sees_hands)."""
    if user is None or not user.is_authenticated:
        return False
    if _is_staff(user):
        return True
    uid = _user_id(user)
    return state.has_role(uid, ORGANIZER) or state.has_role(uid, SCOREKEEPER)


def _maturities(state: TournamentState) -> Held:
    """When each result of a round with a relay delay reaches the public: the moment its game's
    event at the result's version (the one that finished it) is the round's delay old. One
    query for the (game, version) pairs not known yet in this process, none for a tournament
    without a delayed round with a result."""
    wanted: list[tuple[int, int, str, int, int]] = []
    for rnd in state.rounds:
        delay = state.relay_delay(rnd.number)
        if delay <= 0:
            continue
        for table in rnd.tables:
            if table.result is not None and table.game and table.result_version is not None:
                wanted.append((rnd.number, table.number, table.game, table.result_version, delay))
    if not wanted:
        return {}
    known: dict[tuple[str, int], datetime] = {}
    missing: dict[int, set[uuid.UUID]] = defaultdict(set)
    for _r, _t, game, version, _d in wanted:
        at = _RECORDED.get((game, version))
        if at is None:
            missing[version].add(uuid.UUID(game))
        else:
            known[(game, version)] = at
    if missing:  # grouped by version: far fewer terms than pairs
        wanted_events = reduce(
            or_, (Q(version=v, stream_id__in=sorted(g)) for v, g in sorted(missing.items()))
        )
        found = Event.objects.filter(wanted_events).values_list(
            "stream_id", "version", "recorded_at"
        )
        for stream_id, version, at in found:
            known[(str(stream_id), version)] = at
            _RECORDED.put((str(stream_id), version), at)
    out: Held = {}
    for number, table_number, game, version, delay in wanted:
        at = known.get((game, version))
        if at is not None:  # else no such event: nothing to wait for
            out[(number, table_number)] = at + timedelta(seconds=delay)
    return out


def held_results(state: TournamentState, now: datetime | None = None) -> Held:
    """The results the relay's delay still holds back from the public (docs/relay.md), with
    when each reaches it."""
    now = now or timezone.now()
    return {key: at for key, at in _maturities(state).items() if at > now}


def public_state(state: TournamentState, held: Collection[tuple[int, int]]) -> TournamentState:
    """``state`` as the public sees it: the ``held`` tables as if still being played (no result,
    not confirmed). The state itself if nothing is held; else a copy sharing all but the rounds
    it changes (read only, as the state)."""
    if not held:
        return state
    public = copy.copy(state)
    changed = list(state.rounds)
    for number in sorted({r for r, _t in held}):
        rnd = changed[number - 1]
        tables = [
            dataclasses.replace(
                t,
                result=None,
                result_version=None,
                entered_by=(),
                confirmed_by=None,
                confirmed=False,
            )
            if (number, t.number) in held
            else t
            for t in rnd.tables
        ]
        changed[number - 1] = dataclasses.replace(rnd, tables=tables)
    public.rounds = changed
    return public


def _seen(
    state: TournamentState, user: User | None, now: datetime | None = None
) -> tuple[TournamentState, frozenset[tuple[int, int]]]:
    """The state as ``user`` may see it now, and the results held back from them."""
    if _officiates(state, user):
        return state, frozenset()
    held = frozenset(held_results(state, now))
    return public_state(state, held), held


_PUBLIC_STANDINGS: Recent[tuple[uuid.UUID, int, frozenset[tuple[int, int]]], dict[str, Any]] = (
    Recent(32)
)
"""Standings of a public state that differs from the tournament's (results held back), by
tournament, version and what is held: ranked once per process."""


def _standings_of(
    projection: TournamentProjection,
    state: TournamentState,
    shown: TournamentState,
    held: frozenset[tuple[int, int]],
) -> dict[str, Any]:
    """The standings of ``shown`` (the state, or the public's copy of it without ``held``)."""
    if not held:
        return current_standings(projection, state)
    key = (projection.stream_id, state.version, held)
    found = _PUBLIC_STANDINGS.get(key)
    if found is None:
        found = games.as_stored(rounds.standings_json(shown))
        _PUBLIC_STANDINGS.put(key, found)
    return rounds.standings_apart(shown, dict(found))


def public_standings(
    projection: TournamentProjection, state: TournamentState
) -> tuple[dict[str, Any], bool]:
    """The standings as the public sees them now (without the results the relay's delay holds
    back), and whether any result is held back: for the club, which shows none early."""
    held = frozenset(held_results(state))
    return _standings_of(projection, state, public_state(state, held), held), bool(held)


def tournaments_held(tournament_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, dict[str, int]]:
    """The results the relay's delay still holds back from the public, by tournament (only
    tournaments holding some back): each held table's game and the game's version the result
    was recorded at. For the club, which shows none early."""
    out: dict[uuid.UUID, dict[str, int]] = {}
    now = timezone.now()
    for tournament_id in tournament_ids:
        try:
            state = _state(_projection(tournament_id))
        except games.GameNotFound:
            continue
        if state.settings is None:
            continue
        held = held_results(state, now)
        found = {
            str(t.game): int(t.result_version)
            for r, n in held
            for t in state.rounds[r - 1].tables
            if t.number == n and t.game and t.result_version is not None
        }
        if found:
            out[tournament_id] = found
    return out


@dataclass(frozen=True, slots=True)
class _Public:
    """What the public's view of one tournament version waits for."""

    saved: datetime
    """When the projection was saved (the version's own time)."""
    since: datetime
    """When the public's view last changed as of when it was computed: the projection's save,
    or a held result reaching it after that."""
    pending: tuple[datetime, ...]
    """When each result held back then reaches the public."""


_PUBLIC_KEYS: Recent[tuple[uuid.UUID, str], _Public] = Recent(256)
"""By tournament and :func:`tournament_version`: a version's results never change, so the
moments they reach the public are known once (a tournament without a delay: nothing pending)."""


def tournament_public_version(tournament_id: uuid.UUID, now: datetime | None = None) -> str | None:
    """:func:`tournament_version` as the public sees the tournament: while the relay's delay
    holds results back, or once one reached the public after the projection was saved, the
    version says how many are held and the time is when the public's view last changed
    (``<version>+<held>:<time>``: a page cached, an ETag or a Last-Modified of the public's
    standings never outlives a held result reaching it). Otherwise the version as it is: no
    query beyond it once the version is known in this process."""
    key = tournament_version(tournament_id)
    if key is None:
        return None
    now = now or timezone.now()
    found = _PUBLIC_KEYS.get((tournament_id, key))
    if found is None:
        try:
            projection = _projection(tournament_id)
        except games.GameNotFound:
            return key
        if str(projection.version) != key.partition(":")[0]:
            return key  # moved on meanwhile: this key is already out of date
        state = _state(projection)
        maturities = sorted(_maturities(state).values()) if state.settings is not None else []
        saved = projection.updated_at
        since = max([saved, *(m for m in maturities if saved < m <= now)])
        found = _Public(saved, since, tuple(m for m in maturities if m > now))
        _PUBLIC_KEYS.put((tournament_id, key), found)
    reached = [m for m in found.pending if m <= now]
    since = max([found.since, *reached])
    held = len(found.pending) - len(reached)
    if not held and since == found.saved:
        return key
    return f"{key.partition(':')[0]}+{held}:{since.isoformat()}"


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


_USER: Final = object()
"""``reader`` left out: the read is for ``user``."""


def tournament_get(
    *, tournament_id: uuid.UUID, user: User | None = None, reader: Any = _USER
) -> TournamentRead:
    """The tournament as this user may see it (proposed rounds: organizers only), without its
    standings (ranking them is the costly part of a read after a result). A result the relay's
    delay still holds back (docs/relay.md) is not in it, but for the tournament's officials;
    ``reader``: whose delay it is, if not ``user``'s (an organizer's download of the public's
    files)."""
    projection = _projection(tournament_id)
    state = _state(projection)
    shown, _held = _seen(state, user if reader is _USER else reader)
    return TournamentRead(projection.stream_id, state.version, _summary(projection, shown, user))


def tournament_get_with_standings(
    *, tournament_id: uuid.UUID, user: User | None = None
) -> TournamentRead:
    """:func:`tournament_get` and :func:`tournament_standings` from one read of the projection
    (the standings page, the desk, the CSV): the standings are None while hidden from this
    user, and ranked without the results the relay's delay holds back from them."""
    projection = _projection(tournament_id)
    state = _state(projection)
    shown, held = _seen(state, user)
    standings = (
        _standings_of(projection, state, shown, held) if standings_visible(state, user) else None
    )
    return TournamentRead(
        projection.stream_id, state.version, _summary(projection, shown, user), standings
    )


def tournament_standings(*, tournament_id: uuid.UUID, user: User | None) -> dict[str, Any]:
    """The standings (columns and rows) if this user may see them now (without the results
    the relay's delay holds back from them)."""
    projection = _projection(tournament_id)
    state = _state(projection)
    if not standings_visible(state, user):
        raise NotAllowed(
            _("the organizer has hidden the standings until the end of the tournament")
        )
    shown, held = _seen(state, user)
    return _standings_of(projection, state, shown, held)


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
    row = _first_row(
        f"SELECT version, updated_at FROM {table} WHERE {column} = %s",  # noqa: S608
        [stream.get_db_prep_value(tournament_id, connection)],
    )
    return None if row is None else f"{row[0]}:{row[1]}"


def _first_row(sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    """The first row of ``sql``, in one round trip. Django checks a kept connection before a
    request's first query (CONN_HEALTH_CHECKS: a ``SELECT 1``), which on the public standings
    (one query a visit: the version) cost more than the query itself; on PostgreSQL the query
    is the check instead, as the seat phones' poll does (games.services.poll): if the kept
    connection died (a restarted server) it is closed and the query runs once more on a new
    one, so a visit never fails where the health check would have saved it. After it, the
    request's other queries need no check either."""
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        connection.health_check_done = True  # type: ignore[attr-defined]  # this query checks it
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchone()  # type: ignore[no-any-return]
        except (OperationalError, InterfaceError):
            connection.close()  # a dead kept connection: once more, on a new one
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()  # type: ignore[no-any-return]


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
