"""Celery tasks of the club: its consumer of the log, nudged and swept (idempotent: it
handles what lies after its position, exactly once)."""

from __future__ import annotations

from celery import shared_task

from club import services
from tournaments.tasks import RELIABLE


@shared_task(name="club.sync", **RELIABLE)
def sync() -> str:
    """Bring the members' entries, ratings and statistics up to the log."""
    return str(services.club_sync())
