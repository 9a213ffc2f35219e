"""Fixtures shared by the web tests: users and their API clients."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.web.api import token_client


@pytest.fixture
def make_user(django_user_model: type[User]) -> Callable[..., User]:
    def make(username: str, **extra: Any) -> User:
        return django_user_model.objects.create_user(username, password="s3cret-pass", **extra)

    return make


@pytest.fixture
def ana(make_user: Callable[..., User]) -> User:
    return make_user("ana")


@pytest.fixture
def api(ana: User) -> APIClient:
    """Ana, a scorekeeper, with her API token."""
    return token_client(ana)


@pytest.fixture
def anon() -> APIClient:
    return APIClient()
