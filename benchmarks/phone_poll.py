"""Server time of the seat phones' polls and taps (games/phone/): 50 tables x 4 phones.

    .venv/bin/python benchmarks/phone_poll.py [--tables 50] [--passes 20] [--seed 11]

50 games are replayed (through the service) to the 10th trick of round 3, and each seat gets its
link. Then, pass after pass, every one of the 200 phones polls its state/ with the ETag it last
got, exactly as static/js/seat.js does (If-None-Match, X-Seat-Fetch), through the Django test
client; in each pass a quarter of the tables also get a card tapped on the phone whose turn it is
(POST act/, as the page posts it), so the next pass's polls at those tables get a 200 (the new
panel) and the others a 304. After the pass the card is taken back (not timed). DEBUG is off.

It runs on SQLite and, when DATABASE_URL points at PostgreSQL, there too; each in a fresh test
database, dropped at the end. Prints the machine, and for the polls answered 304, the polls
answered 200 and the taps: median, p90, p99, max. A benchmark: nothing passes or fails. Target:
p99 <= 100 ms server time per poll and per tap. The requests are sent one at a time: this is
server time per request on a machine busy with nothing else, not a load test.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.table_tap import machine, report  # noqa: E402


def run(tables: int, passes: int, seed: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    if connection.vendor == "postgresql":
        connection.settings_dict["TEST"]["NAME"] = f"bench_phone_poll_{os.getpid()}"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with connection.cursor() as cursor:
            vendor = connection.vendor
            cursor.execute(
                "select sqlite_version()" if vendor == "sqlite" else "show server_version"
            )
            version = cursor.fetchone()[0]
        print(f"\n{vendor} {version} ({settings.DATABASES['default']['NAME']})")
        polls_304, polls_200, taps = measure(tables, passes, seed)
        report("poll answered 304", polls_304)
        report("poll answered 200 (panel)", polls_200)
        report("tap (POST act/, panel)", taps)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def measure(tables: int, passes: int, seed: int) -> tuple[list[float], list[float], list[float]]:
    from django.test import Client

    from engine.tricknchef.events import to_json
    from engine.tricknchef.referee import legal_cards
    from engine.tricknchef.replay import step
    from engine.tricknchef.simulate import simulate
    from engine.tricknchef.state import GameState, Phase
    from games import services
    from games.services import drafts

    names = ("ana", "ben", "cleo", "dev")
    events = simulate(seed, 4, names=names)
    state = GameState()
    step(state, events[0])
    upto = 1
    while not (state.round_no == 3 and state.trick_no == 10 and state.phase is Phase.PLAY):
        step(state, events[upto])
        upto += 1
    assert state.expected is not None
    player, card = state.expected, sorted(legal_cards(state))[0]
    seat = names.index(player)
    games = []
    for _ in range(tables):
        game_id = services.game_create(players=list(names)).game_id
        services.game_append(
            game_id=game_id, expected_version=1, events=[to_json(e) for e in events[1:upto]]
        )
        tokens = [link.token for link in services.seat_links_issue(game_id=game_id)]
        games.append((game_id, tokens))
    client = Client()
    fetch = {"X-Seat-Fetch": "1"}
    etags: dict[str, str] = {}
    polls_304: list[float] = []
    polls_200: list[float] = []
    taps: list[float] = []
    rng = random.Random(seed)
    for number in range(passes + 1):
        tapped = rng.sample(range(tables), max(1, tables // 4))
        for _game_id, tokens in games:
            for token in tokens:
                headers = dict(fetch)
                if token in etags:
                    headers["If-None-Match"] = etags[token]
                start = time.perf_counter()
                response = client.get(f"/seat/{token}/state/", headers=headers)
                elapsed = time.perf_counter() - start
                assert response.status_code in (200, 304), response.status_code
                etags[token] = response["ETag"]
                if number:  # the first pass fills the ETags (and warms up)
                    (polls_304 if response.status_code == 304 else polls_200).append(elapsed)
        for index in tapped:
            game_id, tokens = games[index]
            stamp = drafts.table_stamp(game_id, 1)  # a correction is an event too: not upto
            assert stamp is not None
            at = stamp[0]
            data = {
                "type": "card_played",
                "player": player,
                "card": card,
                "coins": "0",
                "version": str(at),
                "key": str(uuid.uuid4()),
                "round": "3",
                "trick": "10",
            }
            start = time.perf_counter()
            response = client.post(f"/seat/{tokens[seat]}/act/", data, headers=fetch)
            elapsed = time.perf_counter() - start
            assert response.status_code == 200, response.content[:300]
            if number:
                taps.append(elapsed)
        for index in tapped:  # take the cards back; the next pass's polls there get a 200
            game_id = games[index][0]
            stamp = drafts.table_stamp(game_id, 1)
            assert stamp is not None
            services.game_correct(game_id=game_id, expected_version=stamp[0], retract=1)
    return polls_304, polls_200, taps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--here", action="store_true", help="run on this process's database only")
    args = parser.parse_args()
    if args.here:
        run(args.tables, args.passes, args.seed)
        return
    print(f"Machine: {machine()}")
    print(f"{args.tables} tables x 4 phones, {args.passes} passes, game seed {args.seed}")
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
    command = [sys.executable, __file__, "--here", "--tables", str(args.tables)]
    command += ["--passes", str(args.passes), "--seed", str(args.seed)]
    for env in backends:
        subprocess.run(command, env=env, cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
