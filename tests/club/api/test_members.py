"""The club API's members: their pages, head-to-head, the officials' merges, splits, display
names and hiding; the club's records and results export; the schema (club.api)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from club import domain
from tests.club.api.conftest import Season
from tests.web.api import error

pytestmark = pytest.mark.django_db

ANA, BEN = domain.default_member("Ana"), domain.default_member("Ben")
ZED, HAL = domain.default_member("Zed"), domain.default_member("Hal")


def test_a_members_page(season: Season, anon: APIClient) -> None:
    response = anon.get(f"/api/members/{ANA}/")
    assert response.status_code == 200, response.content
    member = response.json()
    assert member["id"] == ANA and member["name"] == "ana"  # the latest entry's name
    assert member["names"] == ["Ana", "ana"]
    assert member["hidden"] is False and member["display_name"] == ""
    assert member["leagues"] == [{"id": season.league, "name": "Season 2026"}]
    assert [h["tournament"] for h in member["history"]] == [str(season.second), str(season.first)]
    assert all(h["place"] is not None and h["finished"] for h in member["history"])
    [game] = member["games"]
    assert game["game_type"] == "trick-n-chef"
    assert game["rating"]["games"] == 4 and game["rating"]["provisional"] is True
    assert len(game["changes"]) == 4
    last = game["changes"][-1]
    assert last["change"] == pytest.approx(last["ordinal"] - last["ordinal_before"])
    assert last["ordinal"] == pytest.approx(game["rating"]["ordinal"])
    assert {"seq", "game", "tournament", "round", "table", "place", "size"} <= set(last)
    assert isinstance(game["statistics"], list) and isinstance(game["feats"], list)


def test_a_no_show_has_a_page_with_no_place(season: Season, anon: APIClient) -> None:
    zed = anon.get(f"/api/members/{ZED}/").json()
    assert [h["place"] for h in zed["history"]] == [None]
    assert all(g["rating"] is None for g in zed["games"])


@pytest.mark.parametrize("member", ["0" * 12, "nobody", "A" * 12, "x" * 500, "%00"])
def test_an_unknown_member_is_a_404(season: Season, anon: APIClient, member: str) -> None:
    response = anon.get(f"/api/members/{member}/")
    assert response.status_code == 404, response.content
    assert error(response)["code"] == "not_found"


def test_head_to_head(season: Season, anon: APIClient) -> None:
    response = anon.get(f"/api/members/{ANA}/head-to-head/{BEN}/")
    assert response.status_code == 200, response.content
    found = response.json()
    assert found["member"] == {"id": ANA, "name": "ana"}
    assert found["other"]["id"] == BEN
    meetings = found["meetings"]
    assert found["ahead"] + found["behind"] + found["level"] == len(meetings)
    assert found["ahead"] == sum(1 for m in meetings if m["place"] < m["other_place"])
    mine = {c["game"] for c in anon.get(f"/api/members/{ANA}/").json()["games"][0]["changes"]}
    theirs = {c["game"] for c in anon.get(f"/api/members/{BEN}/").json()["games"][0]["changes"]}
    assert {m["game"] for m in meetings} == mine & theirs
    assert anon.get(f"/api/members/{ANA}/head-to-head/{'0' * 12}/").status_code == 404


# ----------------------------------------------------------------------------- writes


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/members/merge/", {"member": ZED, "into": HAL}),
        ("post", "/api/members/split/", {"tournament": "0" * 32, "player": "P1"}),
        ("patch", f"/api/members/{ANA}/", {"hidden": True}),
    ],
)
def test_only_the_clubs_officials_change_members(
    season: Season, anon: APIClient, api: APIClient, method: str, path: str, body: Any
) -> None:
    assert getattr(anon, method)(path, body).status_code == 401
    refused = getattr(api, method)(path, body)
    assert refused.status_code == 403 and error(refused)["code"] == "forbidden"


def test_a_merged_members_old_id_answers_with_the_survivor(
    season: Season, official: APIClient, anon: APIClient, commit: Callable[[], Any]
) -> None:
    with commit():
        merged = official.post("/api/members/merge/", {"member": ZED, "into": HAL})
    assert merged.status_code == 201, merged.content
    change = merged.json()
    assert change["member"] == HAL and change["events"] == ["members_merged"]
    old = anon.get(f"/api/members/{ZED}/").json()
    assert old["id"] == HAL
    assert old == anon.get(f"/api/members/{HAL}/").json()
    assert "Zed" in old["names"] and len(old["history"]) == 3
    again = official.post("/api/members/merge/", {"member": ZED, "into": HAL})
    assert again.status_code == 422 and error(again)["code"] == "same_member"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"member": ZED}, 400, "bad_request"),
        ({"member": ZED, "into": 5}, 400, "bad_request"),
        ({"member": ZED, "into": "x" * 13}, 400, "bad_request"),
        ({"member": ZED, "into": HAL, "why": "same"}, 400, "bad_request"),
        ({"member": ZED, "into": "0" * 12}, 422, "no_member"),
        ({"member": ZED, "into": ZED}, 422, "same_member"),
    ],
)
def test_a_bad_merge_is_refused(
    season: Season, official: APIClient, body: Any, status: int, code: str
) -> None:
    response = official.post("/api/members/merge/", body, format="json")
    assert response.status_code == status, response.content
    assert error(response)["code"] == code


def test_an_entry_is_split_off_its_member(
    season: Season, official: APIClient, anon: APIClient, commit: Callable[[], Any]
) -> None:
    ana = anon.get(f"/api/members/{ANA}/").json()
    entry = next(h for h in ana["history"] if h["tournament"] == str(season.second))
    with commit():
        split = official.post(
            "/api/members/split/", {"tournament": entry["tournament"], "player": entry["player"]}
        )
    assert split.status_code == 201, split.content
    new = split.json()["member"]
    assert new != ANA
    page = anon.get(f"/api/members/{new}/").json()
    assert [h["tournament"] for h in page["history"]] == [str(season.second)]
    assert len(anon.get(f"/api/members/{ANA}/").json()["history"]) == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"tournament": "0" * 32, "player": "P1"}, 422, "no_entry"),
        ({"tournament": "x", "player": "P1"}, 400, "bad_request"),
        ({"tournament": "0" * 32, "player": "P1", "index": 10**40}, 400, "bad_request"),
        ({"tournament": "0" * 32, "player": "P1", "index": -1}, 400, "bad_request"),
        ({"tournament": "0" * 32, "player": ["P1"]}, 400, "bad_request"),
    ],
)
def test_a_bad_split_is_refused(
    season: Season, official: APIClient, body: Any, status: int, code: str
) -> None:
    response = official.post("/api/members/split/", body, format="json")
    assert response.status_code == status, response.content
    assert error(response)["code"] == code


def test_a_member_is_renamed_and_hidden(
    season: Season, official: APIClient, anon: APIClient, commit: Callable[[], Any]
) -> None:
    path = f"/api/members/{ANA}/"
    with commit():
        renamed = official.patch(path, {"display_name": "Ana K."})
    assert renamed.status_code == 200, renamed.content
    assert anon.get(path).json()["name"] == "Ana K."
    with commit():
        assert official.patch(path, {"hidden": True}).status_code == 200
    assert anon.get(path).status_code == 404  # hidden from the public
    assert anon.get(f"/api/members/{ANA}/head-to-head/{BEN}/").status_code == 404
    assert official.get(path).json()["hidden"] is True  # not from the club's officials
    rows = anon.get(f"/api/leagues/{season.league}/standings/").json()["rows"]
    hidden = [r for r in rows if r["name"] == "Hidden member"]
    assert len(hidden) == 1 and hidden[0]["member"] is None  # the id would name her
    ratings = anon.get(f"/api/leagues/{season.league}/ratings/?game=trick-n-chef").json()
    assert ANA not in {r["member"] for r in ratings}
    assert [r["member"] for r in ratings if r["name"] == "Hidden member"] == [None]
    exported = anon.get("/api/club/results/").json()
    members = {m for g in exported for t in g["teams"] for m in t["members"]}
    assert ANA not in members and "hidden-1" in members
    official_rows = official.get(f"/api/leagues/{season.league}/standings/").json()["rows"]
    assert ANA in {r["member"] for r in official_rows}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 422, "nothing_to_change"),
        ({"hidden": "yes"}, 400, "bad_request"),
        ({"display_name": "x" * 101}, 400, "bad_request"),
        ({"display_name": None}, 400, "bad_request"),
        ({"name": "Ana"}, 400, "bad_request"),
    ],
)
def test_a_bad_member_change_is_refused(
    season: Season, official: APIClient, body: Any, status: int, code: str
) -> None:
    response = official.patch(f"/api/members/{ANA}/", body, format="json")
    assert response.status_code == status, response.content
    assert error(response)["code"] == code


def test_changing_an_unknown_member_is_a_404(season: Season, official: APIClient) -> None:
    response = official.patch(f"/api/members/{'0' * 12}/", {"hidden": True})
    assert response.status_code == 404


# ----------------------------------------------------------------------------- the club


def test_the_results_export(season: Season, anon: APIClient) -> None:
    response = anon.get("/api/club/results/?game=trick-n-chef")
    assert response.status_code == 200, response.content
    games = response.json()
    assert len(games) == 8  # two tournaments of two rounds of two tables
    assert [g["seq"] for g in games] == list(range(1, 9))
    first = games[0]
    assert set(first) == {
        "game_type",
        "seq",
        "game",
        "tournament",
        "round",
        "table",
        "rated",
        "teams",
    }
    assert first["rated"] is True and len(first["teams"]) == 4
    assert sorted(t["place"] for t in first["teams"]) == [1, 2, 3, 4]
    assert anon.get("/api/club/results/").json() == games  # every game: only Trick-n-Chef here
    assert anon.get("/api/club/results/?game=chefs").json() == []
    lines = anon.get("/api/club/results.jsonl?game=trick-n-chef")
    assert lines.status_code == 200
    assert lines["Content-Type"] == "application/jsonl; charset=utf-8"
    assert [json.loads(line) for line in lines.content.decode().splitlines()] == games


@pytest.mark.parametrize("path", ["/api/club/results/", "/api/club/results.jsonl"])
def test_the_results_export_of_an_unknown_game_is_a_400(anon: APIClient, path: str) -> None:
    response = anon.get(f"{path}?game=poker")
    assert response.status_code == 400
    refused = error(response)
    assert refused["code"] == "bad_game" and "trick-n-chef" in refused["message"]


def test_the_clubs_records(season: Season, anon: APIClient) -> None:
    response = anon.get("/api/club/records/")
    assert response.status_code == 200
    assert response.json() == []  # results only: no play log, no feats


def test_the_schema_lists_the_clubs_endpoints(anon: APIClient) -> None:
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operations = {(path, method) for path, methods in schema["paths"].items() for method in methods}
    league = "/api/leagues/{league_id}/"
    member = "/api/members/{member_id}/"
    assert {
        ("/api/leagues/", "get"),
        ("/api/leagues/", "post"),
        (league, "get"),
        (league, "patch"),
        (f"{league}standings/", "get"),
        ("/api/leagues/{league_id}/standings.csv", "get"),
        (f"{league}ratings/", "get"),
        (f"{league}tournaments/", "post"),
        (f"{league}tournaments/{{tournament}}/", "delete"),
        (f"{league}divisions/", "post"),
        (member, "get"),
        (member, "patch"),
        (f"{member}head-to-head/{{other}}/", "get"),
        ("/api/members/merge/", "post"),
        ("/api/members/split/", "post"),
        ("/api/club/results/", "get"),
        ("/api/club/results.jsonl", "get"),
        ("/api/club/records/", "get"),
    } <= operations
    writes = schema["paths"]["/api/leagues/"]["post"]["responses"]
    assert {"201", "400", "401", "403", "422"} <= set(writes)
    ratings = schema["paths"][f"{league}ratings/"]["get"]
    [game] = [p for p in ratings["parameters"] if p["name"] == "game"]
    assert game["required"] is True and "trick-n-chef" in game["schema"]["enum"]
    assert schema["components"]["schemas"]["LeagueCreate"]["additionalProperties"] is False
