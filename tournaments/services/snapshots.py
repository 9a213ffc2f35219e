"""The state a tournament's actions decide on: a snapshot in the projection's row (written every
:data:`SNAPSHOT_EVERY` events, not at each one) plus the events after it, folded on a read;
and the folded state kept per thread between actions, so a writer neither parses nor writes the
whole state each time (at 1,000 players the state is ~470 KiB of JSON).

The cache is keyed by the row's ``version`` and ``updated_at`` (every save changes both): a
transaction that rolled back leaves a key no committed row has, so a state that never committed
is never found. A cached state the row has moved past (another process wrote: a second worker,
a second web worker) is caught up by folding the events after it, if the stream's event at its
version is still the very event it was folded to (same id and time; else it never committed),
no undo is among them and no snapshot was written since (a rebuild's fix reaches every process
that way; otherwise once in :data:`SNAPSHOT_EVERY` events). It is per thread (a gunicorn sync
worker and a Celery prefork child have one): states are mutated in place by the fold, and a
writer takes its state out of the cache until its save is done, so nobody sees a half-applied
state.
"""

from __future__ import annotations

import threading
import uuid
from datetime import datetime

from games import store
from games.models import Event
from tournaments import domain
from tournaments.domain import TournamentState
from tournaments.models import TournamentProjection

SNAPSHOT_EVERY = 50
"""Write the snapshot when this many events have been folded since the last one (a read that
misses the cache folds at most this many from the stream)."""

CACHED_TOURNAMENTS = 16
"""How many tournaments' states a thread keeps (the least recently used goes first): a club's
server sees many tournaments over the years, a worker only needs the few running now."""

BIG_COLUMNS = ("state", "standings")
"""The projection's columns a writer or a reader does not load unless it needs them."""

_Key = tuple[int, datetime | None]
_Marker = tuple[int, datetime] | None
"""The last event folded into a cached state (id and time), to catch it up from there."""
_Entry = tuple[_Key, _Marker, TournamentState]
_local = threading.local()


def _cache() -> dict[uuid.UUID, _Entry]:
    cache = getattr(_local, "states", None)
    if cache is None:
        cache = _local.states = {}
    return cache


def _remember(tournament_id: uuid.UUID, entry: _Entry) -> None:
    cache = _cache()
    cache.pop(tournament_id, None)
    cache[tournament_id] = entry  # the newest last: a dict keeps its insertion order
    while len(cache) > CACHED_TOURNAMENTS:
        del cache[next(iter(cache))]


def _key(projection: TournamentProjection) -> _Key:
    return (projection.version, projection.updated_at)


def marker(event: Event) -> _Marker:
    return (event.id, event.recorded_at)


def load(projection: TournamentProjection) -> TournamentState:
    """The state at the projection's version, from its snapshot and the events after it."""
    return _load(projection)[1]


def _load(projection: TournamentProjection) -> tuple[_Marker, TournamentState]:
    state = domain.from_json(projection.state) if projection.state else TournamentState()
    last: _Marker = None
    if projection.snapshot_version < projection.version:
        tail = store.read_stream(
            projection.stream_id, since=projection.snapshot_version, until=projection.version
        )
        for event in tail:
            domain.apply(state, event.version, event.type, event.data)
        last = marker(tail[-1]) if tail else None
    return last, state


def _caught_up(projection: TournamentProjection, entry: _Entry) -> _Entry | None:
    """The cached entry folded on to the projection's version, if it can be (see above)."""
    (version, _), last, state = entry
    if last is None or not version < projection.version:
        return None
    if projection.snapshot_version > version:  # a newer snapshot (maybe a rebuild's fix): load it
        return None
    tail = store.read_stream(projection.stream_id, since=version - 1, until=projection.version)
    if not tail or tail[0].version != version or marker(tail[0]) != last:
        return None
    if any(event.type == domain.UNDONE for event in tail):
        return None
    for event in tail[1:]:
        domain.apply(state, event.version, event.type, event.data)
    return (_key(projection), marker(tail[-1]), state)


def current(projection: TournamentProjection) -> TournamentState:
    """The state at the projection's version (cached): for reading only, never mutate it."""
    cache = _cache()
    found = cache.pop(projection.stream_id, None)
    if found is not None and found[0] == _key(projection):
        _remember(projection.stream_id, found)
        return found[2]
    entry = _caught_up(projection, found) if found is not None else None
    if entry is None:
        last, state = _load(projection)
        entry = (_key(projection), last, state)
    _remember(projection.stream_id, entry)
    return entry[2]


def take(projection: TournamentProjection) -> TournamentState:
    """The state to decide on and fold into: out of the cache until :func:`keep` puts it back
    (a failure in between leaves nothing half-applied behind)."""
    state = current(projection)
    _cache().pop(projection.stream_id, None)
    return state


def keep(projection: TournamentProjection, state: TournamentState, last: Event) -> None:
    """Cache the state just saved in the projection (at its new version and save time), and
    the last event folded into it."""
    _remember(projection.stream_id, (_key(projection), marker(last), state))


def forget(tournament_id: uuid.UUID | None = None) -> None:
    """Drop the cached state of one tournament (or all): tests, and rebuilds."""
    if tournament_id is None:
        _cache().clear()
    else:
        _cache().pop(tournament_id, None)


def due(projection: TournamentProjection, state: TournamentState) -> bool:
    """Whether a save at ``state``'s version writes the snapshot too."""
    return state.version - projection.snapshot_version >= SNAPSHOT_EVERY
