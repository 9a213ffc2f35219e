"""The production stack, natively: gunicorn with two workers, a Celery worker (prefork, two
processes) and Celery beat, on PostgreSQL and Redis, with the demo tournament driven through the
HTTP API to the end of a round, and the next round paired by the worker.

tests/deploy/stack.py starts the processes as docker-compose.yml does (the production settings
behind an HTTPS proxy, migrate as the database's owner and collectstatic before gunicorn, every
process connected as the app role that migrate creates, a generated ``SECRET_KEY``,
the test database, a Redis database, a private queue). Beat starts with a schedule file in
which the settings' entry last ran a day ago (as a beat stopped for a while leaves it): it sends
``tournaments.run_schedules`` at once, and the worker runs it. A new file would have beat wait a
whole interval (a minute) before its first send; the 60-second schedule itself is the
settings', unchanged.

Then ``manage.py demo`` (what ``bin/run`` serves) builds its tournament in the stack's database:
16 players, round 1 closed, round 2 published with one table finished, one half played and two
not begun. From there on everything goes through the HTTP API: the organizer and the
scorekeeper get tokens (``POST /api/auth/token/``), the organizer switches the tournament to
automatic pairing and publishing, the scorekeeper plays the three open tables to the end at
once (three threads, one event a request, ``expected_version`` and an ``Idempotency-Key``), and
the organizer confirms each table once the worker has recorded its result. The last
confirmation enqueues ``tournaments.advance``: the worker closes round 2, pairs round 3 and
publishes it, and the test watches ``GET /api/tournaments/<id>/`` until it is.

Round 3 must be paired once, by the system; ``/health/`` must see the database and the broker;
the public standings page and its stylesheet (whitenoise) must be served, plain HTTP redirected
to HTTPS; both web workers must have served requests.

PostgreSQL and Redis only: the test skips without them (or fails under
``TNC_REQUIRE_SERVICES=1``). Waits have deadlines; none asserts on time.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from config import celery_app
from tests.tournaments.worker_helpers import broker_url_for, database_url_for, unique_queue
from tournaments import domain

from .api import DEMO_OUTPUT, Api, fetch, finish_table, of_round
from .stack import app_role, due_schedule, running_stack

BROKER_DB = 10
"""The Redis database of this test's broker (tests/deploy/test_worker_killed.py uses 11)."""
TASK_TIMEOUT = 30.0
"""Seconds the worker gets to take and run a task."""
ROUND_TIMEOUT = 60.0
"""Seconds the worker gets to record round 1's results and pair and publish round 2."""

SCHEDULE_ENTRY, SCHEDULE_TASK = "tournament-schedules", "tournaments.run_schedules"
SWEEP_TASK = "tournaments.sync_pending"
CLUB_SWEEP_TASK = "club.sync"  # the club's consumer of the log, swept as the results are


