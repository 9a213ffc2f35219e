"""The deployment files, checked without Docker: docker-compose.yml (parsed with PyYAML), the
Dockerfile, .dockerignore, .env.example against what the settings read, and the scripts in
docker/ (the entrypoint run with stand-ins for python and gunicorn, the healthchecks against a
small local server and stand-ins for celery). tests/deploy/test_compose.py runs the stack for
real where a Docker engine answers. docs/operations.md describes the deployment these files make."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import json
import os
import re
import secrets
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import cache
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import environ
import pytest
import yaml

from tests.services import require_service

BASE_DIR = Path(__file__).resolve().parent.parent
SERVICES = ("postgres", "redis", "migrate", "web", "worker", "beat")
LONG_RUNNING = ("postgres", "redis", "web", "worker", "beat")
APP_SERVICES = ("web", "worker", "beat")
"""The application's long-running processes: the app role only, never the owner's secret."""
IMAGE_SERVICES = ("migrate", *APP_SERVICES)
OWNER_SECRETS = ("POSTGRES_PASSWORD", "DATABASE_OWNER_URL")
"""What connects as the database's owner (its password, alone or in a URL)."""

# Names in .env.example that the settings do not read, and who does.
READ_ELSEWHERE = {
    "DJANGO_SETTINGS_MODULE": "Django, manage.py, gunicorn and celery (which settings to load)",
    "WEB_CONCURRENCY": "gunicorn (its number of worker processes)",
    "DATABASE_OWNER_URL": "docker/migrate.py, and the entrypoint's as-owner (maintenance)",
    "POSTGRES_USER": "the postgres image (the owner it creates), its healthcheck, backup.sh",
    "POSTGRES_DB": "the postgres image (the database it creates), its healthcheck, backup.sh",
    "POSTGRES_PASSWORD": "the postgres image (the owner's password, set when it creates it)",
}


# --- Reading the files -------------------------------------------------------------------


@cache
def compose() -> dict[str, Any]:
    data = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def service(name: str) -> dict[str, Any]:
    services = compose()["services"]
    assert name in services, f"docker-compose.yml has no service {name!r}"
    result = services[name]
    assert isinstance(result, dict)
    return result


def env_file(path: Path) -> dict[str, str]:
    """NAME=value lines; comments and blank lines skipped. The file must be this plain: no
    quotes, no "export", no duplicates (Compose, a shell and systemd read it the same way)."""
    values: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = re.fullmatch(r"([A-Z][A-Z0-9_]*)=(.*)", line)
        assert match, f"{path.name}:{number}: not a plain NAME=value line: {line!r}"
        name, value = match.groups()
        assert name not in values, f"{path.name}:{number}: {name} is set twice"
        assert not value.startswith(("'", '"')), f"{path.name}:{number}: quoted value"
        assert " #" not in value, f"{path.name}:{number}: a comment after a value"
        values[name] = value
    return values


@cache
def env_example() -> dict[str, str]:
    return env_file(BASE_DIR / ".env.example")


@cache
def owner_example() -> dict[str, str]:
    """.env.owner.example: what only postgres and migrate read."""
    return env_file(BASE_DIR / ".env.owner.example")


def env_files_of(name: str) -> list[str]:
    """The env files service ``name`` reads, as written (``.env``, ``.env.owner``)."""
    files = service(name).get("env_file") or []
    files = [files] if isinstance(files, str | dict) else files
    return [str(f["path"] if isinstance(f, dict) else f).removeprefix("./") for f in files]


def environment_of(name: str) -> dict[str, str]:
    """Every variable service ``name``'s containers get: its env files (through their examples,
    ``<file>.example``, which the repository holds) and its ``environment:``."""
    env: dict[str, str] = {}
    for path in env_files_of(name):
        example = BASE_DIR / f"{path}.example"
        assert example.is_file(), f"{name} reads {path}, which has no {example.name}"
        env.update(env_file(example))
    extra = service(name).get("environment") or {}
    if isinstance(extra, list):
        extra = dict(item.partition("=")[::2] for item in extra)
    env.update({str(k): str(v) for k, v in extra.items()})
    return env


def seconds(duration: str | int | float) -> float:
    """A Compose duration ("1m30s", "5s", "500ms") in seconds."""
    if isinstance(duration, int | float):
        return float(duration)
    units = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001, "us": 1e-6}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)", duration)
    assert parts and "".join(n + u for n, u in parts) == duration, duration
    return sum(float(number) * units[unit] for number, unit in parts)


