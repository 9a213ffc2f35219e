"""Undo on a seat's phone (games.services.undo, docs/scorekeeping.md "Undo on the phone"), driven
with the Django test client as static/js/seat.js drives it: a player takes back their own last
tap; once something was entered after it they ask the table, another phone or an official
accepts or declines; a request lapses once its deal is scored; a revoked or another seat's
link undoes nothing; an undo racing a tap loses nothing and records nothing twice."""

from __future__ import annotations

import re
import uuid
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from engine.tricknchef.snapshot import from_snapshot
from engine.tricknchef.state import GameState
from games import services, store
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from games.models import GameProjection
from games.projection import fold_game

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
GAME = [to_json(e) for e in simulate(seed=8, players=4, names=tuple(NAMES), first_player="Ana")]
FETCH = {"X-Seat-Fetch": "1"}
FIRST_CARD = next(i for i, e in enumerate(GAME) if e["type"] == "card_played")


def new_game(user: User | None = None) -> tuple[uuid.UUID, list[str]]:
    """A table at its first card (Ana's), each seat with its link."""
    game = services.game_create(players=NAMES, user=user)
    services.game_append(game_id=game.game_id, expected_version=1, events=GAME[1:FIRST_CARD])
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    return game.game_id, [link.token for link in links]


def version(game_id: uuid.UUID) -> int:
    return GameProjection.objects.get(stream_id=game_id).version


def state(game_id: uuid.UUID) -> GameState:
    return from_snapshot(GameProjection.objects.get(stream_id=game_id).snapshot)


def recorded(game_id: uuid.UUID) -> int:
    """How many of the record's events count now (the rules may have forced some)."""
    events = ((e.type, e.data) for e in store.read_stream(game_id))
    return len(fold_game(events, GAME_TYPES[DEFAULT_GAME_TYPE]).effective)


def last_event(game_id: uuid.UUID) -> Any:
    return store.read_stream(game_id)[-1]


def tap(client: Client, token: str, event: dict[str, Any], at: int, key: str, **extra: str) -> Any:
    fields = {
        "type": event["type"],
        "player": event["player"],
        "card": event.get("card", ""),
        "suit": event.get("suit", ""),
        "coins": str(event.get("coins", 0)),
        "version": str(at),
        "key": key,
        "round": "1",
        "trick": "1",
        **extra,
    }
    return client.post(f"/seat/{token}/act/", fields, headers=FETCH)


def undo(client: Client, token: str, path: str, at: int, key: str, **extra: str) -> Any:
    return client.post(
        f"/seat/{token}/{path}", {"version": str(at), "key": key, **extra}, headers=FETCH
    )


def refusal(response: Any) -> str:
    said = re.findall(r"<strong>Refused:</strong>([^<]*)", unescape(response.content.decode()))
    return said[0].strip() if said else ""


def test_a_player_undoes_their_own_last_tap_and_its_retry_records_nothing_again() -> None:
    game_id, tokens = new_game()
    client = Client()
    card = GAME[FIRST_CARD]  # Ana's
    assert tap(client, tokens[0], card, FIRST_CARD, "tap-1").status_code == 200
    page = unescape(client.get(f"/seat/{tokens[0]}/state/", headers=FETCH).content.decode())
    assert "Undo my last play" in page and "Ana's red 1" in page
    at = version(game_id)
    done = undo(client, tokens[0], "undo/", at, "undo-1")
    assert done.status_code == 200
    retracted = last_event(game_id)
    assert retracted.type == "events_retracted"
    assert retracted.data == {"count": 1, "reason": "", "by_seat": 1, "entry": at}
    assert retracted.metadata["by_seat"] == 1
    assert "Your turn: tap the card played" in done.content.decode()  # Ana's card to tap again
    # The same undo again (its answer was lost): nothing more is retracted.
    assert undo(client, tokens[0], "undo/", at, "undo-1").status_code == 200
    assert version(game_id) == at + 1
    # The undone tap sent again from the phone's outbox (same key, queued): not recorded again.
    again = tap(client, tokens[0], card, FIRST_CARD, "tap-1", queued="1")
    assert again.status_code == 200 and version(game_id) == at + 1
    # Nothing of this phone's is left to undo.
    nothing = undo(client, tokens[0], "undo/", at + 1, "undo-2")
    assert nothing.status_code == 422 and nothing["X-Seat-Refusal"] == "nothing_to_undo"


