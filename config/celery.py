"""The Celery app, configured from the Django settings whose names start with ``CELERY_``.

Run a worker with ``celery -A config worker``. Tasks take ids and call services.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("trick_n_chef")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
