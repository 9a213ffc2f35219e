"""Phones at the tables: 50 tables x 4 phones polling their seat pages while the players tap.

    .venv/bin/python benchmarks/phones.py [--tables 50] [--duration 60] [--poll 0.5]
        [--think 2.0] [--workers 3] [--threads 2] [--clients 4] [--game KEY]
        [--register MODULE:ATTR]

Setup (through the services, in a fresh PostgreSQL database ``trick_n_chef_phones`` or
$BENCH_DATABASE on $BENCH_DATABASE_URL's server): ``--tables`` 4-player games, each with its
four seat links; each table plays a game simulated by the engine (seed per table).

Run: gunicorn (``--workers`` workers x ``--threads`` threads, DEBUG off) on 127.0.0.1, with an
access log that times every request inside the worker (gunicorn's ``%(D)s``: from the request
read to the response written: the server's time). ``--clients`` processes share the tables;
each table is one thread driving its four phones as the page's script does:

* every phone asks for its seat's live panel every ``--poll`` seconds with the ETag it was
  last given (If-None-Match): 304 while nothing changed, the new panel when something did;
* at each deal the four phones send their hands (each tap saves the whole hand: the ten taps
  of a hand are ten requests, sent ``--tap-gap`` apart); every table deals at once (the worst
  case: a round just published), or, with ``--stagger S``, the tables start over S seconds;
* then, every ``--think`` seconds (jittered), the phone whose turn it is sends the next event
  of the table's record (a Chef pick, a card with its coins, a Chef taken) with its
  idempotency key and the version it last saw, once its poll shows it is its turn (the events
  the rules force are recorded by the server after the tap before them: no phone sends them).

At the end every table's log is read back: the events recorded are exactly the record's prefix
the phones sent, once each. Prints the machine, the requests by kind (poll 304, poll 200,
hand tap, play tap) with the server's time (median, p90, p99, max) and what the phones saw
(the delay from an accepted tap to the first poll of another phone of the table that shows it).
A benchmark: nothing passes or fails. Target: p99 <= 100 ms server time per tap and per poll.

Any game with phones, ``--game KEY`` (default ``trick-n-chef``: the mode above). For any other
game type with a seat-phone panel the tables are of its largest size, and each table's phones
are the game-neutral bot of tests/phones/bot.py: they read their live panels through the
seat-phone DOM contract, poll the same way, and every ``--think`` seconds (jittered) a random
phone whose panel offers a move and shows the table's latest version taps a random one of them
(the game is not simulated ahead: the moves are the ones the phones offer). A table whose game
is finished goes on polling. At the end every table's log holds one append per accepted tap;
printed besides the server's times: the taps answered, the games finished and the taps per
player per round (the panel's ``data-round``; 0: a game without rounds). Where the game's phones
enter something that is no choice among moves (tests/phones/scorekeepers.py: Food Truck's round
starts), the table's scorekeeper enters it when no phone offers a move, through the API with a
token (its requests are counted apart, "scorekeeper"). ``--register
MODULE:ATTR`` registers one more game type in the server and the setup, as a club adds a line
to games/gametypes/__init__.py (the tests' toy: ``tests.highcard.game.gametype:HIGH_CARD``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load_standings import cpu_of, machine_busy, processes  # noqa: E402
from benchmarks.table_tap import machine, percentile  # noqa: E402
from tests.phones.bot import HttpTransport, SeatBot  # noqa: E402
from tests.phones.scorekeepers import SCOREKEEPER  # noqa: E402

TNC = "trick-n-chef"

SERVER = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432")
DATABASE = os.environ.get("BENCH_DATABASE", "trick_n_chef_phones")
NAMES = ("Ana", "Ben", "Cleo", "Dev")


def psql(sql: str, database: str = "postgres") -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(f"{SERVER}/{database}", autocommit=True) as conn:
        cursor = conn.execute(sql)
        return cursor.fetchall() if cursor.description else []


def server_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DEBUG="False",
        SECRET_KEY=os.environ.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"{SERVER}/{DATABASE}",
        LOG_LEVEL="WARNING",
    )
    env.pop("CELERY_BROKER_URL", None)
    env.pop("CACHE_URL", None)
    return env


REGISTER = """
import importlib, os
from games.gametypes import GAME_TYPES
if os.environ.get("BENCH_REGISTER"):
    module, _, attr = os.environ["BENCH_REGISTER"].partition(":")
    kind = getattr(importlib.import_module(module), attr)
    GAME_TYPES[kind.key] = kind
