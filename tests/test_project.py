"""The project skeleton: settings, database, Celery, deployment checks, the engine boundary."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from kombu import Connection

from config import celery_app
from tests.project import BASE_DIR
from tests.project import PROJECT_ENV_VARS as _PROJECT_ENV_VARS


def run_python(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the project's Python in the repository root with a clean project environment."""
    full_env = {k: v for k, v in os.environ.items() if k not in _PROJECT_ENV_VARS}
    full_env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def settings_in_subprocess(code: str, env: dict[str, str] | None = None) -> Any:
    """Evaluate ``code`` (which sets ``result``) with fresh settings; return ``result``."""
    program = "from django.conf import settings\n" + textwrap.dedent(code)
    program += "\nimport json\nprint(json.dumps(result, default=str))\n"
    completed = run_python("-c", program, env=env)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout.strip().splitlines()[-1])


# --- Django --------------------------------------------------------------------------


def test_manage_py_check_passes() -> None:
    completed = run_python("manage.py", "check", "--fail-level", "WARNING")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "System check identified no issues" in completed.stdout


@pytest.mark.django_db
def test_migrations_are_applied_and_the_database_works(
    django_user_model: Any,
) -> None:
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []
    django_user_model.objects.create_user(username="ana", password="not-a-real-password")
    assert django_user_model.objects.get(username="ana").check_password("not-a-real-password")


@pytest.mark.django_db
def test_models_and_migrations_agree() -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_the_database_in_use_is_the_one_database_url_names() -> None:
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    assert connection.vendor == expected


def test_settings_read_database_url() -> None:
    result = settings_in_subprocess(
        "result = settings.DATABASES['default']",
        env={"DATABASE_URL": "postgres://chef:secret@db.example:6543/tnc"},
    )
    assert result["ENGINE"] == "django.db.backends.postgresql"
    assert (result["NAME"], result["USER"], result["HOST"], result["PORT"]) == (
        "tnc",
        "chef",
        "db.example",
        6543,
    )
    assert "transaction_mode" not in result.get("OPTIONS", {})


