"""The rewrite escape of the append-only guard works for the table's owner only (PostgreSQL).

Migration 0002's trigger function let any connection that set ``trick_n_chef.rewrite_allowed``
rewrite the log. The application's own role (docs/operations.md: it only INSERTs and SELECTs
the log) could set it too. Now the setting counts only when the current user owns the table
(or is a member of its owner, or a superuser: ``pg_has_role(..., 'USAGE')``), the roles that
could drop the trigger anyway. SQLite has no roles: nothing changes there.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

from games.db import REWRITE_SETTING

MESSAGE = "the event log is append-only"

FUNCTION = """
CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('{setting}', true) = 'on' THEN
        IF {owner_check} THEN
            IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
            RETURN NEW;
        END IF;
        RAISE EXCEPTION '{message}: % on % is not allowed (a rewrite needs the table''s owner)',
            TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
    END IF;
    RAISE EXCEPTION '{message}: % on % is not allowed', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;
"""

OWNER_CHECK = (
    "pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE')"
)


def up(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        sql = FUNCTION.format(setting=REWRITE_SETTING, owner_check=OWNER_CHECK, message=MESSAGE)
        schema_editor.execute(sql, params=None)


def down(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        sql = FUNCTION.format(setting=REWRITE_SETTING, owner_check="true", message=MESSAGE)
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_stream_registry_is_append_only")]
    operations = [migrations.RunPython(up, down)]
