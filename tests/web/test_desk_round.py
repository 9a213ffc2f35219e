"""The desk's round panel over HTTP (docs/tournaments.md, "The organizer desk"): a published
round's tables by where their games stand, as the public round page says it; Confirm all
finished tables; a proposal's ranks, points and figures in words, and its notes after a swap
(Publish asks first: tests/web/test_desk_confirm.py)."""

from __future__ import annotations

import re
import uuid
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
from tests.web.public import play

pytestmark = pytest.mark.django_db

TWELVE = [f"Player {n:02d}" for n in range(1, 13)]


@pytest.fixture
def olga(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


def published(olga: User, names: list[str] = TWELVE) -> tuple[uuid.UUID, Client]:
    client = logged_in(olga)
    tid = new_tournament(olga, names)
    client.post(desk(tid, "pair/"), {"round": "1", "expected_version": version(tid, olga)})
    client.post(
        desk(tid, "round/1/publish/"), {"confirmed": "1", "expected_version": version(tid, olga)}
    )
    assert summary(tid, olga)["rounds"][0]["status"] == "published"
    return tid, client


def card(page: str, number: int) -> str:
    """One table's card on the desk, as text."""
    found = re.search(
        rf'<li class="table-card[^"]*" id="table-{number}">(.*?)</li>\s*(?=<li|</ol)', page, re.S
    )
    assert found, f"no card for table {number}"
    return " ".join(re.sub(r"<[^>]+>", " ", found[1]).split())


def public_status(client: Client, tid: uuid.UUID, number: int) -> str:
    page = client.get(f"/t/{tid}/round/1/").content.decode()
    found = re.search(
        rf'id="table-{number}">Table {number}</h2>.*?'
        r'<span class="status status-game-[^"]*">([^<]+)',
        page,
        re.S,
    )
    assert found
    return found[1]


def test_a_published_round_says_where_each_table_stands_and_confirms_the_finished_ones_at_once(
    olga: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid, client = published(olga)
    page = client.get(desk(tid))
    assert "0 of 3 tables confirmed. Not started: 1, 2, 3." in text(page)
    assert "Missing tables" not in text(page)
    assert "Confirm all finished tables" not in text(page)
    assert "Not started" in card(html(page), 1)
    assert public_status(client, tid, 1) == "Not started"

    # Table 1 is under way; tables 2 and 3 are finished (results only).
    game = summary(tid, olga)["rounds"][0]["tables"][0]["game"]
    play(game, olga, django_capture_on_commit_callbacks, seed=4, upto=20)
    finish_table(tid, olga, 1, 2, django_capture_on_commit_callbacks)
    finish_table(tid, olga, 1, 3, django_capture_on_commit_callbacks)
    page = client.get(desk(tid))
    assert "0 of 3 tables confirmed. In progress: 1. Finished, to confirm: 2, 3." in text(page)
    assert re.search(r"Table 1 In progress Deal 1, trick \d+", card(html(page), 1))
    assert public_status(client, tid, 1) == "In progress"
    assert "Finished: to confirm" in card(html(page), 2)

    # One tap confirms both finished tables; table 1 plays on.
    answer = client.post(
        desk(tid, "round/1/confirm-finished/"),
        {"expected_version": version(tid, olga)},
        headers=HTMX,
    )
    assert answer.status_code == 200
    assert "Tables 2 and 3 are confirmed." in text(answer)
    assert "2 of 3 tables confirmed. In progress: 1." in text(answer)
    rnd = summary(tid, olga)["rounds"][0]
    assert [tb["confirmed"] for tb in rnd["tables"]] == [False, True, True]

    # Again, with nothing finished to confirm: refused in words, beside the round's buttons.
    again = client.post(
        desk(tid, "round/1/confirm-finished/"), {"expected_version": version(tid, olga)}
    )
    assert again.status_code == 422
    assert "Round 1 has no finished table to confirm." in text(again)


def test_a_proposal_shows_ranks_and_points_and_its_notes_stay_true_after_a_swap(
    olga: User, django_capture_on_commit_callbacks: Any
) -> None:
    client = logged_in(olga)
    tid = new_tournament(olga)
    client.post(desk(tid, "pair/"), {"round": "1", "expected_version": version(tid, olga)})
    client.post(
        desk(tid, "round/1/publish/"), {"confirmed": "1", "expected_version": version(tid, olga)}
    )
    for number in (1, 2):
        finish_table(tid, olga, 1, number, django_capture_on_commit_callbacks)
    client.post(desk(tid, "round/1/confirm-finished/"), {"expected_version": version(tid, olga)})
    client.post(
        desk(tid, "pair/"),
        {
            "round": "2",
            "close_first": "1",
            "confirmed": "1",
            "expected_version": version(tid, olga),
        },
    )
    rnd = summary(tid, olga)["rounds"][1]
    assert rnd["status"] == "proposed"

    page = text(client.get(desk(tid)))
    assert len(re.findall(r"rank \d( \(shared\))?, [\d.]+ points?", page)) == 8
    quality = re.search(r'<p class="quality">(.*?)</p>', html(client.get(desk(tid))), re.S)
    assert quality and "Cost" not in quality[1] and "(s)" not in quality[1]
    assert "This is the lowest possible cost" in page or "No grouping can cost less" in page
    # The cost formula is for those who open "How the pairing was chosen", after words.
    how = re.search(
        r'<details class="how-chosen">(.*?)</details>', html(client.get(desk(tid))), re.S
    )
    assert how and "How the pairing was chosen" in how[1]
    assert how[1].index("avoids repeat meetings first") < how[1].index("Cost ")
    why = re.search(
        r'<details class="notes" open>(.*?)</details>', html(client.get(desk(tid))), re.S
    )
    assert why is None or "Cost " not in why[1]

    a, b = rnd["tables"][0]["seats"][0]["player"], rnd["tables"][1]["seats"][0]["player"]
    swapped = client.post(
        desk(tid, "round/2/swap/"),
        {"a": a, "b": b, "expected_version": version(tid, olga)},
        headers=HTMX,
    )
    assert swapped.status_code == 200
    after = text(swapped)
    assert "This is the lowest possible cost" not in after
    assert "the changes by hand below came after it" in after
    assert "Changed by hand:" in after
