"""The production stack, started natively for the deploy tests: gunicorn, Celery worker, beat.

The processes run the project as a server does (docker-compose.yml's web, worker and beat,
without Docker): ``config.settings.production`` as .env.example sets it up (behind an HTTPS
proxy, whose ``X-Forwarded-Proto`` header the tests send), with a generated ``SECRET_KEY``,
against the test database (``DATABASE_URL``: the test uses ``committed_db``) and a Redis
database (``CELERY_BROKER_URL``). Each test has a queue of its own
(``worker_helpers.unique_queue``): the settings read it from ``CELERY_TASK_DEFAULT_QUEUE``,
which every process's environment sets, and the workers consume it (``-Q``), so two runs
sharing one Redis never take each other's tasks.

Every process writes its output to a log file in the test's directory. :func:`running_stack`
stops them all on the way out (SIGTERM, then SIGKILL of the process's group after a timeout)
and prints their logs when the test fails. Waits poll with a deadline; the sleep between two
looks only lets the processes run, nothing asserts on time.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis
from celery import Celery
from celery.beat import PersistentScheduler

from tests.tournaments.worker_helpers import READY, TaskOutcome, Worker, forget_queue

T = TypeVar("T")

READY_TIMEOUT = 45.0
"""Seconds a process may take to start (the three import Django at once on two cores)."""
STOP_TIMEOUT = 10.0
"""Seconds a process gets for its graceful stop before its process group is killed."""
POLL = 0.05
"""Seconds between two looks at a log, the database or the API (only to let the processes run)."""

ACCESS_LOG_FORMAT = '%(p)s "%(r)s" %(s)s'
"""gunicorn's access log line: first the pid of the web worker that served it (as ``<pid>``)."""
SERVED_BY = re.compile(r'^<(\d+)> "', re.MULTILINE)
BOOTED = re.compile(r"Booting worker with pid: (\d+)")
RECEIVED = re.compile(r"Task (?P<name>[\w.]+)\[(?P<id>[0-9a-f-]+)\] received")

UNSET = (
    "CELERY_VISIBILITY_TIMEOUT",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # the browser tests' fixture sets it in the test process
    "CONN_MAX_AGE",
    "DATABASE_OWNER_URL",
    "GUNICORN_CMD_ARGS",
    "WEB_CONCURRENCY",
)
"""Variables of the test's own environment that must not reach the stack: the processes run
with the settings' defaults, and gunicorn with its command line only (a test passes such a
variable explicitly when it wants one)."""


# ----------------------------------------------------------------------------- processes


def wait_for(found: Callable[[], T | None], what: str, timeout: float) -> T:
    """Poll ``found`` until it returns something (not None); fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = found()
        if result is not None:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} after {timeout:.0f} s")
        time.sleep(POLL)


class Service:
    """One process of the stack and its log file."""

    def __init__(self, name: str, process: subprocess.Popen[bytes], log_path: Path) -> None:
        self.name = name
        self.process = process
        self.log_path = log_path

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_for(self, found: Callable[[], T | None], what: str, timeout: float) -> T:
        """As :func:`wait_for`, and fail as soon as this process exits."""

        def found_while_alive() -> T | None:
            result = found()
            if result is None and not self.alive():
                pytest.fail(f"{self.name} exited ({self.process.returncode}) waiting for {what}")
            return result

        return wait_for(found_while_alive, what, timeout)

    def wait_for_log(self, pattern: str, what: str, timeout: float) -> re.Match[str]:
        return self.wait_for(lambda: re.search(pattern, self.log()), what, timeout)

    def stop(self) -> None:
        """SIGTERM (a graceful stop: what is in flight finishes), then SIGKILL of the process
        group (the process and its workers) if it has not exited after ``STOP_TIMEOUT``."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            # Not reaped yet, so the group id is still this process's own (start_new_session).
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=STOP_TIMEOUT)

    def kill(self) -> int:
        """SIGKILL, now: no shutdown at all (the OOM killer, a lost machine). The exit status."""
        self.process.kill()
        return self.process.wait(timeout=STOP_TIMEOUT)

    def report(self) -> str:
        return (
            f"---- {self.name} (pid {self.pid}) log, {self.log_path} ----\n"
            f"{self.log()}---- end of the {self.name} log ----"
        )


