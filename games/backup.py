"""Backups that cannot lose an event: the whole log out as JSON Lines, and back in.

The log is the truth; every projection is rebuilt from it. So a backup is the log itself,
written stream by stream in the order it was recorded, read a chunk at a time (constant memory
whatever the size), and a restore replays it into an empty database, keeping every event's id,
stream, version, data, metadata and time, then rebuilds the projections.

The first line says what the file is; each following line is one event:
``{"id", "stream", "kind", "version", "type", "data", "metadata", "idempotency_key",
"recorded_at"}``.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Any, TextIO

from django.db import connection, transaction

from engine.jsonline import find_character, lone_surrogate
from games.models import Event, Stream

NUL = re.compile("\x00")
FORMAT = "trick-n-chef-event-log"
VERSION = 1
CHUNK = 2000


class BackupError(Exception):
    """A backup file that cannot be restored, in the operator's words (with its line)."""


def export_events(out: TextIO, chunk: int = CHUNK) -> int:
    """Write every event to ``out``; return how many."""
    out.write(json.dumps({"format": FORMAT, "version": VERSION}) + "\n")
    kinds = dict(Stream.objects.values_list("id", "kind"))
    count = 0
    events = Event.objects.order_by("id").values_list(
        "id",
        "stream_id",
        "version",
        "type",
        "data",
        "metadata",
        "idempotency_key",
        "recorded_at",
    )
    for event_id, stream, version, kind, data, metadata, key, recorded in events.iterator(
        chunk_size=chunk
    ):
        line = {
            "id": event_id,
            "stream": str(stream),
            "kind": kinds[stream],
            "version": version,
            "type": kind,
            "data": data,
            "metadata": metadata,
            "idempotency_key": key,
            "recorded_at": recorded.isoformat(),
        }
        out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
        count += 1
    return count


def _parse(number: int, line: str) -> dict[str, Any]:
    try:
        obj = json.loads(line)
        event = {
            "id": int(obj["id"]),
            "stream": uuid.UUID(obj["stream"]),
            "kind": str(obj["kind"]),
            "version": int(obj["version"]),
            "type": str(obj["type"]),
            "data": obj["data"],
            "metadata": obj["metadata"],
            "idempotency_key": obj["idempotency_key"],
            "recorded_at": datetime.fromisoformat(obj["recorded_at"]),
        }
    except (ValueError, KeyError, TypeError) as error:
        raise BackupError(f"line {number}: not an event of this backup format ({error})") from None
    if event["kind"] not in Stream.Kind.values:
        raise BackupError(f"line {number}: unknown stream kind {event['kind']!r}")
    # SQLite would keep these; PostgreSQL cannot store them at all (text or JSON).
    found = lone_surrogate(obj, line)
    if found is not None:
        raise BackupError(
            f"line {number}: {found.path} holds a lone surrogate ({found.code_point}), half of "
            "a character: this is not a backup this project wrote"
        )
    found = find_character(obj, NUL) if "\\u0000" in line else None
    if found is not None:
        raise BackupError(
            f"line {number}: {found.path} holds a NUL character (U+0000): this is not a backup "
            "this project wrote"
        )
    return event


def import_events(
    lines: Iterable[str],
    chunk: int = CHUNK,
    rebuild: Callable[[], object] | None = None,
) -> int:
    """Restore a backup into an empty database (one transaction: all or nothing), then rebuild
    the projections with ``rebuild``. Returns how many events were restored."""
    if Event.objects.exists():
        raise BackupError("the database already holds events: restore into an empty database")
    stream = iter(lines)
    header = next(stream, "")
    try:
        head = json.loads(header)
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise BackupError(f"line 1: this is not a {FORMAT} backup")
    if head.get("version") != VERSION:
        raise BackupError(f"line 1: backup format version {head.get('version')!r} is not known")
    count = 0
    with transaction.atomic():
        known: set[uuid.UUID] = set()
        expected: dict[uuid.UUID, int] = {}
        for batch in _batches(_events(stream), chunk):
            new_streams = []
            rows = []
            for number, event in batch:
                sid = event["stream"]
                if sid not in known:
                    known.add(sid)
                    new_streams.append(Stream(id=sid, kind=event["kind"]))
                want = expected.get(sid, 0) + 1
                if event["version"] != want:
                    raise BackupError(
                        f"line {number}: stream {sid} jumps to version {event['version']} "
                        f"(expected {want}): the backup is incomplete or out of order"
                    )
                expected[sid] = want
                rows.append(
                    Event(
                        id=event["id"],
                        stream_id=sid,
                        version=event["version"],
                        type=event["type"],
                        data=event["data"],
                        metadata=event["metadata"],
                        idempotency_key=event["idempotency_key"],
                        recorded_at=event["recorded_at"],
                    )
                )
            Stream.objects.bulk_create(new_streams)
            Event.objects.bulk_create(rows)
            count += len(rows)
        _reset_sequence()
        if rebuild is not None:
            rebuild()
    return count


def _events(lines: Iterator[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(lines, start=2):
        if line.strip():
            yield number, _parse(number, line)


def _batches(
    items: Iterator[tuple[int, dict[str, Any]]], size: int
) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    batch: list[tuple[int, dict[str, Any]]] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _reset_sequence() -> None:
    """After inserting explicit ids, new events must continue after the highest one."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence('games_event', 'id'), "
                "COALESCE((SELECT MAX(id) FROM games_event), 1))"
            )


def digest(parts: Iterable[tuple[str, Any]]) -> str:
    """A fingerprint of named JSON-ready values (to compare databases after a restore)."""
    h = hashlib.sha256()
    for name, value in parts:
        h.update(name.encode())
        h.update(json.dumps(value, sort_keys=True, separators=(",", ":"), default=str).encode())
    return h.hexdigest()
