"""A real Celery worker for tests: a ``celery worker`` subprocess on a private queue.

The worker runs the project's app (``-A config``, ``config.settings.base``) against the test
database and a Redis broker. Each test gets a queue of its own, so parallel runs (xdist, or
two checkouts sharing one Redis) never take each other's tasks. Tasks a worker enqueues
itself (``tournaments.advance`` after the last result of a round) must land on that queue too:
the queue is also the worker's ``task_default_queue``, passed as Celery's command-line
configuration (``celery worker ... task_default_queue=<queue>``), the one setting the worker
gets that does not come from the project's settings. Remote control is off (nothing here
broadcasts), so the worker leaves no mailbox behind in Redis.

The test process sends to the same queue through :func:`sending_to`, which turns the eager
mode of the default settings off for the duration.

Waiting reads the worker's log (``-l info``: every task's ``received`` and its outcome) with a
deadline; a sleep between two reads only lets the worker run, nothing asserts on time.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, urlsplit, urlunsplit

import pytest
import redis
from celery import Celery
from kombu import pools as kombu_pools

T = TypeVar("T")

READY_TIMEOUT = 30.0
"""Seconds a worker may take to start (import Django, connect to the broker)."""
STOP_TIMEOUT = 10.0
"""Seconds a worker gets for its warm shutdown before it is killed."""
POLL = 0.05
"""Seconds between two looks at the log or the database (only to let the worker run)."""

TASK_LINE = re.compile(
    r"Task (?P<name>[\w.]+)\[(?P<id>[0-9a-f-]+)\] "
    r"(?:(?P<succeeded>succeeded) in [\d.e-]+s: (?P<value>.*)"
    r"|(?P<failed>raised unexpected): (?P<error>.*)"
    r"|(?P<retry>retry): (?P<reason>.*))"
)
"""A task's outcome as the worker logs it at INFO (succeeded, failed, or retried)."""


READY = re.compile(r"\S+@\S+ ready\.")
"""The worker's line once it consumes its queue (Celery's own log format, or LOGGING's)."""


def unique_queue() -> str:
    return f"tnc-test-{uuid.uuid4().hex[:12]}"


def broker_url_for(redis_url: str, db: int = 9) -> str:
    """The Redis URL on database ``db`` (test queues stay out of the default database)."""
    parts = urlsplit(redis_url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, ""))


def database_url_for(database: Mapping[str, Any]) -> str:
    """A ``DATABASE_URL`` for another process to reach this PostgreSQL test database (the
    settings' NAME, USER, PASSWORD, HOST, PORT as pytest-django left them)."""
    user = quote(str(database.get("USER") or ""), safe="")
    password = str(database.get("PASSWORD") or "")
    credentials = f"{user}:{quote(password, safe='')}" if password else user
    host = str(database.get("HOST") or "")
    host = quote(host, safe="") if host.startswith("/") else host  # a Unix socket directory
    port = str(database.get("PORT") or "")
    location = f"{host}:{port}" if port else host
    at = f"{credentials}@" if credentials else ""
    return f"postgres://{at}{location}/{quote(str(database['NAME']), safe='')}"


@dataclass(frozen=True)
class TaskOutcome:
    name: str
    id: str
    status: str
    """"succeeded", "failed" or "retry"."""
    detail: str
    """The repr of the value it returned, or the error."""


