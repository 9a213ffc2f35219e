"""Celery tasks for tournaments. Tasks take ids and call services; each is idempotent (running
it twice records one result, pairs once), acknowledged late (a worker killed mid-task leaves it
to another), and retried with backoff on database errors and concurrent changes."""

from __future__ import annotations

import uuid
from typing import Any

from celery import shared_task
from django.db import DatabaseError

from games.queue import enqueue_on_commit, send
from games.services import Conflict
from tournaments import services
from tournaments.desk import sheets
from tournaments.public.standings_page import (
    public_standings_rendered_after,
    public_standings_rendered_later,
)

RETRY_ON = (DatabaseError, Conflict)
RELIABLE: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": RETRY_ON,
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
}
"""What every tournament task is: acknowledged late, retried with backoff and jitter."""


@shared_task(name="tournaments.sync_game", **RELIABLE)
def sync_game(game_id: str) -> str:
    """A tournament game finished (or stopped being finished): handle its pending status
    changes (record or withdraw its result in the tournament's stream); then render the
    public standings of that new version into the cache, here rather than in the first
    visitor's request."""
    game = uuid.UUID(game_id)
    tournament = services.tournament_of_game(game)
    with public_standings_rendered_after(tournament, render_standings_later):
        outcome = services.tournament_sync_game(game_id=game)
    services.tournament_sync_pending()  # what an earlier failure may have left behind
    return outcome


@shared_task(name="tournaments.render_standings", **RELIABLE)
def render_standings(tournament_id: str, version: str, languages: list[str], claim: str) -> None:
    """The public standings of a new version in the languages :func:`sync_game` left (it
    renders the site's own first): queued behind whatever sync_game came meanwhile, so the next
    table's result does not wait for them; nothing to do if the tournament moved on."""
    public_standings_rendered_later(uuid.UUID(tournament_id), version, languages, claim)


def render_standings_later(
    tournament_id: uuid.UUID, version: str, languages: list[str], claim: str
) -> None:
    """Queue :func:`render_standings` (tournaments.public.standings_page.Later); if the queue
    cannot take it, the claim lapses and visitors render those languages themselves."""
    send(render_standings, str(tournament_id), version, languages, claim)


@shared_task(name="tournaments.sync_pending", **RELIABLE)
def sync_pending() -> list[str]:
    """The beat schedule's sweep of the games' outbox: every status change whose nudge was lost
    (broker down, a process killed after its commit) reaches its tournament here."""
    return services.tournament_sync_pending()


@shared_task(name="tournaments.advance", **RELIABLE)
def advance(tournament_id: str, round: int) -> str:
    """The last table of a round has its result: close it, pair the next round (and publish
    it if the tournament publishes automatically)."""
    return services.tournament_advance(tournament_id=uuid.UUID(tournament_id), round=round)


@shared_task(name="tournaments.run_schedules", **RELIABLE)
def run_schedules() -> list[str]:
    """The beat schedule's task: pair and publish rounds whose set time has come."""
    return services.tournament_run_schedules()


@shared_task(name="tournaments.draw_sheet_codes", **RELIABLE)
def draw_sheet_codes(tournament_id: str) -> int:
    """A round was published: draw its score sheets' QR codes into the shared cache now, here
    rather than in the organizer's first print (tournaments.desk.sheets)."""
    return sheets.draw_published(uuid.UUID(tournament_id))


def advance_on_commit(tournament_id: uuid.UUID, round: int) -> None:
    """The services' port (tournaments.ports.advance_on_commit): queue :func:`advance` once
    the current transaction commits."""
    enqueue_on_commit(advance, str(tournament_id), round)