def test_after_another_entry_the_player_asks_and_another_phone_accepts() -> None:
    game_id, tokens = new_game()
    client = Client()
    assert tap(client, tokens[0], GAME[FIRST_CARD], FIRST_CARD, "a-1").status_code == 200
    ana_at = version(game_id)
    assert tap(client, tokens[1], GAME[FIRST_CARD + 1], ana_at, "b-1").status_code == 200
    at = version(game_id)
    taken_back = at - ana_at + 1  # Ana's card, Ben's and what the rules forced after it
    refused = undo(client, tokens[0], "undo/", at, "undo-1")
    assert refused.status_code == 422 and refused["X-Seat-Refusal"] == "undo_not_last"
    assert "ask the table to undo it" in refusal(refused)  # the player's words, not a code
    assert version(game_id) == at  # nothing recorded
    assert "Ask the table to undo" in refused.content.decode()
    asked = undo(client, tokens[0], "undo/ask/", at, "ask-1")
    assert asked.status_code == 200
    request = last_event(game_id)
    assert request.type == "undo_requested"
    assert request.data == {"seat": 1, "entry": ana_at, "rounds": 0}
    assert "You asked the table to undo" in asked.content.decode()
    # The other phones show it; Ana's own phone cannot accept it.
    cleo = client.get(f"/seat/{tokens[2]}/state/", headers=FETCH).content.decode()
    assert "Ana asks the table to undo Ana's red 1." in unescape(cleo)
    at = version(game_id)
    own = undo(
        client,
        tokens[0],
        "undo/answer/",
        at,
        "acc-0",
        request=str(request.version),
        answer="accept",
    )
    assert own.status_code == 422 and own["X-Seat-Refusal"] == "undo_own_request"
    accepted = undo(
        client,
        tokens[2],
        "undo/answer/",
        at,
        "acc-1",
        request=str(request.version),
        answer="accept",
    )
    assert accepted.status_code == 200
    correction = last_event(game_id)
    assert correction.type == "events_retracted"
    assert correction.data == {
        "count": taken_back,
        "reason": "",
        "request": request.version,
        "by_seat": 3,
    }
    now = state(game_id)
    assert now.expected == "Ana" and not now.trick  # Ana's card to tap again
    assert recorded(game_id) == FIRST_CARD
    assert (
        "asks the table to undo"
        not in client.get(f"/seat/{tokens[1]}/state/", headers=FETCH).content.decode()
    )


def test_an_official_declines_on_the_table_page_and_a_request_lapses_with_its_deal(
    django_user_model: type[User],
) -> None:
    olga = django_user_model.objects.create_user("olga", password="x")
    game_id, tokens = new_game(olga)
    client = Client()
    assert tap(client, tokens[0], GAME[FIRST_CARD], FIRST_CARD, "a-1").status_code == 200
    assert tap(client, tokens[1], GAME[FIRST_CARD + 1], version(game_id), "b-1").status_code == 200
    assert undo(client, tokens[0], "undo/ask/", version(game_id), "ask-1").status_code == 200
    request = last_event(game_id).version
    official = Client()
    official.force_login(olga)
    table = official.get(f"/table/{game_id}/").content.decode()
    assert "Ana asks the table to undo" in unescape(table) and "Accept the undo" in table
    answer = {"version": str(version(game_id)), "key": "d-1", "request": str(request)}
    declined = official.post(f"/table/{game_id}/undo/answer/", {**answer, "answer": "decline"})
    assert declined.status_code == 303
    event = last_event(game_id)
    assert event.type == "undo_declined" and event.data == {"request": request}
    assert event.metadata["by"] == "olga"
    assert services.game_undo_requests(game_id=game_id) == []
    # Asked again, then the deal is played to its end: the request lapses (its deal is over).
    assert undo(client, tokens[0], "undo/ask/", version(game_id), "ask-2").status_code == 200
    second = last_event(game_id).version
    assert [r.version for r in services.game_undo_requests(game_id=game_id)] == [second]
    end = next(i for i, e in enumerate(GAME) if i > FIRST_CARD and e["type"] == "round_started")
    rest = GAME[recorded(game_id) : end]
    services.game_append(game_id=game_id, expected_version=version(game_id), events=rest)
    assert services.game_undo_requests(game_id=game_id) == []
    late = undo(
        client,
        tokens[2],
        "undo/answer/",
        version(game_id),
        "acc-9",
        request=str(second),
        answer="accept",
    )
    assert late.status_code == 422 and late["X-Seat-Refusal"] == "undo_request_moot"


