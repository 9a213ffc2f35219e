"""What the tournament services need from the layers above them, as functions those layers
provide at start-up (tournaments.apps), so that the services never import the task queue (the
tasks call the services: the other way round would be a cycle).

Each port is one small function with the services' vocabulary (ids and numbers, no task
objects); its provider (tournaments.tasks) does the queueing through games.queue.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

AdvanceOnCommit = Callable[[uuid.UUID, int], None]

_advance: AdvanceOnCommit | None = None


def advance_on_commit(tournament_id: uuid.UUID, round: int) -> None:
    """Have round ``round`` of the tournament paired (the one before closed) by the task queue
    once the current transaction commits. Never raises for a queue that cannot be reached: the
    beat's sweep pairs a complete round that nobody advanced (tournament_run_schedules)."""
    if _advance is None:
        raise RuntimeError("no task queue provided (tournaments.apps wires tournaments.tasks)")
    _advance(tournament_id, round)


def provide(*, advance: AdvanceOnCommit) -> None:
    """Install the task queue's side of the ports (at start-up: TournamentsConfig.ready)."""
    global _advance
    _advance = advance
