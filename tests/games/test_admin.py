"""The Django admin shows streams and events, and refuses to change them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(admin_user: User) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client


def test_staff_can_read_streams_and_events(staff_client: Client) -> None:
    game = services.game_create(players=["ana", "ben", "cleo"], suits=["green", "red", "blue"])
    event = Event.objects.get(stream_id=game.game_id)
    for url in (
        reverse("admin:games_stream_changelist"),
        reverse("admin:games_stream_change", args=[game.game_id]),
        reverse("admin:games_event_changelist"),
        reverse("admin:games_event_change", args=[event.pk]),
        reverse("admin:games_gameprojection_changelist"),
    ):
        response = staff_client.get(url)
        assert response.status_code == 200, url
    page = staff_client.get(reverse("admin:games_event_change", args=[event.pk])).content
    assert b"game_started" in page
    assert b'name="_save"' not in page  # read-only: no save button


def test_nobody_can_add_change_or_delete_events_in_the_admin(staff_client: Client) -> None:
    game = services.game_create(players=["ana", "ben", "cleo"], suits=["green", "red", "blue"])
    event = Event.objects.get(stream_id=game.game_id)
    assert staff_client.get(reverse("admin:games_event_add")).status_code == 403
    assert staff_client.get(reverse("admin:games_event_delete", args=[event.pk])).status_code == 403
    response = staff_client.post(
        reverse("admin:games_event_change", args=[event.pk]), {"type": "edited"}
    )
    assert response.status_code == 403
    event.refresh_from_db()
    assert event.type == "game_started"