@pytest.mark.postgres
def test_the_native_stack_finishes_the_demos_round_2_and_pairs_round_3_once(
    committed_db: None, redis_url: str, tmp_path: Path
) -> None:
    # committed_db before redis_url: see tests/tournaments/test_celery_worker.py.
    broker_url = broker_url_for(redis_url, db=BROKER_DB)
    schedule = tmp_path / "celerybeat-schedule"
    assert due_schedule(schedule, celery_app) == sorted(
        [SCHEDULE_TASK, SWEEP_TASK, CLUB_SWEEP_TASK]
    )

    owner_url = database_url_for(settings.DATABASES["default"])
    with (
        app_role(owner_url) as (role, app_url),
        running_stack(
            directory=tmp_path,
            cwd=Path(settings.BASE_DIR),
            database_url=app_url,
            owner_url=owner_url,
            broker_url=broker_url,
            queue=unique_queue(),
        ) as stack,
    ):
        # migrate as the owner (nothing to apply) creates and grants the app role, which every
        # process then connects as, and collectstatic: what the entrypoint does.
        stack.prepare_web()
        worker = stack.start_worker(concurrency=2)
        beat = stack.start_beat(schedule=schedule)
        web = stack.start_gunicorn(workers=2)
        worker.wait_ready()
        beat.wait_ready()
        web.wait_ready()

        # 1. Beat is up and sends its schedule's task (overdue, so at once); the worker runs it.
        beat.wait_for(
            lambda: beat.sent(SCHEDULE_ENTRY, SCHEDULE_TASK) or None,
            f"beat sending {SCHEDULE_TASK}",
            TASK_TIMEOUT,
        )
        [scheduled] = worker.wait_until(
            lambda: worker.outcomes(SCHEDULE_TASK) or None,
            f"{SCHEDULE_TASK} run by the worker",
            TASK_TIMEOUT,
        )
        assert scheduled.status == "succeeded" and scheduled.detail == "[]", scheduled

        # 2. The demo tournament, as bin/run builds it, in the stack's database.
        demo = stack.manage(
            "demo", "--url", f"https://127.0.0.1:{web.port}",
            "--passwords", str(tmp_path / "demo_passwords.json"),
        )  # fmt: skip
        found = DEMO_OUTPUT.search(demo)
        assert found, demo
        anonymous = Api(web.port)
        organizer = anonymous.login("organizer", found["password"])
        scorekeeper = anonymous.login("scorekeeper", found["scorekeeper"])
        tournament = f"/api/tournaments/{found['id']}/"
        before = organizer.get(tournament)
        assert [r["status"] for r in before["rounds"]] == ["closed", "published"]
        status, changed = organizer.request(
            "PATCH", tournament + "settings/", {"pairing": "auto", "publish": "auto"}
        )
        assert status == 201, (status, changed)
        assert organizer.get(tournament)["settings"]["pairing"] == "auto"

        # 3. The scorekeeper finishes round 2's open tables, all at once.
        round_2 = before["rounds"][1]
        open_tables = [t for t in round_2["tables"] if t["result"] is None]
        assert len(open_tables) == 3, round_2["tables"]
        games = [t["game"] for t in open_tables]
        with ThreadPoolExecutor(max_workers=len(games)) as scorekeepers:
            seeds = range(1, len(games) + 1)
            finished = list(
                scorekeepers.map(finish_table, [scorekeeper] * len(games), games, seeds)
            )
        assert finished == ["finished"] * len(games)

        # 4. Each game's last append committed in a web worker, which sent
        # tournaments.sync_game to the queue; the worker records the result, and the organizer
        # confirms each table once it is there.
        def recorded(table: int) -> Callable[[], dict[str, Any] | None]:
            def look() -> dict[str, Any] | None:
                now = organizer.get(tournament)["rounds"][1]["tables"][table - 1]
                return now if now["result"] is not None else None

            return look

        for table in round_2["tables"]:
            number = table["table"]
            worker.wait_until(recorded(number), f"table {number}'s result", TASK_TIMEOUT)
            organizer.post(f"{tournament}rounds/2/tables/{number}/confirm/")

        # 5. Nobody acts any more: the last confirmation sent tournaments.advance, and the
        # worker closes round 2, pairs round 3 and publishes it.
        def round_3_published() -> dict[str, Any] | None:
            now: dict[str, Any] = organizer.get(tournament)
            rounds = now["rounds"]
            return now if len(rounds) >= 3 and rounds[2]["status"] == "published" else None

        state = worker.wait_until(round_3_published, "round 3 published", ROUND_TIMEOUT)
        round_2, round_3 = state["rounds"][1], state["rounds"][2]
        assert round_2["status"] == "closed"
        assert all(t["result"] is not None and t["confirmed"] for t in round_2["tables"])
        assert [len(t["seats"]) for t in round_3["tables"]] == [4, 4, 4, 4]
        assert all(t["game"] for t in round_3["tables"]), "each table of round 3 has its game"

        history = organizer.get(f"{tournament}history/")
        paired = of_round(history, domain.PAIRED, 3)
        assert len(paired) == 1, f"round 3 paired {len(paired)} times: {paired}"
        published = of_round(history, domain.PUBLISHED, 3)
        closed = of_round(history, domain.ROUND_CLOSED, 2)
        recorded_now = [
            e
            for e in of_round(history, domain.RESULT_RECORDED, 2)
            if e["data"]["table"] in {t["table"] for t in open_tables}
        ]
        assert len(published) == 1 and len(closed) == 1
        assert Counter(e["data"]["table"] for e in recorded_now) == {
            t["table"]: 1 for t in open_tables
        }
        assert {e["by"] for e in [*recorded_now, *closed, *paired, *published]} == {"system"}
        assert [o.detail for o in worker.outcomes("tournaments.advance")] == [
            "'closed, paired, published'"
        ]
        assert all(o.status == "succeeded" for o in worker.outcomes()), worker.outcomes()

        # All of it as the app role, which migrate created: it may append to the log and
        # nothing more (tests/games/test_roles.py shows what it is refused).
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT rolsuper, has_table_privilege(rolname, 'games_event', 'UPDATE') "
                "FROM pg_roles WHERE rolname = %s",
                [role],
            )
            assert cursor.fetchone() == (False, False)

        # 6. The health check through gunicorn: the database and the broker answer.
        status, health = anonymous.request("GET", "/health/")
        assert (status, health) == (
            200,
            {
                "status": "ok",
                "database": "ok",
                "broker": "ok",
                "cache": "local (each process's own memory: no CACHE_URL)",
                "results_waiting": {"pending": 0, "oldest_seconds": 0},
            },
        )

        # 7. The public standings page, as production serves it: HTML from Django, its
        # stylesheet (a hashed name, collectstatic's) from whitenoise; plain HTTP is sent to
        # HTTPS (only /health/ answers over it).
        status, _, page = fetch(web.port, f"/t/{found['id']}/standings/")
        assert status == 200, page[:500]
        html = page.decode()
        assert "Demo club night" in html and "after 8 confirmed table results" in html
        stylesheet = re.search(r'href="(/static/css/public\.[0-9a-f]{12}\.css)"', html)
        assert stylesheet, "the page links its stylesheet by its hashed name"
        status, headers, css = fetch(web.port, stylesheet[1])
        assert status == 200 and css, (status, headers)
        assert "immutable" in headers.get("Cache-Control", ""), headers
        status, headers, _ = fetch(web.port, tournament, headers={})
        assert status == 301, status
        assert headers["Location"] == f"https://127.0.0.1:{web.port}{tournament}", headers

        # 8. Both web workers are alive and both served requests; beat and the worker run on.
        workers = web.workers()
        assert len(workers) == 2, f"gunicorn's live workers: {workers}"
        assert web.served_by() == set(workers), (web.served_by(), workers)
        assert web.alive() and worker.alive() and beat.alive()
