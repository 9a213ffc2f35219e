"""docker-compose.yml, for real: the stack built and started as docs/operations.md says, a round
played through it, the owner's secret kept out of the application, a backup, down and up.

Wherever a Docker engine with Compose answers (skipped elsewhere, saying why; required by
.ci/run, which starts one on the project's machines). tests/deploy/compose.py makes the
deployment: its own directory, project name, env files (from .env.example and
.env.owner.example, with generated secrets), loopback port and image, all removed at the end.
Then, in one test (each step needs the ones before):

1. ``docker compose up --wait`` builds the image (once: web builds, the others run it), runs
   migrate (as the owner; it creates the app role) and waits for every service healthy;
   ``/health/`` answers 200.
2. The owner's secret: it is in no environment of web, worker or beat (their PID 1's, a
   ``docker compose exec`` shell's). From inside the worker, as its user, an attacker's
   search (every process's environment and command line it can read, every file, every
   password it finds tried as the owner's) does not connect as the owner, and the app role may
   not switch the event log's guard off. The real password, which only the test knows, does
   connect from there (so the refusals are the password's absence, not the network), and the
   admin's way in, ``docker compose run --rm migrate as-owner ...``, connects as the owner.
3. A round through the worker and beat: ``manage.py demo`` in web; through the HTTP API the
   organizer sets round 3 to be paired at a set time (now); the scorekeeper finishes round 2's
   open tables; each result reaches the tournament through the worker; the organizer confirms
   them; beat's next ``tournaments.run_schedules`` (every minute) pairs and publishes round 3.
4. ``docker/backup.sh`` writes the log, the users, the digest and a database dump;
   ``docker compose down`` (volumes kept) and ``up``: the projections' digest is unchanged and
   the tournament is there.

Waits poll with deadlines (stack.wait_for); nothing asserts on time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tournaments import domain

from .api import DEMO_OUTPUT, Api, fetch, finish_table, of_round
from .compose import APP_SERVICES, OWNER_SECRETS, Deployment, deployment
from .stack import wait_for

RESULT_TIMEOUT = 60.0
"""Seconds a finished table's result may take to reach the tournament through the worker."""
BEAT_TIMEOUT = 180.0
"""Seconds for beat's next run_schedules (one a minute, counted from beat's start) and the
worker's pairing."""

# Run in the worker as its user (stdin, so that the password the test gives it is in no
# process's command line or environment for the search to find).
ATTACK = r"""
import glob, json, os, subprocess
from urllib.parse import unquote, urlsplit
import psycopg

SECRET = {secret!r}
OWNER = {owner!r}
app = urlsplit(os.environ["DATABASE_URL"])
me = str(os.getpid())

# What this user can read: every process's environment and command line.
readable, holders, candidates = 0, [], set()
for path in glob.glob("/proc/[0-9]*/environ") + glob.glob("/proc/[0-9]*/cmdline"):
    if path.split("/")[2] == me:
        continue
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        continue
    readable += 1
    for item in data.split(b"\0"):
        text = item.decode("utf-8", "replace")
        name, _, value = text.partition("=")
        if SECRET in text or name in {owner_secrets!r}:
            holders.append(path + ": " + name)
        for word in (value, text):
            if word:
                candidates.add(word)
                if "://" in word:
                    candidates.add(unquote(urlsplit(word).password or ""))
# Every file it can read: grep prints each match (-o) with its file; the needles come from
# stdin (not its command line). CONTROL is in one file of the image: the search does read files.
CONTROL = "tnc-health-"
grep = subprocess.run(
    ["grep", "-rsaoF", "-D", "skip", "--exclude-dir=proc", "--exclude-dir=sys", "-f", "-", "/"],
    input=SECRET + "\n" + CONTROL + "\n", capture_output=True, text=True,
)
matches = grep.stdout.splitlines()
files = sorted({{m.rpartition(":")[0] for m in matches if m.endswith(":" + SECRET)}})
control = sorted({{m.rpartition(":")[0] for m in matches if m.endswith(":" + CONTROL)}})

def as_owner(password):
    try:
        with psycopg.connect(
            host=app.hostname, port=app.port or 5432, dbname=app.path.lstrip("/"), user=OWNER,
            password=password, connect_timeout=10, autocommit=True,
        ) as owner:
            owner.execute("ALTER TABLE games_event DISABLE TRIGGER ALL")
            owner.execute("ALTER TABLE games_event ENABLE TRIGGER ALL")
            return "altered"
    except psycopg.OperationalError:
        return "refused"

owner_logins = sorted(p for p in candidates | {{""}} if as_owner(p or None) != "refused")
refusals = {{}}
with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
    refusals["user"] = conn.execute("SELECT current_user").fetchone()[0]
    for statement in (
        "ALTER TABLE games_event DISABLE TRIGGER ALL",
        "SET session_replication_role = replica",
    ):
        try:
            conn.execute(statement)
            refusals[statement] = "done"
        except psycopg.Error as error:
            refusals[statement] = type(error).__name__
print(json.dumps({{
    "uid": os.getuid(), "readable": readable, "holders": holders, "files": files,
    "control_files": control, "tried": len(candidates) + 1, "owner_logins": owner_logins,
    "refusals": refusals, "control": as_owner(SECRET),
}}))
"""

