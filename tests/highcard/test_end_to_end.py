"""High Card, the toy fifth game, end to end with no shared file knowing it (issue 24): a
tournament of eight players, round 1's four tables entered four ways (the scorekeeper's table
page, the API, the players' seat phones, the score sheet's results), the results in the
standings on the page and in the API, and the replay; the whole API on its own
(test_api.py). Only ``tests/highcard/`` knows the game; the fixture that registers it is
one line (``conftest.py``)."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import GameProjection
from tests.engine.every_game import check_a_random_whole_game
from tests.highcard import engine
from tests.tournaments.helpers import new_tournament, summary
from tests.web.api import token_client
from tests.web.test_table_page import page_forms, text
from tournaments import services as t

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
FETCH = {"X-Seat-Fetch": "1"}
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fox", "Gus", "Hal"]


@pytest.fixture
def olga(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def desk(client: Client, olga: User) -> Client:
    client.force_login(olga)
    return client


def round_one(olga: User) -> tuple[uuid.UUID, list[dict[str, Any]]]:
    tid = new_tournament(olga, names=NAMES, game_type=engine.GAME_KEY, confirmation="auto")
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    return tid, summary(tid)["rounds"][0]["tables"]


def seated(table: dict[str, Any]) -> list[str]:
    return [s["name"] for s in table["seats"]]


def tap_on_table_page(client: Client, game_id: str, player: str, card: int) -> None:
    """The scorekeeper taps the card's button, as a browser posts it."""
    html = client.get(f"/table/{game_id}/").content.decode()
    assert f"{player} plays" in text(html)
    form = page_forms(html)["event"]
    wanted = {"type": "card_played", "player": player, "card": card}
    offered = [json.loads(v) for n, v in form.buttons if n == "event"]
    assert wanted in offered and len(offered) == len(engine.CARDS)
    answer = client.post(
        f"/table/{game_id}/event/", {**form.fields, "event": json.dumps(wanted)}, headers=HTMX
    )
    assert answer.status_code == 200, text(answer.content.decode())


def tap_on_phone(phone: Client, page: str, card: int) -> Any:
    """A seat's phone taps a card, as its script posts the panel's form."""
    html = phone.get(page).content.decode()
    live = re.search(r'data-version="(\d+)"', html)
    assert live is not None
    form = page_forms(html).get("play")  # not the phone's turn: a phone left on an old page
    fields = form.fields if form else {"version": live[1], "key": str(uuid.uuid4())}
    return phone.post(f"{page}play/", {**fields, "card": str(card)}, headers=FETCH)


def post_results(client: Client, game_id: str, cards: list[int]) -> Any:
    url = f"/table/{game_id}/results/"
    form = page_forms(client.get(url).content.decode())["results"]
    values = {f"card-{seat}": str(card) for seat, card in enumerate(cards, start=1)}
    return client.post(url, {**form.fields, **values})


def play(api: APIClient, url: str, version: int, player: str, card: int) -> Any:
    event = {"type": "card_played", "player": player, "card": card}
    return api.post(url, {"expected_version": version, "events": [event]}, format="json")


def test_a_high_card_tournament_round_from_four_kinds_of_entry_to_the_standings(
    high_card: str, desk: Client, olga: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid, tables = round_one(olga)
    assert [len(tb["seats"]) for tb in tables] == [2, 2, 2, 2]
    winners = []

    # Table 1 on the scorekeeper's table page; a refused tap is said in the rule's words.
    first = tables[0]
    a, b = seated(first)
    with django_capture_on_commit_callbacks(execute=True):
        tap_on_table_page(desk, first["game"], a, 9)
        html = desk.get(f"/table/{first['game']}/").content.decode()
        refused = desk.post(
            f"/table/{first['game']}/event/",
            {
                **page_forms(html)["event"].fields,
                "event": json.dumps({"type": "card_played", "player": a, "card": 3}),
            },
            headers=HTMX,
        )
        assert refused.status_code == 422
        assert f"it is {b}'s turn, not {a}'s" in text(refused.content.decode())
        tap_on_table_page(desk, first["game"], b, 4)
    winners.append(a)
    assert GameProjection.objects.get(stream_id=first["game"]).status == "finished"

    # The replay tells the game in the game's words.
    replay = text(desk.get(f"/g/{first['game']}/").content.decode())
    assert f"{a} played 9." in replay and f"{b} played 4." in replay

    # Table 2 through the API: its events, a refusal, the record and the state.
    second = tables[1]
    c, d = seated(second)
    api = token_client(olga)
    events = f"/api/games/{second['game']}/events/"
    start = api.get(f"/api/games/{second['game']}/").json()["version"]
    with django_capture_on_commit_callbacks(execute=True):
        assert play(api, events, start, c, 2).status_code == 201
        refused = play(api, events, start + 1, d, 11)
        assert refused.status_code == 422, refused.content
        assert refused.json()["error"]["code"] == "bad_card"
        assert play(api, events, start + 1, d, 8).status_code == 201
    winners.append(d)
    game = api.get(f"/api/games/{second['game']}/").json()
    assert game["status"] == "finished", game
    record = api.get(f"/api/games/{second['game']}/record/")
    assert record.status_code == 200
    assert engine.RULES.replay(record.content.decode().splitlines())["ranking"][0]["player"] == d

    # Table 3 on the players' own phones: a tap out of turn refused, one's own tap undone.
    third = tables[2]
    e, f = seated(third)
    first_phone, second_phone = (
        f"/seat/{link.token}/"
        for link in services.seat_links_issue(game_id=uuid.UUID(third["game"]), user=olga)
    )
    phone = Client()
    with django_capture_on_commit_callbacks(execute=True):
        assert "Your turn: play a card" in text(phone.get(first_phone).content.decode())
        assert f"Waiting for {e}" in text(phone.get(second_phone).content.decode())
        refused = tap_on_phone(phone, second_phone, 9)
        assert refused.status_code == 422
        assert f"it is {e}'s turn, not {f}'s" in text(refused.content.decode())
        assert tap_on_phone(phone, first_phone, 4).status_code == 200
        undo = page_forms(phone.get(first_phone).content.decode())["undo"]
        assert phone.post(f"{first_phone}undo/", undo.fields, headers=FETCH).status_code == 200
        assert tap_on_phone(phone, first_phone, 5).status_code == 200
        assert tap_on_phone(phone, second_phone, 5).status_code == 200
    assert "Won by" in text(phone.get(second_phone).content.decode())
    draw = {e, f}

    # Table 4 results only, from its score sheet: a card out of range is refused in words.
    fourth = tables[3]
    g, h = seated(fourth)
    refused = post_results(desk, fourth["game"], [12, 3])
    assert refused.status_code == 422 and "a card is 1 to 10, not 12" in text(
        refused.content.decode()
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert post_results(desk, fourth["game"], [6, 10]).status_code == 303
    winners.append(h)

    # The standings: a match game (2 points a win, 1 a draw), on the page and in the API.
    standings = token_client(olga).get(f"/api/tournaments/{tid}/standings/").json()
    points = {row["name"]: row["points"] for row in standings["rows"]}
    assert points == {name: 2 if name in winners else 1 if name in draw else 0 for name in NAMES}, (
        standings
    )
    page = text(desk.get(f"/t/{tid}/standings/").content.decode())
    assert "Rank Player Match points Point difference Cards Wins Draws Losses" in page
    assert "2. Cards The cards played, added up over all matches." in page


@pytest.mark.parametrize("seed", range(5))
def test_high_card_passes_what_every_game_must(seed: int) -> None:
    check_a_random_whole_game(engine.RULES, seed, 2)
