"""The tournaments API in the requester's language (issue 14): a refusal's ``message`` follows
Accept-Language while its ``code`` never changes; the CSV headers and the standings' column
titles follow it too; field names, codes and data stay as they are."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.web.api import token_client
from tournaments.api import exports

pytestmark = pytest.mark.django_db

NAMES = ["Alice", "Фёдор", "さくら", "Dmitri"]


@pytest.fixture
def olga(make_user: Callable[..., User]) -> APIClient:
    """Olga creates (organizes) the tournament."""
    return token_client(make_user("olga"))


def url(tournament: str, path: str = "") -> str:
    return f"/api/tournaments/{tournament}/{path}"


def created(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.content
    return dict(response.json())


def tournament(client: APIClient) -> str:
    body = {"name": "Весенний турнир", "date": "2026-03-14", "rounds": 3, "seed": 7}
    tid = str(created(client.post("/api/tournaments/", body))["id"])
    created(client.post(url(tid, "players/"), {"names": NAMES, "checked_in": True}))
    return tid


def refused(response: Any, status: int = 422) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}, body
    return dict(body["error"])


REVOKE_LAST_ORGANIZER = {
    "en": "a tournament keeps at least one organizer",
    "fr": "un tournoi garde au moins un organisateur",
    "ru": "у турнира должен остаться хотя бы один организатор",
    "ja": "トーナメントには少なくとも1人の主催者が必要です",
}


@pytest.mark.parametrize("language", ["en", "fr", "ru", "ja"])
def test_revoking_the_last_organizer_is_refused_in_the_requesters_language(
    olga: APIClient, language: str
) -> None:
    tid = tournament(olga)
    response = olga.post(
        url(tid, "roles/"),
        {"username": "olga", "role": "organizer", "grant": False},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    error = refused(response)
    assert error == {"code": "last_organizer", "message": REVOKE_LAST_ORGANIZER[language]}


def test_without_accept_language_the_api_stays_english(olga: APIClient) -> None:
    tid = tournament(olga)
    response = olga.post(url(tid, "rounds/2/publish/"))
    assert refused(response) == {"code": "unknown_round", "message": "round 2 has not been paired"}


def test_a_refusal_with_a_player_and_a_services_refusal_are_translated(olga: APIClient) -> None:
    tid = tournament(olga)
    again = olga.post(url(tid, "players/P2/check-in/"), {}, HTTP_ACCEPT_LANGUAGE="ru")
    assert refused(again) == {
        "code": "already_done",
        "message": "прибытие игрока Фёдор уже отмечено",
    }
    clock = olga.post(url(tid, "rounds/1/clock/"), {}, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused(clock) == {
        "code": "bad_clock",
        "message": "donnez l'un des trois : l'heure de fin de la ronde, sa durée en minutes, "
        "ou l'arrêt",
    }


def test_a_permission_refusal_is_translated_and_stays_a_403(
    olga: APIClient, make_user: Callable[..., User]
) -> None:
    tid = tournament(olga)
    stranger = token_client(make_user("oscar"))
    response = stranger.post(url(tid, "finish/"), {}, HTTP_ACCEPT_LANGUAGE="ja")
    assert refused(response, 403) == {
        "code": "forbidden",
        "message": "これができるのはこのトーナメントの主催者だけです",
    }


def test_the_standings_csv_headers_are_russian_and_its_data_stays_data(olga: APIClient) -> None:
    tid = tournament(olga)
    response = olga.get(url(tid, "standings.csv"), HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    text = response.content.decode("utf-8").removeprefix(exports.BOM)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == [
        "Место",
        "Игрок",
        "Очки",
        "Победные очки",
        "Средний результат соперников",
        "Первые места",
        "Партии",
        "Пропуски туров",
        "Снят с турнира",
    ]
    assert sorted(row[1] for row in rows[1:]) == sorted(NAMES)
    assert {row[-1] for row in rows[1:]} == {"no"}


def test_the_results_csv_headers_follow_the_language(olga: APIClient) -> None:
    tid = tournament(olga)
    created(olga.post(url(tid, "rounds/"), {}))
    created(olga.post(url(tid, "rounds/1/publish/")))
    response = olga.get(url(tid, "results.csv"), HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200, response.content
    text = response.content.decode("utf-8").removeprefix(exports.BOM)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["ラウンド", "テーブル", "席", "プレイヤー", "着順", "勝利点", "確定済み"]
    assert {row[-1] for row in rows[1:]} == {"no"}


def test_the_standings_titles_follow_the_language_and_the_keys_stay(olga: APIClient) -> None:
    tid = tournament(olga)
    fr = olga.get(url(tid, "standings/"), HTTP_ACCEPT_LANGUAGE="fr").json()
    en = olga.get(url(tid, "standings/")).json()
    assert [c["key"] for c in fr["columns"]] == [c["key"] for c in en["columns"]]
    assert [c["title"] for c in fr["columns"]][:3] == ["Rang", "Joueur", "Points"]
    assert [c["title"] for c in en["columns"]][:3] == ["Rank", "Player", "Points"]
    assert fr["rows"] == en["rows"]


def test_pairing_notes_in_the_summary_follow_the_language(olga: APIClient) -> None:
    tid = tournament(olga)
    created(olga.post(url(tid, "rounds/"), {}))
    ru = olga.get(url(tid), HTTP_ACCEPT_LANGUAGE="ru").json()["rounds"][0]["notes"]
    en = olga.get(url(tid)).json()["rounds"][0]["notes"]
    assert len(ru) == len(en) and ru != en
    assert any(note.startswith("Случайная рассадка (сид 7") for note in ru), ru
    assert any(note.startswith("Random seating (seed 7") for note in en), en
