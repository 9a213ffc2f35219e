"""Seat links at the desk (issue 12): issued when a round is published, printed beside each
seat's row of the score sheets (organizers only), reissued, revoked and shared from the desk,
and printed again after a reissue."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import segno
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from games import services as games
from games.models import SeatLink
from games.services import NotAllowed
from tests.web.desk import HTMX, desk, html, logged_in, new_tournament, text
from tournaments import services as t
from tournaments.desk import qr as desk_qr

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
SEAT_URL = re.compile(r"http://testserver/seat/([^/\"<\s]+)/")


@pytest.fixture(autouse=True)
def fresh_qr_cache() -> Iterator[None]:
    desk_qr.forget()
    cache.clear()
    yield
    desk_qr.forget()
    cache.clear()


def published(organizer: User, names: list[str] = NAMES) -> tuple[uuid.UUID, list[str]]:
    tid = new_tournament(organizer, names=names)
    t.tournament_pair(tournament_id=tid, user=organizer)
    change = t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    return tid, [table["game"] for table in change.state["rounds"][0]["tables"]]


def seats_of(tid: uuid.UUID, organizer: User) -> list[list[str]]:
    rnd = t.tournament_get(tournament_id=tid, user=organizer).summary["rounds"][0]
    return [[s["name"] for s in table["seats"]] for table in rnd["tables"]]


def tokens(response: Any) -> list[str]:
    return SEAT_URL.findall(html(response))


def table_page(tid: uuid.UUID, table: int = 1) -> str:
    return desk(tid, f"round/1/table/{table}/seats/")


def action(tid: uuid.UUID, seat: int, what: str, table: int = 1) -> str:
    return desk(tid, f"round/1/table/{table}/seats/{seat}/{what}/")


# ----------------------------------------------------------------------------- issuing


def test_publishing_a_round_gives_every_seat_of_every_table_its_own_link(olga: User) -> None:
    tid, game_ids = published(olga)
    seats = seats_of(tid, olga)
    for game_id, names in zip(game_ids, seats, strict=True):
        links = games.seat_links_of([uuid.UUID(game_id)])[uuid.UUID(game_id)]
        assert [(link.seat, link.player) for link in links] == list(enumerate(names, start=1))
        for link in links:
            access = games.seat_open(link.token)
            assert (access.game_id, access.seat) == (uuid.UUID(game_id), link.seat)


def test_a_round_published_before_seat_links_gets_them_at_the_first_look(olga: User) -> None:
    tid, game_ids = published(olga)
    SeatLink.objects.filter(
        game_id__in=[uuid.UUID(g) for g in game_ids]
    ).delete()  # as before this change
    found = t.tournament_seat_links(tournament_id=tid, round=1, user=olga)
    assert sorted(found) == [1, 2]
    assert SeatLink.objects.filter(game_id__in=[uuid.UUID(g) for g in game_ids]).count() == len(
        NAMES
    )
    again = t.tournament_seat_links(tournament_id=tid, round=1, user=olga)
    assert again == found  # issued once: the same links


# ----------------------------------------------------------------------------- score sheets


def test_organizers_sheets_carry_each_seats_code_beside_its_row(olga: User) -> None:
    tid, game_ids = published(olga)
    page = logged_in(olga).get(desk(tid, "round/1/sheets/print/"))
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]
    body = html(page)
    assert body.count('aria-label="QR code of table') == 2  # the scorekeeper's codes stay
    found = tokens(page)
    assert len(found) == len(NAMES) == len(set(found))
    seats = seats_of(tid, olga)
    for names in seats:
        for seat, name in enumerate(names, start=1):
            assert f'aria-label="QR code of {name}&#x27;s own link (seat {seat})"' in body
            assert f"{name}: scan to play on your phone" in body
    opened = {games.seat_open(token).player for token in found}
    assert opened == set(NAMES)


def test_scorekeepers_sheets_carry_no_seat_link(olga: User, sam: User) -> None:
    tid, _ = published(olga)
    t.tournament_set_role(
        tournament_id=tid, username="sam", role="scorekeeper", grant=True, user=olga
    )
    page = logged_in(sam).get(desk(tid, "round/1/sheets/print/"))
    assert page.status_code == 200
    assert html(page).count('aria-label="QR code of table') == 2
    assert "/seat/" not in html(page) and "scan to play on your phone" not in html(page)


def test_a_proposed_rounds_sheets_have_no_seat_links(olga: User) -> None:
    tid = new_tournament(olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    page = logged_in(olga).get(desk(tid, "round/1/sheets/print/"))
    assert page.status_code == 200 and "/seat/" not in html(page)


def test_the_shared_cache_never_holds_a_token_in_a_key(
    olga: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys: list[str] = []
    real = cache.set_many

    def spy(data: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        keys.extend(data)
        return real(data, *args, **kwargs)

    monkeypatch.setattr(cache, "set_many", spy)
    tid, _ = published(olga)
    found = tokens(logged_in(olga).get(desk(tid, "round/1/sheets/print/")))
    assert len(keys) == len(NAMES) + 2
    for token in found:
        _, _, nonce_and_sig = token.partition(".")
        assert not any(token in key or nonce_and_sig.split(":")[0] in key for key in keys)


def _matrix_of(svg: str) -> list[list[int]]:
    """The dark modules of segno's SVG drawing (one path of horizontal runs), border removed."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))  # type: ignore[union-attr]
    grid = [[0] * size for _ in range(size)]
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", svg.split(' d="')[1]):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for column in range(int(x), int(x + float(a))):
                grid[int(y)][column] = 1
            x += float(a)
    border = desk_qr.BORDER
    return [row[border:-border] for row in grid[border:-border]]


