"""The games API for every game type (issue 15): create a game of each type with its options,
record its events, enter its results in its own shape, read its game-neutral results, export and
import its record; another game's events and shapes are refused in words, never with a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine.registry import RULES
from games.gametypes import GAME_TYPES
from tests.games.records import start_args
from tests.web.api import append, create, dump_log_and_projections, error

pytestmark = pytest.mark.django_db


def record_of(key: str, seed: int = 1) -> list[dict[str, Any]]:
    return RULES[key].simulate(seed, 4)


def start(api: APIClient, key: str, first: dict[str, Any], **extra: Any) -> Any:
    players, options = start_args(first)
    body = {"game_type": key, "players": players, **options, **extra}
    return api.post("/api/games/", body, format="json")


def test_a_whole_game_of_each_type_through_the_api(api: APIClient, game_key: str) -> None:
    key = game_key
    record = record_of(key)
    created = start(api, key, record[0])
    assert created.status_code == 201, created.content
    game = created.json()
    response = append(api, game["id"], game["version"], record[1:])
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "finished"

    detail = api.get(f"/api/games/{game['id']}/").json()
    expected = RULES[key].replay([json.dumps(e) for e in record])
    assert detail["game_type"] == key and detail["status"] == "finished"
    assert detail["state"]["ranking"] == expected["ranking"]
    name = "team" if GAME_TYPES[key].teams else "player"
    assert [(r["player"], r["rank"]) for r in detail["results"]] == [
        (e[name], e["rank"]) for e in expected["ranking"]
    ]
    assert [(r["points"], r["tiebreaks"]) for r in detail["results"]] == [
        (p.points, list(p.tiebreaks)) for p in GAME_TYPES[key].placements(detail["state"])
    ]

    exported = api.get(f"/api/games/{game['id']}/record/")
    assert exported.status_code == 200
    text = exported.content.decode()
    assert [json.loads(line) for line in text.splitlines()] == record
    # The record names its game (or is the default's): imported without saying which, it is
    # that game again.
    imported = api.generic("POST", "/api/games/import/", text, content_type="application/jsonl")
    assert imported.status_code == 201, imported.content
    again = api.get(imported["Location"]).json()
    assert again["game_type"] == key and again["results"] == detail["results"]


def test_trick_n_chef_results_keep_total_and_last_round(api: APIClient) -> None:
    game = create(api)
    scores = {"p1": [10, 5, 7], "p2": [3, 4, 5], "p3": [0, 0, 21], "p4": [1, 1, 1]}
    response = api.post(
        f"/api/games/{game['id']}/results/",
        {"expected_version": 1, "scores": scores},
        format="json",
    )
    assert response.status_code == 201, response.content
    detail = api.get(f"/api/games/{game['id']}/").json()
    assert detail["state"]["ranking"][0] == {
        "player": "p1",
        "rank": 1,
        "total": 22,
        "last_round": 7,
    }
    assert detail["results"][0] == {
        "player": "p1",
        "seat": 1,
        "rank": 1,
        "points": 22,
        "tiebreaks": [7],
        "round_scores": [10, 5, 7],
    }


@pytest.mark.parametrize(
    ("key", "players", "options", "entry", "winner"),
    [
        (
            "food-truck",
            ["Ann", "Bo", "Cy"],
            {},
            {"victory_points": {"Ann": 1, "Bo": 3, "Cy": 1}, "winner": "Bo"},
            "Bo",
        ),
        ("chefs", ["Ann", "Bo", "Cy"], {}, {"positions": {"Ann": 22, "Bo": 17, "Cy": 9}}, "Ann"),
        (
            "crazy-kitchen",
            ["Pizza", "Fries"],
            {"members": {"Pizza": ["Ann", "Bo", "Cy"], "Fries": ["Di", "Ed"]}, "compensation": 4},
            {"scores": [10, 12, 8, 9, 7, 10]},
            "Fries",
        ),
    ],
)
def test_results_only_in_each_games_own_shape(
    api: APIClient,
    key: str,
    players: list[str],
    options: dict[str, Any],
    entry: dict[str, Any],
    winner: str,
) -> None:
    created = api.post(
        "/api/games/", {"game_type": key, "players": players, **options}, format="json"
    )
    assert created.status_code == 201, created.content
    game = created.json()
    response = api.post(
        f"/api/games/{game['id']}/results/",
        {"expected_version": game["version"], **entry},
        format="json",
    )
    assert response.status_code == 201, response.content
    detail = api.get(f"/api/games/{game['id']}/").json()
    assert detail["results_only"] is True and detail["status"] == "finished"
    assert detail["results"][0]["player"] == winner and detail["results"][0]["rank"] == 1
    if key == "crazy-kitchen":  # the compensation set at the start counts
        assert detail["results"][0]["points"] == 12 + 9 + 10 + 4


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game_type": "food-truck", "players": ["a", "b"], "suits": ["red"]}, "suits"),
        ({"game_type": "chefs", "players": ["a", "b"], "members": {"a": ["x"]}}, "members"),
        ({"game_type": "crazy-kitchen", "players": ["A", "B"]}, "members"),
        ({"game_type": "crazy-kitchen", "players": ["A", "B"], "members": ["x"]}, "members"),
        ({"game_type": "snooker", "players": ["a", "b"]}, "game_type"),
        ({"game_type": 3, "players": ["a", "b"]}, "game_type"),
        ({"game_type": "chefs", "players": ["a", "b"], "compensation": 2}, "compensation"),
        (
            {"game_type": "crazy-kitchen", "players": ["A", "B"], "members": {"A": ["x"] * 101}},
            "members",
        ),
    ],
)
def test_a_create_with_another_games_options_is_refused_by_field(
    api: APIClient, body: dict[str, Any], field: str
) -> None:
    before = dump_log_and_projections()
    response = api.post("/api/games/", body, format="json")
    assert response.status_code == 400, response.content
    assert error(response)["code"] == "bad_request"
    assert field in error(response)["details"], error(response)
    assert dump_log_and_projections() == before


@pytest.mark.parametrize(
    ("key", "players", "options", "code"),
    [
        ("food-truck", ["a"], {}, "bad_players"),
        ("chefs", ["a", "a"], {}, "bad_players"),
        ("crazy-kitchen", ["A", "B"], {"members": {"A": ["x"], "B": ["y"]}}, "bad_teams"),
        (
            "crazy-kitchen",
            ["A", "B"],
            {"members": {"A": ["x", "y"], "B": ["u", "v"], "C": ["w", "z"]}},
            "bad_teams",
        ),
        (
            "crazy-kitchen",
            ["A", "B"],
            {"members": {"A": ["x", "y", "z"], "B": ["u", "v"]}, "compensation": -1},
            "bad_compensation",
        ),
    ],
)
def test_a_game_the_rules_do_not_allow_is_refused_in_words(
    api: APIClient, key: str, players: list[str], options: dict[str, Any], code: str
) -> None:
    response = api.post(
        "/api/games/", {"game_type": key, "players": players, **options}, format="json"
    )
    assert response.status_code == 422, response.content
    assert error(response)["code"] == code


def test_another_games_events_are_refused(api: APIClient, game_key: str) -> None:
    game = start(api, game_key, record_of(game_key)[0]).json()
    before = dump_log_and_projections()
    for other in GAME_TYPES:
        if other == game_key:
            continue
        event = record_of(other)[1]  # its first event after game_started
        response = append(api, game["id"], game["version"], [event])
        assert response.status_code == 422, response.content
        assert error(response)["event"] == 0
        assert error(response)["code"] in ("bad_event", "out_of_order", "unknown_player")
    assert dump_log_and_projections() == before


@pytest.mark.parametrize(
    ("key", "entry", "status", "code"),
    [
        ("food-truck", {"scores": {"p1": [1, 2, 3]}}, 422, "bad_results"),
        ("food-truck", {"victory_points": {"p1": "3"}, "winner": "p1"}, 422, "bad_results"),
        ("food-truck", {"victory_points": {"p1": 3}, "winner": 7}, 400, "bad_request"),
        ("food-truck", {"victory_points": {}, "positions": {}}, 400, "bad_request"),
        ("chefs", {"positions": [1, 2]}, 400, "bad_request"),
        ("chefs", {"positions": {"p1": None}}, 422, "bad_results"),
        ("chefs", {"scores": [1, 2, 3, 4, 5, 6]}, 422, "bad_results"),
        ("crazy-kitchen", {"scores": [1, 2, 3]}, 422, "bad_results"),
        ("crazy-kitchen", {"scores": list(range(101))}, 400, "bad_request"),
        ("crazy-kitchen", {"scores": [1] * 6, "totals": {}}, 400, "bad_request"),
        ("crazy-kitchen", {"scores": [1] * 6, "compensation": "2"}, 400, "bad_request"),
        ("crazy-kitchen", {"scores": "six"}, 400, "bad_request"),
        ("trick-n-chef", {"positions": {"p1": 3}}, 422, "bad_results"),
        ("trick-n-chef", {}, 400, "bad_request"),
    ],
)
def test_a_results_entry_of_the_wrong_shape_is_refused_in_words(
    api: APIClient, key: str, entry: dict[str, Any], status: int, code: str
) -> None:
    game = start(api, key, record_of(key)[0]).json()
    before = dump_log_and_projections()
    response = api.post(
        f"/api/games/{game['id']}/results/",
        {"expected_version": game["version"], **entry},
        format="json",
    )
    assert response.status_code == status, response.content
    assert error(response)["code"] == code
    assert dump_log_and_projections() == before


def test_an_import_of_another_games_record_under_a_game_type_is_refused(api: APIClient) -> None:
    text = "".join(json.dumps(e) + "\n" for e in record_of("chefs"))
    response = api.generic(
        "POST", "/api/games/import/?game_type=food-truck", text, content_type="application/jsonl"
    )
    assert response.status_code == 422, response.content
    assert error(response) == {**error(response), "code": "bad_event", "event": 0}


@pytest.mark.parametrize(
    "first", [b"[" * 100000, b"\xff\xfe", b"", b'{"game": "chefs", "game": "x"}', b"7"]
)
def test_an_unreadable_first_line_is_trick_n_chefs_to_refuse(api: APIClient, first: bytes) -> None:
    body: Any = first + b"\n"  # the client sends bytes as they are (its stubs say str)
    response = api.generic("POST", "/api/games/import/", body, content_type="application/jsonl")
    assert response.status_code == 422, response.content
    assert error(response)["code"] in ("bad_json", "bad_event")


def test_a_club_games_refusal_follows_accept_language(api: APIClient) -> None:
    record = record_of("chefs")
    game = start(api, "chefs", record[0]).json()
    laid = [e for e in record[1:5] if e["type"] == "meal_laid"]  # a v2 table: its set-up first
    game = api.post(
        f"/api/games/{game['id']}/events/",
        {"expected_version": game["version"], "events": laid},
        format="json",
    ).json()
    wrong = {"type": "round_started", "round": 2, "starting_player": "p1"}
    said = {}
    for language in ("en", "fr", "ja"):
        response = api.post(
            f"/api/games/{game['id']}/events/",
            {"expected_version": game["version"], "events": [wrong]},
            format="json",
            headers={"Accept-Language": language},
        )
        assert response.status_code == 422
        assert error(response)["code"] == "wrong_round"  # never translated
        said[language] = error(response)["message"]
    assert said == {
        "en": "the next round is round 1, not 2",
        "fr": said["fr"],
        "ja": said["ja"],
    }
    assert said["fr"] != said["en"] and said["ja"] != said["en"] and "2" in said["ja"]