def test_a_seat_undoes_only_its_own_taps_and_a_revoked_link_none(
    django_user_model: type[User],
) -> None:
    olga = django_user_model.objects.create_user("olga", password="x")
    game_id, tokens = new_game(olga)
    client = Client()
    assert tap(client, tokens[0], GAME[FIRST_CARD], FIRST_CARD, "a-1").status_code == 200
    at = version(game_id)
    other = undo(client, tokens[1], "undo/", at, "undo-b")  # Ben's phone, Ana's card
    assert other.status_code == 422 and other["X-Seat-Refusal"] == "nothing_to_undo"
    services.seat_link_revoke(game_id=game_id, seat=1, user=olga)
    revoked = undo(client, tokens[0], "undo/", at, "undo-a")
    assert revoked.status_code == 403
    assert version(game_id) == at and last_event(game_id).type == "card_played"


def test_an_undo_racing_a_tap_loses_nothing_and_records_nothing_twice() -> None:
    game_id, tokens = new_game()
    client = Client()
    assert tap(client, tokens[0], GAME[FIRST_CARD], FIRST_CARD, "a-1").status_code == 200
    at = version(game_id)
    # Ben's card and Ana's undo, both made at the version after Ana's card: Ben's lands first.
    assert tap(client, tokens[1], GAME[FIRST_CARD + 1], at, "b-1").status_code == 200
    late = undo(client, tokens[0], "undo/", at, "undo-1")
    assert late.status_code == 409 and late["X-Seat-Refusal"] == "conflict"
    assert [p.player for p in state(game_id).trick][:2] == ["Ana", "Ben"]  # nothing lost
    # The other order: Ben undoes his card first, then Cleo's
    # card made at the same version is refused (409) and nothing of it is recorded.
    at = version(game_id)
    assert undo(client, tokens[1], "undo/", at, "undo-b").status_code == 200
    stale = tap(client, tokens[2], GAME[FIRST_CARD + 2], at, "c-1")
    assert stale.status_code == 409
    assert [p.player for p in state(game_id).trick] == ["Ana"]  # Ana's kept, Ben's undone
    assert recorded(game_id) == FIRST_CARD + 1
    assert version(game_id) == at + 1


def test_a_player_taking_a_chef_reads_their_own_turn_and_no_coin_picker() -> None:
    """Issue 23, item 5: not "You: you played the lowest card", not "Waiting for Ana" on Ana's
    own phone, no coin picker while the Chef is hers to take, "green" and "4 left" apart."""
    take = next(i for i, e in enumerate(GAME) if e["type"] == "chef_taken")
    taker = GAME[take]["player"]
    game = services.game_create(players=NAMES)
    services.game_append(game_id=game.game_id, expected_version=1, events=GAME[1:take])
    token = services.seat_links_issue(game_id=game.game_id, user=None)[NAMES.index(taker)].token
    html = unescape(Client().get(f"/seat/{token}/").content.decode())
    assert "You played the lowest card: take a Chef" in html
    assert "You:" not in html and f"Waiting for {taker}" not in html
    assert "Your turn: first the Chef above." in html
    assert "data-coins" not in html  # no coin can go on a card now
    assert re.search(r"<span>green</span> <span class=\"ph-left\">\d+ left</span>", html)