def _format(matrix: list[list[int]]) -> tuple[int, int]:
    """The (error correction bits, mask) a scanner reads first: the format information around
    the top left finder (ISO 18004, 7.9), its BCH code checked."""
    spots = [(8, i) for i in range(6)] + [(8, 7), (8, 8), (7, 8)]
    spots += [(14 - i, 8) for i in range(9, 15)]
    bits = sum(matrix[y][x] << i for i, (x, y) in enumerate(spots)) ^ 0x5412
    data = bits >> 10
    remainder = data << 10
    for shift in range(4, -1, -1):
        if remainder & (1 << (shift + 10)):
            remainder ^= 0x537 << shift
    assert bits & 0x3FF == remainder, "the format bits' BCH code does not check"
    return data >> 3, data & 7


def test_a_seat_code_reads_back_as_its_link_at_level_m_and_the_fixed_mask(olga: User) -> None:
    tid, _ = published(olga)
    page = html(logged_in(olga).get(desk(tid, "round/1/sheets/print/")))
    url = SEAT_URL.search(page).group(0)  # type: ignore[union-attr]
    drawing = desk_qr.svg(url)  # what the sheet put inline (from the memo)
    assert drawing.split(' d="')[1] in page
    matrix = _matrix_of(drawing)
    expected = segno.make(url, error="m", mask=desk_qr.MASK)
    assert matrix == [list(row) for row in expected.matrix]
    assert _format(matrix) == (0, desk_qr.MASK)  # 0b00: level M
    # The same data as segno's own choice of mask: only the mask differs.
    best = segno.make(url, error="m")
    assert (best.version, best.error) == (expected.version, expected.error)


# ----------------------------------------------------------------------------- the desk


def test_the_round_overview_shows_each_seats_state_but_no_link(olga: User) -> None:
    tid, _ = published(olga)
    first = t.tournament_seat_links(tournament_id=tid, round=1, user=olga)[1]
    games.seat_open(first[0].token, opened=True)
    t.tournament_seat_link_change(
        tournament_id=tid, round=1, table=1, seat=2, action="revoke", user=olga
    )
    t.tournament_seat_link_change(
        tournament_id=tid, round=1, table=1, seat=3, action="share", user=olga
    )
    page = logged_in(olga).get(desk(tid, "round/1/seats/"))
    assert page.status_code == 200
    words = text(page)
    names = seats_of(tid, olga)[0]
    assert "1 of 8 phones joined" in words
    assert f"{names[0]}: phone joined" in words
    assert f"{names[1]}: revoked: no phone can use it" in words
    assert f"{names[2]}: not opened yet, shared" in words
    assert "/seat/" not in html(page)


