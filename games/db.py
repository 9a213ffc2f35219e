"""Database details of the event log that the ORM does not express.

* :class:`LogTransactionId` -- the default of ``Event.tx_id``: on PostgreSQL the id of the
  writing transaction plus the log's clock offset (below), so that readers of the global log
  can follow commit order (see :func:`games.store.read_all`). SQLite serialises writers, so
  there it is 0. (:class:`CurrentTransactionId`, without the offset, is migration 0001's.)
* The log's clock (migration 0006): transaction ids are a server's own counter. A ``pg_dump``
  restored into another server brings events whose ids are far above the new server's, which
  would put every new event *before* them in the feed, and hide them behind the horizon.
  ``games_logclock`` holds one offset, added to the transaction id in the column's default
  (``games_log_tx_id()``) and to the horizon (``games_log_horizon()``);
  :func:`catch_up_log_clock` (run after every ``migrate``) raises it past the log's highest id
  when the log is ahead of the server. Nothing is looked up per append but that one row.
* The append-only guard: triggers (created by migration 0002) refuse UPDATE, DELETE and
  TRUNCATE on the event table unless the connection has explicitly allowed a rewrite with
  :func:`set_rewrite_allowed`. Only maintenance (and the test suite's database flush) does
  that; the application never does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection as default_connection
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.db.models import BigIntegerField, Func
from django.dispatch import receiver
from django.utils.deconstruct import deconstructible

REWRITE_SETTING = "trick_n_chef.rewrite_allowed"  # a PostgreSQL custom setting (GUC)
APPEND_ONLY_TABLES = ("games_event", "games_stream")
"""The log and its stream registry: the triggers refuse UPDATE, DELETE and TRUNCATE."""
LOG_CLOCK_TABLE = "games_logclock"
SQLITE_REWRITE_FUNCTION = "tnc_rewrite_allowed"


@deconstructible(path="games.db.CurrentTransactionId")
class CurrentTransactionId(Func):
    """The current transaction's id as a bigint (PostgreSQL), 0 elsewhere."""

    template = "0"
    output_field = BigIntegerField()

    def __init__(self) -> None:
        super().__init__()

    def as_postgresql(
        self, compiler: Any, connection: Any, **extra_context: Any
    ) -> tuple[str, tuple[Any, ...]]:
        template = "(pg_current_xact_id()::text::bigint)"
        return self.as_sql(compiler, connection, template=template, **extra_context)


@deconstructible(path="games.db.LogTransactionId")
class LogTransactionId(Func):
    """The current transaction's id on the log's clock (PostgreSQL: plus the offset that keeps
    it above every restored event's; migration 0006), 0 elsewhere."""

    template = "0"
    output_field = BigIntegerField()

    def __init__(self) -> None:
        super().__init__()

    def as_postgresql(
        self, compiler: Any, connection: Any, **extra_context: Any
    ) -> tuple[str, tuple[Any, ...]]:
        return self.as_sql(compiler, connection, template="games_log_tx_id()", **extra_context)


def committed_horizon_sql() -> str:
    """PostgreSQL: every transaction below this (on the log's clock) has finished."""
    return "games_log_horizon()"


def catch_up_log_clock(connection: BaseDatabaseWrapper | None = None) -> int | None:
    """Move the log's clock past the log's highest transaction id if the log is ahead of this
    server (restored from another one); the new offset, or None when nothing had to move.

    Run by the owner (after ``migrate``). It locks out appends while it looks (SHARE ROW
    EXCLUSIVE waits for the transactions writing events and holds new ones back), so no event
    is written with the old offset after the new one is in place: an offset that changes only
    upwards, between appends, keeps both the order and the horizon right.
    """
    connection = connection or default_connection
    if connection.vendor != "postgresql":
        return None
    if LOG_CLOCK_TABLE not in connection.introspection.table_names():
        return None  # migrated back before 0005
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        cursor.execute("LOCK TABLE games_event IN SHARE ROW EXCLUSIVE MODE")
        cursor.execute("SELECT max(tx_id) FROM games_event")  # the (tx_id, id) index's last
        row = cursor.fetchone()
        latest = row[0] if row else None
        cursor.execute(
            f"SELECT tx_offset, pg_current_xact_id()::text::bigint FROM {LOG_CLOCK_TABLE} "
            "FOR UPDATE"
        )
        offset, current = cursor.fetchone()
        if latest is None or latest < current + offset:
            return None
        offset = latest + 1 - current
        cursor.execute(f"UPDATE {LOG_CLOCK_TABLE} SET tx_offset = %s", [offset])
    return int(offset)


def log_clock_problem(connection: BaseDatabaseWrapper | None = None) -> str | None:
    """What is wrong with the log's clock (PostgreSQL), for the health check: None when the
    next transaction's id on the log's clock is above every event's."""
    connection = connection or default_connection
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [LOG_CLOCK_TABLE])
        migrated = cursor.fetchone()
        if not (migrated and migrated[0]):
            return None  # not migrated yet: migrate will set the clock
        # The next id is past the snapshot's xmax, and past this transaction's own id when it
        # has one (a transaction that wrote events sees them before it commits, and its id may
        # be at or above xmax while nothing newer has finished).
        cursor.execute(
            "SELECT (SELECT max(tx_id) FROM games_event) >= greatest("
            "pg_snapshot_xmax(pg_current_snapshot())::text::bigint, "
            "coalesce(pg_current_xact_id_if_assigned()::text::bigint + 1, 0)"
            f") + tx_offset FROM {LOG_CLOCK_TABLE}"
        )
        row = cursor.fetchone()
    if row and row[0]:
        return (
            "the event log's transaction ids are ahead of this database server's (a pg_dump "
            "restored from another server?): run migrate as the owner "
            "(docs/operations.md, Restoring the database dump)"
        )
    return None


@receiver(connection_created)
def _register_sqlite_guard(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    if connection.vendor == "sqlite":
        connection.connection.create_function(
            SQLITE_REWRITE_FUNCTION,
            0,
            lambda: 1 if getattr(connection, "tnc_rewrite_allowed", False) else 0,
        )


def set_rewrite_allowed(allowed: bool, connection: BaseDatabaseWrapper | None = None) -> None:
    """Allow (or forbid again) UPDATE, DELETE and TRUNCATE of events on this connection."""
    connection = connection or default_connection
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET {REWRITE_SETTING} = %s", ["on" if allowed else "off"])
    else:
        connection.ensure_connection()
        connection.tnc_rewrite_allowed = allowed  # type: ignore[attr-defined]


@contextmanager
def rewrite_allowed(connection: BaseDatabaseWrapper | None = None) -> Iterator[None]:
    set_rewrite_allowed(True, connection)
    try:
        yield
    finally:
        set_rewrite_allowed(False, connection)