class Worker:
    """A running worker and its log."""

    def __init__(self, process: subprocess.Popen[bytes], log_path: Path, queue: str) -> None:
        self.process = process
        self.log_path = log_path
        self.queue = queue

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def outcomes(self, name: str | None = None) -> list[TaskOutcome]:
        """Every task outcome in the log so far, in order (of one task name, if given)."""
        found = []
        for match in TASK_LINE.finditer(self.log()):
            status = "succeeded" if match["succeeded"] else "failed" if match["failed"] else "retry"
            detail = match["value"] or match["error"] or match["reason"] or ""
            if name is None or match["name"] == name:
                found.append(TaskOutcome(match["name"], match["id"], status, detail.strip()))
        return found

    def wait_until(self, found: Callable[[], T | None], what: str, timeout: float) -> T:
        """Poll ``found`` until it returns something; fail if the worker exits, a task fails,
        or the deadline passes (:func:`running_worker` prints the log then)."""
        deadline = time.monotonic() + timeout
        while True:
            result = found()
            if result is not None:
                return result
            failed = [o for o in self.outcomes() if o.status == "failed"]
            if failed:
                pytest.fail(f"a task failed while waiting for {what}: {failed}")
            if self.process.poll() is not None:
                pytest.fail(f"the worker exited ({self.process.returncode}) waiting for {what}")
            if time.monotonic() > deadline:
                pytest.fail(f"no {what} after {timeout:.0f} s")
            time.sleep(POLL)

    def outcome_of(self, name: str, task_id: str, timeout: float) -> TaskOutcome:
        """Wait until the worker has finished the task (succeeded or failed)."""

        def finished() -> TaskOutcome | None:
            done = [o for o in self.outcomes(name) if o.id == task_id and o.status != "retry"]
            return done[0] if done else None

        return self.wait_until(finished, f"outcome of {name}[{task_id}]", timeout)

    def report(self) -> str:
        return f"---- worker log ({self.log_path}) ----\n{self.log()}---- end of worker log ----"


@contextmanager
def running_worker(
    *,
    broker_url: str,
    database_url: str,
    queue: str,
    log_path: Path,
    cwd: Path,
    ready_timeout: float = READY_TIMEOUT,
) -> Iterator[Worker]:
    """Start ``celery -A config worker`` (solo pool, one task at a time) consuming ``queue``;
    yield once it logs that it is ready; stop it (warm shutdown, then kill) on the way out.
    The log is printed when the block fails."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "-P",
        "solo",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-l",
        "info",
        "-Q",
        queue,
        "-n",
        f"{queue}@%h",
        # Command-line configuration (after the options): what the worker enqueues stays on
        # the test's queue; no remote-control mailbox.
        f"task_default_queue={queue}",
        "worker_enable_remote_control=false",
    ]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "PYTHONUNBUFFERED": "1",
    }
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=log_file, stderr=subprocess.STDOUT
        )
    worker = Worker(process, log_path, queue)
    try:
        worker.wait_until(
            lambda: True if READY.search(worker.log()) else None,
            "ready worker",
            ready_timeout,
        )
        yield worker
    except BaseException:
        _stop(process)
        print(worker.report())
        raise
    finally:
        _stop(process)
        forget_queue(broker_url, queue)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()  # SIGTERM: warm shutdown, the current task finishes
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_TIMEOUT)


def forget_queue(broker_url: str, queue: str) -> None:
    """Delete the queue's keys from Redis (its list, priority lists and bindings)."""
    with suppress(redis.RedisError), redis.Redis.from_url(broker_url) as client:
        keys = [
            *client.scan_iter(match=f"{queue}*"),
            *client.scan_iter(match=f"_kombu.binding*.{queue}"),
        ]
        if keys:
            client.delete(*keys)


SENDING = ("task_always_eager", "task_eager_propagates", "broker_url", "task_default_queue")


@contextmanager
def sending_to(app: Celery, broker_url: str, queue: str) -> Iterator[None]:
    """Make this process's Celery app send tasks to ``broker_url``'s ``queue`` instead of
    running them inline; restore its settings (and its broker connections) afterwards."""
    saved = {key: app.conf[key] for key in SENDING}
    app.conf.update(
        task_always_eager=False,
        task_eager_propagates=False,
        broker_url=broker_url,
        task_default_queue=queue,
    )
    _drop_connections(app)
    try:
        yield
    finally:
        _drop_connections(app)
        app.conf.update(saved)


def _drop_connections(app: Celery) -> None:
    """Forget the app's cached broker connections, so the next send uses the current
    ``broker_url`` (what Celery itself does after a fork)."""
    cached: Any = app
    if cached._pool is not None:
        cached._pool.force_close_all()
        cached._pool = None
    # The app's pool comes from kombu's registry of pools by broker URL: a closed one left
    # there would be handed back for that URL (memory:// of the eager settings included).
    kombu_pools.reset()
    amqp = vars(cached).get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
