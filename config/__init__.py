"""Project configuration: settings, URLs, WSGI/ASGI entry points and the Celery app."""

from __future__ import annotations

# Load the Celery app whenever Django starts, so that @shared_task binds to it.
from .celery import app as celery_app

__all__ = ["celery_app"]
