"""Every limit docs/api.md documents holds whatever the body (issue 22): a registration takes at
most 500 names and a player list at most 256 KiB, sent as JSON, text/csv or text/plain, or
pasted or uploaded at the organizer's desk; a form body to the token endpoint is no larger than a
JSON one. And a lone surrogate (``"\\ud800"``: half of a character) never reaches the database,
whatever it came in: a player's name, a map's key, a record file, a backup."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from engine.registry import RULES
from games import services
from games.backup import BackupError, import_events
from games.models import Event, Stream
from games.names import BadName, clean_names
from games.services import Refused
from tests.web.api import create, dump_log_and_projections, error
from tests.web.desk import desk, html, logged_in, summary
from tests.web.desk import new_tournament as desk_tournament
from tournaments import services as t

pytestmark = pytest.mark.django_db

MAX_REGISTRATION = 500
MAX_PLAYER_LIST_BYTES = 256 * 1024
"""The limits as docs/api.md documents them ("Limits")."""

TOO_MANY = "\n".join(f"Player {n}" for n in range(1, 10_001))
"""10,000 names (127 KB): the issue's list."""


def new_tournament(client: APIClient) -> str:
    response = client.post("/api/tournaments/", {"name": "Club", "date": "2026-12-01", "rounds": 3})
    assert response.status_code == 201, response.content
    return str(response.json()["id"])


def players(client: APIClient, tid: str) -> list[Any]:
    return list(client.get(f"/api/tournaments/{tid}/").json()["players"])


def register(client: APIClient, tid: str, how: str, text: str) -> Any:
    path = f"/api/tournaments/{tid}/players/"
    if how == "json names":
        return client.post(path, {"names": text.splitlines()}, format="json")
    if how == "json text":
        return client.post(path, {"text": text}, format="json")
    return client.generic("POST", path, text, content_type=how)


# ----------------------------------------------------------------------------- registrations


@pytest.mark.parametrize("how", ["json names", "json text", "text/csv", "text/plain"])
def test_a_registration_of_more_than_500_names_is_refused_whatever_the_body(
    api: APIClient, how: str
) -> None:
    tid = new_tournament(api)
    response = register(api, tid, how, TOO_MANY)
    assert response.status_code in (400, 422), response.content[:300]
    body = error(response)
    assert body["code"] == ("bad_request" if how == "json names" else "bad_players")
    assert str(MAX_REGISTRATION) in body["message"]
    assert players(api, tid) == []  # nothing registered


def test_500_names_are_one_registration(api: APIClient) -> None:
    tid = new_tournament(api)
    names = "\n".join(f"P{n}" for n in range(MAX_REGISTRATION))
    response = register(api, tid, "text/csv", names)
    assert response.status_code == 201, response.content[:300]
    assert len(players(api, tid)) == MAX_REGISTRATION


@pytest.mark.parametrize("how", ["json text", "text/csv", "text/plain"])
def test_a_player_list_over_256_kib_is_refused_whatever_the_body(api: APIClient, how: str) -> None:
    tid = new_tournament(api)
    text = "Alice\n" + "\n" * MAX_PLAYER_LIST_BYTES  # one name, and a lot of nothing
    response = register(api, tid, how, text)
    assert response.status_code == 413, response.content[:300]
    body = error(response)
    assert body["code"] == "player_list_too_large"
    assert "256 KiB" in body["message"]
    assert players(api, tid) == []


def test_a_text_body_keeps_the_header_limits(api: APIClient) -> None:
    tid = new_tournament(api)
    response = api.generic(
        "POST",
        f"/api/tournaments/{tid}/players/",
        "Alice\n",
        content_type="text/csv",
        headers={"X-Request-ID": "x" * 201},
    )
    assert response.status_code == 400
    assert error(response)["message"].startswith("X-Request-ID:")
    assert players(api, tid) == []


# ----------------------------------------------------------------------------- the desk


def test_the_desk_refuses_more_than_500_names_pasted_or_uploaded(olga: User) -> None:
    tid = desk_tournament(olga, names=[])
    client = logged_in(olga)
    pasted = client.post(desk(tid, "players/"), {"list-text": TOO_MANY})
    assert pasted.status_code == 422
    assert "at most 500 names, not 10000" in html(pasted)
    upload = SimpleUploadedFile("players.csv", TOO_MANY.encode(), "text/csv")
    uploaded = client.post(desk(tid, "players/"), {"list-file": upload})
    assert uploaded.status_code == 422
    assert "at most 500 names, not 10000" in html(uploaded)
    assert summary(tid, olga)["players"] == []


