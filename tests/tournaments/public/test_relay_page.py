"""The relay's pages (tournaments.public.relay, docs/relay.md): a round's tables live, each game
its own panel, as a spectator is shown them: the organizer's delay behind the tables, never a
card still in a hand; the officials at once; a poll that changed nothing is a 304.

The clock is Django's ``timezone.now``, moved by the tests (tests/games/test_relay_delay.py)."""

from __future__ import annotations

import gzip
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine.tricknchef.cards import CARD_SUIT, CARD_VALUE
from games import services as games
from games.gametypes import GAME_TYPES
from games.models import GameProjection
from games.pages import spectator_panel
from tests.clock import Clock, installed
from tests.tournaments.helpers import new_tournament, summary
from tests.web.a11y import assert_accessible
from tournaments import services as t

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cleo", "Dev"]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    found = installed(monkeypatch)
    return found


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("org", password="pw")


@pytest.fixture
def on_commit(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> Iterator[Callable[[], Any]]:
    yield lambda: django_capture_on_commit_callbacks(execute=True)


def table(
    organizer: User, delay: int, game_type: str = "trick-n-chef", names: list[str] = NAMES
) -> tuple[uuid.UUID, uuid.UUID, list[dict[str, Any]]]:
    """A tournament of one table (round 1 published) and the rest of a whole game's record."""
    tid = new_tournament(organizer, names, relay_delay=delay, game_type=game_type)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    entry = summary(tid)["rounds"][0]["tables"][0]
    seated = [s["name"] for s in entry["seats"]]
    record = GAME_TYPES[game_type].demo_record(11, seated)
    return tid, uuid.UUID(entry["game"]), record


def append(game_id: uuid.UUID, events: list[dict[str, Any]], user: User, on_commit: Any) -> int:
    game = GameProjection.objects.get(stream_id=game_id)
    with on_commit():
        games.game_append(game_id=game_id, expected_version=game.version, events=events, user=user)
    return GameProjection.objects.get(stream_id=game_id).version


def held(game_id: uuid.UUID) -> set[str]:
    """Every card still held by a player in the game's true state."""
    snapshot = GameProjection.objects.get(stream_id=game_id).snapshot or {}
    return {c for hand in (snapshot.get("hands") or {}).values() for c in hand}


def drawn_cards(html: str) -> set[tuple[str, int]]:
    """(suit, value) of every card the page draws (tricknchef/card.html)."""
    return {
        (suit, int(value))
        for suit, value in re.findall(
            r'<span class="card suit-(\w+)"[^>]*><span class="card-value" aria-hidden="true">'
            r"(-?\d+)</span>",
            html,
        )
    }


def assert_no_held_card(html: str, game_id: uuid.UUID) -> None:
    cards = held(game_id)
    assert cards, "the test wants a round in play"
    drawn = drawn_cards(html)
    for card in cards:
        assert (CARD_SUIT[card], CARD_VALUE[card]) not in drawn, card


def relay_url(tid: uuid.UUID, number: int = 1) -> str:
    return reverse("public:relay", args=[tid, number])


def test_a_spectator_sees_a_play_only_after_the_delay_and_never_a_held_card(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid, game_id, record = table(organizer, delay=600)
    cut = append(game_id, record[:12], organizer, on_commit)  # the deal, the picks, two plays
    clock.wait(400)
    now = append(game_id, record[12:30], organizer, on_commit)
    clock.wait(300)  # the first batch is 700 s old, the second 300 s
    public = Client()
    page = public.get(relay_url(tid))
    assert page.status_code == 200
    html = page.content.decode()
    late = str(spectator_panel(game_id, "trick-n-chef", cut))
    assert late in html
    assert str(spectator_panel(game_id, "trick-n-chef", now)) not in html
    assert "shown 10 minutes late" in html
    assert "Spectators see this round&#x27;s tables 10 minutes late" in html
    assert_no_held_card(html, game_id)
    # The cards of the second batch were played, and are not shown yet.
    later = {
        (CARD_SUIT[e["card"]], CARD_VALUE[e["card"]])
        for e in record[12:30]
        if e["type"] == "card_played"
    }
    last = next(e["card"] for e in reversed(record[:12]) if e["type"] == "card_played")
    assert (CARD_SUIT[last], CARD_VALUE[last]) in drawn_cards(html)  # on the table at the cut
    assert not later & drawn_cards(html)

    # The live table view: the same panel, bigger, alone.
    one = public.get(relay_url(tid), {"table": 1}).content.decode()
    assert str(spectator_panel(game_id, "trick-n-chef", cut, big=True)) in one
    assert_no_held_card(one, game_id)
    assert public.get(relay_url(tid), {"table": 9}).status_code == 404

    # Officials see the table as it is.
    mine = Client()
    mine.force_login(organizer)
    theirs = mine.get(relay_url(tid)).content.decode()
    assert str(spectator_panel(game_id, "trick-n-chef", now)) in theirs
    assert "shown 10 minutes late" not in theirs

    # Once the delay has passed, the spectators see it too.
    clock.wait(300)
    html = public.get(relay_url(tid)).content.decode()
    assert str(spectator_panel(game_id, "trick-n-chef", now)) in html
    assert_no_held_card(html, game_id)


def test_the_poll_is_a_partial_with_an_etag_and_a_304_while_nothing_changed(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid, game_id, record = table(organizer, delay=60)
    append(game_id, record[:10], organizer, on_commit)
    clock.wait(61)
    public = Client()
    poll = public.get(relay_url(tid), HTTP_HX_REQUEST="true")
    assert poll.status_code == 200
    body = poll.content.decode()
    assert body.lstrip().startswith('<div id="relay"')
    assert "<html" not in body
    assert 'hx-trigger="every 1s' in body
    etag = poll["ETag"]
    assert etag.startswith('W/"relay-')
    packed = public.get(relay_url(tid), HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip" and packed["ETag"] == etag
    assert gzip.decompress(packed.content).decode() == body
    assert "public" in poll["Cache-Control"]
    again = public.get(relay_url(tid), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    # A play within the delay changes nothing a spectator is shown: still a 304.
    append(game_id, record[10:14], organizer, on_commit)
    clock.wait(30)
    held_back = public.get(relay_url(tid), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert held_back.status_code == 304
    clock.wait(31)  # the play is through
    moved = public.get(relay_url(tid), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert_no_held_card(moved.content.decode(), game_id)
    # The live table view polls its own partial.
    one = public.get(relay_url(tid), {"table": 1}, HTTP_HX_REQUEST="true")
    assert one.status_code == 200 and "?table=1" in one.content.decode()
    assert one["ETag"] != moved["ETag"]


def test_the_round_page_links_the_relay(organizer: User, on_commit: Any) -> None:
    tid, game_id, record = table(organizer, delay=0)
    page = Client().get(reverse("public:round", args=[tid, 1])).content.decode()
    assert relay_url(tid) in page
    assert Client().get(relay_url(tid, 2)).status_code == 404


@pytest.mark.parametrize("game_type", sorted(GAME_TYPES))
def test_each_games_panel_draws_its_game(
    game_type: str, organizer: User, on_commit: Any, clock: Clock
) -> None:
    names = ["Ana", "Ben"] if GAME_TYPES[game_type].teams else NAMES
    tid, game_id, record = table(organizer, delay=120, game_type=game_type, names=names)
    half = len(record) // 2
    cut = append(game_id, record[:half], organizer, on_commit)
    clock.wait(200)
    append(game_id, record[half:], organizer, on_commit)  # the whole game: finished
    public = Client()
    html = public.get(relay_url(tid)).content.decode()
    assert 'class="live-game' in html
    assert_accessible(html, where=f"relay page, {game_type}")
    one = public.get(relay_url(tid), {"table": 1}).content.decode()
    assert_accessible(one, where=f"live table view, {game_type}")
    assert str(spectator_panel(game_id, game_type, cut)) in html
    assert "shown 2 minutes late" in html
    if game_type == "trick-n-chef":
        assert_no_held_card(html, game_id) if held(game_id) else None
    clock.wait(200)
    done = public.get(relay_url(tid)).content.decode()
    assert "shown 2 minutes late" not in done
    final = GameProjection.objects.get(stream_id=game_id)
    assert final.status == "finished"
    assert str(spectator_panel(game_id, game_type, final.version)) in done


def test_the_big_screen_features_tables_in_turn(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid, game_id, record = table(organizer, delay=300)
    append(game_id, record[:20], organizer, on_commit)
    screen = reverse("public:screen", args=[tid])
    plain = Client().get(screen).content.decode()
    assert "screen-live" not in plain
    featured = Client().get(screen, {"tables": "1,7"}).content.decode()
    assert 'id="screen-live"' in featured
    assert f'hx-get="{relay_url(tid)}?table=1"' in featured
    assert "?table=7" not in featured  # no such table
    assert f'hx-get="{screen}?tables=' in featured  # the screen's poll keeps its tables
    every = Client().get(screen, {"tables": "all"}).content.decode()
    assert f"{relay_url(tid)}?table=1" in every
    # What each featured table loads: its live view, delayed, polling itself.
    one = Client().get(relay_url(tid), {"table": 1}, HTTP_HX_REQUEST="true").content.decode()
    assert one.lstrip().startswith('<div id="relay-1"')
    assert_no_held_card(one, game_id)


def test_the_public_is_worked_out_once_a_step_whatever_the_number_of_spectators(
    organizer: User,
    on_commit: Any,
    clock: Clock,
    client: Client,
    django_assert_max_num_queries: Any,
) -> None:
    from tournaments.public import relay

    tid, game_id, record = table(organizer, delay=2)
    first = append(game_id, record[:8], organizer, on_commit)
    clock.wait(3)
    append(game_id, record[8:12], organizer, on_commit)
    answer = client.get(relay_url(tid), headers={"HX-Request": "true"})
    etag = answer["ETag"]
    assert answer.status_code == 200
    # Another spectator in the same step: the tournament's version is the only question asked.
    with django_assert_max_num_queries(1):
        again = client.get(relay_url(tid), headers={"HX-Request": "true", "If-None-Match": etag})
    assert again.status_code == 304
    # A step later, the plays the delay lets through now (recorded 2 s ago) are shown.
    clock.now += relay.PUBLIC_STEP
    clock.wait(2)
    moved = client.get(relay_url(tid), headers={"HX-Request": "true", "If-None-Match": etag})
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert first < GameProjection.objects.get(stream_id=game_id).version