AS_OWNER = (
    "import os, psycopg; "
    "print(psycopg.connect(os.environ['DATABASE_URL']).execute("
    "'SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user').fetchone())"
)


def environment(raw: str, separator: str) -> dict[str, str]:
    pairs = (item.partition("=") for item in raw.split(separator) if item)
    return {name: value for name, _, value in pairs}


def check_no_owner_secret(stack: Deployment) -> None:
    for service in APP_SERVICES:
        for what, env in (
            ("PID 1", environment(stack.exec(service, "cat", "/proc/1/environ"), "\0")),
            ("an exec shell", environment(stack.exec(service, "env"), "\n")),
        ):
            held = sorted(set(env) & set(OWNER_SECRETS))
            assert not held, f"{service}'s {what} has {held}"
            assert not [k for k, v in env.items() if stack.owner_password in v], (service, what)
            assert env["DATABASE_URL"] == stack.app_url, (service, what)


def check_the_attack_fails(stack: Deployment) -> None:
    script = ATTACK.format(
        secret=stack.owner_password, owner="trick_n_chef", owner_secrets=set(OWNER_SECRETS)
    )
    found = json.loads(stack.exec("worker", "python", "-", input=script).strip().splitlines()[-1])
    assert found["uid"] == 10001 and found["readable"] > 2, found
    assert found["holders"] == [] and found["files"] == [], found
    assert found["control_files"] == ["/app/docker/celery-health.sh"], found
    assert found["owner_logins"] == [] and found["tried"] > 10, found
    assert found["refusals"] == {
        "user": "trick_n_chef_app",
        "ALTER TABLE games_event DISABLE TRIGGER ALL": "InsufficientPrivilege",
        "SET session_replication_role = replica": "InsufficientPrivilege",
    }, found
    assert found["control"] == "altered", "the owner's real password should connect"
    # The administrator's way in: the one-off migrate service, asked for by name.
    who = stack.compose("run", "--rm", "-T", "migrate", "as-owner", "python", "-c", AS_OWNER)
    assert who.strip().splitlines()[-1] == "('trick_n_chef', True)", who


