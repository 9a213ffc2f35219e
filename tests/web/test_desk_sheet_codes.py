"""The score sheets' QR codes drawn ahead of the first print (issue 28): once a round is published,
a worker draws every code of its sheets (the tables' links and the seats' own) into the shared
cache, so the first print draws none; a reissued seat link is drawn anew, its old code never
shown; nothing is drawn ahead where tasks run inline or without PUBLIC_URL."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import segno
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import override_settings

from tests.web.desk import HTMX, desk, html, logged_in, new_tournament
from tests.web.test_desk_seat_links import _format, _matrix_of
from tournaments import services as t
from tournaments import tasks
from tournaments.desk import qr as desk_qr
from tournaments.desk import sheets

pytestmark = pytest.mark.django_db

SITE = "http://club.example.org:8000"
NAMES = [f"Player {n:02d}" for n in range(1, 13)]
SEAT_URL = re.compile(rf"{re.escape(SITE)}/seat/[^/\"<\s]+/")


@pytest.fixture(autouse=True)
def fresh_qr_cache() -> Iterator[None]:
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


def published(organizer: User) -> tuple[uuid.UUID, list[str]]:
    tid = new_tournament(organizer, names=NAMES)
    t.tournament_pair(tournament_id=tid, user=organizer)
    change = t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    return tid, [table["game"] for table in change.state["rounds"][0]["tables"]]


def codes(response: Any) -> list[str]:
    return re.findall(r"<svg.*?</svg>", html(response), re.S)


@override_settings(PUBLIC_URL=SITE)
def test_a_published_rounds_codes_are_drawn_ahead_and_the_first_print_draws_none(
    olga: User, drawn: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tid, games_ = published(olga)
    keys: list[str] = []
    real = cache.set_many

    def spy(data: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        keys.extend(data)
        return real(data, *args, **kwargs)

    monkeypatch.setattr(cache, "set_many", spy)
    assert tasks.draw_sheet_codes(str(tid)) == len(games_) + len(NAMES)
    assert sorted(u for u in drawn if "/table/" in u) == sorted(
        f"{SITE}/table/{g}/" for g in games_
    )
    assert len({u for u in drawn if "/seat/" in u}) == len(NAMES)
    ahead = list(drawn)
    assert len(keys) == len(ahead)
    for url in ahead:  # the shared cache's keys are hashes: no token, no link
        assert not any(url.rsplit("/", 2)[-2] in key for key in keys)

    desk_qr.forget()  # the print is another process's: only the shared cache has them
    page = logged_in(olga).get(desk(tid, "round/1/sheets/print/"))
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    assert drawn == ahead  # nothing drawn at the print
    printed = SEAT_URL.findall(html(page))
    assert sorted(printed) == sorted(u for u in ahead if "/seat/" in u)
    assert len(codes(page)) == len(games_) + len(NAMES)

    # What the sheet shows is the link's code (read back: level M, the fixed mask).
    drawing = desk_qr.svg(printed[0])
    assert drawing.split(' d="')[1] in html(page)
    matrix = _matrix_of(drawing)
    assert matrix == [list(row) for row in segno.make(printed[0], error="m", mask=0).matrix]
    assert _format(matrix) == (0, desk_qr.MASK)

    again = logged_in(olga).get(desk(tid, "round/1/sheets/print/"))
    assert codes(again) == codes(page) and drawn == ahead


@override_settings(PUBLIC_URL=SITE)
def test_a_reissued_seat_link_is_drawn_anew_and_its_old_code_is_gone(
    olga: User, drawn: list[str]
) -> None:
    tid, _ = published(olga)
    tasks.draw_sheet_codes(str(tid))
    client = logged_in(olga)
    before = client.get(desk(tid, "round/1/sheets/print/"))
    old = set(SEAT_URL.findall(html(before)))
    ahead = len(drawn)
    answer = client.post(desk(tid, "round/1/table/1/seats/2/reissue/"), headers=HTMX)
    assert answer.status_code == 200
    after = client.get(desk(tid, "round/1/sheets/print/"))
    new = set(SEAT_URL.findall(html(after)))
    (gone,) = old - new
    (fresh,) = new - old
    assert drawn[ahead:] == [fresh]  # one code drawn: the new link's
    assert desk_qr.svg(gone).split(' d="')[1] not in html(after)


def test_without_public_url_nothing_is_drawn_ahead(olga: User, drawn: list[str]) -> None:
    tid, _ = published(olga)
    assert sheets.draw_published(tid) == 0
    assert drawn == []


@override_settings(PUBLIC_URL=SITE)
def test_a_proposed_round_has_nothing_to_draw_ahead(olga: User, drawn: list[str]) -> None:
    tid = new_tournament(olga, names=NAMES)
    t.tournament_pair(tournament_id=tid, user=olga)
    assert tasks.draw_sheet_codes(str(tid)) == 0
    assert drawn == []


@pytest.mark.parametrize(
    ("eager", "site", "queued"),
    [(False, SITE, True), (True, SITE, False), (False, "", False)],
    ids=["a worker and PUBLIC_URL", "tasks inline", "no PUBLIC_URL"],
)
def test_publishing_queues_the_drawing_where_a_worker_runs(
    olga: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
    eager: bool,
    site: str,
    queued: bool,
) -> None:
    from games import queue

    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(queue, "send", lambda task, *args: sent.append((task.name, args)))
    tid = new_tournament(olga, names=NAMES)
    with override_settings(CELERY_TASK_ALWAYS_EAGER=eager, PUBLIC_URL=site):
        with django_capture_on_commit_callbacks(execute=True):
            t.tournament_pair(tournament_id=tid, user=olga)
        assert not [name for name, _ in sent if name == "tournaments.draw_sheet_codes"]
        with django_capture_on_commit_callbacks(execute=True):
            t.tournament_publish(tournament_id=tid, round=1, user=olga)
    mine = [args for name, args in sent if name == "tournaments.draw_sheet_codes"]
    assert mine == ([(str(tid),)] if queued else [])
