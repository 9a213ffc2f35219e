"""The application's database role (PostgreSQL): it appends to the log and cannot do more.

Each test creates a login role of its own (a unique name: roles belong to the whole server,
shared by parallel runs), grants it the app's privileges with ``manage.py grant_app_role``, and
connects as it (psycopg, a second connection to the test database), as the web and worker
processes do with ``DATABASE_URL`` (docs/operations.md). The role is dropped afterwards.
The tables are the test runner's (a superuser): the owner, for the triggers' rewrite escape.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services, store
from games.models import Event, Stream

pytestmark = pytest.mark.postgres


@contextmanager
def owner_cursor() -> Iterator[Any]:
    with connection.cursor() as cursor:
        yield cursor


@pytest.fixture
def app_role(committed_db: None) -> Iterator[str]:
    role = f"tnc_test_app_{uuid.uuid4().hex[:12]}"
    with owner_cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        call_command("grant_app_role", role, stdout=io.StringIO())
        yield role
    finally:
        with owner_cursor() as cursor:
            cursor.execute("RESET ROLE")
            cursor.execute(f'DROP OWNED BY "{role}"')  # its privileges, default ones too
            cursor.execute(f'DROP ROLE "{role}"')


@contextmanager
def connect_as(role: str) -> Iterator[psycopg.Connection[Any]]:
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        dbname=settings["NAME"],
        user=role,
        autocommit=True,
    ) as app:
        yield app


def a_stream_with_an_event(app: psycopg.Connection[Any]) -> uuid.UUID:
    stream = uuid.uuid4()
    app.execute(
        "INSERT INTO games_stream (id, kind, created_at) VALUES (%s, 'game', now())", [stream]
    )
    app.execute(
        "INSERT INTO games_event (stream_id, version, type, data, metadata, recorded_at) "
        "VALUES (%s, 1, 'a', '{}', '{}', now())",
        [stream],
    )
    return stream


def log_snapshot() -> list[tuple[object, ...]]:
    events = Event.objects.order_by("id").values_list("id", "stream_id", "version", "type")
    streams = Stream.objects.order_by("id").values_list("id", "kind", "created_at")
    return [*events, *streams]


def test_the_app_role_appends_and_reads_the_log(app_role: str) -> None:
    with connect_as(app_role) as app:
        stream = a_stream_with_an_event(app)
        rows = app.execute(
            "SELECT version, type, tx_id FROM games_event WHERE stream_id = %s", [stream]
        ).fetchall()
    assert [(version, kind) for version, kind, _ in rows] == [(1, "a")]
    assert rows[0][2] > 0  # the transaction id default works for it
    assert Stream.objects.get(id=stream).kind == "game"


REWRITES = {
    "UPDATE games_event": "UPDATE games_event SET type = 'edited'",
    "DELETE games_event": "DELETE FROM games_event",
    "TRUNCATE games_event": "TRUNCATE games_event",
    "UPDATE games_stream": "UPDATE games_stream SET kind = 'tournament'",
    "DELETE games_stream": "DELETE FROM games_stream",
    "TRUNCATE games_stream": "TRUNCATE games_stream CASCADE",
}


@pytest.mark.parametrize("name", sorted(REWRITES))
def test_the_app_role_cannot_rewrite_the_log_even_when_it_asks_to(app_role: str, name: str) -> None:
    with connect_as(app_role) as app:
        a_stream_with_an_event(app)
        before = log_snapshot()
        app.execute("SET trick_n_chef.rewrite_allowed = on")  # the owner's escape, not its own
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute(REWRITES[name])
    assert log_snapshot() == before


@pytest.mark.parametrize("name", sorted(REWRITES))
def test_the_escape_is_the_owners_even_for_a_role_granted_too_much(
    app_role: str, name: str
) -> None:
    """A careless ``GRANT ALL`` to the app role still leaves the log append-only: the trigger
    lets a rewrite through only for the table's owner (or a superuser)."""
    with owner_cursor() as cursor:
        cursor.execute(f'GRANT ALL ON ALL TABLES IN SCHEMA public TO "{app_role}"')
    with connect_as(app_role) as app:
        a_stream_with_an_event(app)
        before = log_snapshot()
        app.execute("SET trick_n_chef.rewrite_allowed = on")
        with pytest.raises(psycopg.errors.RestrictViolation, match="append-only"):
            app.execute(REWRITES[name])
    assert log_snapshot() == before


SWITCHES_OFF = {
    "replica mode": "SET session_replication_role = replica",
    "disable the log's triggers": "ALTER TABLE games_event DISABLE TRIGGER ALL",
    "disable the registry's triggers": "ALTER TABLE games_stream DISABLE TRIGGER ALL",
    "drop a trigger": "DROP TRIGGER games_event_no_update_or_delete ON games_event",
    "replace the guard": (
        "CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger "
        "LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$"
    ),
}


