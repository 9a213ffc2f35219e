"""The event store: append to a stream at an expected version, read a stream, read the log.

Generic over streams (games now, tournaments later); it knows nothing of any game's rules.
Callers (the services) hold the transaction: :func:`append` must run inside
``transaction.atomic`` so the projection update commits or rolls back with the events.

* Optimistic concurrency: an append names the version it expects. The unique (stream, version)
  constraint, hit inside a savepoint, is what detects a concurrent writer; it is never hidden by
  an ON CONFLICT clause. The loser gets :class:`VersionConflict`.
* Idempotency: an append may carry a key (unique across the log). The same key again finds the
  first append (:class:`AlreadyAppended`) and writes nothing, even when the retry races the
  original: a lost response is told apart from a real conflict by the key.
* Commit order: on PostgreSQL ids are handed out before commit, so a transaction can commit a
  lower id after a reader saw a higher one. Each event records its transaction id; readers of
  the whole log (:func:`read_all`) only go up to the oldest transaction still running, in
  (transaction, id) order, so no event is ever skipped.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Q
from django.db.models.expressions import RawSQL
from django.utils import timezone

from games.db import committed_horizon_sql
from games.models import Event, Stream
from games.recent import Recent


@dataclass(frozen=True, slots=True)
class NewEvent:
    type: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Cursor:
    """A position in the whole log, in commit order."""

    tx: int
    id: int

    def __str__(self) -> str:
        return f"{self.tx}.{self.id}"

    @classmethod
    def parse(cls, text: str) -> Cursor:
        tx, _, position = text.partition(".")
        try:
            cursor = cls(int(tx), int(position))
        except ValueError:
            raise ValueError(f"{text!r} is not a log position (like 0.42)") from None
        if cursor.tx < 0 or cursor.id < 0:
            raise ValueError(f"{text!r} is not a log position (like 0.42)")
        return cursor


START = Cursor(0, 0)
"""Before every event: ids start at 1 and transaction ids at 0 (SQLite) or above (PostgreSQL)."""


class StoreError(Exception):
    pass


class VersionConflict(StoreError):
    def __init__(self, stream_id: uuid.UUID, expected: int, current: int) -> None:
        super().__init__(
            f"stream {stream_id} is at version {current}, not {expected}: "
            "someone else appended first"
        )
        self.stream_id = stream_id
        self.expected = expected
        self.current = current


@dataclass(frozen=True, slots=True)
class PriorAppend:
    """What an idempotency key's first append wrote."""

    stream_id: uuid.UUID
    first_version: int
    last_version: int
    request_hash: str


class AlreadyAppended(StoreError):
    def __init__(self, prior: PriorAppend) -> None:
        super().__init__(
            f"already appended as versions {prior.first_version}..{prior.last_version}"
        )
        self.prior = prior