"""
"""Registers ``--register``'s game type (read from $BENCH_REGISTER) once Django is set up: in
the setup's process and in the server's (benchmarks/phones_wsgi.py)."""


def run_setup(code: str, env: dict[str, str]) -> list[dict[str, Any]]:
    """Run a setup script in a child process with the server's settings (so the tokens are
    signed with its secret); what it printed after "SETUP "."""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(done.stderr)
    line = next(x for x in done.stdout.splitlines() if x.startswith("SETUP "))
    return list(json.loads(line[6:]))


def setup_game(game: str, tables: int, env: dict[str, str]) -> list[dict[str, Any]]:
    """A fresh database with ``tables`` tables of ``game`` at its largest size and their seat
    links (tests/phones/tables.py: the registry's sizes and options)."""
    psql(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    psql(f'CREATE DATABASE "{DATABASE}"')
    code = f"""
import json, django
django.setup()
{REGISTER}
from django.core.management import call_command
call_command("migrate", verbosity=0)
from games.phone.panel import panel_for
from tests.phones.tables import create_table, table_specs
if panel_for({game!r}) is None:
    raise SystemExit("{game} has no seat-phone panel")
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
spec = table_specs({game!r})[-1]
keeper = User.objects.create_user("scorekeeper")
api_token = Token.objects.create(user=keeper).key
out = []
for table in range({tables}):
    game, links = create_table(spec, keeper, published=True)
    out.append({{"game": str(game.game_id), "version": game.version,
                "tokens": [link.token for link in links],
                "players": [link.player for link in links], "api_token": api_token}})
print("SETUP " + json.dumps(out))
"""
    return run_setup(code, env)


def setup(tables: int, env: dict[str, str]) -> list[dict[str, Any]]:
    """A fresh database with ``tables`` games and their seat links (run in a child process: the
    server's settings, so the tokens are signed with its secret)."""
    psql(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    psql(f'CREATE DATABASE "{DATABASE}"')
    code = f"""
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from games import services
out = []
for table in range({tables}):
    game = services.game_create(players={list(NAMES)!r}, published=True)
    links = services.seat_links_issue(game_id=game.game_id)
    out.append({{"game": str(game.game_id), "version": game.version,
                "tokens": [link.token for link in links]}})
print("SETUP " + json.dumps(out))
"""
    return run_setup(code, env)


def record(table: int) -> list[dict[str, Any]]:
    from engine.tricknchef.events import to_json
    from engine.tricknchef.simulate import simulate

    events = simulate(2000 + table, 4, names=NAMES, first_player=NAMES[0])
    return [to_json(e) for e in events[1:]]


def forced(table: int) -> set[int]:
    """Indexes (in record()) of the events the rules leave no choice about: the server
    records them after the tap before them, so no phone sends them."""
    from engine.tricknchef.referee import forced_next
    from engine.tricknchef.replay import replay
    from engine.tricknchef.simulate import simulate

    events = simulate(2000 + table, 4, names=NAMES, first_player=NAMES[0])
    state = replay(events[:1])
    out = set()
    for index, event in enumerate(events[1:]):
        if forced_next(state) is not None:
            out.add(index)
        state = replay([event], state)
    return out


# ------------------------------------------------------------------------------- the phones


class Phone:
    """One seat's phone: its own connection, cookies (CSRF) and last ETag."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.token = token
        self.etag = ""
        self.csrf = ""
        self.version = 0
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def send(
        self, method: str, path: str, body: dict[str, Any] | None = None
    ) -> tuple[int, bytes, dict[str, str]]:
        headers = {"Accept": "text/html", "X-Seat-Fetch": "1"}
        if self.csrf:
            headers["Cookie"] = f"csrftoken={self.csrf}"
        payload = None
        if body is not None:
            payload = urlencode(body, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.csrf
            headers["Origin"] = f"http://127.0.0.1:{self.port}"
        if method == "GET" and self.etag:
            headers["If-None-Match"] = self.etag
        for attempt in range(3):
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        found = {k.lower(): v for k, v in response.getheaders()}
        for cookie in response.headers.get_all("Set-Cookie") or []:
            if cookie.startswith("csrftoken="):
                self.csrf = cookie.split("=", 1)[1].split(";", 1)[0]
        if found.get("etag"):
            self.etag = found["etag"]
        seen = VERSION.search(data)
        if seen:
            self.version = int(seen.group(1))
        return response.status, data, found


VERSION = re.compile(rb'data-live[^>]*data-version="(\d+)"')
"""The game's version in the live panel the page answers (what seat.js reads)."""


def table_thread(
    port: int, table: dict[str, Any], index: int, args: argparse.Namespace,
    stop: threading.Event, seen: list[tuple[str, float, int]], taps: list[tuple[str, int]],
    sent: dict[int, int],
) -> None:  # fmt: skip
    """Drive one table's four phones until the game ends or the run stops."""
    rng = random.Random(index)
    if stop.wait(rng.random() * args.stagger):  # its players sit down (--stagger)
        sent[index] = 0
        return
    phones = [Phone(port, token) for token in table["tokens"]]
    for phone in phones:
        phone.send("GET", f"/seat/{phone.token}/")
    events = record(index)
    by_rule = forced(index)
    sent_at: dict[int, float] = {}
    sent_by: dict[int, int] = {}
    shown = [table["version"]] * 4
    latest = table["version"]  # the game's version after the last accepted tap
    clock = time.monotonic()
    next_poll = [clock + rng.random() * args.poll for _ in phones]
    next_tap = clock + rng.random() * args.think
    at = 0  # the next record event to send
    hands: list[tuple[int, list[str], int]] = []  # (seat, its cards, how many tapped): a deal
    while not stop.is_set() and at < len(events):
        now = time.monotonic()
        for seat, phone in enumerate(phones):
            if now >= next_poll[seat]:
                next_poll[seat] = now + args.poll
                phone.send("GET", f"/seat/{phone.token}/state/")
                if phone.version > shown[seat]:
                    for v in range(shown[seat] + 1, phone.version + 1):
                        if v in sent_at and sent_by.get(v) != seat:
                            seen.append(("delay", now - sent_at[v], v))
                    shown[seat] = phone.version
        if now < next_tap:
            pause(min([*next_poll, next_tap]))
            continue
        event = events[at]
        if event["type"] == "round_started":
            if not hands:
                hands = [
                    (NAMES.index(p) + 1, list(cards), 0) for p, cards in event["hands"].items()
                ]
            # The four phones tap in parallel: one card of each hand per slot.
            left = []
            for seat, cards, tapped in hands:
                phone = phones[seat - 1]
                status, _, _ = phone.send(
                    "POST", f"/seat/{phone.token}/hand/",
                    {"round": event["round"], "seat": seat, "cards": ",".join(cards[: tapped + 1]),
                     "key": uuid.uuid4().hex},
                )  # fmt: skip
                taps.append(("hand", status))
                if tapped + 1 < len(cards):
                    left.append((seat, cards, tapped + 1))
                elif phone.version > shown[seat - 1]:  # this hand started the round
                    sent_at[phone.version], sent_by[phone.version] = time.monotonic(), seat - 1
                    shown[seat - 1] = latest = phone.version
            hands = left
            if not hands:
                at += 1
                next_tap = now + args.think * (0.5 + rng.random())
            else:
                next_tap = now + args.tap_gap
            continue
        if at in by_rule:  # recorded by the server after the tap before it
            at += 1
            continue
        seat = NAMES.index(event["player"]) + 1
        phone = phones[seat - 1]
        if shown[seat - 1] < latest:  # its page does not show its turn yet: it waits a poll
            pause(next_poll[seat - 1])
            continue
        body = {k: v for k, v in event.items()}
        body.update(version=shown[seat - 1], key=uuid.uuid4().hex)
        status, _, _ = phone.send("POST", f"/seat/{phone.token}/act/", body)
        taps.append(("play", status))
        if status == 200:
            sent_at[phone.version], sent_by[phone.version] = time.monotonic(), seat - 1
            shown[seat - 1] = latest = phone.version
            at += 1
        next_tap = now + args.think * (0.5 + rng.random())
    sent[index] = at


def bot_table_thread(
    port: int, table: dict[str, Any], index: int, args: argparse.Namespace,
    stop: threading.Event, seen: list[tuple[str, float, int]], taps: list[Any],
    sent: dict[int, int],
) -> None:  # fmt: skip
    """Drive one table's phones, game-neutral (tests/phones/bot.py), until the run stops: each
    polls every ``--poll`` s; every ``--think`` s a random phone whose panel offers a move and
    shows the table's latest version taps one. ``sent[index]``: the taps accepted; ``taps``
    also holds ("round", player, round) for the taps per player per round."""
    rng = random.Random(index)
    if stop.wait(rng.random() * args.stagger):
        sent[index] = 0
        return
    bots = [
        SeatBot(HttpTransport("127.0.0.1", port), token, seat=seat, player=player)
        for seat, (token, player) in enumerate(
            zip(table["tokens"], table["players"], strict=True), start=1
        )
    ]
    for bot in bots:
        bot.open()
    keeper = SCOREKEEPER.get(args.game)
    sent_at: dict[int, float] = {}
    sent_by: dict[int, int] = {}
    shown = [bot.panel.version or 0 for bot in bots]
    latest = max(shown)
    accepted = 0
    finished = False
    clock = time.monotonic()
    next_poll = [clock + rng.random() * args.poll for _ in bots]
    next_tap = clock + rng.random() * args.think
    while not stop.is_set():
        now = time.monotonic()
        for seat, bot in enumerate(bots):
            if now >= next_poll[seat]:
                next_poll[seat] = now + args.poll
                bot.poll()
                version = bot.panel.version or 0
                if version > shown[seat]:
                    for v in range(shown[seat] + 1, version + 1):
                        if v in sent_at and sent_by.get(v) != seat:
                            seen.append(("delay", now - sent_at[v], v))
                    shown[seat] = version
                    latest = max(latest, version)
        if now < next_tap or finished:
            pause(min([*next_poll, next_tap]) if not finished else min(next_poll))
            continue
        offering = [
            (seat, bot) for seat, bot in enumerate(bots) if bot.moves and shown[seat] == latest
        ]
        if not offering and not finished and keeper is not None:
            entered = scorekeeper_enters(port, table, keeper, latest, rng)
            if entered is not None:
                taps.append(("scorekeeper", entered[0]))
                if entered[0] == 201:
                    latest = entered[1]
                next_tap = now + args.think * (0.5 + rng.random())
                continue
        if not offering:
            finished = any(bot.panel.final is not None for bot in bots)
            pause(min(next_poll))
            continue
        seat, bot = rng.choice(offering)
        round_no = bot.html.split('data-round="', 1)[-1].split('"', 1)[0]
        tapped = bot.tap(rng.choice(bot.moves))
        taps.append(("play", tapped.answer.status))
        if tapped.answer.status == 200 and tapped.panel.version is not None:
            taps.append(
                ("round", f"{index}:{bot.player}", int(round_no) if round_no.isdigit() else 0)
            )
            sent_at[tapped.panel.version] = time.monotonic()
            sent_by[tapped.panel.version] = seat
            shown[seat] = latest = tapped.panel.version
            accepted += 1
            finished = tapped.panel.final is not None
            if finished:
                taps.append(("finished", index, 0))
        next_tap = now + args.think * (0.5 + rng.random())
    sent[index] = accepted


def scorekeeper_enters(
    port: int, table: dict[str, Any], keeper: Any, version: int, rng: random.Random
) -> tuple[int, int] | None:
    """What the table's scorekeeper enters when no phone offers a move, for a game whose phones
    enter something that is no choice among moves (tests/phones/scorekeepers.py: Food Truck's
    round starts): the record read and the entry appended through the API with the
    scorekeeper's token. (status, the new version), or None: nothing to enter now."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    auth = {"Authorization": f"Token {table['api_token']}"}
    try:
        conn.request("GET", f"/api/games/{table['game']}/record/", headers=auth)
        response = conn.getresponse()
        record = response.read().decode()
        if response.status != 200:
            return (response.status, version)
        entry = keeper(None, record, rng.randrange(1 << 30))
        if entry is None:
            return None
        body = json.dumps({"expected_version": version, "events": [entry]})
        headers = {**auth, "Content-Type": "application/json",
                   "Idempotency-Key": secrets.token_hex(16)}  # fmt: skip
        conn.request("POST", f"/api/games/{table['game']}/events/", body=body, headers=headers)
        response = conn.getresponse()
        answer = response.read()
        if response.status != 201:
            return (response.status, version)
        return (201, int(json.loads(answer)["version"]))
    finally:
        conn.close()


def pause(until: float) -> None:
    """Sleep until the next thing a table's phones do (no busy loop: the phones' own CPU is
    taken from the server's two cores)."""
    time.sleep(max(0.002, until - time.monotonic()))


def client(
    port: int, tables: list[tuple[int, dict[str, Any]]], args: argparse.Namespace,
    start: Any, queue: Any,
) -> None:  # fmt: skip
    stop = threading.Event()
    seen: list[tuple[str, float, int]] = []
    taps: list[tuple[str, int]] = []
    sent: dict[int, int] = {}
    start.wait()
    drive = table_thread if args.game == TNC else bot_table_thread
    threads = [
        threading.Thread(target=drive, args=(port, t, i, args, stop, seen, taps, sent))
        for i, t in tables
    ]
    for thread in threads:
        thread.start()
    time.sleep(args.duration)
    stop.set()
    for thread in threads:
        thread.join()
    queue.put(([d for _, d, _ in seen], taps, sent))


def same(event: dict[str, Any]) -> dict[str, Any]:
    """An event as compared: a hand is a set of cards (the phones tap them in any order)."""
    if event["type"] == "round_started":
        return {**event, "hands": {p: sorted(c) for p, c in event["hands"].items()}}
    return event


def check_logs(tables: list[dict[str, Any]], sent: dict[int, int]) -> tuple[int, list[str]]:
    """Every table's log holds exactly the record's events its phones sent, once each, in
    order (besides the store's own events: game_published). Returns (events checked, problems)."""
    checked, problems = 0, []
    for index, table in enumerate(tables):
        rows = psql(
            "SELECT e.type, e.data::text FROM games_event e WHERE e.stream_id = "
            f"'{table['game']}' AND e.type <> 'game_published' ORDER BY e.version",
            DATABASE,
        )
        logged = [same({"type": kind, **json.loads(data)}) for kind, data in rows][1:]
        upto, by_rule = sent.get(index, 0), forced(index)
        while upto in by_rule:  # recorded by the server after the last tap sent
            upto += 1
        expected = [same(e) for e in record(index)[:upto]]
        checked += len(logged)
        if logged != expected:
            problems.append(f"table {index}: {len(logged)} events logged, {len(expected)} sent")
    return checked, problems


# ------------------------------------------------------------------------------- the server


ACCESS = re.compile(r"^(?P<method>[A-Z]+) (?P<path>\S+) (?P<status>\d+) (?P<us>\d+)$")


def check_bot_logs(tables: list[dict[str, Any]], sent: dict[int, int]) -> tuple[int, list[str]]:
    """Every table's log holds one append from its phones per tap accepted (--game mode).
    Returns (appends checked, problems)."""
    checked, problems = 0, []
    for index, table in enumerate(tables):
        rows = psql(
            "SELECT count(DISTINCT e.metadata->>'request_id') FROM games_event e "
            f"WHERE e.stream_id = '{table['game']}' AND e.metadata ? 'by_seat'",
            DATABASE,
        )
        appends = int(rows[0][0])
        checked += appends
        if appends != sent.get(index, 0):
            problems.append(f"table {index}: {appends} appends, {sent.get(index, 0)} taps")
    return checked, problems


def kind_of(method: str, path: str, status: int) -> str:
    if path.startswith("/api/"):
        return "scorekeeper"  # the record read and the entry appended (--game's scorekeeper)
    if method == "GET" and path.endswith("/state/"):
        return "poll 304" if status == 304 else "poll 200"
    if method == "POST" and path.endswith("/hand/"):
        return "hand tap"
    if method == "POST" and path.endswith("/act/"):
        return "play tap"
    if method == "POST" and path.startswith("/seat/") and "/undo/" not in path:
        return "play tap"  # any other panel's action (--game)
    return "page"


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--poll", type=float, default=0.5)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--tap-gap", type=float, default=1.0)
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="seconds over which the tables start (0: all deal at once, the worst case)",
    )
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--game",
        default=TNC,
        help="the game type's key (default trick-n-chef: its simulated games; any other game "
        "with a seat-phone panel: the game-neutral bot's random moves)",
    )
    parser.add_argument(
        "--register",
        default="",
        metavar="MODULE:ATTR",
        help="one more game type to register (the tests' toy: "
        "tests.highcard.game.gametype:HIGH_CARD)",
    )
    return parser.parse_args()


