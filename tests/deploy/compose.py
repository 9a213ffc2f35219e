"""docker-compose.yml run for real, for tests/deploy/test_compose.py: a deployment directory of
the test's own, as an administrator makes one, and the ``docker compose`` commands on it.

The directory holds a copy of the repository's docker-compose.yml and docker/backup.sh, the two
env files made from .env.example and .env.owner.example (generated secrets, a free loopback
port for web), and a ``docker-compose.override.yml`` that Compose reads by itself: the project's
name (so nothing here meets another project's containers, volumes or network), the image's name
(the test's own, removed afterwards) and its build (the repository as the context, the host's
network, which pip needs to reach PyPI on machines without a registry mirror).
:func:`deployment` takes everything down on the way out (containers, network, volumes, the
image and what its build left untagged), whatever happened, and prints the services' logs when
the test fails. The build's images stay under the tags of :data:`BUILD_CACHE` (one of each per
machine, the last run's, the one before removed), so that the next run's build reuses their
layers, as an administrator's second ``docker compose build`` does: the Docker engine's classic
builder keeps its cache in the images' layers, and removing the image removed them, so every run
downloaded and installed the dependencies (pip) and gettext (apt) again, about a minute.

Without a Docker engine (``docker info`` fails) or its Compose plugin, the test is skipped with
the reason, or fails under ``TNC_REQUIRE_SERVICES=1`` (tests/services.py).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.services import REQUIRE_SERVICES_VAR, services_required

from .stack import free_port

BASE_DIR = Path(__file__).resolve().parent.parent.parent
APP_SERVICES = ("web", "worker", "beat")
"""The long-running processes of the application: they must never hold the owner's secret."""
IMAGE_SERVICES = ("migrate", "web", "worker", "beat")
"""The services that run the project's image."""
UP_TIMEOUT = 600.0
"""Seconds `docker compose up --wait` may take: the image's build (pip from PyPI when nothing is
cached), then every service healthy."""
COMMAND_TIMEOUT = 180.0
"""Seconds any other docker command may take."""
OWNER_SECRETS = ("POSTGRES_PASSWORD", "DATABASE_OWNER_URL")
BUILD_CACHE = ("tnc-test-build-cache:app", "tnc-test-build-cache:catalogues")
"""The last build's image and its first stage (the translations'), kept for the next build's
cache: the layers of the dependencies (pip) and of gettext (apt) are built again only when
pyproject.toml, constraints.txt or the Dockerfile's lines before them change."""

_COMPOSE_CONTROLS = re.compile(r"^(COMPOSE_|DOCKER_BUILDKIT$|BUILDKIT_)")
"""The test's own environment must not choose other compose files, project or env files."""


def docker_problem() -> str | None:
    """Why no compose stack can run here, or None."""
    if shutil.which("docker") is None:
        return "there is no docker command"
    try:
        info = _run(["docker", "info", "--format", "{{.ServerVersion}}"], timeout=30)
        if info.returncode != 0:
            detail = (info.stderr or info.stdout).strip().splitlines()
            return f"no Docker engine answers (docker info: {detail[-1] if detail else '?'})"
        version = _run(["docker", "compose", "version", "--short"], timeout=30)
    except subprocess.TimeoutExpired:
        return "docker info did not answer within 30 s"
    if version.returncode != 0:
        return "docker has no Compose plugin (docker compose version failed)"
    return None


def require_docker() -> None:
    """Return if a Docker engine with Compose answers; otherwise skip, or fail when required."""
    problem = docker_problem()
    if problem is None:
        return
    hint = "on the project's CI machines .ci/run starts one with ../shared/compose/ensure-docker.sh"
    if services_required():
        pytest.fail(f"{problem}; {REQUIRE_SERVICES_VAR}=1 requires it ({hint})", pytrace=False)
    pytest.skip(f"{problem}; {hint}, or set {REQUIRE_SERVICES_VAR}=1 to fail instead")


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not _COMPOSE_CONTROLS.match(k)}