def test_the_dashboard_leads_organizers_to_the_seat_links(olga: User, sam: User) -> None:
    tid, _ = published(olga)
    t.tournament_set_role(
        tournament_id=tid, username="sam", role="scorekeeper", grant=True, user=olga
    )
    mine = html(logged_in(olga).get(desk(tid)))
    assert (
        f'href="{table_page(tid, 2)}"' in mine and f'href="{desk(tid, "round/1/seats/")}"' in mine
    )
    theirs = html(logged_in(sam).get(desk(tid)))
    assert "seats/" not in theirs and "/seat/" not in theirs
    assert "/seat/" not in mine  # the dashboard itself carries no link


def test_reissue_gives_a_new_link_and_the_old_one_stops_at_once(olga: User) -> None:
    tid, _ = published(olga)
    client = logged_in(olga)
    page = client.get(table_page(tid))
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    old = tokens(page)
    assert len(old) == 4
    answer = client.post(action(tid, 2, "reissue"), headers=HTMX)
    assert answer.status_code == 200
    assert (
        html(answer)
        .lstrip()
        .startswith('<li class="seat-link seat-state-waiting" id="seat-link-2"')
    )
    name = seats_of(tid, olga)[0][1]
    assert f"{name} (seat 2) has a new link: the old one no longer works." in text(answer)
    (new,) = tokens(answer)
    assert new != old[1]
    with pytest.raises(NotAllowed) as refused:
        games.seat_open(old[1])
    assert refused.value.code == "seat_link_revoked"
    assert games.seat_open(new).seat == 2
    assert games.seat_open(old[0]).seat == 1  # the others hold


def test_revoke_asks_first_then_stops_the_link(olga: User) -> None:
    tid, _ = published(olga)
    client = logged_in(olga)
    token = tokens(client.get(table_page(tid)))[0]
    unasked = client.post(action(tid, 1, "revoke"), headers=HTMX)
    assert unasked.status_code == 422
    assert "Confirm that the link is to be revoked" in text(unasked)
    assert games.seat_open(token).seat == 1  # nothing lost
    done = client.post(action(tid, 1, "revoke"), {"confirm": "1"}, headers=HTMX)
    assert done.status_code == 200 and "Revoked: no phone can use it" in text(done)
    assert tokens(done) == []
    with pytest.raises(NotAllowed):
        games.seat_open(token)
    # Reissuing a revoked seat gives it a working link again.
    again = client.post(action(tid, 1, "reissue"), headers=HTMX)
    assert games.seat_open(tokens(again)[0]).seat == 1


def test_sharing_lets_the_tables_phones_enter_for_a_seat_and_stops(olga: User) -> None:
    tid, _ = published(olga)
    client = logged_in(olga)
    found = tokens(client.get(table_page(tid)))
    names = seats_of(tid, olga)[0]
    shared = client.post(action(tid, 3, "share"), headers=HTMX)
    assert shared.status_code == 200
    assert f"The table's phones enter for {names[2]}" in text(shared)
    assert 'aria-pressed="true"' in html(shared)
    assert games.seat_open(found[0]).acts_for == ((1, names[0]), (3, names[2]))
    client.post(action(tid, 3, "unshare"), headers=HTMX)
    assert games.seat_open(found[0]).acts_for == ((1, names[0]),)


def test_without_javascript_an_action_comes_back_to_the_tables_page(olga: User) -> None:
    tid, _ = published(olga)
    client = logged_in(olga)
    done = client.post(action(tid, 4, "share"), follow=True)
    assert done.redirect_chain[-1][0].endswith("/round/1/table/1/seats/#seat-link-4")
    assert "phones may now enter for" in text(done)
    refused = client.post(action(tid, 4, "revoke"))
    assert refused.status_code == 422
    assert "Confirm that the link is to be revoked" in text(refused)
    assert len(tokens(refused)) == 4


