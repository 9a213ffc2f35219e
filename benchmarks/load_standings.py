"""The public standings page of a 1,000-player tournament under load, while scorekeepers record
their tables through the API: page requests/s and latency; every scorekeeper event accounted for.

    .venv/bin/python benchmarks/load_standings.py [--duration 30] [--connections 16]
        [--scorekeepers 20] [--think 0.5] [--players 1000] [--rounds 3] [--workers 2]
        [--threads 1] [--cache-url URL] [--celery BROKER_URL] [--rebuild]

As deployed (docker-compose.yml: a shared Redis cache, results recorded by a Celery worker):

    .venv/bin/python benchmarks/load_standings.py --connections 8 --think 2 \
        --cache-url redis://127.0.0.1:6379/8 --celery redis://127.0.0.1:6379/7

Setup (through the services, as an organizer would run it): a tournament of ``--players``
checked-in players; ``--rounds`` rounds paired, every table's result entered (results only),
synced, confirmed, the round closed; the next round paired and published. That database is
built once (``trick_n_chef_load_seed_*``, a few minutes; ``--rebuild`` builds it again) and each
run starts from a fresh copy of it (``trick_n_chef_load``, or $BENCH_DATABASE), on the
PostgreSQL server of $BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432).

Run: gunicorn (``--workers`` sync workers, DEBUG off, token auth) on 127.0.0.1. Without
``--celery`` there is no broker: a finished game's result reaches the tournament inline, in the
web worker's request; with it, a Celery worker (one process) records it and renders the new
standings into the cache, as in production. ``--scorekeepers``
client processes each take a table of the live round (a scorekeeper user with the scorekeeper
role and a token each) and record a simulated game one event per request (expected_version +
Idempotency-Key), a tap every ``--think`` seconds (jittered); a table's first part is caught up
in one request before the clock starts, staggered so that the first tables finish during the
run (each finish is a new tournament version: a new result on the page). A scorekeeper's 3rd
accepted event, and every 25th after it, is sent twice with the same key (a retry after a lost
answer) and must answer the same (at --think 2 a scorekeeper sends about 15 events in 30 s: a
retry only every 25th would never happen). When a
table's last event is answered its scorekeeper reads the page every 20 ms until the table's result
counts there (a seated player's "Games" grows): the delay from sending that event to the first
page that shows it, for every table. Meanwhile wrk (``--connections`` connections, closed loop)
asks for /t/<id>/standings/ for ``--duration`` seconds, as a phone's browser does
(``Accept-Encoding: gzip, deflate, br``; ``--encoding identity`` for uncompressed pages); with
``--conditional`` each connection revalidates its copy (If-None-Match), and the 304s are counted
apart from full pages. At the end every accepted event is looked up in its game's log: there
exactly once, in order, nothing else; and the page must show every result recorded during the
run.

``--cache-url`` sets the server's CACHE_URL (e.g. ``dummycache://`` to measure the page without
its cache, ``redis://127.0.0.1:6379/9``); default: the settings' own default.

Prints the machine, the setup, page requests/s and latency percentiles, the scorekeepers'
appends (accepted, replayed retries, conflicts, errors) and the final check. A benchmark:
nothing passes or fails. Target (2-core machine): >= 300 page requests/s with p99 <= 100 ms
while the scorekeepers append; 0 errors, no event lost.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import platform
import random
import re
import resource
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from html import escape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.tricknchef.events import to_json  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402

SERVER = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432")
DATABASE = os.environ.get("BENCH_DATABASE", "trick_n_chef_load")
"""The run's database (a fresh copy of the seed each run; the seed is named after it unless
$BENCH_SEED names it): $BENCH_DATABASE lets runs from several checkouts share a PostgreSQL
server (and $BENCH_SEED one seed database)."""
QUEUE = f"load-benchmark-{os.getpid()}"
"""The Celery queue of this run (--celery): nothing else on the broker takes its tasks."""
SCOREKEEPER_ACCOUNTS = 50
"""Scorekeeper users (the role and a token each) in the seed database: --scorekeepers at most."""
RETRY_FIRST = 3
RETRY_EVERY = 25
"""A scorekeeper resends (same key) its RETRY_FIRST-th accepted event and every RETRY_EVERY-th
after it."""
RESULT_POLL = 0.02
"""How often a scorekeeper whose table has just finished reads the page until it shows."""
RESULT_WAIT = 30.0
"""How long it waits at most (then the result counts as not shown)."""

WRK_SCRIPT = """
local threads = {}
setup = function(thread) table.insert(threads, thread) end
init = function(args) not_modified = 0 end
wrk.headers["Accept-Encoding"] = "%(encoding)s"
%(conditional)s
done = function(summary, latency, requests)
  local e = summary.errors
  local nm = 0
  for _, t in ipairs(threads) do nm = nm + t:get("not_modified") end
  io.write(string.format(
    'WRK {"requests": %%d, "duration_us": %%d, "bytes": %%d, "connect": %%d, "read": %%d, '
    .. '"write": %%d, "status": %%d, "timeout": %%d, "p50": %%d, "p90": %%d, "p99": %%d, '
    .. '"p999": %%d, "max": %%d, "mean": %%.1f, "not_modified": %%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write,
    e.status, e.timeout, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency:percentile(99.9), latency.max, latency.mean, nm))
