from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from club.services import reads


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Any:
    """pytest-django's capture of on-commit callbacks (run with ``execute=True``)."""
    return django_capture_on_commit_callbacks


@pytest.fixture(autouse=True)
def fresh_club_caches() -> Iterator[None]:
    """Each test starts with nothing kept from another's club: a rolled-back SQLite database
    may give the next test's events the same ids (club.services.reads.forget)."""
    reads.forget()
    yield
    reads.forget()
