"""A tap a phone's outbox sends late (``queued=1``: made offline, or sent again after a failure)
for a game whose panel gives it no slot (``Append.queued`` None; only Trick-n-Chef's phones
queue taps into a slot: ``GameType.queued_taps``): recorded when the table waited for it, and
answered as overtaken (409 ``overtaken``, the table as it stands) once the table moved on, so
that the outbox shows it not recorded with the words why and holds nothing back; a conflict
(409 ``conflict``) would be sent again by the outbox for ever (static/js/seat.js). Played with
the tests' toy High Card."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from games import services
from games.models import GameProjection

pytestmark = pytest.mark.django_db
FETCH = {"X-Seat-Fetch": "1"}


def version(game_id: uuid.UUID) -> int:
    return int(GameProjection.objects.get(stream_id=game_id).version)


def test_a_late_tap_is_recorded_when_the_table_waited_and_overtaken_when_it_moved(
    high_card: str,
) -> None:
    game = services.game_create(players=["Ann", "Bob"], game_type=high_card)
    ann, bob = (link.token for link in services.seat_links_issue(game_id=game.game_id))
    at = version(game.game_id)

    # Ann's tap, made offline, sent when the connection returned: the table waited for it.
    tap = {"card": "5", "version": str(at), "key": "ann-1", "queued": "1"}
    done = Client().post(f"/seat/{ann}/play/", tap, headers=FETCH)
    assert done.status_code == 200 and version(game.game_id) == at + 1

    # Bob's tap of the version before Ann's: first sent at once (a conflict: the outbox marks
    # it queued and sends it again), then as queued: the table moved on, it never will be.
    stale = {"card": "7", "version": str(at), "key": "bob-1"}
    first = Client().post(f"/seat/{bob}/play/", {**stale, "queued": "0"}, headers=FETCH)
    assert first.status_code == 409 and first["X-Seat-Refusal"] == "conflict"
    again = Client().post(f"/seat/{bob}/play/", {**stale, "queued": "1"}, headers=FETCH)
    assert again.status_code == 409 and again["X-Seat-Refusal"] == "overtaken"
    assert "Someone else entered this first" in again.content.decode()
    assert version(game.game_id) == at + 1

    # Ann's late tap sent once more (its answer was lost): the same, recorded once.
    retry = Client().post(f"/seat/{ann}/play/", tap, headers=FETCH)
    assert retry.status_code == 200 and version(game.game_id) == at + 1