end
"""
"""wrk's script: every connection asks as a phone's browser does (Accept-Encoding), and with
--conditional revalidates its copy (If-None-Match with the last ETag it was given)."""
WRK_CONDITIONAL = """
local etag = nil
request = function()
  if etag then
    return wrk.format(nil, nil, {["If-None-Match"] = etag})
  end
  return wrk.format()
end
response = function(status, headers, body)
  if status == 304 then not_modified = not_modified + 1 end
  if headers["ETag"] then etag = headers["ETag"] end
end
"""
NGINX_CONF = """
worker_processes 1;
pid %(dir)s/nginx.pid;
error_log %(dir)s/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path %(dir)s/body;
    proxy_temp_path %(dir)s/proxy;
    fastcgi_temp_path %(dir)s/fastcgi;
    uwsgi_temp_path %(dir)s/uwsgi;
    scgi_temp_path %(dir)s/scgi;
    upstream django { server 127.0.0.1:%(upstream)d; keepalive 16; }
    # The cache's rules as the compose stack's proxy has them (docs/operations.md): the files
    # of docker/proxy/, with the paths and ports of this run around them.
    proxy_cache_path %(dir)s/cache levels=1:2 keys_zone=tnc:10m max_size=200m
                     inactive=10m use_temp_path=off;
    map $scheme $tnc_proto { default $scheme; }
    include %(proxy)s/cache-maps.conf;
    server {
        listen 127.0.0.1:%(port)d;
        include %(proxy)s/cache-locations.conf;
    }
}
"""
"""--nginx: the reverse proxy of docs/operations.md in front of gunicorn (one worker process;
upstream keep-alive): docker/proxy/'s cache rules, which docker-compose.scale.yml's proxy uses."""


def start_nginx(port: int, upstream: int) -> tuple[subprocess.Popen[bytes], str]:
    """nginx on ``port`` in front of gunicorn on ``upstream``, with its files in a directory of
    its own (returned: remove it when nginx is stopped)."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    folder = tempfile.mkdtemp(prefix="tnc-bench-nginx-")
    os.chmod(folder, 0o777)  # nginx's workers run as nobody and write their cache here
    conf = Path(folder, "nginx.conf")
    conf.write_text(
        NGINX_CONF
        % {"dir": folder, "port": port, "upstream": upstream, "proxy": ROOT / "docker" / "proxy"}
    )
    proc = subprocess.Popen([nginx, "-c", str(conf), "-g", "daemon off;"])
    return proc, folder


# ----------------------------------------------------------------------------- machine, server


def machine() -> str:
    cpu = platform.machine()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def server_env(
    database: str, cache_url: str | None, broker_url: str | None = None
) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DEBUG="False",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"{SERVER}/{database}",
        LOG_LEVEL="WARNING",
    )
    env.pop("CELERY_BROKER_URL", None)
    env.pop("CACHE_URL", None)
    if cache_url:
        env["CACHE_URL"] = cache_url
    if broker_url:
        env["CELERY_BROKER_URL"] = broker_url
        env["CELERY_TASK_DEFAULT_QUEUE"] = QUEUE
    return env


def psql(sql: str, database: str = "postgres") -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(f"{SERVER}/{database}", autocommit=True) as conn:
        cursor = conn.execute(sql)
        return cursor.fetchall() if cursor.description else []


def seed_name(args: argparse.Namespace) -> str:
    return os.environ.get("BENCH_SEED") or f"{DATABASE}_seed_{args.players}p_{args.rounds}r"


