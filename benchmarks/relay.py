"""Spectators following a tournament's live tables, the relay's delay behind, while the phones tap.

    .venv/bin/python benchmarks/relay.py [--tables 50] [--spectators 200] [--delay 5]
        [--duration 60] [--interval 1.0] [--poll 0.5] [--think 2.0] [--workers 3]
        [--threads 2] [--clients 4] [--runs 1] [--only with|without]

Setup (through the services, once a run of the script, kept as a template database
``trick_n_chef_relay_seed``; each measured run starts from a fresh copy, ``trick_n_chef_relay``
or $BENCH_DATABASE, on $BENCH_DATABASE_URL's PostgreSQL server): a Trick-n-Chef tournament of
``4 x --tables`` checked-in players that relays its tables ``--delay`` seconds late
(``relay_delay``); round 1 paired and published: ``--tables`` tables of four, each with its
seat links.

Run: gunicorn (``--workers`` x ``--threads``, DEBUG off) with an access log of each request's
server time, as benchmarks/phones.py. Each table's four phones are benchmarks/phones.py's
(``table_thread``: poll every ``--poll`` s with the ETag, the four hands tapped in at once,
then a play every ``--think`` s from the table's simulated game). Then the same again with
``--spectators`` anonymous spectators (an equal share of them follows each table) reading
every ``--interval`` seconds (jittered start; keep-alive connections, each its own):

* the round's relay page (``public:relay``, /t/<id>/round/1/live/: its htmx poll, with
  If-None-Match), 7 in 10 (6 in 10 where the round has a stream);
* its table alone, bigger (the live table view, ``?table=N``), 2 in 10;
* its game's events (/api/games/<id>/events/?since=<the last version it was given>), 1 in 10;
* the round's stream, 1 in 10, where the app has one;
* where the app has no relay page (main before issue 27's page): the game's public page
  (/g/<id>/) and its events, half each.

Prints the machine, the setup, the requests by kind with the server's time (median, p90, p99,
max: the access log), the spectators' own view of their requests (the time to the answer,
client side), how late the spectators saw each event (the first answer that held it, after the
event was recorded: at least the delay), and the phones' taps with and without spectators.
A benchmark: nothing passes or fails. Target: spectators' p99 <= 100 ms server time, the taps'
p99 as without them (phones.py's target: <= 100 ms).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import phones  # noqa: E402
from benchmarks.load_standings import cpu_of, machine_busy, processes  # noqa: E402
from benchmarks.table_tap import machine, percentile  # noqa: E402

SEED_DATABASE = os.environ.get("BENCH_SEED", "trick_n_chef_relay_seed")
DATABASE = os.environ.get("BENCH_DATABASE", "trick_n_chef_relay")
phones.DATABASE = DATABASE  # phones.py's server_env and check_logs read this run's database


def setup(tables: int, delay: int, env: dict[str, str]) -> dict[str, Any]:
    """The seed database: the tournament, its round 1 published, each table's seats, game, seat
    links and simulated record; and the relay's addresses the app has."""
    phones.psql(f'DROP DATABASE IF EXISTS "{SEED_DATABASE}" WITH (FORCE)')
    phones.psql(f'CREATE DATABASE "{SEED_DATABASE}"')
    code = f"""
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth.models import User
from django.urls import NoReverseMatch, reverse
from tournaments import services as t
olga = User.objects.create_user("organizer")
tid = t.tournament_create(user=olga, name="Relay night", date="2026-12-07", rounds=3, seed=7,
                          relay_delay={delay}).tournament_id
t.tournament_register(tournament_id=tid, user=olga, checked_in=True,
                      names=[f"Player {{n:03d}}" for n in range({4 * tables})])
t.tournament_pair(tournament_id=tid, user=olga)
t.tournament_publish(tournament_id=tid, round=1, user=olga)
links = t.tournament_seat_links(tournament_id=tid, round=1, user=olga)
summary = t.tournament_get(tournament_id=tid, user=olga).summary
out = []
for entry in summary["rounds"][0]["tables"]:
    seats = links[entry["table"]]
    out.append({{"game": entry["game"], "number": entry["table"],
                "players": [s.player for s in seats], "tokens": [s.token for s in seats]}})
paths = {{}}
for key, name in (("relay", "public:relay"), ("stream", "public:relay-stream"),
                  ("stream", "tournaments-api:relay-stream")):
    try:
        paths.setdefault(key, reverse(name, args=[tid, 1]))
    except NoReverseMatch:
        pass
if "relay" in paths:  # one table alone, bigger: the live table view
    paths["table"] = paths["relay"] + "?table={{number}}"
print("SETUP " + json.dumps({{"tournament": str(tid), "tables": out, "paths": paths}}))
"""
    seed_env = dict(env, DATABASE_URL=f"{phones.SERVER}/{SEED_DATABASE}")
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=seed_env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(done.stderr)
    line = next(x for x in done.stdout.splitlines() if x.startswith("SETUP "))
    found: dict[str, Any] = json.loads(line[6:])
    for index, table in enumerate(found["tables"]):
        table["version"] = version_of(table["game"], SEED_DATABASE)
        table["record"] = simulated(table["players"], index)
    return found


