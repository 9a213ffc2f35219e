"""The scaled compose stack (docker-compose.yml + docker-compose.scale.yml: two web containers,
two Celery workers, the caching nginx proxy) under the public standings' and the phones' load,
through the proxy and directly to the web containers.

    .venv/bin/python benchmarks/compose_scale.py [--duration 15] [--connections 32]
        [--repeats 3] [--port 18510] [--players 1000] [--rounds 1] [--seats 200]
        [--loads "standings full,standings 304,phones"] [--keep] [--stack DIR] [--rebuild]

Setup: a tournament of ``--players`` checked-in players with ``--rounds`` rounds played
(results entered, rounds closed) and the next one paired and published, built through the
services once on the host's PostgreSQL (``bench_scale_seed_<players>p_<rounds>r``, or
$BENCH_SEED; $BENCH_DATABASE_URL names the server, default postgres://postgres@127.0.0.1:5432).
A deployment directory of its own (a temporary one; the compose files and docker/proxy/ copied
from the repository, env files with generated secrets, project ``tnc-scale-bench``), as an
administrator makes one, with one more override: the builds on the host's network, and the web
replicas' port 8000 published on 127.0.0.1:``--port``+1 and +2, for the direct runs (the proxy
publishes ``--port``). ``docker compose up --wait postgres``, the seed's dump restored into it
(pg_restore, as docs/operations.md restores a dump), then the whole stack up (migrate grants
the app role), and the live round's seat links issued inside the stack (they are signed with
its secret key).

Runs (wrk, closed loop, ``--connections`` connections, ``--duration`` seconds each, every
request with ``X-Forwarded-Proto: https`` as the site's HTTPS proxy sends it and
``Accept-Encoding: gzip``), interleaved ``--repeats`` times (proxy, direct, proxy, direct...):

* standings, full pages: ``/t/<id>/standings/`` without validators;
* standings, 304s: each connection revalidates its copy (If-None-Match with its last ETag);
* phones: each request one seat's ``/seat/<token>/state/`` poll (``--seats`` of the live
  round's seats in turn, 50 tables' worth by default, each with the ETag it was last given:
  304 while nothing changed; each seat's first poll is made before the runs, so they start as
  phones that have their page), as the seat pages' script asks. Never cached by the proxy (a
  seat's page is personal): this shows what the proxy costs on the way through. Nobody taps:
  benchmarks/phones.py measures the taps, against a gunicorn of its own.

"proxy" is wrk on the proxy's port; "direct" is two wrk at once, half the connections each, one
per web container's port. For each: requests/s (the two direct ones summed), latency p50/p99
(direct: the worse of the two), non-2xx/3xx and socket errors, and behind the proxy the requests
Django saw (counted in gunicorn's access logs) per second. Prints every run and the medians. A
benchmark: nothing passes or fails. ``--keep`` leaves the stack up (its directory is printed;
``docker compose down -v`` there removes it; the images tnc-scale-bench-app and -proxy stay
for the next run's build cache either way).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "benchmarks"))

import load_standings  # noqa: E402

from tests.deploy.compose import fill_env_file  # noqa: E402

SERVER = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432")
PROJECT = "tnc-scale-bench"
COMPOSE_FILES = ("docker-compose.yml", "docker-compose.scale.yml", "bench-override.yml")

WRK_SCRIPT = """
local threads = {}
setup = function(thread) table.insert(threads, thread) end
paths = {%(paths)s}
known = {%(etags)s}
init = function(args)
  not_modified = 0; unexpected = 0; at = math.random(#paths); etags = {}
  for i, tag in ipairs(known) do if tag ~= "" then etags[i] = tag end end
end
wrk.headers["Accept-Encoding"] = "gzip"
wrk.headers["X-Forwarded-Proto"] = "https"
%(headers)s
request = function()
  at = at %% #paths + 1
  local h = {}
  for name, value in pairs(wrk.headers) do h[name] = value end
  if %(conditional)s and etags[at] then h["If-None-Match"] = etags[at] end
  return wrk.format(nil, paths[at], h)
end
response = function(status, headers, body)
  if status == 304 then not_modified = not_modified + 1 end
  if status ~= 200 and status ~= 304 then unexpected = unexpected + 1 end
  if #paths == 1 and headers["ETag"] then etags[1] = headers["ETag"] end
end
done = function(summary, latency, requests)
  local e = summary.errors
  local nm, un = 0, 0
  for _, t in ipairs(threads) do
    nm = nm + t:get("not_modified")
    un = un + t:get("unexpected")
  end
  io.write(string.format(
    'WRK {"requests": %%d, "duration_us": %%d, "bytes": %%d, "errors": %%d, "status": %%d, '
    .. '"p50": %%d, "p99": %%d, "max": %%d, "not_modified": %%d, "unexpected": %%d}\\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.max, nm, un))
end
"""
"""One wrk thread's requests go round ``paths`` (from a random start); with conditional each
path's ETag is sent back: the one it was first given (``known``: the phones' seats, which
nothing changes during a run; response() cannot tell which of the thread's connections, so
which path, an answer is for), or for a single path (the standings) the last one it was
given. wrk.format's headers replace wrk.headers (Host aside): hence the copy. Any status but
200 and 304 counts as an error (a 301 is the HTTPS redirect: the header missing)."""


# ----------------------------------------------------------------------------- the seed


def psql(sql: str, database: str = "postgres") -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(f"{SERVER}/{database}", autocommit=True) as conn:
        cursor = conn.execute(sql)
        return cursor.fetchall() if cursor.description else []


def seed_env(database: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DEBUG="False",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"{SERVER}/{database}",
        LOG_LEVEL="WARNING",
    )
    for name in ("CELERY_BROKER_URL", "CACHE_URL"):
        env.pop(name, None)
    return env


def build(players: int, rounds: int) -> dict[str, Any]:
    """In a child process with the seed's DATABASE_URL: the tournament, through the services
    (results only, inline: no broker)."""
    import random

    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from tournaments import services as t

    rng = random.Random(2026)
    organizer = get_user_model().objects.create_user(
        "organizer", password=secrets.token_urlsafe(12)
    )
    tid = t.tournament_create(
        user=organizer,
        name="Scale Open",
        date="2026-12-05",
        rounds=rounds + 3,
        seed=2026,
        confirmation="auto",
    ).tournament_id
    change = load_standings.play_rounds(tid, organizer, players, rounds, rng)
    games_live = [tb["game"] for tb in change.state["rounds"][rounds]["tables"]]
    return {"tournament": str(tid), "players": players, "rounds": rounds, "live": games_live}


def seed(args: argparse.Namespace) -> tuple[Path, dict[str, Any], str]:
    """The seed database (built if missing), dumped (pg_dump's custom format) to a file."""
    name = os.environ.get("BENCH_SEED") or f"bench_scale_seed_{args.players}p_{args.rounds}r"
    took = "reused the seed database"
    if args.rebuild or not psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        start = time.perf_counter()
        psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        psql(f'CREATE DATABASE "{name}"')
        env = seed_env(name)
        python = sys.executable
        subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        done = subprocess.run(
            [python, __file__, "build", "--players", str(args.players),
             "--rounds", str(args.rounds)],
            cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        psql("CREATE TABLE compose_scale_setup (data text)", name)
        import psycopg

        with psycopg.connect(f"{SERVER}/{name}", autocommit=True) as conn:
            line = done.stdout.strip().splitlines()[-1]
            conn.execute("INSERT INTO compose_scale_setup VALUES (%s)", (line,))
        took = f"built the seed database in {time.perf_counter() - start:.0f} s"
    setup = json.loads(psql("SELECT data FROM compose_scale_setup", name)[0][0])
    dump = Path(tempfile.mkdtemp(prefix="tnc-scale-dump-"), "seed.dump")
    if args.stack:
        return dump, setup, took
    subprocess.run(
        ["pg_dump", "--format=custom", "--no-owner", "--no-privileges",
         f"--file={dump}", f"{SERVER}/{name}"],
        check=True,
    )  # fmt: skip
    return dump, setup, took


# ----------------------------------------------------------------------------- the stack


class Stack:
    """The scaled stack in a deployment directory of its own."""

    def __init__(self, port: int, directory: Path | None = None) -> None:
        self.port = port
        self.direct = (port + 1, port + 2)
        if directory is not None:  # one left up by --keep
            self.dir = directory
            return
        self.dir = Path(tempfile.mkdtemp(prefix="tnc-scale-stack-"))
        (self.dir / "docker").mkdir()
        for name in COMPOSE_FILES[:2]:
            shutil.copy(ROOT / name, self.dir / name)
        shutil.copytree(ROOT / "docker" / "proxy", self.dir / "docker" / "proxy")
        password, app_password = secrets.token_hex(24), secrets.token_hex(24)
        owner_url = f"postgres://trick_n_chef:{password}@postgres:5432/trick_n_chef"
        site = f"https://127.0.0.1:{port}"
        env = fill_env_file(
            (ROOT / ".env.example").read_text(),
            {
                "SECRET_KEY": secrets.token_urlsafe(50),
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "PUBLIC_URL": site,
                "CSRF_TRUSTED_ORIGINS": site,
                "DATABASE_URL": owner_url.replace(
                    f"trick_n_chef:{password}", f"trick_n_chef_app:{app_password}"
                ),
                "WEB_PORT": f"127.0.0.1:{port}",
            },
        )
        owner = fill_env_file(
            (ROOT / ".env.owner.example").read_text(),
            {"POSTGRES_PASSWORD": password, "DATABASE_OWNER_URL": owner_url},
        )
        for name, text in ((".env", env), (".env.owner", owner)):
            (self.dir / name).write_text(text)
            (self.dir / name).chmod(0o600)
        host = {"network": "host"}
        override = {
            "name": PROJECT,
            "services": {
                "migrate": {"image": f"{PROJECT}-app:latest"},
                "web": {
                    "image": f"{PROJECT}-app:latest",
                    "build": {"context": str(ROOT), **host},
                    "ports": [f"127.0.0.1:{self.direct[0]}-{self.direct[1]}:8000"],
                },
                "worker": {"image": f"{PROJECT}-app:latest"},
                "beat": {"image": f"{PROJECT}-app:latest"},
                "proxy": {
                    "image": f"{PROJECT}-proxy:latest",
                    "build": {"context": "docker/proxy", **host},
                },
            },
        }
        (self.dir / COMPOSE_FILES[2]).write_text(json.dumps(override, indent=1))

    def compose(self, *args: str, stdin: Path | None = None, timeout: float = 900) -> str:
        command = ["docker", "compose"]
        for name in COMPOSE_FILES:
            command += ["-f", name]
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPOSE_")}
        with open(stdin or os.devnull, "rb") as source:
            done = subprocess.run(
                command + list(args), cwd=self.dir, env=env, stdin=source,
                capture_output=True, timeout=timeout,
            )  # fmt: skip
        out = done.stdout.decode(errors="replace")
        if done.returncode != 0:
            raise SystemExit(
                f"docker compose {' '.join(args)} failed:\n{out}{done.stderr.decode()}"
            )
        return out

    def up(self, dump: Path) -> float:
        start = time.perf_counter()
        self.compose("build")
        self.compose("up", "--detach", "--wait", "postgres")
        self.compose(
            "exec", "-T", "postgres", "sh", "-c",
            'pg_restore -U "$POSTGRES_USER" -d "$POSTGRES_DB" --no-owner --no-privileges',
            stdin=dump,
        )  # fmt: skip
        self.compose("up", "--detach", "--wait")
        return time.perf_counter() - start

    def seat_tokens(self, games: list[str]) -> list[str]:
        code = (
            "import json, uuid; from games import services; print('TOKENS ' + json.dumps("
            f"[link.token for g in {games!r} for link in "
            "services.seat_links_issue(game_id=uuid.UUID(g))]))"
        )
        out = self.compose("exec", "-T", "web", "python", "manage.py", "shell", "-c", code)
        line = next(x for x in out.splitlines() if x.startswith("TOKENS "))
        tokens: list[str] = json.loads(line[7:])
        return tokens

    def django_requests(self, since: str, until: str, needle: str) -> int:
        """Requests whose access-log line holds ``needle``, logged by every web replica
        between the two times."""
        out = self.compose("logs", "--no-color", "--since", since, "--until", until, "web")
        return sum(needle in line for line in out.splitlines())

    def down(self) -> None:
        self.compose("down", "--volumes", "--remove-orphans", "--timeout", "10")
        shutil.rmtree(self.dir, ignore_errors=True)


# ----------------------------------------------------------------------------- the load


def wrk(
    port: int, paths: list[str], duration: int, connections: int, conditional: bool,
    headers: dict[str, str], etags: list[str] | None = None,
) -> dict[str, Any]:  # fmt: skip
    lua = WRK_SCRIPT % {
        "paths": ", ".join(json.dumps(p) for p in paths),
        "etags": ", ".join(json.dumps(t) for t in etags or []),
        "conditional": "true" if conditional else "false",
        "headers": "\n".join(f"wrk.headers[{json.dumps(k)}] = {json.dumps(v)}"
                             for k, v in headers.items()),
    }  # fmt: skip
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(lua)
    try:
        done = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--timeout", "5s",
             "-s", script.name, f"http://127.0.0.1:{port}{paths[0]}"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
    finally:
        os.unlink(script.name)
    line = next(x for x in done.stdout.splitlines() if x.startswith("WRK "))
    result: dict[str, Any] = json.loads(line[4:])
    return result


def first_polls(port: int, paths: list[str]) -> list[str]:
    """Each seat's first poll (its panel rendered, its ETag): the phones' load then starts as
    phones that have their page, revalidating."""
    import http.client

    def poll(path: str) -> str:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"X-Forwarded-Proto": "https", "Accept": "text/html", "X-Seat-Fetch": "1"}
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.read()
        conn.close()
        return response.getheader("ETag") or ""

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(poll, paths))


def machine_busy() -> float:
    ticks = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def one_run(
    stack: Stack,
    way: str,
    load: str,
    paths: list[str],
    args: argparse.Namespace,
    etags: list[str] | None = None,
) -> dict[str, Any]:
    conditional = load != "standings full"
    headers = {"Accept": "text/html", "X-Seat-Fetch": "1"} if load == "phones" else {}
    since = datetime.now(UTC).isoformat(timespec="seconds")
    busy, wall = machine_busy(), time.perf_counter()
    if way == "proxy":
        runs = [
            wrk(stack.port, paths, args.duration, args.connections, conditional, headers, etags)
        ]
    else:
        half = max(1, args.connections // 2)
        with ThreadPoolExecutor(2) as pool:
            runs = list(
                pool.map(
                    lambda port: wrk(port, paths, args.duration, half, conditional, headers, etags),
                    stack.direct,
                )
            )
    cpu = (machine_busy() - busy) / (time.perf_counter() - wall) / (os.cpu_count() or 1)
    time.sleep(1.5)  # the access logs' last lines
    until = datetime.now(UTC).isoformat(timespec="seconds")
    seconds = max(r["duration_us"] for r in runs) / 1e6
    requests = sum(r["requests"] for r in runs)
    needle = "/state/" if load == "phones" else "/standings/"
    return {
        "way": way,
        "load": load,
        "rps": requests / seconds,
        "p50": max(r["p50"] for r in runs) / 1000,
        "p99": max(r["p99"] for r in runs) / 1000,
        "share_304": sum(r["not_modified"] for r in runs) / max(requests, 1),
        "errors": sum(r["errors"] + r["unexpected"] for r in runs),
        "django_rps": stack.django_requests(since, until, needle) / seconds,
        "cpu": cpu,
    }


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=15, help="seconds of each wrk run")
    parser.add_argument("--connections", type=int, default=32, help="wrk's open connections")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each kind, interleaved")
    parser.add_argument("--port", type=int, default=18510, help="the proxy's; web: +1, +2")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1, help="rounds played before the run")
    parser.add_argument(
        "--seats", type=int, default=200, help="seats polled by the phones' load (50 tables)"
    )
    parser.add_argument("--loads", default="standings full,standings 304,phones")
    parser.add_argument("--rebuild", action="store_true", help="build the seed database again")
    parser.add_argument("--keep", action="store_true", help="leave the stack up")
    parser.add_argument(
        "--stack", type=Path, default=None, help="a stack left up by --keep (its directory)"
    )
    return parser.parse_args()


def main() -> None:
    args = options()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install wrk")
    dump, setup, took = seed(args)
    stack = Stack(args.port, args.stack)
    try:
        started = 0.0 if args.stack else stack.up(dump)
        standings = [f"/t/{setup['tournament']}/standings/"]
        tokens = stack.seat_tokens(setup["live"])[: args.seats]
        seats = [f"/seat/{token}/state/" for token in tokens]
        seat_etags = first_polls(args.port, seats)
        print(
            f"{setup['players']} players, {setup['rounds']} rounds played, round "
            f"{setup['rounds'] + 1} live ({len(seats)} seat links); {took}; stack built, "
            f"restored and healthy in {started:.0f} s ({stack.dir})"
        )
        print(
            f"machine: {os.cpu_count()} cores, shared with other work; wrk -t2 "
            f"-c{args.connections} -d{args.duration}s; direct: 2 x -c{args.connections // 2}"
        )
        for way in ("proxy", "direct"):  # warm: every page rendered, every cache filled
            wrk(stack.port if way == "proxy" else stack.direct[0], standings, 2, 4, False, {})
        results: list[dict[str, Any]] = []
        for repeat in range(args.repeats):
            for load in args.loads.split(","):
                paths, etags = (seats, seat_etags) if load == "phones" else (standings, None)
                for way in ("proxy", "direct") if repeat % 2 == 0 else ("direct", "proxy"):
                    r = one_run(stack, way, load, paths, args, etags)
                    results.append(r)
                    print(
                        f"  {load:15} {way:6} {r['rps']:8.0f} req/s  p50 {r['p50']:6.1f} ms  "
                        f"p99 {r['p99']:6.1f} ms  304s {100 * r['share_304']:3.0f}%  "
                        f"Django {r['django_rps']:6.0f} req/s  errors {r['errors']}  "
                        f"machine busy {100 * r['cpu']:.0f}%",
                        flush=True,
                    )
        print(f"medians of {args.repeats}:")
        for load in args.loads.split(","):
            for way in ("proxy", "direct"):
                rs = [r for r in results if r["load"] == load and r["way"] == way]

                def med(key: str, rs: list[dict[str, Any]] = rs) -> float:
                    return float(statistics.median(r[key] for r in rs))

                print(
                    f"  {load:15} {way:6} {med('rps'):8.0f} req/s  p50 {med('p50'):6.1f} ms  "
                    f"p99 {med('p99'):6.1f} ms  Django {med('django_rps'):6.0f} req/s  "
                    f"errors {sum(r['errors'] for r in rs)}"
                )
    finally:
        shutil.rmtree(dump.parent, ignore_errors=True)
        if args.keep or args.stack:
            files = " ".join(f"-f {name}" for name in COMPOSE_FILES)
            print(
                f"left up (--stack {stack.dir}): cd {stack.dir} && docker compose {files} down -v"
            )
        else:
            stack.down()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "build":
        parser = argparse.ArgumentParser()
        parser.add_argument("build")
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--rounds", type=int, default=1)
        built = parser.parse_args()
        print(json.dumps(build(built.players, built.rounds)))
    else:
        main()
