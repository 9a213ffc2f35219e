"""Celery tasks for tournaments (none yet).

Tasks take ids and call services (``tournaments/services.py``); enqueue them from services
with ``transaction.on_commit``.
"""

from __future__ import annotations