def version_of(game: str, database: str) -> int:
    rows = phones.psql(f"SELECT max(version) FROM games_event WHERE stream_id = '{game}'", database)
    return int(rows[0][0])


def simulated(players: list[str], index: int) -> list[dict[str, Any]]:
    """The table's game, simulated by the engine (seat 1 leads round 1, as the tournament's
    rule says), without its start."""
    from engine.tricknchef.events import to_json
    from engine.tricknchef.simulate import simulate

    events = simulate(2000 + index, 4, names=tuple(players), first_player=players[0])
    return [to_json(e) for e in events[1:]]


def forced_of(players: list[str], index: int) -> set[int]:
    """Indexes (in simulated()) of the events the server records by itself after a tap."""
    from engine.tricknchef.referee import forced_next
    from engine.tricknchef.replay import replay
    from engine.tricknchef.simulate import simulate

    events = simulate(2000 + index, 4, names=tuple(players), first_player=players[0])
    state = replay(events[:1])
    out = set()
    for at, event in enumerate(events[1:]):
        if forced_next(state) is not None:
            out.add(at)
        state = replay([event], state)
    return out


class Seats:
    """phones.py's ``NAMES`` for a tournament's tables: a player's seat index at their table
    (phones.table_thread asks ``NAMES.index(player)``; every player has one table)."""

    def __init__(self, tables: list[dict[str, Any]]) -> None:
        self.seat = {p: i for table in tables for i, p in enumerate(table["players"])}

    def index(self, player: str) -> int:
        return self.seat[player]


def drive_phones_of(tables: list[dict[str, Any]]) -> None:
    """phones.table_thread plays these tables: their own players and simulated games."""
    records = [t["record"] for t in tables]
    forced = [forced_of(t["players"], i) for i, t in enumerate(tables)]
    phones.record = lambda index: records[index]  # type: ignore[assignment]
    phones.forced = lambda index: forced[index]  # type: ignore[assignment]
    phones.NAMES = Seats(tables)  # type: ignore[assignment]


# ------------------------------------------------------------------------------- spectators


