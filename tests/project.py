"""The repository and the environment variables of the project, for tests that start the
project's own processes (tests/test_project.py, tests/test_entry_points.py)."""

from __future__ import annotations

from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
"""The repository root."""

# Environment variables the settings read; subprocesses start without them unless a test
# sets them, so the developer's own environment cannot change what is tested.
PROJECT_ENV_VARS = (
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DJANGO_SETTINGS_MODULE",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "USE_X_FORWARDED_PROTO",
    "CACHE_URL",
    "LOG_FORMAT",
)
