"""The one way services hand work to the task queue: after the commit, and never at the cost of
the request that committed.

The work itself is never only in the queue: what must happen is written in the database first
(an outbox row, a round that is complete but not advanced) and a periodic sweep finds it, so a
message that cannot be sent (broker down, process killed after the commit) delays the work and
loses nothing. A failure to send is logged, not raised: the user's change is committed and the
answer they get must say so.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import Task
from django.db import transaction

logger = logging.getLogger(__name__)


def send(task: Task[Any, Any], *args: Any) -> bool:
    """Queue ``task(*args)`` now (inline when tasks run eagerly); False if that failed."""
    try:
        task.apply_async(args)
    except Exception:
        logger.warning(
            "could not run or queue %s%r now; the periodic sweep will do it",
            task.name,
            args,
            exc_info=True,
        )
        return False
    return True


def enqueue_on_commit(task: Task[Any, Any], *args: Any) -> None:
    """Queue ``task(*args)`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(send, task, *args))
