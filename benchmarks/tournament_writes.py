"""The tournament's write path in a 1,000-player event: the worker's time to record one result,
and one check-in, in server time (in-process, no HTTP).

    .venv/bin/python benchmarks/tournament_writes.py [--players 1000] [--rounds 3] [--runs 7]
        [--rebuild] [--profile]

It uses the load benchmark's seed database (benchmarks/load_standings.py: a tournament of
``--players`` checked-in players, ``--rounds`` rounds of results, the next round published; built
once, a few minutes, on the PostgreSQL server of $BENCH_DATABASE_URL) and works on a fresh copy
of it (its own copy, ``<database>_writes``, migrated and rebuilt). Then, with the Celery nudges off
(as if the broker were slow), for ``--runs`` tables of the live round: the table's results are
entered (not timed), then the worker's part is timed (``tournament_sync_pending``: take the
status change, append ``result_recorded``, fold, save the projections, mark the change
handled), then the first read of the standings after it (timed: it ranks the players again,
which the write left for it). And ``--runs`` times: a late player registered (not
timed), then checked in (timed: ``tournament_check_in``). Prints the machine and the medians.

A smoke run (its own seed; about 10 CPU seconds, most of them Django starting):
``--players 8 --rounds 1 --runs 2``, with $BENCH_DATABASE and $BENCH_SEED naming its databases
(the copy is ``$BENCH_DATABASE_writes``).

A benchmark: nothing passes or fails. Targets (issue 11, 2-core machine): one result <= 40 ms,
one check-in <= 20 ms.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import load_standings  # noqa: E402


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rebuild", action="store_true", help="build the seed database again")
    parser.add_argument(
        "--profile", action="store_true", help="print where the timed calls spend their time"
    )
    return parser.parse_args()


PROFILES: dict[str, cProfile.Profile] = {}


def timed(work: Any, profile: str | None = None) -> float:
    """Milliseconds ``work`` took; with ``profile``, under that name's profiler (slower)."""
    profiler = PROFILES.setdefault(profile, cProfile.Profile()) if profile else None
    start = time.perf_counter()
    if profiler is not None:
        profiler.runcall(work)
    else:
        work()
    return (time.perf_counter() - start) * 1000


def measure(setup: dict[str, Any], runs: int, profile: bool = False) -> dict[str, list[float]]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from config import celery_app
    from games import services as games
    from tournaments import services as t

    # The nudges go nowhere: the worker's part is timed on its own.
    celery_app.conf.update(task_always_eager=False, broker_url="memory://")
    organizer = get_user_model().objects.get(username="organizer")
    tid = uuid.UUID(setup["tournament"])
    figures: dict[str, list[float]] = {"result": [], "standings read after it": [], "check-in": []}
    for table in setup["tables"][:runs]:
        game_id = uuid.UUID(table["game"])
        game = games.game_get(game_id=game_id, user=organizer)
        games.game_enter_results(
            game_id=game_id,
            expected_version=game.version,
            scores={name: [3, 2, 1] for name in table["seats"]},
            user=organizer,
        )
        sync = partial(t.tournament_sync_pending, game_id=game_id)
        figures["result"].append(timed(sync, "result" if profile else None))
        read = partial(t.tournament_standings, tournament_id=tid, user=organizer)
        figures["standings read after it"].append(timed(read))
    for number in range(runs):
        name = f"Late {number}"
        t.tournament_register(tournament_id=tid, user=organizer, names=[name], checked_in=False)
        players = t.tournament_get(tournament_id=tid, user=organizer).summary["players"]
        late = next(p["id"] for p in players if p["name"] == name)
        check_in = partial(t.tournament_check_in, tournament_id=tid, player=late, user=organizer)
        figures["check-in"].append(timed(check_in, "check-in" if profile else None))
    return figures


COPY = f"{load_standings.DATABASE}_writes"
"""This benchmark's own copy of the seed (the load benchmark may be running on its copy)."""


