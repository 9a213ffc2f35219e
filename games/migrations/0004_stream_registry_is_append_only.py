"""The stream registry (games_stream) is written once, like the event log: the database
refuses UPDATE, DELETE and TRUNCATE of it.

A stream's kind decides how its events are folded: a game stream re-kinded as a tournament
made ``rebuild_projections`` fold a game's events as a tournament's, and deleting a stream
leaves its events without a kind. The same guard as the log's (migration 0002): PostgreSQL
reuses its trigger function (its message names the table); SQLite gets row triggers. The same
escape: a connection that asked for a rewrite (games.db.set_rewrite_allowed).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

from games.db import SQLITE_REWRITE_FUNCTION

MESSAGE = "the event log is append-only"  # the wording of 0002's, so one pattern matches both

POSTGRES_UP = """
CREATE TRIGGER games_stream_no_update_or_delete
    BEFORE UPDATE OR DELETE ON games_stream
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
CREATE TRIGGER games_stream_no_truncate
    BEFORE TRUNCATE ON games_stream
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_append_only();
"""

POSTGRES_DOWN = """
DROP TRIGGER games_stream_no_truncate ON games_stream;
DROP TRIGGER games_stream_no_update_or_delete ON games_stream;
"""

SQLITE_UP = [
    f"""
    CREATE TRIGGER games_stream_no_{op.lower()}
    BEFORE {op} ON games_stream
    WHEN {SQLITE_REWRITE_FUNCTION}() = 0
    BEGIN
        SELECT RAISE(ABORT, '{MESSAGE}: {op} on games_stream is not allowed');
    END;
    """
    for op in ("UPDATE", "DELETE")
]

SQLITE_DOWN = ["DROP TRIGGER games_stream_no_update;", "DROP TRIGGER games_stream_no_delete;"]


def up(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_UP, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_UP:
            schema_editor.execute(statement)
    else:
        raise NotImplementedError(f"no append-only guard for {vendor}")


def down(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    for statement in [POSTGRES_DOWN] if vendor == "postgresql" else SQLITE_DOWN:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0003_status_change_outbox")]
    operations = [migrations.RunPython(up, down)]
