"""Hidden hands: while a round is being played, no read shows a card still held to anyone but
the game's officials (games/hands.py; docs/api.md, "Hidden hands").

One tournament table (Olga organizes, Kim keeps score, Stella is staff, Pat is a plain user)
is published, so its game is public; round 1 is dealt, one trick and two cards of the next are
played, and a third card was keyed and taken back (a correction: that card is still held).
Every read is searched for the codes of the cards still held.
"""

from __future__ import annotations

import io
import json
import re
import time
import uuid
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services as games
from games.models import Event
from games.tricknchef.card_tags import card_info
from tournaments import services as t

pytestmark = pytest.mark.django_db

SEED = 3
DEALT = 1
"""The index of round 1's round_started in the simulated record."""
MID_ROUND = 13
"""game_started, round_started, 4 Chef picks, a trick of 4 cards and its Chef, 2 cards."""


@dataclass
class Table:
    game: uuid.UUID
    tournament: uuid.UUID
    record: list[dict[str, Any]]
    users: dict[str, User]

    def held(self, upto: int) -> set[str]:
        """The cards still held after the first ``upto`` events of the record."""
        start = max(i for i in range(upto) if self.record[i]["type"] == "round_started")
        dealt = {c for hand in self.record[start]["hands"].values() for c in hand}
        played = {e["card"] for e in self.record[start:upto] if e["type"] == "card_played"}
        return dealt - played

    def played(self, upto: int) -> set[str]:
        start = max(i for i in range(upto) if self.record[i]["type"] == "round_started")
        return {e["card"] for e in self.record[start:upto] if e["type"] == "card_played"}

    def append(self, start: int, stop: int) -> None:
        game = games.game_get(game_id=self.game, user=self.users["kim"])
        games.game_append(
            game_id=self.game,
            expected_version=game.version,
            events=self.record[start:stop],
            user=self.users["kim"],
        )


def in_json(body: str, cards: Iterable[str]) -> set[str]:
    return {c for c in cards if f'"{c}"' in body}


TOKEN = re.compile(r"[A-Za-z0-9_-]{24,}")
"""A random token (CSRF): "Y1x..." at its start is no card."""


def in_html(html: str, cards: Iterable[str]) -> set[str]:
    """Cards named in a page: by code (a form value) or by a card's label ("yellow 1", not the
    start of "yellow 10"), random tokens left out."""
    text = TOKEN.sub(" ", html)
    return {
        c
        for c in cards
        if re.search(rf"(?<![A-Za-z0-9]){c}(?![0-9])", text)
        or re.search(rf"{re.escape(card_info(c)['label'])}(?![0-9])", text)
    }


def read_log(client: APIClient, timeout: float = 20.0) -> Any:
    """The whole global log, once it shows every stored event: on PostgreSQL it holds back what
    committed after any transaction still running on the server began (tests/web/test_api.py,
    wait_until_the_log_shows), so these tests take ``committed_db``."""
    stored = Event.objects.count()
    deadline = time.monotonic() + timeout
    while True:
        response = client.get("/api/events/?limit=1000")
        assert response.status_code == 200
        if len(response.json()["events"]) >= stored:
            return response
        assert time.monotonic() < deadline, "the log did not show the committed events"
        time.sleep(0.05)


