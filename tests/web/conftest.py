"""Fixtures shared by the web tests: the desk's people (Olga organizes, Sam keeps score, Oscar
is nobody in particular); every registered game (``game_key``). Users and their API clients
(``make_user``, ``ana``, ``api``, ``anon``) are tests/conftest.py's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.gametypes import GAME_TYPES
from tests.web.public import Capture, Spring, build_spring


@pytest.fixture(params=list(GAME_TYPES))
def game_key(request: pytest.FixtureRequest) -> str:
    """Each registered game's key in turn (a test taking it runs once for every game)."""
    return str(request.param)


@pytest.fixture
def olga(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def sam(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("sam", password="x")


@pytest.fixture
def oscar(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("oscar", password="x")


# ------------------------------------------------------------- the public pages' Spring Open


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def capture(django_capture_on_commit_callbacks: Capture) -> Capture:
    return django_capture_on_commit_callbacks


@pytest.fixture
def spring(organizer: User, capture: Capture) -> Spring:
    return build_spring(organizer, capture)
