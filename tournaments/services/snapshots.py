"""The state a tournament's actions decide on: a snapshot in the projection's row (written every
:data:`SNAPSHOT_EVERY` events, not at each one) plus the events after it, folded on a read;
and the folded state kept per thread between actions, so a writer neither parses nor writes the
whole state each time (at 1,000 players the state is ~470 KiB of JSON).

The cache is keyed by the row's ``version`` and ``updated_at`` (every save changes both): a
transaction that rolled back leaves a key no committed row has, so a state that never committed
is never found. It is per thread (a gunicorn sync worker and a Celery prefork child have one):
states are mutated in place by the fold, and a writer takes its state out of the cache until its
save is done, so nobody sees a half-applied state.
"""

from __future__ import annotations

import threading
import uuid
from datetime import datetime

from games import store
from tournaments import domain
from tournaments.domain import TournamentState
from tournaments.models import TournamentProjection

SNAPSHOT_EVERY = 50
"""Write the snapshot when this many events have been folded since the last one (a read that
misses the cache folds at most this many from the stream)."""

BIG_COLUMNS = ("state", "standings")
"""The projection's columns a writer or a reader does not load unless it needs them."""

_Key = tuple[int, datetime | None]
_local = threading.local()


def _cache() -> dict[uuid.UUID, tuple[_Key, TournamentState]]:
    cache = getattr(_local, "states", None)
    if cache is None:
        cache = _local.states = {}
    return cache


def _key(projection: TournamentProjection) -> _Key:
    return (projection.version, projection.updated_at)


def load(projection: TournamentProjection) -> TournamentState:
    """The state at the projection's version, from its snapshot and the events after it."""
    state = domain.from_json(projection.state) if projection.state else TournamentState()
    if projection.snapshot_version < projection.version:
        tail = store.read_stream(
            projection.stream_id, since=projection.snapshot_version, until=projection.version
        )
        for event in tail:
            domain.apply(state, event.version, event.type, event.data)
    return state


def current(projection: TournamentProjection) -> TournamentState:
    """The state at the projection's version (cached): for reading only, never mutate it."""
    cache = _cache()
    found = cache.get(projection.stream_id)
    if found is not None and found[0] == _key(projection):
        return found[1]
    state = load(projection)
    cache[projection.stream_id] = (_key(projection), state)
    return state


def take(projection: TournamentProjection) -> TournamentState:
    """The state to decide on and fold into: out of the cache until :func:`keep` puts it back
    (a failure in between leaves nothing half-applied behind)."""
    state = current(projection)
    _cache().pop(projection.stream_id, None)
    return state


def keep(projection: TournamentProjection, state: TournamentState) -> None:
    """Cache the state just saved in the projection (at its new version and save time)."""
    _cache()[projection.stream_id] = (_key(projection), state)


def forget(tournament_id: uuid.UUID | None = None) -> None:
    """Drop the cached state of one tournament (or all): tests, and rebuilds."""
    if tournament_id is None:
        _cache().clear()
    else:
        _cache().pop(tournament_id, None)


def due(projection: TournamentProjection, state: TournamentState) -> bool:
    """Whether a save at ``state``'s version writes the snapshot too."""
    return state.version - projection.snapshot_version >= SNAPSHOT_EVERY
