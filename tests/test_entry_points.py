"""Each entry point starts with the settings it promises when DJANGO_SETTINGS_MODULE is unset:
the servers (config.wsgi, config.asgi) production, manage.py and the Celery worker development.
Each runs in a fresh interpreter, as gunicorn or celery would import it."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import textwrap

import pytest

from tests.project import BASE_DIR
from tests.project import PROJECT_ENV_VARS as _PROJECT_ENV_VARS


def settings_module_after(code: str, **chosen: str) -> str:
    """Run ``code`` with DJANGO_SETTINGS_MODULE unset (or as ``chosen``); the settings module
    Django then uses."""
    env = {k: v for k, v in os.environ.items() if k not in _PROJECT_ENV_VARS}
    env.update(SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="example.org", **chosen)
    program = textwrap.dedent(code) + "\nfrom django.conf import settings\n"
    program += "print(settings.SETTINGS_MODULE)\n"
    completed = subprocess.run(
        [sys.executable, "-c", program],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("module", ["config.wsgi", "config.asgi"])
def test_the_servers_default_to_the_production_settings(module: str) -> None:
    assert settings_module_after(f"import {module}") == "config.settings.production"


@pytest.mark.parametrize("module", ["config.wsgi", "config.asgi"])
def test_the_settings_the_environment_chooses_win(module: str) -> None:
    chosen = {"DJANGO_SETTINGS_MODULE": "config.settings.base"}
    assert settings_module_after(f"import {module}", **chosen) == "config.settings.base"


def test_manage_py_defaults_to_the_development_settings() -> None:
    code = """
        import sys
        sys.argv = ["manage.py", "check"]
        import manage
        manage.main()
    """
    assert settings_module_after(code) == "config.settings.base"


def test_the_celery_worker_defaults_to_the_development_settings() -> None:
    """``celery -A config worker`` imports the package, then loads the app's configuration."""
    code = """
        import config
        config.celery_app.loader.import_default_modules()
        assert config.celery_app.conf.task_always_eager in (True, False)
    """
    assert settings_module_after(code) == "config.settings.base"