def prepare(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """A fresh copy of the seed database (built first if missing); the setup's description
    and how long it took."""
    seed = seed_name(args)
    exists = psql(f"SELECT 1 FROM pg_database WHERE datname = '{seed}'")
    took = "reused the seed database"
    if args.rebuild or not exists:
        start = time.perf_counter()
        psql(f"DROP DATABASE IF EXISTS {seed} WITH (FORCE)")
        psql(f"CREATE DATABASE {seed}")
        env = server_env(seed, None)
        python = sys.executable
        subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        done = subprocess.run(
            [python, __file__, "build", "--players", str(args.players), "--rounds",
             str(args.rounds), "--scorekeepers", str(SCOREKEEPER_ACCOUNTS)],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        setup = done.stdout.strip().splitlines()[-1]
        psql("CREATE TABLE load_benchmark_setup (data text)", seed)
        import psycopg

        with psycopg.connect(f"{SERVER}/{seed}", autocommit=True) as conn:
            conn.execute("INSERT INTO load_benchmark_setup VALUES (%s)", (setup,))
        took = f"built the seed database in {time.perf_counter() - start:.0f} s"
    psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    psql(f"CREATE DATABASE {DATABASE} TEMPLATE {seed}")
    # A seed built by older code gets today's migrations (its copy does; the seed stays as built).
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"],
        cwd=ROOT,
        env=server_env(DATABASE, None),
        check=True,
    )
    setup = json.loads(psql("SELECT data FROM load_benchmark_setup", DATABASE)[0][0])
    return setup, took


# ----------------------------------------------------------------------------- setup (Django)


def build(players: int, rounds: int, scorekeepers: int) -> dict[str, Any]:
    """Run in a child process with the seed database's DATABASE_URL: the tournament, through
    the services. Returns what the run needs (ids, tokens, the live round's tables)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments import services as t

    users = get_user_model()
    rng = random.Random(2026)
    organizer = users.objects.create_user("organizer", password=secrets.token_urlsafe(12))
    tid = t.tournament_create(
        user=organizer,
        name="Load Open",
        date="2026-12-05",
        rounds=rounds + 3,
        seed=2026,
        confirmation="auto",  # a result counts once recorded: each finished table moves the rows
    ).tournament_id
    tokens = []
    for number in range(1, scorekeepers + 1):
        keeper = users.objects.create_user(f"scorekeeper{number}")
        t.tournament_set_role(
            tournament_id=tid, username=keeper.username, role="scorekeeper", grant=True,
            user=organizer,
        )  # fmt: skip
        tokens.append(Token.objects.create(user=keeper).key)
    change = play_rounds(tid, organizer, players, rounds, rng)
    live = rounds + 1
    tables = [
        {"table": tb["table"], "game": tb["game"], "seats": [s["name"] for s in tb["seats"]]}
        for tb in change.state["rounds"][live - 1]["tables"]
    ]
    return {
        "tournament": str(tid),
        "players": players,
        "rounds_played": rounds,
        "live_round": live,
        "tokens": tokens,
        "tables": tables,
    }


def play_rounds(
    tid: uuid.UUID, organizer: Any, players: int, rounds: int, rng: random.Random
) -> Any:
    """After django.setup(): register ``players`` checked in (in parts of the services' limit),
    play ``rounds`` rounds by their results (random scores from ``rng``), each recorded and its
    round closed, then pair and publish the next round; returns that publication's change.
    compose_scale.py builds its seed with it too."""
    from engine.tricknchef.results import MAX_ROUND_SCORE
    from games import services as games
    from tournaments import services as t
    from tournaments.domain import MAX_REGISTRATION

    names = [f"Player {number:04d}" for number in range(1, players + 1)]
    for start in range(0, players, MAX_REGISTRATION):  # the services take so many at once
        t.tournament_register(
            tournament_id=tid,
            user=organizer,
            names=names[start : start + MAX_REGISTRATION],
            checked_in=True,
        )
    for number in range(1, rounds + 1):
        t.tournament_pair(tournament_id=tid, user=organizer)
        change = t.tournament_publish(tournament_id=tid, round=number, user=organizer)
        for table in change.state["rounds"][number - 1]["tables"]:
            game_id = uuid.UUID(table["game"])
            game = games.game_get(game_id=game_id, user=organizer)
            scores = {
                s["name"]: [rng.randint(0, MAX_ROUND_SCORE // 2) for _ in range(3)]
                for s in table["seats"]
            }
            games.game_enter_results(
                game_id=game_id, expected_version=game.version, scores=scores, user=organizer
            )
            t.tournament_sync_game(game_id=game_id)  # inline already (no broker): a no-op
        t.tournament_close_round(tournament_id=tid, round=number, user=organizer)
    t.tournament_pair(tournament_id=tid, user=organizer)
    return t.tournament_publish(tournament_id=tid, round=rounds + 1, user=organizer)


# ----------------------------------------------------------------------------- HTTP


def request(
    port: int,
    method: str,
    path: str,
    token: str | None = None,
    body: Any = None,
    key: str | None = None,
) -> tuple[int, Any, float]:
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    payload = None
    if body is not None:
        payload = json.dumps(body)
        headers["Content-Type"] = "application/json"
    if key:
        headers["Idempotency-Key"] = key
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    start = time.perf_counter()
    try:
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    elapsed = time.perf_counter() - start
    kind = response.getheader("Content-Type", "")
    return response.status, json.loads(data) if "json" in kind else data, elapsed


def post_event(
    port: int, token: str, game: str, payload: dict[str, Any], key: str
) -> tuple[int, Any, float, int]:
    """Send a write; on a network error or a 5xx send it again with the same key (the API's
    retry rule). Returns the final answer and how many attempts failed."""
    failed = 0
    while True:
        try:
            status, body, elapsed = request(
                port, "POST", f"/api/games/{game}/events/", token, payload, key
            )
        except OSError:
            status, body, elapsed = 0, None, 0.0
        if status and status < 500:
            return status, body, elapsed, failed
        failed += 1
        if failed == 3:
            return status, body, elapsed, failed
        time.sleep(0.2)


def record(seats: list[str], table: int) -> list[dict[str, Any]]:
    """The table's simulated game as record events after game_started (seat 1 starts)."""
    suits = ("green", "red", "yellow") if len(seats) == 3 else None
    names = tuple(seats)
    events = simulate(1000 + table, len(names), names=names, first_player=names[0], suits=suits)
    return [to_json(e) for e in events[1:]]


# ----------------------------------------------------------------------------- scorekeepers


def resend(accepted: int) -> bool:
    """Whether a scorekeeper sends its ``accepted``-th accepted event again with its key."""
    return accepted >= RETRY_FIRST and (accepted - RETRY_FIRST) % RETRY_EVERY == 0


def confirmed_on_page(port: int, page: str) -> int:
    status, html, _ = request(port, "GET", page)
    assert status == 200, status
    return int(page_facts(html.decode())["confirmed"])


def games_on_page(port: int, page: str, player: str) -> int:
    """The "Games" column of one player's row (by name) on the standings page: it grows by one
    when the result of the player's table counts (others' results move ranks, never this)."""
    status, html, _ = request(port, "GET", page)
    assert status == 200, status
    text = html.decode()
    titles = re.findall(r'<th scope="col" class="num[^"]*">([^<]*)</th>', text)
    row = re.search(rf'">{re.escape(escape(player))}</a>.*?</tr>', text)
    assert row is not None and "Games" in titles, f"no row of {player} with games"
    cells = re.findall(r'<td class="num[^"]*">([^<]*)</td>', row.group(0))  # "num wide" too
    return int(cells[titles.index("Games") - 1])  # the rank's cell comes before the row's link


def result_delay(port: int, page: str, player: str, before: int, sent: float) -> tuple[float, bool]:
    """Seconds from ``sent`` (a table's last event sent: its commit comes after) to the first
    page response that counts the table's result (read every RESULT_POLL seconds; inf if not
    within RESULT_WAIT), and whether the first read after the event's answer showed it."""
    first = True
    while True:
        shown = games_on_page(port, page, player)
        if shown > before:
            return time.perf_counter() - sent, first
        if time.perf_counter() - sent > RESULT_WAIT:
            return float("inf"), False
        first = False
        time.sleep(RESULT_POLL)


def scorekeeper(
    port: int,
    token: str,
    tables: list[dict[str, Any]],
    catch_up: int,
    think: float,
    page: str,
    ready: Any,
    start: Any,
    stop: Any,
    out: Any,
) -> None:
    """Record this scorekeeper's tables one event per request until ``stop``. The first table's
    first ``catch_up`` events go in one request before ``start`` (not timed). Around a table's
    last event the public standings page is read: its result must show right after."""
    rng = random.Random(token)
    accepted: list[tuple[str, int, dict[str, Any]]] = []
    latencies: list[float] = []
    counts = dict.fromkeys(
        ("accepted", "replayed", "conflicts", "errors", "retries", "fresh", "stale"), 0
    )
    delays: list[float] = []
    problems: list[str] = []
    played: list[str] = []
    first = True
    for table in tables:
        if stop.is_set():
            break
        game, events = table["game"], record(table["seats"], table["table"])
        played.append(game)
        status, body, _ = request(port, "GET", f"/api/games/{game}/", token)
        version = body["version"]
        if first:
            first = False
            batch = events[version - 2 : version - 2 + catch_up]
            status, body, _, _ = post_event(
                port,
                token,
                game,
                {"expected_version": version, "events": batch},
                uuid.uuid4().hex,
            )
            assert status == 201, body
            for offset, event in enumerate(batch):
                accepted.append((game, version + 1 + offset, event))
            version = body["version"]
            ready.put(True)
            start.wait()
        while version - 2 < len(events) and not stop.is_set():
            last = version - 2 == len(events) - 1
            watched = table["seats"][0]
            shown = games_on_page(port, page, watched) if last else 0
            event = events[version - 2]
            payload = {"expected_version": version, "events": [event]}
            key = uuid.uuid4().hex
            sent = time.perf_counter()
            status, body, elapsed, failed = post_event(port, token, game, payload, key)
            counts["retries"] += failed
            if status == 201:
                counts["accepted"] += 1
                latencies.append(elapsed)
                accepted.append((game, body["version"], event))
                if resend(counts["accepted"]):  # the answer "was lost": send again
                    again, body2, _, failed = post_event(port, token, game, payload, key)
                    counts["retries"] += failed
                    if again == 201 and body2["version"] == body["version"]:
                        counts["replayed"] += 1
                    else:
                        counts["errors"] += 1
                        problems.append(f"retry answered {again}: {body2}")
                version = body["version"]
                if last:  # the table's result: on the page at once, or how long after
                    delay, at_once = result_delay(port, page, watched, shown, sent)
                    delays.append(delay)
                    counts["fresh" if at_once else "stale"] += 1
            elif status == 409:
                # Someone else wrote to this table: take their version and decide again.
                counts["conflicts"] += 1
                version = body["error"]["current_version"]
            else:
                counts["errors"] += 1
                problems.append(f"{status}: {str(body)[:300]}")
                break
            time.sleep(think * rng.uniform(0.5, 1.5))
    if first:  # never got going: do not keep the others waiting
        ready.put(False)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out.put(
        (counts, latencies, accepted, played, problems, usage.ru_utime + usage.ru_stime, delays)
    )


def check_logs(
    port: int,
    token: str,
    setup: dict[str, Any],
    accepted: list[tuple[str, int, dict[str, Any]]],
    played: list[str],
) -> tuple[int, list[str]]:
    """Every accepted event is in its game's log exactly once, at the version it was given;
    each log is the table's simulated record from the start, with nothing else in it."""
    seats = {t["game"]: (t["seats"], t["table"]) for t in setup["tables"]}
    problems: list[str] = []
    found = 0
    by_game: dict[str, dict[int, dict[str, Any]]] = {}
    for game, version, event in accepted:
        if version in by_game.setdefault(game, {}):
            problems.append(f"{game}: version {version} accepted twice")
        by_game[game][version] = event
    for game in played:
        status, body, _ = request(port, "GET", f"/api/games/{game}/events/?since=0", token)
        assert status == 200, body
        log = body["events"]
        versions = [e["version"] for e in log]
        if versions != list(range(1, len(log) + 1)):
            problems.append(f"{game}: versions are not 1..{len(log)}")
        entries = [{"type": e["type"], **e["data"]} for e in log]
        expected = record(*seats[game])
        plays = [e for e in entries if e["type"] not in ("game_started", "game_published")]
        if plays != expected[: len(plays)]:
            problems.append(f"{game}: the log is not the table's record")
        mine = by_game.get(game, {})
        if len(plays) != len(mine):
            problems.append(f"{game}: {len(plays)} plays in the log, {len(mine)} accepted")
        for version, event in mine.items():
            if version > len(entries) or entries[version - 1] != event:
                problems.append(f"{game}: accepted event {version} is not in the log")
            else:
                found += 1
    return found, problems


# ----------------------------------------------------------------------------- the run


def cpu_of(pids: list[int]) -> float:
    """CPU seconds (user + system) the processes have used so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def processes(parent: int | None = None, name: str | None = None) -> list[int]:
    """Pids of the children of ``parent``, or of the processes called ``name``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            comm, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        if (parent is not None and int(rest.split()[1]) == parent) or (
            name is not None and comm.split("(", 1)[1] == name
        ):
            found.append(int(stat.parent.name))
    return found


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (all processes, ours and others')."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def wrk(
    port: int, path: str, duration: int, connections: int, encoding: str, conditional: bool
) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(
            WRK_SCRIPT
            % {"encoding": encoding, "conditional": WRK_CONDITIONAL if conditional else ""}
        )
    try:
        done = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--timeout", "5s",
             "-s", script.name, f"http://127.0.0.1:{port}{path}"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
    finally:
        os.unlink(script.name)
    line = next(x for x in done.stdout.splitlines() if x.startswith("WRK "))
    result: dict[str, Any] = json.loads(line[4:])
    return result


def page_facts(html: str) -> dict[str, Any]:
    rows = len(re.findall(r"<tr(?: class=\"dropped\")?>\s*<td class=\"num\">", html))
    confirmed = re.search(r"Standings after (\d+) confirmed", html)
    return {"rows": rows, "confirmed": int(confirmed.group(1)) if confirmed else 0}


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=30, help="seconds of page load")
    parser.add_argument("--connections", type=int, default=16, help="wrk's open connections")
    parser.add_argument("--scorekeepers", type=int, default=20, help="50 at most")
    parser.add_argument("--think", type=float, default=0.5, help="seconds between taps")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3, help="rounds played before the run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per worker (more than 1: gthread)"
    )
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--cache-url", default=None, help="the server's CACHE_URL")
    parser.add_argument(
        "--celery",
        default=None,
        metavar="BROKER_URL",
        help="record results in a Celery worker (one process) on this broker, as deployed, "
        "instead of inline in the web worker",
    )
    parser.add_argument(
        "--encoding",
        default="gzip, deflate, br",
        help="wrk's Accept-Encoding (a phone's browser's by default; 'identity': uncompressed)",
    )
    parser.add_argument(
        "--conditional",
        action="store_true",
        help="wrk revalidates (If-None-Match with the last ETag): 304s are counted apart",
    )
    parser.add_argument(
        "--nginx",
        action="store_true",
        help="serve through nginx with proxy caching (docs/operations.md) on --port + 1: wrk "
        "and the scorekeepers go through it",
    )
    parser.add_argument("--rebuild", action="store_true", help="build the seed database again")
    return parser.parse_args()