def test_the_desk_refuses_a_list_over_256_kib_pasted_or_uploaded(olga: User) -> None:
    tid = desk_tournament(olga, names=[])
    client = logged_in(olga)
    big = "".join(f"{n:>99}\n" for n in range(MAX_PLAYER_LIST_BYTES // 100 + 10))  # 256+ KiB
    pasted = client.post(desk(tid, "players/"), {"list-text": big})
    assert "takes at most 256 KiB" in html(pasted)
    upload = SimpleUploadedFile("players.csv", big.encode(), "text/csv")
    uploaded = client.post(desk(tid, "players/"), {"list-file": upload})
    assert "takes at most 256 KiB" in html(uploaded)
    assert summary(tid, olga)["players"] == []


# ----------------------------------------------------------------------------- the token endpoint


@pytest.mark.parametrize("kind", ["form", "multipart"])
def test_a_token_request_over_1_mib_is_too_large_in_any_form(anon: APIClient, kind: str) -> None:
    padding = "x" * (1024 * 1024)
    if kind == "form":
        response = anon.post(
            "/api/auth/token/",
            f"username=ana&password=pw&pad={padding}",
            content_type="application/x-www-form-urlencoded",
        )
    else:
        upload = SimpleUploadedFile("pad.bin", padding.encode() * 2)
        response = anon.post(
            "/api/auth/token/",
            {"username": "ana", "password": "pw", "pad": upload},
            format="multipart",
        )
    assert response.status_code == 413, response.content[:300]
    assert error(response)["code"] == "too_large"


# ----------------------------------------------------------------------------- lone surrogates


def test_a_name_holding_a_lone_surrogate_is_no_name() -> None:
    for name in ("\ud800", "ana\udc00", "\ud83d"):
        with pytest.raises(BadName, match="lone surrogate"):
            clean_names(["ben", name])
    assert clean_names(["\U0001f600 ana"]) == ["\U0001f600 ana"]  # a pair is a character


def test_the_services_refuse_a_name_holding_a_lone_surrogate(olga: User) -> None:
    with pytest.raises(Refused) as refused:
        services.game_create(players=["ana", "b\ud800", "cleo", "dev"], user=olga)
    assert refused.value.code == "bad_players"
    with pytest.raises(Refused) as refused:
        services.game_create(
            players=["Pizza", "Fries"],
            game_type="crazy-kitchen",
            options={"members": {"Pizza": ["ana", "b\ud800"], "Fries": ["cleo", "dev"]}},
            user=olga,
        )
    assert refused.value.code == "bad_players"
    tid = desk_tournament(olga, names=[])
    for arguments in ({"names": ["Ana", "B\udfff"]}, {"text": "Ana\nB\ud800\n"}):
        with pytest.raises(Refused) as refused:
            t.tournament_register(tournament_id=tid, user=olga, **arguments)
        assert refused.value.code == "bad_players"
        assert "lone surrogate" in str(refused.value)
    assert summary(tid, olga)["players"] == []


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/games/", '{"players": ["ana", "b\\ud800", "cleo", "dev"]}'),
        (
            "/api/games/{game}/results/",
            '{"expected_version": 1, "scores": {"a\\ud800": [1, 2, 3]}}',
        ),
        ("/api/games/", '{"players": ["ana", "ben", "cleo", "dev"], "x\\udc00": 1}'),
        (
            "/api/games/",
            '{"game_type": "crazy-kitchen", "players": ["A", "B"], '
            '"members": {"A\\ud800": ["a", "b"], "B": ["c", "d"]}}',
        ),
        ("/api/tournaments/", '{"name": "Open \\ud800", "date": "2026-12-01", "rounds": 3}'),
        ("/api/tournaments/{tournament}/players/", '{"text": "Ana\\nB\\ud800"}'),
    ],
)
def test_a_json_body_holding_a_lone_surrogate_is_refused(
    api: APIClient, path: str, body: str
) -> None:
    game = create(api)
    tid = new_tournament(api)
    before = dump_log_and_projections()
    response = api.generic(
        "POST", path.format(game=game["id"], tournament=tid), body, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    refusal = error(response)
    assert refusal["code"] in ("bad_json", "bad_request")
    assert "surrogate" in refusal["message"].casefold()
    assert dump_log_and_projections() == before
    assert players(api, tid) == []


def _record(game: str) -> list[dict[str, Any]]:
    """A few lines of a legal record of ``game``, as JSON objects."""
    return RULES[game].simulate(1, 4)[:3]


def _import_renamed(api: APIClient, game: str, suffix: str, *, first_line_only: bool) -> Any:
    """POST /api/games/import/ of a record of ``game`` whose first player's name ends with
    ``suffix``: on its first line (where the players are named) or on every line."""
    lines = [json.dumps(obj) for obj in _record(game)]
    first = json.loads(lines[0])
    name = (first.get("players") or [team["players"][0] for team in first["teams"]])[0]
    renamed = (json.dumps(name), json.dumps(name + suffix))
    lines = [
        line.replace(*renamed) if i == 0 or not first_line_only else line
        for i, line in enumerate(lines)
    ]
    assert renamed[1] in lines[0]
    return api.generic(
        "POST", "/api/games/import/", "\n".join(lines) + "\n", content_type="application/jsonl"
    )


@pytest.mark.parametrize("game", sorted(RULES))
def test_a_record_holding_a_lone_surrogate_is_refused_for_every_game(
    api: APIClient, game: str
) -> None:
    before = dump_log_and_projections()
    response = _import_renamed(api, game, "\ud800", first_line_only=True)
    assert response.status_code == 422, response.content[:300]
    refusal = error(response)
    assert (refusal["code"], refusal["event"]) == ("bad_json", 0)
    assert "lone surrogate (U+D800)" in refusal["message"]
    assert dump_log_and_projections() == before


def test_a_backup_holding_a_lone_surrogate_is_not_restored() -> None:
    line = {
        "id": 1,
        "stream": "5b0d7d6e-7c52-4a40-9d6a-2f4d1b7a0c11",
        "kind": Stream.Kind.values[0],
        "version": 1,
        "type": "game_started",
        "data": {"players": ["ana", "b\ud800", "cleo", "dev"]},
        "metadata": {},
        "idempotency_key": None,
        "recorded_at": "2026-12-01T18:00:00+00:00",
    }
    backup = io.StringIO(
        json.dumps({"format": "trick-n-chef-event-log", "version": 1}) + "\n" + json.dumps(line)
    )
    with pytest.raises(BackupError, match=r"line 2: data\.players\[1\] holds a lone surrogate"):
        import_events(backup)
    assert not Event.objects.exists()


@pytest.mark.parametrize("game", sorted(RULES))
def test_a_record_naming_a_player_with_a_nul_is_refused_for_every_game(
    api: APIClient, game: str
) -> None:
    """PostgreSQL cannot store a NUL in JSON either (it answered 500)."""
    before = dump_log_and_projections()
    response = _import_renamed(api, game, "\x00", first_line_only=False)
    assert response.status_code == 422, response.content[:300]
    refusal = error(response)
    assert (refusal["code"], refusal["event"]) == ("bad_players", 0)
    assert "NUL" in refusal["message"]
    assert dump_log_and_projections() == before


def test_a_backup_holding_a_nul_is_not_restored() -> None:
    line = {
        "id": 1,
        "stream": "5b0d7d6e-7c52-4a40-9d6a-2f4d1b7a0c11",
        "kind": Stream.Kind.values[0],
        "version": 1,
        "type": "game_started",
        "data": {"players": ["ana", "ben", "cleo", "dev"]},
        "metadata": {"request_id": "a\x00b"},
        "idempotency_key": None,
        "recorded_at": "2026-12-01T18:00:00+00:00",
    }
    backup = io.StringIO(
        json.dumps({"format": "trick-n-chef-event-log", "version": 1}) + "\n" + json.dumps(line)
    )
    with pytest.raises(BackupError, match=r"line 2: metadata\.request_id holds a NUL"):
        import_events(backup)
    assert not Event.objects.exists()