def test_default_database_is_sqlite_in_var_with_waiting_writers() -> None:
    result = settings_in_subprocess("result = settings.DATABASES['default']")
    assert result["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(result["NAME"]) == BASE_DIR / "var" / "db.sqlite3"
    assert result["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert result["OPTIONS"]["timeout"] == 20


def test_sqlite_connections_use_wal_and_a_busy_timeout(tmp_path: Path) -> None:
    result = settings_in_subprocess(
        """
        from django.db import connection
        with connection.cursor() as cursor:
            result = {}
            for pragma in ("journal_mode", "synchronous", "busy_timeout"):
                cursor.execute(f"PRAGMA {pragma}")
                result[pragma] = cursor.fetchone()[0]
        """,
        env={"DATABASE_URL": f"sqlite:///{tmp_path / 'probe.sqlite3'}"},
    )
    # synchronous: 1 is NORMAL; busy_timeout is in milliseconds.
    assert result == {"journal_mode": "wal", "synchronous": 1, "busy_timeout": 20000}


# --- Celery ----------------------------------------------------------------------------


def test_celery_runs_tasks_inline_when_no_broker_is_set(caplog: pytest.LogCaptureFixture) -> None:
    if os.environ.get("CELERY_BROKER_URL"):
        pytest.skip("CELERY_BROKER_URL is set in this environment, so tasks are not eager")
    assert settings.CELERY_TASK_ALWAYS_EAGER

    @celery_app.task(name="tests.test_project.add")
    def add(x: int, y: int) -> int:
        return x + y

    @celery_app.task(name="tests.test_project.fail")
    def fail() -> None:
        raise ValueError("raised inside the task")

    assert add.delay(2, 3).get(timeout=5) == 5
    with pytest.raises(ValueError, match="raised inside the task"):
        fail.delay()
    # What the demo printed at its start: kombu's "No hostname was supplied" and a line per
    # inline task. A new user should see only what helps them.
    noise = [r.getMessage() for r in caplog.records if r.name.startswith(("kombu", "celery"))]
    assert not [m for m in noise if "No hostname" in m or "succeeded in" in m], noise


def test_celery_uses_the_broker_url_when_set() -> None:
    result = settings_in_subprocess(
        """
        from config import celery_app
        result = [settings.CELERY_TASK_ALWAYS_EAGER, celery_app.conf.broker_url]
        """,
        env={"CELERY_BROKER_URL": "redis://127.0.0.1:6379/5"},
    )
    assert result == [False, "redis://127.0.0.1:6379/5"]


def test_redis_broker_round_trip(redis_url: str) -> None:
    queue_name = f"tnc-test-{uuid.uuid4().hex}"
    with Connection(redis_url, connect_timeout=5) as conn:
        queue = conn.SimpleQueue(queue_name)
        try:
            queue.put({"hello": "chef"})
            message = queue.get(timeout=5)
            message.ack()
            assert message.payload == {"hello": "chef"}
        finally:
            queue.queue.delete()
            queue.close()


# --- Production settings ---------------------------------------------------------------


def test_production_settings_pass_the_deployment_checks() -> None:
    completed = run_python(
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "example.org",
        },
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "System check identified no issues (0 silenced)" in completed.stdout


@pytest.mark.parametrize(
    "env",
    [
        pytest.param(
            {
                "DJANGO_SETTINGS_MODULE": "config.settings.production",
                "ALLOWED_HOSTS": "example.org",
            },
            id="production",
        ),
        pytest.param({"DEBUG": "False"}, id="base-without-debug"),
    ],
)
def test_refuses_to_start_without_secret_key(env: dict[str, str]) -> None:
    completed = run_python("manage.py", "check", env=env)
    assert completed.returncode != 0
    assert "ImproperlyConfigured" in completed.stderr
    assert "SECRET_KEY" in completed.stderr


@pytest.mark.parametrize("value", ["bogus", "text", "yaml"])
def test_refuses_an_unknown_log_format_in_one_line(value: str) -> None:
    """Only plain and json are documented (.env.example): another value is refused at start in
    one line naming both, not with logging's traceback at the first command."""
    completed = run_python("manage.py", "check", env={"LOG_FORMAT": value})
    assert completed.returncode != 0
    assert completed.stderr.strip() == (
        "ImproperlyConfigured: LOG_FORMAT must be plain or json (plain for a terminal, json for "
        f"a log collector); it is {value!r}."
    )
    assert "Traceback" not in completed.stderr


@pytest.mark.parametrize(
    ("settings_module", "value", "formatter"),
    [
        ("config.settings.base", "", "plain"),
        ("config.settings.base", "json", "json"),
        ("config.settings.production", "", "json"),
        ("config.settings.production", " Plain ", "plain"),
        ("config.settings.club", "", "plain"),
        ("config.settings.club", " JSON ", "json"),
    ],
)
def test_log_format_chooses_the_formatter(settings_module: str, value: str, formatter: str) -> None:
    env = {"DJANGO_SETTINGS_MODULE": settings_module, "SECRET_KEY": "x" * 50}
    env |= {"ALLOWED_HOSTS": "example.org"} | ({"LOG_FORMAT": value} if value else {})
    result = settings_in_subprocess(
        "result = settings.LOGGING['handlers']['console']['formatter']", env=env
    )
    assert result == formatter


# --- The cache -------------------------------------------------------------------------


def test_cache_url_names_the_redis_backend_that_survives_redis() -> None:
    """.env.example's CACHE_URL: Django's Redis backend behind config.cache's breaker, with
    Django's own options (which django-environ lowercases) back in capitals."""
    result = settings_in_subprocess(
        "result = settings.CACHES['default']",
        env={"CACHE_URL": "redis://redis:6379/1?key_prefix=tnc&timeout=60&socket_timeout=2"},
    )
    assert result == {
        "BACKEND": "config.cache.RedisCache",
        "LOCATION": "redis://redis:6379/1",
        "KEY_PREFIX": "tnc",
        "TIMEOUT": 60,
        "OPTIONS": {"socket_timeout": 2},
    }
    assert settings_in_subprocess("result = settings.CACHES['default']")["BACKEND"] == (
        "django.core.cache.backends.locmem.LocMemCache"
    )


# --- The engine boundary ---------------------------------------------------------------

_IMPORT_ENGINE_WITHOUT_DJANGO = """
import importlib
import pkgutil
import sys

# None in sys.modules makes any import of these names raise ImportError.
for name in ("django", "rest_framework", "drf_spectacular", "django_htmx", "environ",
             "celery", "config", "games", "tournaments"):
    sys.modules[name] = None

import engine

for info in pkgutil.walk_packages(engine.__path__, "engine."):
    if not info.name.endswith(".__main__"):
        importlib.import_module(info.name)
print("engine imported without Django")
"""


def test_engine_imports_without_django() -> None:
    if not (BASE_DIR / "engine").is_dir():
        pytest.skip("engine/ does not exist yet")
    completed = run_python("-c", _IMPORT_ENGINE_WITHOUT_DJANGO)
    assert completed.returncode == 0, completed.stderr
    assert "engine imported without Django" in completed.stdout
