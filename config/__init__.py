"""Project configuration: settings, URLs, WSGI/ASGI entry points and the Celery app."""

from __future__ import annotations

import os

CHOSEN_SETTINGS_MODULE = os.environ.get("DJANGO_SETTINGS_MODULE")
"""The settings module the environment chose, read before anything below sets a default."""


def use_settings_unless_chosen(module: str) -> None:
    """For an entry point: use ``module`` unless the environment chose the settings.

    Not ``os.environ.setdefault``: importing this package has already set a default (the Celery
    app below needs one when it is created, for a bare ``celery -A config worker``), and a
    server must not start with the development settings by accident."""
    os.environ["DJANGO_SETTINGS_MODULE"] = CHOSEN_SETTINGS_MODULE or module


# Load the Celery app whenever Django starts, so that @shared_task binds to it.
from .celery import app as celery_app  # noqa: E402

__all__ = ["celery_app", "use_settings_unless_chosen"]