def play_round_2_and_let_beat_pair_round_3(stack: Deployment) -> tuple[Api, str]:
    """The demo's round 2 finished through the API and the worker; round 3 paired by beat. The
    organizer's client and the tournament's API path."""
    demo = stack.manage("demo", "--url", f"https://127.0.0.1:{stack.port}")
    found = DEMO_OUTPUT.search(demo)
    assert found, demo
    anonymous = Api(stack.port)
    organizer = anonymous.login("organizer", found["password"])
    scorekeeper = anonymous.login("scorekeeper", found["scorekeeper"])
    tournament = f"/api/tournaments/{found['id']}/"
    status, changed = organizer.request(
        "PATCH", tournament + "settings/", {"pairing": "scheduled", "publish": "auto"}
    )
    assert status == 201, (status, changed)
    organizer.post(f"{tournament}rounds/3/schedule/", {"at": datetime.now(UTC).isoformat()})

    round_2 = organizer.get(tournament)["rounds"][1]
    open_tables = [t for t in round_2["tables"] if t["result"] is None]
    assert open_tables, round_2["tables"]
    games = [t["game"] for t in open_tables]
    with ThreadPoolExecutor(max_workers=len(games)) as scorekeepers:
        seeds = range(1, len(games) + 1)
        finished = list(scorekeepers.map(finish_table, [scorekeeper] * len(games), games, seeds))
    assert finished == ["finished"] * len(games)

    def recorded(table: int) -> Callable[[], dict[str, Any] | None]:
        def look() -> dict[str, Any] | None:
            now = organizer.get(tournament)["rounds"][1]["tables"][table - 1]
            return now if now["result"] is not None else None

        return look

    for table in round_2["tables"]:
        number = table["table"]
        wait_for(recorded(number), f"table {number}'s result (the worker)", RESULT_TIMEOUT)
        organizer.post(f"{tournament}rounds/2/tables/{number}/confirm/")

    def round_3_published() -> dict[str, Any] | None:
        now: dict[str, Any] = organizer.get(tournament)
        rounds = now["rounds"]
        return now if len(rounds) >= 3 and rounds[2]["status"] == "published" else None

    state = wait_for(round_3_published, "round 3 paired by beat's schedule", BEAT_TIMEOUT)
    assert state["rounds"][1]["status"] == "closed"
    history = organizer.get(f"{tournament}history/")
    paired = of_round(history, domain.PAIRED, 3)
    assert len(paired) == 1 and paired[0]["by"] == "system", paired
    # Paired by the task beat sends (scheduled pairing: a confirmation sends no advance).
    worker_log = stack.logs("worker")
    done = rf"tournaments\.run_schedules\[[0-9a-f-]+\] succeeded[^\n]*{found['id']}: [^\n]*paired"
    assert re.search(done, worker_log), worker_log[-3000:]
    assert "Sending due task tournament-schedules" in stack.logs("beat")
    return organizer, tournament


def health(stack: Deployment) -> dict[str, Any]:
    status, _, body = fetch(stack.port, "/health/")
    assert status == 200, body[:500]
    answer: dict[str, Any] = json.loads(body)
    assert (answer["status"], answer["database"], answer["broker"]) == ("ok", "ok", "ok"), answer
    return answer


@pytest.mark.slow
def test_the_compose_stack_plays_a_round_keeps_the_owners_secret_and_survives_down_and_up(
    tmp_path: Path,
) -> None:
    with deployment(tmp_path / "deployment") as stack:
        # 1. Built, migrated, every service healthy.
        stack.up()
        health(stack)

        # 2. No owner's secret in the application's containers.
        check_no_owner_secret(stack)
        check_the_attack_fails(stack)

        # 3. A result through the worker, a round paired by beat.
        organizer, tournament = play_round_2_and_let_beat_pair_round_3(stack)

        # 4. A backup, then down and up with the volumes: nothing lost.
        digest = stack.manage("projections_digest").strip()
        backups = tmp_path / "backups"
        done = stack.run("sh", "docker/backup.sh", str(backups))
        assert done.returncode == 0, done.stdout + done.stderr
        files = {path.name.split("-", 1)[0]: path for path in backups.iterdir()}
        assert set(files) == {"events", "users", "digest", "db"}, sorted(files)
        assert files["digest"].read_text().strip() == digest
        assert files["db"].read_bytes().startswith(b"PGDMP")  # pg_dump's custom format
        events = files["events"].read_text().splitlines()
        assert len(events) > 100 and tournament.split("/")[3] in files["events"].read_text()

        stack.compose("down", "--timeout", "30")
        stack.up()
        health(stack)
        assert stack.manage("projections_digest").strip() == digest
        rounds = organizer.get(tournament)["rounds"]  # the token, the tournament: all kept
        assert [r["status"] for r in rounds] == ["closed", "closed", "published"]
        check_no_owner_secret(stack)
