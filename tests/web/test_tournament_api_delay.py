"""The spectators' delay through the tournaments API (issue 27): the tournament's `relay_delay`
setting (seconds) and a round's own delay, `POST .../rounds/{n}/delay/`, as the clock's
endpoint: strict shapes (400), the rules' refusals with their codes (422), organizers only
(403), in the schema and the read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.web.api import error, token_client

pytestmark = pytest.mark.django_db

NAMES = ["Alice", "Bruno", "Chloé", "Dmitri"]


def url(tid: str, path: str = "") -> str:
    return f"/api/tournaments/{tid}/{path}"


def created(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.content
    return dict(response.json())


def running(client: APIClient, publish: bool = True) -> str:
    """A tournament whose round 1 is paired (and published)."""
    body = {"name": "Spring Open", "date": "2026-03-14", "rounds": 3, "seed": 7}
    tid = str(created(client.post("/api/tournaments/", body, format="json"))["id"])
    created(client.post(url(tid, "players/"), {"names": NAMES, "checked_in": True}, format="json"))
    created(client.post(url(tid, "rounds/"), {}, format="json"))
    if publish:
        created(client.post(url(tid, "rounds/1/publish/"), {}, format="json"))
    return tid


def test_the_tournaments_delay_is_a_setting_in_seconds(api: APIClient) -> None:
    tid = running(api)
    assert "relay_delay" not in api.get(url(tid)).json()["settings"]  # 0: left out
    change = created(api.patch(url(tid, "settings/"), {"relay_delay": 300}, format="json"))
    assert change["tournament"]["settings"]["relay_delay"] == 300
    assert api.get(url(tid)).json()["settings"]["relay_delay"] == 300
    history = api.get(url(tid, "history/")).json()
    assert history[-1]["type"] == "settings_changed"
    assert history[-1]["data"] == {"changes": {"relay_delay": 300}}
    for bad in (-1, 3601, "300", 1.5, True, None):
        response = api.patch(url(tid, "settings/"), {"relay_delay": bad}, format="json")
        assert response.status_code == 400, (bad, response.content)
        assert "relay_delay" in error(response)["details"], bad
    created(api.patch(url(tid, "settings/"), {"relay_delay": 0}, format="json"))
    assert "relay_delay" not in api.get(url(tid)).json()["settings"]


def test_a_tournament_is_created_with_its_delay(api: APIClient) -> None:
    body = {"name": "Spring Open", "date": "2026-03-14", "rounds": 3, "relay_delay": 120}
    tid = str(created(api.post("/api/tournaments/", body, format="json"))["id"])
    assert api.get(url(tid)).json()["settings"]["relay_delay"] == 120
    refused = api.post("/api/tournaments/", {**body, "relay_delay": 3601}, format="json")
    assert refused.status_code == 400 and "relay_delay" in error(refused)["details"]


def test_a_round_gets_its_own_delay_and_gives_it_back(api: APIClient) -> None:
    tid = running(api)
    created(api.patch(url(tid, "settings/"), {"relay_delay": 120}, format="json"))
    change = created(api.post(url(tid, "rounds/1/delay/"), {"seconds": 600}, format="json"))
    assert [a["type"] for a in change["appended"]] == ["round_delay_set"]
    assert change["tournament"]["rounds"][0]["relay_delay"] == 600
    assert api.get(url(tid)).json()["rounds"][0]["relay_delay"] == 600
    same = api.post(url(tid, "rounds/1/delay/"), {"seconds": 600}, format="json")
    assert same.status_code == 422 and error(same)["code"] == "unchanged"
    back = created(api.post(url(tid, "rounds/1/delay/"), {"seconds": None}, format="json"))
    assert "relay_delay" not in back["tournament"]["rounds"][0]
    history = api.get(url(tid, "history/")).json()
    assert [e["data"] for e in history if e["type"] == "round_delay_set"] == [
        {"round": 1, "seconds": 600},
        {"round": 1, "seconds": None},
    ]
    # Undone as the other round actions: the round has its own delay again.
    done = created(api.post(url(tid, "undo/"), {"version": history[-1]["version"]}, format="json"))
    assert done["tournament"]["rounds"][0]["relay_delay"] == 600
    stale = api.post(
        url(tid, "rounds/1/delay/"), {"seconds": 60, "expected_version": 1}, format="json"
    )
    assert stale.status_code == 409


def test_a_proposed_round_takes_a_delay(api: APIClient) -> None:
    tid = running(api, publish=False)
    change = created(api.post(url(tid, "rounds/1/delay/"), {"seconds": 0}, format="json"))
    assert change["tournament"]["rounds"][0]["relay_delay"] == 0


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"seconds": -1},
        {"seconds": 3601},
        {"seconds": "60"},
        {"seconds": 60.0},
        {"seconds": True},
        {"seconds": 60, "minutes": 1},
    ],
)
def test_a_malformed_delay_is_a_bad_request(api: APIClient, body: dict[str, Any]) -> None:
    tid = running(api)
    response = api.post(url(tid, "rounds/1/delay/"), body, format="json")
    assert response.status_code == 400, (body, response.content)
    assert error(response)["code"] == "bad_request"
    assert "relay_delay" not in api.get(url(tid)).json()["rounds"][0]


def test_what_the_rules_refuse(api: APIClient) -> None:
    tid = running(api)
    unknown = api.post(url(tid, "rounds/2/delay/"), {"seconds": 60}, format="json")
    assert unknown.status_code == 422 and error(unknown)["code"] == "unknown_round"
    french = api.post(
        url(tid, "rounds/1/delay/"), {"seconds": None}, format="json", HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert french.status_code == 422
    assert error(french) == {"code": "unchanged", "message": "la ronde a déjà ce délai"}


def test_only_organizers_set_a_delay(
    api: APIClient, anon: APIClient, make_user: Callable[..., User]
) -> None:
    tid = running(api)
    sam = token_client(make_user("sam"))
    created(api.post(url(tid, "roles/"), {"username": "sam", "role": "scorekeeper"}))
    for client, status in ((sam, 403), (anon, 401)):
        response = client.post(url(tid, "rounds/1/delay/"), {"seconds": 60}, format="json")
        assert response.status_code == status, response.content
        response = client.patch(url(tid, "settings/"), {"relay_delay": 60}, format="json")
        assert response.status_code == status, response.content
    assert "relay_delay" not in api.get(url(tid)).json()["rounds"][0]


def test_the_schema_documents_the_delay(anon: APIClient) -> None:
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    write = schema["paths"]["/api/tournaments/{tournament_id}/rounds/{round}/delay/"]["post"]
    assert {"201", "400", "401", "403", "404", "409", "422"} <= set(write["responses"])
    assert write["requestBody"]["required"] is True
    parts = schema["components"]["schemas"]
    seconds = parts["TournamentDelay"]["properties"]["seconds"]
    assert (seconds["minimum"], seconds["maximum"], seconds["nullable"]) == (0, 3600, True)
    assert parts["TournamentDelay"]["required"] == ["seconds"]
    setting = parts["PatchedTournamentSettingsChange"]["properties"]["relay_delay"]
    assert (setting["minimum"], setting["maximum"]) == (0, 3600)
    assert "relay_delay" in parts["TournamentSettings"]["properties"]
    assert "relay_delay" in parts["TournamentRound"]["properties"]
