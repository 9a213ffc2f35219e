"""The event store: append to a stream at an expected version, read a stream, read the log.

Generic over streams (games now, tournaments later); it knows nothing of any game's rules.
Callers (the services) hold the transaction: :func:`append` must run inside
``transaction.atomic`` so the projection update commits or rolls back with the events.

* Optimistic concurrency: an append names the version it expects. The unique (stream, version)
  constraint, hit inside a savepoint, is what detects a concurrent writer; it is never hidden by
  an ON CONFLICT clause. The loser gets :class:`VersionConflict`. A caller that holds the
  stream's lock (its projection's row, read FOR UPDATE at the version it appends at) may append
  without the savepoint (``locked``: two round trips fewer for each tap): the constraint then
  aborts the caller's whole transaction (:class:`AppendRefused`), and once it has rolled back
  :meth:`AppendRefused.outcome` tells the key's first append from a conflict, as the savepoint's
  handler does.
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
import weakref
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


class AppendRefused(StoreError):
    """A ``locked`` append hit the log's unique constraints (the key was used, or another writer
    appended at this version): the transaction it ran in is aborted. Let it roll back (leave
    ``transaction.atomic``), then :meth:`outcome` says which it was."""

    def __init__(self, stream_id: uuid.UUID, expected: int, idempotency_key: str | None) -> None:
        super().__init__(f"the append to stream {stream_id} at version {expected} was refused")
        self.stream_id = stream_id
        self.expected = expected
        self.idempotency_key = idempotency_key

    def outcome(self) -> AlreadyAppended | VersionConflict:
        """What :func:`append` with its savepoint would have raised (read after the rollback)."""
        if connection.in_atomic_block and connection.needs_rollback:
            raise RuntimeError("AppendRefused.outcome() must run after the rollback")
        if self.idempotency_key is not None:
            prior = find_prior(self.idempotency_key)
            if prior is not None:
                return AlreadyAppended(prior)
        return VersionConflict(self.stream_id, self.expected, current_version(self.stream_id))


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
    locked: bool = False,
) -> list[Event]:
    """Append ``events`` as versions expected_version+1, +2, ... of the stream.

    Raises :class:`AlreadyAppended` if the key was used before (nothing written),
    :class:`VersionConflict` if another writer got there first (nothing written).
    Must be called inside ``transaction.atomic``. ``locked``: the caller holds the stream's
    lock, at this version; no savepoint, and either refusal is :class:`AppendRefused` (the
    transaction is aborted: roll it back, then ask its ``outcome()``).

    Once the transaction commits, the appended rows extend what this process's
    :class:`StreamMemo` instances keep of the stream (it never reads back its own appends).
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
    # One INSERT for the whole batch (a phone's tap and the events the rules force after it are
    # one append): every round trip counts at 50 tables of phones (issue 12).
    if locked:
        try:
            Event.objects.bulk_create(rows)
        except IntegrityError:
            raise AppendRefused(stream_id, expected_version, idempotency_key) from None
    else:
        try:
            with transaction.atomic():  # a savepoint: the caller's transaction survives a conflict
                Event.objects.bulk_create(rows)
        except IntegrityError:
            if idempotency_key is not None:
                prior = find_prior(idempotency_key)
                if prior is not None:
                    raise AlreadyAppended(prior) from None
            raise VersionConflict(stream_id, expected_version, current_version(stream_id)) from None
    transaction.on_commit(lambda: _committed(stream_id, rows))
    return rows


_MEMOS: weakref.WeakSet[StreamMemo] = weakref.WeakSet()
"""This process's stream memos: each is told of the appends this process commits."""


def _committed(stream_id: uuid.UUID, rows: list[Event]) -> None:
    memos = [memo for memo in list(_MEMOS) if memo.keeps(stream_id, rows[0].version - 1)]
    if memos:
        stored = [_as_read(row) for row in rows]
        for memo in memos:
            memo.appended(stream_id, stored)


def _as_read(row: Event) -> Event:
    """An appended row as :func:`read_stream` would give it back: its JSON as the database
    keeps it (JSON types only; on PostgreSQL jsonb's order of keys, the shorter first)."""
    jsonb = connection.vendor == "postgresql"
    return Event(
        id=row.id,
        stream_id=row.stream_id,
        version=row.version,
        type=row.type,
        data=_stored_json(row.data, jsonb),
        metadata=_stored_json(row.metadata, jsonb),
        idempotency_key=row.idempotency_key,
        recorded_at=row.recorded_at,
        tx_id=row.tx_id,
    )


def _stored_json(value: Any, jsonb: bool) -> Any:
    loaded = json.loads(json.dumps(value))
    return _jsonb_order(loaded) if jsonb else loaded


def _jsonb_order(value: Any) -> Any:
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
        return {k: _jsonb_order(value[k]) for k in keys}
    if isinstance(value, list):
        return [_jsonb_order(v) for v in value]
    return value


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
        _MEMOS.add(self)

    def keeps(self, stream_id: uuid.UUID, version: int) -> bool:
        """Whether the stream is kept up to ``version``."""
        kept = self._kept.get(stream_id)
        return bool(kept) and kept[-1].version == version  # type: ignore[index]

    def appended(self, stream_id: uuid.UUID, rows: list[Event]) -> None:
        """This process committed ``rows`` (read back as the database keeps them) to the
        stream: a stream kept up to the version before them is extended (no read)."""
        kept = self._kept.get(stream_id)
        if not kept or not rows or kept[-1].version != rows[0].version - 1:
            return
        self._kept.put(stream_id, kept + rows, unless=lambda held: held is not kept)

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
