"""The spectators' delay on the organizer desk (issue 27): the tournament's delay in the public
view's settings form (minutes; the services keep seconds), a round's own delay on the round
panel (set, or given back to the tournament's), the history's words. As the round clock's form
(tests/web/test_round_clock.py): htmx and not, errors in words, nothing typed lost."""

from __future__ import annotations

import uuid
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from tests.web.a11y import assert_accessible
from tests.web.desk import (
    HTMX,
    Capture,
    desk,
    finish_table,
    html,
    logged_in,
    messages_of,
    new_tournament,
    summary,
)
from tests.web.desk import text as tagless
from tournaments import services as t
from tournaments.desk import history
from tournaments.desk.forms import PublicForm

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    """The page's text, its entities read (the apostrophes of "Spectators' delay")."""
    return unescape(tagless(response))


def published(user: User, **settings: Any) -> uuid.UUID:
    tid = new_tournament(user, **settings)
    t.tournament_pair(tournament_id=tid, user=user)
    t.tournament_publish(tournament_id=tid, round=1, user=user)
    return tid


def public_form(tid: uuid.UUID, user: User, **values: str) -> dict[str, str]:
    """The settings form as it stands on the desk, with ``values`` typed in."""
    settings = summary(tid, user)["settings"]
    form = {
        "public-standings_hidden_from": str(settings.get("standings_hidden_from") or ""),
        "public-time_zone": settings.get("time_zone") or "",
    }
    for key in ("standings_revealed", "downloads_released", "rank_not_checked_in"):
        if settings.get(key):
            form[f"public-{key}"] = "on"
    return form | {f"public-{key}": value for key, value in values.items()}


def test_the_tournament_delay_is_a_setting_in_minutes(olga: User) -> None:
    tid = new_tournament(olga)
    client = logged_in(olga)
    page = client.get(desk(tid))
    assert "Spectators' delay (minutes)" in text(page)
    assert "The organizers, the scorekeepers and the table's own seats see it at once." in (
        text(page)
    )
    assert 'name="public-relay_delay" value="0"' in html(page)

    saved = client.post(
        desk(tid, "settings/"), public_form(tid, olga, relay_delay="5"), headers=HTMX
    )
    assert saved.status_code == 200, html(saved)
    assert "Saved: the public pages show this now." in text(saved)
    assert summary(tid, olga)["settings"]["relay_delay"] == 300
    assert 'name="public-relay_delay" value="5"' in html(saved)
    assert "Spectators' delay 5 minutes" in text(saved)  # all the tournament's settings
    assert_accessible(html(client.get(desk(tid))))

    # Saving the form again for another setting leaves the delay as it is.
    client.post(
        desk(tid, "settings/"), public_form(tid, olga, relay_delay="5", time_zone="Asia/Tokyo")
    )
    assert summary(tid, olga)["settings"]["relay_delay"] == 300
    emptied = client.post(desk(tid, "settings/"), public_form(tid, olga, relay_delay=""))
    assert emptied.status_code == 302
    assert "relay_delay" not in summary(tid, olga)["settings"]  # 0: no delay

    words = [
        r.what
        for r in history.history_rows(t.tournament_history(tournament_id=tid, user=olga), [])
        if r.action == "Settings changed"
    ]
    assert words[:3] == [
        "spectators' delay: none",
        "time zone: Asia/Tokyo",
        "spectators' delay: 5 minutes",
    ]


@pytest.mark.parametrize("typed", ["61", "-1", "2.5", "soon"])
def test_a_bad_delay_is_explained_and_kept(olga: User, typed: str) -> None:
    tid = new_tournament(olga)
    response = logged_in(olga).post(
        desk(tid, "settings/"), public_form(tid, olga, relay_delay=typed), headers=HTMX
    )
    assert response.status_code == 422
    assert "Give the delay in whole minutes, from 0 to 60." in text(response)
    assert f'value="{typed}"' in html(response) and 'aria-invalid="true"' in html(response)
    assert "relay_delay" not in summary(tid, olga)["settings"]


