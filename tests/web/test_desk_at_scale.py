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

from tests.web.desk import HTMX, Capture, desk, finish_table, html, logged_in, new_tournament
from tournaments import services as t
from tournaments.desk import qr as desk_qr
from tournaments.desk import rows as desk_rows

pytestmark = pytest.mark.django_db

TWELVE = [f"Player {n:02d}" for n in range(1, 13)]


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
        assert re.search(
            rf'<img src="/desk/{tid}/qr/{game}.svg\?at=[0-9a-f]{{8}}" '
            rf'alt="QR code of table {number}',
            page,
        )
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
    tables_ = sorted(f"http://testserver/table/{g}/" for g in games_)
    assert sorted(url for url in drawn if "/table/" in url) == tables_
    seat_codes = [url for url in drawn if "/seat/" in url]  # an organizer's: each seat's too
    assert len(seat_codes) == len(set(seat_codes)) == 12
    assert len(drawn) == len(games_) + 12

    def codes(response: Any) -> list[str]:
        return re.findall(r"<svg.*?</svg>", html(response), re.S)

    assert codes(client.get(desk(tid, "round/1/sheets/print/"))) == codes(first)
    client.get(qr(tid, games_[0]))
    assert len(drawn) == len(games_) + 12  # nothing new

    desk_qr.forget()  # another worker: its memory is empty, the shared cache is not
    assert codes(client.get(desk(tid, "round/1/sheets/print/"))) == codes(first)
    assert len(drawn) == len(games_) + 12


def test_a_printed_code_has_its_tables_name(olga: User) -> None:
    tid, games_ = published(olga)
    page = html(logged_in(olga).get(desk(tid, "round/1/sheets/print/")))
    svg = page.split('<figure class="sheet-qr">')[1].split("</svg>")[0]
    assert svg.startswith('\n          <svg role="img" aria-label="QR code of table 1&#x27;s link"')
    assert "<title>QR code of table 1&#x27;s link</title>" in svg


# ----------------------------------------------------------------------------- htmx answers


def version_of(tid: uuid.UUID, user: User) -> int:
    return int(t.tournament_get(tournament_id=tid, user=user).summary["version"])


def oob_versions(body: str) -> set[str]:
    """The versions an answer gives the round panel's forms (out of band), if any."""
    found = re.findall(r'value="(\d+)" class="desk-version" hx-swap-oob="outerHTML:input', body)
    return set(found)


def test_an_htmx_check_in_answers_with_the_row_not_the_round(olga: User) -> None:
    tid, games_ = published(olga, names=TWELVE)
    t.tournament_register(tournament_id=tid, user=olga, names=["Late Lou"], checked_in=False)
    client = logged_in(olga)
    page = html(client.get(desk(tid)))
    shown = re.search(r'name="page_version" value="(\d+)" id="page-version"', page)
    assert shown is not None and int(shown.group(1)) == version_of(tid, olga)
    assert 'hx-include="#page-version"' in page  # the player rows send it

    answer = client.post(
        desk(tid, "players/P13/check-in/"),
        {"checked_in": "1", "page_version": shown.group(1)},
        headers=HTMX,
    )
    assert answer.status_code == 200
    body = html(answer)
    assert body.lstrip().startswith('<tr id="player-P13">')
    assert 'aria-pressed="true"' in body
    assert 'id="round-panel"' not in body and "table-card" not in body
    assert "<svg" not in body and "<img" not in body and 'id="players-panel"' not in body
    assert len(answer.content) < 4000
    assert 'id="player-counts" class="counts" hx-swap-oob="true"' in body
    assert "13 registered · 13 checked in" in " ".join(body.split())
    assert 'id="desk-status" class="desk-status" hx-swap-oob="true"' in body
    now = version_of(tid, olga)
    assert oob_versions(body) == {str(now)}
    assert f'name="page_version" value="{now}" id="page-version" hx-swap-oob="true"' in body

    # The round panel's forms, given that version, work.
    done = client.post(
        desk(tid, "round/1/close/"), {"confirmed": "1", "expected_version": str(now)}, headers=HTMX
    )
    assert done.status_code == 422  # refused for what it is (no results), not a conflict
    assert "cannot close" in html(done)


def test_after_someone_elses_change_the_round_keeps_its_version_and_conflicts(
    olga: User,
) -> None:
    tid, games_ = published(olga, names=TWELVE)
    t.tournament_register(tournament_id=tid, user=olga, names=["Late Lou"], checked_in=False)
    client = logged_in(olga)
    seen = version_of(tid, olga)
    t.tournament_drop(tournament_id=tid, player="P1", user=olga)  # a co-organizer, meanwhile
    answer = client.post(
        desk(tid, "players/P13/check-in/"),
        {"checked_in": "1", "page_version": str(seen)},
        headers=HTMX,
    )
    assert answer.status_code == 200
    assert 'id="round-panel"' not in html(answer)
    assert oob_versions(html(answer)) == set()  # the panel's forms keep what they showed
    assert 'id="page-version" hx-swap-oob' not in html(answer)
    stale = client.post(
        desk(tid, "round/1/close/"), {"confirmed": "1", "expected_version": str(seen)}, headers=HTMX
    )
    assert stale.status_code == 409
    assert "Someone else changed this tournament meanwhile" in html(stale)


