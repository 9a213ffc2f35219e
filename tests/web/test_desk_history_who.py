"""The desk's history names who withdrew and re-recorded a table's result and why (issue 23,
item 9): the result events the site writes for a game carry the games store's user and the
reason typed on the table page's "Undo last", and the page says them in the reader's language,
the reason as typed. Older result events, without them, still read (who: unknown)."""

from __future__ import annotations

import uuid
from html import unescape

import pytest
from django.contrib.auth.models import User

from games import store
from games.models import GameProjection
from games.projection import RETRACTED
from tests.web.desk import Capture, desk, finish_table, logged_in, new_tournament, summary, text
from tournaments import domain, events
from tournaments import services as t
from tournaments.desk.history import history_rows

pytestmark = pytest.mark.django_db

REASON = "Sato's deal 3 was 11, not 17"


def _corrected(olga: User, capture: Capture) -> tuple[uuid.UUID, uuid.UUID]:
    """Round 1 published, table 1 finished by olga, taken back on the table page with a
    reason, and entered again."""
    tid = new_tournament(olga, names=["Ana", "Ben", "Cleo", "Dev"], confirmation="auto")
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    finish_table(tid, olga, 1, 1, capture)
    game_id = uuid.UUID(summary(tid, olga)["rounds"][0]["tables"][0]["game"])
    game = GameProjection.objects.get(stream_id=game_id)
    client = logged_in(olga)
    with capture(execute=True):
        undone = client.post(
            f"/table/{game_id}/undo/",
            {"version": game.version, "key": uuid.uuid4().hex, "reason": f"  {REASON} "},
        )
    assert undone.status_code == 303
    finish_table(tid, olga, 1, 1, capture)
    return tid, game_id


def test_a_correction_names_the_organizer_and_the_reason_typed(
    olga: User, django_capture_on_commit_callbacks: Capture
) -> None:
    tid, game_id = _corrected(olga, django_capture_on_commit_callbacks)

    # The games store's correction keeps the reason as a parameter, as typed (trimmed).
    retracted = [e for e in store.read_stream(game_id) if e.type == RETRACTED]
    assert [e.data["reason"] for e in retracted] == [REASON]

    # The tournament's result events carry who acted in the game and why; the site wrote them.
    results = [
        e
        for e in t.tournament_history(tournament_id=tid, user=olga)
        if e["type"] in (domain.RESULT_RECORDED, domain.RESULT_WITHDRAWN)
    ]
    assert [e["type"] for e in results] == [
        domain.RESULT_RECORDED,
        domain.RESULT_WITHDRAWN,
        domain.RESULT_RECORDED,
    ]
    withdrawn = results[1]["data"]
    assert withdrawn["actor"] == "olga" and withdrawn["actor_id"] == olga.pk
    assert withdrawn["cause"] == RETRACTED and withdrawn["reason"] == REASON
    assert results[2]["data"]["actor"] == "olga"
    assert all(e["by"] == "system" for e in results)  # the metadata stays honest

    client = logged_in(olga)
    page = unescape(text(client.get(desk(tid, "history/"))))
    assert f"Result withdrawn by olga: {REASON}" in page
    assert "Result recorded by olga" in page
    assert "system" not in page  # nothing on this page was done by the site on its own

    ru = unescape(text(client.get(desk(tid, "history/"), headers={"Accept-Language": "ru"})))
    assert f"Результат отозван пользователем olga: {REASON}" in ru
    assert "Результат записан пользователем olga" in ru


def test_result_events_written_before_the_actor_was_kept_still_read() -> None:
    old_withdrawn = {"round": 1, "table": 2, "game": str(uuid.uuid4())}
    parsed = events.parse(domain.RESULT_WITHDRAWN, old_withdrawn)
    assert isinstance(parsed, events.ResultWithdrawn) and parsed.actor == "" and parsed.reason == ""
    assert events.to_data(parsed) == old_withdrawn  # stored as before when nothing is known
    old_recorded = {
        "round": 1,
        "table": 2,
        "game": old_withdrawn["game"],
        "game_version": 9,
        "placements": [],
        "entered_by": [3],
    }
    assert events.to_data(events.parse(domain.RESULT_RECORDED, old_recorded)) == old_recorded

    at = "2026-12-12T19:00:00+00:00"
    history = [
        {"version": 7, "type": domain.RESULT_RECORDED, "data": old_recorded, "by": "system"},
        {"version": 8, "type": domain.RESULT_WITHDRAWN, "data": old_withdrawn, "by": "system"},
        {"version": 9, "type": domain.SCHEDULED, "data": {"round": 2, "at": at}, "by": "system"},
    ]
    for e in history:
        e.update(at=at, undone_by=None, cannot_undo=None)
    rows = {r.version: r for r in history_rows(history, [])}
    assert rows[7].said == "" and rows[7].action == "Result recorded" and rows[7].by == "unknown"
    assert rows[8].said == "" and rows[8].action == "Result withdrawn" and rows[8].by == "unknown"
    assert rows[9].by == "system"  # what the site truly did by itself still says so


def test_a_void_and_a_seat_phone_are_named_too() -> None:
    at = "2026-12-12T19:00:00+00:00"
    game = str(uuid.uuid4())
    history = [
        {
            "version": 4,
            "type": domain.RESULT_RECORDED,
            "data": {
                "round": 1,
                "table": 1,
                "game": game,
                "game_version": 5,
                "placements": [],
                "actor_seat": 2,
            },
            "by": "system",
        },
        {
            "version": 5,
            "type": domain.RESULT_WITHDRAWN,
            "data": {
                "round": 1,
                "table": 1,
                "game": game,
                "cause": "game_voided",
                "actor": "olga",
                "actor_id": 1,
                "reason": "wrong players",
            },
            "by": "system",
        },
    ]
    for e in history:
        e.update(at=at, undone_by=None, cannot_undo=None)
    rows = {r.version: r for r in history_rows(history, [])}
    assert rows[4].said == "Result recorded by seat 2's phone" and rows[4].by == "seat 2's phone"
    assert rows[5].said == "Game voided by olga: wrong players" and rows[5].by == "olga"