def test_unknown_tables_seats_and_actions_are_not_found(olga: User) -> None:
    tid, _ = published(olga)
    client = logged_in(olga)
    assert client.get(table_page(tid, 9)).status_code == 404
    assert client.post(action(tid, 1, "explode")).status_code == 404
    assert client.post(action(tid, 1, "reissue", table=9), headers=HTMX).status_code == 404
    assert client.post(action(tid, 7, "reissue"), headers=HTMX).status_code == 404
    assert client.get(desk(tid, "round/2/seats/")).status_code == 404
    assert client.get(table_page(tid)).status_code == 200


def test_a_seat_action_needs_the_csrf_token(olga: User) -> None:
    tid, _ = published(olga)
    client = Client(enforce_csrf_checks=True)
    client.force_login(olga)
    page = client.get(table_page(tid))
    assert page.status_code == 200
    assert client.post(action(tid, 1, "reissue"), headers=HTMX).status_code == 403
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html(page)).group(1)  # type: ignore[union-attr]
    ok = client.post(action(tid, 1, "reissue"), {"csrfmiddlewaretoken": csrf}, headers=HTMX)
    assert ok.status_code == 200


def test_a_fresh_link_prints_alone_for_its_player(olga: User) -> None:
    tid, _ = published(olga)
    client = logged_in(olga)
    new = tokens(client.post(action(tid, 2, "reissue"), headers=HTMX))[0]
    one = client.get(desk(tid, "round/1/table/1/seats/print/?seat=2"))
    assert one.status_code == 200 and "no-store" in one["Cache-Control"]
    assert tokens(one) == [new]
    assert html(one).count("<svg") == 1
    whole = client.get(desk(tid, "round/1/table/1/seats/print/"))
    assert len(tokens(whole)) == 4 and new in tokens(whole)
    assert client.get(desk(tid, "round/1/table/1/seats/print/?seat=9")).status_code == 404


@pytest.mark.parametrize("who", ["scorekeeper", "other_organizer", "nobody", "anonymous"])
def test_only_the_tournaments_organizers_see_or_change_seat_links(
    who: str, olga: User, sam: User, oscar: User, django_user_model: type[User]
) -> None:
    tid, _ = published(olga)
    t.tournament_set_role(
        tournament_id=tid, username="sam", role="scorekeeper", grant=True, user=olga
    )
    other_org = django_user_model.objects.create_user("otto", password="x")
    new_tournament(other_org, names=NAMES[:4])
    client = {
        "scorekeeper": lambda: logged_in(sam),
        "other_organizer": lambda: logged_in(other_org),
        "nobody": lambda: logged_in(oscar),
        "anonymous": lambda: Client(),
    }[who]()
    before = list(SeatLink.objects.order_by("pk").values_list("nonce", "revoked_at", "shared"))
    gets = [
        desk(tid, "round/1/seats/"),
        table_page(tid),
        desk(tid, "round/1/table/1/seats/print/"),
        desk(tid, "round/1/table/1/seats/print/?seat=1"),
    ]
    posts = [action(tid, 1, what) for what in ("reissue", "revoke", "share", "unshare")]
    for url in gets:
        response = client.get(url)
        assert response.status_code in ((302,) if who == "anonymous" else (403, 404)), url
        assert "/seat/" not in html(response) and "<svg" not in html(response)
    for url in posts:
        for headers in ({}, HTMX):
            response = client.post(url, {"confirm": "1"}, headers=headers)
            assert response.status_code in ((200, 302) if who == "anonymous" else (403,)), url
            if who == "anonymous":  # to the login page, nothing done
                assert response.get("Location", response.get("HX-Redirect", "")).startswith(
                    "/accounts/login/"
                )
            assert "/seat/" not in html(response)
    assert (
        list(SeatLink.objects.order_by("pk").values_list("nonce", "revoked_at", "shared")) == before
    )


def test_the_seat_link_pages_pass_the_accessibility_checker(olga: User) -> None:
    from tests.web.a11y import assert_accessible

    tid, _ = published(olga)
    client = logged_in(olga)
    client.post(action(tid, 2, "revoke"), {"confirm": "1"})
    client.post(action(tid, 3, "share"))
    for url in (
        desk(tid, "round/1/seats/"),
        table_page(tid),
        desk(tid, "round/1/table/1/seats/print/"),
        desk(tid, "round/1/sheets/print/"),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert_accessible(html(response), url)