class CeleryWorker(Service):
    """``celery worker``; its task log is read by tests/tournaments/worker_helpers.Worker."""

    def __init__(
        self, name: str, process: subprocess.Popen[bytes], log_path: Path, queue: str
    ) -> None:
        super().__init__(name, process, log_path)
        self.queue = queue
        self._tasks = Worker(process, log_path, queue)

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        self.wait_for_log(READY.pattern, f"{self.name} ready", timeout)

    def received(self, name: str) -> list[str]:
        """The ids of the ``name`` tasks this worker took from the queue, in order."""
        return [m["id"] for m in RECEIVED.finditer(self.log()) if m["name"] == name]

    def outcomes(self, name: str | None = None) -> list[TaskOutcome]:
        return self._tasks.outcomes(name)

    def outcome_of(self, name: str, task_id: str, timeout: float) -> TaskOutcome:
        return self._tasks.outcome_of(name, task_id, timeout)

    def wait_until(self, found: Callable[[], T | None], what: str, timeout: float) -> T:
        """As :meth:`Service.wait_for`, and fail at once if a task fails."""
        return self._tasks.wait_until(found, what, timeout)


class Beat(Service):
    """``celery beat``."""

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        self.wait_for_log(r"beat: Starting\.\.\.", f"{self.name} started", timeout)

    def sent(self, entry: str, task: str) -> int:
        """How often beat has sent the schedule's ``entry`` (task ``task``)."""
        return self.log().count(f"Scheduler: Sending due task {entry} ({task})")


class Gunicorn(Service):
    """The gunicorn master; its workers are the processes it logs booting."""

    def __init__(
        self, name: str, process: subprocess.Popen[bytes], log_path: Path, port: int, workers: int
    ) -> None:
        super().__init__(name, process, log_path)
        self.port = port
        self.expected_workers = workers

    def workers(self) -> list[int]:
        """The pids of the web workers alive now (booted by this master, still its children)."""
        return [pid for pid in map(int, BOOTED.findall(self.log())) if child_of(self.pid, pid)]

    def served_by(self) -> set[int]:
        """The pids of the web workers that answered at least one request (the access log)."""
        return set(map(int, SERVED_BY.findall(self.log())))

    def answers(self) -> bool:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            connection.request("GET", "/health/")
            connection.getresponse().read()
        except OSError:
            return False
        finally:
            connection.close()
        return True

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        def ready() -> bool | None:
            booted = len(self.workers()) >= self.expected_workers
            return True if booted and self.answers() else None

        self.wait_for(ready, f"{self.name} answering with {self.expected_workers} workers", timeout)


