"""The log's clock: commit order that survives a pg_dump restored into another server.

``Event.tx_id`` was the writing transaction's id, and the feed's horizon the oldest running
one's: the server's own counter. Restored into a new server (whose counter starts low), the old
events' ids would be above every new event's: the old ones hidden behind the horizon until the
new counter caught up, and a reader whose cursor is at the last old event never seeing a new
one. Now both go through one offset (a one-row table, read per append: no scan), raised past
the log's highest id after every migrate when needed (games.db.catch_up_log_clock).

PostgreSQL only: on SQLite tx_id stays 0 (its writers are serialised; the feed is in id order).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

import games.db

POSTGRES_UP = """
CREATE TABLE games_logclock (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    tx_offset bigint NOT NULL DEFAULT 0 CHECK (tx_offset >= 0)
);
INSERT INTO games_logclock DEFAULT VALUES;
CREATE FUNCTION games_log_tx_id() RETURNS bigint LANGUAGE sql VOLATILE AS $$
    SELECT pg_current_xact_id()::text::bigint + tx_offset FROM games_logclock
$$;
CREATE FUNCTION games_log_horizon() RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint + tx_offset FROM games_logclock
$$;
ALTER TABLE games_event ALTER COLUMN tx_id SET DEFAULT games_log_tx_id();
"""

POSTGRES_DOWN = """
ALTER TABLE games_event ALTER COLUMN tx_id SET DEFAULT (pg_current_xact_id()::text::bigint);
DROP FUNCTION games_log_horizon();
DROP FUNCTION games_log_tx_id();
DROP TABLE games_logclock;
"""


def up(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRES_UP, params=None)


def down(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRES_DOWN, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_rewrite_needs_the_owner")]
    operations = [
        # The database's default is set above; the model's state follows without touching the
        # table (an AlterField would rebuild the table on SQLite, and its triggers with it).
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(up, down)],
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="tx_id",
                    field=models.BigIntegerField(
                        db_default=games.db.LogTransactionId(), editable=False
                    ),
                ),
            ],
        ),
    ]
