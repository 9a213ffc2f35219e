"""Database details of the event log that the ORM does not express.

* :class:`CurrentTransactionId` -- the default of ``Event.tx_id``: the id of the writing
  transaction on PostgreSQL, so that readers of the global log can follow commit order
  (see :func:`games.store.read_all`). SQLite serialises writers, so there it is 0.
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


def committed_horizon_sql() -> str:
    """PostgreSQL: every transaction with a smaller id has finished (committed or not)."""
    return "pg_snapshot_xmin(pg_current_snapshot())::text::bigint"


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