def views(setup: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """What each spectator follows: its table, and the path it reads (see the docstring)."""
    tables, paths = setup["tables"], setup["paths"]
    out = []
    for n in range(count):
        table = tables[n % len(tables)]
        game = table["game"]
        if "relay" in paths:
            kind, path = "relay page", paths["relay"]
            if n % 10 in (1, 6):
                kind, path = "live table", paths["table"].format(number=table["number"])
            elif n % 10 == 3:
                kind, path = "events", f"/api/games/{game}/events/"
            elif "stream" in paths and n % 10 == 8:
                kind, path = "stream", paths["stream"]
        out.append({"kind": kind, "path": path, "game": game})
    return out


def spectator_thread(
    port: int, view: dict[str, Any], args: argparse.Namespace, stop: threading.Event,
    out: list[Any], sightings: dict[tuple[str, int], float],
) -> None:  # fmt: skip
    """One spectator: a request every ``--interval`` s (keep-alive), as its page's poll."""
    rng = random.Random(view["path"] + str(id(view)))
    if stop.wait(rng.random() * args.interval):
        return
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    etag, since, cursor = "", 0, ""
    next_at = time.monotonic()
    while not stop.is_set():
        path = view["path"]
        headers = {"Accept": "text/html", "Accept-Encoding": "gzip"}
        if view["kind"] == "events":
            path += f"?since={since}"
            headers["Accept"] = "application/json"
        elif view["kind"] == "stream":
            path += f"?since={cursor}" if cursor else ""
            headers["Accept"] = "application/jsonl, application/json"
        elif view["kind"] in ("relay page", "live table"):
            headers["HX-Request"] = "true"
        if etag:
            headers["If-None-Match"] = etag
        started = time.perf_counter()
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            out.append((view["kind"], 0, time.perf_counter() - started))
            continue
        took = time.perf_counter() - started
        out.append((view["kind"], response.status, took))
        etag = response.getheader("ETag") or etag
        if view["kind"] == "stream" and response.status == 200 and body.strip():
            last = json.loads(body.strip().splitlines()[-1])
            cursor = str(last.get("cursor") or cursor)
        if view["kind"] == "events" and response.status == 200:
            now = time.time()
            for event in json.loads(body)["events"]:
                sightings.setdefault((view["game"], int(event["version"])), now)
                since = max(since, int(event["version"]))
        next_at += args.interval
        stop.wait(max(0.0, next_at - time.monotonic()))


def client(
    port: int, tables: list[tuple[int, dict[str, Any]]], spectating: list[dict[str, Any]],
    all_tables: list[dict[str, Any]], args: argparse.Namespace, start: Any, queue: Any,
) -> None:  # fmt: skip
    drive_phones_of(all_tables)
    stop = threading.Event()
    seen: list[tuple[str, float, int]] = []
    taps: list[tuple[str, int]] = []
    sent: dict[int, int] = {}
    watched: list[Any] = []
    sightings: dict[tuple[str, int], float] = {}
    start.wait()
    threads = [
        threading.Thread(
            target=phones.table_thread, args=(port, t, i, args, stop, seen, taps, sent)
        )
        for i, t in tables
    ]
    threads += [
        threading.Thread(target=spectator_thread, args=(port, v, args, stop, watched, sightings))
        for v in spectating
    ]
    for thread in threads:
        thread.start()
    time.sleep(args.duration)
    stop.set()
    for thread in threads:
        thread.join()
    queue.put(([d for _, d, _ in seen], taps, sent, watched, sightings))


# ------------------------------------------------------------------------------- a run


SPECTATOR_PATH = re.compile(r"^/(g/|api/games/[0-9a-f-]+/events/|t/)")


def warm_up(port: int, tables: list[dict[str, Any]], watching: list[Any], times: int) -> None:
    """Each kind of request a few times before the clock starts (a worker's first request of
    a kind imports and compiles what it needs: seconds on a busy machine), none that writes."""
    paths = {f"/seat/{tables[0]['tokens'][0]}/state/", f"/g/{tables[0]['game']}/"}
    paths |= {v["path"] for v in watching[:20]}
    for _ in range(2 * times):
        for path in sorted(paths):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", path, headers={"HX-Request": "true"} if "/t/" in path else {})
            conn.getresponse().read()
            conn.close()


def kind_of(method: str, path: str, status: int, kinds: dict[str, str]) -> str:
    """The request's kind: a spectator's (by its path), else phones.py's."""
    if path in kinds:
        return kinds[path]
    bare = path.split("?", 1)[0]
    if bare in kinds:
        return kinds[bare]
    if bare.startswith("/g/"):
        return "game page"
    if bare.startswith("/api/games/") and bare.endswith("/events/") and method == "GET":
        return "events"
    return phones.kind_of(method, path, status)


def run(
    args: argparse.Namespace, setup: dict[str, Any], env: dict[str, str], spectators: int
) -> dict[str, Any]:
    phones.psql(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    phones.psql(f'CREATE DATABASE "{DATABASE}" TEMPLATE "{SEED_DATABASE}"')
    tables = setup["tables"]
    watching = views(setup, spectators)
    kinds = {v["path"]: v["kind"] for v in watching}
    log = Path(tempfile.mkdtemp()) / "access.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application",
         "--workers", str(args.workers), "--threads", str(args.threads),
         "--bind", f"127.0.0.1:{args.port}", "--log-level", "warning",
         "--access-logfile", str(log), "--access-logformat", "%(m)s %(U)s?%(q)s %(s)s %(D)s"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                phones.Phone(args.port, "").send("GET", "/health/")
                break
            except OSError:
                time.sleep(0.1)
        warm_up(args.port, tables, watching, args.workers * args.threads)
        start = multiprocessing.Event()
        queue: Any = multiprocessing.Queue()
        share = [list(enumerate(tables))[i :: args.clients] for i in range(args.clients)]
        watch = [watching[i :: args.clients] for i in range(args.clients)]
        procs = [
            multiprocessing.Process(
                target=client, args=(args.port, part, seen, tables, args, start, queue)
            )
            for part, seen in zip(share, watch, strict=True)
        ]
        for proc in procs:
            proc.start()
        log.write_text("")
        workers = processes(parent=server.pid)
        before = (cpu_of(workers), cpu_of(processes(name="postgres")), machine_busy())
        start.set()
        time.sleep(args.duration * 0.95)
        clients_cpu = cpu_of([p.pid for p in procs if p.pid is not None])
        results = [queue.get() for _ in procs]
        used = (
            cpu_of(workers) - before[0],
            cpu_of(processes(name="postgres")) - before[1],
            machine_busy() - before[2],
        )
        for proc in procs:
            proc.join()
    finally:
        server.terminate()
        server.wait()
    by_kind: dict[str, list[float]] = {}
    statuses: dict[str, dict[int, int]] = {}
    for line in log.read_text().splitlines():
        match = phones.ACCESS.match(line.strip())
        if not match:
            continue
        status = int(match["status"])
        kind = kind_of(match["method"], match["path"].rstrip("?"), status, kinds)
        by_kind.setdefault(kind, []).append(int(match["us"]) / 1000)
        counts = statuses.setdefault(kind, {})
        counts[status] = counts.get(status, 0) + 1
    sightings: dict[tuple[str, int], float] = {}
    for r in results:
        for key, at in r[4].items():
            sightings[key] = min(at, sightings.get(key, at))
    return {
        "spectators": spectators,
        "by_kind": by_kind,
        "statuses": statuses,
        "cpu": (*used, clients_cpu),
        "delays": sorted(d for r in results for d in r[0]),
        "sent": {index: count for r in results for index, count in r[2].items()},
        "taps": [t for r in results for t in r[1]],
        "watched": [w for r in results for w in r[3]],
        "late": lateness(sightings, {t["game"]: t["version"] for t in tables}),
    }


def lateness(sightings: dict[tuple[str, int], float], started: dict[str, int]) -> list[float]:
    """For each event recorded during the run that a spectator's events read gave: the time
    from its recording to then."""
    sightings = {(g, v): at for (g, v), at in sightings.items() if v > started[g]}
    if not sightings:
        return []
    games = sorted({g for g, _ in sightings})
    listed = ", ".join(f"'{g}'" for g in games)
    rows = phones.psql(
        "SELECT stream_id::text, version, extract(epoch FROM recorded_at) FROM games_event "
        f"WHERE stream_id IN ({listed})",
        DATABASE,
    )
    recorded = {(g, int(v)): float(at) for g, v, at in rows}
    return sorted(at - recorded[k] for k, at in sightings.items() if k in recorded)


def line(kind: str, values: list[float], duration: float, statuses: dict[int, int]) -> str:
    return (
        f"{kind:<12} {len(values):>7} {len(values) / duration:>7.1f} "
        f"{statistics.median(values):>8.1f} {percentile(values, 0.9):>8.1f} "
        f"{percentile(values, 0.99):>8.1f} {max(values):>8.1f}  {statuses}"
    )


def report(args: argparse.Namespace, setup: dict[str, Any], r: dict[str, Any]) -> None:
    print(
        f"\n== {r['spectators']} spectators, {len(setup['tables'])} tables x 4 phones, "
        f"{args.duration:.0f} s =="
    )
    cores = (os.cpu_count() or 1) * args.duration
    gunicorn, postgres, whole, clients = r["cpu"]
    print(
        f"CPU seconds during the run (of {cores:.0f}): gunicorn {gunicorn:.0f}, PostgreSQL "
        f"{postgres:.0f}, the simulated phones and spectators {clients:.0f}, whole machine "
        f"{whole:.0f}"
    )
    requests = sum(len(v) for v in r["by_kind"].values())
    if requests:
        print(
            f"gunicorn's CPU per request: {gunicorn / requests * 1000:.1f} ms over {requests} "
            "requests (the machine's other load does not inflate it as it does the times below)"
        )
    print(f"{'requests':<12} {'count':>7} {'per s':>7} {'median':>8} {'p90':>8} {'p99':>8} "
          f"{'max':>8}  statuses (server time in ms)")  # fmt: skip
    order = ["relay page", "live table", "stream", "game page", "events"]
    order += ["poll 304", "poll 200", "hand tap", "play tap", "page"]
    for kind in order:
        values = r["by_kind"].get(kind, [])
        if values:
            print(line(kind, values, args.duration, r["statuses"][kind]))
    watched = r["watched"]
    if watched:
        kinds = sorted({k for k, _, _ in watched})
        print("the spectators' side (time to the answer, client side, ms):")
        for kind in kinds:
            took = [t * 1000 for k, s, t in watched if k == kind]
            statuses: dict[int, int] = {}
            for k, s, _ in watched:
                if k == kind:
                    statuses[s] = statuses.get(s, 0) + 1
            print("  " + line(kind, took, args.duration, statuses))
        spectated = [v for kind in kinds for v in r["by_kind"].get(kind, [])]
        if spectated:
            print(
                f"spectators, all requests (server time): p50 {statistics.median(spectated):.1f} "
                f"ms, p99 {percentile(spectated, 0.99):.1f} ms over {len(spectated)}"
            )
    late = r["late"]
    if late:
        print(
            f"an event first seen by a spectator after its recording: min {late[0]:.2f} s, "
            f"median {statistics.median(late):.2f} s, max {late[-1]:.2f} s ({len(late)} events; "
            f"the delay is {args.delay} s)"
        )
    delays = r["delays"]
    if delays:
        print(
            f"a tap seen by the table's other phones after: median "
            f"{statistics.median(delays) * 1000:.0f} ms, p99 {percentile(delays, 0.99) * 1000:.0f}"
            f" ms ({len(delays)} sightings)"
        )
    checked, problems = phones.check_logs(setup["tables"], r["sent"])
    print(f"logs: {checked} events read back, {len(problems)} tables differ from what was sent")
    for problem in problems[:5]:
        print("  " + problem)
    answered = [t for t in r["taps"] if t[0] not in ("round", "finished")]
    print(
        f"taps answered (kind, status): { {t: answered.count(t) for t in sorted(set(answered))} }"
    )


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--delay", type=int, default=5, help="the relay's delay, seconds")
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=1.0, help="a spectator's poll, s")
    parser.add_argument("--poll", type=float, default=0.5, help="a phone's poll, s")
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--tap-gap", type=float, default=1.0)
    parser.add_argument("--stagger", type=float, default=0.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--runs", type=int, default=1, help="each measured run, repeated")
    parser.add_argument("--only", choices=("with", "without"), default=None)
    return parser.parse_args()


def main() -> None:
    args = options()
    env = phones.server_env()  # one secret for the setup and the runs: the tokens are signed
    took = time.perf_counter()
    found = setup(args.tables, args.delay, env)
    drive_phones_of(found["tables"])  # for check_logs, here
    print(f"machine: {machine()}")
    load = os.getloadavg()
    print(f"load average before the runs: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(
        f"setup: a tournament of {4 * args.tables} players, relay delay {args.delay} s, round "
        f"1 published: {len(found['tables'])} tables, in {time.perf_counter() - took:.1f} s; "
        f"relay addresses: {found['paths'] or 'none yet (the game page and its events)'}"
    )
    counts = [] if args.only == "with" else [0]
    counts += [] if args.only == "without" else [args.spectators]
    results: list[dict[str, Any]] = []
    for _ in range(args.runs):
        for spectators in counts:
            result = run(args, found, env, spectators)
            report(args, found, result)
            results.append(result)
    print("\n== summary (server time, ms) ==")
    for r in results:
        taps = [v for k in ("play tap", "hand tap") for v in r["by_kind"].get(k, [])]
        kinds = {k for k, _, _ in r["watched"]}
        spectated = [v for k in kinds for v in r["by_kind"].get(k, [])]
        shown = (
            f"spectators p50 {statistics.median(spectated):.1f}, "
            f"p99 {percentile(spectated, 0.99):.1f}; "
            if spectated
            else ""
        )
        print(
            f"{r['spectators']:>4} spectators: {shown}taps p50 "
            f"{statistics.median(taps) if taps else 0:.1f}, p99 "
            f"{percentile(taps, 0.99) if taps else 0:.1f} ({len(taps)} taps)"
        )
    load = os.getloadavg()
    print(f"load average after the runs: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