def build_seed(args: argparse.Namespace, seed: str) -> str:
    """The load benchmark's seed database, built as it builds it (``load_standings.build``), but
    migrated in the same process: each Django start is seconds on a busy machine, and the load
    benchmark's own ``prepare`` also copies and migrates a run database this one never uses."""
    start = time.perf_counter()
    load_standings.psql(f"DROP DATABASE IF EXISTS {seed} WITH (FORCE)")
    load_standings.psql(f"CREATE DATABASE {seed}")
    done = subprocess.run(
        [sys.executable, __file__, "seed", "--players", str(args.players), "--rounds",
         str(args.rounds)],
        cwd=ROOT, env=load_standings.server_env(seed, None), check=True, stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    setup = done.stdout.strip().splitlines()[-1]
    load_standings.psql("CREATE TABLE load_benchmark_setup (data text)", seed)
    import psycopg

    with psycopg.connect(f"{load_standings.SERVER}/{seed}", autocommit=True) as conn:
        conn.execute("INSERT INTO load_benchmark_setup VALUES (%s)", (setup,))
    return f"built the seed database in {time.perf_counter() - start:.0f} s"


def seed_child(players: int, rounds: int) -> None:
    """In the child process, on the seed database: the schema, then the load benchmark's
    tournament; prints what a run needs as the last line."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    print(json.dumps(load_standings.build(players, rounds, load_standings.SCOREKEEPER_ACCOUNTS)))


def prepare(args: argparse.Namespace) -> str:
    """A fresh copy of the load benchmark's seed database (built first if missing), as this
    process's database; how the seed came."""
    seed = load_standings.seed_name(args)
    exists = load_standings.psql(f"SELECT 1 FROM pg_database WHERE datname = '{seed}'")
    took = "reused the seed database"
    if args.rebuild or not exists:
        took = build_seed(args, seed)
    load_standings.psql(f"DROP DATABASE IF EXISTS {COPY} WITH (FORCE)")
    load_standings.psql(f"CREATE DATABASE {COPY} TEMPLATE {seed}")
    return took


def migrate_and_rebuild() -> dict[str, Any]:
    """The copy migrated to this checkout's models and its projections rebuilt (new read models
    filled: a seed built by older code), in one child process (not this one: the timed calls
    start in a process that has not read the whole tournament already); then its setup."""
    rebuild = (
        "from django.core.management import call_command\n"
        "from tournaments import services\n"
        "call_command('migrate', verbosity=0)\n"
        "services.tournaments_rebuild(fix=True)\n"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", rebuild],
        cwd=ROOT, env=load_standings.server_env(COPY, None), check=True, stdout=subprocess.PIPE,
    )  # fmt: skip
    rows = load_standings.psql("SELECT data FROM load_benchmark_setup", COPY)
    setup: dict[str, Any] = json.loads(rows[0][0])
    return setup


def main() -> None:
    args = options()
    took = prepare(args)
    setup = migrate_and_rebuild()
    os.environ.update(load_standings.server_env(COPY, "locmemcache://"))
    os.environ.pop("CELERY_BROKER_URL", None)
    figures = measure(setup, args.runs, args.profile)
    print(f"machine: {load_standings.machine()}")
    print(f"setup: {setup['players']} players, {setup['rounds_played']} rounds played ({took})")
    for name, values in figures.items():
        print(
            f"{name}: median {statistics.median(values):.1f} ms, "
            f"min {min(values):.1f}, max {max(values):.1f} ({len(values)} runs)"
        )
    print(json.dumps({k: round(statistics.median(v), 1) for k, v in figures.items()}))
    for name, profiler in PROFILES.items():
        print(f"--- {name} (cProfile, cumulative)")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "seed":
        parser = argparse.ArgumentParser()
        parser.add_argument("seed")
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        built = parser.parse_args()
        seed_child(built.players, built.rounds)
    else:
        main()
