"""A clock the tests move: Django's ``timezone.now`` replaced (the store dates events with it,
the relay's delay compares them with it), so that a test waits a delay out without sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

START = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)


class Clock:
    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def installed(monkeypatch: pytest.MonkeyPatch, start: datetime = START) -> Clock:
    """A clock from ``start``, in place of ``timezone.now`` until the test ends."""
    clock = Clock(start)
    monkeypatch.setattr(timezone, "now", clock)
    return clock
