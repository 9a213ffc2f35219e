"""``python docker/migrate.py [migrate options]``: ``manage.py migrate``, one process at a time,
as the database's owner, then the app role's privileges.

docker-compose.yml's one-off ``migrate`` service runs it (the entrypoint's ``migrate``) on every
``docker compose up``, before web, worker and beat start. Two of them may still run at once (a
``docker compose run --rm migrate`` while ``up`` runs one, two machines sharing a database):
Django's migrate would run in each, a schema change would fail in all but one, and a data
migration could be applied twice. So on PostgreSQL each takes the same session-level advisory
lock first and holds it until migrate is done; the next one waits, then finds nothing left to
apply. Any other database (SQLite: one machine, one process) migrates without the lock.

Two roles (docs/operations.md, "The database roles"): with ``DATABASE_OWNER_URL`` set, migrate
connects with it (the owner creates, and owns, every table), and then makes sure the role of
``DATABASE_URL`` (what web, worker and beat connect as) exists, created with the password in
that URL if it does not, and has exactly the app's privileges (``manage.py grant_app_role``:
append to the log, read and write the rest), again after every migrate so that new tables are
covered. Without ``DATABASE_OWNER_URL`` everything connects with ``DATABASE_URL``, as before.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

# The repository root (the image's /app), so `config` imports whatever the working directory.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

# pg_advisory_lock takes a bigint: any constant that other applications on the same server do
# not use. This one spells "tncmigr" in ASCII.
MIGRATE_LOCK = 0x746E636D69677200


def app_credentials(app_url: str, owner_url: str) -> tuple[str, str] | None:
    """(role, password) of ``DATABASE_URL`` when it is another role than the owner's."""
    app, owner = urlsplit(app_url), urlsplit(owner_url)
    role = unquote(app.username or "")
    if not role or role == unquote(owner.username or ""):
        return None
    return role, unquote(app.password or "")


def main(argv: list[str]) -> None:
    owner_url = os.environ.get("DATABASE_OWNER_URL", "")
    app_url = os.environ.get("DATABASE_URL", "")
    if owner_url:
        os.environ["DATABASE_URL"] = owner_url  # this process only: migrate as the owner

    import django
    from django.core.management import call_command
    from django.db import connection, transaction

    django.setup()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            print("migrate: taking the lock (waits while another container migrates)", flush=True)
            cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATE_LOCK])
    # The lock belongs to this connection's session: migrate runs on the same connection,
    # and the lock goes when the process exits (whatever happens, even a crash).
    call_command("migrate", *argv)
    credentials = app_credentials(app_url, owner_url) if owner_url and app_url else None
    if credentials is None or connection.vendor != "postgresql":
        return
    from games.roles import RoleError, create_login_role, grant

    role, password = credentials
    try:
        with transaction.atomic():
            created = create_login_role(connection, role, password or None)
            grant(connection, role)
    except RoleError as error:
        sys.exit(f"migrate: the app role {role}: {error}")
    print(f"migrate: app role {role} {'created and ' if created else ''}granted", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
