"""Server time to answer one tap on the scorekeeper's table page (games/table/).

    .venv/bin/python benchmarks/table_tap.py [--taps 300] [--warmup 30] [--seed 11]

A game is replayed (through the service) to the 10th trick of round 3; then, again and again,
the leader's card is posted to /table/<id>/play/ exactly as the page's form posts it with htmx
(version, a fresh Idempotency-Key, the coins, HX-Request) through the Django test client, and
taken back with games.services.game_correct (not timed). Only the card POST is timed: session,
user, the append (projection read, referee, event insert, projection update) and the rendering
of the panel partial. DEBUG is off, as in production.

It runs on SQLite (the embedded default, a file in var/ as the tests use) and, when
DATABASE_URL points at PostgreSQL, there too; each in a fresh test database, dropped at the end.
Prints the machine, the median, p90 and p99; it is a benchmark, nothing passes or fails.
Target: <= 100 ms server time per tap.
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def machine() -> str:
    cpu = platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(taps: int, warmup: int, seed: int) -> None:
    """One backend: the one the settings read from the environment."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    if connection.vendor == "postgresql":  # not the test suite's database: never clobber it
        connection.settings_dict["TEST"]["NAME"] = f"bench_table_tap_{os.getpid()}"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        vendor = connection.vendor
        version = ""
        with connection.cursor() as cursor:
            cursor.execute(
                "select sqlite_version()" if vendor == "sqlite" else "show server_version"
            )
            version = cursor.fetchone()[0]
        print(f"\n{vendor} {version} ({settings.DATABASES['default']['NAME']})")
        tap_times, service_times = measure(taps, warmup, seed)
        report("tap (POST card, htmx panel)", tap_times)
        report("service alone (game_append)", service_times)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def report(what: str, seconds: list[float]) -> None:
    ms = [s * 1000 for s in seconds]
    print(
        f"  {what:30} n={len(ms)}  median {statistics.median(ms):6.2f} ms  "
        f"p90 {percentile(ms, 0.9):6.2f} ms  p99 {percentile(ms, 0.99):6.2f} ms  "
        f"max {max(ms):6.2f} ms"
    )


def measure(taps: int, warmup: int, seed: int) -> tuple[list[float], list[float]]:
    from django.contrib.auth.models import User
    from django.test import Client

    from engine.tricknchef.events import to_json
    from engine.tricknchef.referee import coin_limit, legal_cards
    from engine.tricknchef.replay import step
    from engine.tricknchef.simulate import simulate
    from engine.tricknchef.state import GameState, Phase
    from games import services
    from games.models import GameProjection

    user = User.objects.create_user("bench-keeper", password=secrets.token_urlsafe(12))
    names = ("ana", "ben", "cleo", "dev")
    events = simulate(seed, 4, names=names)
    game_id = services.game_create(players=list(names), user=user).game_id
    state = GameState()
    step(state, events[0])
    upto = 1
    while not (state.round_no == 3 and state.trick_no == 10 and state.phase is Phase.PLAY):
        step(state, events[upto])
        upto += 1
    services.game_append(
        game_id=game_id,
        expected_version=1,
        events=[to_json(e) for e in events[1:upto]],
        user=user,
    )
    assert state.expected is not None
    player = state.expected
    card = sorted(legal_cards(state))[0]
    coins = coin_limit(state)  # a tap with coins: the whole form
    client = Client()
    client.force_login(user)
    url = f"/table/{game_id}/play/"

    def version() -> int:
        return GameProjection.objects.only("version").get(stream_id=game_id).version

    def undo(at: int) -> None:
        services.game_correct(game_id=game_id, expected_version=at, retract=1, user=user)

    tap_times: list[float] = []
    for i in range(warmup + taps):
        at = version()
        data = {
            "version": str(at),
            "key": str(uuid.uuid4()),
            "player": player,
            "card": card,
            "coins": str(coins),
        }
        start = time.perf_counter()
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        elapsed = time.perf_counter() - start
        assert response.status_code == 200, response.content[:300]
        if i >= warmup:
            tap_times.append(elapsed)
        undo(at + 1)

    service_times: list[float] = []
    event: dict[str, Any] = {"type": "card_played", "player": player, "card": card, "coins": coins}
    for i in range(warmup + taps):
        at = version()
        start = time.perf_counter()
        services.game_append(
            game_id=game_id,
            expected_version=at,
            events=[event],
            user=user,
            idempotency_key=str(uuid.uuid4()),
        )
        elapsed = time.perf_counter() - start
        if i >= warmup:
            service_times.append(elapsed)
        undo(at + 1)
    return tap_times, service_times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--here", action="store_true", help="run on this process's database only")
    args = parser.parse_args()
    if args.here:
        run(args.taps, args.warmup, args.seed)
        return
    print(f"Machine: {machine()}")
    print(f"{args.taps} taps after {args.warmup} warm-up taps, game seed {args.seed}")
    base = dict(os.environ)
    base.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DEBUG="False",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="testserver",
    )
    base.pop("CELERY_BROKER_URL", None)
    backends = [{k: v for k, v in base.items() if k != "DATABASE_URL"}]
    if os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        backends.append(base)
    else:
        print("(DATABASE_URL does not point at PostgreSQL: SQLite only)")
    command = [sys.executable, __file__, "--here", "--taps", str(args.taps)]
    command += ["--warmup", str(args.warmup), "--seed", str(args.seed)]
    for env in backends:
        subprocess.run(command, env=env, cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
