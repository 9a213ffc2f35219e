"""The application's database role (PostgreSQL): what the web and worker processes may do.

The append-only triggers protect the log from the application only if the application cannot
switch them off. Its owner (or a superuser) can: ``ALTER TABLE ... DISABLE TRIGGER``,
``SET session_replication_role = replica``, ``SET trick_n_chef.rewrite_allowed``. So a
deployment has two roles:

* the **owner**, which runs ``migrate`` (it creates, and so owns, every table) and the rare
  maintenance that rewrites the log; its URL is ``DATABASE_OWNER_URL`` (docker/migrate.py);
* the **app role**, which the web and worker processes use (``DATABASE_URL``): it may only
  INSERT and SELECT the log (:data:`APPEND_ONLY_TABLES`), read what only migrations write
  (:data:`READ_ONLY_TABLES`), and read and write every other table (projections, users,
  sessions, ...). It owns nothing, is no superuser, and so can neither disable a trigger nor
  pass the rewrite escape (the trigger function checks that the current user owns the table).

:func:`grant` (``manage.py grant_app_role ROLE``, and docker/migrate.py after every
migrate) grants exactly that, idempotently: it revokes whatever else the role had on the
schema's tables, and sets the owner's default privileges so that tables and sequences created
by later migrations are usable at once (the next run narrows the log's, if a new one is added).
"""

from __future__ import annotations

import re

from django.db.backends.base.base import BaseDatabaseWrapper

from games.db import APPEND_ONLY_TABLES, LOG_CLOCK_TABLE

READ_ONLY_TABLES = ("django_migrations", LOG_CLOCK_TABLE)
"""Written by migrations (as the owner) only."""
READ_WRITE = "SELECT, INSERT, UPDATE, DELETE"
ROLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


class RoleError(Exception):
    """The role cannot be made the app role (in the operator's words)."""


def _quoted(name: str) -> str:
    if not ROLE_NAME.fullmatch(name):
        raise RoleError(f"{name!r} is not a plain role name (letters, digits, _)")
    return f'"{name}"'


def _one(connection: BaseDatabaseWrapper, sql: str, params: list[str]) -> object:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None


def create_login_role(connection: BaseDatabaseWrapper, role: str, password: str | None) -> bool:
    """Create ``role`` (LOGIN, nothing else) unless it exists; True if it was created. Needs
    CREATEROLE (the postgres image's user has it)."""
    quoted = _quoted(role)
    if _one(connection, "SELECT count(*) FROM pg_roles WHERE rolname = %s", [role]):
        return False
    with connection.cursor() as cursor:
        flags = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"
        if password:
            cursor.execute(f"CREATE ROLE {quoted} {flags} PASSWORD %s", [password])
        else:
            cursor.execute(f"CREATE ROLE {quoted} {flags}")
    return True


def grant(connection: BaseDatabaseWrapper, role: str) -> list[str]:
    """Give ``role`` exactly the app's privileges on this database's schema; the statements
    run, for the record. Run as the tables' owner (or a superuser), after ``migrate``."""
    if connection.vendor != "postgresql":
        raise RoleError("database roles exist on PostgreSQL only")
    quoted = _quoted(role)
    if not _one(connection, "SELECT count(*) FROM pg_roles WHERE rolname = %s", [role]):
        raise RoleError(f"there is no role {role!r}: create it first (CREATE ROLE ... LOGIN)")
    owner = _one(
        connection,
        "SELECT tableowner FROM pg_tables WHERE schemaname = current_schema() AND tablename = %s",
        [APPEND_ONLY_TABLES[0]],
    )
    if owner is None:
        raise RoleError("the database is not migrated yet: run migrate (as the owner) first")
    owner = str(owner)
    superuser = _one(connection, "SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
    member = _one(connection, "SELECT pg_has_role(%s, %s, 'MEMBER')", [role, owner])
    if superuser or member:
        raise RoleError(
            f"{role!r} is a superuser or the tables' owner ({owner!r}) or a member of it: "
            "the app role must be another role, one that owns nothing"
        )
    schema = str(_one(connection, "SELECT current_schema()", []))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm') "
            "ORDER BY c.relname"
        )
        tables = [str(name) for (name,) in cursor.fetchall()]

    def listed(names: list[str]) -> str:
        return ", ".join(f'"{name}"' for name in names)

    log = [t for t in tables if t in APPEND_ONLY_TABLES]
    read_only = [t for t in tables if t in READ_ONLY_TABLES]
    read_write = [t for t in tables if t not in APPEND_ONLY_TABLES + READ_ONLY_TABLES]
    quoted_schema, quoted_owner = f'"{schema}"', f'"{owner}"'
    statements = [
        f'GRANT CONNECT ON DATABASE "{connection.settings_dict["NAME"]}" TO {quoted}',
        f"GRANT USAGE ON SCHEMA {quoted_schema} TO {quoted}",
        f"REVOKE CREATE ON SCHEMA {quoted_schema} FROM {quoted}",
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {quoted_schema} FROM {quoted}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {quoted_schema} FROM {quoted}",
    ]
    if log:
        statements.append(f"GRANT SELECT, INSERT ON {listed(log)} TO {quoted}")
    if read_only:
        statements.append(f"GRANT SELECT ON {listed(read_only)} TO {quoted}")
    if read_write:
        statements.append(f"GRANT {READ_WRITE} ON {listed(read_write)} TO {quoted}")
    statements += [
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {quoted_schema} TO {quoted}",
        # Tables and sequences the owner creates later (the next migrations).
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {quoted_owner} IN SCHEMA {quoted_schema} "
        f"GRANT {READ_WRITE} ON TABLES TO {quoted}",
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {quoted_owner} IN SCHEMA {quoted_schema} "
        f"GRANT USAGE, SELECT ON SEQUENCES TO {quoted}",
    ]
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
    return statements
