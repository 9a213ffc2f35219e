"""``python docker/migrate.py [migrate options]``: ``manage.py migrate``, one process at a time.

The web containers' entrypoint runs it before gunicorn starts. When several start together (a
first ``docker compose up`` with ``--scale web=3``, an upgrade), Django's migrate would run in
each at once: a schema change would fail in all but one, and a data migration could be applied
twice. So on PostgreSQL each takes the same session-level advisory lock first and holds it
until migrate is done; the next one waits, then finds nothing left to apply. Any other database
(SQLite: one machine, one process) migrates without the lock.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# The repository root (the image's /app), so `config` imports whatever the working directory.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

# pg_advisory_lock takes a bigint: any constant that other applications on the same server do
# not use. This one spells "tncmigr" in ASCII.
MIGRATE_LOCK = 0x746E636D69677200


def main(argv: list[str]) -> None:
    import django
    from django.core.management import call_command
    from django.db import connection

    django.setup()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            print("migrate: taking the lock (waits while another container migrates)", flush=True)
            cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATE_LOCK])
    # The lock belongs to this connection's session: migrate runs on the same connection,
    # and the lock goes when the process exits (whatever happens, even a crash).
    call_command("migrate", *argv)


if __name__ == "__main__":
    main(sys.argv[1:])
