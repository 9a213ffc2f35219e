"""A club's season (issue 26): rating it from scratch, rebuilding the club's projections from
the log, a member's page and the season page.

    .venv/bin/python benchmarks/season.py [--tournaments 20] [--players 64] [--rounds 6]
        [--runs 5] [--pages 200] [--server] [--duration 10] [--rebuild]

Setup (through the services, as a club would run its season; built once and kept): a league,
and ``--tournaments`` Trick-n-Chef tournaments linked to it, a week apart, each of
``--players`` checked-in players drawn from the club's ``--members`` regulars (default 1.5 x
``--players``: most people play most evenings, nobody plays all). Each tournament is made,
paired and published through tournaments.services, round after round; every table's result
entered results only (games.services.game_enter_results: random round scores), recorded in
the tournament by the result sync (inline: no broker), the round closed; the tournament
finished. Nothing is written around the log: the club's projections come from it. The club's
consumer is not nudged during the build; at its end one ``club_sync()`` brings the club up to
the log (timed: the first sync of a whole season, rated incrementally). 20 x 64 x 6 is 1,920
tables of four: 7,680 players' results to rate.

The database is kept: on SQLite (the default) as /tmp/tnc-bench-season-seed-*.sqlite3, copied
afresh for each run; when DATABASE_URL points at PostgreSQL, as the database
``<its name>_season_seed_*`` on that server, each run on a copy (``CREATE DATABASE ...
TEMPLATE``) named as DATABASE_URL says. ``--rebuild`` builds it again.

Run (in-process, DEBUG off, a child process on the copy), each measure ``--runs`` times after
one warm-up, medians of the wall time and of the measuring process's CPU time (on a machine
shared with other work, the latter is the call's own cost; on SQLite it includes the
database's work, on PostgreSQL not the server's), with the load average:
- ``club.services.sync.rerate("trick-n-chef")``: every rated game of the season rated from
  scratch (read the standing results and the entries, rate, write every rating and change);
- ``club.services.club_rebuild()``: every club projection wiped and rebuilt from the log
  (entries, members, ratings, statistics mined from each game's log);
- ``club.services.reads.member_view(id)`` for ``--runs`` members (the page's data), and GET
  the member page (``club:member``) through Django's test client once that URL exists;
- ``club.services.reads.season_view(id)``: made afresh (the first after a change: the
  consumer's generation moved on, as a new result moves it) and as kept, and GET the season
  page (``club:league``) once it exists, afresh and ``--pages`` times as kept: pages/s;
- with ``--server``: the season page through gunicorn (2 sync workers, DEBUG off) under wrk
  (Debian's ``wrk``; 8 connections, ``--duration`` s), as load_standings.py does.
A benchmark: nothing passes or fails. Targets (2-core machine): the season rated from scratch
<= 5 s; a member page <= 50 ms; the season page >= 500 pages/s.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import secrets
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import load_standings  # type: ignore[import-not-found]  # noqa: E402  (machine(), wrk())

SEEDS = Path(os.environ.get("BENCH_SEASON_DIR", "/tmp"))
GAME_TYPE = "trick-n-chef"


def environment(database_url: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DEBUG="False",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="testserver,127.0.0.1",
        LOG_LEVEL="WARNING",
    )
    for name in ("CELERY_BROKER_URL", "CACHE_URL", "DATABASE_URL"):
        env.pop(name, None)
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


def postgres_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else None


def sql(server: str, statement: str, database: str = "postgres") -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(f"{server}/{database}", autocommit=True) as conn:
        cursor = conn.execute(statement)
        return cursor.fetchall() if cursor.description else []


def shape(args: argparse.Namespace) -> str:
    return f"{args.tournaments}t_{args.players}p_{args.rounds}r_{members(args)}m"


def members(args: argparse.Namespace) -> int:
    return int(args.members or max(args.players, args.players * 3 // 2))


def build_seed(database_url: str, args: argparse.Namespace) -> None:
    env = environment(database_url)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    command = [python, __file__, "build", "--tournaments", str(args.tournaments)]
    command += ["--players", str(args.players), "--rounds", str(args.rounds)]
    command += ["--members", str(members(args))]
    subprocess.run(command, cwd=ROOT, env=env, check=True)


def prepare(args: argparse.Namespace) -> tuple[str, str]:
    """The database URL of a fresh copy of the seed (built first if missing), and what it cost."""
    url = postgres_url()
    took = "reused the seed database"
    start = time.perf_counter()
    if url is None:
        seed = SEEDS / f"tnc-bench-season-seed-{shape(args)}.sqlite3"
        if args.rebuild or not seed.exists():
            for stale in SEEDS.glob(f"{seed.name}*"):
                stale.unlink()
            build_seed(f"sqlite:///{seed}", args)
            took = f"built the seed database in {time.perf_counter() - start:.0f} s"
        with sqlite3.connect(seed) as conn:  # everything into the file itself, then copy it
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        run = SEEDS / f"tnc-bench-season-{os.getpid()}.sqlite3"
        shutil.copyfile(seed, run)
        return f"sqlite:///{run}", took
    server, run_db = url.rsplit("/", 1)
    seed_db = f"{run_db}_season_seed_{shape(args)}"
    exists = sql(server, f"SELECT 1 FROM pg_database WHERE datname = '{seed_db}'")
    if args.rebuild or not exists:
        sql(server, f"DROP DATABASE IF EXISTS {seed_db} WITH (FORCE)")
        sql(server, f"CREATE DATABASE {seed_db}")
        build_seed(f"{server}/{seed_db}", args)
        took = f"built the seed database in {time.perf_counter() - start:.0f} s"
    sql(server, f"DROP DATABASE IF EXISTS {run_db} WITH (FORCE)")
    sql(server, f"CREATE DATABASE {run_db} TEMPLATE {seed_db}")
    return f"{server}/{run_db}", took


def cleanup(url: str) -> None:
    if url.startswith("sqlite:///"):
        for stale in SEEDS.glob(f"{Path(url.removeprefix('sqlite:///')).name}*"):
            stale.unlink()


# ----------------------------------------------------------------------------- in Django


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()


def build(tournaments: int, players: int, rounds: int, regulars: int) -> None:
    """In a child process with the seed's DATABASE_URL: the season, through the services."""
    setup_django()
    from django.contrib.auth import get_user_model
    from django.db import connection

    import club.services.writes as club_writes
    from club import services as club
    from engine.tricknchef.results import MAX_ROUND_SCORE
    from games import services as games
    from games.models import GameProjection
    from tournaments import services as t
    from tournaments.signals import tournament_appended

    # The club's consumer runs once at the end (below), not nudged after every commit.
    tournament_appended.disconnect(dispatch_uid="club.sync")
    club_writes._nudge = lambda: None  # (a build, not the site)
    rng = random.Random(2026)
    official = get_user_model().objects.create_user(
        "official", password=secrets.token_urlsafe(12), is_staff=True
    )
    league = club_writes.league_create(name="Season 2027", rules={}, user=official).league
    assert league is not None
    pool = [f"Member {n:03d}" for n in range(1, regulars + 1)]
    start = time.perf_counter()
    day = datetime.date(2027, 1, 5)
    for number in range(1, tournaments + 1):
        tid = t.tournament_create(
            user=official,
            name=f"Club night {number:02d}",
            date=(day + datetime.timedelta(weeks=number - 1)).isoformat(),
            rounds=rounds,
            seed=number,
            confirmation="auto",
        ).tournament_id
        club_writes.league_link(league=league, tournament=tid, user=official)
        t.tournament_register(
            tournament_id=tid, user=official, names=rng.sample(pool, players), checked_in=True
        )
        for round_no in range(1, rounds + 1):
            t.tournament_pair(tournament_id=tid, user=official)
            change = t.tournament_publish(tournament_id=tid, round=round_no, user=official)
            for table in change.state["rounds"][round_no - 1]["tables"]:
                game_id = uuid.UUID(table["game"])
                scores = {
                    s["name"]: [rng.randint(0, MAX_ROUND_SCORE // 2) for _ in range(3)]
                    for s in table["seats"]
                }
                games.game_enter_results(
                    game_id=game_id,
                    expected_version=GameProjection.objects.get(stream_id=game_id).version,
                    scores=scores,
                    user=official,
                )
            t.tournament_close_round(tournament_id=tid, round=round_no, user=official)
        t.tournament_finish(tournament_id=tid, user=official)
        print(
            f"  tournament {number}/{tournaments} played "
            f"({time.perf_counter() - start:.0f} s so far)",
            file=sys.stderr,
            flush=True,
        )
    played = time.perf_counter() - start
    start = time.perf_counter()
    report = club.club_sync()
    synced = time.perf_counter() - start
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_season_setup (data text)")
        cursor.execute(
            "INSERT INTO bench_season_setup VALUES (%s)",
            [
                json.dumps(
                    {
                        "league": league,
                        "played_s": played,
                        "first_sync_s": synced,
                        "first_sync": str(report),
                    }
                )
            ],
        )


@dataclass(frozen=True)
class Times:
    wall: list[float]
    cpu: list[float]
    """This process's CPU time (user + system) over the same calls: on a machine shared with
    other work, what the call itself cost (on SQLite the database's work is in it too; on
    PostgreSQL the server's is not)."""

    def figures(self) -> dict[str, float]:
        return {
            "runs": len(self.wall),
            "median_ms": statistics.median(self.wall) * 1000,
            "min_ms": min(self.wall) * 1000,
            "max_ms": max(self.wall) * 1000,
            "cpu_ms": statistics.median(self.cpu) * 1000,
            "per_s": len(self.wall) / sum(self.wall),
        }


def timed(call: Callable[[int], Any], runs: int, before: Callable[[], Any] = str) -> Times:
    """``call(i)`` for i in 0..runs, each after ``before()`` (not timed); the times of all but
    the first (a warm-up)."""
    wall, cpu = [], []
    for i in range(runs + 1):
        before()
        start, used = time.perf_counter(), time.process_time()
        call(i)
        if i:
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - used)
    return Times(wall, cpu)


def page_path(name: str, *args: Any) -> str | None:
    """The page's path, or None while its URL does not exist (the pages land separately)."""
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def measure(runs: int, pages: int) -> dict[str, Any]:
    setup_django()
    from django.db import connection, transaction
    from django.db.models import F
    from django.test import Client

    from club import services as club
    from club.models import GameStatistic, LogPosition, Member, MemberEntry, Rating, RatingChange
    from club.services import reads, sync

    # No setup_test_environment(): its instrumented template rendering would weigh on pages as
    # nothing does in production (benchmarks/desk.py).
    with connection.cursor() as cursor:
        cursor.execute("SELECT data FROM bench_season_setup")
        setup = json.loads(cursor.fetchone()[0])
    league = int(setup["league"])
    facts = {
        "members": Member.objects.count(),
        "entries": MemberEntry.objects.count(),
        "rated_games": RatingChange.objects.values("game_id").distinct().count(),
        "rating_changes": RatingChange.objects.count(),
        "ratings": Rating.objects.count(),
        "statistics": GameStatistic.objects.count(),
    }
    results: list[dict[str, Any]] = []
    load = [os.getloadavg()[0]]

    def changed() -> None:
        """What the club's pages are made from moves on, as the consumer's every write (a new
        result) moves it: every view and page kept for the version before is stale."""
        LogPosition.objects.filter(name=sync.NAME).update(generation=F("generation") + 1)

    def row(what: str, times: Times, **extra: Any) -> None:
        results.append({"what": what, **times.figures(), **extra})

    def rerate(i: int) -> None:
        with transaction.atomic():
            rated = sync.rerate(GAME_TYPE)
        assert rated == facts["rated_games"], (rated, facts["rated_games"])

    row(f'sync.rerate("{GAME_TYPE}")', timed(rerate, runs))

    def rebuild(i: int) -> None:
        count, differences = club.club_rebuild()
        assert count == facts["ratings"] and not differences, (count, differences[:3])

    row("club_rebuild() (entries + ratings + statistics)", timed(rebuild, runs))
    after = RatingChange.objects.count(), GameStatistic.objects.count()
    assert after == (facts["rating_changes"], facts["statistics"]), after

    # The member pages: the busiest members (most entries) first, a different one each run.
    busiest = list(
        Member.objects.filter(merged_into="", hidden=False)
        .order_by("-id")
        .values_list("id", flat=True)
    )
    by_entries: dict[str, int] = {}
    for member_id in MemberEntry.objects.values_list("member_id", flat=True):
        by_entries[member_id] = by_entries.get(member_id, 0) + 1
    busiest.sort(key=lambda m: -by_entries.get(m, 0))
    chosen = busiest[: runs + 1]
    view = reads.member_view(chosen[0])
    member_facts = {
        "tournaments": len(view.history),
        "rated_games": sum(len(g.steps) for g in view.games),
    }
    row(
        "reads.member_view(id)",
        timed(lambda i: reads.member_view(chosen[i]), runs),
        note=f"{member_facts['tournaments']} tournaments, {member_facts['rated_games']} games",
    )
    client = Client()
    path = page_path("club:member", chosen[0])
    if path is None:
        results.append({"what": "GET member page", "missing": "no URL club:member yet"})
    else:
        sizes: list[int] = []

        def member_page(i: int) -> None:
            response = client.get(page_path("club:member", chosen[i]) or "")
            assert response.status_code == 200, response.status_code
            sizes.append(len(response.content))

        row(
            "GET member page",
            timed(member_page, runs, before=changed),
            bytes=statistics.median(sizes),
        )

    # The season page: made afresh (the first visit after a change), and as kept.
    row(
        "reads.season_view(id), made afresh",
        timed(lambda i: reads.season_view(league), runs, before=changed),
    )
    season_rows = len(reads.season_view(league).rows)
    many = timed(lambda i: reads.season_view(league), pages)
    row("reads.season_view(id), kept", many, rate=True, rows=season_rows)
    path = page_path("club:league", league)
    if path is None:
        results.append({"what": "GET season page", "missing": "no URL club:league yet"})
    else:
        sizes = []

        def season_page(i: int) -> None:
            response = client.get(path)
            assert response.status_code == 200, response.status_code
            sizes.append(len(response.content))

        row("GET season page, made afresh", timed(season_page, runs, before=changed))
        many = timed(season_page, pages)
        row("GET season page", many, rate=True, bytes=statistics.median(sizes))
    load.append(os.getloadavg()[0])
    return {
        "load": load,
        "vendor": connection.vendor,
        "setup": setup,
        "facts": facts,
        "league": league,
        "season_page": path,
        "results": results,
    }


def serve(url: str, path: str, duration: int, connections: int, port: int) -> dict[str, Any]:
    """The season page through gunicorn (2 sync workers) under wrk."""
    if shutil.which("wrk") is None:
        return {"missing": "wrk is not installed (Debian's wrk package)"}
    env = environment(url)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--workers", "2",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                load_standings.request(port, "GET", "/health/")
                break
            except OSError:
                time.sleep(0.1)
        for _ in range(4):  # each worker makes the page once
            status, _, _ = load_standings.request(port, "GET", path)
            assert status == 200, status
        answer: dict[str, Any] = load_standings.wrk(
            port, path, duration, connections, "gzip, deflate, br", False
        )
        return answer
    finally:
        server.terminate()
        server.wait(timeout=30)


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="run", choices=["run", "build", "here"])
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--members", type=int, default=0, help="the club's regulars")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pages", type=int, default=200, help="season page requests timed")
    parser.add_argument("--server", action="store_true", help="also the season page under wrk")
    parser.add_argument("--duration", type=int, default=10, help="seconds of wrk (--server)")
    parser.add_argument("--connections", type=int, default=8, help="wrk's connections")
    parser.add_argument("--port", type=int, default=8777)
    parser.add_argument("--rebuild", action="store_true", help="build the seed database again")
    return parser.parse_args()


