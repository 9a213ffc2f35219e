"""The relay's stream (tournaments.api.relay, docs/relay.md): a round's tables as JSON Lines as
a spectator is shown them, followed with ``?since=<cursor>``: a play only after the delay,
never a card still held, a 304 while no table moved, corrections and a longer delay that a
follower who keeps each table's lines by version folds into the table's true record."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services as games
from games.models import GameProjection
from tests.clock import Clock
from tests.tournaments.public import test_relay_page as page
from tests.tournaments.public.test_relay_page import append, held, table
from tournaments import services as t

pytestmark = pytest.mark.django_db

clock, organizer, on_commit = page.clock, page.organizer, page.on_commit  # the same fixtures


def stream_url(tid: uuid.UUID, number: int = 1) -> str:
    return reverse("tournaments-api:relay-stream", args=[tid, number])


def read(client: Client, tid: uuid.UUID, since: str | None = None, **headers: Any) -> Any:
    query = {"since": since} if since is not None else {}
    return client.get(stream_url(tid), query, **headers)


def lines(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/jsonl")
    return [json.loads(line) for line in response.content.decode().splitlines()]


def cards_named(found: list[dict[str, Any]]) -> set[str]:
    """Every card any line names (a play's card, a deal's hands)."""
    out: set[str] = set()
    for line in found:
        event = line.get("event") or {}
        if event.get("card"):
            out.add(event["card"])
        for hand in (event.get("hands") or {}).values():
            out.update(hand)
    return out


class Follower:
    """A program following the stream: each table's lines by version (a line for a version it
    holds replaces it; a reset forgets the table), folded into the table's record."""

    def __init__(self) -> None:
        self.tables: dict[int, dict[int, dict[str, Any]]] = {}
        self.cursor: str | None = None

    def take(self, found: list[dict[str, Any]]) -> None:
        for line in found:
            if "cursor" in line:
                self.cursor = line["cursor"]
            elif line.get("reset"):
                self.tables[line["table"]] = {}
            else:
                self.tables.setdefault(line["table"], {})[line["version"]] = line["event"]

    def record(self, number: int) -> list[dict[str, Any]]:
        effective: list[dict[str, Any]] = []
        for _, event in sorted(self.tables.get(number, {}).items()):
            if event["type"] == "events_retracted":
                del effective[-event["count"] :]
            elif event["type"] not in ("results_entered", "game_voided"):
                effective.append(event)
        return effective


def test_the_stream_shows_a_play_only_after_the_delay_and_never_a_held_card(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid, game_id, record = table(organizer, delay=600)
    cut = append(game_id, record[:12], organizer, on_commit)
    clock.wait(400)
    now = append(game_id, record[12:30], organizer, on_commit)
    clock.wait(300)
    public = Client()
    found = lines(read(public, tid))
    events = [line for line in found if "event" in line]
    assert {line["table"] for line in events} == {1}
    assert {line["game"] for line in events} == {str(game_id)}
    published = [
        e.version for e in games.game_events(game_id=game_id)[1] if e.type == "game_published"
    ]
    assert [line["version"] for line in events] == [
        v for v in range(1, cut + 1) if v not in published
    ]
    assert events[0]["event"]["type"] == "game_started"
    deal = next(line for line in events if line["event"]["type"] == "round_started")
    assert deal["event"]["hands_hidden"] is True
    assert not cards_named(found) & held(game_id)
    assert found[-1] == {"cursor": f"1.{cut}.{deal['version']}", "delay": 600}

    mine = Client()
    mine.force_login(organizer)
    theirs = lines(read(mine, tid))
    assert [line["version"] for line in theirs if "event" in line] == [
        v for v in range(1, now + 1) if v not in published
    ]
    assert theirs[-1]["delay"] == 0

    # Followed: a 304 while nothing moved, then what the delay lets through.
    first = read(public, tid, found[-1]["cursor"])
    etag = first["ETag"]
    assert [line for line in lines(first) if "event" in line] == []  # the deal: not over yet
    assert read(public, tid, found[-1]["cursor"], HTTP_IF_NONE_MATCH=etag).status_code == 304
    clock.wait(300)
    moved = read(public, tid, found[-1]["cursor"], HTTP_IF_NONE_MATCH=etag)
    more = lines(moved)
    versions = [line["version"] for line in more if "event" in line]
    # The round's lines from its deal again (its hands still hidden), then the new ones.
    assert versions == list(range(deal["version"], now + 1))
    assert not cards_named(more) & held(game_id)
    assert more[-1]["cursor"] == f"1.{now}.{deal['version']}"


def test_a_follower_ends_with_the_true_record_corrections_and_a_longer_delay_included(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid, game_id, record = table(organizer, delay=60)
    public = Client()
    follower = Follower()
    follower.take(lines(read(public, tid)))
    for start in range(0, 40, 8):
        append(game_id, record[start : start + 8], organizer, on_commit)
        clock.wait(61)
        found = lines(read(public, tid, follower.cursor))
        assert not cards_named(found) & held(game_id)
        follower.take(found)
    # A correction: the last entry taken back, entered again.
    game = GameProjection.objects.get(stream_id=game_id)
    with on_commit():
        games.game_correct(
            game_id=game_id,
            expected_version=game.version,
            retract=1,
            reason="misread card",
            user=organizer,
        )
    clock.wait(61)
    found = lines(read(public, tid, follower.cursor))
    assert any(line.get("event", {}).get("type") == "events_retracted" for line in found)
    follower.take(found)
    # The delay made longer: the follower is told to read the table again.
    t.tournament_set_delay(tournament_id=tid, round=1, seconds=3000, user=organizer)
    found = lines(read(public, tid, follower.cursor))
    assert found[0] == {"table": 1, "game": str(game_id), "version": 0, "reset": True}
    follower.take(found)
    t.tournament_set_delay(tournament_id=tid, round=1, seconds=60, user=organizer)
    append(game_id, record[39:], organizer, on_commit)  # to the end of the game
    clock.wait(61)
    follower.take(lines(read(public, tid, follower.cursor)))
    true = games.game_view(game_id=game_id, user=organizer).record_events
    assert follower.record(1) == true


def test_a_bad_cursor_is_a_400_and_an_unpublished_round_a_404(
    organizer: User, on_commit: Any
) -> None:
    tid, game_id, record = table(organizer, delay=0)
    public = Client()
    bad = read(public, tid, "one.two")
    assert bad.status_code == 400
    assert "since" in bad.json()["error"]["details"]
    assert public.get(stream_url(tid, 2)).status_code == 404
    found = lines(read(public, tid, ""))
    assert found[-1] == {"cursor": "1.2", "delay": 0}  # the start, its publication
