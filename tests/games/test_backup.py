"""Backups that cannot lose an event: export the log, restore it into a fresh database in
another process, rebuild, and find every projection identical (docs/operations.md)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services as games
from games.backup import BackupError, export_events, import_events
from games.models import Event, GameProjection
from tournaments import services as t

pytestmark = pytest.mark.django_db

BASE_DIR = Path(__file__).resolve().parent.parent.parent
PLAYERS = [f"Player {n:02d}" for n in range(1, 65)]


def play_round(tid: uuid.UUID, number: int, organizer: User) -> None:
    t.tournament_pair(tournament_id=tid, user=organizer)
    published = t.tournament_publish(tournament_id=tid, round=number, user=organizer)
    for table in published.state["rounds"][number - 1]["tables"]:
        game = GameProjection.objects.get(stream_id=table["game"])
        names = tuple(game.players)
        seed = number * 100 + table["table"]
        if table["table"] % 4 == 0:  # a few tables kept a paper sheet: results only
            scores = {
                n: [(seed + i) % 17, (seed * 3 + i) % 13, (seed + 2 * i) % 11]
                for i, n in enumerate(names)
            }
            games.game_enter_results(
                game_id=game.stream_id, expected_version=game.version, scores=scores, user=organizer
            )
        else:
            events = simulate(seed, len(names), names=names, first_player=names[0])
            games.game_append(
                game_id=game.stream_id,
                expected_version=game.version,
                events=[to_json(e) for e in events[1:]],
                user=organizer,
            )
        t.tournament_sync_game(game_id=game.stream_id)
        t.tournament_confirm(tournament_id=tid, round=number, table=table["table"], user=organizer)
    t.tournament_close_round(tournament_id=tid, round=number, user=organizer)


@pytest.fixture
def tournament(django_user_model: type[User]) -> uuid.UUID:
    organizer = django_user_model.objects.create_user("olga", password="x")
    tid = t.tournament_create(
        user=organizer, name="Big Cup", date="2026-12-12", rounds=6, seed=64
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=organizer, names=PLAYERS, checked_in=True)
    for number in range(1, 7):
        play_round(tid, number, organizer)
    # a correction, so the restore must replay more than straight plays
    last = GameProjection.objects.exclude(results_only=True).order_by("stream_id").first()
    assert last is not None
    games.game_correct(
        game_id=last.stream_id, expected_version=last.version, retract=1, user=organizer
    )
    t.tournament_sync_game(game_id=last.stream_id)  # the worker's part: withdraw its result
    return tid


def fresh_database_url(tmp_path: Path) -> tuple[str, Any]:
    """A new empty database of the same kind as the test database, and how to drop it."""
    if connection.vendor != "postgresql":
        return f"sqlite:///{tmp_path / 'restored.sqlite3'}", lambda: None
    import psycopg

    db = settings.DATABASES["default"]
    name = f"tnc_restore_{uuid.uuid4().hex[:10]}"
    server = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")

    def drop() -> None:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    return f"{server}/{name}", drop


def manage(database_url: str, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.base", DATABASE_URL=database_url)
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.postgres  # a club's size on the server clubs run: a minute and a half per backend
def test_a_64_player_6_round_tournament_survives_export_and_restore(
    tournament: uuid.UUID, tmp_path: Path
) -> None:
    before = games.projections_digest()
    backup = tmp_path / "events.jsonl"
    with backup.open("w", encoding="utf-8") as out:
        exported = export_events(out, chunk=500)
    assert exported == Event.objects.count() > 96 * 100
    url, drop = fresh_database_url(tmp_path)
    try:
        manage(url, "migrate", "--noinput", "-v0")
        restored = manage(url, "import_events", str(backup))
        assert f"restored {exported} events" in restored
        after = manage(url, "projections_digest").strip()
        rebuilt = manage(url, "rebuild_projections", "--check")
    finally:
        drop()
    assert after == before
    assert "checked 96 games: 0 differences found" in rebuilt
    assert "checked 1 tournaments: 0 differences found" in rebuilt


def test_a_restore_refuses_a_database_that_holds_events() -> None:
    # Any event will do: the 64-player tournament fixture is built for the test above only.
    game = games.game_create(players=["a", "b", "c", "d"])
    games.game_append(
        game_id=game.game_id,
        expected_version=1,
        events=[to_json(e) for e in simulate(5, 4, names=("a", "b", "c", "d"))[1:10]],
    )
    buffer = io.StringIO()
    export_events(buffer)
    with pytest.raises(BackupError, match="restore into an empty database"):
        import_events(io.StringIO(buffer.getvalue()))


def test_a_damaged_backup_restores_nothing_and_says_which_line(tmp_path: Path) -> None:
    game = games.game_create(players=["a", "b", "c", "d"])
    games.game_append(
        game_id=game.game_id,
        expected_version=1,
        events=[to_json(e) for e in simulate(3, 4, names=("a", "b", "c", "d"))[1:30]],
    )
    buffer = io.StringIO()
    export_events(buffer)
    lines = buffer.getvalue().splitlines()
    del lines[10]  # a line lost: stream versions jump
    url, drop = fresh_database_url(tmp_path)
    try:
        manage(url, "migrate", "--noinput", "-v0")
        damaged = tmp_path / "damaged.jsonl"
        damaged.write_text("\n".join(lines) + "\n")
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        env.update(DJANGO_SETTINGS_MODULE="config.settings.base", DATABASE_URL=url)
        done = subprocess.run(
            [sys.executable, "manage.py", "import_events", str(damaged)],
            cwd=BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode != 0
        assert "nothing was restored: line 11" in done.stderr
        assert "jumps to version" in done.stderr
        assert manage(url, "export_events").count("\n") == 1  # only the header: empty
    finally:
        drop()
    header = json.loads(lines[0])
    assert header == {"format": "trick-n-chef-event-log", "version": 1}
