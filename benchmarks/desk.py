"""Server time of the organizer desk at 250 tables: the dashboard, one htmx check-in, drop and
reinstate, the printable score sheets.

    .venv/bin/python benchmarks/desk.py [--players 1000] [--rounds 1] [--runs 5] [--rebuild]
                                        [--var DIR] [--cache-url redis://127.0.0.1:6379/N]

Setup (through the services, benchmarks/load_standings.py's ``build``): a tournament of
``--players`` checked-in players, ``--rounds`` rounds played (every table's result entered and
the round closed), the next round paired and published (250 tables, a game each); then 2 x
``--runs`` late entries, not checked in, to check in. The database is built once and kept: on
SQLite (the default) as ``bench-desk-seed-*.sqlite3`` in ``--var`` (default ``var/``), copied
afresh for each run; when DATABASE_URL points at PostgreSQL, as the database
``tnc_bench_desk_seed_*`` (``$BENCH_SEED_*``) on that server, each run on a fresh copy of it
(``CREATE DATABASE ... TEMPLATE``), named ``tnc_bench_desk`` (``$BENCH_DATABASE``). ``--rebuild``
builds it again.

Run: in-process through Django's test client, DEBUG off (production settings as far as a test
client goes: no gunicorn, the cache of the settings' default, each process's own memory), logged
in as the organizer. Each measure is taken ``--runs`` times after one warm-up request, and the
median printed with the size of the answer:
- GET /desk/<id>/ (the whole dashboard);
- an htmx check-in of a late entry, as the player row's form posts it (HX-Request, HX-Target);
- an htmx drop of a seated player as the page makes it: the drop button (at a table still being
  played the desk answers 422 with the question and a button that confirms it), then that
  button (``confirm=1``); then their reinstatement;
- GET the live round's printable score sheets (and the first, cold one: 250 tables' codes and,
  for the organizer, 1,000 seats' codes; then the first one after a worker drew them ahead, as
  it does once a round is published, and that drawing's time), and the cold one again for a
  round published before seat links (its links issued on the way);
- GET one table's seat links page, and an htmx reissue of a seat's link;
- GET one table's QR code image, and again with If-None-Match (where the desk has one);
- the services alone (tournament_check_in, _drop, _reinstate), for the share of an action
  that the desk does not control;
- and within each htmx action itself, the time spent in the tournament's write
  (tournaments.services._act, which every write goes through: decide, append, save, the
  change's summary) apart from the rest (session and user, parsing, the desk's answer), as
  ``... in the service`` and ``... the rest`` (medians of the same requests).
The codes carry PUBLIC_URL (``http://192.168.1.20:8000``, as the club's server always has one).
A benchmark: nothing passes or fails. Targets: a desk action <= 150 ms, the dashboard <= 300 ms,
the first score sheets of a round <= 300 ms.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import secrets
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import load_standings  # noqa: E402  (the seed's build, the machine's description)

VAR = ROOT / "var"


PUBLIC_URL = "http://192.168.1.20:8000"
"""The address the codes carry, as the club's server (bin/run) always has one."""


def environment(database_url: str | None, cache_url: str = "") -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DEBUG="False",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="testserver",
        LOG_LEVEL="WARNING",
        PUBLIC_URL=PUBLIC_URL,
    )
    for name in ("CELERY_BROKER_URL", "CACHE_URL", "DATABASE_URL"):
        env.pop(name, None)
    if database_url:
        env["DATABASE_URL"] = database_url
    if cache_url:
        env["CACHE_URL"] = cache_url
    return env


