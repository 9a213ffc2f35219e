"""The desk asks before every action that is hard or impossible to take back, one way for all
(tournaments.desk.confirm, issue 23 item 11): the first POST changes nothing and shows the box
that says what will happen, with Yes and Cancel; the confirmed POST acts. The same with htmx
(the round panel) and without JavaScript (the whole page, the box focused). No browser
``confirm()`` is left in the desk."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.web.desk import (
    HTMX,
    desk,
    finish_table,
    html,
    logged_in,
    new_tournament,
    summary,
    text,
    version,
)
from tournaments import services as t

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def proposed(olga: User, capture: Any) -> uuid.UUID:
    tid = new_tournament(olga)
    t.tournament_pair(tournament_id=tid, round=1, user=olga)
    return tid


def published(olga: User, capture: Any) -> uuid.UUID:
    tid = proposed(olga, capture)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    t.tournament_set_clock(tournament_id=tid, round=1, minutes=40, user=olga)
    return tid


def all_confirmed(olga: User, capture: Any) -> uuid.UUID:
    tid = published(olga, capture)
    for number in (1, 2):
        finish_table(tid, olga, 1, number, capture)
    t.tournament_confirm_finished(tournament_id=tid, round=1, user=olga)
    return tid


def closed(olga: User, capture: Any) -> uuid.UUID:
    tid = all_confirmed(olga, capture)
    t.tournament_close_round(tournament_id=tid, round=1, user=olga)
    return tid


Stage = Callable[[User, Any], uuid.UUID]

Done = Callable[[dict[str, Any]], bool]

ACTIONS: list[tuple[str, Stage, str, dict[str, str], str, str, Done]] = [
    # (name, stage, path, posted, question, what will happen (part), done)
    (
        "publish",
        proposed,
        "round/1/publish/",
        {},
        "Publish round 1?",
        "It cannot be undone",
        lambda s: s["rounds"][0]["status"] == "published",
    ),
    (
        "discard the proposal",
        proposed,
        "round/1/undo-pairing/",
        {},
        "Discard round 1's proposal?",
        "Pairing again gives the same tables.",
        lambda s: not s["rounds"],
    ),
    (
        "stop the clock",
        published,
        "round/1/clock/",
        {"stop": "1"},
        "Stop round 1's clock?",
        "stops showing when the round ends",
        lambda s: "ends_at" not in s["rounds"][0] or not s["rounds"][0]["ends_at"],
    ),
    (
        "close",
        all_confirmed,
        "round/1/close/",
        {},
        "Close round 1?",
        "Its results become final",
        lambda s: s["rounds"][0]["status"] == "closed",
    ),
    (
        "close and pair",
        all_confirmed,
        "pair/",
        {"round": "2", "close_first": "1"},
        "Close round 1 and pair round 2?",
        "then round 2 is paired, for you to check before you publish it.",
        lambda s: len(s["rounds"]) == 2,
    ),
    (
        "finish early",
        closed,
        "finish/",
        {},
        "Finish the tournament now, before its last planned round?",
        "1 of its 3 rounds is played.",
        lambda s: s["status"] == "finished",
    ),
]


@pytest.mark.parametrize(
    ("name", "stage", "path", "posted", "question", "consequence", "done"),
    ACTIONS,
    ids=[a[0] for a in ACTIONS],
)
def test_an_irreversible_action_asks_first_then_acts_once_confirmed(
    olga: User,
    django_capture_on_commit_callbacks: Any,
    name: str,
    stage: Stage,
    path: str,
    posted: dict[str, str],
    question: str,
    consequence: str,
    done: Done,
) -> None:
    tid = stage(olga, django_capture_on_commit_callbacks)
    client = logged_in(olga)
    before = version(tid, olga)
    form = {**posted, "expected_version": str(before)}

    # Without JavaScript: the whole page, the box focused, nothing changed.
    page = client.post(desk(tid, path), form)
    assert page.status_code == 200
    box = re.search(
        r'<div class="confirm-box confirm-step"[^>]*>(.*?)</div>\s*</div>', html(page), re.S
    )
    assert box, f"{name}: no box asks first"
    assert "autofocus" in html(page).split('class="confirm-box confirm-step"')[1].split(">")[0]
    words = unescape(" ".join(re.sub(r"<[^>]+>", " ", box[1]).split()))
    assert question in words and consequence in words
    assert 'name="confirmed" value="1"' in box[1] and 'name="csrfmiddlewaretoken"' in box[1]
    for key, value in posted.items():
        assert f'name="{key}" value="{value}"' in box[1]
    assert "Cancel" in words and "data-cancel" in box[1]
    assert version(tid, olga) == before, f"{name}: asking changed the tournament"

    # With htmx: the round panel with the same box; still nothing changed.
    panel = client.post(desk(tid, path), form, headers=HTMX)
    assert panel.status_code == 200 and 'id="round-panel"' in html(panel)
    assert question in unescape(text(panel)) and "data-confirm" in html(panel)
    assert version(tid, olga) == before

    # Yes: the action is done.
    yes = client.post(desk(tid, path), {**form, "confirmed": "1"}, headers=HTMX)
    assert yes.status_code == 200, text(yes)
    assert done(summary(tid, olga)), f"{name}: the confirmed POST did not act"
    assert "data-confirm" not in html(yes)


def test_finishing_after_the_last_round_says_the_standings_become_final(
    olga: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = closed(olga, django_capture_on_commit_callbacks)
    t.tournament_change_settings(tournament_id=tid, changes={"rounds": 1}, user=olga)
    client = logged_in(olga)
    asked = text(client.post(desk(tid, "finish/"), {"expected_version": version(tid, olga)}))
    assert "Finish the tournament? The standings become final" in unescape(asked)
    assert summary(tid, olga)["status"] != "finished"


def test_a_scorekeeper_is_refused_not_asked(
    olga: User, sam: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = proposed(olga, django_capture_on_commit_callbacks)
    t.tournament_set_role(
        tournament_id=tid, username="sam", role="scorekeeper", grant=True, user=olga
    )
    refused = logged_in(sam).post(desk(tid, "round/1/publish/"), {}, headers=HTMX)
    assert refused.status_code == 403 and "data-confirm" not in html(refused)


def test_the_buttons_ask_on_the_page_never_with_the_browsers_confirm() -> None:
    """Every desk template and script: no confirm() (htmx's hx-confirm is one) nor a
    client-side-only disclosure in front of an action. (The history's Undo is another
    helper's: templates/desk/history.html.)"""
    mine = [p for p in (ROOT / "templates" / "desk").glob("*.html") if p.name != "history.html"]
    mine += [ROOT / "static" / "js" / "desk.js"]
    for path in mine:
        source = path.read_text()
        assert "hx-confirm" not in source and "confirm(" not in source, path.name


def test_cancel_goes_back_to_the_round_panel_as_it_was(
    olga: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = proposed(olga, django_capture_on_commit_callbacks)
    client: Client = logged_in(olga)
    asked = html(
        client.post(desk(tid, "round/1/publish/"), {"expected_version": version(tid, olga)})
    )
    cancel = re.search(r'<a class="button" href="([^"]+)" hx-get="([^"]+)"[^>]*data-cancel>', asked)
    assert cancel and cancel[1].endswith("#round-panel")
    panel = client.get(cancel[2], headers=HTMX)
    assert panel.status_code == 200 and "data-confirm" not in html(panel)
    assert "Publish round 1" in text(panel)


def test_closing_a_round_with_tables_missing_is_refused_at_once_not_asked(
    olga: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = published(olga, django_capture_on_commit_callbacks)
    client = logged_in(olga)
    refused = client.post(
        desk(tid, "round/1/close/"), {"expected_version": version(tid, olga)}, headers=HTMX
    )
    assert refused.status_code == 422 and "data-confirm" not in html(refused)
    assert "Round 1 cannot close" in text(refused)
