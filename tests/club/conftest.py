from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Any:
    """pytest-django's capture of on-commit callbacks (run with ``execute=True``)."""
    return django_capture_on_commit_callbacks
