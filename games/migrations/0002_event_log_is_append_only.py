"""The database itself refuses UPDATE, DELETE and TRUNCATE on the event log.

PostgreSQL: a row trigger for UPDATE/DELETE and a statement trigger for TRUNCATE.
SQLite: row triggers for UPDATE/DELETE (SQLite has no TRUNCATE; a DELETE without WHERE fires
the row trigger too). Either lets a rewrite through only on a connection that asked for it
(games.db.set_rewrite_allowed), which the application never does.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

from games.db import REWRITE_SETTING, SQLITE_REWRITE_FUNCTION

MESSAGE = "the event log is append-only"

POSTGRES_UP = f"""
CREATE FUNCTION games_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('{REWRITE_SETTING}', true) = 'on' THEN
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION '{MESSAGE}: % on % is not allowed', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER games_event_no_update_or_delete
    BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
CREATE TRIGGER games_event_no_truncate
    BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_append_only();
"""

POSTGRES_DOWN = """
DROP TRIGGER games_event_no_truncate ON games_event;
DROP TRIGGER games_event_no_update_or_delete ON games_event;
DROP FUNCTION games_event_append_only();
"""

SQLITE_UP = [
    f"""
    CREATE TRIGGER games_event_no_{op.lower()}
    BEFORE {op} ON games_event
    WHEN {SQLITE_REWRITE_FUNCTION}() = 0
    BEGIN
        SELECT RAISE(ABORT, '{MESSAGE}: {op} on games_event is not allowed');
    END;
    """
    for op in ("UPDATE", "DELETE")
]

SQLITE_DOWN = ["DROP TRIGGER games_event_no_update;", "DROP TRIGGER games_event_no_delete;"]


def up(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_UP, params=None)  # None: the % in RAISE is not a param
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
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(up, down)]
