"""The club's stream and its folded state (the projection row), for the writes and the
consumer."""

from __future__ import annotations

import threading
import uuid

from django.db import transaction

from club import domain
from club.models import ClubProjection
from games import store
from games.models import Event, Stream

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


def club_key() -> tuple[int, int]:
    """The club stream's version and the id of its last event: what a folded state is kept
    by, so that a database restored, rebuilt or flushed (whose versions start again) never
    matches a state kept from before."""
    row = (
        Event.objects.filter(stream_id=CLUB_ID)
        .order_by("-version")
        .values_list("version", "id")
        .first()
    )
    return (int(row[0]), int(row[1])) if row else (0, 0)


def club_state() -> domain.ClubState:
    """The club's state now, for reading only (never change it: it is shared): folded from
    its stream (the club's decisions, not its games: a short stream), kept per
    :func:`club_key` in this process."""
    key = club_key()
    with _LOCK:
        kept = _FOLDED.get(key)
    if kept is not None:
        return kept
    state = fold_club()
    if state.version != key[0]:  # appended meanwhile: keep it under its own key next time
        return state
    with _LOCK:
        _FOLDED.clear()
        _FOLDED[key] = state
    return state


_FOLDED: dict[tuple[int, int], domain.ClubState] = {}
_LOCK = threading.Lock()


def forget() -> None:
    """Drop the kept states (the tests' rolled-back databases)."""
    with _LOCK:
        _FOLDED.clear()
