"""The club's stream and its folded state (the projection row), for the writes and the
consumer."""

from __future__ import annotations

import uuid

from django.db import transaction

from club import domain
from club.models import ClubProjection
from games import store
from games.models import Stream

CLUB_ID = uuid.UUID(domain.CLUB_STREAM_ID)


def club_projection(*, lock: bool = False) -> ClubProjection:
    """The club's projection row (made, with the club's stream, the first time it is asked
    for)."""
    rows = ClubProjection.objects.all()
    if lock:
        rows = rows.select_for_update()
    found = rows.filter(stream_id=CLUB_ID).first()
    if found is not None:
        return found
    with transaction.atomic():
        Stream.objects.get_or_create(id=CLUB_ID, defaults={"kind": "club"})
        ClubProjection.objects.get_or_create(stream_id=CLUB_ID)
    return rows.get(stream_id=CLUB_ID)


def fold_club() -> domain.ClubState:
    """The club's state folded from its stream (the log, not the projection)."""
    return domain.fold((e.version, e.type, e.data) for e in store.read_stream(CLUB_ID))


def club_state() -> domain.ClubState:
    """The club's state now, for reading: folded from the log (the stream is short: a club's
    decisions, not its games) when the projection is behind."""
    projection = ClubProjection.objects.filter(stream_id=CLUB_ID).first()
    if projection is None:
        return domain.ClubState()
    return _cached(projection.version)


_FOLDED: dict[int, domain.ClubState] = {}


def _cached(version: int) -> domain.ClubState:
    state = _FOLDED.get(version)
    if state is None or state.version != version:
        state = fold_club()
        _FOLDED.clear()
        _FOLDED[state.version] = state
    return state
