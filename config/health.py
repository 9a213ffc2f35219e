"""``/health/``: is this process able to serve? (the database answers, the broker answers)

Load balancers and docker-compose healthchecks call it. It answers 200 with what it checked, or
503 naming what failed; it never needs a login, and it is exempt from the HTTPS redirect so a
check from inside the container works.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return f"error: {error.__class__.__name__}"
    return "ok"


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


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    checks: dict[str, Any] = {"database": _database(), "broker": _broker()}
    healthy = not any(str(v).startswith("error") for v in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )
