"""The REST API end to end with DRF's APIClient (docs/api.md), on SQLite and on PostgreSQL.

Games are played with legal events from ``tricknchef.simulate`` (players p1..p4); the create
endpoint records the first of them, ``game_started``. The last section checks the promise every
refusal makes: the event log and the projections are left byte for byte as they were.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from engine import tricknchef
from games.models import Event, GameProjection, GameResult
from tests.web.api import (
    PLAYERS,
    SUITS,
    append,
    create,
    dump_log_and_projections,
    error,
    game_events,
    token_client,
)

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------------------------- helpers


def summary_after(events: list[dict[str, Any]]) -> dict[str, Any]:
    state = tricknchef.GameState()
    for obj in events:
        tricknchef.step(state, tricknchef.events.from_json(obj))
    return tricknchef.summarize(state)


def find_revoke(events: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    """The first point of the game where the player to play could revoke: (how many events
    precede it, the revoking card_played)."""
    state = tricknchef.GameState()
    for count, obj in enumerate(events):
        if state.phase is tricknchef.Phase.PLAY and state.expected is not None:
            illegal = set(state.hands[state.expected]) - set(tricknchef.legal_cards(state))
            if illegal:
                card = sorted(illegal)[0]
                return count, {"type": "card_played", "player": state.expected, "card": card}
        tricknchef.step(state, tricknchef.events.from_json(obj))
    raise AssertionError("no revoke possible in this game")


def played(client: APIClient, count: int, seed: int = 1, **extra: Any) -> tuple[str, int]:
    """A new game with its first ``count`` events recorded: (id, version)."""
    game = create(client, **extra)
    version = int(game["version"])
    if count > 1:
        response = append(client, game["id"], version, game_events(seed)[1:count])
        assert response.status_code == 201, response.content
        version = response.json()["version"]
    return game["id"], version


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture
def ben_api(make_user: Callable[..., User]) -> APIClient:
    """Ben, another scorekeeper."""
    return token_client(make_user("ben"))


@pytest.fixture
def staff_api(make_user: Callable[..., User]) -> APIClient:
    return token_client(make_user("cleo", is_staff=True))


@pytest.fixture(autouse=True)
def _fresh_throttle_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


# ----------------------------------------------------------------------------- playing


def test_create_a_game_and_play_a_few_events(api: APIClient) -> None:
    events = game_events()
    response = api.post("/api/games/", {"players": PLAYERS, "suits": SUITS})
    assert response.status_code == 201
    game = response.json()
    assert response["Location"] == f"/api/games/{game['id']}/"
    assert game["version"] == 1 and game["status"] == "in_progress"
    assert game["appended"] == [{"version": 1, "type": "game_started"}]
    assert game["state"] == summary_after(events[:1])

    response = append(api, game["id"], 1, events[1:12])
    assert response.status_code == 201
    change = response.json()
    assert change["version"] == 12
    assert [a["version"] for a in change["appended"]] == list(range(2, 13))
    assert [a["type"] for a in change["appended"]] == [e["type"] for e in events[1:12]]
    assert change["state"] == summary_after(events[:12])

    detail = api.get(f"/api/games/{game['id']}/").json()
    assert detail == {
        "id": game["id"],
        "game_type": "trick-n-chef",
        "version": 12,
        "status": "in_progress",
        "published": False,
        "results_only": False,
        "players": PLAYERS,
        "state": summary_after(events[:12]),
        "delay": None,  # not a table relayed with a delay (docs/relay.md)
        "results": [],  # none before the game is finished
    }

    history = api.get(f"/api/games/{game['id']}/events/").json()
    assert history["id"] == game["id"] and history["version"] == 12
    assert [e["version"] for e in history["events"]] == list(range(1, 13))
    assert [{"type": e["type"], **e["data"]} for e in history["events"]] == events[:12]
    assert {e["by"] for e in history["events"]} == {"ana"}
    assert all(e["recorded_at"] for e in history["events"])
    since = api.get(f"/api/games/{game['id']}/events/?since=10").json()
    assert [e["version"] for e in since["events"]] == [11, 12]


def test_a_whole_game_finishes_with_its_ranking(api: APIClient) -> None:
    events = game_events(seed=5)
    game_id, version = played(api, len(events), seed=5)
    assert version == len(events)
    detail = api.get(f"/api/games/{game_id}/").json()
    assert detail["status"] == "finished"
    assert detail["state"] == summary_after(events)
    assert [r["player"] for r in detail["state"]["ranking"]] == [
        r.player
        for r in GameResult.objects.filter(game_id=uuid.UUID(game_id)).order_by("rank", "seat")
    ]


def test_the_game_read_comes_from_the_projection_alone(
    anon: APIClient, api: APIClient, django_assert_max_num_queries: Any
) -> None:
    game_id, _ = played(api, 40, published=True)
    # One row read, and (for a game played within the hour) whether its owner relays it with a
    # delay (games.policy.spectator_delays: a tournament table's); no replay of the log.
    with django_assert_max_num_queries(2):
        response = anon.get(f"/api/games/{game_id}/")
    assert response.status_code == 200
    assert response.json()["version"] == 41  # game_published too


def test_a_revoke_is_refused_with_the_rule_code(api: APIClient) -> None:
    events = game_events()
    before, revoke = find_revoke(events)
    game_id, version = played(api, before)
    response = append(api, game_id, version, [revoke])
    assert response.status_code == 422
    body = error(response)
    assert body["code"] == "revoke"
    assert body["event"] == 0
    assert revoke["player"] in body["message"]
    assert api.get(f"/api/games/{game_id}/").json()["version"] == version


def test_the_refused_event_is_named_by_its_index_in_the_request(api: APIClient) -> None:
    events = game_events()
    game_id, version = played(api, 11)
    assert [e["type"] for e in events[11:13]] == ["card_played", "card_played"]
    response = append(api, game_id, version, [events[11], {**events[12], "card": "G99"}])
    assert response.status_code == 422
    assert error(response) | {"message": ""} == {"code": "bad_card", "event": 1, "message": ""}
    assert api.get(f"/api/games/{game_id}/").json()["version"] == version  # none of the batch


def test_a_card_not_in_hand_is_refused(api: APIClient) -> None:
    events = game_events()
    game_id, version = played(api, 11)
    play = events[11]
    assert play["type"] == "card_played"
    hands = events[1]["hands"]
    foreign = next(c for p, cards in hands.items() if p != play["player"] for c in cards)
    response = append(api, game_id, version, [{**play, "card": foreign}])
    assert response.status_code == 422
    assert error(response)["code"] == "card_not_in_hand"


def test_a_stale_expected_version_is_a_conflict_with_the_current_state(api: APIClient) -> None:
    events = game_events()
    game_id, version = played(api, 10)
    response = append(api, game_id, version - 3, events[10:11])
    assert response.status_code == 409
    body = error(response)
    assert body["code"] == "conflict"
    assert body["current_version"] == version
    assert body["state"] == api.get(f"/api/games/{game_id}/").json()["state"]
    # the client reloads and retries with the version it was told
    retry = append(api, game_id, body["current_version"], events[10:11])
    assert retry.status_code == 201


# ----------------------------------------------------------------------------- idempotency


def test_the_same_idempotency_key_three_times_records_once(api: APIClient) -> None:
    events = game_events()
    game_id, version = played(api, 10)
    responses = [
        append(api, game_id, version, events[10:12], **{"Idempotency-Key": "k-1"}) for _ in range(3)
    ]
    assert {r.status_code for r in responses} == {201}
    assert len({r.content for r in responses}) == 1  # byte for byte
    assert responses[0].json()["version"] == version + 2
    assert Event.objects.filter(stream_id=game_id).count() == version + 2


def test_a_create_retried_with_its_key_makes_one_game(api: APIClient) -> None:
    body = {"players": PLAYERS, "suits": SUITS, "published": True}
    responses = [
        api.post("/api/games/", body, headers={"Idempotency-Key": "create-1"}) for _ in range(3)
    ]
    assert {r.status_code for r in responses} == {201}
    assert len({r.content for r in responses}) == 1
    assert GameProjection.objects.count() == 1
    assert responses[0].json()["appended"] == [
        {"version": 1, "type": "game_started"},
        {"version": 2, "type": "game_published"},
    ]


SCORES = {"p1": [10, 12, 8], "p2": [9, 9, 9], "p3": [14, 3, 11], "p4": [0, 5, 20]}


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("corrections/", {"retract": 1, "reason": "typo"}),
        ("void/", {"reason": "table left"}),
        ("publish/", {}),
        ("results/", {"scores": SCORES}),
    ],
)
def test_every_write_answers_a_retry_with_the_first_response(
    api: APIClient, path: str, body: dict[str, Any]
) -> None:
    game_id, version = played(api, 1 if path == "results/" else 8)
    responses = [
        api.post(
            f"/api/games/{game_id}/{path}",
            {"expected_version": version, **body},
            headers={"Idempotency-Key": f"retry-{path}"},
        )
        for _ in range(3)
    ]
    assert [r.status_code for r in responses] == [201, 201, 201]
    assert len({r.content for r in responses}) == 1
    assert Event.objects.filter(stream_id=game_id).count() == version + 1


def test_an_import_retried_with_its_key_makes_one_game(api: APIClient) -> None:
    record = "".join(json.dumps(e) + "\n" for e in game_events()[:20]).encode()
    responses = [
        api.post(
            "/api/games/import/",
            record,
            content_type="application/jsonl",
            headers={"Idempotency-Key": "import-1"},
        )
        for _ in range(3)
    ]
    assert [r.status_code for r in responses] == [201, 201, 201]
    assert len({r.content for r in responses}) == 1
    assert GameProjection.objects.count() == 1


def test_a_key_reused_for_another_request_is_refused(api: APIClient) -> None:
    events = game_events()
    game_id, version = played(api, 10)
    first = append(api, game_id, version, events[10:11], **{"Idempotency-Key": "k-2"})
    assert first.status_code == 201
    other = append(api, game_id, version + 1, events[11:12], **{"Idempotency-Key": "k-2"})
    assert other.status_code == 422
    assert error(other)["code"] == "idempotency_key_reused"
    assert api.get(f"/api/games/{game_id}/").json()["version"] == version + 1


def test_an_empty_or_overlong_idempotency_key_is_a_bad_request(api: APIClient) -> None:
    events = game_events()
    game_id, version = played(api, 10)
    for key in ("", "k" * 201):
        response = append(api, game_id, version, events[10:11], **{"Idempotency-Key": key})
        assert response.status_code == 400
        body = error(response)
        assert body["code"] == "bad_request"
        assert "Idempotency-Key" in body["message"]


# ----------------------------------------------------------------------------- corrections, void


def test_a_correction_retracts_the_last_entries(api: APIClient) -> None:
    events = game_events()
    game_id, version = played(api, 12)
    response = api.post(
        f"/api/games/{game_id}/corrections/",
        {"expected_version": version, "retract": 2, "reason": "wrong cards keyed"},
    )
    assert response.status_code == 201
    change = response.json()
    assert change["appended"] == [{"version": version + 1, "type": "events_retracted"}]
    assert change["state"] == summary_after(events[:10])
    # play goes on from the corrected record
    response = append(api, game_id, version + 1, events[10:12])
    assert response.status_code == 201
    assert response.json()["state"] == summary_after(events[:12])
    history = api.get(f"/api/games/{game_id}/events/").json()["events"]
    assert history[12]["data"] == {"count": 2, "reason": "wrong cards keyed"}


def test_a_correction_of_too_many_events_is_refused(api: APIClient) -> None:
    game_id, version = played(api, 3)
    response = api.post(
        f"/api/games/{game_id}/corrections/", {"expected_version": version, "retract": 3}
    )
    assert response.status_code == 422
    assert error(response)["code"] == "bad_correction"


def test_only_the_organizer_or_staff_may_void(
    api: APIClient, ben_api: APIClient, staff_api: APIClient
) -> None:
    events = game_events()
    game_id, version = played(api, 5)
    response = ben_api.post(f"/api/games/{game_id}/void/", {"expected_version": version})
    assert response.status_code == 403
    assert error(response)["code"] == "forbidden"

    response = api.post(
        f"/api/games/{game_id}/void/", {"expected_version": version, "reason": "table left"}
    )
    assert response.status_code == 201
    assert response.json()["status"] == "void"
    assert api.get(f"/api/games/{game_id}/").json()["status"] == "void"

    response = append(api, game_id, version + 1, events[5:6])
    assert response.status_code == 422
    assert error(response)["code"] == "game_void"

    other_id, other_version = played(api, 2)
    response = staff_api.post(f"/api/games/{other_id}/void/", {"expected_version": other_version})
    assert response.status_code == 201


# ----------------------------------------------------------------------------- publishing, reads


def test_unpublished_games_are_hidden_from_anonymous_readers(
    api: APIClient, ben_api: APIClient, anon: APIClient
) -> None:
    game_id, version = played(api, 5)
    for path in ("", "events/", "record/"):
        response = anon.get(f"/api/games/{game_id}/{path}")
        assert response.status_code == 404, path
        assert error(response)["code"] == "not_found"
    assert anon.get("/api/games/").json()["results"] == []
    assert ben_api.get(f"/api/games/{game_id}/").status_code == 200  # any scorekeeper

    response = ben_api.post(f"/api/games/{game_id}/publish/", {"expected_version": version})
    assert response.status_code == 403
    response = api.post(f"/api/games/{game_id}/publish/", {"expected_version": version})
    assert response.status_code == 201
    assert response.json()["appended"] == [{"version": version + 1, "type": "game_published"}]

    for path in ("", "events/", "record/"):
        assert anon.get(f"/api/games/{game_id}/{path}").status_code == 200, path
    assert anon.get(f"/api/games/{game_id}/").json()["published"] is True
    assert [g["id"] for g in anon.get("/api/games/").json()["results"]] == [game_id]

    again = api.post(f"/api/games/{game_id}/publish/", {"expected_version": version + 1})
    assert again.status_code == 422
    assert error(again)["code"] == "already_published"


def test_the_list_is_newest_first_and_paginated(api: APIClient, anon: APIClient) -> None:
    ids = [played(api, 1, published=n % 2 == 0)[0] for n in range(5)]
    page = api.get("/api/games/?limit=2").json()
    assert page["count"] == 5
    assert [g["id"] for g in page["results"]] == ids[::-1][:2]
    assert page["next"] is not None
    rest = api.get("/api/games/?limit=2&offset=2").json()
    assert [g["id"] for g in rest["results"]] == ids[::-1][2:4]
    item = page["results"][0]
    assert set(item) == {
        "id",
        "game_type",
        "status",
        "version",
        "published",
        "results_only",
        "players",
        "updated_at",
    }
    assert item["players"] == PLAYERS
    public = anon.get("/api/games/").json()
    assert [g["id"] for g in public["results"]] == [ids[4], ids[2], ids[0]]


# ----------------------------------------------------------------------------- results only


def test_results_only_entry(api: APIClient) -> None:
    game_id, version = played(api, 1)
    scores = SCORES
    response = api.post(
        f"/api/games/{game_id}/results/",
        {
            "expected_version": version,
            "scores": scores,
            "totals": {p: sum(s) for p, s in scores.items()},
        },
    )
    assert response.status_code == 201, response.content
    change = response.json()
    assert change["status"] == "finished"
    assert change["appended"] == [{"version": 2, "type": "results_entered"}]
    assert change["state"]["totals"] == {"p1": 30, "p2": 27, "p3": 28, "p4": 25}
    detail = api.get(f"/api/games/{game_id}/").json()
    assert detail["results_only"] is True and detail["status"] == "finished"
    assert [r.player for r in GameResult.objects.filter(game_id=uuid.UUID(game_id))] == [
        "p1",
        "p3",
        "p2",
        "p4",
    ]

    record = api.get(f"/api/games/{game_id}/record/")
    assert record.status_code == 422
    assert error(record)["code"] == "results_only"


def test_results_that_do_not_add_up_are_refused(api: APIClient) -> None:
    game_id, version = played(api, 1)
    scores = SCORES
    response = api.post(
        f"/api/games/{game_id}/results/",
        {
            "expected_version": version,
            "scores": scores,
            "totals": {"p1": 31, "p2": 27, "p3": 28, "p4": 25},
        },
    )
    assert response.status_code == 422
    body = error(response)
    assert body["code"] == "bad_results"
    assert "p1" in body["message"]


# ----------------------------------------------------------------------------- record files


def test_export_then_import_gives_the_same_record(api: APIClient) -> None:
    events = game_events(seed=9)
    game_id, _ = played(api, len(events), seed=9)
    response = api.get(f"/api/games/{game_id}/record/", HTTP_ACCEPT="application/jsonl")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/jsonl; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="game-{game_id}.jsonl"'
    record = response.content
    assert [json.loads(line) for line in record.decode().splitlines()] == events

    imported = api.post(
        "/api/games/import/?published=true", record, content_type="application/jsonl"
    )
    assert imported.status_code == 201, imported.content
    change = imported.json()
    assert change["id"] != game_id
    assert change["status"] == "finished"
    assert change["version"] == len(events) + 1  # and game_published
    again = api.get(f"/api/games/{change['id']}/record/")
    assert again.content == record
    assert api.get(f"/api/games/{change['id']}/").json()["state"] == summary_after(events)


def test_a_record_imports_as_plain_text_or_octets_too(api: APIClient) -> None:
    record = "".join(json.dumps(e) + "\n" for e in game_events()[:30]).encode()
    for media in ("text/plain", "application/octet-stream"):
        response = api.post("/api/games/import/", record, content_type=media)
        assert response.status_code == 201, (media, response.content)
        assert response.json()["version"] == 30


def test_an_invalid_import_names_the_first_bad_line(api: APIClient) -> None:
    events = game_events()
    before, revoke = find_revoke(events)
    lines = [json.dumps(e) for e in events[:before]] + [json.dumps(revoke)]
    response = api.post(
        "/api/games/import/", "\n".join(lines).encode(), content_type="application/jsonl"
    )
    assert response.status_code == 422
    body = error(response)
    assert (body["code"], body["event"]) == ("revoke", before)

    lines = [json.dumps(e) for e in events[:7]] + ["{not json"] + [json.dumps(events[8])]
    response = api.post(
        "/api/games/import/", "\n".join(lines).encode(), content_type="application/jsonl"
    )
    assert response.status_code == 422
    assert error(response) | {"message": ""} == {"code": "bad_json", "event": 7, "message": ""}
    assert GameProjection.objects.count() == 0


def test_a_misspelt_field_is_refused_not_ignored(api: APIClient) -> None:
    response = api.post("/api/games/", {"players": PLAYERS, "suits": SUITS, "publshed": True})
    assert response.status_code == 400
    assert error(response)["message"] == "publshed: This field is not expected here."
    assert GameProjection.objects.count() == 0


def test_a_huge_import_is_refused(api: APIClient) -> None:
    response = api.post(
        "/api/games/import/", b"x" * (1024 * 1024 + 1), content_type="application/jsonl"
    )
    assert response.status_code == 413
    assert error(response)["code"] == "record_too_large"


def test_an_import_must_be_a_record_file(api: APIClient) -> None:
    response = api.post("/api/games/import/", {"players": PLAYERS}, format="json")
    assert response.status_code == 415
    assert error(response)["code"] == "unsupported_media_type"
    response = api.post("/api/games/import/", b"", content_type="application/jsonl")
    assert response.status_code == 422
    assert error(response)["event"] == 0


# ----------------------------------------------------------------------------- the global log


def wait_until_the_log_shows(client: APIClient, count: int, timeout: float = 20.0) -> None:
    """On PostgreSQL the log shows an event once every transaction that began before it
    committed has ended, on the whole server: another client's open transaction (another test
    run, say) holds committed events back for a moment."""
    deadline = time.monotonic() + timeout
    while len(client.get("/api/events/").json()["events"]) < count:
        assert time.monotonic() < deadline, "the log did not show the committed events"
        time.sleep(0.05)


def test_the_global_log_reads_on_from_a_cursor(
    committed_db: None, api: APIClient, anon: APIClient
) -> None:
    # committed_db: on PostgreSQL the log shows only what committed before every running
    # transaction began, so the test's writes must really commit.
    events = game_events()
    first, _ = played(api, 3)
    second, _ = played(api, 2)
    wait_until_the_log_shows(api, 5)
    page = api.get("/api/events/?limit=4").json()
    assert [(e["stream"], e["version"]) for e in page["events"]] == [
        (first, 1),
        (first, 2),
        (first, 3),
        (second, 1),
    ]
    assert page["events"][0]["type"] == "game_started"
    assert {"type": "game_started", **page["events"][0]["data"]} == events[0]
    assert page["next"] == page["events"][-1]["position"]
    rest = api.get(f"/api/events/?after={page['next']}").json()
    assert [(e["stream"], e["version"]) for e in rest["events"]] == [(second, 2)]
    empty = api.get(f"/api/events/?after={rest['next']}").json()
    assert empty == {"events": [], "next": rest["next"]}
    whole = api.get("/api/events/").json()
    assert [e["position"] for e in whole["events"]] == [
        e["position"] for e in page["events"] + rest["events"]
    ]

    response = anon.get("/api/events/")
    assert response.status_code == 401
    assert error(response)["code"] == "not_authenticated"


def test_an_empty_log_answers_a_cursor_it_accepts_back(api: APIClient) -> None:
    page = api.get("/api/events/").json()
    assert page["events"] == []
    assert api.get(f"/api/events/?after={page['next']}").status_code == 200


@pytest.mark.parametrize("query", ["after=x", "after=-1.0", "after=1", "limit=0", "limit=1001"])
def test_bad_log_parameters_are_bad_requests(api: APIClient, query: str) -> None:
    response = api.get(f"/api/events/?{query}")
    assert response.status_code == 400
    body = error(response)
    assert body["code"] == "bad_request"
    assert body["message"].startswith(query.split("=")[0] + ":")


# ----------------------------------------------------------------------------- authentication


def test_a_token_from_the_token_endpoint_authenticates(anon: APIClient, ana: User) -> None:
    response = anon.post("/api/auth/token/", {"username": "ana", "password": "s3cret-pass"})
    assert response.status_code == 200
    token = response.json()["token"]
    assert token == Token.objects.get(user=ana).key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    game = create(client)
    history = client.get(f"/api/games/{game['id']}/events/").json()
    assert history["events"][0]["by"] == "ana"

    wrong = anon.post("/api/auth/token/", {"username": "ana", "password": "nope"})
    assert wrong.status_code == 400
    assert error(wrong)["code"] == "bad_request"


def test_the_token_endpoint_is_throttled(
    anon: APIClient, ana: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth_token": "2/minute"})
    for _ in range(2):
        anon.post("/api/auth/token/", {"username": "ana", "password": "guess"})
    response = anon.post("/api/auth/token/", {"username": "ana", "password": "guess"})
    assert response.status_code == 429
    body = error(response)
    assert body["code"] == "throttled"
    assert body["retry_after"] >= 1
    assert int(response["Retry-After"]) >= 1


def test_writes_without_credentials_get_401(anon: APIClient, api: APIClient) -> None:
    response = anon.post("/api/games/", {"players": PLAYERS, "suits": SUITS})
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert error(response)["code"] == "not_authenticated"

    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = bad.post("/api/games/", {"players": PLAYERS, "suits": SUITS})
    assert response.status_code == 401
    assert error(response)["code"] == "authentication_failed"


def test_session_writes_need_the_csrf_token(ana: User) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(ana)
    assert browser.get("/api/games/").status_code == 200  # reads need no token

    response = browser.post("/api/games/", {"players": PLAYERS, "suits": SUITS})
    assert response.status_code == 403
    assert error(response)["code"] == "csrf_failed"
    assert GameProjection.objects.count() == 0

    secret = "A" * 32
    browser.cookies["csrftoken"] = secret
    response = browser.post(
        "/api/games/", {"players": PLAYERS, "suits": SUITS}, headers={"X-CSRFToken": secret}
    )
    assert response.status_code == 201


# ----------------------------------------------------------------------------- error format


def test_drf_errors_have_the_api_error_shape(api: APIClient) -> None:
    game_id, version = played(api, 1)
    cases: list[tuple[Any, int, str]] = [
        (api.put("/api/games/", {}), 405, "method_not_allowed"),
        (api.delete(f"/api/games/{game_id}/"), 405, "method_not_allowed"),
        (
            api.post(f"/api/games/{game_id}/events/", "x", content_type="text/plain"),
            415,
            "unsupported_media_type",
        ),
        (api.get("/api/nowhere/"), 404, "not_found"),
        (api.get("/api/games/not-a-uuid/"), 404, "not_found"),
        (api.get(f"/api/games/{uuid.uuid4()}/"), 404, "not_found"),
        (api.get(f"/api/games/{game_id}/events/?since=-1"), 400, "bad_request"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, (status, response.content)
        assert error(response)["code"] == code


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"events": []}, "expected_version"),
        ({"expected_version": "1", "events": []}, "expected_version"),
        ({"expected_version": 1.0, "events": []}, "expected_version"),
        ({"expected_version": True, "events": []}, "expected_version"),
        ({"expected_version": 1}, "events"),
        ({"expected_version": 1, "events": {"type": "chef_chosen"}}, "events"),
        ({"expected_version": 1, "events": [], "expected": 1}, "expected"),
    ],
)
def test_malformed_bodies_name_the_field(api: APIClient, body: Any, field: str) -> None:
    game_id, _ = played(api, 1)
    response = api.post(f"/api/games/{game_id}/events/", body)
    assert response.status_code == 400
    error_body = error(response)
    assert error_body["code"] == "bad_request"
    assert error_body["message"].startswith(f"{field}:")
    assert field in error_body["details"]


def test_a_body_that_is_not_json_is_bad_json(api: APIClient) -> None:
    game_id, _ = played(api, 1)
    response = api.post(
        f"/api/games/{game_id}/events/", b'{"expected_version": 1,', content_type="application/json"
    )
    assert response.status_code == 400
    body = error(response)
    assert body["code"] == "bad_json"
    assert "not valid JSON" in body["message"]


def test_create_checks_names_and_seats(api: APIClient) -> None:
    response = api.post("/api/games/", {"players": ["p1", "p2"], "suits": SUITS})
    assert response.status_code == 422
    assert error(response)["code"] == "bad_players"
    response = api.post("/api/games/", {"players": ["p1", "p2", 3]})
    assert response.status_code == 400
    assert error(response)["message"] == "players[2]: Not a valid string."
    response = api.post("/api/games/", {"players": PLAYERS, "published": "yes"})
    assert response.status_code == 400
    assert error(response)["message"].startswith("published:")


# ------------------------------------------------------------------ refusals change nothing


def _rejected_requests() -> list[tuple[str, Callable[..., Any], int, str]]:
    """(name, send(clients, game_id, version) -> response, status, code)."""
    events = game_events()
    before, revoke = find_revoke(events)

    def append_raw(c: dict[str, APIClient], g: str, v: int, body: bytes) -> Any:
        return c["ana"].post(f"/api/games/{g}/events/", body, content_type="application/json")

    return [
        ("illegal move", lambda c, g, v: append(c["ana"], g, v, [revoke]), 422, "revoke"),
        (
            "legal events then an illegal one",
            lambda c, g, v: append(
                c["ana"], g, v, [events[before], {**events[before + 1], "card": "X1"}]
            ),
            422,
            "bad_card",
        ),
        (
            "bad JSON body",
            lambda c, g, v: append_raw(c, g, v, b'{"expected_version": '),
            400,
            "bad_json",
        ),
        (
            "missing expected_version",
            lambda c, g, v: c["ana"].post(f"/api/games/{g}/events/", {"events": [revoke]}),
            400,
            "bad_request",
        ),
        (
            "unknown game",
            lambda c, g, v: append(c["ana"], str(uuid.uuid4()), v, events[before : before + 1]),
            404,
            "not_found",
        ),
        (
            "stale version",
            lambda c, g, v: append(c["ana"], g, v - 1, events[before : before + 1]),
            409,
            "conflict",
        ),
        (
            "unauthenticated",
            lambda c, g, v: append(c["anon"], g, v, events[before : before + 1]),
            401,
            "not_authenticated",
        ),
        (
            "session write without the CSRF token",
            lambda c, g, v: c["browser"].post(
                f"/api/games/{g}/events/",
                {"expected_version": v, "events": events[before : before + 1]},
            ),
            403,
            "csrf_failed",
        ),
        (
            "not sent as JSON",
            lambda c, g, v: c["ana"].post(
                f"/api/games/{g}/events/",
                f"expected_version={v}",
                content_type="application/x-www-form-urlencoded",
            ),
            415,
            "unsupported_media_type",
        ),
        (
            "void by another user",
            lambda c, g, v: c["ben"].post(f"/api/games/{g}/void/", {"expected_version": v}),
            403,
            "forbidden",
        ),
        (
            "correction of too many",
            lambda c, g, v: c["ana"].post(
                f"/api/games/{g}/corrections/", {"expected_version": v, "retract": 10_000}
            ),
            422,
            "bad_correction",
        ),
        (
            "reused idempotency key",
            lambda c, g, v: append(
                c["ana"], g, v, events[before : before + 1], **{"Idempotency-Key": "used"}
            ),
            422,
            "idempotency_key_reused",
        ),
        (
            "invalid import",
            lambda c, g, v: c["ana"].post(
                "/api/games/import/",
                json.dumps(events[0]).encode() + b"\n" + json.dumps(revoke).encode(),
                content_type="application/jsonl",
            ),
            422,
            "out_of_order",
        ),
        (
            "results for a game recorded play by play",
            lambda c, g, v: c["ana"].post(
                f"/api/games/{g}/results/",
                {"expected_version": v, "scores": {"p1": [1, 2, 3]}},
            ),
            422,
            "bad_results",
        ),
    ]


@pytest.mark.parametrize(
    ("send", "status", "code"),
    [
        pytest.param(send, status, code, id=name)
        for name, send, status, code in _rejected_requests()
    ],
)
def test_a_rejected_request_leaves_log_and_projections_unchanged(
    ana: User,
    api: APIClient,
    ben_api: APIClient,
    anon: APIClient,
    send: Callable[..., Any],
    status: int,
    code: str,
) -> None:
    events = game_events()
    before, _ = find_revoke(events)
    game_id, version = played(api, before)
    finished_id, _ = played(api, len(events), seed=2)  # with results rows
    assert GameResult.objects.filter(game_id=uuid.UUID(finished_id)).count() == 4
    # the key "used" belongs to an earlier request: a publish
    publish = api.post(
        f"/api/games/{finished_id}/publish/",
        {"expected_version": len(events)},
        headers={"Idempotency-Key": "used"},
    )
    assert publish.status_code == 201

    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(ana)

    dump = dump_log_and_projections()
    clients = {"ana": api, "ben": ben_api, "anon": anon, "browser": browser}
    response = send(clients, game_id, version)
    assert response.status_code == status, response.content
    assert error(response)["code"] == code
    assert dump_log_and_projections() == dump
