"""The relay page and the big screen's live tables in Debian's Chromium (docs/relay.md): a play
entered at a table shows on the relay page and on the table's live view within a few seconds
(htmx polls every second), and the big screen with ``?tables=1,2`` takes the two tables' live
views in turn with its other panels, each filled in by its own poll."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games import services as games  # noqa: E402
from games.gametypes import GAME_TYPES  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.tournaments.helpers import new_tournament, summary  # noqa: E402
from tournaments import services as t  # noqa: E402
from tournaments.public import views  # noqa: E402

pytestmark = pytest.mark.slow

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


def _append(game_id: uuid.UUID, events: list[dict[str, Any]], user: User) -> None:
    game = GameProjection.objects.get(stream_id=game_id)
    games.game_append(game_id=game_id, expected_version=game.version, events=events, user=user)


def _cards(page: Page, where: str) -> int:
    return int(page.locator(f"{where} .plays .card").count())


def test_a_play_shows_on_the_relay_page_and_the_screen_turns_to_the_live_tables(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(views, "SCREEN_ROTATE_SECONDS", 2)
    organizer = django_user_model.objects.create_user("org", password="pw")
    tid = new_tournament(organizer, NAMES)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    tables = summary(tid)["rounds"][0]["tables"]
    records = {}
    for entry in tables:
        gid = uuid.UUID(entry["game"])
        records[gid] = GAME_TYPES["trick-n-chef"].demo_record(
            entry["table"], [s["name"] for s in entry["seats"]]
        )
        _append(gid, records[gid][:5], organizer)  # the deal and the Chefs: no card yet
    first = uuid.UUID(tables[0]["game"])

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/t/{tid}/round/1/live/")
    assert page.locator(".relay-table").count() == len(tables)
    assert _cards(page, "#relay-table-1") == 0
    _append(first, records[first][5:7], organizer)  # two cards on table 1
    started = time.monotonic()
    page.wait_for_function(
        "() => document.querySelectorAll('#relay-table-1 .plays .card').length === 2",
        timeout=6000,
    )
    assert time.monotonic() - started < 6
    assert _cards(page, "#relay-table-2") == 0

    page.goto(f"{live_server.url}/t/{tid}/round/1/live/?table=1")
    assert page.locator(".relay-table").count() == 1
    assert _cards(page, "#relay-table-1") == 2

    page.goto(f"{live_server.url}/t/{tid}/screen/?tables=1,2")
    page.wait_for_function(
        "() => document.querySelectorAll('#screen-live .relay-table').length === 2",
        timeout=6000,
    )
    # The screen shows its panels in turn: the live tables' comes round.
    page.wait_for_function("() => !document.getElementById('screen-live').hidden", timeout=15000)
    assert page.locator("#screen-live .relay-table").first.is_visible()
    _append(first, records[first][7:8], organizer)  # a third card, while the screen shows
    page.wait_for_function(
        "() => document.querySelectorAll('#relay-1 .plays .card').length === 3",
        timeout=8000,
    )