@pytest.mark.parametrize("name", sorted(SWITCHES_OFF))
def test_the_app_role_cannot_switch_the_guard_off(app_role: str, name: str) -> None:
    with connect_as(app_role) as app:
        a_stream_with_an_event(app)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute(SWITCHES_OFF[name])
        assert app.execute("SHOW session_replication_role").fetchone() == ("origin",)
    with owner_cursor() as cursor:
        cursor.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE tgname LIKE 'games_%%_no_%%'"
        )
        assert sorted(cursor.fetchall()) == [
            ("games_event_no_truncate", "O"),
            ("games_event_no_update_or_delete", "O"),
            ("games_stream_no_truncate", "O"),
            ("games_stream_no_update_or_delete", "O"),
        ]
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        owner_cursor() as cursor,
    ):
        cursor.execute("DELETE FROM games_stream")  # the guard still works (for the owner too)


def test_the_owner_keeps_the_escape(committed_db: None) -> None:
    store.create_stream(Stream.Kind.GAME)
    with owner_cursor() as cursor:
        cursor.execute("SET trick_n_chef.rewrite_allowed = on")
        cursor.execute("UPDATE games_stream SET kind = 'tournament'")
        cursor.execute("SET trick_n_chef.rewrite_allowed = off")
    assert set(Stream.objects.values_list("kind", flat=True)) == {"tournament"}


@contextmanager
def acting_as(role: str) -> Iterator[None]:
    """The Django connection with the app role's privileges (SET ROLE), as the processes
    connected with its DATABASE_URL have."""
    with owner_cursor() as cursor:
        cursor.execute(f'SET ROLE "{role}"')
    try:
        yield
    finally:
        with owner_cursor() as cursor:
            cursor.execute("RESET ROLE")


def test_the_services_run_as_the_app_role(app_role: str) -> None:
    game = [to_json(e) for e in simulate(seed=7, players=4)]
    with acting_as(app_role):
        created = services.game_create(players=list(game[0]["players"]), suits=game[0]["suits"])
        changed = services.game_append(
            game_id=created.game_id, expected_version=created.version, events=game[1:]
        )
        with owner_cursor() as cursor:
            cursor.execute("SELECT current_user")
            assert cursor.fetchone() == (app_role,)
    assert changed.version == len(game)
    assert Event.objects.filter(stream_id=created.game_id).count() == len(game)


def privileges(role: str, table: str) -> set[str]:
    with owner_cursor() as cursor:
        cursor.execute(
            "SELECT p FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', "
            "'REFERENCES', 'TRIGGER']) AS p WHERE has_table_privilege(%s, %s, p)",
            [role, table],
        )
        return {p for (p,) in cursor.fetchall()}


def test_grant_app_role_grants_exactly_the_apps_privileges_and_is_idempotent(
    app_role: str,
) -> None:
    with owner_cursor() as cursor:  # more than it should have, as a hand-made role might
        cursor.execute(f'GRANT ALL ON ALL TABLES IN SCHEMA public TO "{app_role}"')
    call_command("grant_app_role", app_role, stdout=io.StringIO())
    call_command("grant_app_role", app_role, stdout=io.StringIO())
    read_write = {"SELECT", "INSERT", "UPDATE", "DELETE"}
    assert privileges(app_role, "games_event") == {"SELECT", "INSERT"}
    assert privileges(app_role, "games_stream") == {"SELECT", "INSERT"}
    assert privileges(app_role, "django_migrations") == {"SELECT"}
    assert privileges(app_role, "games_gameprojection") == read_write
    assert privileges(app_role, "auth_user") == read_write


def test_tables_created_by_later_migrations_are_usable_at_once(app_role: str) -> None:
    with owner_cursor() as cursor:
        cursor.execute("CREATE TABLE tnc_test_later (id bigserial PRIMARY KEY, note text)")
    try:
        with connect_as(app_role) as app:
            app.execute("INSERT INTO tnc_test_later (note) VALUES ('new')")
            assert app.execute("SELECT note FROM tnc_test_later").fetchall() == [("new",)]
    finally:
        with owner_cursor() as cursor:
            cursor.execute("DROP TABLE tnc_test_later")


def test_grant_app_role_refuses_the_owner(committed_db: None) -> None:
    with owner_cursor() as cursor:
        cursor.execute("SELECT current_user")
        (owner,) = cursor.fetchone()
    with pytest.raises(CommandError, match="owns nothing"):
        call_command("grant_app_role", owner, stdout=io.StringIO())
    with pytest.raises(CommandError, match="no role"):
        call_command("grant_app_role", "tnc_no_such_role_at_all", stdout=io.StringIO())