def request_hash(*parts: Any) -> str:
    """A fingerprint of a request, to refuse reusing an idempotency key for another request."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def find_prior(idempotency_key: str) -> PriorAppend | None:
    first = Event.objects.filter(idempotency_key=idempotency_key).first()
    if first is None:
        return None
    size = int(first.metadata.get("batch", 1))
    return PriorAppend(
        stream_id=first.stream_id,
        first_version=first.version,
        last_version=first.version + size - 1,
        request_hash=str(first.metadata.get("request_hash", "")),
    )


def current_version(stream_id: uuid.UUID) -> int:
    version = Event.objects.filter(stream_id=stream_id).aggregate(v=Max("version"))["v"]
    return int(version or 0)


def create_stream(kind: str) -> Stream:
    return Stream.objects.create(kind=kind)


def append(
    stream_id: uuid.UUID,
    expected_version: int,
    events: Sequence[NewEvent],
    *,
    metadata: dict[str, Any],
    idempotency_key: str | None = None,
    request_fingerprint: str = "",
) -> list[Event]:
    """Append ``events`` as versions expected_version+1, +2, ... of the stream.

    Raises :class:`AlreadyAppended` if the key was used before (nothing written),
    :class:`VersionConflict` if another writer got there first (nothing written).
    Must be called inside ``transaction.atomic``.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("append() must run inside transaction.atomic")
    if not events:
        raise ValueError("nothing to append")
    now = timezone.now()
    rows = []
    for offset, event in enumerate(events):
        first = offset == 0
        meta = dict(metadata, idempotency_key=idempotency_key)
        if first:
            meta.update(batch=len(events), request_hash=request_fingerprint)
        rows.append(
            Event(
                stream_id=stream_id,
                version=expected_version + 1 + offset,
                type=event.type,
                data=event.data,
                metadata=meta,
                idempotency_key=idempotency_key if first else None,
                recorded_at=now,
            )
        )
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction survives a conflict
            # One INSERT for the whole batch (a phone's tap and the events the rules force after
            # it are one append): every round trip counts at 50 tables of phones (issue 12).
            Event.objects.bulk_create(rows)
    except IntegrityError:
        if idempotency_key is not None:
            prior = find_prior(idempotency_key)
            if prior is not None:
                raise AlreadyAppended(prior) from None
        raise VersionConflict(stream_id, expected_version, current_version(stream_id)) from None
    return rows


def read_stream(stream_id: uuid.UUID, since: int = 0, until: int | None = None) -> list[Event]:
    """The stream's events with version > since (and <= until), in version order."""
    events = Event.objects.filter(stream_id=stream_id, version__gt=since)
    if until is not None:
        events = events.filter(version__lte=until)
    return list(events.order_by("version"))


class StreamMemo:
    """Streams' events kept in this process, so that a reader who asks each time for a whole
    stream up to its latest version (every seat phone of a table, redrawing its panel after each
    tap: its undo offer reads the table's log) reads only what was appended since.

    A stream's events never change once appended (the log is append-only), so what is kept is
    extended, never reread; the last event kept is read again with the new ones and must be the
    same row (its id), else the stream is read whole (a database restored from a backup). For
    readers of committed events (a page, or a write's decision before it appends): the version
    a reader asks for is its projection's. ``streams``: how many are kept (games.recent)."""

    def __init__(self, streams: int = 512) -> None:
        self._kept: Recent[uuid.UUID, list[Event]] = Recent(streams)

    def read(self, stream_id: uuid.UUID, until: int) -> list[Event]:
        """The stream's events with version <= ``until``, in version order (do not change the
        list: it is shared)."""
        kept = self._kept.get(stream_id)
        if kept and kept[-1].version == until:
            return kept
        events = None
        if kept and kept[-1].version < until:
            last = kept[-1]
            more = read_stream(stream_id, since=last.version - 1, until=until)
            if more and more[0].id == last.id:
                events = kept + more[1:]
        if events is None:
            events = read_stream(stream_id, until=until)

        def newer(held: list[Event]) -> bool:  # never replaced by an older read
            return bool(held) and held[-1].version > until

        self._kept.put(stream_id, events, unless=newer)
        return events


def read_all(
    after: Cursor = START, limit: int = 500, types: Collection[str] | None = None
) -> list[Event]:
    """Events of every stream after ``after``, in commit order, up to ``limit`` (of the given
    ``types`` only, if given: a consumer that follows a few kinds of events).

    Only events whose transaction is older than every transaction still running are returned,
    so a later call with the last event's cursor never misses one that commits late.
    """
    events = Event.objects.filter(Q(tx_id__gt=after.tx) | Q(tx_id=after.tx, id__gt=after.id))
    if types is not None:
        events = events.filter(type__in=sorted(types))
    if connection.vendor == "postgresql":
        events = events.filter(tx_id__lt=RawSQL(committed_horizon_sql(), []))
    return list(events.order_by("tx_id", "id")[:limit])


def cursor_of(event: Event) -> Cursor:
    return Cursor(event.tx_id, event.id)
