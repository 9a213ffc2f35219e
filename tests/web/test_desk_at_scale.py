"""The organizer desk at many tables (issue 11, "Desk at 250 tables"): QR codes drawn once per
table and served as cacheable images; an htmx action answers with the pieces it changed, not the
whole dashboard. The fixtures and helpers are test_desk.py's."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from tests.web.test_desk import desk, html, logged_in, new_tournament
from tournaments import desk_qr
from tournaments import services as t

pytestmark = pytest.mark.django_db

TWELVE = [f"Player {n:02d}" for n in range(1, 13)]


@pytest.fixture
def olga(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def sam(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("sam", password="x")


@pytest.fixture
def oscar(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("oscar", password="x")


@pytest.fixture(autouse=True)
def fresh_qr_cache() -> Iterator[None]:
    """No drawing left over from another test (the memo is per process, the cache shared)."""
    desk_qr.forget()
    cache.clear()
    yield
    desk_qr.forget()
    cache.clear()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The links segno is asked to draw, in order."""
    links: list[str] = []
    real = desk_qr.draw

    def counting(url: str) -> str:
        links.append(url)
        return real(url)

    monkeypatch.setattr(desk_qr, "draw", counting)
    return links


def published(organizer: User, names: list[str] = TWELVE) -> tuple[uuid.UUID, list[str]]:
    """A tournament with round 1 published; its games in table order."""
    tid = new_tournament(organizer, names=names)
    t.tournament_pair(tournament_id=tid, user=organizer)
    change = t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    return tid, [table["game"] for table in change.state["rounds"][0]["tables"]]


def qr(tid: uuid.UUID, game: str) -> str:
    return desk(tid, f"qr/{game}.svg")


# ----------------------------------------------------------------------------- QR codes


def test_the_dashboard_links_each_tables_qr_image_and_draws_none(
    olga: User, drawn: list[str]
) -> None:
    tid, games_ = published(olga)
    client = logged_in(olga)
    page = html(client.get(desk(tid)))
    assert "<svg" not in page
    for number, game in enumerate(games_, start=1):
        assert f'<img src="/desk/{tid}/qr/{game}.svg" alt="QR code of table {number}' in page
    assert page.count('loading="lazy"') == len(games_)  # fetched when its <details> opens
    client.get(desk(tid))
    assert drawn == []


def test_a_qr_image_is_an_svg_the_browser_keeps_and_revalidates(
    olga: User, drawn: list[str]
) -> None:
    tid, games_ = published(olga)
    client = logged_in(olga)
    first = client.get(qr(tid, games_[0]))
    assert first.status_code == 200
    assert first["Content-Type"] == "image/svg+xml"
    assert first.content.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
    cache_control = {part.strip() for part in first["Cache-Control"].split(",")}
    assert {"private", "immutable"} <= cache_control
    assert any(p.startswith("max-age=") and int(p[8:]) >= 24 * 3600 for p in cache_control)
    assert first["Content-Security-Policy"] == "default-src 'none'"
    etag = first["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    # What the code says: the table page's address on this site, and nothing else.
    assert drawn == [f"http://testserver/table/{games_[0]}/"]

    again = client.get(qr(tid, games_[0]), headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert client.get(qr(tid, games_[0])).content == first.content
    assert len(drawn) == 1  # drawn once, then from memory
    other = client.get(qr(tid, games_[1]))
    assert other["ETag"] != etag and other.content != first.content


def test_qr_images_are_for_the_tournaments_desk_only(
    olga: User, sam: User, oscar: User, django_user_model: type[User]
) -> None:
    tid, games_ = published(olga)
    t.tournament_set_role(
        tournament_id=tid, username="sam", role="scorekeeper", grant=True, user=olga
    )
    assert logged_in(sam).get(qr(tid, games_[0])).status_code == 200  # the dashboard shows it
    staff = django_user_model.objects.create_user("stella", is_staff=True)
    assert logged_in(staff).get(qr(tid, games_[0])).status_code == 200
    forbidden = logged_in(oscar).get(qr(tid, games_[0]))
    assert forbidden.status_code == 403
    assert b"<svg" not in forbidden.content
    anonymous = Client().get(qr(tid, games_[0]))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")

    # A game of another tournament (or none) is not this desk's table, not even to its organizer.
    other, other_games = published(olga, names=TWELVE[:8])
    assert logged_in(olga).get(qr(tid, other_games[0])).status_code == 404
    assert logged_in(olga).get(qr(tid, str(uuid.uuid4()))).status_code == 404
    assert logged_in(olga).get(qr(other, games_[0])).status_code == 404
    assert logged_in(olga).post(qr(tid, games_[0])).status_code == 405


def test_score_sheets_draw_each_code_once_then_reuse_it(olga: User, drawn: list[str]) -> None:
    tid, games_ = published(olga)
    client = logged_in(olga)
    first = client.get(desk(tid, "round/1/sheets/print/"))
    assert first.status_code == 200
    assert html(first).count('<svg role="img" aria-label="QR code of table') == len(games_)
    assert sorted(drawn) == sorted(f"http://testserver/table/{g}/" for g in games_)

    def codes(response: Any) -> list[str]:
        return re.findall(r"<svg.*?</svg>", html(response), re.S)

    assert codes(client.get(desk(tid, "round/1/sheets/print/"))) == codes(first)
    client.get(qr(tid, games_[0]))
    assert len(drawn) == len(games_)  # nothing new

    desk_qr.forget()  # another worker: its memory is empty, the shared cache is not
    assert codes(client.get(desk(tid, "round/1/sheets/print/"))) == codes(first)
    assert len(drawn) == len(games_)


def test_a_printed_code_has_its_tables_name(olga: User) -> None:
    tid, games_ = published(olga)
    page = html(logged_in(olga).get(desk(tid, "round/1/sheets/print/")))
    svg = page.split('<figure class="sheet-qr">')[1].split("</svg>")[0]
    assert svg.startswith('\n          <svg role="img" aria-label="QR code of table 1&#x27;s link"')
    assert "<title>QR code of table 1&#x27;s link</title>" in svg