def start_scorekeepers(
    args: argparse.Namespace, setup: dict[str, Any], page: str, port: int
) -> tuple[list[Any], Any, Any, Any]:
    """One process per scorekeeper (talking to ``port``: gunicorn, or nginx in front), each
    caught up on its first table and waiting for ``start``. Returns the processes, the start
    and stop events and the queue of their results."""
    tables = setup["tables"]
    keepers = min(args.scorekeepers, len(setup["tokens"]), len(tables))
    # Events a scorekeeper records during the run, roughly: the first tables are caught up so
    # that they finish one after another through the run.
    per_run = max(4, int(args.duration / (args.think + 0.01)))
    ctx = multiprocessing.get_context("fork")
    ready, out = ctx.Queue(), ctx.Queue()
    start, stop = ctx.Event(), ctx.Event()
    procs = []
    for k in range(keepers):
        mine = tables[k::keepers]
        remaining = max(2, round(per_run * (k + 1) / (keepers + 1)))
        catch_up = max(1, len(record(mine[0]["seats"], mine[0]["table"])) - remaining)
        procs.append(
            ctx.Process(
                target=scorekeeper,
                args=(
                    port,
                    setup["tokens"][k],
                    mine,
                    catch_up,
                    args.think,
                    page,
                    ready,
                    start,
                    stop,
                    out,
                ),
            )
        )
    for proc in procs:
        proc.start()
    for _ in procs:
        ready.get(timeout=300)  # a scorekeeper that failed before: stop, do not hang
    return procs, start, stop, out


