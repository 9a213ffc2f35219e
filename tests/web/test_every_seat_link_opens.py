"""No seat link the site shows or prints leads to an error page (issue 25, "Done when"): the
demo's tournaments of every game (the README's first command builds them), crawled as their
organizer: every round's seat links page, every table's seat links page and its printed links,
and every round's printed score sheets ("scan to play"). Each seat link found opens its seat's
live phone (the seat-phone frame with the game's panel), never "Page not found" nor a page that
says the game has no phones. A game without phones shows no seat link at all: High Card on
paper (the tests' toy, registered without a panel) is published and crawled the same way."""

from __future__ import annotations

import re
import uuid
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from games.gametypes import GAME_TYPES
from tests.highcard.game.gametype import HIGH_CARD_ON_PAPER
from tests.web.desk import new_tournament
from tournaments import services as t
from tournaments.demo import build

pytestmark = pytest.mark.django_db

SEAT_URL = re.compile(r"/seat/([A-Za-z0-9_\-:.]+)/")


def pages_with_links(client: Client, tid: uuid.UUID) -> dict[str, str]:
    """Every desk page of the tournament that shows or prints seat links, by address."""
    base = f"/desk/{tid}/"
    pages: dict[str, str] = {}
    summary = client.get(f"/api/tournaments/{tid}/").json()
    for number, rnd in enumerate(summary["rounds"], start=1):
        if rnd["status"] == "proposed":
            continue
        addresses = [f"{base}round/{number}/seats/", f"{base}round/{number}/sheets/print/"]
        for table in range(1, len(rnd["tables"]) + 1):
            table_base = f"{base}round/{number}/table/{table}/seats/"
            addresses += [table_base, f"{table_base}print/"]
        for address in addresses:
            response = client.get(address)
            assert response.status_code == 200, address
            pages[address] = unescape(response.content.decode())
    return pages


def test_every_seat_link_the_desk_shows_or_prints_opens_its_phone(
    django_user_model: type[User],
) -> None:
    cache.clear()
    demo = build()
    organizer = Client()
    organizer.force_login(django_user_model.objects.get(username=demo.organizer))
    tournaments = [demo.tournament_id, *(tid for _, tid in demo.others)]
    games_with_links: set[str] = set()
    for tid in tournaments:
        game_type = organizer.get(f"/api/tournaments/{tid}/").json()["game_type"]
        found = {
            token: address
            for address, html in pages_with_links(organizer, tid).items()
            for token in SEAT_URL.findall(html)
        }
        assert found, f"{game_type}: the desk shows no seat link"
        games_with_links.add(game_type)
        for token, address in found.items():
            phone = Client()  # a player's phone: no login
            response = phone.get(f"/seat/{token}/")
            html = unescape(response.content.decode())
            where = f"{game_type}: a seat link on {address}"
            assert response.status_code == 200, f"{where} answers {response.status_code}"
            assert "Page not found" not in html, where
            assert "data-live" in html, f"{where} opens no live phone"
            assert "is not entered on the players' phones yet" not in html, where
    assert games_with_links == set(GAME_TYPES), "every game has a demo tournament"


def test_a_game_without_phones_shows_and_prints_no_seat_link(
    monkeypatch: pytest.MonkeyPatch, olga: User
) -> None:
    cache.clear()
    monkeypatch.setitem(GAME_TYPES, HIGH_CARD_ON_PAPER.key, HIGH_CARD_ON_PAPER)
    tid = new_tournament(olga, names=["Ann", "Bob", "Cat", "Dan"], game_type="high-card")
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    client = Client()
    client.force_login(olga)
    pages = pages_with_links(client, tid)
    for address, html in pages.items():
        assert not SEAT_URL.search(html), f"{address} shows a seat link of a game without phones"
    seats_page = pages[f"/desk/{tid}/round/1/table/1/seats/"]
    assert "High Card is entered by the table's scorekeeper: its seats have no phone links" in (
        seats_page
    )