def api(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def browser(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


READERS = ("anonymous", "pat")
OFFICIALS = ("olga", "kim", "stella")


def user_of(table: Table, name: str) -> User | None:
    return None if name == "anonymous" else table.users[name]


@pytest.fixture
def table(django_user_model: type[User]) -> Table:
    users = {
        "olga": django_user_model.objects.create_user("olga", password="x"),
        "kim": django_user_model.objects.create_user("kim", password="x"),
        "stella": django_user_model.objects.create_user("stella", password="x", is_staff=True),
        "pat": django_user_model.objects.create_user("pat", password="x"),
    }
    organizer = users["olga"]
    tid = t.tournament_create(
        user=organizer, name="Club night", date="2026-12-01", rounds=3, seed=7
    ).tournament_id
    t.tournament_register(
        tournament_id=tid, user=organizer, names=["Ana", "Ben", "Cleo", "Dev"], checked_in=True
    )
    t.tournament_set_role(
        tournament_id=tid, username="kim", role="scorekeeper", grant=True, user=organizer
    )
    t.tournament_change_settings(
        tournament_id=tid, changes={"downloads_released": True}, user=organizer
    )
    t.tournament_pair(tournament_id=tid, user=organizer)
    published = t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    seat = published.state["rounds"][0]["tables"][0]
    names = tuple(s["name"] for s in seat["seats"])
    record = [to_json(e) for e in simulate(SEED, 4, names=names, first_player=names[0])]
    found = Table(uuid.UUID(seat["game"]), tid, record, users)
    found.append(1, MID_ROUND + 1)  # a card too many...
    game = games.game_get(game_id=found.game, user=users["kim"])
    games.game_correct(
        game_id=found.game,
        expected_version=game.version,
        retract=1,
        reason="keyed the wrong card",
        user=users["kim"],
    )  # ...taken back: it is still held
    return found


def round_end(record: list[dict[str, Any]], number: int) -> int:
    """The index just after round ``number``'s last event."""
    starts = [i for i, e in enumerate(record) if e["type"] == "round_started"]
    return starts[number] if number < len(starts) else len(record)


# ----------------------------------------------------------------------------- the API


@pytest.mark.parametrize("reader", READERS)
def test_a_games_events_hide_the_cards_still_held(table: Table, reader: str) -> None:
    held = table.held(MID_ROUND)
    response = api(user_of(table, reader)).get(f"/api/games/{table.game}/events/")
    assert response.status_code == 200
    body = response.content.decode()
    assert in_json(body, held) == set()
    events = response.json()["events"]
    dealt = next(e["data"] for e in events if e["type"] == "round_started")
    assert dealt["hands_hidden"] is True
    assert sorted(c for hand in dealt["hands"].values() for c in hand) == sorted(
        table.played(MID_ROUND)
    )
    assert sum(dealt["held"].values()) == len(held)
    taken_back = [e["data"] for e in events if e["type"] == "card_played"][-1]
    assert taken_back["card"] is None and taken_back["card_hidden"] is True
    # Read on from a version (as an app polling the game does): the same.
    later = api(user_of(table, reader)).get(f"/api/games/{table.game}/events/?since=3")
    assert in_json(later.content.decode(), held) == set()


@pytest.mark.parametrize("official", OFFICIALS)
def test_the_games_officials_see_every_hand(table: Table, official: str) -> None:
    response = api(table.users[official]).get(f"/api/games/{table.game}/events/")
    body = response.content.decode()
    assert in_json(body, table.held(MID_ROUND)) == table.held(MID_ROUND)
    assert "hands_hidden" not in body


@pytest.mark.parametrize("reader", READERS)
def test_a_games_state_names_no_card_still_held(table: Table, reader: str) -> None:
    response = api(user_of(table, reader)).get(f"/api/games/{table.game}/")
    assert response.status_code == 200
    assert in_json(response.content.decode(), table.held(MID_ROUND)) == set()


def test_the_global_log_hides_the_cards_still_held(committed_db: None, table: Table) -> None:
    held = table.held(MID_ROUND)
    response = read_log(api(table.users["pat"]))
    assert in_json(response.content.decode(), held) == set()
    assert any(e["data"].get("hands_hidden") for e in response.json()["events"])
    official = read_log(api(table.users["kim"]))
    assert in_json(official.content.decode(), held) == held


def test_the_log_decides_once_per_game_not_per_event(
    committed_db: None, table: Table, django_assert_max_num_queries: Any
) -> None:
    """Two more games being played in the page cost a few queries each, whatever their
    number of events."""
    client = api(table.users["pat"])
    read_log(client)
    with django_assert_max_num_queries(20) as counted:
        client.get("/api/events/?limit=1000")
    one_game = len(counted.captured_queries)
    kim = table.users["kim"]
    for seed in (4, 5):
        names = ("p1", "p2", "p3", "p4")
        record = [to_json(e) for e in simulate(seed, 4, names=names, first_player="p1")]
        other = games.game_create(players=list(names), user=kim, published=True)
        games.game_append(game_id=other.game_id, expected_version=2, events=record[1:40], user=kim)
    read_log(client)
    with django_assert_max_num_queries(one_game + 4) as counted:
        body = client.get("/api/events/?limit=1000").content.decode()
    assert body.count('"hands_hidden":true') == 3


@pytest.mark.parametrize("reader", READERS)
def test_a_record_stops_before_the_round_being_played(table: Table, reader: str) -> None:
    response = api(user_of(table, reader)).get(f"/api/games/{table.game}/record/")
    assert response.status_code == 200
    lines = [json.loads(line) for line in response.content.decode().splitlines()]
    assert [e["type"] for e in lines] == ["game_started"]
    official = api(table.users["olga"]).get(f"/api/games/{table.game}/record/")
    assert len(official.content.decode().splitlines()) == MID_ROUND


@pytest.mark.parametrize("reader", READERS)
def test_the_tournaments_games_zip_stops_before_the_round_being_played(
    table: Table, reader: str
) -> None:
    response = api(user_of(table, reader)).get(f"/api/tournaments/{table.tournament}/games.zip")
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    texts = "".join(archive.read(name).decode() for name in archive.namelist())
    assert in_json(texts, table.held(MID_ROUND)) == set()
    official = api(table.users["olga"]).get(f"/api/tournaments/{table.tournament}/games.zip")
    archive = zipfile.ZipFile(io.BytesIO(official.content))
    texts = "".join(archive.read(name).decode() for name in archive.namelist())
    assert in_json(texts, table.held(MID_ROUND)) == table.held(MID_ROUND)


# ----------------------------------------------------------------------------- pages


@pytest.mark.parametrize("reader", READERS)
def test_the_replay_page_shows_no_card_still_held(table: Table, reader: str) -> None:
    client = browser(user_of(table, reader))
    for step in (0, 1, 2):
        response = client.get(f"/g/{table.game}/?step={step}")
        assert response.status_code == 200
        assert in_html(response.content.decode(), table.held(MID_ROUND)) == set()


def test_the_table_page_shows_hands_to_a_games_officials_only(
    django_user_model: type[User],
) -> None:
    """A game of its own: any logged-in user may record its plays, but its table page (which
    shows the hand to be played) is its creator's and staff's."""
    creator = django_user_model.objects.create_user("cora", password="x")
    other = django_user_model.objects.create_user("pat", password="x")
    staff = django_user_model.objects.create_user("stella", password="x", is_staff=True)
    names = ("p1", "p2", "p3", "p4")
    record = [to_json(e) for e in simulate(SEED, 4, names=names, first_player="p1")]
    game = games.game_create(players=list(names), user=creator, published=True).game_id
    games.game_append(game_id=game, expected_version=2, events=record[1:MID_ROUND], user=creator)
    start = record[DEALT]
    dealt = {c for hand in start["hands"].values() for c in hand}
    held = dealt - {e["card"] for e in record[DEALT:MID_ROUND] if e["type"] == "card_played"}
    refused = browser(other).get(f"/table/{game}/")
    assert refused.status_code == 403
    assert in_html(refused.content.decode(), held) == set()
    for official in (creator, staff):
        shown = browser(official).get(f"/table/{game}/")
        assert shown.status_code == 200
        assert in_html(shown.content.decode(), held)
    # ...and the API's reads of that game: the same rule.
    body = api(other).get(f"/api/games/{game}/events/").content.decode()
    assert in_json(body, held) == set()
    body = api(creator).get(f"/api/games/{game}/events/").content.decode()
    assert in_json(body, held) == held


# ----------------------------------------------------------------------------- after the round


def test_a_round_played_to_its_end_is_public(committed_db: None, table: Table) -> None:
    end = round_end(table.record, 1)
    game = games.game_get(game_id=table.game, user=table.users["kim"])
    table.append(MID_ROUND, end)
    assert game.version < games.game_get(game_id=table.game).version
    round_one = {c for hand in table.record[DEALT]["hands"].values() for c in hand}
    anonymous = api(None)
    body = anonymous.get(f"/api/games/{table.game}/events/").content.decode()
    assert in_json(body, round_one) == round_one and "hands_hidden" not in body
    # Round 2 dealt and two tricks in: round 1 stays public, round 2's hands do not.
    table.append(end, end + 14)
    body = anonymous.get(f"/api/games/{table.game}/events/").content.decode()
    events = anonymous.get(f"/api/games/{table.game}/events/").json()["events"]
    deals = [e["data"] for e in events if e["type"] == "round_started"]
    assert [d.get("hands_hidden", False) for d in deals] == [False, True]
    assert sorted(c for h in deals[0]["hands"].values() for c in h) == sorted(round_one)
    assert in_json(json.dumps(deals[1]), table.held(end + 14)) == set()
    record = anonymous.get(f"/api/games/{table.game}/record/").content.decode().splitlines()
    assert len(record) == end  # up to the end of round 1
    log = read_log(api(table.users["pat"])).json()["events"]
    log_deals = [e["data"] for e in log if e["type"] == "round_started"]
    assert [d.get("hands_hidden", False) for d in log_deals] == [False, True]


def test_a_finished_or_voided_game_is_public(table: Table) -> None:
    game = games.game_get(game_id=table.game, user=table.users["olga"])
    games.game_void(
        game_id=table.game, expected_version=game.version, reason="a test", user=table.users["olga"]
    )
    body = api(None).get(f"/api/games/{table.game}/events/").content.decode()
    assert in_json(body, table.held(MID_ROUND)) == table.held(MID_ROUND)