def run(args: argparse.Namespace, setup: dict[str, Any]) -> dict[str, Any]:
    """Start the server, the scorekeepers and wrk; collect what happened; stop the server."""
    env = server_env(DATABASE, args.cache_url, args.celery)
    celery = None
    if args.celery:
        celery = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo",
             "-Q", QUEUE, "-l", "warning", "--without-gossip", "--without-mingle",
             "--without-heartbeat"],
            cwd=ROOT, env=env,
        )  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application",
         "--workers", str(args.workers), "--bind", f"127.0.0.1:{args.port}",
         "--log-level", "warning",
         *(["--threads", str(args.threads)] if args.threads > 1 else [])],
        cwd=ROOT, env=env,
    )  # fmt: skip
    page = f"/t/{setup['tournament']}/standings/"
    out: dict[str, Any] = {"page": page}
    front, nginx = args.port, None
    if args.nginx:
        front = args.port + 1
        nginx, nginx_dir = start_nginx(front, args.port)
    try:
        for _ in range(100):
            try:
                request(args.port, "GET", "/health/")
                break
            except OSError:
                time.sleep(0.1)
        out["cold"] = []
        for _ in range(2 * args.workers):  # each worker renders the page once
            status, html, elapsed = request(args.port, "GET", page)
            assert status == 200, status
            out["cold"].append(elapsed)
        out["before"] = page_facts(html.decode())
        out["size"] = len(html)
        procs, start, stop, queue = start_scorekeepers(args, setup, page, front)
        # The caught-up tables changed nothing in the tournament: the page is still warm.
        out["warm"] = [request(args.port, "GET", page)[2] for _ in range(4 * args.workers)]
        start.set()
        time.sleep(1)
        workers = processes(parent=server.pid)
        tasks = [celery.pid] if celery else []
        used = {
            "workers": -cpu_of(workers),
            "celery": -cpu_of(tasks),
            "postgres": -cpu_of(processes(name="postgres")),
            "machine": -machine_busy(),
            "wrk": -resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
            - resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime,
        }
        clock = time.perf_counter()
        out["load"] = wrk(
            front, page, args.duration, args.connections, args.encoding, args.conditional
        )
        out["wall"] = time.perf_counter() - clock
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        used["wrk"] += children.ru_utime + children.ru_stime
        used["workers"] += cpu_of(workers)
        used["celery"] += cpu_of(tasks)
        used["postgres"] += cpu_of(processes(name="postgres"))
        used["machine"] += machine_busy()
        stop.set()
        results = [queue.get(timeout=RESULT_WAIT + 120) for _ in procs]
        for proc in procs:
            proc.join()
        used["scorekeepers"] = sum(r[5] for r in results)
        out["delays"] = sorted(x for r in results for x in r[6])
        out["cpu"] = used
        out["keepers"] = len(procs)
        names = ("accepted", "replayed", "conflicts", "errors", "retries", "fresh", "stale")
        out["counts"] = {k: sum(r[0][k] for r in results) for k in names}
        out["latencies"] = sorted(x for r in results for x in r[1])
        accepted = [a for r in results for a in r[2]]
        played = [g for r in results for g in r[3]]
        out["problems"] = [p for r in results for p in r[4]]
        out["accepted"] = len(accepted)
        out["found"], out["lost"] = check_logs(
            args.port, setup["tokens"][0], setup, accepted, played
        )
        out["finished"] = sum(
            1
            for game in played
            if request(args.port, "GET", f"/api/games/{game}/")[1]["status"] == "finished"
        )
        # The worker records the last results a moment after their games finished.
        deadline = time.monotonic() + 60
        while True:
            status, html, _ = request(args.port, "GET", page)
            out["after"] = page_facts(html.decode())
            grown = out["after"]["confirmed"] - out["before"]["confirmed"]
            if grown >= out["finished"] or time.monotonic() > deadline:
                break
            time.sleep(0.2)
    finally:
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)
            nginx.wait(timeout=30)
            shutil.rmtree(nginx_dir, ignore_errors=True)
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        if celery:
            celery.send_signal(signal.SIGTERM)
            celery.wait(timeout=30)
    return out


