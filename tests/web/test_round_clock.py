"""The round clock (issue 13): the organizer sets when a round ends, or how long it lasts, on the
desk; every public page, the desk and the big screen show it, and the browser counts down from
the server's time (the clock's JSON). Also the big screen itself."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tests.web.a11y import assert_accessible
from tests.web.desk import (
    HTMX,
    Capture,
    desk,
    finish_table,
    html,
    logged_in,
    new_tournament,
    summary,
    text,
)
from tournaments import services as t
from tournaments.desk.forms import ClockForm
from tournaments.public.clock import left_text

pytestmark = pytest.mark.django_db


def published(user: User, **settings: Any) -> uuid.UUID:
    tid = new_tournament(user, **settings)
    t.tournament_pair(tournament_id=tid, user=user)
    t.tournament_publish(tournament_id=tid, round=1, user=user)
    return tid


def clock_of(tid: uuid.UUID) -> dict[str, Any]:
    response = Client().get(f"/t/{tid}/clock/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    data: dict[str, Any] = response.json()
    return data


def test_a_duration_starts_the_clock_and_every_page_shows_it(olga: User) -> None:
    tid = published(olga)
    client = logged_in(olga)
    assert "No clock yet" in text(client.get(desk(tid)))
    assert clock_of(tid)["clock"] is None

    before = timezone.now()
    started = client.post(desk(tid, "round/1/clock/"), {"clock-minutes": "50"}, headers=HTMX)
    assert started.status_code == 200
    ends = datetime.fromisoformat(summary(tid, olga)["rounds"][0]["ends_at"])
    assert timedelta(minutes=49) < ends - before <= timedelta(minutes=50, seconds=1)
    local = timezone.localtime(ends)
    assert f"Round 1 ends at {local:%H:%M}: every page shows the clock." in text(started)
    assert 'role="timer"' in html(started) and "Change the clock" in html(started)

    data = clock_of(tid)
    assert data["clock"]["round"] == 1
    assert datetime.fromisoformat(data["clock"]["ends_at"]) == ends
    assert data["clock"]["text"] == f"Round 1 ends at {local:%H:%M}."
    assert abs(datetime.fromisoformat(data["now"]) - timezone.now()) < timedelta(seconds=5)

    public = Client()
    for path in ("", "round/1/", "standings/", f"player/{summary(tid, olga)['players'][0]['id']}/"):
        page = public.get(f"/t/{tid}/{path}")
        assert page.status_code == 200, path
        # The end time in words for readers without JavaScript; the countdown's hooks.
        assert f"Round 1 ends at {local:%H:%M}" in text(page), path
        assert f'data-clock="/t/{tid}/clock/"' in html(page), path
        assert "js/clock.js" in html(page), path
    assert_accessible(html(public.get(f"/t/{tid}/round/1/")))


def test_an_end_time_and_the_history(olga: User) -> None:
    tid = published(olga)
    client = logged_in(olga)
    at = timezone.localtime() + timedelta(hours=1, minutes=30)
    done = client.post(desk(tid, "round/1/clock/"), {"clock-ends_at": f"{at:%H:%M}"})
    assert done.status_code == 302
    ends = timezone.localtime(datetime.fromisoformat(summary(tid, olga)["rounds"][0]["ends_at"]))
    assert (ends.hour, ends.minute) == (at.hour, at.minute) and ends > timezone.now()
    history = text(client.get(desk(tid, "history/")))
    assert f"Round clock Round 1 ends at {at:%H:%M}" in history

    stopped = client.post(
        desk(tid, "round/1/clock/"), {"stop": "1", "confirmed": "1"}, headers=HTMX
    )
    assert stopped.status_code == 200 and "The clock of round 1 is stopped." in text(stopped)
    assert "ends_at" not in summary(tid, olga)["rounds"][0]
    assert clock_of(tid)["clock"] is None
    assert "Round 1: clock stopped" in text(client.get(desk(tid, "history/")))


def test_bad_clock_input_is_explained_beside_its_field_and_kept(olga: User) -> None:
    tid = published(olga)
    client = logged_in(olga)
    nothing = client.post(desk(tid, "round/1/clock/"), {}, headers=HTMX)
    assert nothing.status_code == 422
    assert "Give the time the round ends, such as 20:30, or how many minutes it lasts." in (
        html(nothing)
    )
    assert 'aria-invalid="true"' in html(nothing)
    both = client.post(
        desk(tid, "round/1/clock/"), {"clock-ends_at": "20:30", "clock-minutes": "40"}
    )
    assert both.status_code == 422
    assert "Give an end time or a number of minutes, not both." in html(both)
    assert 'value="20:30"' in html(both) and 'value="40"' in html(both)
    silly = client.post(desk(tid, "round/1/clock/"), {"clock-minutes": "0"})
    assert silly.status_code == 422 and 'aria-invalid="true"' in html(silly)
    assert "ends_at" not in summary(tid, olga)["rounds"][0]
    stop_nothing = client.post(
        desk(tid, "round/1/clock/"), {"stop": "1", "confirmed": "1"}, headers=HTMX
    )
    assert stop_nothing.status_code == 422
    assert "Round 1 has no clock to stop." in html(stop_nothing)


def test_the_form_reads_an_end_time_as_the_next_time_the_clock_shows_it() -> None:
    now = timezone.make_aware(datetime(2026, 12, 1, 23, 20))
    after_midnight = ClockForm({"clock-ends_at": "00:15"}, prefix="clock", now=now)
    assert after_midnight.is_valid()
    assert after_midnight.cleaned_data["when"] == timezone.make_aware(datetime(2026, 12, 2, 0, 15))
    passed = ClockForm({"clock-ends_at": "22:00"}, prefix="clock", now=now)
    assert not passed.is_valid()
    assert passed.errors["ends_at"] == [
        "22:00 has passed: give a later time, or a number of minutes."
    ]


def test_only_organizers_set_the_clock_and_only_published_rounds_have_one(
    olga: User, sam: User
) -> None:
    tid = new_tournament(olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    client = logged_in(olga)
    early = client.post(desk(tid, "round/1/clock/"), {"clock-minutes": "30"}, headers=HTMX)
    assert early.status_code == 422
    assert "Publish round 1 first, then start its clock." in html(early)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    t.tournament_set_role(
        tournament_id=tid, username=sam.username, role="scorekeeper", grant=True, user=olga
    )
    keeper = logged_in(sam).post(desk(tid, "round/1/clock/"), {"clock-minutes": "30"})
    assert keeper.status_code == 403
    assert "Start the clock" not in html(logged_in(sam).get(desk(tid)))
    assert Client().post(desk(tid, "round/1/clock/"), {"clock-minutes": "30"}).status_code == 302


def test_a_closed_round_has_no_clock(olga: User, capture: Capture) -> None:
    tid = published(olga, names=["Ana", "Ben", "Cleo", "Dev"])
    t.tournament_set_clock(tournament_id=tid, round=1, minutes=30, user=olga)
    assert clock_of(tid)["clock"] is not None
    finish_table(tid, olga, 1, 1, capture)
    t.tournament_confirm(tournament_id=tid, round=1, table=1, user=olga)
    t.tournament_close_round(tournament_id=tid, round=1, user=olga)
    assert clock_of(tid)["clock"] is None
    assert "ends_at" not in summary(tid, olga)["rounds"][0]
    assert "ends at" not in text(Client().get(f"/t/{tid}/"))


def test_the_big_screen_shows_what_the_public_sees(olga: User, capture: Capture) -> None:
    tid = new_tournament(olga)
    screen = f"/t/{tid}/screen/"
    empty = Client().get(screen)
    assert empty.status_code == 200
    assert "The tables appear here once the organizers publish round 1." in text(empty)
    t.tournament_pair(tournament_id=tid, user=olga)
    # An organizer's projector never shows a proposal.
    assert "Table 1" not in text(logged_in(olga).get(screen))
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    t.tournament_set_clock(tournament_id=tid, round=1, minutes=45, user=olga)
    finish_table(tid, olga, 1, 1, capture)
    t.tournament_confirm(tournament_id=tid, round=1, table=1, user=olga)
    page = Client().get(screen)
    body = text(page)
    assert "Round 1: tables" in body and "Table 1" in body and "Table 2" in body
    first = summary(tid, olga)["rounds"][0]["tables"][0]["seats"][0]["name"]
    assert f"{first} ★ (first player)" in body
    assert "Standings" in body and "Rank Player Points" in body
    assert "Round 1 ends at" in body and 'role="timer"' in html(page)
    assert 'data-rotate="20"' in html(page) and "js/screen.js" in html(page)
    assert '<meta http-equiv="refresh"' in html(page)  # without JavaScript, inside <noscript>
    assert_accessible(html(page))
    poll = Client().get(screen, headers=HTMX)
    assert html(poll).lstrip().startswith('<div id="screen"')

    t.tournament_change_settings(tournament_id=tid, changes={"standings_hidden_from": 1}, user=olga)
    assert "The standings are hidden for now." in text(logged_in(olga).get(screen))


def test_the_time_left_as_a_clock_shows_it() -> None:
    assert left_text(9) == "0:09"
    assert left_text(12 * 60 + 4) == "12:04"
    assert left_text(3600 + 5 * 60 + 9) == "1:05:09"
    assert left_text(-3) == "0:00"


def test_the_game_and_table_pages_carry_the_clock_while_the_game_is_open(olga: User) -> None:
    tid = published(olga)
    game = summary(tid, olga)["rounds"][0]["tables"][0]["game"]
    hook = f'data-clock="/t/{tid}/clock/"'
    replay = html(Client().get(f"/g/{game}/"))
    assert hook in replay and "js/clock.js" in replay
    assert hook in html(logged_in(olga).get(f"/table/{game}/"))


def test_the_api_sets_and_stops_the_clock(olga: User, sam: User) -> None:
    from rest_framework.test import APIClient

    tid = published(olga)
    url = f"/api/tournaments/{tid}/rounds/1/clock/"
    client = APIClient()
    client.force_authenticate(olga)
    started = client.post(url, {"minutes": 45}, format="json")
    assert started.status_code == 201
    ends = datetime.fromisoformat(summary(tid, olga)["rounds"][0]["ends_at"])
    assert timedelta(minutes=44) < ends - timezone.now() <= timedelta(minutes=45)
    read = client.get(f"/api/tournaments/{tid}/").json()
    assert read["rounds"][0]["ends_at"] == summary(tid, olga)["rounds"][0]["ends_at"]
    both = client.post(url, {"minutes": 45, "stop": True}, format="json")
    assert both.status_code == 422 and both.json()["error"]["code"] == "bad_clock"
    past = client.post(url, {"ends_at": "2020-01-01T10:00:00Z"}, format="json")
    assert past.status_code == 422 and past.json()["error"]["code"] == "clock_past"
    stopped = client.post(url, {"stop": True}, format="json")
    assert stopped.status_code == 201
    assert "ends_at" not in summary(tid, olga)["rounds"][0]
    other = APIClient()
    other.force_authenticate(sam)
    assert other.post(url, {"minutes": 5}, format="json").status_code == 403