def main() -> None:
    args = options()
    if args.command == "build":
        build(args.tournaments, args.players, args.rounds, members(args))
        return
    if args.command == "here":
        print("RESULT " + json.dumps(measure(args.runs, args.pages)))
        return
    url, took = prepare(args)
    try:
        # A seed built by older code gets today's migrations (its copy does).
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"],
            cwd=ROOT,
            env=environment(url),
            check=True,
        )
        command = [sys.executable, __file__, "here", "--runs", str(args.runs)]
        command += ["--pages", str(args.pages)]
        done = subprocess.run(
            command, cwd=ROOT, env=environment(url), capture_output=True, text=True
        )
        if done.returncode:
            sys.exit(f"the measuring process failed:\n{done.stderr}")
        line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT "))
        result = json.loads(line.removeprefix("RESULT "))
        served = None
        if args.server and result["season_page"]:
            served = serve(url, result["season_page"], args.duration, args.connections, args.port)
    finally:
        cleanup(url)
    setup, facts = result["setup"], result["facts"]
    print(f"Machine: {load_standings.machine()}")
    print(
        f"{result['vendor']}: {args.tournaments} tournaments x {args.players} players x "
        f"{args.rounds} rounds of {GAME_TYPE}, {members(args)} members ({took}); "
        f"{facts['rated_games']} games rated, {facts['rating_changes']} rating changes, "
        f"{facts['entries']} entries, {facts['statistics']} statistics"
    )
    print(
        f"  build: played in {setup['played_s']:.0f} s; the first club_sync() of the whole "
        f"season {setup['first_sync_s']:.1f} s ({setup['first_sync']})"
    )
    print(
        f"  medians of {args.runs} after one warm-up, in-process (DEBUG off); wall time, and "
        f"this process's CPU time; load average {result['load'][0]:.1f} at the start, "
        f"{result['load'][1]:.1f} at the end ({os.cpu_count()} cores)"
    )
    for r in result["results"]:
        if "missing" in r:
            print(f"  {r['what']:48} not measured: {r['missing']}")
            continue
        extra = ""
        if r.get("rate"):
            extra += f"  {r['per_s']:,.0f}/s over {r['runs']}"
        if "bytes" in r:
            extra += f"  {r['bytes'] / 1024:.1f} KiB"
        if "note" in r:
            extra += f"  ({r['note']})"
        if "rows" in r:
            extra += f"  ({r['rows']} rows)"
        print(
            f"  {r['what']:48} median {r['median_ms']:9.2f} ms, CPU {r['cpu_ms']:9.2f} ms  "
            f"(min {r['min_ms']:.2f}, max {r['max_ms']:.2f}){extra}"
        )
    if args.server:
        if served is None:
            print("  season page under wrk: not measured (no URL club:league yet)")
        elif "missing" in served:
            print(f"  season page under wrk: not measured ({served['missing']})")
        else:
            seconds = served["duration_us"] / 1e6
            print(
                f"  season page, gunicorn 2 workers, wrk {args.connections} connections "
                f"{seconds:.0f} s: {served['requests'] / seconds:,.0f} pages/s, p50 "
                f"{served['p50'] / 1000:.1f} ms, p99 {served['p99'] / 1000:.1f} ms, errors "
                f"{served['status'] + served['timeout'] + served['read'] + served['connect']}"
            )


if __name__ == "__main__":
    main()