@cache
def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments), continuation lines joined, comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in (BASE_DIR / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        full = pending + line
        pending = ""
        keyword, _, arguments = full.partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
    return instructions


def dockerfile_args(keyword: str) -> list[str]:
    return [arguments for kw, arguments in dockerfile() if kw == keyword]


def exec_form(arguments: str) -> list[str]:
    """A Dockerfile CMD/ENTRYPOINT's arguments as a list (JSON form, or shell form split)."""
    if arguments.startswith("["):
        result = json.loads(arguments)
        assert isinstance(result, list)
        return [str(item) for item in result]
    return shlex.split(arguments)


def as_list(command: str | list[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else [str(c) for c in command]


def web_process() -> tuple[list[str], list[str]]:
    """(entrypoint, command) the web container runs: the compose file's, else the image's."""
    web = service("web")
    entrypoint = web.get("entrypoint") or exec_form(dockerfile_args("ENTRYPOINT")[-1])
    command = web.get("command") or exec_form(dockerfile_args("CMD")[-1])
    return as_list(entrypoint), as_list(command)


def script_path(entrypoint: list[str]) -> Path:
    """The repository file an entrypoint in the image (/app/...) or relative to it names."""
    script = next(part for part in entrypoint if part.endswith((".sh", ".py")))
    path = BASE_DIR / script.removeprefix("/app/")
    assert path.is_file(), f"{script} (the web entrypoint) is not in the repository"
    return path


def load_script(name: str) -> ModuleType:
    path = BASE_DIR / "docker" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"tnc_docker_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- What the settings read --------------------------------------------------------------


def _default_variable(method: str) -> str | None:
    """The variable a django-environ reader uses when called without one (``env.db_url()``
    reads DATABASE_URL), from the reader's own signature."""
    reader = getattr(environ.Env, method, None)
    if reader is None:
        return None
    parameter = inspect.signature(reader).parameters.get("var")
    if parameter is None or not isinstance(parameter.default, str):
        return None
    return parameter.default


@cache
def settings_env_reads() -> dict[str, bool]:
    """{variable: it has a default} for every variable config/settings/*.py reads:
    ``env.<type>("NAME", ..., default=...)``, ``env("NAME")``, ``env.db_url()`` (DATABASE_URL:
    django-environ's own default name), ``os.environ[...]`` / ``.get`` / ``os.getenv``.
    A variable read anywhere without a default is required."""
    reads: dict[str, bool] = {}

    def record(name: str, has_default: bool) -> None:
        reads[name] = reads.get(name, True) and has_default

    for path in sorted((BASE_DIR / "config" / "settings").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Subscript):  # os.environ["NAME"]
                if ast.unparse(node.value) == "os.environ" and isinstance(node.slice, ast.Constant):
                    record(str(node.slice.value), False)
                continue
            if not isinstance(node, ast.Call):
                continue
            func = ast.unparse(node.func)
            first = node.args[0] if node.args else None
            name = first.value if isinstance(first, ast.Constant) else None
            keywords = {k.arg for k in node.keywords}
            if func in ("os.environ.get", "os.getenv"):
                if isinstance(name, str):
                    record(name, len(node.args) > 1 or "default" in keywords)
                continue
            if func == "env":
                method = "__call__"
            elif func.startswith("env."):
                method = func.removeprefix("env.")
            else:
                continue
            for keyword in node.keywords:
                if keyword.arg == "var" and isinstance(keyword.value, ast.Constant):
                    name = keyword.value.value
            if name is None:
                name = _default_variable(method)
            if isinstance(name, str):
                record(name, "default" in keywords)
    return reads


def test_the_settings_reader_finds_what_the_settings_read() -> None:
    reads = settings_env_reads()
    # base.py: optional everywhere; production.py: SECRET_KEY and ALLOWED_HOSTS required.
    assert reads["DATABASE_URL"] is True
    assert reads["CELERY_BROKER_URL"] is True
    assert reads["SECRET_KEY"] is False
    assert reads["ALLOWED_HOSTS"] is False
    assert _default_variable("db_url") == "DATABASE_URL"


# --- docker-compose.yml ------------------------------------------------------------------


def test_the_services_exist() -> None:
    assert set(compose()["services"]) == set(SERVICES)


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_every_service_has_a_healthcheck_and_restarts(name: str) -> None:
    svc = service(name)
    check = svc.get("healthcheck")
    assert check, f"{name} has no healthcheck"
    assert not check.get("disable"), f"{name}'s healthcheck is disabled"
    test = as_list(check["test"])
    assert test[0] in ("CMD", "CMD-SHELL") and len(test) > 1, f"{name}: healthcheck {test}"
    assert svc.get("restart") in ("unless-stopped", "always", "on-failure"), name
    assert svc.get("logging", {}).get("options", {}).get("max-size"), f"{name}: logs not rotated"


def run_healthcheck(
    name: str,
    tmp_path: Path,
    stubs: dict[str, str] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[int, list[str]]:
    """Run service ``name``'s compose healthcheck as Docker would (CMD-SHELL through ``sh -c``,
    after Compose turned ``$$`` into ``$``; CMD as given, the image's /app being the
    repository), with the real tools on PATH or ``stubs``: shell scripts standing in for
    programs, whose calls are logged. Returns (exit status, calls)."""
    test = as_list(service(name)["healthcheck"]["test"])
    assert test[0] in ("CMD", "CMD-SHELL"), test
    if test[0] == "CMD-SHELL":
        command = ["sh", "-c", " ".join(test[1:]).replace("$$", "$")]
    else:
        in_image = "/app/"
        command = [
            str(BASE_DIR / arg.removeprefix(in_image)) if arg.startswith(in_image) else arg
            for arg in test[1:]
        ]
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    log = tmp_path / "calls.log"
    log.write_text("")
    for program, body in (stubs or {}).items():
        stub = bindir / program
        stub.write_text(f'#!/bin/sh\necho "{program} $*" >> "$CALLS_LOG"\n{body}\n')
        stub.chmod(0o755)
    completed = subprocess.run(
        command,
        env={"PATH": f"{bindir}:/usr/bin:/bin", "CALLS_LOG": str(log), **(env or {})},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return completed.returncode, log.read_text().splitlines()


def test_the_postgres_healthcheck_answers_whether_the_server_accepts_connections(
    tmp_path: Path,
) -> None:
    """The check as written, against the PostgreSQL the tests use and against a closed port."""
    require_service("PostgreSQL", "127.0.0.1", 5432)
    env = {"POSTGRES_USER": "postgres", "POSTGRES_DB": "postgres", "PGHOST": "127.0.0.1"}
    assert run_healthcheck("postgres", tmp_path, env={**env, "PGPORT": "5432"})[0] == 0
    assert run_healthcheck("postgres", tmp_path, env={**env, "PGPORT": "9"})[0] != 0


@pytest.mark.parametrize(
    ("answer", "healthy"),
    [
        ("PONG", True),
        ("LOADING Redis is loading the dataset in memory", False),
        ("Could not connect to Redis at 127.0.0.1:6379: Connection refused", False),
    ],
)
def test_the_redis_healthcheck_is_healthy_only_on_pong(
    tmp_path: Path, answer: str, healthy: bool
) -> None:
    # redis-cli exits 0 for a reply that is an error (LOADING): the check reads the answer.
    status, calls = run_healthcheck("redis", tmp_path, {"redis-cli": f'echo "{answer}"'})
    assert calls == ["redis-cli ping"]
    assert (status == 0) is healthy


def test_the_redis_healthcheck_against_the_tests_redis(tmp_path: Path, redis_url: str) -> None:
    parts = urlsplit(redis_url)
    if (parts.hostname, parts.port or 6379) != ("127.0.0.1", 6379):
        pytest.skip("the compose check asks redis-cli's default server, 127.0.0.1:6379")
    assert run_healthcheck("redis", tmp_path)[0] == 0


def test_web_healthcheck_requests_health() -> None:
    test = as_list(service("web")["healthcheck"]["test"])
    assert test[-1].endswith("docker/healthcheck.py")
    assert script_path([test[-1]]).read_text().count("/health/") >= 1
    # The image's own HEALTHCHECK is the same script (used when run without compose).
    assert any("docker/healthcheck.py" in args for args in dockerfile_args("HEALTHCHECK"))


@pytest.mark.parametrize(("name", "node"), [("worker", "celery"), ("beat", "celerybeat")])
def test_celery_healthchecks_ping_their_own_node(tmp_path: Path, name: str, node: str) -> None:
    """The node pinged is this container's (its HOSTNAME when the check runs, not one Compose
    substituted on the host), and the check fails when no node answers."""
    env = {"HOSTNAME": "c0ffee", "TMPDIR": str(tmp_path)}
    status, calls = run_healthcheck(name, tmp_path, {"celery": "exit 0"}, env)
    assert status == 0
    (call,) = calls
    arguments = call.split()
    assert arguments[:4] == ["celery", "--app=config", "inspect", "ping"]
    assert f"--destination={node}@c0ffee" in arguments
    for stamp in tmp_path.glob("tnc-health-*"):
        stamp.unlink()
    status, _ = run_healthcheck(name, tmp_path, {"celery": "exit 1"}, env)
    assert status != 0


def test_the_celery_healthcheck_pings_once_a_minute_and_at_once_after_a_failure(
    tmp_path: Path,
) -> None:
    """Checked every few seconds, it runs the ping (a second of CPU) only when the last one
    that answered is older than TNC_HEALTH_PING_SECONDS; a failed ping forgets the answer."""
    env = {"HOSTNAME": "c0ffee", "TMPDIR": str(tmp_path)}
    answers = {"celery": "exit 0"}

    def pings() -> tuple[int, int]:
        status, calls = run_healthcheck("worker", tmp_path, answers, env)
        return status, len(calls)

    assert pings() == (0, 1)
    assert pings() == (0, 0)  # answered a moment ago: no ping
    stamp = tmp_path / "tnc-health-celery"
    old = stamp.stat().st_mtime - 61
    os.utime(stamp, (old, old))
    assert pings() == (0, 1)  # a minute old: pinged again
    answers["celery"] = "exit 1"
    os.utime(stamp, (old, old))
    assert pings() == (1, 1)
    assert not stamp.exists()
    assert pings() == (1, 1)  # still failing: pinged at every check


def earliest_healthy() -> dict[str, float]:
    """For each service, the soonest (seconds after `docker compose up` starts the first
    container) it can report healthy: Docker runs the first check one ``interval`` after the
    container starts, and Compose starts a container only once its dependencies are healthy
    (service_healthy) or have exited (service_completed_successfully). Each service starting
    and answering at once; what the compose file alone makes anyone wait."""
    done: dict[str, float] = {}

    def soonest(name: str) -> float:
        if name not in done:
            svc = service(name)
            after = max((soonest(dep) for dep in svc.get("depends_on") or {}), default=0.0)
            check = svc.get("healthcheck") or {}
            done[name] = after + (0.0 if check.get("disable") else seconds(check["interval"]))
        return done[name]

    for name in SERVICES:
        soonest(name)
    return done


def test_worker_and_beat_report_healthy_within_seconds() -> None:
    """A healthcheck that runs once a minute leaves a container "starting" for a minute, and
    every service waiting for it (depends_on service_healthy, `up --wait`) waits as long."""
    soonest = earliest_healthy()
    for name in ("worker", "beat", "web"):
        assert soonest[name] <= 20, f"{name} cannot be healthy before {soonest[name]:.0f} s"


def test_worker_and_beat_start_once_the_database_is_migrated() -> None:
    """Not after web (which they do not need): once migrate has exited successfully, so that no
    task meets an old schema."""
    for name in ("worker", "beat", "web"):
        depends = service(name)["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name


def test_beat_runs_exactly_once() -> None:
    beat = service("beat")
    assert beat.get("deploy", {}).get("replicas") == 1
    assert beat.get("deploy", {}).get("mode", "replicated") == "replicated"
    assert beat.get("scale", 1) == 1
    assert "beat" in as_list(beat["command"])
    # ... and no other service schedules: a worker started with -B/--beat embeds a beat.
    for name in SERVICES:
        if name != "beat":
            command = as_list(service(name).get("command", []))
            assert "beat" not in command and "-B" not in command and "--beat" not in command


def test_beat_enables_remote_control_for_its_healthcheck() -> None:
    assert "--enable-remote-control" in as_list(service("beat")["command"])


def test_worker_runs_a_celery_worker() -> None:
    command = as_list(service("worker")["command"])
    assert command[0] == "celery" and "worker" in command
    assert "--app=config" in command or ("-A" in command and "config" in command)


def test_postgres_data_is_a_named_volume_declared_at_the_top_level() -> None:
    mounts = [as_volume(v) for v in service("postgres").get("volumes", [])]
    sources = [source for source, target in mounts if target == "/var/lib/postgresql/data"]
    assert sources, "postgres keeps its data nowhere: no volume at /var/lib/postgresql/data"
    source = sources[0]
    assert not source.startswith(("/", ".", "~")), f"{source} is a bind mount, not a volume"
    assert source in (compose().get("volumes") or {}), f"volume {source} is not declared"


def as_volume(volume: str | dict[str, Any]) -> tuple[str, str]:
    if isinstance(volume, dict):
        return str(volume.get("source", "")), str(volume["target"])
    source, _, rest = volume.partition(":")
    return source, rest.partition(":")[0]


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_read_the_env_file_and_wait_for_healthy_services(name: str) -> None:
    svc = service(name)
    assert ".env" in env_files_of(name), f"{name} does not read .env"
    depends = svc.get("depends_on")
    assert isinstance(depends, dict), f"{name}: depends_on needs conditions (long syntax)"
    for needed in ("postgres", "redis"):
        assert depends.get(needed, {}).get("condition") == "service_healthy", (name, needed)
    assert svc.get("image"), name


@pytest.mark.parametrize("name", [*APP_SERVICES, "redis"])
def test_no_application_container_receives_the_owners_secret(name: str) -> None:
    """Whatever runs as the app user in web, worker or beat (a bug, an attacker), and any
    `docker compose exec` shell there, finds no password that connects as the owner, who may
    switch the event log's guard off (docs/operations.md, "The database roles")."""
    held = sorted(set(environment_of(name)) & set(OWNER_SECRETS))
    assert not held, f"{name} receives {held} ({env_files_of(name)})"
    assert ".env.owner" not in env_files_of(name)


def test_the_owners_secrets_are_in_a_file_of_their_own() -> None:
    """.env.owner holds them; .env (every application container's) none of them."""
    assert set(OWNER_SECRETS) <= set(owner_example()), sorted(owner_example())
    assert not set(OWNER_SECRETS) & set(env_example()), "the owner's secrets are in .env"
    assert "SECRET_KEY" not in owner_example()


def test_postgres_reads_only_the_owners_file() -> None:
    assert env_files_of("postgres") == [".env.owner"]
    env = environment_of("postgres")
    assert {"POSTGRES_USER", "POSTGRES_DB", "POSTGRES_PASSWORD"} <= set(env)
    assert "SECRET_KEY" not in env


def test_migrate_is_the_one_off_that_holds_the_owners_url() -> None:
    """It runs the entrypoint's `migrate` on every `up` and exits (no restart, no
    healthcheck); the only service of the image that reads .env.owner."""
    migrate = service("migrate")
    assert env_files_of("migrate") == [".env", ".env.owner"]
    assert as_list(migrate["command"]) == ["migrate"]
    assert str(migrate.get("restart", "no")) == "no"
    assert migrate["healthcheck"].get("disable") is True
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    readers = [name for name in SERVICES if ".env.owner" in env_files_of(name)]
    assert sorted(readers) == ["migrate", "postgres"], readers


def test_the_image_is_built_once() -> None:
    """One service builds it; every other service of the image names it. With `build:` in each,
    `docker compose build` (and `up` on a new machine) builds the same image once per service."""
    builders = [name for name in SERVICES if "build" in service(name)]
    assert builders == ["web"], builders
    images = {service(name).get("image") for name in IMAGE_SERVICES}
    assert len(images) == 1 and None not in images, images


def test_app_services_run_the_same_image() -> None:
    images = {service(name).get("image") for name in APP_SERVICES}
    assert len(images) == 1 and None not in images, images


def test_only_web_publishes_a_port_and_it_is_8000() -> None:
    for name in SERVICES:
        ports = service(name).get("ports", [])
        if name == "web":
            assert ports and all(str(p).endswith(":8000") for p in ports), ports
        else:
            assert not ports, f"{name} publishes {ports}: only the web port should be reachable"


def test_compose_variables_are_all_in_env_example() -> None:
    """Every ${NAME} the compose file interpolates is documented in .env.example, and no bare
    $NAME is left for Compose to substitute by mistake ($$ is a literal dollar)."""
    text = (BASE_DIR / "docker-compose.yml").read_text()
    without_literals = text.replace("$$", "")
    names = set(re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)", without_literals))
    assert names, "expected ${...} in docker-compose.yml"
    assert names <= set(env_example()), f"not in .env.example: {sorted(names - set(env_example()))}"
    # Compose reads .env for ${...}, never .env.owner.
    assert not names & set(owner_example()), sorted(names & set(owner_example()))
    bare = re.findall(r"\$(?!\{)[A-Za-z_]\w*", without_literals)
    assert not bare, f"bare variables Compose would substitute: {bare}"


# --- The entrypoint: migrate (its own service), collectstatic, then the server -------------


def run_entrypoint(
    tmp_path: Path, *command: str, fail: str = "", env: dict[str, str] | None = None
) -> tuple[int, list[str], str]:
    """Run the image's entrypoint script with stand-ins for python, gunicorn and celery that log
    their arguments and the database variables they were given (and fail when their arguments
    contain ``fail``). (exit status, calls, standard error)."""
    entrypoint, _ = web_process()
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    log = tmp_path / "calls.log"
    log.write_text("")
    for program in ("python", "gunicorn", "celery"):
        stub = bindir / program
        stub.write_text(
            "#!/bin/sh\n"
            f'echo "{program} $* | url=${{DATABASE_URL:-none}} owner=${{DATABASE_OWNER_URL:-none}}'
            ' password=${POSTGRES_PASSWORD:-none}" >> "$CALLS_LOG"\n'
            'if [ -n "$FAIL_ON" ]; then case "$*" in *"$FAIL_ON"*) exit 3;; esac; fi\n'
        )
        stub.chmod(0o755)
    completed = subprocess.run(
        ["sh", str(script_path(entrypoint)), *command],
        env={"PATH": f"{bindir}:/usr/bin:/bin", "CALLS_LOG": str(log), "FAIL_ON": fail}
        | (env or {}),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return completed.returncode, log.read_text().splitlines(), completed.stderr


APP = {"DATABASE_URL": "app"}
"""What web, worker and beat get (.env)."""
OWNER = {"DATABASE_URL": "app", "DATABASE_OWNER_URL": "owner", "POSTGRES_PASSWORD": "secret"}
"""What the migrate service gets (.env and .env.owner)."""


def calls_of(calls: list[str]) -> list[str]:
    """The commands, without the variables they were given."""
    return [call.split(" | ")[0] for call in calls]


def test_web_collects_static_then_starts_gunicorn_as_the_app_role(tmp_path: Path) -> None:
    _, command = web_process()
    assert command[:2] == ["gunicorn", "config.wsgi:application"], command
    status, calls, _ = run_entrypoint(tmp_path, *command, env=APP)
    assert status == 0
    assert calls_of(calls) == [
        "python /app/manage.py collectstatic --noinput --verbosity 0",
        " ".join(command),
    ]
    assert calls[-1].endswith("| url=app owner=none password=none")


def test_web_does_not_start_when_collectstatic_fails(tmp_path: Path) -> None:
    _, command = web_process()
    status, calls, _ = run_entrypoint(tmp_path, *command, fail="collectstatic", env=APP)
    assert status != 0
    assert not any(c.startswith("gunicorn") for c in calls)


@pytest.mark.parametrize("name", ["worker", "beat"])
def test_worker_and_beat_start_as_given(tmp_path: Path, name: str) -> None:
    command = as_list(service(name)["command"])
    status, calls, _ = run_entrypoint(tmp_path, *command, env=APP)
    assert status == 0
    assert calls == [f"{' '.join(command)} | url=app owner=none password=none"]


@pytest.mark.parametrize("name", APP_SERVICES)
@pytest.mark.parametrize("secret", OWNER_SECRETS)
def test_the_servers_refuse_to_start_holding_the_owners_secret(
    tmp_path: Path, name: str, secret: str
) -> None:
    """An .env from before .env.owner (or the owner's variables copied into .env): the server
    does not start, and says which variable to move where, rather than run with it in every
    `docker compose exec` shell."""
    command = as_list(service(name).get("command") or exec_form(dockerfile_args("CMD")[-1]))
    status, calls, stderr = run_entrypoint(tmp_path, *command, env={**APP, secret: "x"})
    assert status == 2 and calls == []
    assert secret in stderr and ".env.owner" in stderr, stderr


def test_a_one_off_command_runs_as_the_app_role_without_the_owners_secret(tmp_path: Path) -> None:
    status, calls, _ = run_entrypoint(tmp_path, "python", "manage.py", "x", env=OWNER)
    assert status == 0
    assert calls == ["python manage.py x | url=app owner=none password=none"]


def test_the_migrate_service_migrates_as_the_owner(tmp_path: Path) -> None:
    command = as_list(service("migrate")["command"])
    status, calls, _ = run_entrypoint(tmp_path, *command, env=OWNER)
    assert status == 0
    # docker/migrate.py connects with DATABASE_OWNER_URL, and creates the role of DATABASE_URL.
    assert calls_of(calls) == ["python /app/docker/migrate.py --noinput"]
    assert "url=app owner=owner" in calls[0]


def test_as_owner_runs_a_maintenance_command_as_the_owner(tmp_path: Path) -> None:
    status, calls, _ = run_entrypoint(tmp_path, "as-owner", "python", "manage.py", "x", env=OWNER)
    assert status == 0
    assert calls_of(calls) == ["python manage.py x"]
    assert "url=owner owner=owner" in calls[0]
    # In web (no owner's URL): refused, naming the service that has it.
    status, calls, stderr = run_entrypoint(tmp_path, "as-owner", "python", "x", env=APP)
    assert status == 2 and calls == []
    assert "docker compose run --rm migrate as-owner python x" in stderr, stderr


@pytest.mark.postgres
def test_migrate_as_the_owner_creates_and_grants_the_app_role(committed_db: None) -> None:
    """docker/migrate.py with DATABASE_OWNER_URL migrates as the owner, then creates the role
    of DATABASE_URL (with its password) and grants it the app's privileges; again on every
    start, without creating it twice."""
    import uuid

    import psycopg
    from django.db import connection

    from tests.tournaments.worker_helpers import database_url_for

    db = connection.settings_dict
    role = f"tnc_test_app_{uuid.uuid4().hex[:12]}"
    app_url = f"postgres://{role}:not-a-secret@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = _env_without_settings(
        DATABASE_OWNER_URL=database_url_for(db),
        DATABASE_URL=app_url,
        DJANGO_SETTINGS_MODULE="config.settings.base",
    )

    def migrate() -> str:
        done = subprocess.run(
            [sys.executable, "docker/migrate.py", "--noinput"],
            cwd=BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    try:
        assert f"app role {role} created and granted" in migrate()
        assert f"app role {role} granted" in migrate()
        with psycopg.connect(app_url, autocommit=True) as app:
            assert app.execute("SELECT current_user").fetchone() == (role,)
            app.execute(
                "INSERT INTO games_stream (id, kind, created_at) VALUES (%s, 'game', now())",
                [uuid.uuid4()],
            )
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute("UPDATE games_stream SET kind = 'tournament'")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute("ALTER TABLE games_event DISABLE TRIGGER ALL")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_roles WHERE rolname = %s", [role])
            if cursor.fetchone() == (1,):
                cursor.execute(f'DROP OWNED BY "{role}"')
                cursor.execute(f'DROP ROLE "{role}"')


@pytest.mark.postgres
@pytest.mark.django_db
def test_migrate_waits_while_another_container_migrates() -> None:
    """docker/migrate.py waits for the advisory lock another web container would hold while
    migrating, then migrates (here: finds nothing to apply in the test database)."""
    import psycopg
    from django.db import connection

    from tests.tournaments.worker_helpers import database_url_for

    url = database_url_for(connection.settings_dict)
    lock = load_script("migrate").MIGRATE_LOCK
    with psycopg.connect(url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", [lock])
        migrate = subprocess.Popen(
            [sys.executable, "docker/migrate.py", "--noinput"],
            cwd=BASE_DIR,
            env=_env_without_settings(
                DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings.base"
            ),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            waiting = 0
            for _ in range(300):  # up to 30 s for the process to start and ask for the lock
                row = holder.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                    "AND database = (SELECT oid FROM pg_database WHERE datname = "
                    "current_database())"
                ).fetchone()
                waiting = row[0] if row else 0
                if waiting or migrate.poll() is not None:
                    break
                threading.Event().wait(0.1)
            assert waiting == 1, "migrate.py did not wait for the lock"
            assert migrate.poll() is None
        finally:
            holder.execute("SELECT pg_advisory_unlock(%s)", [lock])
    output, _ = migrate.communicate(timeout=120)
    assert migrate.returncode == 0, output
    assert "No migrations to apply" in output


# --- docker/backup.sh (run on the host, by cron) ---------------------------------------------


def run_backup(tmp_path: Path, fail: str = "") -> tuple[int, Path]:
    """docker/backup.sh with a stand-in for docker that prints its arguments (and fails when
    they contain ``fail``)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    stub = bindir / "docker"
    stub.write_text(
        "#!/bin/sh\n"
        'echo "docker $*"\n'
        'if [ -n "$FAIL_ON" ]; then case "$*" in *"$FAIL_ON"*) exit 3;; esac; fi\n'
    )
    stub.chmod(0o755)
    out = tmp_path / "backups"
    completed = subprocess.run(
        ["sh", str(BASE_DIR / "docker" / "backup.sh"), str(out)],
        env={"PATH": f"{bindir}:/usr/bin:/bin", "FAIL_ON": fail},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return completed.returncode, out


def test_backup_writes_the_log_the_users_a_digest_and_a_database_dump(tmp_path: Path) -> None:
    status, out = run_backup(tmp_path)
    assert status == 0
    files = {path.name.split("-", 1)[0]: path for path in out.iterdir()}
    assert set(files) == {"events", "users", "digest", "db"}, sorted(out.iterdir())
    assert "exec -T web python manage.py export_events" in files["events"].read_text()
    assert "dumpdata auth.group auth.user --natural-foreign" in files["users"].read_text()
    assert "projections_digest" in files["digest"].read_text()
    assert "exec -T postgres" in files["db"].read_text() and "pg_dump" in files["db"].read_text()


def test_backup_stops_at_a_failure_and_leaves_no_partial_file(tmp_path: Path) -> None:
    status, out = run_backup(tmp_path, fail="projections_digest")
    assert status != 0
    names = sorted(path.name.split("-", 1)[0] for path in out.iterdir())
    assert names == ["events", "users"], names  # written before the failure; nothing after


# --- .env.example --------------------------------------------------------------------------


def test_every_variable_the_settings_read_is_in_env_example_or_has_a_default() -> None:
    example = env_example()
    missing = sorted(
        name
        for name, has_default in settings_env_reads().items()
        if not has_default and name not in example
    )
    assert not missing, f"required by the settings, missing from .env.example: {missing}"


@pytest.mark.parametrize("example", [".env.example", ".env.owner.example"])
def test_every_variable_in_the_env_examples_is_used(example: str) -> None:
    """A misspelt name would be silently ignored: each one is read by the settings, by
    docker-compose.yml, or by a process named in READ_ELSEWHERE."""
    compose_text = (BASE_DIR / "docker-compose.yml").read_text()
    unused = sorted(
        name
        for name in env_file(BASE_DIR / example)
        if name not in settings_env_reads()
        and "${" + name not in compose_text
        and name not in READ_ELSEWHERE
    )
    assert not unused, f"in {example} but read by nothing: {unused}"


def test_env_example_selects_the_production_settings() -> None:
    assert env_example()["DJANGO_SETTINGS_MODULE"] == "config.settings.production"


def test_env_examples_hold_no_secret() -> None:
    example, owner = env_example(), owner_example()
    assert example["SECRET_KEY"] == "", "SECRET_KEY must be left empty: each site generates one"
    assert owner["POSTGRES_PASSWORD"] == "", "POSTGRES_PASSWORD must be left empty"
    assert "secrets.token_urlsafe" in (BASE_DIR / ".env.example").read_text()
    assert "secrets.token_hex" in (BASE_DIR / ".env.owner.example").read_text()
    for values in (example, owner):
        assert not any("$" in value for value in values.values()), "Compose would interpolate $"


def test_the_env_files_stay_out_of_git_and_the_image() -> None:
    ignored = (BASE_DIR / ".gitignore").read_text().splitlines()
    assert ".env" in ignored and ".env.owner" in ignored
    docker_ignored = (BASE_DIR / ".dockerignore").read_text().splitlines()
    assert ".env" in docker_ignored and ".env.*" in docker_ignored


def test_env_example_points_at_the_compose_services() -> None:
    example, owners = env_example(), owner_example()
    owner = urlsplit(owners["DATABASE_OWNER_URL"])
    database = urlsplit(example["DATABASE_URL"])
    for url in (owner, database):
        assert url.scheme in ("postgres", "postgresql")
        assert (url.hostname, url.port) == ("postgres", 5432)
        assert url.path.lstrip("/") == owners["POSTGRES_DB"]
    # migrate as the image's user (it owns the tables); the processes as a role of their own,
    # which cannot switch the event log's guard off.
    assert owner.username == owners["POSTGRES_USER"]
    assert database.username != owners["POSTGRES_USER"]
    assert database.password and database.password != owner.password
    broker = urlsplit(example["CELERY_BROKER_URL"])
    assert (broker.scheme, broker.hostname, broker.port) == ("redis", "redis", 6379)
    if "CACHE_URL" in example:  # a shared cache, in another Redis database than the queue
        cache = urlsplit(example["CACHE_URL"])
        assert (cache.scheme, cache.hostname) == ("redis", "redis")
        assert cache.path != broker.path
    # The healthcheck sends the first allowed host: it must be a real name.
    assert example["ALLOWED_HOSTS"].split(",")[0].strip() not in ("", "*")


def _env_without_settings(**extra: str) -> dict[str, str]:
    """The machine's environment without anything the settings (or .env.example) name, plus
    ``extra``: what a subprocess sees cannot depend on the developer's own variables."""
    # DJANGO_ALLOW_ASYNC_UNSAFE: the browser tests' session fixture sets it in this process
    # (Playwright's event loop); a deployment never has it, and check --deploy refuses it.
    drop = set(settings_env_reads()) | set(env_example()) | set(owner_example())
    drop.add("DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(extra)
    return env


def _env_for_subprocess() -> dict[str, str]:
    """.env.example's values, with a generated SECRET_KEY."""
    return _env_without_settings(**{**env_example(), "SECRET_KEY": secrets.token_urlsafe(50)})


def test_production_settings_with_env_example_pass_check_deploy() -> None:
    completed = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=_env_for_subprocess(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "System check identified no issues (0 silenced)" in completed.stdout


_SHOW_SETTINGS = """
import json
import django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "debug": settings.DEBUG,
    "engine": db["ENGINE"], "host": db["HOST"], "port": db["PORT"], "name": db["NAME"],
    "broker": settings.CELERY_BROKER_URL, "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "proxy_header": settings.SECURE_PROXY_SSL_HEADER,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "log_format": settings.LOGGING["handlers"]["console"]["formatter"],
    "cache": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
}))
"""


def test_production_settings_with_env_example_use_the_compose_services() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", _SHOW_SETTINGS],
        cwd=BASE_DIR,
        env=_env_for_subprocess(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result == {
        "debug": False,
        "engine": "django.db.backends.postgresql",
        "host": "postgres",
        "port": 5432,
        "name": "trick_n_chef",
        "broker": "redis://redis:6379/0",
        "eager": False,
        "proxy_header": ["HTTP_X_FORWARDED_PROTO", "https"],
        "ssl_redirect": True,
        "log_format": "json",
        # Each process's own memory, unless the settings read CACHE_URL (and .env.example sets it).
        "cache": "RedisCache" if "CACHE_URL" in settings_env_reads() else "LocMemCache",
    }


# --- Dockerfile and .dockerignore ----------------------------------------------------------


def test_dockerfile_builds_on_slim_python_3_11() -> None:
    bases = dockerfile_args("FROM")
    assert bases, "no FROM"
    image = bases[-1].split()[0]  # the final stage
    assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?(@sha256:[0-9a-f]+)?", image), image


def test_dockerfile_runs_as_a_non_root_user() -> None:
    users = dockerfile_args("USER")
    assert users, "no USER: the processes would run as root"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0")
    created = " ".join(dockerfile_args("RUN"))
    assert re.search(rf"(useradd|adduser)\b[^&;]*\b{re.escape(user)}\b", created), created
    # The switch comes after the last RUN: nothing runs as root after it.
    kinds = [kw for kw, _ in dockerfile()]
    last = {kind: max(i for i, k in enumerate(kinds) if k == kind) for kind in ("USER", "RUN")}
    assert last["USER"] > last["RUN"]


def test_dockerfile_installs_with_the_pinned_constraints_and_no_extras() -> None:
    installs = [args for args in dockerfile_args("RUN") if "pip install" in args]
    assert installs
    for args in installs:
        assert "-c constraints.txt" in args, args
        assert not re.search(r"pip install[^&;]*\.\[", args), f"extras installed: {args}"


def image_env() -> dict[str, str]:
    """The environment the Dockerfile's ENV instructions set."""
    env: dict[str, str] = {}
    for arguments in dockerfile_args("ENV"):
        for pair in shlex.split(arguments):
            name, _, value = pair.partition("=")
            env[name] = value
    return env


GUNICORN_CONFIG = """
import json, sys
from gunicorn.app.wsgiapp import WSGIApplication

sys.argv = sys.argv[1:]
app = WSGIApplication()  # reads the command line, the environment and any gunicorn.conf.py
cfg = app.cfg
print(json.dumps({"app": app.app_uri, "bind": cfg.bind, "workers": cfg.workers,
                  "threads": cfg.threads, "worker_class": cfg.worker_class_str,
                  "accesslog": cfg.accesslog, "errorlog": cfg.errorlog}))
"""


def test_the_image_serves_the_wsgi_app_on_8000_with_its_workers_logging_to_stdout() -> None:
    """What gunicorn itself makes of the image's command and environment (run from the
    repository, as the image runs from /app, so a gunicorn.conf.py there would count too)."""
    assert "8000" in " ".join(dockerfile_args("EXPOSE"))
    assert dockerfile_args("HEALTHCHECK"), "no HEALTHCHECK"
    command = exec_form(dockerfile_args("CMD")[-1])
    assert command[0] == "gunicorn"
    env = {"PATH": os.environ["PATH"], **image_env()}
    assert env.get("DJANGO_SETTINGS_MODULE") == "config.settings.production"

    def served(env: dict[str, str]) -> dict[str, Any]:
        completed = subprocess.run(
            [sys.executable, "-c", GUNICORN_CONFIG, *command],
            env=env,
            cwd=BASE_DIR,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        result = json.loads(completed.stdout)
        assert isinstance(result, dict)
        return result

    assert served(env) == {
        "app": "config.wsgi:application",
        "bind": ["0.0.0.0:8000"],
        # Threads: the seats' phones poll twice a second and wait on the database in between
        # (issue 12's load test chose 3 x 2 on two cores: benchmarks/phones.py).
        "workers": 3,
        "threads": 2,
        "worker_class": "gthread",
        "accesslog": "-",
        "errorlog": "-",
    }
    # The number of workers is WEB_CONCURRENCY's, which a deployment's .env may change.
    assert served({**env, "WEB_CONCURRENCY": "5"})["workers"] == 5


def test_dockerignore_keeps_local_state_and_secrets_out_of_the_image() -> None:
    lines = {
        line.strip().rstrip("/")
        for line in (BASE_DIR / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    for excluded in (".venv", "var", "test-output", ".env", ".git"):
        assert excluded in lines, f".dockerignore does not exclude {excluded}"


# --- docker/healthcheck.py ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("allowed_hosts", "host"),
    [
        ("tnc.example.org", "tnc.example.org"),
        ("tnc.example.org,localhost", "tnc.example.org"),
        (" .example.org , other", "example.org"),
        ("*", "localhost"),
        ("", "localhost"),
    ],
)
def test_healthcheck_sends_the_first_allowed_host(allowed_hosts: str, host: str) -> None:
    assert load_script("healthcheck").host_header(allowed_hosts) == host


class _Health(BaseHTTPRequestHandler):
    answers: dict[str, tuple[int, str]] = {}
    hosts: list[str] = []

    def do_GET(self) -> None:  # the name http.server calls
        self.hosts.append(self.headers.get("Host", ""))
        status, body = self.answers.get(self.path, (404, "{}"))
        self.send_response(status)
        if 300 <= status < 400:
            self.send_header("Location", "https://tnc.example.org" + self.path)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def health_server() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Health)
    _Health.hosts = []
    _Health.answers = {
        "/ok/": (200, '{"status": "ok"}'),
        "/down/": (503, '{"status": "error", "database": "error: OperationalError"}'),
        "/moved/": (301, ""),
    }
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_healthcheck_against_a_server(health_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A proxy in the environment must not be used for the container's own address.
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    check = load_script("healthcheck").check

    healthy, report = check(f"{health_server}/ok/", "tnc.example.org,localhost")
    assert healthy and report.startswith("200")
    assert _Health.hosts == ["tnc.example.org"]

    healthy, report = check(f"{health_server}/down/", "tnc.example.org")
    assert not healthy and report.startswith("503") and "OperationalError" in report

    healthy, report = check(f"{health_server}/moved/", "tnc.example.org")
    assert not healthy and report.startswith("301") and "redirected" in report
    assert len(_Health.hosts) == 3, "a redirect must not be followed"

    server_gone = health_server.rsplit(":", 1)[0] + ":9"
    healthy, report = check(f"{server_gone}/health/", "tnc.example.org")
    assert not healthy and report.startswith("no answer")