def test_a_delay_set_in_seconds_is_kept_when_other_settings_are_saved(olga: User) -> None:
    tid = new_tournament(olga)
    t.tournament_change_settings(tournament_id=tid, changes={"relay_delay": 90}, user=olga)
    current = summary(tid, olga)["settings"]
    form = PublicForm(
        public_form(tid, olga, relay_delay="2", time_zone="Asia/Tokyo"), prefix="public"
    )
    assert form.is_valid(), form.errors
    assert form.changes(current) == {"time_zone": "Asia/Tokyo"}
    page = logged_in(olga).get(desk(tid))
    assert 'name="public-relay_delay" value="2"' in html(page)  # 90 s, shown rounded up
    assert "Spectators' delay 90 seconds" in text(page)
    other = PublicForm(public_form(tid, olga, relay_delay="3"), prefix="public")
    assert other.is_valid() and other.changes(current) == {"relay_delay": 180}


def test_a_round_gets_its_own_delay_and_gives_it_back(olga: User) -> None:
    tid = published(olga)
    t.tournament_change_settings(tournament_id=tid, changes={"relay_delay": 120}, user=olga)
    client = logged_in(olga)
    page = client.get(desk(tid))
    assert "Spectators see round 1 2 minutes late." in text(page)
    assert "It is the tournament's delay (set with what the public sees)." in text(page)
    assert 'name="delay-minutes" value="2"' in html(page)
    assert "Use the tournament's delay" not in text(page)

    done = client.post(desk(tid, "round/1/delay/"), {"delay-minutes": "5"}, headers=HTMX)
    assert done.status_code == 200, html(done)
    assert summary(tid, olga)["rounds"][0]["relay_delay"] == 300
    assert "Spectators see round 1 5 minutes late." in text(done)
    assert "It is this round's own delay (the tournament's: 2 minutes)." in text(done)
    assert "Use the tournament's delay" in text(done)
    assert 'name="delay-minutes" value="5"' in html(done)
    assert_accessible(html(client.get(desk(tid))))

    none = client.post(desk(tid, "round/1/delay/"), {"delay-minutes": "0"})
    assert none.status_code == 302
    assert messages_of(client.get(none["Location"])) == [
        "Spectators see round 1 as it is played (no delay)."
    ]
    assert summary(tid, olga)["rounds"][0]["relay_delay"] == 0

    back = client.post(desk(tid, "round/1/delay/"), {"tournament": "1"}, headers=HTMX)
    assert back.status_code == 200
    assert (
        "Round 1 has the tournament's delay again. Spectators see round 1 2 minutes late."
        in text(back)
    )
    assert "relay_delay" not in summary(tid, olga)["rounds"][0]

    rows = history.history_rows(t.tournament_history(tournament_id=tid, user=olga), [])
    said = [(r.action, r.what) for r in rows if r.action == "Spectators' delay"]
    assert said == [
        ("Spectators' delay", "Round 1: spectators' delay back to the tournament's"),
        ("Spectators' delay", "Round 1: spectators' delay set to 0 minutes"),
        ("Spectators' delay", "Round 1: spectators' delay set to 5 minutes"),
    ]
    listed = text(client.get(desk(tid, "history/")))
    assert "Spectators' delay Round 1: spectators' delay set to 5 minutes" in listed
    # Undoable, as the other round actions.
    assert all(r.undoable for r in rows if r.action == "Spectators' delay" and not r.undone_by)


