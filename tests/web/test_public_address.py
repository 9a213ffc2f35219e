"""The site's public address (issue 13): PUBLIC_URL decides what the QR codes and printed links
say, whatever address the organizer's browser used; without it the desk says which address
they carry, and that phones cannot reach 127.0.0.1."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings

from config.settings.base import public_url, with_public_host
from tests.web.desk import desk, html, logged_in, new_tournament, text
from tournaments import services as t
from tournaments.desk import qr as desk_qr

pytestmark = pytest.mark.django_db

CLUB = "http://192.168.1.20:8000"


@pytest.fixture(autouse=True)
def fresh_qr_cache() -> Iterator[None]:
    desk_qr.forget()
    cache.clear()
    yield
    desk_qr.forget()
    cache.clear()


def published(user: User) -> tuple[uuid.UUID, list[str]]:
    tid = new_tournament(user)
    t.tournament_pair(tournament_id=tid, user=user)
    change = t.tournament_publish(tournament_id=tid, round=1, user=user)
    return tid, [table["game"] for table in change.state["rounds"][0]["tables"]]


def test_public_url_decides_the_codes_and_printed_links(
    olga: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    real = desk_qr.draw

    def counting(url: str) -> str:
        drawn.append(url)
        return real(url)

    monkeypatch.setattr(desk_qr, "draw", counting)
    tid, games = published(olga)
    # The organizer opened the desk on the server itself.
    client = logged_in(olga)
    with override_settings(PUBLIC_URL=CLUB, ALLOWED_HOSTS=["127.0.0.1", "testserver"]):
        page = client.get(desk(tid), HTTP_HOST="127.0.0.1")
        assert "PUBLIC_URL" not in text(page)
        assert f"{CLUB}/table/{games[0]}/" in html(page)
        image = client.get(desk(tid, f"qr/{games[0]}.svg"), HTTP_HOST="127.0.0.1")
        assert image.status_code == 200
        assert drawn == [f"{CLUB}/table/{games[0]}/"]
        sheets = html(client.get(desk(tid, "round/1/sheets/print/"), HTTP_HOST="127.0.0.1"))
        assert f"{CLUB}/table/{games[0]}/" in sheets
        assert f"{CLUB}/seat/" in sheets and "http://127.0.0.1" not in sheets
        code = t.tournament_short_code(tournament_id=tid)
        pairings = client.get(desk(tid, "round/1/pairings/print/"), HTTP_HOST="127.0.0.1")
        assert f"{CLUB}/t/{code}/" in text(pairings)  # the short address, to type
        assert "Follow the tournament on your phone" in text(pairings)
        screen = Client().get(f"/t/{tid}/screen/", HTTP_HOST="127.0.0.1")
        assert f"{CLUB}/t/{code}/" in text(screen)
        assert f"{CLUB}/t/{code}/" in text(page)  # the dashboard says it too
    src = re.search(rf"/desk/{tid}/qr/{games[0]}.svg\?at=\w+", html(page))
    assert src is not None
    # Another address is another image (the browser keeps one a week).
    other = re.search(rf"/desk/{tid}/qr/{games[0]}.svg\?at=\w+", html(client.get(desk(tid))))
    assert other is not None and other.group() != src.group()


def test_without_public_url_the_desk_says_what_the_codes_carry(olga: User) -> None:
    tid, _ = published(olga)
    client = logged_in(olga)
    with override_settings(PUBLIC_URL="", ALLOWED_HOSTS=["127.0.0.1", "testserver"]):
        local = text(client.get(desk(tid), HTTP_HOST="127.0.0.1"))
        assert (
            "The QR codes and printed links say http://127.0.0.1, the address this browser "
            "used: players&#x27; phones cannot reach it. Set PUBLIC_URL" in local
        )
        named = text(client.get(desk(tid)))
        assert "The QR codes and printed links say http://testserver, the address" in named
        assert "If players&#x27; phones reach the site at another address, set PUBLIC_URL" in named


def test_public_url_is_checked_and_its_host_allowed() -> None:
    assert public_url("") == ""
    assert public_url(" https://tnc.example.org/ ") == "https://tnc.example.org"
    for wrong in ("192.168.1.20:8000", "ftp://x.org", "https://x.org/club", "http://"):
        with pytest.raises(ImproperlyConfigured, match="PUBLIC_URL must be the site's address"):
            public_url(wrong)
    assert with_public_host(["127.0.0.1"], CLUB) == ["127.0.0.1", "192.168.1.20"]
    assert with_public_host(["192.168.1.20"], CLUB) == ["192.168.1.20"]
    assert with_public_host(["*"], CLUB) == ["*"]
    assert with_public_host(["localhost"], "") == ["localhost"]


def test_the_short_address_leads_to_the_tournament_in_any_case(olga: User) -> None:
    tid, _ = published(olga)
    code = t.tournament_short_code(tournament_id=tid)
    visitor = Client()
    for typed in (code, code.upper(), code.capitalize()):
        response = visitor.get(f"/t/{typed}/")
        assert response.status_code == 302 and response["Location"] == f"/t/{tid}/"
    # Typed without its slash: to the one with it, then to the tournament.
    response = visitor.get(f"/t/{code}", follow=True)
    assert response.status_code == 200 and response.redirect_chain[-1][0] == f"/t/{tid}/"
    assert visitor.get(f"/t/{tid}/").status_code == 200  # the long address still works
    for unknown in ("bcdfg", "zzzzzz", "aeiou"):
        missing = visitor.get(f"/t/{unknown}/")
        assert missing.status_code == 404 and "text/html" in missing["Content-Type"]


def test_the_big_screen_shows_a_qr_code_of_the_short_address_beside_it(
    olga: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    real = desk_qr.draw

    def counting(url: str) -> str:
        drawn.append(url)
        return real(url)

    monkeypatch.setattr(desk_qr, "draw", counting)
    tid, _ = published(olga)
    short = f"{CLUB}/t/{t.tournament_short_code(tournament_id=tid)}/"
    with override_settings(PUBLIC_URL=CLUB):
        screen = html(Client().get(f"/t/{tid}/screen/"))
    figure = re.search(r'<figure class="screen-follow">(.*?)</figure>', screen, re.DOTALL)
    assert figure is not None
    assert 'role="img" aria-label="QR code of the tournament&#x27;s public page"' in figure[1]
    assert f"<strong>{short}</strong>" in figure[1]
    assert drawn == [short]
    # Polled again (htmx): the same drawing, from memory.
    with override_settings(PUBLIC_URL=CLUB):
        Client().get(f"/t/{tid}/screen/", HTTP_HX_REQUEST="true")
    assert drawn == [short]
