"""Fixtures shared by the web tests: users and their API clients; the desk's people (Olga
organizes, Sam keeps score, Oscar is nobody in particular); every registered game
(``game_key``), and a toy game registered late (``high_card``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.gametypes import GAME_TYPES
from tests.web.api import token_client
from tests.web.public import Capture, Spring, build_spring


@pytest.fixture(params=list(GAME_TYPES))
def game_key(request: pytest.FixtureRequest) -> str:
    """Each registered game's key in turn (a test taking it runs once for every game)."""
    return str(request.param)


@pytest.fixture
def high_card(monkeypatch: pytest.MonkeyPatch) -> str:
    """A fifth game, High Card (tests/web/toy_game.py), registered for the test only: after
    every module has been imported, as a game added later would be. Its key."""
    from tests.web.toy_game import KEY, HighCard

    monkeypatch.setitem(GAME_TYPES, KEY, HighCard())
    return KEY


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
