"""The outbox of game status changes: written with the events, handled once by a consumer.

A game's status change (finished, no longer finished, voided) must reach whoever depends on it
(a tournament table's result) exactly once, even if the broker is down when the game commits or
the process dies right after the commit. So the change is a row written in the game's own
transaction (:func:`record`), and the consumer takes the next pending change under a row lock
(:func:`take_next`), writes what follows from it, and marks it handled (:func:`mark_handled`),
all in one transaction of its own: a consumer killed half-way leaves the change pending for the
next one, and a change handled once is never handled again.

Changes of one game are taken in the order they were written (a later one waits while an
earlier one is pending or being handled), so a finish, a correction and a void are reflected
in the order they happened. The task queue only says "look now"; a periodic sweep
(``tournaments.sync_pending`` on the beat schedule) catches every nudge that was lost.
"""

from __future__ import annotations

import uuid

from django.db import connection
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import GameProjection, StatusChange


def record(game: GameProjection) -> StatusChange:
    """The game's status changed: note it in the outbox (inside the game's transaction)."""
    return StatusChange.objects.create(
        game_id=game.stream_id, version=game.version, status=game.status
    )


def pending(game_id: uuid.UUID | None = None) -> int:
    """How many changes wait for their consumer (of one game, or of all)."""
    changes = StatusChange.objects.filter(handled_at__isnull=True)
    if game_id is not None:
        changes = changes.filter(game_id=game_id)
    return changes.count()


def take_next(game_id: uuid.UUID | None = None) -> StatusChange | None:
    """Lock and return the oldest pending change whose game has no older pending change (of
    that game only, if given); None when there is none free. Must run inside the consumer's
    transaction: the lock holds until it commits, and other consumers skip the row meanwhile."""
    if not connection.in_atomic_block:
        raise RuntimeError("take_next() must run inside transaction.atomic")
    earlier = StatusChange.objects.filter(
        game_id=OuterRef("game_id"), handled_at__isnull=True, id__lt=OuterRef("id")
    )
    changes = StatusChange.objects.filter(handled_at__isnull=True).exclude(Exists(earlier))
    if game_id is not None:
        changes = changes.filter(game_id=game_id)
    if connection.features.has_select_for_update_skip_locked:
        changes = changes.select_for_update(skip_locked=True)
    return changes.order_by("id").first()


def mark_handled(change: StatusChange, outcome: str) -> None:
    """The consumer is done with ``change`` (in the same transaction as what it wrote)."""
    change.handled_at = timezone.now()
    change.outcome = outcome[:40]
    change.save(update_fields=["handled_at", "outcome"])