def test_a_drop_marks_the_players_standings_row_out_of_band(olga: User) -> None:
    tid, games_ = published(olga, names=TWELVE)
    client = logged_in(olga)
    assert 'id="standing-P2"' in html(client.get(desk(tid)))
    dropped = client.post(  # confirmed: P2's table is being played
        desk(tid, "players/P2/drop/"),
        {"page_version": version_of(tid, olga), "confirm": "1"},
        headers=HTMX,
    )
    assert dropped.status_code == 200
    body = html(dropped)
    assert 'id="round-panel"' not in body
    cell = body.split('<th scope="row" id="standing-P2" hx-swap-oob="true">')[1].split("</th>")[0]
    assert 'class="badge dropped"' in cell
    assert "Reinstate" in body.split("</tr>")[0]  # the row's button
    back = client.post(
        desk(tid, "players/P2/reinstate/"), {"page_version": version_of(tid, olga)}, headers=HTMX
    )
    cell = html(back).split('id="standing-P2" hx-swap-oob="true">')[1].split("</th>")[0]
    assert "dropped" not in cell
    # What the whole page says agrees.
    page = html(client.get(desk(tid)))
    assert 'class="dropped"' not in page.split('id="standing-P2"')[1].split("</tr>")[0]


def test_without_javascript_a_players_change_still_redirects(olga: User) -> None:
    tid, _ = published(olga, names=TWELVE)
    client = logged_in(olga)
    dropped = client.post(desk(tid, "players/P3/drop/"), {"confirm": "1"})
    assert dropped.status_code == 302
    assert dropped["Location"] == desk(tid) + "#player-P3"
    assert "Player 03 has dropped" in html(client.get(dropped["Location"]))


def test_before_round_one_a_check_in_still_refreshes_the_round_panels_counts(olga: User) -> None:
    tid = new_tournament(olga, names=TWELVE, checked_in=False)
    client = logged_in(olga)
    answer = client.post(desk(tid, "players/P1/check-in/"), {"checked_in": "1"}, headers=HTMX)
    assert 'id="round-panel"' in html(answer)
    assert "1 checked in of 12 registered" in " ".join(html(answer).split())


def test_desk_posts_still_need_the_csrf_token(olga: User) -> None:
    tid, _ = published(olga, names=TWELVE)
    client = Client(enforce_csrf_checks=True)
    client.force_login(olga)
    before = version_of(tid, olga)
    for path in ("players/P1/drop/", "players/P1/check-in/", "round/1/close/"):
        assert client.post(desk(tid, path), {}, headers=HTMX).status_code == 403
    assert version_of(tid, olga) == before  # nothing written
    assert not t.tournament_get(tournament_id=tid, user=olga).summary["players"][0]["dropped"]


def test_rows_built_in_python_escape_what_players_are_called(olga: User) -> None:
    odd = '<b>Bo & "Al"</b>'
    tid, _ = published(olga, names=[*TWELVE[:7], odd])
    page = html(logged_in(olga).get(desk(tid)))
    assert "<b>Bo" not in page
    escaped = "&lt;b&gt;Bo &amp; &quot;Al&quot;&lt;/b&gt;"
    assert page.count(escaped) >= 4  # the player row (name, two hidden labels), the standings
    assert f'<th scope="row" id="standing-P8">{escaped}</th>' in page
    assert '<tr id="player-P8">' in page


def test_once_finished_no_version_is_sent_to_forms_that_are_gone(
    olga: User, django_capture_on_commit_callbacks: Capture
) -> None:
    tid, games_ = published(olga, names=TWELVE[:8])
    for number in range(1, len(games_) + 1):
        finish_table(tid, olga, 1, number, django_capture_on_commit_callbacks)
        t.tournament_confirm(tournament_id=tid, round=1, table=number, user=olga)
    t.tournament_close_round(tournament_id=tid, round=1, user=olga)
    t.tournament_finish(tournament_id=tid, user=olga)
    client = logged_in(olga)
    page = html(client.get(desk(tid)))
    assert 'class="desk-version"' not in page  # no form left that carries it
    answer = client.post(
        desk(tid, "players/P1/drop/"), {"page_version": version_of(tid, olga)}, headers=HTMX
    )
    assert answer.status_code == 200
    body = html(answer)
    assert 'id="round-panel"' not in body
    assert oob_versions(body) == set()  # htmx would report a swap with no target as an error
    assert 'id="page-version" hx-swap-oob="true"' in body


def test_an_answer_about_the_round_builds_no_player_rows(
    olga: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round panel (a table confirmed, a swap picked) comes without the players' rows: at
    1,000 players they are most of what the dashboard builds in Python."""
    tid, _ = published(olga, names=TWELVE)
    client = logged_in(olga)
    whole = html(client.get(desk(tid)))
    assert '<tr id="player-P1">' in whole

    def refused(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("built the players' rows")

    monkeypatch.setattr(desk_rows, "player_rows", refused)
    panel = client.get(desk(tid, "round/"), headers=HTMX)
    assert panel.status_code == 200 and 'id="round-panel"' in html(panel)
    closed = client.post(
        desk(tid, "round/1/close/"),
        {"confirmed": "1", "expected_version": str(version_of(tid, olga))},
        headers=HTMX,
    )
    assert closed.status_code == 422 and 'id="round-panel"' in html(closed)
    with pytest.raises(AssertionError, match="players' rows"):
        client.get(desk(tid))