def child_of(parent: int, pid: int) -> bool:
    """Whether ``pid`` is a live child of ``parent`` (without Linux's /proc: alive at all)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        if Path("/proc/self/stat").exists():
            return False  # /proc works: no such process
        try:
            os.kill(pid, 0)  # signal 0: only asks whether the process exists
        except ProcessLookupError:
            return False
        return True
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses; the last ")" ends it.
    state, ppid = stat.rsplit(")", 1)[1].split()[:2]
    return int(ppid) == parent and state != "Z"  # Z: exited, not reaped yet


# ----------------------------------------------------------------------------- the stack

S = TypeVar("S", bound=Service)


class Stack:
    """The processes one test started, with the environment they share."""

    def __init__(
        self,
        *,
        directory: Path,
        cwd: Path,
        database_url: str,
        broker_url: str,
        queue: str,
        owner_url: str | None = None,
    ) -> None:
        self.directory = directory
        self.cwd = cwd
        self.database_url = database_url
        self.owner_url = owner_url
        self.broker_url = broker_url
        self.queue = queue
        self.secret_key = secrets.token_urlsafe(50)
        self.services: list[Service] = []

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """A production environment (docker-compose.yml's .env) for the test's database, broker
        and queue."""
        env = {key: value for key, value in os.environ.items() if key not in UNSET}
        env.update(
            # .env.example's settings: HTTPS behind a proxy (the tests send its header),
            # whitenoise serving collectstatic's output.
            DJANGO_SETTINGS_MODULE="config.settings.production",
            SECRET_KEY=self.secret_key,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            USE_X_FORWARDED_PROTO="True",
            STATIC_ROOT=str(self.directory / "static"),
            DATABASE_URL=self.database_url,
            CELERY_BROKER_URL=self.broker_url,
            CELERY_TASK_DEFAULT_QUEUE=self.queue,
            LOG_LEVEL="INFO",
            LOG_FORMAT="plain",
            PYTHONUNBUFFERED="1",
        )
        env.update(extra or {})
        return env

    def _spawn(
        self, name: str, command: list[str], env: Mapping[str, str] | None
    ) -> tuple[subprocess.Popen[bytes], Path]:
        log_path = self.directory / f"{name}.log"
        with log_path.open("wb") as log_file:
            process = subprocess.Popen(
                command,
                cwd=self.cwd,
                env=self.env(env),
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() can end its workers too
            )
        return process, log_path

    def prepare_web(self) -> None:
        """What docker/entrypoint.sh does before gunicorn: migrate (one process at a time,
        docker/migrate.py; the test database is migrated already, so this finds nothing to do;
        with an ``owner_url``, as the owner, then the app role of ``database_url`` created and
        granted) and collect the static files; fail with the output if either fails. Only
        migrate sees the owner's URL, as in the container."""
        owner = {"DATABASE_OWNER_URL": self.owner_url} if self.owner_url else {}
        for name, command, env in (
            ("migrate", [sys.executable, "docker/migrate.py", "--noinput"], owner),
            ("collectstatic", [sys.executable, "manage.py", "collectstatic", "--noinput"], {}),
        ):
            done = subprocess.run(
                command, cwd=self.cwd, env=self.env(env), capture_output=True, text=True
            )
            assert done.returncode == 0, f"{name} failed:\n{done.stdout}{done.stderr}"

    def manage(self, *args: str) -> str:
        """``manage.py`` with ``args`` in the stack's environment (a one-off command, as
        ``docker compose run web python manage.py ...``); its output. Fails if it fails."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=self.cwd,
            env=self.env(),
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, (
            f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}"
        )
        return done.stdout

    def start_gunicorn(self, *, workers: int = 2) -> Gunicorn:
        """``gunicorn config.wsgi:application`` on a free loopback port, sync workers (after
        :meth:`prepare_web`)."""
        port = free_port()
        command = [
            sys.executable, "-m", "gunicorn", "config.wsgi:application",
            "--workers", str(workers), "--bind", f"127.0.0.1:{port}",
            "--access-logfile", "-", "--access-logformat", ACCESS_LOG_FORMAT,
            "--error-logfile", "-",
            # No control socket: gunicorn's default path (~/.gunicorn/gunicorn.ctl) is one per
            # user, which two servers on one machine (parallel tests) would fight over.
            "--no-control-socket",
        ]  # fmt: skip
        process, log_path = self._spawn("gunicorn", command, None)
        return self._add(Gunicorn("gunicorn", process, log_path, port, workers))

    def start_worker(
        self,
        name: str = "worker",
        *,
        concurrency: int | None = None,
        env: Mapping[str, str] | None = None,
    ) -> CeleryWorker:
        """``celery worker`` on the test's queue: the prefork pool with ``concurrency``
        processes (production's), or without it the solo pool (one process, nothing forked)."""
        pool = (
            ["-P", "solo"]
            if concurrency is None
            else ["-P", "prefork", "--concurrency", str(concurrency)]
        )
        command = [
            sys.executable, "-m", "celery", "-A", "config", "worker", *pool,
            "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-l", "info", "-Q", self.queue, "-n", f"{name}.{self.queue}@%h",
            # Command-line configuration: what the worker enqueues stays on the test's queue;
            # no remote-control mailbox left in Redis.
            f"task_default_queue={self.queue}", "worker_enable_remote_control=false",
        ]  # fmt: skip
        process, log_path = self._spawn(name, command, env)
        return self._add(CeleryWorker(name, process, log_path, self.queue))

    def start_beat(self, *, schedule: Path, env: Mapping[str, str] | None = None) -> Beat:
        """``celery beat`` with its schedule file at ``schedule``, sending to the test's queue
        (without remote control, unlike docker-compose.yml's: nothing here pings it)."""
        command = [
            sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "info",
            "--schedule", str(schedule), f"task_default_queue={self.queue}",
        ]  # fmt: skip
        process, log_path = self._spawn("beat", command, env)
        return self._add(Beat("beat", process, log_path))

    def _add(self, service: S) -> S:
        self.services.append(service)
        return service

    def stop(self) -> None:
        """Stop every process, the last started first."""
        for service in reversed(self.services):
            service.stop()

    def report(self) -> str:
        return "\n".join(service.report() for service in self.services)


@contextmanager
def running_stack(
    *,
    directory: Path,
    cwd: Path,
    database_url: str,
    broker_url: str,
    queue: str,
    owner_url: str | None = None,
) -> Iterator[Stack]:
    """A :class:`Stack` to start processes in; all of them stopped on the way out, their logs
    printed if the block fails, the queue's keys deleted from Redis."""
    stack = Stack(
        directory=directory,
        cwd=cwd,
        database_url=database_url,
        broker_url=broker_url,
        queue=queue,
        owner_url=owner_url,
    )
    try:
        yield stack
    except BaseException as error:
        stack.stop()
        if not isinstance(error, pytest.skip.Exception):
            print(stack.report())
        raise
    finally:
        stack.stop()
        forget_queue(broker_url, queue)
        forget_unacked(broker_url, queue)


def app_role_url(owner_url: str, role: str) -> str:
    """``owner_url`` with another user (the app role; trust or a password the role has)."""
    parts = urlsplit(owner_url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, f"{role}:not-a-secret@{host}", parts.path, parts.query, ""))


@contextmanager
def app_role(owner_url: str) -> Iterator[tuple[str, str]]:
    """A unique app role name and its ``DATABASE_URL`` (docker/migrate.py creates the role);
    the role dropped on the way out (after the stack has stopped)."""
    role = f"tnc_test_app_{secrets.token_hex(6)}"
    try:
        yield role, app_role_url(owner_url, role)
    finally:
        with psycopg.connect(owner_url, autocommit=True) as owner:
            if owner.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone():
                owner.execute(f'DROP OWNED BY "{role}"')
                owner.execute(f'DROP ROLE "{role}"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# ----------------------------------------------------------------------------- beat


def due_schedule(path: Path, app: Celery) -> list[str]:
    """Write beat's schedule file as a beat stopped for a day leaves it: each entry of the
    project's ``beat_schedule`` last ran a day ago, so a beat started with this file sends
    them at once, then on their schedule (the schedule itself is the settings', unchanged).
    Returns the entries' task names."""
    scheduler = PersistentScheduler(app=app, schedule_filename=str(path))
    try:
        a_day_ago = app.now() - timedelta(days=1)
        entries = [scheduler.schedule[name] for name in app.conf.beat_schedule]
        for entry in entries:
            entry.last_run_at = a_day_ago
        return sorted(str(entry.task) for entry in entries)
    finally:
        scheduler.close()


# ----------------------------------------------------------------------------- the broker


@dataclass(frozen=True)
class Unacked:
    """A message a worker took from the queue and has not acknowledged (acks late)."""

    task: str
    task_id: str
    delivered_at: float
    """time.time() when the worker took it: the visibility timeout counts from there."""


UNACKED, UNACKED_INDEX = "unacked", "unacked_index"
"""Where kombu's Redis transport keeps taken messages until their ack, or their restore to the
queue once the visibility timeout has passed (the hash of messages; their delivery times)."""


def unacked(broker_url: str, queue: str) -> list[Unacked]:
    """The messages of ``queue`` taken by a worker and not acknowledged, oldest first."""
    found = []
    with redis.Redis.from_url(broker_url) as client:
        for tag, raw in client.hgetall(UNACKED).items():
            message, _exchange, routing_key = json.loads(raw)
            if routing_key != queue:
                continue
            headers = message.get("headers") or {}
            delivered_at = client.zscore(UNACKED_INDEX, tag) or 0.0
            found.append(Unacked(str(headers.get("task")), str(headers.get("id")), delivered_at))
    return sorted(found, key=lambda m: m.delivered_at)


def forget_unacked(broker_url: str, queue: str) -> None:
    """Delete the queue's unacknowledged messages (a test that failed midway leaves some; a
    later worker on this Redis database would restore them to a queue nobody reads)."""
    with suppress(redis.RedisError), redis.Redis.from_url(broker_url) as client:
        for tag, raw in client.hgetall(UNACKED).items():
            with suppress(ValueError, TypeError, IndexError):
                if json.loads(raw)[2] == queue:
                    client.zrem(UNACKED_INDEX, tag)
                    client.hdel(UNACKED, tag)
