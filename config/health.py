"""``/health/``: is this process able to serve? (the database answers, the broker answers)

Load balancers and docker-compose healthchecks call it. It answers 200 with what it checked, or
503 naming what failed. The cache is reported, never a failure: with Redis down this process
serves from its own memory (config.cache), slower but whole, so the answer stays 200 with
``"status": "degraded"`` and a load balancer keeps sending it requests. It never needs a login,
and it is exempt from the HTTPS redirect so a check from inside the container works.
The database check includes the event log's clock (games.db.log_clock_problem): a log restored
from another server's dump, without the migrate that follows, would sort new events before the
restored ones.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import DatabaseError, connection
from django.db.models import Count
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from games.db import log_clock_problem


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        problem = log_clock_problem(connection)
    except DatabaseError as error:
        return f"error: {error.__class__.__name__}"
    return f"error: {problem}" if problem else "ok"


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "inline (no broker configured)"
    from config import celery_app

    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:  # kombu raises many kinds; all mean "not reachable"
        return f"error: {error.__class__.__name__}"
    return "ok"


def _cache() -> str:
    """``ok`` (Redis answers), ``local (...)`` (no CACHE_URL: each process's own memory, as
    configured), or ``degraded: ...`` naming what failed: this process then serves from its own
    memory (config.cache). Never ``error``: a cache's failure costs speed, not service."""
    backend = caches["default"]
    health = getattr(backend, "health", None)
    if callable(health):
        return str(health())
    if isinstance(backend, LocMemCache):
        return "local (each process's own memory: no CACHE_URL)"
    try:
        backend.get("health-check")
    except Exception as error:  # another backend (memcached...): any failure means "not there"
        return f"degraded: {error.__class__.__name__}"
    return "ok"


def _outbox() -> dict[str, Any] | str:
    """Games' status changes not yet handled by the worker, and the age of the oldest: a
    number that grows (or an old age) means no worker or no beat sweep is running. Reported,
    not a failure: this web process can still serve."""
    from django.db.models import Min
    from django.utils import timezone

    from games.models import StatusChange

    try:
        waiting = StatusChange.objects.filter(handled_at__isnull=True).aggregate(
            pending=Count("id"), oldest=Min("recorded_at")
        )
    except DatabaseError as error:
        return f"unknown: {error.__class__.__name__}"
    oldest = waiting["oldest"]
    age = 0 if oldest is None else int((timezone.now() - oldest).total_seconds())
    return {"pending": waiting["pending"], "oldest_seconds": age}


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    checks: dict[str, Any] = {"database": _database(), "broker": _broker()}
    healthy = not any(str(v).startswith("error") for v in checks.values())
    cache = _cache()
    status = "error" if not healthy else "degraded" if cache.startswith("degraded") else "ok"
    return JsonResponse(
        {"status": status, **checks, "cache": cache, "results_waiting": _outbox()},
        status=200 if healthy else 503,
    )