def report(args: argparse.Namespace, setup: dict[str, Any], took: str, r: dict[str, Any]) -> None:
    def ms(values: list[float], q: float) -> float:
        return 1000 * values[min(len(values) - 1, int(q * len(values)))] if values else 0.0

    load, counts, cpu = r["load"], r["counts"], r["cpu"]
    seconds = load["duration_us"] / 1e6
    errors = sum(load[k] for k in ("connect", "read", "write", "status", "timeout"))
    print(f"machine: {machine()}")
    print(
        f"setup: {setup['players']} players, {setup['rounds_played']} rounds played (results "
        f"entered and synced, confirmed automatically, rounds closed), round "
        f"{setup['live_round']} live with {len(setup['tables'])} tables; {took}"
    )
    kind = "sync workers" if args.threads <= 1 else f"gthread workers x {args.threads} threads"
    print(
        f"server: gunicorn, {args.workers} {kind}, DEBUG off, PostgreSQL "
        f"{psql('SHOW server_version')[0][0].split()[0]}, cache "
        f"{args.cache_url or 'the settings default'}; results recorded "
        f"{f'by a Celery worker (solo) on {args.celery}' if args.celery else 'inline (no broker)'}"
        f"{'; nginx in front (proxy cache of docs/operations.md)' if args.nginx else ''}"
        "; wrk, the scorekeepers and PostgreSQL on the same machine"
    )
    print(
        f"page {r['page']}: {r['before']['rows']} rows, {r['size'] // 1024} KiB; first "
        f"requests (a render each) {', '.join(f'{1000 * c:.0f}' for c in r['cold'])} ms, then "
        f"{1000 * statistics.median(r['warm']):.1f} ms (median of {len(r['warm'])})"
    )
    full = load["requests"] - load["not_modified"]
    print(
        f"page load: wrk, {args.connections} connections, Accept-Encoding {args.encoding!r}"
        f"{', revalidating (If-None-Match)' if args.conditional else ''}, {seconds:.1f} s: "
        f"{load['requests']} requests = {full} full pages ({full / seconds:,.0f}/s, "
        f"{load['bytes'] / max(1, load['requests']) / 1024:.0f} KiB a response on average) + "
        f"{load['not_modified']} not modified (304: {load['not_modified'] / seconds:,.0f}/s); "
        "latency p50 "
        f"{load['p50'] / 1000:.1f} ms, p90 {load['p90'] / 1000:.1f} ms, p99 "
        f"{load['p99'] / 1000:.1f} ms, p99.9 {load['p999'] / 1000:.1f} ms, max "
        f"{load['max'] / 1000:.1f} ms; {errors} errors"
    )
    print(
        f"scorekeepers: {r['keepers']}, a tap every {args.think} s (jittered): "
        f"{counts['accepted']} events accepted ({counts['accepted'] / r['wall']:.0f}/s), "
        f"{counts['replayed']} resent with their key and answered the same, "
        f"{counts['conflicts']} conflicts (409), {counts['errors']} errors, {counts['retries']} "
        f"network/5xx retries; append p50 {ms(r['latencies'], 0.5):.1f} ms, p99 "
        f"{ms(r['latencies'], 0.99):.1f} ms; {r['finished']} tables finished"
    )
    for problem in r["problems"][:10]:
        print(f"  scorekeeper problem: {problem}")
    ours = sum(cpu[k] for k in ("workers", "celery", "postgres", "wrk", "scorekeepers"))
    print(
        f"CPU seconds during the load ({os.cpu_count()} cores x {r['wall']:.0f} s): gunicorn "
        f"workers {cpu['workers']:.1f}, Celery worker {cpu['celery']:.1f}, PostgreSQL "
        f"{cpu['postgres']:.1f}, wrk {cpu['wrk']:.1f}, "
        f"scorekeepers {cpu['scorekeepers']:.1f}; other processes on the machine "
        f"{max(0.0, cpu['machine'] - ours):.1f}"
    )
    print(
        f"check: {r['found']} of {r['accepted']} accepted events (the catch-up requests "
        f"included) in their game's log exactly once, in order, nothing else there "
        f"({len(r['lost'])} problems); results on the page right after the last event: "
        f"{counts['fresh']} of {counts['fresh'] + counts['stale']} finished tables; at the end "
        "the page counts "
        f"{r['after']['confirmed']} results (was {r['before']['confirmed']}, "
        f"+{r['finished']} tables finished)"
    )
    for problem in r["lost"][:10]:
        print(f"  lost: {problem}")
    delays = r["delays"]
    if delays:
        print(
            f"a table's result on the page after its last event was sent (read every "
            f"{1000 * RESULT_POLL:.0f} ms), {len(delays)} tables: median "
            f"{1000 * statistics.median(delays):.0f} ms, max {1000 * max(delays):.0f} ms; "
            f"over 1 s: {sum(1 for d in delays if d > 1)}; all: "
            + ", ".join(f"{1000 * d:.0f}" for d in delays)
        )


def main() -> None:
    args = options()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install wrk")
    if args.scorekeepers > SCOREKEEPER_ACCOUNTS:
        sys.exit(f"--scorekeepers: {SCOREKEEPER_ACCOUNTS} at most")
    setup, took = prepare(args)
    report(args, setup, took, run(args, setup))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "build":
        parser = argparse.ArgumentParser()
        parser.add_argument("build")
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--scorekeepers", type=int, default=SCOREKEEPER_ACCOUNTS)
        built = parser.parse_args()
        print(json.dumps(build(built.players, built.rounds, built.scorekeepers)))
    else:
        main()
