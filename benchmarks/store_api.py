"""Appends per second through the HTTP API on PostgreSQL, append latency, state-read latency.

    .venv/bin/python benchmarks/store_api.py [--appends 1500] [--clients 2] [--workers 2]
        [--reads 2000] [--port 8765]

Starts gunicorn (sync workers) on 127.0.0.1 against a fresh PostgreSQL database
(``trick_n_chef_bench``, or $BENCH_DATABASE, on the server of $BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432), then ``--clients`` client processes each record whole
simulated games one event per request (expected_version + Idempotency-Key, as a scorekeeper's
page does), then ``--reads`` state reads. Prints medians and p99; it is a benchmark, nothing
passes or fails. A smoke run: ``--appends 20 --clients 1 --workers 1 --reads 20``.
Targets (issue 3, 2-core machine): >= 300 appends/s, p50 <= 10 ms; state read p50 <= 5 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import platform
import secrets
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from queue import Empty
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.tricknchef.events import to_json  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402

SERVER = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432")
DATABASE = os.environ.get("BENCH_DATABASE", "trick_n_chef_bench")
"""Dropped and created afresh by every run: $BENCH_DATABASE keeps runs from several checkouts
sharing a PostgreSQL server apart."""


def machine() -> str:
    cpu = platform.machine()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def server_env(port: int) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DEBUG="False",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"{SERVER}/{DATABASE}",
    )
    env.pop("CELERY_BROKER_URL", None)
    return env


def prepare(env: dict[str, str]) -> str:
    """A fresh database with the schema, and a scorekeeper's API token."""
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DATABASE}")
    # One process migrates and makes the token: each Django start is seconds on a busy machine
    # (``manage.py migrate`` on its own runs the system checks too).
    code = (
        "from django.contrib.auth.models import User\n"
        "from django.core.management import call_command\n"
        "from rest_framework.authtoken.models import Token\n"
        "call_command('migrate', verbosity=0)\n"
        "u = User.objects.create_user('bench', password='bench-password')\n"
        "print(Token.objects.create(user=u).key)\n"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    return done.stdout.strip().splitlines()[-1]


def request(
    port: int, method: str, path: str, token: str, body: Any = None, key: str | None = None
) -> tuple[int, Any, float]:
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    payload = None
    if body is not None:
        payload = json.dumps(body)
        headers["Content-Type"] = "application/json"
    if key:
        headers["Idempotency-Key"] = key
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    start = time.perf_counter()
    conn.request(method, path, body=payload, headers=headers)
    response = conn.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - start
    conn.close()
    return response.status, json.loads(data) if data else None, elapsed


def client(port: int, token: str, appends: int, seed: int, out: Any) -> None:
    """Record simulated games one event per request until ``appends`` events are in."""
    latencies: list[float] = []
    game_ids: list[str] = []
    done = 0
    while done < appends:
        events = [to_json(e) for e in simulate(seed, 4)]
        seed += 1000
        first = events[0]
        status, body, _ = request(
            port,
            "POST",
            "/api/games/",
            token,
            {"players": first["players"], "suits": first["suits"]},
        )
        assert status == 201, body
        game, version = body["id"], body["version"]
        game_ids.append(game)
        for event in events[1:]:
            if done == appends:
                break
            status, body, elapsed = request(
                port,
                "POST",
                f"/api/games/{game}/events/",
                token,
                {"expected_version": version, "events": [event]},
                key=uuid.uuid4().hex,
            )
            assert status == 201, body
            version = body["version"]
            latencies.append(elapsed)
            done += 1
    out.put((latencies, game_ids))


def reads(port: int, token: str, game_ids: list[str], count: int) -> list[float]:
    latencies = []
    for i in range(count):
        status, _, elapsed = request(
            port, "GET", f"/api/games/{game_ids[i % len(game_ids)]}/", token
        )
        assert status == 200
        latencies.append(elapsed)
    return latencies


def wait_until_up(server: subprocess.Popen[bytes], port: int, token: str) -> None:
    """Until gunicorn answers (its workers start Django: seconds on a busy machine); exits if it
    does not within a minute or exits itself, rather than letting the clients fail unseen."""
    deadline = time.monotonic() + 60
    while True:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with status {server.returncode}")
        try:
            request(port, "GET", "/api/games/", token)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit(f"gunicorn did not answer on port {port} within 60 s") from None
            time.sleep(0.1)


def collect(queue: Any, procs: list[multiprocessing.Process]) -> list[Any]:
    """Every client's figures; exits when a client fails (a refused append, a lost server)
    instead of waiting forever for what it will never send."""
    results: list[Any] = []
    while len(results) < len(procs):
        try:
            results.append(queue.get(timeout=1))
        except Empty:
            failed = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
            if failed:
                raise SystemExit(f"a client process failed (exit status {failed[0]})") from None
    return results


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=1500, help="appends per client")
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reads", type=int, default=2000, help="state reads after the appends")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()

    env = server_env(args.port)
    token = prepare(env)
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "config.wsgi:application",
            "--workers", str(args.workers), "--bind", f"127.0.0.1:{args.port}",
            "--log-level", "warning",
        ],
        cwd=ROOT,
        env=env,
    )  # fmt: skip
    try:
        wait_until_up(server, args.port, token)
        queue: Any = multiprocessing.Queue()
        procs = [
            multiprocessing.Process(
                target=client, args=(args.port, token, args.appends, seed, queue)
            )
            for seed in range(args.clients)
        ]
        start = time.perf_counter()
        for proc in procs:
            proc.start()
        results = collect(queue, procs)
        wall = time.perf_counter() - start
        for proc in procs:
            proc.join()
        latencies = [x for lat, _ in results for x in lat]
        game_ids = [g for _, ids in results for g in ids]
        read_latencies = reads(args.port, token, game_ids, args.reads)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    print(f"machine: {machine()}")
    print(
        f"server: gunicorn, {args.workers} sync workers, PostgreSQL; "
        f"{args.clients} client processes on the same machine"
    )
    total = len(latencies)
    print(
        f"appends: {total} in {wall:.1f} s = {total / wall:,.0f} appends/s "
        f"(includes creating {len(game_ids)} games)"
    )
    print(
        f"append latency: p50 {pct(latencies, 0.5):.1f} ms, p99 {pct(latencies, 0.99):.1f} ms, "
        f"mean {1000 * statistics.fmean(latencies):.1f} ms"
    )
    print(
        f"state read (GET /api/games/<id>/): p50 {pct(read_latencies, 0.5):.1f} ms, "
        f"p99 {pct(read_latencies, 0.99):.1f} ms over {len(read_latencies)} requests"
    )


if __name__ == "__main__":
    main()