def main() -> None:
    args = options()
    env = server_env()
    if args.register:
        env["BENCH_REGISTER"] = args.register
    took = time.perf_counter()
    tables = (
        setup(args.tables, env) if args.game == TNC else setup_game(args.game, args.tables, env)
    )
    print(f"machine: {machine()}")
    seats = len(tables[0]["tokens"]) if tables else 0
    print(
        f"setup: {args.tables} tables of {args.game}, {seats} phones each, "
        f"in {time.perf_counter() - took:.1f} s"
    )
    log = Path(tempfile.mkdtemp()) / "access.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "benchmarks.phones_wsgi:application",
         "--workers", str(args.workers), "--threads", str(args.threads),
         "--bind", f"127.0.0.1:{args.port}", "--log-level", "warning",
         "--access-logfile", str(log), "--access-logformat", "%(m)s %(U)s %(s)s %(D)s"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                Phone(args.port, "").send("GET", "/health/")
                break
            except OSError:
                time.sleep(0.1)
        start = multiprocessing.Event()
        queue: Any = multiprocessing.Queue()
        share = [list(enumerate(tables))[i :: args.clients] for i in range(args.clients)]
        procs = [
            multiprocessing.Process(target=client, args=(args.port, part, args, start, queue))
            for part in share
        ]
        for proc in procs:
            proc.start()
        log.write_text("")
        workers = processes(parent=server.pid)
        before = (cpu_of(workers), cpu_of(processes(name="postgres")), machine_busy())
        clients = [p.pid for p in procs if p.pid is not None]
        start.set()
        time.sleep(args.duration * 0.95)
        phones_cpu = cpu_of(clients)
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
        match = ACCESS.match(line.strip())
        if not match:
            continue
        status = int(match["status"])
        kind = kind_of(match["method"], match["path"], status)
        by_kind.setdefault(kind, []).append(int(match["us"]) / 1000)
        counts = statuses.setdefault(kind, {})
        counts[status] = counts.get(status, 0) + 1
    print(f"run: {args.duration:.0f} s, poll every {args.poll} s, a play every ~{args.think} s "
          f"per table, gunicorn {args.workers} workers x {args.threads} threads")  # fmt: skip
    cores = (os.cpu_count() or 1) * args.duration
    print(
        f"CPU seconds during the run (of {cores:.0f}): gunicorn {used[0]:.0f}, "
        f"PostgreSQL {used[1]:.0f}, the simulated phones {phones_cpu:.0f}, "
        f"whole machine {used[2]:.0f}"
    )
    print(f"{'requests':<10} {'count':>7} {'per s':>7} {'median':>8} {'p90':>8} {'p99':>8} "
          f"{'max':>8}  statuses (server time in ms)")  # fmt: skip
    for kind in ("poll 304", "poll 200", "hand tap", "play tap", "scorekeeper", "page"):
        values = by_kind.get(kind, [])
        if not values:
            continue
        print(
            f"{kind:<10} {len(values):>7} {len(values) / args.duration:>7.1f} "
            f"{statistics.median(values):>8.1f} {percentile(values, 0.9):>8.1f} "
            f"{percentile(values, 0.99):>8.1f} {max(values):>8.1f}  {statuses[kind]}"
        )
    delays = sorted(d for r in results for d in r[0])
    if delays:
        median, p99 = statistics.median(delays) * 1000, percentile(delays, 0.99) * 1000
        print(
            f"a tap seen by the table's other phones after: median {median:.0f} ms, "
            f"p99 {p99:.0f} ms, max {max(delays) * 1000:.0f} ms ({len(delays)} sightings)"
        )
    sent = {index: count for r in results for index, count in r[2].items()}
    if args.game == TNC:
        checked, problems = check_logs(tables, sent)
        print(f"logs: {checked} events read back, {len(problems)} tables differ from what was sent")
    else:
        checked, problems = check_bot_logs(tables, sent)
        print(f"logs: {checked} appends read back, {len(problems)} tables differ from the taps")
    for problem in problems[:10]:
        print("  " + problem)
    taps = [t for r in results for t in r[1]]
    answered = [t for t in taps if t[0] not in ("round", "finished")]
    counts = {t: answered.count(t) for t in sorted(set(answered))}
    print(f"taps answered (kind, status): {counts}")
    if args.game != TNC:
        per = [(t[1], t[2]) for t in taps if t[0] == "round"]
        by = {key: per.count(key) for key in set(per)}
        finished = sum(1 for t in taps if t[0] == "finished")
        print(f"games finished: {finished} of {len(tables)}")
        if by:
            print(
                f"taps per player per round: mean {statistics.mean(by.values()):.1f}, "
                f"max {max(by.values())} over {len(by)} (player, round) pairs"
            )


if __name__ == "__main__":
    main()