def test_a_proposed_round_has_its_delay_too(olga: User) -> None:
    tid = new_tournament(olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    client = logged_in(olga)
    assert "Spectators see round 1 as it is played (no delay)." in text(client.get(desk(tid)))
    done = client.post(desk(tid, "round/1/delay/"), {"delay-minutes": "10"}, headers=HTMX)
    assert done.status_code == 200
    assert "Spectators see round 1 10 minutes late." in text(done)
    assert summary(tid, olga)["rounds"][0]["relay_delay"] == 600


def test_bad_round_delay_input_is_explained_beside_its_field_and_kept(olga: User) -> None:
    tid = published(olga)
    client = logged_in(olga)
    for typed in ("", "90", "-3", "five"):
        response = client.post(desk(tid, "round/1/delay/"), {"delay-minutes": typed}, headers=HTMX)
        assert response.status_code == 422, typed
        assert "Give the delay in whole minutes, from 0 to 60." in text(response)
        assert 'aria-invalid="true"' in html(response)
        if typed:
            assert f'value="{typed}"' in html(response)
    assert "relay_delay" not in summary(tid, olga)["rounds"][0]
    client.post(desk(tid, "round/1/delay/"), {"delay-minutes": "4"})
    same = client.post(desk(tid, "round/1/delay/"), {"delay-minutes": "4"}, headers=HTMX)
    assert same.status_code == 422
    assert "The round already has this delay." in text(same)
    assert 'value="4"' in html(same)


def test_a_closed_round_keeps_its_delay(olga: User, capture: Capture) -> None:
    tid = published(olga, names=["Ana", "Ben", "Cleo", "Dev"])
    t.tournament_set_delay(tournament_id=tid, round=1, seconds=60, user=olga)
    finish_table(tid, olga, 1, 1, capture)
    t.tournament_confirm(tournament_id=tid, round=1, table=1, user=olga)
    t.tournament_close_round(tournament_id=tid, round=1, user=olga)
    client = logged_in(olga)
    assert "Set this round's delay" not in text(client.get(desk(tid)))
    late = client.post(desk(tid, "round/1/delay/"), {"delay-minutes": "3"}, headers=HTMX)
    assert late.status_code == 422
    assert "Round 1 is closed: its tables are no longer played." in text(late)
    assert summary(tid, olga)["rounds"][0]["relay_delay"] == 60


def test_only_organizers_set_a_round_delay(olga: User, sam: User) -> None:
    tid = published(olga)
    t.tournament_set_role(
        tournament_id=tid, username=sam.username, role="scorekeeper", grant=True, user=olga
    )
    keeper = logged_in(sam)
    page = keeper.get(desk(tid))
    assert "Spectators see round 1 as it is played (no delay)." in text(page)  # told, not asked
    assert "Set this round's delay" not in text(page)
    assert keeper.post(desk(tid, "round/1/delay/"), {"delay-minutes": "5"}).status_code == 403
    assert keeper.post(desk(tid, "round/1/delay/"), {"tournament": "1"}).status_code == 403
    assert Client().post(desk(tid, "round/1/delay/"), {"delay-minutes": "5"}).status_code == 302
    assert "relay_delay" not in summary(tid, olga)["rounds"][0]


@pytest.mark.parametrize(
    ("language", "sentence", "history_words"),
    [
        (
            "fr",
            "Les spectateurs voient la ronde 1 avec 5 minutes de retard.",
            "Ronde 1 : délai des spectateurs fixé à 5 minutes",
        ),
        (
            "ru",
            "Зрители видят тур 1 с опозданием на 5 минут.",
            "Тур 1: задержка для зрителей — 5 минут",
        ),
        (
            "ja",
            "観戦者にはラウンド1が5分遅れで表示されます。",
            "ラウンド1：観戦者向けの遅延を5分に設定",
        ),
    ],
)
def test_the_delay_in_each_language(
    olga: User, language: str, sentence: str, history_words: str
) -> None:
    tid = published(olga)
    t.tournament_set_delay(tournament_id=tid, round=1, seconds=300, user=olga)
    client = logged_in(olga)
    page = client.get(desk(tid), HTTP_ACCEPT_LANGUAGE=language)
    try:
        assert sentence in text(page)
        assert history_words in text(
            client.get(desk(tid, "history/"), HTTP_ACCEPT_LANGUAGE=language)
        )
    finally:
        translation.deactivate()
