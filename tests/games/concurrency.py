"""Threads that start together, and games to play, for the concurrency tests
(tests/games/test_concurrency.py, test_projection_races.py, tests/tournaments/test_sync.py)."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import connection

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services

T = TypeVar("T")

JOIN_TIMEOUT = 120.0
"""Seconds a test waits for its threads before failing (a deadlock must not hang the suite)."""


# ----------------------------------------------------------------------------- threads


class Worker(threading.Thread, Generic[T]):
    """Runs ``work`` once the barrier opens; keeps its result or error; closes its connection."""

    def __init__(self, barrier: threading.Barrier, work: Callable[[], T], name: str) -> None:
        super().__init__(name=name, daemon=True)
        self.barrier = barrier
        self.work = work
        self.result: T | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.barrier.wait(timeout=JOIN_TIMEOUT)
            self.result = self.work()
        except BaseException as error:  # reported by finish(), in the test's thread
            self.error = error
        finally:
            connection.close()


def start_together(works: Sequence[Callable[[], T]], name: str = "worker") -> list[Worker[T]]:
    """Start one thread per callable; they all begin their work at the same moment."""
    barrier = threading.Barrier(len(works))
    workers = [Worker(barrier, work, f"{name}-{i}") for i, work in enumerate(works)]
    for worker in workers:
        worker.start()
    return workers


def finish(workers: Sequence[Worker[T]]) -> list[T]:
    """Wait for the threads; re-raise the first error any of them met; return their results."""
    deadline = time.monotonic() + JOIN_TIMEOUT
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
    stuck = [w.name for w in workers if w.is_alive()]
    assert not stuck, f"threads still running after {JOIN_TIMEOUT:.0f} s: {stuck}"
    errors = [(w.name, w.error) for w in workers if w.error is not None]
    if errors:
        first = errors[0][1]
        summary = "; ".join(f"{n}: {type(e).__name__}: {e}" for n, e in errors)
        raise AssertionError(f"{len(errors)} thread(s) failed: {summary}") from first
    results = []
    for worker in workers:
        assert worker.result is not None, f"{worker.name} returned nothing"
        results.append(worker.result)
    return results


def run_together(works: Sequence[Callable[[], T]], name: str = "worker") -> list[T]:
    return finish(start_together(works, name))


# ----------------------------------------------------------------------------- games


def records(seed: int, players: int = 4) -> list[dict[str, Any]]:
    """A whole random legal game as record JSON objects (the first is game_started)."""
    return [to_json(event) for event in simulate(seed, players)]


def create_game(record: Sequence[dict[str, Any]], user: Any = None) -> uuid.UUID:
    """A new game whose first event is exactly ``record[0]`` (players and suits)."""
    start = record[0]
    change = services.game_create(players=start["players"], suits=start.get("suits"), user=user)
    assert change.version == 1
    return change.game_id