def _run(
    command: list[str],
    *,
    cwd: Path | None = None,
    input: str | None = None,
    timeout: float = COMMAND_TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        env=_environment(),
        input=input,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def fill_env_file(example: str, values: Mapping[str, str]) -> str:
    """An example env file with the ``NAME=value`` lines of ``values`` replaced (each must be
    there: a renamed variable fails here, not as a stack that does not start)."""
    missing = set(values)

    def replace(match: re.Match[str]) -> str:
        name = match[1]
        if name not in values:
            return match[0]
        missing.discard(name)
        return f"{name}={values[name]}"

    filled = re.sub(r"(?m)^([A-Z][A-Z0-9_]*)=.*$", replace, example)
    assert not missing, f"not in the example env file: {sorted(missing)}"
    return filled


@dataclass
class Deployment:
    """One compose project in its own directory."""

    directory: Path
    project: str
    image: str
    port: int
    owner_password: str
    owner_url: str
    app_url: str

    @classmethod
    def create(cls, directory: Path) -> Deployment:
        project = f"tnc-test-{secrets.token_hex(4)}"
        port = free_port()
        password, app_password = secrets.token_hex(32), secrets.token_hex(32)
        owner_url = f"postgres://trick_n_chef:{password}@postgres:5432/trick_n_chef"
        app_url = f"postgres://trick_n_chef_app:{app_password}@postgres:5432/trick_n_chef"
        site = f"https://127.0.0.1:{port}"
        (directory / "docker").mkdir(parents=True)
        shutil.copy(BASE_DIR / "docker-compose.yml", directory / "docker-compose.yml")
        shutil.copy(BASE_DIR / "docker" / "backup.sh", directory / "docker" / "backup.sh")
        env = fill_env_file(
            (BASE_DIR / ".env.example").read_text(),
            {
                "SECRET_KEY": secrets.token_urlsafe(50),
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "PUBLIC_URL": site,
                "CSRF_TRUSTED_ORIGINS": site,
                "DATABASE_URL": app_url,
                "WEB_CONCURRENCY": "2",
                "WEB_PORT": f"127.0.0.1:{port}",
            },
        )
        owner = fill_env_file(
            (BASE_DIR / ".env.owner.example").read_text(),
            {"POSTGRES_PASSWORD": password, "DATABASE_OWNER_URL": owner_url},
        )
        for name, text in ((".env", env), (".env.owner", owner)):
            (directory / name).write_text(text)
            (directory / name).chmod(0o600)
        image = f"{project}-app:latest"
        services: dict[str, dict[str, object]] = {name: {"image": image} for name in IMAGE_SERVICES}
        services["web"]["build"] = {"context": str(BASE_DIR), "network": "host"}
        override = {"name": project, "services": services}
        # JSON is YAML: the override Compose reads beside docker-compose.yml.
        (directory / "docker-compose.override.yml").write_text(json.dumps(override, indent=1))
        return cls(directory, project, image, port, password, owner_url, app_url)

    def run(
        self, *command: str, input: str | None = None, timeout: float = COMMAND_TIMEOUT
    ) -> subprocess.CompletedProcess[str]:
        """A command in the deployment's directory (as ``docker/backup.sh`` or an admin runs
        ``docker compose`` there)."""
        return _run(list(command), cwd=self.directory, input=input, timeout=timeout)

    def compose(
        self, *args: str, input: str | None = None, timeout: float = COMMAND_TIMEOUT
    ) -> str:
        """``docker compose ARGS``; its output. Fails with the output if it fails."""
        done = self.run("docker", "compose", *args, input=input, timeout=timeout)
        assert done.returncode == 0, (
            f"docker compose {' '.join(args)} failed ({done.returncode}):\n"
            f"{done.stdout}{done.stderr}"
        )
        return done.stdout

    def up(self) -> None:
        """``docker compose up -d --wait``: builds the image if it is missing, runs migrate,
        and returns once every service is healthy (migrate: exited 0)."""
        self.compose("up", "--detach", "--wait", timeout=UP_TIMEOUT)

    def exec(self, service: str, *command: str, input: str | None = None) -> str:
        """A command in the running ``service`` container, as its user (the app's, uid 10001,
        for the image's services), without a terminal."""
        return self.compose("exec", "-T", service, *command, input=input)

    def manage(self, *args: str) -> str:
        return self.exec("web", "python", "manage.py", *args)

    def logs(self, *services: str) -> str:
        return self.compose("logs", "--no-color", *services)

    def report(self) -> str:
        status = self.run("docker", "compose", "ps", "--all")
        logs = self.run("docker", "compose", "logs", "--no-color", "--tail", "200")
        return (
            f"---- {self.project} ({self.directory}) ----\n{status.stdout}{status.stderr}"
            f"{logs.stdout}{logs.stderr}---- end of {self.project} ----"
        )

    def remove(self, dangling_before: set[str]) -> None:
        """Containers, network and volumes, then the image's tag and the build's untagged
        leftovers. The base images (python, postgres, redis) stay, and so do the build's image
        and its first stage under BUILD_CACHE's tags (those they replace, left untagged, go)."""
        self.run("docker", "compose", "down", "--volumes", "--remove-orphans", "--timeout", "10")
        stage = dangling_images() - dangling_before  # the first stage, if this run built it
        app_cache, stage_cache = BUILD_CACHE
        self.run("docker", "image", "tag", self.image, app_cache)
        if len(stage) == 1:
            self.run("docker", "image", "tag", stage.pop(), stage_cache)
        self.run("docker", "image", "rm", "--force", self.image)
        left = dangling_images() - dangling_before
        if left:
            self.run("docker", "image", "rm", *sorted(left))


def dangling_images() -> set[str]:
    done = _run(["docker", "images", "--quiet", "--no-trunc", "--filter", "dangling=true"])
    return set(done.stdout.split()) if done.returncode == 0 else set()


@contextmanager
def deployment(directory: Path) -> Iterator[Deployment]:
    """A :class:`Deployment` in ``directory`` (not started: the test runs ``up``), taken down on
    the way out, its logs printed if the block fails."""
    require_docker()
    dangling_before = dangling_images()
    found = Deployment.create(directory)
    try:
        yield found
    except BaseException as error:
        if not isinstance(error, pytest.skip.Exception):
            print(found.report())
        raise
    finally:
        found.remove(dangling_before)