def postgres_server() -> str | None:
    """The PostgreSQL server of DATABASE_URL (without its database name), if it points there."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    return url.rsplit("/", 1)[0]


def sql(server: str, statement: str, database: str = "postgres") -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(f"{server}/{database}", autocommit=True) as conn:
        cursor = conn.execute(statement)
        return cursor.fetchall() if cursor.description else []


def build_seed(database_url: str, args: argparse.Namespace) -> None:
    env = environment(database_url)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    command = [python, __file__, "build", "--players", str(args.players)]
    command += ["--rounds", str(args.rounds), "--late", str(2 * args.runs + 2)]
    subprocess.run(command, cwd=ROOT, env=env, check=True)


REUSED = "reused the seed database"


def prepare(args: argparse.Namespace) -> tuple[str, str]:
    """The database URL of a fresh copy of the seed (built first if missing), and what it cost."""
    name = f"{args.players}p_{args.rounds}r_{2 * args.runs + 2}l"
    server = postgres_server()
    took = REUSED
    start = time.perf_counter()
    if server is None:
        var = Path(args.var)
        var.mkdir(parents=True, exist_ok=True)
        seed = var / f"bench-desk-seed-{name}.sqlite3"
        if args.rebuild or not seed.exists():
            for stale in var.glob(f"{seed.name}*"):
                stale.unlink()
            build_seed(f"sqlite:///{seed}", args)
            took = f"built the seed database in {time.perf_counter() - start:.0f} s"
        with sqlite3.connect(seed) as conn:  # everything into the file itself, then copy it
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        run = var / "bench-desk.sqlite3"
        for stale in var.glob(f"{run.name}*"):
            stale.unlink()
        shutil.copyfile(seed, run)
        return f"sqlite:///{run}", took
    seed_db = f"{os.environ.get('BENCH_SEED', 'tnc_bench_desk_seed')}_{name}"
    run_db = os.environ.get("BENCH_DATABASE", "tnc_bench_desk")
    exists = sql(server, f"SELECT 1 FROM pg_database WHERE datname = '{seed_db}'")
    if args.rebuild or not exists:
        sql(server, f"DROP DATABASE IF EXISTS {seed_db} WITH (FORCE)")
        sql(server, f"CREATE DATABASE {seed_db}")
        build_seed(f"{server}/{seed_db}", args)
        took = f"built the seed database in {time.perf_counter() - start:.0f} s"
    sql(server, f"DROP DATABASE IF EXISTS {run_db} WITH (FORCE)")
    sql(server, f"CREATE DATABASE {run_db} TEMPLATE {seed_db}")
    return f"{server}/{run_db}", took


# ----------------------------------------------------------------------------- in Django


def build(players: int, rounds: int, late: int) -> None:
    """In a child process with the seed's DATABASE_URL: load_standings' tournament, and late
    entries (not checked in) to check in; writes what the run needs beside the data."""
    setup = load_standings.build(players, rounds, scorekeepers=1)
    from django.contrib.auth import get_user_model

    from tournaments import services as t

    organizer = get_user_model().objects.get(username="organizer")
    t.tournament_register(
        tournament_id=setup["tournament"],
        user=organizer,
        names=[f"Late {n:02d}" for n in range(1, late + 1)],
        checked_in=False,
    )
    from django.core.cache import cache

    cache.clear()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_desk_setup (data text)")
        cursor.execute(
            "INSERT INTO bench_desk_setup VALUES (%s)",
            [json.dumps({k: setup[k] for k in ("tournament", "live_round")})],
        )


def measure(runs: int) -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from tournaments import services as t

    # No setup_test_environment(): its instrumented template rendering (a signal and a copy of
    # the context per template and partial, for the test client's response.context) would
    # weigh on a page of 1,000 rows as nothing does in production.
    with connection.cursor() as cursor:
        cursor.execute("SELECT data FROM bench_desk_setup")
        setup = json.loads(cursor.fetchone()[0])
    tid, live = setup["tournament"], setup["live_round"]
    organizer = get_user_model().objects.get(username="organizer")
    client = Client()
    client.force_login(organizer)
    summary = t.tournament_get(tournament_id=tid, user=organizer).summary
    late = [p["id"] for p in summary["players"] if not p["checked_in"]]
    seated = [s["player"] for s in summary["rounds"][-1]["tables"][0]["seats"]]
    seated += [s["player"] for s in summary["rounds"][-1]["tables"][1]["seats"]]
    desk = f"/desk/{tid}/"
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": f"http://testserver{desk}"}

    def version() -> str:
        return str(t.tournament_get(tournament_id=tid, user=organizer).summary["version"])

    in_service: list[float] = []  # time inside the services' _act during the current request
    holders = [
        module
        for name, module in sys.modules.items()
        if name.split(".")[:2] == ["tournaments", "services"]
        and callable(getattr(module, "_act", None))
    ]
    act = vars(holders[0])["_act"] if holders else None

    def timed_act(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return act(*args, **kwargs)  # type: ignore[misc]
        finally:
            in_service.append(time.perf_counter() - start)

    # Every tournament write goes through _act: wherever a services module holds it (one module,
    # or each module of a services package that imported it by name).
    for module in holders:
        if vars(module)["_act"] is act:
            vars(module)["_act"] = timed_act

    def row(what: str, times: list[float], size: int = 0) -> dict[str, Any]:
        return {
            "what": what,
            "median_ms": statistics.median(times) * 1000,
            "min_ms": min(times) * 1000,
            "max_ms": max(times) * 1000,
            "bytes": size,
        }

    def once(what: str, elapsed: float, response: Any = None) -> dict[str, Any]:
        size = len(response.content) if response is not None else 0
        return row(what, [elapsed], size)

    def timed(
        what: str,
        call: Callable[[int], Any],
        expect: int = 200,
        before: Callable[[], Any] = str,
        split: bool = False,
    ) -> list[dict[str, Any]]:
        times, sizes, services = [], [], []
        for i in range(runs + 1):  # the first one warms up
            before()
            in_service.clear()
            start = time.perf_counter()
            response = call(i)
            elapsed = time.perf_counter() - start
            assert response.status_code == expect, (what, response.status_code)
            if i:
                times.append(elapsed)
                sizes.append(len(response.content))
                services.append(sum(in_service))
        rows = [row(what, times, int(statistics.median(sizes)))]
        if split:
            rows.append(row("  ... in the service", services))
            rest = [a - b for a, b in zip(times, services, strict=True)]
            rows.append(row("  ... the rest", rest))
        return rows

    shown = {"version": ""}  # what the page shows, read before the clock starts

    def look() -> None:
        shown["version"] = version()

    def action(kind: str, player: str, confirm: bool = False) -> Any:
        url = f"{desk}players/{player}/{kind}/"
        data = {"page_version": shown["version"]}
        if kind == "check-in":
            data["checked_in"] = "1"
        if confirm:  # the button the desk's question comes with
            data["confirm"] = "1"
        return client.post(url, data, HTTP_HX_TARGET=f"player-{player}", **htmx)

    results: list[dict[str, Any]] = []
    start = time.perf_counter()
    first = client.get(f"{desk}round/{live}/sheets/print/")
    cold_sheets = (time.perf_counter() - start) * 1000
    results += timed("GET desk (whole dashboard)", lambda i: client.get(desk))
    results += timed(
        "htmx check-in", lambda i: action("check-in", late[i]), before=look, split=True
    )
    # A seated player's table is being played: the drop button asks first (nothing written),
    # then the organizer confirms with the button that answer brought.
    results += timed(
        "htmx drop, asked to confirm", lambda i: action("drop", seated[i]), expect=422, before=look
    )
    results += timed(
        "htmx drop, confirmed",
        lambda i: action("drop", seated[i], confirm=True),
        before=look,
        split=True,
    )
    results += timed(
        "htmx reinstate", lambda i: action("reinstate", seated[i]), before=look, split=True
    )
    results += timed(
        "GET score sheets (warm)", lambda i: client.get(f"{desk}round/{live}/sheets/print/")
    )
    results.append(
        {
            "what": "GET score sheets (first, cold)",
            "median_ms": cold_sheets,
            "min_ms": cold_sheets,
            "max_ms": cold_sheets,
            "bytes": len(first.content),
        }
    )
    from django.core.cache import cache

    from games.models import SeatLink
    from tournaments.desk import qr as desk_qr

    # Drawn ahead (issue 28): once a round is published a worker draws its sheets' codes into
    # the shared cache (tournaments.desk.sheets, the task tournaments.draw_sheet_codes), and the
    # first print finds them. The worker is this process here: with --cache-url (Redis) the
    # print then reads them from the cache alone (its memory emptied, as another process's);
    # without, from this process's memory (the default cache, each process's own, keeps 300).
    if importlib.util.find_spec("tournaments.desk.sheets"):  # not in the code from before
        from tournaments.desk import sheets

        desk_qr.forget()
        cache.clear()
        start = time.perf_counter()
        count = sheets.draw_published(uuid.UUID(tid))
        results.append(once(f"worker: draw {count} codes ahead", time.perf_counter() - start))
        if os.environ.get("CACHE_URL"):
            desk_qr.forget()
        start = time.perf_counter()
        ahead = client.get(f"{desk}round/{live}/sheets/print/")
        elapsed = time.perf_counter() - start
        results.append(once("GET score sheets (first, drawn ahead)", elapsed, ahead))
    # Seat links (issue 12): the same cold print for a round published before seat links (the
    # desk issues its 1,000 links, then draws 1,250 codes), in a process and cache that drew
    # nothing yet; then one seat's reissue as the table's seat page posts it (htmx).
    games_ = [tb["game"] for tb in summary["rounds"][-1]["tables"]]
    SeatLink.objects.filter(game_id__in=games_).delete()
    desk_qr.forget()
    cache.clear()
    start = time.perf_counter()
    legacy = client.get(f"{desk}round/{live}/sheets/print/")
    cold_legacy = (time.perf_counter() - start) * 1000
    results.append(
        {
            "what": "GET score sheets (cold, links issued on the way)",
            "median_ms": cold_legacy,
            "min_ms": cold_legacy,
            "max_ms": cold_legacy,
            "bytes": len(legacy.content),
        }
    )
    seats = f"{desk}round/{live}/table/1/seats/"
    results += timed("GET one table's seat links", lambda i: client.get(seats))
    results += timed(
        "htmx reissue a seat link", lambda i: client.post(f"{seats}{i % 4 + 1}/reissue/", **htmx)
    )
    # The services alone, for the share of an action that is not the desk's (other players).
    late_more = late[runs + 1 :]
    others = [s["player"] for s in summary["rounds"][-1]["tables"][2]["seats"]]
    others += [s["player"] for s in summary["rounds"][-1]["tables"][3]["seats"]]
    service = t.tournament_check_in, t.tournament_drop, t.tournament_reinstate
    for what, call, players in (
        ("service alone: tournament_check_in", service[0], late_more),
        ("service alone: tournament_drop", service[1], others),
        ("service alone: tournament_reinstate", service[2], others),
    ):
        times = []
        for i in range(runs + 1):
            start = time.perf_counter()
            call(tournament_id=tid, player=players[i], user=organizer)
            if i:
                times.append(time.perf_counter() - start)
        results.append(
            {
                "what": what,
                "median_ms": statistics.median(times) * 1000,
                "min_ms": min(times) * 1000,
                "max_ms": max(times) * 1000,
                "bytes": 0,
            }
        )
    game = summary["rounds"][-1]["tables"][0]["game"]
    qr = f"{desk}qr/{game}.svg"
    probe = client.get(qr)
    if probe.status_code == 200:
        results += timed("GET one QR image", lambda i: client.get(qr))
        etag = probe["ETag"]
        results += timed(
            "GET one QR image, If-None-Match",
            lambda i: client.get(qr, HTTP_IF_NONE_MATCH=etag),
            expect=304,
        )
    return {"vendor": connection.vendor, "results": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="run", choices=["run", "build", "here"])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--late", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--var", default=str(VAR), help="where the SQLite databases are kept")
    parser.add_argument(
        "--cache-url", default="", help="the measuring process's CACHE_URL (default: its memory)"
    )
    args = parser.parse_args()
    if args.command == "build":
        build(args.players, args.rounds, args.late)
        return
    if args.command == "here":
        print("RESULT " + json.dumps(measure(args.runs)))
        return
    url, took = prepare(args)
    if took == REUSED:
        # A seed built by older code gets today's migrations (its copy does; the seed stays).
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"],
            cwd=ROOT,
            env=environment(url),
            check=True,
        )
    command = [sys.executable, __file__, "here", "--runs", str(args.runs)]
    env = environment(url, args.cache_url)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the measuring process failed:\n{done.stderr}")
    line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT "))
    result = json.loads(line.removeprefix("RESULT "))
    print(f"Machine: {load_standings.machine()}")
    print(
        f"{result['vendor']}: {args.players} players, {args.rounds} round(s) played, the next "
        f"published ({took}); medians of {args.runs} after one warm-up, server time in-process"
    )
    for r in result["results"]:
        print(
            f"  {r['what']:34} median {r['median_ms']:8.1f} ms  (min {r['min_ms']:7.1f}, "
            f"max {r['max_ms']:7.1f})  {r['bytes'] / 1024:8.1f} KiB"
        )


if __name__ == "__main__":
    main()
